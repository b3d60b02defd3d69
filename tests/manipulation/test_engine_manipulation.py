"""Manipulation Shanghai engine: deal, must_play, draw rules, passing, scoring, records."""

from __future__ import annotations

import pytest

from solver.cards import Card, Cards
from solver.engine import new_game, replay
from solver.engine.base import GameRecord
from solver.engine.selfplay import check_invariants, play_one
from solver.errors import IllegalActionError
from solver.manipulation.game import ManipulationGame, MDraw, MPass, MPlay
from solver.melds import parse_table
from solver.rules import ManipulationRules


def scripted(
    hands: list[str], table: str = "", stock: str = "", rules: ManipulationRules | None = None, **options: object
) -> ManipulationGame:
    """A game with fixed hands, table and stock (the stock's last card is drawn first)."""
    game = ManipulationGame(rules or ManipulationRules(), len(hands), seed=0, **options)  # type: ignore[arg-type]
    game.hands = [Cards.parse(h) for h in hands]
    game.table = parse_table(table) if table else ()
    game.stock = [Card.parse(c) for c in stock.split()]
    game.to_move = 0
    game._cache.clear()
    return game


def do(game: ManipulationGame, *texts: str) -> None:
    for text in texts:
        game.apply(game.parse_action(text))


def test_deal() -> None:
    game = new_game("manipulation", players=4, seed=1)
    assert isinstance(game, ManipulationGame)
    assert [len(h) for h in game.hands] == [10, 10, 10, 10]
    assert len(game.stock) == 104 - 40
    assert game.current_player() == 1  # play starts left of the dealer (player 0 deals first)
    check_invariants(game)


def test_a_player_who_can_play_must_play() -> None:
    game = scripted(["5H 6H 7H KC", "2C 9D", "3S", "4S"], stock="AD")
    with pytest.raises(IllegalActionError, match="must play"):
        do(game, "draw")
    legal = game.legal_actions()
    assert not any(isinstance(a, MDraw) for a in legal)
    do(game, "play 5H 6H 7H")
    assert game.table == parse_table("5H 6H 7H") and game.to_move == 1


def test_more_than_one_rule() -> None:
    # german preset: a player able to meld more than one card must meld more than one
    game = scripted(["8H 9H 10H KC", "2C", "3S", "4S"], table="5H 6H 7H", stock="AD")
    with pytest.raises(IllegalActionError, match="more than one"):
        do(game, "play 5H 6H 7H 8H")
    do(game, "play 5H 6H 7H 8H 9H")  # two cards is enough; not every card that fits
    assert game.hands[0] == Cards.parse("10H KC")
    one = scripted(["8H 9H KC", "2C", "3S", "4S"], table="5H 6H 7H", rules=ManipulationRules(must_play="one"))
    do(one, "play 5H 6H 7H 8H")
    assert one.hands[0] == Cards.parse("9H KC")


def test_rearrangement_is_a_legal_play() -> None:
    rules = ManipulationRules.preset("norwegian")
    game = scripted(["6S KD", "2C", "3S"], table="3H 4H 5H 6H | 3C 4C 5C 6C", rules=rules)
    assert game.max_playable() == 1
    (play,) = [a for a in game.legal_actions() if isinstance(a, MPlay)]  # only the solver's rearrangement
    assert sorted(str(m) for m in play.table) == sorted(["3H 4H 5H", "3C 4C 5C", "6S 6H 6C"]) or len(play.table) == 3
    do(game, "play 3H 4H 5H | 3C 4C 5C | 6S 6H 6C")
    assert game.hands[0] == Cards.parse("KD")
    with pytest.raises(IllegalActionError, match="lost"):
        g2 = scripted(["6S KD", "2C", "3S"], table="3H 4H 5H 6H | 3C 4C 5C 6C", rules=rules)
        do(g2, "play 3H 4H 5H | 6S 6H 6C")


def test_draw_until_playable() -> None:
    game = scripted(["KC", "2C", "3S", "4S"], table="5H 6H 7H", stock="9H 8H JD")
    assert [str(a) for a in game.legal_actions()] == ["draw"]
    do(game, "draw")  # JD: still nothing, draw again
    assert game.to_move == 0 and [str(a) for a in game.legal_actions()] == ["draw"]
    do(game, "draw")  # 8H fits the run: must play it
    with pytest.raises(IllegalActionError):
        do(game, "draw")
    do(game, "play 5H 6H 7H 8H")
    assert game.to_move == 1 and game.hands[0] == Cards.parse("KC JD")


def test_draw_one_then_pass() -> None:
    rules = ManipulationRules.preset("norwegian")
    game = scripted(["KC", "2C", "3S"], table="5H 6H 7H", stock="8H JD", rules=rules)
    do(game, "draw")  # JD does not fit: the turn ends with a pass
    assert [str(a) for a in game.legal_actions()] == ["pass"]
    with pytest.raises(IllegalActionError):
        do(game, "draw")
    do(game, "pass")
    assert game.to_move == 1


def test_empty_stock_passing_ends_the_hand() -> None:
    game = scripted(["KC", "2C 3D", "9S"], table="5H 6H 7H", max_hands=1)
    for _ in range(3):
        assert [str(a) for a in game.legal_actions()] == ["pass"]
        do(game, "pass")
    assert game.is_terminal()
    assert game.scores() == [1, 2, 1]  # the hand ends as it stands: one point per card


def test_going_out_scores_and_target() -> None:
    game = scripted(["8H 9H", "2C 3D", "9S"], table="5H 6H 7H", rules=ManipulationRules(target=2))
    do(game, "play 5H 6H 7H 8H 9H")
    assert game.last_hand == [0, 2, 1]
    assert game.is_terminal() and game.scores() == [0, 2, 1] and game.winners() == [0]


def test_initial_meld_rummikub() -> None:
    rules = ManipulationRules.preset("rummikub")
    game = scripted(["10H JH QH 8D", "3S", "4S"], table="5D 6D 7D", stock="AC", rules=rules)
    # 10+11+12 = 33 >= 30 from the hand alone; the table may not be touched first
    legal = [str(a) for a in game.legal_actions()]
    assert "play 5D 6D 7D | 10H JH QH" in legal and "draw" in legal  # must_play never: may draw
    assert "play 5D 6D 7D 8D" not in legal
    with pytest.raises(IllegalActionError, match="first play"):
        do(game, "play 5D 6D 7D 8D | 10H JH QH")
    do(game, "play 5D 6D 7D | 10H JH QH")
    assert game.opened[0]
    low = scripted(["2H 3H 4H KS", "3S", "4S"], stock="AC", rules=rules)
    assert [str(a) for a in low.legal_actions()] == ["draw"]  # 9 points is not enough to open


def test_initial_meld_ignores_the_order_of_melds_and_cards() -> None:
    """Issue 12: the old melds may come anywhere in the new table, cards in any order."""
    rules = ManipulationRules.preset("rummikub")
    game = scripted(["10H JH QH 8D", "3S", "4S"], table="5D 6D 7D", stock="AC", rules=rules)
    do(game, "play QH JH 10H | 7D 6D 5D")
    assert game.opened[0] and sorted(sorted(map(str, m.cards)) for m in game.table) == [
        ["10H", "JH", "QH"],
        ["5D", "6D", "7D"],
    ]
    moved = scripted(["10H JH QH 8D", "3S", "4S"], table="5D 6D 7D", stock="AC", rules=rules)
    with pytest.raises(IllegalActionError, match="first play"):  # the old meld is still not to be touched
        do(moved, "play QH JH 10H | 8D 7D 6D 5D")


def test_initial_meld_counts_a_joker_as_its_card() -> None:
    """Issue 12: a joker counts the value of the card it stands for (10 + 10 + 10 = 30)."""
    rules = ManipulationRules.preset("rummikub")
    game = scripted(["10H 10S JK 2C", "3S", "4S"], stock="AC", rules=rules)
    assert game.can_play() and game.opening_value(parse_table("10H 10S JK")) == 30
    do(game, "play 10H 10S JK")
    assert game.opened[0]
    short = scripted(["9H 9S JK 2C", "3S", "4S"], stock="AC", rules=rules)
    with pytest.raises(IllegalActionError, match="first play"):  # 27 points
        do(short, "play 9H 9S JK")


def test_three_decks_seat_eight() -> None:
    """Issue 12: more than 5 players need a third deck; ``decks = 3`` seats up to 8."""
    assert ManipulationRules(decks=3).max_players == 8
    game = ManipulationGame(ManipulationRules(decks=3), 8, seed=1)
    assert len(game.hands) == 8 and all(len(h) == 10 for h in game.hands)
    with pytest.raises(IllegalActionError, match="3-5 players"):
        ManipulationGame(ManipulationRules(), 6)
    assert ManipulationRules(decks=3, max_players=6).max_players == 6  # an explicit limit stands


@pytest.mark.parametrize("preset", ["german", "norwegian", "rummikub"])
def test_random_games_keep_every_card(preset: str) -> None:
    for seed in range(3):
        players = 3 if preset != "norwegian" else 4
        r = play_one("manipulation", {"preset": preset}, ["random"] * players, seed, {"max_hands": 1}, check=True)
        assert not r.error, r.error
        assert r.winners


def test_record_replays() -> None:
    game = new_game("manipulation", players=3, seed=4, max_hands=1)
    from solver.engine.players import make_players

    players = make_players(["greedy", "random", "solver"], 4)
    while not game.is_terminal():
        game.apply(players[game.current_player()].choose(game))
    again = replay(GameRecord.from_json(game.record().to_json()))
    assert again.scores() == game.scores() and again.observation(1) == game.observation(1)
    assert any(isinstance(a, MPlay) for a in game.history) and any(isinstance(a, (MDraw, MPass)) for a in game.history)


def test_ace_end_of_a_run_follows_the_shared_rule() -> None:
    """One rule for the ace (``solver.ranks.ace_high``): Q-K-A under ``both`` prints the ace high."""
    rules = ManipulationRules(ace="both", decks=1)
    game = scripted(["AH 2C", "3S", "4S"], table="JH QH KH", rules=rules)
    plays = [str(a) for a in game.legal_actions() if isinstance(a, MPlay)]
    assert plays == ["play JH QH KH AH"]
    low = scripted(["AH 2C", "3S", "4S"], table="2H 3H 4H", rules=rules)
    assert [str(a) for a in low.legal_actions() if isinstance(a, MPlay)] == ["play AH 2H 3H 4H"]
