"""The action codecs without the adapters: every Zheng Shang You move has exactly one index path,
no selection is a dead end, and the encodings round-trip through the engine."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from solver.cards import Card, Cards
from solver.engine import new_game
from solver.engine.players import RandomPlayer
from solver.envs.actions import ManipulationCodec, Turn, ZsyCodec, table_effect
from solver.envs.turn import N


def _paths(turn: Turn) -> tuple[Counter[str], int]:
    """Every engine action the index tree of the turn's position reaches (with how many index
    sequences reach it), walking the selections depth first; and the dead ends met."""
    codec = turn.codec
    reached: Counter[str] = Counter()
    dead = 0

    def walk(picks: tuple[int, ...]) -> None:
        nonlocal dead
        turn.picks = picks
        legal = turn.legal()
        ends = [i for i in legal if i >= N and i != ZsyCodec.CANCEL]
        if not ends and not any(i < N for i in legal):
            dead += 1
        for i in ends:
            reached[str(codec.step(turn, i))] += 1
        for i in legal:
            if i < N:
                walk((*picks, i))
                turn.picks = picks

    walk(())
    turn.picks = ()
    return reached, dead


@pytest.mark.parametrize(("preset", "players", "seed"), [("individual", 4, 1), ("pairs", 4, 2), ("teams6", 6, 3)])
def test_every_zsy_move_has_exactly_one_path(preset: str, players: int, seed: int) -> None:
    # along seeded random games (two hands: the tribute steps too), the index tree of each
    # position reaches every legal move exactly once, and nothing else
    game = new_game("zsy", {"preset": preset}, players, seed, max_hands=2)
    player = RandomPlayer(seed)
    checked = 0
    while not game.is_terminal():
        legal = game.legal_actions()
        if len(legal) <= 400:  # a dense lead has thousands of moves: a lighter check below
            reached, dead = _paths(Turn(game))
            assert dead == 0
            assert reached == Counter(str(a) for a in legal)
            checked += 1
        game.apply(player.choose(game))
    assert checked > 50


def test_zsy_declarations_of_the_same_cards_are_both_reachable() -> None:
    # 5S BJ RJ is a set of fives or a straight 5-7 (picked 5S, RJ, BJ: index order): play BJ gives the
    # first, select BJ then declare 1 the second
    game: Any = new_game("zsy", None, 4, 0, max_hands=1)
    game.hands[0] = Cards.parse("5S BJ RJ")
    game.clear_caches()
    turn = Turn(game)
    reached, dead = _paths(turn)
    assert dead == 0
    both = [str(a) for a in game.legal_actions() if str(a).endswith("5S BJ RJ")]
    assert sorted(both) == ["play set:5S BJ RJ", "play straight:5S BJ RJ"]
    assert all(reached[a] == 1 for a in both)
    codec = turn.codec
    names = [[codec.name(i) for i in codec.encode(game, a)] for a in game.legal_actions() if str(a) in both]
    assert names == [["select 5S", "select RJ", "play BJ"], ["select 5S", "select RJ", "select BJ", "declare 1"]]


@pytest.mark.parametrize("game_name", ["zsy", "contract"])
def test_encoded_games_replay_through_the_turn(game_name: str) -> None:
    # a seeded random engine game, each action encoded and applied index by index to a Turn,
    # is the same game; every index applied was in the mask
    options: dict[str, Any] = {"max_rounds": 1} if game_name == "contract" else {"max_hands": 2}
    ref = new_game(game_name, None, 4, 7, **options)
    turn = Turn(new_game(game_name, None, 4, 7, **options))
    player = RandomPlayer(7)
    steps = 0
    while not ref.is_terminal():
        action = player.choose(ref)
        for index in turn.codec.encode(turn.game, action):
            assert index in turn.legal()
            turn.apply(index)
            steps += 1
        ref.apply(action)
        assert [str(a) for a in turn.game.history] == [str(a) for a in ref.history]
    assert turn.game.is_terminal() and steps >= len(ref.history)


@pytest.mark.parametrize("game_name", ["zsy", "contract", "manipulation"])
def test_the_turn_carries_out_its_actions_without_verifying_them_again(game_name: str) -> None:
    # the codec takes each action from the engine's list (or has the engine check a solver-made one),
    # so the turn carries it out by the engine's trusted path; the game is the same as the
    # engine's own verified apply makes it
    options: dict[str, Any] = {"max_rounds": 1} if game_name == "contract" else {"max_hands": 1}
    ref = new_game(game_name, None, 4, 3, **options)
    turn = Turn(new_game(game_name, None, 4, 3, **options))

    def refuse(action: Any) -> None:
        raise AssertionError(f"{action} verified again by apply")

    turn.game.apply = refuse  # type: ignore[method-assign]
    player = RandomPlayer(3)
    while not ref.is_terminal():
        action = player.choose(ref)
        for index in turn.codec.encode(turn.game, action):
            turn.apply(index)
        ref.apply(action)
    assert [str(a) for a in turn.game.history] == [str(a) for a in ref.history]
    assert turn.game.scores() == ref.scores() and turn.game.is_terminal()


def test_a_zsy_single_is_one_step() -> None:
    turn = Turn(new_game("zsy", None, 4, 4, max_hands=1))
    rng = random.Random(4)
    singles = [a for a in turn.game.legal_actions() if a.combo.kind == "single"]
    action = rng.choice(singles)
    assert turn.codec.encode(turn.game, action) == [ZsyCodec.PLAY + action.combo.cards.counts.index(1)]


def _slow_play_is_legal(game: Any, selection: Cards) -> bool:
    """The slow exact way: the listed play of exactly the selected cards, else the solver's best
    play of them, laid out and checked by the engine."""
    from solver.manipulation import best_play
    from solver.manipulation.game import MPlay

    if len(selection) < game.required():
        return False
    on_table = Cards(c for m in game.table for c in m.cards)
    for a in game.legal_actions():
        if isinstance(a, MPlay) and Cards(c for m in a.table for c in m.cards) - on_table == selection:
            return True
    p = game.current_player()
    if game.opened[p]:
        found = best_play(game.table, selection, game.rules, time_limit=game.time_limit)
        table = tuple(found.table)
    else:
        found = best_play((), selection, game.rules, objective="value", time_limit=game.time_limit)
        table = (*game.table, *found.table)
    return bool(found.played) and game.is_legal(MPlay(p, table))


@pytest.mark.parametrize(
    ("preset", "seed"), [("german", 1), ("norwegian", 2), ("rummikub", 3), ("rummikub", 5), ("rummikub", 12)]
)
def test_manipulation_play_masks_equal_the_slow_exact_way(preset: str, seed: int) -> None:
    # along a seeded game, selections of every kind (parts of listed plays, listed plays with more
    # cards, random hand cards): ``play`` is masked in exactly when the slow way finds a legal play,
    # and a masked-in ``play`` carries out a legal play of the selected cards
    from solver.manipulation.game import MPlay

    rules: dict[str, Any] = {"preset": preset} if seed != 12 else {"preset": preset, "initial_meld": 12}
    game: Any = new_game("manipulation", rules, 4, seed, max_hands=1)
    player = RandomPlayer(seed)
    rng = random.Random(seed)
    asked = Counter[bool]()
    while not game.is_terminal() and len(game.history) < 60:
        legal = game.legal_actions()
        if any(isinstance(a, MPlay) for a in legal):
            hand = list(game.hands[game.current_player()])
            on_table = Cards(c for m in game.table for c in m.cards)
            listed = [
                list(Cards(c for m in a.table for c in m.cards) - on_table) for a in legal if isinstance(a, MPlay)
            ]
            selections = [rng.sample(hand, rng.randint(1, len(hand))) for _ in range(3)]
            for cards in rng.sample(listed, min(3, len(listed))):
                rest = list(Cards(hand) - Cards(cards))
                if game.opened[game.current_player()]:
                    selections.append(cards[: rng.randint(1, len(cards))])
                    selections.append(cards + rng.sample(rest, min(len(rest), rng.randint(1, 2))))
                else:  # a first play: every part of it, and it with one more card (a joker first)
                    selections.extend(cards[:k] for k in range(1, len(cards)))
                    extra = sorted(rng.sample(rest, min(len(rest), 3)), key=lambda c: not c.is_joker)
                    selections.extend([*cards, c] for c in extra)
            for cards in selections:
                turn = Turn(game.clone())
                for card in sorted(cards, key=lambda c: c.index):
                    turn.apply(card.index)
                want = _slow_play_is_legal(turn.game, Cards(cards))
                asked[want] += 1
                assert (ManipulationCodec.PLAY in turn.legal()) == want, (
                    preset,
                    str(game.table),
                    [str(c) for c in cards],
                )
                if want:
                    played = turn.apply(ManipulationCodec.PLAY)
                    assert played is not None and len(turn.game.history) == len(game.history) + 1
        game.apply(player.choose(game))
    assert asked[True] and asked[False]


@pytest.mark.parametrize(("preset", "seed"), [("german", 1), ("norwegian", 2), ("rummikub", 3)])
def test_manipulation_listed_plays_are_keyed_by_the_cards_they_play(preset: str, seed: int) -> None:
    # a position's listed plays grouped by the hand cards each puts on the table (the new
    # table's cards less the table's), as the engine lists them, along a seeded game
    from solver.envs.actions import _ManipulationPosition
    from solver.manipulation.game import MPlay

    game: Any = new_game("manipulation", {"preset": preset}, 4, seed, max_hands=1)
    player = RandomPlayer(seed)
    plays = 0
    while not game.is_terminal():
        on_table = Cards(c for m in game.table for c in m.cards)
        slow: dict[Cards, list[Any]] = {}
        for a in game.legal_actions():
            if isinstance(a, MPlay):
                same = slow.setdefault(Cards(c for m in a.table for c in m.cards) - on_table, [])
                if all(table_effect(b.table) != table_effect(a.table) for b in same):  # one a distinct effect
                    same.append(a)
                plays += 1
        assert _ManipulationPosition(game).listed == slow
        game.apply(player.choose(game))
    assert plays > 10


def test_two_listed_plays_of_one_effect_are_one_index() -> None:
    # adding the 8H to either of two equal runs (two decks) is two listed engine plays of one effect:
    # one index carries it out (before, ``play 1`` was a second index for the same play)
    from solver.manipulation.game import MPlay
    from solver.melds import parse_table

    game: Any = new_game("manipulation", {"preset": "german"}, 4, 0, max_hands=1)
    p = game.current_player()
    game.table = tuple(parse_table("5H 6H 7H | 5H 6H 7H | 9S 9H 9D"))
    game.hands[p] = Cards.parse("8H KC")
    game.opened[p] = True
    game.clear_caches()
    listed = [a for a in game.legal_actions() if isinstance(a, MPlay) and "8H" in str(a)]
    assert len(listed) == 2 and table_effect(listed[0].table) == table_effect(listed[1].table)
    turn = Turn(game)
    turn.apply(Card.parse("8H").index)  # select 8H
    codec = ManipulationCodec()
    assert codec.PLAY in turn.legal() and codec.ALT not in turn.legal()
    assert codec.encode(game, listed[0]) == [Card.parse("8H").index, codec.PLAY]
    path = codec.encode(game, listed[1])  # the other, to the letter: built meld by meld
    assert path[0] == codec.BUILD
    again = Turn(game.clone())
    for index in path:
        done = again.apply(index)
    assert done.table == listed[1].table
