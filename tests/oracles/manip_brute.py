"""Exhaustive search and a greedy player for Manipulation Shanghai, for the tests.

Plain Python that shares no code with the CP-SAT model: candidate melds are
generated here and refereed by :mod:`solver.melds` (the independent
validator); a multiset is arrangeable when the meld holding its first
natural card can be chosen so that the rest is arrangeable (memoised).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import cache

from solver.cards import ALL_CARDS, Card, Cards, Rank, Suit
from solver.melds import Meld, meld_kinds
from solver.rules import ManipulationRules

JOKER = Card.parse("JK")
J = JOKER.index


def _positions(rank: int, ace: str) -> tuple[int, ...]:
    if rank != 1:
        return (rank,)
    return {"low": (1,), "high": (14,), "both": (1, 14)}[ace]


def _rank(position: int) -> int:
    return 1 if position == 14 else position


def _melds_with(first: Card, counts: tuple[int, ...], rules: ManipulationRules) -> Iterator[tuple[int, ...]]:
    """Every valid meld (as a count vector) drawn from ``counts`` that holds ``first``."""
    spec = rules.meld_spec
    jokers = counts[J]
    assert first.rank is not None and first.suit is not None
    seen: set[tuple[int, ...]] = set()
    # sets: other suits of the same rank, then jokers
    others = [Card(first.rank, s) for s in Suit if s != first.suit and counts[Card(first.rank, s).index]]
    for k in range(0, 4):
        for chosen in itertools.combinations(others, k):
            for j in range(0, min(jokers, 4) + 1):
                cards = [first, *chosen, *([JOKER] * j)]
                if 3 <= len(cards) <= 4:
                    yield from _emit(cards, spec, seen)
    # runs: windows through a position of ``first``
    lo = 2 if rules.ace == "high" else 1
    hi = 13 if rules.ace == "low" else 14
    for p in _positions(int(first.rank), rules.ace):
        for a in range(max(lo, p - 12), p + 1):
            for b in range(max(p, a + 2), min(hi, a + 12) + 1):
                slots = [q for q in range(a, b + 1) if q != p]
                options = []
                for q in slots:
                    card = Card(Rank(_rank(q)), first.suit)
                    opts = []
                    if counts[card.index] - (1 if card == first else 0) > 0:
                        opts.append(card)
                    if jokers:
                        opts.append(JOKER)
                    options.append(opts)
                if any(not o for o in options):
                    continue
                for pick in itertools.product(*options):
                    if pick.count(JOKER) > jokers:
                        continue
                    yield from _emit([first, *pick], spec, seen)


def _emit(cards: list[Card], spec: object, seen: set[tuple[int, ...]]) -> Iterator[tuple[int, ...]]:
    key = Cards(cards).counts
    if key in seen:
        return
    seen.add(key)
    if meld_kinds(Meld.of(cards), spec):  # type: ignore[arg-type]
        yield key


def arrangeable(cards: Cards, rules: ManipulationRules) -> bool:
    """Whether ``cards`` can be split into valid melds (every card used)."""
    return _arrangeable(cards.counts, rules)


@cache
def _arrangeable(counts: tuple[int, ...], rules: ManipulationRules) -> bool:
    if not any(counts):
        return True
    first = next((ALL_CARDS[i] for i in range(52) if counts[i]), None)
    if first is None:
        return False  # jokers alone make no meld
    for meld in _melds_with(first, counts, rules):
        rest = tuple(a - b for a, b in zip(counts, meld))
        if min(rest) >= 0 and _arrangeable(rest, rules):
            return True
    return False


def sub_multisets(hand: Cards) -> Iterator[Cards]:
    """Every sub-multiset of ``hand``."""
    items = list(hand.items())
    for ns in itertools.product(*(range(n + 1) for _, n in items)):
        yield Cards.from_counts({c: n for (c, _), n in zip(items, ns)})


def best_by_brute_force(
    table: Sequence[Meld], hand: Cards, rules: ManipulationRules, objective: str = "cards"
) -> tuple[int, tuple[Cards, ...]]:
    """The best score (cards played, or value) and every multiset of hand cards reaching it."""
    on_table = Cards(c for m in table for c in m.cards)

    def score(sub: Cards) -> int:
        if objective == "cards":
            return len(sub)
        return sum(rules.card_value(c) * n for c, n in sub.items())

    subs = sorted(sub_multisets(hand), key=score, reverse=True)
    best = None
    found: list[Cards] = []
    for sub in subs:
        if best is not None and score(sub) < best:
            break
        if arrangeable(on_table + sub, rules):
            best = score(sub)
            found.append(sub)
    return (best or 0), tuple(found)


def greedy_no_rearrangement(table: Sequence[Meld], hand: Cards, rules: ManipulationRules) -> Cards:
    """Play without touching the table: lay new melds from the hand, then extend melds card by card."""
    spec = rules.meld_spec
    melds = [list(m.cards) for m in table]
    left = list(hand)
    played: list[Card] = []
    changed = True
    while changed:
        changed = False
        for size in range(min(len(left), 13), 2, -1):
            for combo in itertools.combinations(left, size):
                if meld_kinds(Meld.of(combo), spec):
                    for c in combo:
                        left.remove(c)
                    played.extend(combo)
                    melds.append(list(combo))
                    changed = True
                    break
            if changed:
                break
        if changed:
            continue
        for card in list(left):
            for meld in melds:
                if meld_kinds(Meld.of([*meld, card]), spec):
                    meld.append(card)
                    left.remove(card)
                    played.append(card)
                    changed = True
                    break
            if changed:
                break
    return Cards(played)
