"""Zheng Shang You's compiled core against the pure-Python oracle: exactly the same answers, in the same order.

Each test runs the public function twice on the same input, once on the
compiled core and once inside :func:`solver.native.pure`, and requires
equality: moves (every lead and every reply, bombs on and off, in order),
the engine's lead tables, the fewest plays (the split itself, its count
and its status, under the same budgets) and ``plays_after``; then the
engine's seeded games, action by action, for every preset; then bad input.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import native
from solver.cards import Card, Cards
from solver.engine import new_game
from solver.errors import SolverTimeout, TooManyCopiesError
from solver.rules import ZsyRules
from solver.zsy import Combo, fewest, moves
from solver.zsy.endgame import EndgameTooBig, winning_moves, wins
from solver.zsy.fewest import fewest_plays, plays_after
from solver.zsy.game import ZPlay
from solver.zsy.moves import LeadTable, iter_moves, legal_moves
from tests.strategies import multisets

T = TypeVar("T")
DECK = ZsyRules().deck
DECK_CARDS = list(DECK)
rule_sets = st.builds(ZsyRules, bombs=st.booleans())


def both(f: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, T]:
    """``f(*args, **kwargs)`` on the compiled core, then on the pure-Python path."""
    native_answer = f(*args, **kwargs)
    with native.pure():
        pure_answer = f(*args, **kwargs)
    return native_answer, pure_answer


# the fixture only hands over the (stateless) compiled module: sharing it between examples is fine
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def to_beat(draw: st.DrawFn, hand: Cards) -> Combo | None:
    """None (a lead) or a lead of another hand drawn from the rest of the deck: every shape turns up."""
    if draw(st.booleans()):
        return None
    other = draw(multisets(DECK - hand, max_size=14))
    with native.pure():
        leads = legal_moves(other)
    return draw(st.sampled_from(leads)) if leads else None


def shown(combos: tuple[Combo, ...] | list[Combo]) -> list[str]:
    return [str(c) for c in combos]


# --- moves ----------------------------------------------------------------------------------


@settings(SETTINGS, max_examples=300)
@given(data=st.data(), rules=rule_sets)
def test_moves_agree(zsy_core: ModuleType, data: st.DataObject, rules: ZsyRules) -> None:
    """Every lead and every reply of drawn hands (up to 18 cards), bombs on and off, in the same order."""
    hand = data.draw(multisets(DECK, max_size=18))
    beat = data.draw(to_beat(hand))
    fast, slow = both(legal_moves, hand, beat, rules)
    assert fast == slow
    assert shown(fast) == shown(slow)  # equal combos print the same: the fields match, not only the cards


@pytest.mark.parametrize("seed", range(4))
def test_moves_agree_on_big_hands(zsy_core: ModuleType, seed: int) -> None:
    """Hands of 20-27 cards (thousands of leads, every parallel shape) and replies of each shape."""
    rng = random.Random(seed)
    hand = Cards(rng.sample(DECK_CARDS, 20 + 2 * seed))
    rules = ZsyRules(bombs=seed % 2 == 1)
    fast, slow = both(legal_moves, hand, None, rules)
    assert fast == slow and len(fast) > 1_000
    shapes = {m.shape: m for m in slow}
    assert len(shapes) > 10
    for beat in shapes.values():
        fast_replies, slow_replies = both(legal_moves, hand, beat, rules)
        assert fast_replies == slow_replies


def test_iter_moves_agrees_across_chunks(zsy_core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The lazy path asks the core in chunks; with tiny chunks every boundary falls inside a generator."""
    monkeypatch.setattr(moves, "_FIRST_CHUNK", 3)
    monkeypatch.setattr(moves, "_MOST_CHUNK", 7)
    rng = random.Random(3)
    for size in (1, 5, 13, 18):
        hand = Cards(rng.sample(DECK_CARDS, size))
        fast, slow = both(lambda h: list(iter_moves(h)), hand)
        assert fast == slow
        for beat in (slow[0], slow[-1]):
            fast_replies, slow_replies = both(lambda h, b: list(iter_moves(h, b)), hand, beat)
            assert fast_replies == slow_replies


def test_iter_moves_is_lazy(zsy_core: ModuleType) -> None:
    """A dense hand's first moves come at once (the core is asked for the first chunk only)."""
    hand = Cards(DECK_CARDS[:40])
    first = next(iter_moves(hand))
    with native.pure():
        assert first == next(iter_moves(hand))


@settings(SETTINGS, max_examples=60)
@given(hand=multisets(DECK, max_size=16))
def test_lead_tables_agree(zsy_core: ModuleType, hand: Cards) -> None:
    """The engine's lead table: the same items, card masks, shape and strength keys, in order."""
    fast, slow = both(LeadTable.build, hand, lambda m: m)
    assert fast.items == slow.items
    assert fast._entries == slow._entries


# --- the fewest plays -------------------------------------------------------------------------


@settings(SETTINGS, max_examples=150)
@given(hand=multisets(DECK, max_size=20))
def test_fewest_plays_agree(zsy_core: ModuleType, hand: Cards) -> None:
    """The same split (its plays, count and status), not only the same count."""
    fast, slow = both(fewest_plays, hand)
    assert fast == slow
    assert str(fast) == str(slow)


@settings(SETTINGS, max_examples=60)
@given(hand=multisets(DECK, max_size=18))
def test_plays_after_agree(zsy_core: ModuleType, hand: Cards) -> None:
    """The fewest plays after each lead (one shared search) and the status."""
    leads = list(legal_moves(hand))[:300]
    fast, slow = both(plays_after, hand, leads)
    assert fast == slow


@pytest.mark.parametrize("size", [34, 40, 54])
def test_budgets_agree(zsy_core: ModuleType, size: int) -> None:
    """Out of time at once (``time_limit=0``): both paths stop at the same step (the deadline is
    checked every 1024 steps), so the same greedy split, ``feasible``; the greedy looks at most
    4,000 structures a step in both (a 54-card hand has more)."""
    hand = Cards(random.Random(size).sample(DECK_CARDS, size))
    fast, slow = both(fewest_plays, hand, time_limit=0.0)
    assert fast == slow
    assert str(fast.status) == "feasible"
    leads = list(legal_moves(hand, Combo.parse("3S 3H"))) + list(legal_moves(hand, Combo.parse("3S")))
    fast_after, slow_after = both(plays_after, hand, leads, time_limit=0.0)
    assert fast_after == slow_after


@pytest.mark.parametrize("cap", [0, 40, 2_000])
def test_state_cap_agrees(zsy_core: ModuleType, monkeypatch: pytest.MonkeyPatch, cap: int) -> None:
    """Past the cap on remembered states both paths give up at the same step, with the same answers."""
    monkeypatch.setattr(fewest, "MAX_STATES", cap)
    rng = random.Random(cap)
    statuses = set()
    for _ in range(6):
        hand = Cards(rng.sample(DECK_CARDS, 22))
        fast, slow = both(fewest_plays, hand)
        assert fast == slow
        statuses.add(str(slow.status))
        leads = list(legal_moves(hand))[:200]
        fast_after, slow_after = both(plays_after, hand, leads)
        assert fast_after == slow_after
    if cap < 2_000:
        assert "feasible" in statuses  # the cap did cut the search short


def test_stop_token_stops_the_core(zsy_core: ModuleType) -> None:
    """The engine's stop token (solver.cpsat) reaches the core's search: it gives up as on a timeout."""
    from solver.cpsat import Stop, stoppable

    hand = Cards(random.Random(9).sample(DECK_CARDS, 34))
    token = Stop()
    token.stop()
    with stoppable(token):
        fast, slow = both(fewest_plays, hand, time_limit=60.0)
    assert fast == slow and str(fast.status) == "feasible"


# --- the two-player endgame ----------------------------------------------------------------------


def endgame_answer(f: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The answer, or the budget's error as its text (both paths must give up at the same node)."""
    try:
        return f(*args, **kwargs)
    except EndgameTooBig as exc:
        return f"too big: {exc}"


@settings(SETTINGS, max_examples=120)
@given(data=st.data(), rules=rule_sets, max_nodes=st.sampled_from([30, 300, 5_000]))
def test_endgames_agree(zsy_core: ModuleType, data: st.DataObject, rules: ZsyRules, max_nodes: int) -> None:
    """``wins`` and ``winning_moves`` (leads and replies, the pass included), under the same node budget."""
    hand = data.draw(multisets(DECK, max_size=8).filter(bool))
    opponent = data.draw(multisets(DECK - hand, max_size=8).filter(bool))
    beat = data.draw(to_beat(hand + opponent))
    for f in (winning_moves, wins):
        fast, slow = both(endgame_answer, f, hand, opponent, beat, rules, max_nodes=max_nodes)
        assert fast == slow


def test_endgame_budgets_cut_both_paths_alike(zsy_core: ModuleType) -> None:
    """Hands where the node budget runs out: the same error at the same count, and the same answers past it."""
    rng = random.Random(2)
    outcomes = set()
    for _ in range(30):
        cards = rng.sample(DECK_CARDS, 10)
        hand, opponent = Cards(cards[:5]), Cards(cards[5:])
        fast, slow = both(endgame_answer, winning_moves, hand, opponent, None, max_nodes=400)
        assert fast == slow
        outcomes.add(isinstance(slow, str))
    assert outcomes == {True, False}  # some cut short, some answered


def test_endgame_timeout_on_both_paths(zsy_core: ModuleType) -> None:
    """Out of time (checked every 256 nodes): SolverTimeout on both paths."""
    rng = random.Random(4)
    cards = rng.sample(DECK_CARDS, 32)
    hand, opponent = Cards(cards[:16]), Cards(cards[16:])
    for path in (contextlib.nullcontext, native.pure):
        with path(), pytest.raises(SolverTimeout):
            winning_moves(hand, opponent, None, time_limit=0.0)


def test_endgame_odd_hands_use_the_oracle(zsy_core: ModuleType) -> None:
    """An opponent holding a card twice: the pure search raises only if it reaches that hand, so the
    native path leaves such hands to it (the same answer or the same error)."""
    seven = Card.parse("7S")
    odd = Cards([seven, seven])
    assert both(endgame_answer, winning_moves, Cards.parse("5S"), odd, None) == ([Combo.parse("5S")],) * 2
    for path in (contextlib.nullcontext, native.pure):
        with path(), pytest.raises(TooManyCopiesError):
            winning_moves(Cards.parse("5S 9H"), odd, None)


# --- the engine: the same games, action by action ----------------------------------------------


def random_game(preset: str, players: int, seed: int, **overrides: Any) -> list[str]:
    """A seeded game of random legal actions (two hands: the tribute too), as its actions' text."""
    game = new_game("zsy", {"preset": preset, **overrides}, players, seed, {"max_hands": 2})
    rng = random.Random(seed)
    out: list[str] = []
    while not game.is_terminal():
        legal = game.legal_actions()
        action = rng.choice(legal)
        out.append(f"{len(legal)} {action}")
        game.apply(action)
    return out


@pytest.mark.parametrize(
    ("preset", "players", "overrides"),
    [("individual", 4, {}), ("individual", 5, {"bombs": True}), ("pairs", 4, {}), ("teams6", 6, {"bombs": True})],
)
def test_random_games_identical(zsy_core: ModuleType, preset: str, players: int, overrides: dict[str, Any]) -> None:
    """Every preset (and bombs): the same legal actions, in the same order, and the same games."""
    for seed in range(3):
        fast, slow = both(random_game, preset, players, seed, **overrides)
        assert fast == slow and len(fast) > 100


def solver_game(seed: int) -> list[str]:
    """A seeded hand of four ``solver`` players, as its actions' text."""
    from solver.engine.players import make_players

    game = new_game("zsy", None, 4, seed, {"max_hands": 1})
    players = make_players(["solver"] * 4, seed)
    out: list[str] = []
    while not game.is_terminal():
        action = players[game.current_player()].choose(game)
        out.append(str(action))
        game.apply(action)
    return out


def test_solver_games_identical(zsy_core: ModuleType) -> None:
    """The solver players (fewest plays, plays after each move, the endgame) choose the same actions."""
    for seed in range(2):
        fast, slow = both(solver_game, seed)
        assert fast == slow and len(fast) > 20


# --- bad input ---------------------------------------------------------------------------------


def test_bad_hands_are_typed_errors_on_both_paths(zsy_core: ModuleType) -> None:
    """Python checks before the core is asked: two copies of a card, or the plain joker."""
    seven = Card.parse("7S")
    for hand in (Cards([seven, seven]), Cards.parse("JK 5S")):
        for call, args in ((legal_moves, ()), (fewest_plays, ()), (plays_after, ([],)), (LeadTable.build, (str,))):
            with pytest.raises(TooManyCopiesError):
                call(hand, *args)
            with native.pure(), pytest.raises(TooManyCopiesError):
                call(hand, *args)


def test_odd_combination_fields_use_the_oracle(zsy_core: ModuleType) -> None:
    """A combo built with fields no combination has (the constructor trusts them) is answered by the
    pure path, so the answer is the oracle's whatever the fields."""
    hand = Cards.parse("5S 5H 6S 6H 7S 7H 2C RJ")
    for odd in (
        Combo(Cards.parse("5S 6S"), "parallel", 7, 0, 2),
        Combo(Cards.parse("5S"), "set", 7, 1, 10_000),
        Combo(Cards.parse("5S"), "meld", 7),  # type: ignore[arg-type]
    ):
        fast, slow = both(legal_moves, hand, odd)
        assert fast == slow


def test_the_core_refuses_bad_arguments(zsy_core: ModuleType) -> None:
    """Called directly with what Python never sends, the core raises ValueError (never aborts)."""
    good = list(Cards.parse("5S 6S 7S").counts)
    never = lambda: False  # noqa: E731
    bad_counts = [good[:54], [*good, 0], [2, *good[1:]], [-1, *good[1:]], [*good[:54], 1]]  # the last: the plain joker
    for counts in bad_counts:
        with pytest.raises(ValueError):
            zsy_core.moves(counts, -1, 0, 1, 1, False, False, False, 0, -1)
    for kind, top, length, copies in ((4, 0, 1, 1), (-2, 0, 1, 1), (0, 5000, 1, 1), (3, 5, 0, 2), (1, 5, 1, 99)):
        with pytest.raises(ValueError):
            zsy_core.moves(good, kind, top, length, copies, False, False, False, 0, -1)
    with pytest.raises(ValueError):
        zsy_core.moves(good, -1, 0, 1, 1, False, False, False, -1, -1)
    for counts in bad_counts:
        with pytest.raises(ValueError):
            zsy_core.endgame(counts, good, -1, 0, 1, 1, False, False, False, 100, never, True)
        with pytest.raises(ValueError):
            zsy_core.endgame(good, counts, -1, 0, 1, 1, False, False, False, 100, never, True)
    with pytest.raises(ValueError):
        zsy_core.endgame(good, good, 7, 0, 1, 1, False, False, False, 100, never, True)
    for packed, j, t in ((1 << 36, 0, 0), (5, 0, 0), (1, 3, 0), (1, 0, 5), (1, -1, 0)):
        with pytest.raises(ValueError):
            zsy_core.fewest(packed, j, t, 5, never, 100)
        with pytest.raises(ValueError):
            zsy_core.greedy(packed, j, t, 10)
        with pytest.raises(ValueError):
            zsy_core.plays_after([(packed, j, t)], never, 100)
    assert zsy_core.moves(good, -1, 0, 1, 1, False, False, False, 0, 0) == []


def test_game_actions_are_plays_of_the_core(zsy_core: ModuleType) -> None:
    """The native path is the one the engine runs (the lead table's items come from the core)."""
    game = new_game("zsy", None, 4, 5)
    actions = game.legal_actions()
    assert all(isinstance(a, ZPlay) for a in actions)
    with native.pure():
        again = new_game("zsy", None, 4, 5).legal_actions()
    assert [str(a) for a in actions] == [str(a) for a in again]
