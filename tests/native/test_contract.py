"""Contract's compiled core against the pure-Python oracle: the same answers, exactly.

Each test runs a question twice on the same drawn position, once on the
native path and once inside ``solver.native.pure()``, and requires equal
results (the melds, the completion, the outs, the choice among equal
answers). Rule sets: every preset, with the ace low/high/both, every wild
limit, distinct set ranks or not, 1-4 decks and 0-4 jokers. The engine's
seeded random games of every preset must be identical action by action.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import native
from solver.cards import Cards
from solver.contract.discards import discard_distances
from solver.contract.referee import check_lay_down
from solver.contract.search import _native_hand, contract_possible, hand_lay_down, search_distance
from solver.contract.shapes import Counts, Shape, combo_cost, price_combo, shapes_for
from solver.cpsat import Stop, stoppable
from solver.engine import new_game
from solver.errors import CardError, SolverTimeout
from solver.rules import ContractRules
from solver.rules.contract import min_length

T = TypeVar("T")

SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)

contract_rules = st.builds(
    lambda preset, ace, limit, distinct, decks, jokers: ContractRules.from_dict(
        {
            **ContractRules.preset(preset).to_dict(),
            "ace": ace,
            "wild_limit": limit,
            "distinct_set_ranks": distinct,
            "decks": decks,
            "jokers": max(jokers, int(ContractRules.preset(preset).wild_cards != "black_twos")),
        }
    ),
    st.sampled_from(list(ContractRules.PRESETS)),
    st.sampled_from(["low", "high", "both"]),
    st.sampled_from(["fewer", "half", "any"]),
    st.booleans(),
    st.integers(1, 4),
    st.integers(0, 4),
)
"""Every preset with the options that change the search: ace, wild limit, distinct set ranks, decks, jokers."""


@st.composite
def positions(draw: st.DrawFn, rules: ContractRules, hand_max: int = 14) -> tuple[Cards, Cards]:
    """A hand (part of it close together, so that melds happen) and the cards that can still come."""
    deck = list(rules.deck)
    suit = draw(st.integers(0, 3))
    lo = draw(st.integers(1, 9))
    near = [i for i, c in enumerate(deck) if c.rank is not None and c.suit is not None and lo <= c.rank <= lo + 5]
    near_suit = [i for i in near if deck[i].index // 13 == suit]
    picks = draw(st.lists(st.sampled_from(near_suit or near), max_size=min(9, hand_max), unique=True))
    wild = [i for i, c in enumerate(deck) if c in rules.wilds]
    picks += draw(st.lists(st.sampled_from(wild), max_size=min(3, hand_max - len(picks)), unique=True))
    picks += draw(st.lists(st.integers(0, len(deck) - 1), max_size=hand_max - len(picks), unique=True))
    hand = Cards(deck[i] for i in dict.fromkeys(picks))
    rest = list(rules.deck - hand)
    if draw(st.booleans()):  # the usual question: every unseen card can come
        return hand, Cards(rest)
    keep = draw(st.lists(st.integers(0, len(rest) - 1), max_size=30, unique=True))
    return hand, Cards(rest[i] for i in keep)


def both(question: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, T]:
    """The question's answer on the native path and on the pure path."""
    got = question(*args, **kwargs)
    with native.pure():
        want = question(*args, **kwargs)
    return got, want


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@SETTINGS
def test_distance_is_the_pure_answer(
    contract_core: ModuleType, data: st.DataObject, rules: ContractRules, round_: int
) -> None:
    hand, pool = data.draw(positions(rules))
    contract = rules.contract(round_)
    limit = data.draw(st.sampled_from([None, 60.0]))  # with a limit, the walk reads the clock (and the stop token)
    got, want = both(search_distance, hand, pool, rules, contract, outs=True, time_limit=limit)
    assert got == want
    if got.missing is not None:
        check_lay_down(hand + got.completion, got.melds, rules, round_)  # the independent referee


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@SETTINGS
def test_discards_are_the_pure_answer(
    contract_core: ModuleType, data: st.DataObject, rules: ContractRules, round_: int
) -> None:
    hand, pool = data.draw(positions(rules, hand_max=12))
    got, want = both(discard_distances, hand, pool, rules, rules.contract(round_))
    assert got == want


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
def test_hand_lay_down_is_the_pure_answer(
    contract_core: ModuleType, data: st.DataObject, rules: ContractRules, round_: int
) -> None:
    hand, _ = data.draw(positions(rules, hand_max=data.draw(st.integers(6, 22))))
    contract = rules.contract(round_)
    got, want = both(hand_lay_down, hand, rules, contract)
    assert got == want
    assert both(contract_possible, hand, rules, contract) == ((got is not None),) * 2
    if got is not None:
        check_lay_down(hand, got, rules, round_)


@st.composite
def combos(draw: st.DrawFn) -> tuple[list[Shape], Counts]:
    """Two to four shapes packed on a few ranks of one or two suits (so they share cards), and counts."""
    rules = draw(contract_rules)
    contract = rules.contract(draw(st.integers(1, 7)))
    suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    lo = draw(st.integers(1, 8))
    shapes: list[Shape] = []
    for req in contract:
        table = [
            sh
            for sh in shapes_for(req.kind == "run", min_length(req, rules), rules.ace, rules.wild_limit)
            if (sh.run and sh.suit in suits and lo <= sh.positions[0] <= lo + 3)
            or (not sh.run and lo <= sh.rank <= lo + 4)
        ]
        if table:
            shapes.append(draw(st.sampled_from(table)))
    deck = [c for c in rules.deck if c.index < 52 and c.index // 13 in suits and lo <= c.rank <= lo + 6]  # type: ignore[operator]
    hand = Cards(draw(st.lists(st.sampled_from(deck), max_size=16)) if deck else [])
    pool = Cards(draw(st.lists(st.sampled_from(deck), max_size=12)) if deck else [])
    wilds = sorted(rules.wilds, key=lambda c: c.index)
    hand = hand + Cards([wilds[0]] * draw(st.integers(0, 4)))
    pool = pool + Cards([wilds[-1]] * draw(st.integers(0, 3)))
    return shapes, Counts(hand, pool, rules.wilds)


@given(combo=combos())
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
def test_combination_pricing_is_the_pure_answer(contract_core: ModuleType, combo: tuple[list[Shape], Counts]) -> None:
    shapes, c = combo
    for question in (combo_cost, price_combo):
        got, want = both(question, shapes, c.hn, c.pn, c.hw, c.pw)
        assert got == want


@pytest.mark.parametrize("preset", list(ContractRules.PRESETS))
def test_random_games_are_identical(contract_core: ModuleType, preset: str) -> None:
    """Seeded random games: the same legal actions, and the same choices, action by action."""

    def play(seed: int) -> list[str]:
        rng = random.Random(seed)
        game = new_game("contract", {"preset": preset}, 4, seed, max_rounds=7)
        log: list[str] = []
        while not game.is_terminal():
            actions = game.legal_actions()
            log.append(" ".join(map(repr, actions)))
            game.apply(rng.choice(actions))
        return log

    for seed in (1, 2):
        got, want = both(play, seed)
        assert got == want


def test_bad_input_gives_the_typed_error(contract_core: ModuleType) -> None:
    sh = shapes_for(True, 4, "both", "fewer")[0]
    ok = ([0] * 52, [0] * 52, 0, 0)
    with pytest.raises(CardError):
        combo_cost([sh], [0] * 51, [0] * 52, 0, 0)
    with pytest.raises(CardError):
        price_combo([sh], [-1] + [0] * 51, [0] * 52, 0, 0)
    with pytest.raises(CardError):
        combo_cost([Shape(True, 4, 1, 0, 0, (1, 2, 3, 4), (0, 1, 2, 99), 0, 0, 0)], *ok)
    with pytest.raises(CardError):
        price_combo([Shape(False, 3, 1, 5, -1, (), (4, 17), 0, 0, 0)], *ok)
    # straight at the module, past the Python checks: the C++ checks again and raises, never crashes
    with pytest.raises(ValueError):
        contract_core.combo_cost([(True, 4, 1, 0, (0, 1, 2, 60))], *ok)
    with pytest.raises(ValueError):
        contract_core.hand_lay_down([0] * 54, [53, 1], [(True, 4)], [False], "both", "fewer", False, True)
    with pytest.raises(ValueError):
        contract_core.hand_lay_down([0] * 54, [1], [(True, 40)], [False], "both", "fewer", False, True)
    with pytest.raises(ValueError):
        contract_core.Search([0] * 52, [0] * 52, 0, 0, [(True, 4)], [False], "sideways", "fewer", False, True, None)
    # the hand-only entry refuses counts of the wrong length with the typed error (the Python check)
    rules = ContractRules()

    class Short:
        counts = (0,) * 10

    with pytest.raises(CardError):
        _native_hand(contract_core, Short(), rules, rules.contract(1), True)  # type: ignore[arg-type]


def _stopped_answer(hand: Cards, pool: Cards, rules: ContractRules, round_: int) -> object:
    """search_distance under a stop token already set: the walk stops at its first look at the clock."""
    token = Stop()
    token.stop()
    with stoppable(token):
        try:
            return search_distance(hand, pool, rules, rules.contract(round_), time_limit=60.0)
        except SolverTimeout as exc:
            return str(exc)


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@SETTINGS
def test_a_stopped_search_stops_where_the_pure_one_does(
    contract_core: ModuleType, data: st.DataObject, rules: ContractRules, round_: int
) -> None:
    """The compiled walk reads the clock at the same nodes and leaves: the same partial answer."""
    hand, pool = data.draw(positions(rules, hand_max=22))
    got, want = both(_stopped_answer, hand, pool, rules, round_)
    assert got == want
