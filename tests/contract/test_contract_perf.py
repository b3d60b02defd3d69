"""Contract Shanghai: the fast exact paths against independent answers.

* :mod:`solver.contract.search` (the plain-Python branch and bound behind
  ``distance_to_contract``) against the CP-SAT model (``method="cp-sat"``)
  on full-size hands with cards already seen, and against exhaustive search
  on small ones (``tests/test_contract_search.py``);
* ``best_discards`` against one distance per card, and against exhaustive
  search on small positions;
* the lay-down pre-check (``quick_reject``, ``contract_possible``): never
  turns down a hand that can make the contract (exhaustive search and the
  CP-SAT lay-down model decide).

Speed belongs to ``python -m benchmarks.bench_contract``; nothing here is timed.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solver.cards import Card, Cards, Rank, Suit
from solver.contract import UNREACHABLE, best_discards, best_lay_down, discard_order, distance_to_contract
from solver.contract.brute import exhaustive_distance, exhaustive_lay_down
from solver.contract.model import solve_lay_down
from solver.contract.referee import check_lay_down
from solver.contract.search import contract_possible, quick_reject, search_distance
from solver.errors import RulesError, SolverTimeout, Status
from solver.ranks import wild_cap
from solver.rules import ContractRules
from tests.contract.test_contract_search import hands
from tests.strategies import contract_rules

RULES = ContractRules()


def H(text: str) -> Cards:
    return Cards.parse(text)


@st.composite
def big_positions(draw: st.DrawFn, rules: ContractRules) -> tuple[Cards, Cards]:
    """A hand of 6-14 cards (half of them from a narrow band of ranks, so melds are near) and cards seen."""
    deck = list(rules.deck)
    lo = draw(st.integers(1, 8))
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=3, unique=True))
    near = [c for c in deck if c.suit in suits and c.rank is not None and lo <= c.rank <= lo + 5]
    size = draw(st.integers(6, 14))
    picks = draw(st.lists(st.integers(0, len(near) - 1), unique=True, min_size=size // 2, max_size=size // 2))
    hand_list = [near[i] for i in picks]
    rest = list(rules.deck - Cards(hand_list))
    more = draw(st.lists(st.integers(0, len(rest) - 1), unique=True, min_size=size - len(hand_list), max_size=size))
    hand = Cards(hand_list + [rest[i] for i in more][: size - len(hand_list)])
    rest = list(rules.deck - hand)
    seen_idx = draw(st.lists(st.integers(0, len(rest) - 1), unique=True, max_size=40))
    return hand, Cards(rest[i] for i in seen_idx)


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_search_matches_cp_sat_on_full_hands(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand, seen = data.draw(big_positions(rules))
    d = distance_to_contract(hand, rules, round_, seen=seen)
    cp = distance_to_contract(hand, rules, round_, seen=seen, method="cp-sat", time_limit=10.0)
    assume(cp.status != "feasible")  # CP-SAT did not prove its answer in time: nothing to compare
    assert d.status == cp.status
    assert d.missing == cp.missing
    if d.missing == UNREACHABLE:
        return
    assert d.options == cp.options
    assert len(d.completion) == d.missing
    assert d.completion <= rules.deck - hand - seen
    check_lay_down(hand + d.completion, d.melds, rules, round_)


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_options_are_the_cards_that_bring_the_hand_one_closer(
    data: st.DataObject, rules: ContractRules, round_: int
) -> None:
    hand, seen = data.draw(big_positions(rules))
    d = distance_to_contract(hand, rules, round_, seen=seen)
    assume(0 < d.missing < UNREACHABLE)
    pool = rules.deck - hand - seen
    for card in pool.distinct():
        closer = distance_to_contract(hand + H(str(card)), rules, round_, seen=seen, options=False).missing
        assert (closer == d.missing - 1) == (card in d.options), card
        assert d.options.count(card) in (0, pool.count(card))


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_best_discards_matches_one_distance_per_card(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand, seen = data.draw(big_positions(rules))
    ranked = best_discards(hand, rules, round_, seen=seen)
    assert sorted(c.index for c, _ in ranked) == sorted(c.index for c in hand.distinct())
    for card, after in ranked:
        alone = distance_to_contract(hand - H(str(card)), rules, round_, seen=seen, options=False)
        assert after == alone.missing, card
    keys = [(d, *discard_order(c, rules)) for c, d in ranked]  # a natural before a wild, then points (issue 34)
    assert keys == sorted(keys)


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_best_discards_matches_exhaustive(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand = data.draw(hands(rules, naturals=6, wilds=2))
    assume(hand)
    rest = rules.deck - hand
    near = [
        c
        for c in rest.distinct()
        if c in rules.wilds or any(abs(int(c.rank or 0) - int(h.rank or 0)) <= 2 for h in hand.distinct())
    ]
    assume(near)
    picks = data.draw(st.lists(st.sampled_from(near), max_size=4))
    pool = Cards.from_counts({c: min(picks.count(c), rest.count(c)) for c in set(picks)})
    seen = rest - pool
    for card, after in best_discards(hand, rules, round_, seen=seen):
        one = H(str(card))
        brute = exhaustive_distance(hand - one, pool + one, rules, round_)
        assert after == (UNREACHABLE if brute is None else brute.missing), card


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_pre_check_never_rejects_a_makeable_hand(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand = data.draw(hands(rules))
    contract = rules.contract(round_)
    brute = exhaustive_lay_down(hand, rules, round_)
    assert contract_possible(hand, rules, contract) == (brute is not None)
    if brute is not None:
        assert not quick_reject(hand, rules, contract)


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_pre_check_agrees_with_the_cp_sat_lay_down(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand, _ = data.draw(big_positions(rules))
    contract = rules.contract(round_)
    makeable = solve_lay_down(hand, rules, contract) is not None
    assert contract_possible(hand, rules, contract) == makeable
    if makeable:
        assert not quick_reject(hand, rules, contract)
    whole = round_ == rules.rounds and rules.last_round_all_at_once
    if not whole:
        assert (best_lay_down(hand, rules, round_) is not None) == makeable


def test_shared_cards_are_split_between_melds() -> None:
    # two runs over one window: the 7H is held once, so one run needs another 7H or a wild
    hand = H("5H 6H 7H 8H 5H 6H 8H")
    d = distance_to_contract(hand, RULES, 3)
    assert d.missing == 1 and set(d.options.distinct()) == set(H("7H 2S 2C").distinct())
    # the set of sevens and the run both want the 7C: a second seven must come
    hand = H("7S 7D 7C 5C 6C 8C")
    d = distance_to_contract(hand, RULES, 1)
    assert d.missing == 1
    check_lay_down(hand + d.completion, d.melds, RULES, 1)
    brute = exhaustive_distance(hand, H("7H 9C 4C 2S KD"), RULES, 1)
    assert brute is not None and brute.missing == 1


def test_scarce_pool_and_no_completion() -> None:
    hand = H("5H 5D 5S 6C 7C 8C KD")
    gone = H("9C 9C 5C 5C 2S 2S 2C 2C")
    d = distance_to_contract(hand, RULES, 1, seen=gone)
    assert d.missing == 3 and d.status == "optimal"
    ranked = dict(best_discards(H("5H"), RULES, 1, seen=RULES.deck - H("5H")))
    assert ranked == {Card(Rank.FIVE, Suit.HEARTS): UNREACHABLE}


def test_best_discards_example_and_bad_input() -> None:
    ranked = best_discards(H("5H 5D 5S 6C 7C 8C KD"), RULES, 1)
    assert [(str(c), n) for c, n in ranked][:2] == [("KD", 1), ("8C", 2)]
    with pytest.raises(RulesError):
        best_discards(H("5H"), RULES, 9)
    with pytest.raises(ValueError, match="method"):
        distance_to_contract(H("5H"), RULES, 1, method="magic")  # type: ignore[arg-type]


def test_search_result_and_wild_caps() -> None:
    hand = H("5H 5D 5S 6C 7C 8C KD")
    res = search_distance(hand, RULES.deck - hand, RULES, RULES.contract(1), outs=False)
    assert res.missing == 1 and res.outs is None and res.status == "optimal"
    none = search_distance(H("5H"), Cards(), RULES, RULES.contract(1))
    assert none.missing is None and none.status == Status.INFEASIBLE
    assert [wild_cap(w, n) for w in ("fewer", "half", "any") for n in (3, 4, 5)] == [1, 1, 2, 1, 2, 2, 2, 3, 4]


def test_time_limit_gives_an_honest_status() -> None:
    # with no time at all the search stops at its first look at the clock: a completion found so far is
    # reported as feasible (at least the fewest; the cards that would do may be incomplete), none at all
    # is a SolverTimeout
    hand = H("2S 2S 6S 10S JS JS 2H 6D KD 2C 2C 7C 7C")
    exact = distance_to_contract(hand, RULES, 7)
    assert exact.status == "optimal"
    try:
        rushed = distance_to_contract(hand, RULES, 7, time_limit=0.0)
    except SolverTimeout:
        return
    assert rushed.status in ("optimal", "feasible") and rushed.missing >= exact.missing
    check_lay_down(hand + rushed.completion, rushed.melds, RULES, 7)
    if rushed.missing == exact.missing:
        assert rushed.options <= exact.options


RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_whole_hand_filter_never_rejects_a_hand_that_goes_down(data: st.DataObject) -> None:
    """The runs-only filter in can_go_down_whole is sound: whenever the CP-SAT model
    (asked directly, without the filter) lays the whole hand down, the filter lets it through."""
    from solver.contract.api import runs_can_hold

    rules = ContractRules.preset(data.draw(st.sampled_from(["finnish", "jokers_and_twos"])))
    cards: list[str] = []
    for _ in range(3):  # three runs, suits may repeat, sometimes with a wild inside
        suit = data.draw(st.sampled_from("SHDC"))
        start = data.draw(st.integers(1, 10))
        length = data.draw(st.integers(4, 6))
        cards += [RANKS[(r - 1) % 13] + suit for r in range(start, min(14, start + length))]
    hand = Cards.parse(cards + data.draw(st.lists(st.sampled_from(["2S", "2C", "KD", "5H", "9C"]), max_size=2)))
    assume(all(n <= rules.decks for _, n in hand.items()))
    contract = rules.contract(7)
    plan = solve_lay_down(hand, rules, contract, max_left=1, time_limit=10.0)
    allowed = runs_can_hold(hand, rules, contract, 1)
    if plan is not None:
        assert allowed
    # and the filter does turn hands down: one stray card too many
    stray = hand + Cards.parse("KD QC")
    if not runs_can_hold(stray, rules, contract, 1):
        assert solve_lay_down(stray, rules, contract, max_left=1, time_limit=10.0) is None
