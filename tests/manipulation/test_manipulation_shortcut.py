"""The exact shortcuts before CP-SAT: the playable bound, the extension search, and their use.

Every claim is checked against exhaustive search (``tests/oracles/manip_brute.py``)
and the independent validator (``solver.melds``): the bound never leaves out
a card some arrangement plays; the extension search finds a play keeping
every old meld whole exactly when one reaches the target; a proof by the
shortcut needs no solver call and is still optimal.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.manipulation.play as stages
from solver.cards import Card, Cards
from solver.manipulation import best_play, can_play, max_cards_playable
from solver.manipulation.bound import card_weight, playable_bound
from solver.manipulation.extension import ExtensionSearch, extension_play
from solver.melds import Meld, meld_kinds, parse_table, validate_rearrangement
from solver.rules import ManipulationRules
from tests.manipulation.test_manipulation import check_play, small_positions
from tests.oracles.manip_brute import arrangeable, best_by_brute_force, sub_multisets

Position = tuple[tuple[Meld, ...], Cards, ManipulationRules]


def _score(cards: Cards, rules: ManipulationRules, objective: str) -> int:
    return sum(card_weight(c, rules, objective) * n for c, n in cards.items())


def best_keeping_every_meld(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules, objective: str) -> int:
    """Exhaustive: the best score of a play that leaves every old meld whole (brute force
    over every hand sub-multiset and every assignment of its cards to old melds or new melds)."""
    spec = rules.meld_spec
    best = 0
    for sub in sub_multisets(hand):
        score = _score(sub, rules, objective)
        if score <= best:
            continue
        cards = list(sub)
        for assign in itertools.product(range(len(table) + 1), repeat=len(cards)):
            groups = [list(m.cards) for m in table]
            new: list[Card] = []
            for card, where in zip(cards, assign):
                (new if where == len(table) else groups[where]).append(card)
            if all(meld_kinds(Meld.of(g), spec) for g in groups) and arrangeable(Cards(new), rules):
                best = score
                break
    return best


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_positions())
def test_bound_never_leaves_out_a_playable_card(position: Position) -> None:
    table, hand, rules = position
    on_table = Cards(c for m in table for c in m.cards)
    bound = playable_bound(on_table, hand, rules)
    assert bound <= hand
    for sub in sub_multisets(hand):
        if sub and arrangeable(on_table + sub, rules):
            assert sub <= bound, (str(sub), str(bound))


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_positions(), st.sampled_from(["cards", "value"]))
def test_extension_search_is_exact(position: Position, objective: str) -> None:
    table, hand, rules = position
    best = best_keeping_every_meld(table, hand, rules, objective)
    search = ExtensionSearch(table, hand, rules, objective)
    for target in (None, best, best + 1, 1):
        ext = search.find(target)
        want = search.total if target is None else target
        assert ext.complete
        assert ext.found == (best >= want), (target, best)
        if ext.found:
            assert validate_rearrangement(table, hand, ext.table, rules.meld_spec) == ext.played
            assert ext.score >= want
            assert all(m.multiset <= n.multiset for m, n in zip(table, ext.table))  # every old meld whole


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(small_positions())
def test_engine_questions_match_exhaustive_search(position: Position) -> None:
    table, hand, rules = position
    best, _ = best_by_brute_force(table, hand, rules)
    assert max_cards_playable(table, hand, rules) == best
    assert can_play(table, hand, rules) == (best > 0)


def _no_solver(*args: object, **kwargs: object) -> object:
    raise AssertionError("the solver was called")


def test_shortcut_proves_without_the_solver(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every playable card goes on without rearranging: optimal, least change, no CP-SAT."""
    monkeypatch.setattr(stages, "solve_play", _no_solver)
    monkeypatch.setattr(stages, "solve_least_change", _no_solver)
    rules = ManipulationRules()
    table = parse_table("5H 6H 7H | 9S 9H 9D | 2C 3C 4C 5C 6C 7C 8C")
    hand = Cards.parse("4H 8H 9C 10C JC KS")
    for objective in ("cards", "value"):
        play = best_play(table, hand, rules, objective=objective)
        check_play(table, hand, rules, play)
        assert play.status == "optimal" and play.played == Cards.parse("4H 8H 9C 10C JC")
        assert (play.kept_melds, play.moved_cards, play.least_change) == (3, 0, "optimal")
    assert max_cards_playable(table, hand, rules) == 5 and can_play(table, hand, rules)
    nothing = best_play(table, Cards.parse("KS 2D"), rules)
    assert nothing.status == "infeasible" and not nothing.played
    assert max_cards_playable(table, Cards.parse("KS 2D"), rules) == 0
    assert not can_play(table, Cards.parse("KS 2D"), rules)


def test_least_change_solve_skipped_when_nothing_needs_to_move(monkeypatch: pytest.MonkeyPatch) -> None:
    """5C could join 5S 5D only by breaking their runs (it cannot): the solver proves one card,
    the extension search reaches it without rearranging, and the second solve never runs."""
    monkeypatch.setattr(stages, "solve_least_change", _no_solver)
    rules = ManipulationRules()
    table = parse_table("3S 4S 5S | 5D 6D 7D")
    hand = Cards.parse("5C 8D")
    assert playable_bound(Cards(c for m in table for c in m.cards), hand, rules) == hand
    play = best_play(table, hand, rules)
    check_play(table, hand, rules, play)
    assert play.played == Cards.parse("8D") and play.status == "optimal"
    assert (play.kept_melds, play.moved_cards, play.least_change) == (2, 0, "optimal")


def test_bound_counts_copies() -> None:
    """Two 6S in hand, one on the table (three decks): only one more fits, no meld holds two."""
    rules = ManipulationRules(decks=3)
    table = parse_table("3S 4S 5S 6S 7S 8S")
    on_table = Cards(c for m in table for c in m.cards)
    assert playable_bound(on_table, Cards.parse("6S 6S"), rules) == Cards.parse("6S")
    assert best_play(table, Cards.parse("6S 6S"), rules).played == Cards.parse("6S")
    assert not playable_bound(on_table, Cards.parse("KD"), rules)


def test_jokers_in_the_bound_and_the_search() -> None:
    rules = ManipulationRules(jokers=2)
    table = parse_table("5H 6H 7H")
    on_table = Cards(c for m in table for c in m.cards)
    assert playable_bound(on_table, Cards.parse("JK QC"), rules) == Cards.parse("JK")
    assert not playable_bound(Cards(), Cards.parse("JK JK"), rules)  # jokers alone make no meld
    ext = extension_play(table, Cards.parse("JK 9H"), rules)
    assert ext.proven and [str(m) for m in ext.table] == ["5H 6H 7H JK=8H 9H"]


def test_budget_gives_up_honestly() -> None:
    rules = ManipulationRules()
    table = parse_table("5H 6H 7H | 9S 9H 9D")
    ext = extension_play(table, Cards.parse("8H 9C"), rules, budget=0)
    assert not ext.found and not ext.complete and not ext.played
