"""Contract Shanghai: every question against exhaustive search on small random positions.

Hands of up to 9 natural cards and up to 4 wilds, every round's contract,
every preset and wild limit (``tests.strategies.contract_rules``); each
answer also goes through the referee.
"""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from solver.cards import Card, Cards, Rank, Suit
from solver.contract import best_lay_down, best_layoff, distance_to_contract
from solver.contract.brute import exhaustive_distance, exhaustive_lay_down, exhaustive_layoff
from solver.contract.referee import check_lay_down, check_layoff
from solver.errors import MeldError, Status
from solver.melds import Meld, TableMeld, meld_kind
from solver.rules import ContractRules
from tests.strategies import contract_rules

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def hands(draw: st.DrawFn, rules: ContractRules, naturals: int = 9, wilds: int = 4) -> Cards:
    """Up to ``naturals`` natural cards drawn from a few suits and ranks (so melds happen), and wilds."""
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=2, unique=True))
    lo = draw(st.integers(1, 9))
    pool = [Card(Rank(r), s) for s in suits for r in range(lo, min(13, lo + 5) + 1)]
    pool = [c for c in pool if c not in rules.wilds] * rules.decks
    n = draw(st.integers(0, min(naturals, len(pool))))
    idx = draw(st.lists(st.integers(0, len(pool) - 1), min_size=n, max_size=n, unique=True))
    wild_pool = [c for c, k in rules.deck.items() if c in rules.wilds for _ in range(k)]
    w = draw(st.integers(0, min(wilds, len(wild_pool))))
    return Cards([pool[i] for i in idx] + wild_pool[:w])


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@SETTINGS
def test_lay_down_matches_exhaustive(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand = data.draw(hands(rules))
    whole = round_ == rules.rounds and rules.last_round_all_at_once
    down = best_lay_down(hand, rules, round_)
    brute = exhaustive_lay_down(hand, rules, round_, max_left=1 if whole else None)
    assert (down is None) == (brute is None)
    if down is not None and brute is not None:
        assert down.status == "optimal"
        assert check_lay_down(hand, down.melds, rules, round_, max_left=1 if whole else None) == down.points_left
        assert down.points_left == brute.points_left
        assert len(down.hand) == brute.cards_left


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_distance_matches_exhaustive(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand = data.draw(hands(rules, naturals=7, wilds=2))
    # a small pool of cards that can still come keeps the exhaustive search small
    rest = rules.deck - hand
    near = [
        c
        for c, n in rest.items()
        if c in rules.wilds or any(abs(int(c.rank or 0) - int(h.rank or 0)) <= 2 for h in hand.distinct())
    ]
    assume(near)
    picks = data.draw(st.lists(st.sampled_from(near), max_size=6))
    pool = Cards.from_counts({c: min(picks.count(c), rest.count(c)) for c in set(picks)})
    seen = rest - pool
    d = distance_to_contract(hand, rules, round_, seen=seen)
    brute = exhaustive_distance(hand, pool, rules, round_)
    if brute is None:
        assert d.status == Status.INFEASIBLE
        return
    assert d.status == "optimal"
    assert d.missing == brute.missing
    assert set(d.options.distinct()) == brute.outs
    assert d.completion <= pool
    check_lay_down(hand + d.completion, d.melds, rules, round_)


def _table_meld(draw: st.DrawFn, rules: ContractRules) -> Meld | None:
    spec = rules.meld_spec
    wild_cards = sorted(rules.wilds, key=lambda c: c.index)
    if draw(st.booleans()):
        rank = Rank(draw(st.integers(1, 13)))
        nat = [Card(rank, s) for s in draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=4))]
        nat = [c for c in nat if c not in rules.wilds]
        w = draw(st.integers(0, 2))
        cards = nat + [draw(st.sampled_from(wild_cards)) for _ in range(w)]
        roles: list[Card | None] = [None] * len(cards)
    else:
        suit = draw(st.sampled_from(list(Suit)))
        start = draw(st.integers(1, 10))
        length = draw(st.integers(4, 6))
        cards, roles = [], []
        for p in range(start, min(14, start + length - 1) + 1):
            card = Card(Rank(1 if p == 14 else p), suit)
            if card in rules.wilds or draw(st.integers(0, 2)) == 0:
                cards.append(draw(st.sampled_from(wild_cards)))
                roles.append(card if draw(st.booleans()) else None)
            else:
                cards.append(card)
                roles.append(None)
    meld = Meld(tuple(cards), tuple(roles))
    try:
        meld_kind(meld, spec)
    except MeldError:
        return None
    return meld


@st.composite
def tables(draw: st.DrawFn, rules: ContractRules) -> list[TableMeld]:
    out: list[TableMeld] = []
    for _ in range(draw(st.integers(1, 3))):
        meld = _table_meld(draw, rules)
        if meld is not None:
            out.append(TableMeld(meld, draw(st.integers(0, 2))))
    return out


@given(data=st.data(), rules=contract_rules, objective=st.sampled_from(["points", "cards"]))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_layoff_matches_exhaustive(data: st.DataObject, rules: ContractRules, objective: str) -> None:
    rules = ContractRules.from_dict({**rules.to_dict(), "wild_swap_own": data.draw(st.booleans())})
    table = data.draw(tables(rules))
    assume(table)
    # hand cards near the table's melds (so lay-offs and swaps happen), plus a few wilds
    near: list[Card] = []
    for t in table:
        for c in t.meld.cards:
            if c in rules.wilds or c.rank is None or c.suit is None:
                continue
            near += [Card(c.rank, s) for s in Suit]
            near += [Card(Rank(r), c.suit) for r in range(max(1, c.rank - 2), min(13, c.rank + 2) + 1)]
    near = [c for c in near if c not in rules.wilds]
    picks = data.draw(st.lists(st.sampled_from(near), max_size=6)) if near else []
    wild_pool = [c for c, k in rules.deck.items() if c in rules.wilds for _ in range(k)]
    hand = Cards(picks + wild_pool[: data.draw(st.integers(0, 2))])
    try:
        (hand + Cards(c for t in table for c in t.meld.cards)).check_against(rules.deck)
    except ValueError:
        assume(False)
    lay = best_layoff(hand, table, rules, objective=objective)  # type: ignore[arg-type]
    assert lay.status == "optimal"
    assert check_layoff(table, hand, lay.table, rules, 0) == lay.played
    brute = exhaustive_layoff(hand, table, rules, objective=objective)  # type: ignore[arg-type]
    primary, secondary = (lay.points, len(lay.played)) if objective == "points" else (len(lay.played), lay.points)
    assert (primary, secondary, len(lay.swaps)) == (brute.primary, brute.secondary, brute.swaps)
    assert lay.can_go_out == (brute.fewest_left <= 1)
    assert lay.hand == hand - lay.played
