"""Every exact stage against CP-SAT on random positions of every kind the benchmark spans
(jokers 0-6, ace low / high / both, 1-4 decks, tables of 20-190 cards, hands of 5-50), not only
small ones; and the compiled meld assignment against networkx's blossom."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from functools import partial
from unittest.mock import patch

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import solver.manipulation.model as model
from benchmarks.bench_manipulation_field import KINDS, Kind
from solver.cards import Cards
from solver.errors import Status
from solver.manipulation import Playable, best_play
from solver.manipulation.bound import playable_bound, score_of
from solver.manipulation.extension import ExtensionSearch
from solver.manipulation.moves import best_assignment
from solver.manipulation.natural import natural_play
from solver.melds import Meld, parse_table, validate_rearrangement
from solver.rules import ManipulationRules
from solver.rules.base import Ace
from tests.manipulation.test_manipulation import check_play

Position = tuple[tuple[Meld, ...], Cards]


def _cp_sat_score(table: tuple[Meld, ...], hand: Cards, kind: Kind, objective: str) -> int:
    """The best score by CP-SAT alone (the exact joker model, no shortcut)."""
    rules = kind.rules
    t = model.template(rules.decks, rules.ace, rules.jokers, "value" if objective == "value" else "cards")
    on_table = Cards(c for m in table for c in m.cards)
    solved, _, _ = model.solve_play(t, on_table, hand, 30, exact=True)
    assert solved.status is Status.OPTIMAL
    return score_of(solved.played, rules, objective)


def _positions(kind: Kind) -> list[Position]:
    return kind.positions(2, 16)


@pytest.mark.parametrize("kind", KINDS, ids=[k.name.split(",")[0] + f" {k.table}/{k.hand}" for k in KINDS])
def test_every_stage_agrees_with_cp_sat(kind: Kind) -> None:
    rules = kind.rules
    for table, hand in _positions(kind):
        on_table = Cards(c for m in table for c in m.cards)
        best = _cp_sat_score(table, hand, kind, "cards")
        bound = playable_bound(on_table, hand, rules)
        assert len(bound) >= best
        search = ExtensionSearch(table, hand, rules, table_cards=on_table, bound=bound)
        ext = search.find()
        if ext.found:  # the whole bound with every old meld kept: CP-SAT cannot beat it
            assert len(ext.played) == best == len(bound)
            assert validate_rearrangement(table, hand, ext.table, rules.meld_spec) == ext.played
        kept = search.find(best)
        if kept.found:  # a play keeping every old meld reaching the best
            assert len(kept.played) >= best and ext.complete
            assert validate_rearrangement(table, hand, kept.table, rules.meld_spec) == kept.played
        if not rules.jokers:
            natural = natural_play(table, hand, rules, table_cards=on_table, budget=200_000)
            if natural is not None:
                assert natural.cards == best
                assert validate_rearrangement(table, hand, natural.table, rules.meld_spec) == natural.played
        assert Playable(table, hand, rules).most().cards == best
        play = best_play(table, hand, rules, time_limit=30)
        check_play(table, hand, rules, play)
        assert play.cards == best and play.least_change == "optimal"
        if kept.found:
            assert play.kept_melds == len(table) and play.moved_cards == 0


@pytest.mark.parametrize("kind", [k for k in KINDS if k.table <= 110], ids=lambda k: k.name.split(",")[0])
def test_value_objective_and_cp_sat_alone_agree(kind: Kind) -> None:
    """The value objective, and the cards objective with every shortcut switched off."""
    rules = kind.rules
    for table, hand in _positions(kind)[:1]:
        best = _cp_sat_score(table, hand, kind, "value")
        play = best_play(table, hand, rules, objective="value", time_limit=30)
        check_play(table, hand, rules, play)
        assert score_of(play.played, rules, "value") == best
        with (
            patch("solver.manipulation.play.natural_play", lambda *a, **k: None),
            patch.object(ExtensionSearch, "find", lambda self, target=None: _nothing(self)),
        ):
            alone = best_play(table, hand, rules, least_change=False, time_limit=30)
        assert alone.cards == _cp_sat_score(table, hand, kind, "cards")


def _nothing(search: ExtensionSearch) -> object:
    from solver.manipulation.extension import Extension

    return Extension(Cards(), search.old, search.bound, False, False, 0)


def test_the_target_position_is_proven_with_least_change() -> None:
    """Issue 16's target: four decks, six jokers, 180 table cards, hand 30: proven optimal with least change."""
    (kind,) = [k for k in KINDS if k.rules.jokers == 6]
    table, hand = kind.positions(1, 3)[0]
    play = best_play(table, hand, kind.rules, time_limit=20)
    check_play(table, hand, kind.rules, play)
    assert play.status is Status.OPTIMAL and play.least_change == "optimal"


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.integers(1, 9), st.integers(1, 9))
def test_compiled_assignment_weighs_as_much_as_the_blossom(seed: int, n_old: int, n_new: int) -> None:
    rng = random.Random(seed)
    edges = {(i, j): rng.randint(1, 40) for i in range(n_old) for j in range(n_new) if rng.random() < 0.4}
    if not edges:
        return
    pairs = best_assignment(edges)
    assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
    assert all((i, j) in edges for i, j in pairs)
    graph = nx.Graph()
    graph.add_weighted_edges_from((("o", i), ("n", j), w) for (i, j), w in edges.items())
    blossom = sum(graph.edges[e]["weight"] for e in nx.max_weight_matching(graph))
    assert sum(edges[p] for p in pairs) == blossom


def _without_reach(search: ExtensionSearch, target: int | None) -> object:
    """The extension search with every card left in (the reach test switched off)."""
    with patch.object(ExtensionSearch, "_reachable", lambda self, slack: (self.free0, slack)):
        return search.find(target)


def _searches(kind: Kind, seed: int) -> Iterator[tuple[Position, Callable[..., ExtensionSearch], list[int]]]:
    """Three random positions of ``kind``, each with a maker of extension searches (``budget=``) and
    the targets from the whole bound down."""
    for table, hand in kind.positions(3, seed):
        on_table = Cards(c for m in table for c in m.cards)
        bound = playable_bound(on_table, hand, kind.rules)
        search = partial(ExtensionSearch, table, hand, kind.rules, table_cards=on_table, bound=bound)
        yield (table, hand), search, sorted({len(bound), len(bound) - 1, len(bound) // 2, 3}, reverse=True)


@pytest.mark.parametrize("kind", KINDS, ids=[k.name.split(",")[0] + f" {k.table}/{k.hand}" for k in KINDS])
def test_reach_test_keeps_the_extension_search_exact(kind: Kind) -> None:
    """Removing the hand cards no extension play can hold changes no answer of the search
    (every target from the whole bound down), on random positions of every kind."""
    rules = kind.rules
    for (table, hand), search, targets in _searches(kind, 23):
        for target in targets:
            fast = search(budget=20_000).find(target)
            full = _without_reach(search(budget=20_000), target)
            assert isinstance(full, type(fast))
            if fast.complete and full.complete:
                assert fast.found == full.found, (kind.name, target)
            if fast.complete and not fast.found:
                assert not full.found
            if fast.found:
                assert score_of(fast.played, rules, "cards") >= target
                assert validate_rearrangement(table, hand, fast.table, rules.meld_spec) == fast.played


@pytest.mark.parametrize("jokers", [1, 2])
def test_reach_test_with_jokers_in_the_hand(jokers: int) -> None:
    """The reach test where the hand holds jokers (they fill holes of hand-only runs and sets)."""
    from benchmarks.positions import JOKER, random_position
    from solver.rules import ManipulationRules

    rules = ManipulationRules(jokers=jokers)
    for seed in range(40):
        table, hand = random_position(rules, 24, 7, 900 + seed, table_jokers=0)
        hand = hand + Cards([JOKER] * max(0, jokers - hand.count(JOKER)))
        on_table = Cards(c for m in table for c in m.cards)
        bound = playable_bound(on_table, hand, rules)
        for target in range(len(bound), 0, -2):
            fast = ExtensionSearch(table, hand, rules, table_cards=on_table, bound=bound, budget=20_000).find(target)
            slow = ExtensionSearch(table, hand, rules, table_cards=on_table, bound=bound, budget=20_000)
            full = _without_reach(slow, target)
            assert isinstance(full, type(fast))
            if fast.complete and full.complete:
                assert fast.found == full.found, (seed, target)


@pytest.mark.parametrize("kind", KINDS, ids=[k.name.split(",")[0] + f" {k.table}/{k.hand}" for k in KINDS])
def test_card_driven_search_agrees_with_the_meld_driven_one(kind: Kind) -> None:
    """The search by hand cards (the fewest holders first, pruned by the cards no meld can hold
    any more) answers as the search by old melds, on random positions of every kind, every target
    from the whole bound down; its plays are valid and keep every old meld."""
    from solver.manipulation import extension, search_order

    rules = kind.rules
    for (table, hand), search, targets in _searches(kind, 31):
        for target in targets:
            by_card = search(budget=20_000).find(target)
            with patch.object(extension, "_by_card", search_order.by_meld):
                by_meld = search(budget=20_000).find(target)
            if by_card.complete and by_meld.complete:
                assert by_card.found == by_meld.found, (kind.name, target)
            if by_card.found:
                assert score_of(by_card.played, rules, "cards") >= target
                assert validate_rearrangement(table, hand, by_card.table, rules.meld_spec) == by_card.played
                assert all(m.multiset <= n.multiset for m, n in zip(table, by_card.table))


@pytest.mark.parametrize("kind", KINDS, ids=[k.name.split(",")[0] + f" {k.table}/{k.hand}" for k in KINDS])
def test_a_target_has_one_answer_whatever_was_searched_before(kind: Kind) -> None:
    """Each search counts the shared listing of the old melds' extensions against its budget, so a
    target's answer (found, complete) is the same first, or after other targets, or after a search
    that ran out of budget while listing."""
    for _, search, targets in _searches(kind, 37):
        for budget in (20, 300):
            shared = search(budget=budget)
            for target in targets:
                first, again = search(budget=budget).find(target), shared.find(target)
                assert (first.found, first.complete) == (again.found, again.complete), (kind.name, target)


def _hands_with_jokers() -> Iterator[tuple[Position, ManipulationRules]]:
    """Small two-deck positions with jokers on the table and in the hand, each ace rule."""
    from benchmarks.positions import JOKER, random_position

    aces: tuple[Ace, ...] = ("low", "high", "both")
    for k, ace in enumerate(aces):
        rules = ManipulationRules(jokers=2, ace=ace)
        for seed in range(12):
            table, hand = random_position(rules, 24, 7, 700 + 20 * k + seed, table_jokers=1)
            yield (
                (table, hand + Cards([JOKER] * (2 - (hand + Cards(c for m in table for c in m.cards)).count(JOKER)))),
                rules,
            )


def test_the_cards_old_melds_can_take_are_the_listings() -> None:
    """The reach test's cards an old meld's extensions take (found without listing them) are the
    cards of the listed extensions' takes, for every old meld of positions of every kind and of
    positions with jokers in the hand (each ace rule)."""
    from solver.manipulation.extension import _old_holds, _old_options

    positions = [(p, k.rules) for k in KINDS for p in k.positions(6, 41)]
    longest = ((parse_table("JH QH KH AH")[0],), Cards.parse("2H 3H 4H 5H 6H 7H 8H 9H 10H AH"))
    positions.append((longest, ManipulationRules(ace="both")))  # 13 cards at most: the AH below stays out
    checked = 0
    for (table, hand), rules in [*positions, *_hands_with_jokers()]:
        search = ExtensionSearch(table, hand, rules).search
        free = tuple(ExtensionSearch(table, hand, rules).free0)
        avail = [search._available(s, free) for s in range(4)]
        for meld in table:
            listed = _old_options(search, meld, rules, free)
            taken = {search.cards[k].index for take, _ in listed for k, n in enumerate(take) if n and k != search.joker}
            assert _old_holds(search, meld, rules, free, avail) == taken, (str(meld), str(hand))
            checked += bool(taken)
    assert checked > 100  # the test sees melds that take cards
