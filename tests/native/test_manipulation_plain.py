"""The plain best play on the compiled core (issue 35): :mod:`solver.manipulation.plain` against its
pure-Python oracle, and ``best_play(least_change=False)`` on both paths.

``plain.descend`` (the beams, then the exact program asked for the whole
bound, one card fewer, ...) runs in C++ (``natural_most``) where the core is
built and in Python (``natural._Program`` with a cap) inside ``native.pure()``: the same
status, melds, copies and work, on drawn counts (1-4 decks, every ace option,
budgets, beams, exact or not) and at the budget's edge. The plain best play
takes that stage on the native path only; its answers are checked by the
independent validator and agree with the pure path's (count, status)
and with the exact program with no limit, jokers and every ace option included.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.manipulation.play as play
from benchmarks.positions import random_position
from solver import native
from solver.cards import Cards
from solver.errors import Status
from solver.manipulation import best_play, plain, play_value
from solver.manipulation.natural import DP_CARDS, natural_play
from solver.melds import Meld, validate_rearrangement
from solver.ranks import N_NATURAL
from solver.rules import ManipulationRules
from tests.manipulation.test_manipulation import check_play, small_positions
from tests.native.test_manipulation import ACES, draw_counts
from tests.oracles.manip_brute import best_by_brute_force
from tests.strategies import manipulation_rules

BEAMS = [(), (1,), (3, 40), plain.NATIVE_BEAMS, (2, 2, 7)]


def both(tc: list[int], bc: list[int], ace: str, budget: int, beams: Any, exact: bool) -> tuple[Any, Any]:
    """``plain.descend`` on the native path and on the pure one."""
    fast = plain.descend(tc, bc, ace, budget, beams, exact=exact)
    with native.pure():
        pure = plain.descend(tc, bc, ace, budget, beams, exact=exact)
    return fast, pure


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32),
    decks=st.integers(1, 4),
    ace=st.sampled_from(ACES),
    melds=st.integers(0, 14),
    hand_cards=st.integers(1, 25),
    budget=st.sampled_from([0, 30, 400, 5_000, 60_000]),
    beams=st.sampled_from(BEAMS),
    exact=st.booleans(),
)
def test_descend_agrees_on_drawn_counts(
    manipulation_core: ModuleType,
    seed: int,
    decks: int,
    ace: str,
    melds: int,
    hand_cards: int,
    budget: int,
    beams: tuple[int, ...],
    exact: bool,
) -> None:
    """Random tables and hands, every ace option, 1-4 decks, budgets from none to generous, beams of
    every width: the same status, melds, copies used and work on both paths."""
    tc, bc = draw_counts(seed, decks, ace, melds, hand_cards)
    fast, pure = both(tc, bc, ace, budget, beams, exact)
    assert fast == pure


def test_descend_covers_every_outcome_and_the_budget_edge(manipulation_core: ModuleType) -> None:
    """A fixed sweep where each outcome occurs (found by a beam, found exactly, no play, out of
    budget, no beam found one); at the work a try counted with no limit, a budget of that work finds
    the same answer and one less gives up, on both paths."""
    rng = random.Random(35)
    seen: set[tuple[int, bool]] = set()
    for _ in range(160):
        decks, ace = rng.randint(1, 4), rng.choice(ACES)
        tc, bc = draw_counts(rng.randrange(2**32), decks, ace, rng.randint(0, 14), rng.randint(1, 25))
        beams, exact = rng.choice(BEAMS), rng.random() < 0.6
        fast, pure = both(tc, bc, ace, 1 << 40, beams, exact)
        assert fast == pure
        seen.add((fast[0], bool(beams) and exact))
        work = fast[3]
        if work:
            assert both(tc, bc, ace, work, beams, exact) == (fast, fast)
            short, short_pure = both(tc, bc, ace, work - 1, beams, exact)
            assert short == short_pure and short[0] == -1
    assert {status for status, _ in seen} == {-1, 0, 1}


def test_a_beam_play_is_optimal_and_valid(manipulation_core: ModuleType) -> None:
    """A beam's play holds the whole playable bound (so it is optimal): the exact program with no
    limit agrees on the count, and the validator accepts the table; on four-deck positions."""
    rules = ManipulationRules(decks=4)
    found = 0
    for seed in range(12):
        table, hand = random_position(rules, 120, 20, 900 + seed, 0)
        beam = plain.natural_most(table, hand, rules, beams=(64,), exact=False)
        if beam is None:
            continue
        found += 1
        assert validate_rearrangement(table, hand, beam.table, rules.meld_spec) == beam.played
        exact = natural_play(table, hand, rules, budget=1 << 40)
        assert exact is not None and exact.cards == beam.cards
    assert found >= 3


def _table_cards(melds: tuple[Meld, ...]) -> Cards:
    return Cards(c for m in melds for c in m.cards)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    manipulation_rules.filter(lambda r: r.decks <= 3),
    st.integers(10, 70),
    st.integers(3, 24),
    st.integers(0, 10_000),
)
def test_the_plain_best_play_agrees_with_the_pure_path(
    manipulation_core: ModuleType, rules: ManipulationRules, table_cards: int, hand_cards: int, seed: int
) -> None:
    """``best_play(least_change=False)`` on both paths (1-3 decks, every ace option, 0-4 jokers):
    the same count and status (the played cards, and so their value, may be another optimal
    choice), each table accepted by the validator; where no joker is in play, the count is the
    exact program's with no limit."""
    table, hand = random_position(rules, table_cards, hand_cards, seed)
    fast = best_play(table, hand, rules, least_change=False)
    with native.pure():
        pure = best_play(table, hand, rules, least_change=False)
    assert (fast.cards, fast.status) == (pure.cards, pure.status)
    for answer in (fast, pure):
        assert validate_rearrangement(table, hand, answer.table, rules.meld_spec) == answer.played
        assert answer.value == play_value(answer.played, rules)
    if fast.status is Status.OPTIMAL and not any((_table_cards(table) + hand).counts[N_NATURAL:]):
        exact = natural_play(table, hand, rules, budget=1 << 40)
        if exact is not None:  # (ace=both with a possible 14-card run: the program steps aside)
            assert exact.cards == fast.cards


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_positions())
def test_the_plain_best_play_matches_exhaustive_search(
    manipulation_core: ModuleType, position: tuple[tuple[Meld, ...], Cards, ManipulationRules]
) -> None:
    """The brute-force oracle on small positions (1-2 decks, every ace option, 0-2 jokers): the
    plain answer on the native path plays the most cards, one of the best plays, and every claim
    of the play (table, moves, value) holds."""
    table, hand, rules = position
    best, plays = best_by_brute_force(table, hand, rules)
    answer = best_play(table, hand, rules, least_change=False, time_limit=20)
    check_play(table, hand, rules, answer)
    assert answer.status in ("optimal", "infeasible")
    assert answer.cards == best and (answer.played in plays or not best)


def test_the_plain_best_play_takes_the_native_stage(
    manipulation_core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the pure program's size (DP_CARDS), the native path answers the plain question by the
    compiled stage, not CP-SAT; the pure path, and the least-change question, do not ask it."""
    rules = ManipulationRules()
    table, hand = random_position(rules, 76, 16, 7)
    calls: list[str] = []
    real, cpsat = plain.descend, play._cpsat

    def counted(*args: Any, **kw: Any) -> Any:
        calls.append("descend")
        return real(*args, **kw)

    def solver(*args: Any, **kw: Any) -> Any:
        calls.append("cp-sat")
        return cpsat(*args, **kw)

    monkeypatch.setattr(plain, "descend", counted)
    monkeypatch.setattr(play, "_cpsat", solver)
    assert len(_table_cards(table)) + 16 > DP_CARDS
    answer = best_play(table, hand, rules, least_change=False)
    assert calls == ["descend"] and answer.status is Status.OPTIMAL
    calls.clear()
    with native.pure():
        assert best_play(table, hand, rules, least_change=False).cards == answer.cards
    assert "descend" not in calls
    calls.clear()
    best_play(table, hand, rules)
    assert "descend" not in calls


def test_bad_input_is_a_typed_error(manipulation_core: ModuleType) -> None:
    """Beams of no state, and counts or aces the core refuses, are ValueErrors, never a crash."""
    tc, bc = [0] * N_NATURAL, [0] * N_NATURAL
    bc[0] = 1
    with pytest.raises(ValueError, match="at least one state"):
        plain.descend(tc, bc, "low", 100, (0,), exact=True)
    core = manipulation_core
    with pytest.raises(ValueError, match="52 counts"):
        core.natural_most(tc[:5], bc, 0, 100, [], True)
    with pytest.raises(ValueError, match="ace"):
        core.natural_most(tc, bc, 7, 100, [], True)
    with pytest.raises(ValueError, match="out of range"):
        core.natural_most([5, *tc[1:]], bc, 0, 100, [], True)
    with pytest.raises(ValueError, match="at least one state"):
        core.natural_most(tc, bc, 0, 100, [-3], True)
    with pytest.raises(TypeError):
        core.natural_most(tc, bc, 0, 100, ["x"], True)
    assert core.natural_most(tc, [0] * N_NATURAL, 0, 100, [4], True) == (0, [], [], 0)


def test_more_copies_than_the_core_holds_stay_pure(manipulation_core: ModuleType) -> None:
    """Counts past four copies are not sent to the core (its state has no room for them)."""
    tc, bc = [0] * N_NATURAL, [0] * N_NATURAL
    tc[0], bc[0] = 4, 1
    assert not plain.native_program(tc, bc)
    bc[0] = 0
    assert plain.native_program(tc, bc)
    with native.pure():
        assert not plain.native_program(tc, bc)
