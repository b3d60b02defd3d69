"""Zheng Shang You engine: tricks, passing, lead passing, the bitter end, pit, tribute, team scoring."""

from __future__ import annotations

import pytest

from solver.cards import Cards
from solver.engine import new_game, replay
from solver.engine.base import GameRecord
from solver.engine.selfplay import check_invariants, play_one
from solver.errors import IllegalActionError
from solver.rules import ZsyRules
from solver.zsy import Combo
from solver.zsy.game import Tribute, ZPass, ZPlay, ZsyGame
from tests.oracles.zsy_reference import value as ref_value


def scripted(hands: list[str], **options: object) -> ZsyGame:
    """A 4-player game whose hands are fixed (the rest of the deck counts as already played)."""
    game = ZsyGame(ZsyRules(), len(hands), seed=0, **options)  # type: ignore[arg-type]
    game.hands = [Cards.parse(h) for h in hands]
    held = Cards()
    for h in game.hands:
        held = held + h
    game.played = game.rules.deck - held
    game.leader = game.to_move = 0
    return game


def do(game: ZsyGame, *texts: str) -> None:
    for text in texts:
        game.apply(game.parse_action(text))


def test_deal_and_first_lead() -> None:
    game = new_game("zsy", players=5, seed=3)
    assert sorted(len(h) for h in game.hands) == [10, 11, 11, 11, 11]
    assert game.current_player() == 0  # the dealer leads
    check_invariants(game)
    assert not any(isinstance(a, ZPass) for a in game.legal_actions())  # the leader cannot pass


def test_passing_does_not_forfeit_the_trick() -> None:
    game = scripted(["3H 9C", "4H 5H KS", "6H QD", "7H JD"])
    do(game, "play single:3H", "pass", "play single:6H", "pass")
    assert game.to_move == 0
    do(game, "pass")
    # player 1 passed earlier and may still play in the same trick
    assert game.to_move == 1 and any(isinstance(a, ZPlay) for a in game.legal_actions())
    do(game, "play single:KS")
    assert game.trick == Combo.parse("KS")


def test_trick_cleared_when_all_others_pass() -> None:
    game = scripted(["3H 9C", "4H 5H", "6H QD", "7H JD"])
    do(game, "play single:9C", "pass", "pass", "pass")
    assert game.trick is None and game.to_move == 0  # the last player to play leads


def test_only_same_shape_that_beats() -> None:
    game = scripted(["7H 7S 9C", "8H 8S 8D 10C", "6H QD", "7D JD"])
    do(game, "play set:7H 7S")
    legal = game.legal_actions()
    assert ZPlay(1, Combo.parse("set:8H 8S")) in legal and ZPass(1) in legal
    assert all(isinstance(a, ZPass) or a.combo.shape == ("set", 2, 1) for a in legal)
    assert len(legal) == 4  # three pairs of eights, and the pass
    with pytest.raises(IllegalActionError):
        do(game, "play set:8H 8S 8D")


def test_lead_passes_when_the_leader_is_out() -> None:
    game = scripted(["3H", "4H 5C", "6H QD", "7H JD"])
    do(game, "play single:3H")
    assert game.places == [0]
    do(game, "pass", "pass", "pass")
    assert game.trick is None and game.to_move == 1  # the next player still holding cards leads


def test_bitter_end_places_and_scores() -> None:
    game = scripted(["3H", "4H", "6H QD", "7H JD KS"], max_hands=1)
    do(game, "play single:3H")  # 1st out
    do(game, "pass", "pass", "pass")  # p0 out: lead passes to p1
    do(game, "play single:4H")  # 2nd out
    do(game, "play single:6H", "play single:7H", "pass")  # p2 plays, p3 plays, p2 passes: p3 leads
    assert game.to_move == 3
    do(game, "play single:JD", "play single:QD")  # p2 goes out third: p3 is last
    assert game.is_terminal()
    assert game.places == [0, 1, 2, 3]
    assert game.scores() == [2, 1, 0, 0] and game.winners() == [0]


def phase_of(game: ZsyGame) -> str:
    """The phase, read afresh (mypy keeps an earlier ``assert`` narrowing otherwise)."""
    return game.phase


def test_tribute_after_a_hand() -> None:
    game = new_game("zsy", players=4, seed=11, max_hands=2)
    assert isinstance(game, ZsyGame)
    # play the first hand with a simple policy
    while game.hand_number == 1:
        legal = game.legal_actions()
        game.apply(legal[0])
    check_invariants(game)
    assert game.phase == "tribute"
    first, second, pit1, _pit2 = game.last_places
    assert game.to_move == pit1
    offer = game.legal_actions()
    best = max(ref_value(a.card) for a in offer)
    assert all(ref_value(a.card) == best for a in offer)  # only the best card may be offered
    best_of_pit1 = max(ref_value(c) for c in game.hands[pit1])
    assert best == best_of_pit1
    game.apply(offer[0])
    game.apply(game.legal_actions()[0])  # pit2 offers
    sizes = [len(h) for h in game.hands]
    take = game.legal_actions()
    assert game.to_move == first and {a.step for a in take} == {"take"}
    game.apply(take[-1])
    assert len(game.hands[first]) == sizes[first] + 1 and len(game.hands[second]) == sizes[second] + 1
    game.apply(game.legal_actions()[0])  # the winner gives a card
    assert game.to_move == second
    game.apply(game.legal_actions()[0])  # the second gives a card
    assert game.to_move == pit1
    game.apply(game.legal_actions()[0])  # the second-to-last takes one given card, the last gets the other
    check_invariants(game)
    assert phase_of(game) == "trick"
    assert game.to_move == game.last_places[2]  # the third out deals and leads
    with pytest.raises(IllegalActionError):
        game.apply(Tribute(game.to_move, "give", next(iter(game.hands[game.to_move]))))


@pytest.mark.parametrize(
    ("places", "points"),
    [
        ([0, 2, 4, 1, 3, 5], [10, 0]),  # team 0 (seats 0, 2, 4) holds places 1, 2 and 3
        ([0, 2, 1, 4, 3, 5], [5, 0]),  # places 1 and 2, their third player not last: 5, no 2 for avoiding
        ([0, 2, 1, 3, 5, 4], [5, 2]),  # places 1 and 2, their third player last: the others avoid the loss
        ([0, 1, 2, 3, 4, 5], [3 + 2, 2]),  # winner 3, second 2, team 0 avoids the loss (seat 5 is last)
        ([1, 0, 3, 2, 5, 4], [2, 3 + 2]),  # the mirror image
    ],
)
def test_teams6_scoring(places: list[int], points: list[int]) -> None:
    game = new_game("zsy", rules={"preset": "teams6"}, players=6, seed=1)
    assert isinstance(game, ZsyGame)
    assert game.hand_points(places) == points


def test_pairs_partners_add_scores() -> None:
    game = new_game("zsy", rules={"preset": "pairs"}, players=4, seed=1)
    assert isinstance(game, ZsyGame)
    assert game.hand_points([0, 2, 1, 3]) == [3, 0]
    assert game.hand_points([1, 0, 2, 3]) == [1, 2]
    with pytest.raises(IllegalActionError):
        new_game("zsy", rules={"preset": "pairs"}, players=5)


def test_record_replays_to_the_same_state() -> None:
    result = play_one("zsy", {}, ["greedy", "random", "random", "random"], seed=5, options={"max_hands": 2})
    assert not result.error
    game = new_game("zsy", players=4, seed=5, max_hands=2)
    from solver.engine.players import make_players

    players = make_players(["greedy", "random", "random", "random"], 5)
    while not game.is_terminal():
        game.apply(players[game.current_player()].choose(game))
    record = game.record()
    again = replay(GameRecord.from_json(record.to_json()))
    assert again.scores() == game.scores() == list(result.scores)
    assert again.observation(0) == game.observation(0)


@pytest.mark.parametrize("preset", ["individual", "pairs", "teams6"])
def test_random_games_keep_every_card(preset: str) -> None:
    players = {"individual": 5, "pairs": 4, "teams6": 6}[preset]
    for seed in range(30):
        r = play_one("zsy", {"preset": preset}, ["random"] * players, seed, {"max_hands": 2}, check=True)
        assert not r.error, r.error
        assert r.winners


def test_observation_hides_other_hands() -> None:
    game = new_game("zsy", players=4, seed=2)
    obs = game.observation(1)
    assert obs["hand"] == [c.code for c in game.hands[1]]
    assert "hands" not in obs and obs["hand_sizes"] == [len(h) for h in game.hands]
    assert str(game.hands[0]) not in str(obs)


def test_teams6_first_leader_holds_the_shown_card() -> None:
    """The rule book: the first leader is the holder of a card drawn at random and shown before the deal."""
    leaders = set()
    for seed in range(300):
        game = new_game("zsy", rules={"preset": "teams6"}, players=6, seed=seed)
        assert isinstance(game, ZsyGame)
        shown = game.shown
        assert shown is not None
        holders = [p for p in range(6) if shown in game.hands[p]]
        assert holders == [game.current_player()], seed
        leaders.add(game.current_player())
        obs = game.observation(holders[0] - 1)
        assert obs["shown"] == str(shown)
        assert game.record().options["shown"] == str(shown)
    assert leaders == set(range(6))  # the shown card picks every seat over the seeds


def test_teams6_record_keeps_the_shown_card_and_replays() -> None:
    result = play_one("zsy", {"preset": "teams6"}, ["random"] * 6, seed=4, options={"max_hands": 2}, check=True)
    assert not result.error
    game = new_game("zsy", rules={"preset": "teams6"}, players=6, seed=4, max_hands=2)
    assert isinstance(game, ZsyGame)
    game.apply(game.legal_actions()[0])
    record = GameRecord.from_json(game.record().to_json())
    again = replay(record)
    assert isinstance(again, ZsyGame) and again.shown == game.shown
    assert again.observation(0) == game.observation(0)
    wrong = "2S" if str(game.shown) != "2S" else "3S"
    with pytest.raises(IllegalActionError, match="shown card"):
        new_game("zsy", rules={"preset": "teams6"}, players=6, seed=4, shown=wrong)
    with pytest.raises(IllegalActionError, match="only teams6"):
        new_game("zsy", players=4, seed=4, shown="2S")


def test_other_presets_show_no_card() -> None:
    game = new_game("zsy", players=4, seed=3)
    assert isinstance(game, ZsyGame)
    assert game.shown is None and game.observation(0)["shown"] is None and "shown" not in game.record().options


def _reply_position(mine: str, theirs: list[str], trick: str) -> ZsyGame:
    """Player 0 to reply to ``trick`` (played by player 1) holding ``mine``; the others hold ``theirs``."""
    game = new_game("zsy", players=4, seed=1)
    assert isinstance(game, ZsyGame)
    game.hands = [Cards.parse(mine), *(Cards.parse(h) for h in theirs)]
    game.trick = Combo.parse(trick)
    game.trick_player, game.to_move, game.passes = 1, 0, 2
    return game


def test_solver_plays_a_reply_that_costs_no_play() -> None:
    """A reply leaving as many plays as now sheds cards and may win the lead: the player who only passed never led."""
    from solver.zsy.players import solver_decision

    game = _reply_position(
        "AS 2S 5S 2H 4H 7H 9H KH 5D 6D 8D 10D RJ",
        ["3S 4S 6S 8S 9S 10S JS QS KS 3H 5H 6H 8H", "10H JH QH AH 3D 4D 7D 9D JD QD KD AD 3C", "4C 5C 6C 7C 8C"],
        "3C",
    )
    decision = solver_decision(game)
    assert isinstance(decision.action, ZPlay), decision.reason


@pytest.mark.parametrize("seed", [15, 16, 21])
def test_solver_players_play_in_every_hand(seed: int) -> None:
    """Four solver players: each plays at least one card in every hand (these seeds had one that only passed)."""
    from solver.engine.players import make_players

    game = new_game("zsy", players=4, seed=seed, max_hands=3)
    assert isinstance(game, ZsyGame)
    players = make_players(["solver"] * 4, seed)
    played, hand_number = [False] * 4, game.hand_number
    while not game.is_terminal():
        player = game.current_player()
        action = players[player].choose(game)
        played[player] |= isinstance(action, ZPlay)
        game.apply(action)
        if game.hand_number != hand_number or game.is_terminal():
            assert all(played), (seed, hand_number, played)
            played, hand_number = [False] * 4, game.hand_number
