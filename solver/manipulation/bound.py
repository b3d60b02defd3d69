"""Stage 1 of the best play: the playable bound, an upper bound on every play.

Every copy of a card on the new table sits in its own meld (a set never
holds two cards of one suit, a run never one rank twice), so the copies of a
card ``c`` the new table can hold are at most the melds that can contain
``c``: sets of its rank (each needs two more cards of other suits, or
jokers) plus runs through its position (each holds one of the pairs
``(p-2, p-1)``, ``(p-1, p+1)``, ``(p+1, p+2)`` of its suit, jokers filling
gaps). A hand card is *playable* only as far as that capacity exceeds the
copies already on the table; a joker only if some meld with a joker can be
built at all. The playable cards :func:`playable_bound` returns bound every
objective that rewards each card played (``cards``, ``value``).

Cost: one pass over the 52 card kinds, a few operations each (microseconds).

>>> from solver.melds import parse_table
>>> rules = ManipulationRules()
>>> table = parse_table("5H 6H 7H | 9S 9H 9D")
>>> str(playable_bound(Cards(c for m in table for c in m.cards), Cards.parse("8H 9C KD"), rules))
'8H 9C'
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import compress
from operator import add

from solver.cards import Card, Cards
from solver.ranks import (
    JOKER_INDEX,
    N_NATURAL,
    VALUE_SCALE,
    card_index,
    position_range,
    positions_of,
)
from solver.rules import ManipulationRules

__all__ = ["playable_bound", "card_playable", "card_weight", "score_of"]

_J = JOKER_INDEX


def card_weight(card: Card, rules: ManipulationRules, objective: str) -> int:
    """The objective weight of one played card (the CP-SAT model's weights)."""
    if objective == "cards" or card.rank is None:
        return 1
    return rules.card_value(card) * VALUE_SCALE + 1


@cache
def _run_capacity(n2: int, n1: int, m1: int, m2: int, jokers: int) -> int:
    """Most runs through one position, given the cards at p-2, p-1, p+1, p+2 and the jokers.

    Runs ending at p hold (p-2, p-1), runs through p hold (p-1, p+1), runs
    starting at p hold (p+1, p+2); no card serves two runs, jokers fill gaps.
    """
    best = 0
    for a in range(n2 + jokers + 1):  # runs ending at p
        for c in range(m2 + jokers + 1):  # runs starting at p
            left = jokers - max(0, a - n2) - max(0, c - m2) - max(0, a - n1) - max(0, c - m1)
            if left < 0:
                continue
            b = 0  # runs through p
            while max(0, a + b + 1 - n1) + max(0, b + 1 + c - m1) - max(0, a - n1) - max(0, c - m1) <= left:
                b += 1
            best = max(best, a + b + c)
    return best


def _set_capacity(others: Sequence[int], jokers: int, decks: int) -> int:
    """Most sets holding one card, given the copies of the other three suits and the jokers."""
    best = 0
    for y in range(1, decks + 1):
        if sum(min(n, y) for n in others) + jokers >= 2 * y:
            best = y
    return best


_Neighbours = tuple[tuple[int, int, int], tuple[tuple[int, int, int, int], ...]]


@cache
def _neighbours(ace: str) -> tuple[_Neighbours, ...]:
    """Per natural card index: the same rank in the other suits, and for each of its rank positions
    the cards at p-2, p-1, p+1, p+2 of its suit (index 52 when off the ends: a count of 0 there)."""
    lo, hi = position_range(ace)
    out: list[_Neighbours] = []
    for index in range(N_NATURAL):
        suit, rank = divmod(index, 13)
        a, b, c = (s * 13 + rank for s in range(4) if s != suit)

        def at(q: int, suit: int = suit) -> int:
            return card_index(suit, q) if lo <= q <= hi else _NONE

        windows = tuple((at(p - 2), at(p - 1), at(p + 1), at(p + 2)) for p in positions_of(rank + 1, ace))
        out.append(((a, b, c), windows))
    return tuple(out)


_NONE = N_NATURAL  # an index whose count is taken as 0 (see _counts_with_none)


@cache
def _set_capacity_of(a: int, b: int, c: int, jokers: int, decks: int) -> int:
    return _set_capacity((a, b, c), jokers, decks)


def _capacity(index: int, counts: Sequence[int], rules: ManipulationRules) -> int:
    """Most melds that can hold the natural card ``index`` among ``counts`` (jokers included;
    ``counts[52]`` must be 0, see :func:`_counts_with_none`)."""
    jokers = counts[_J]
    (a, b, c), windows = _neighbours(rules.ace)[index]
    total = _set_capacity_of(counts[a], counts[b], counts[c], jokers, rules.decks)
    for n2, n1, m1, m2 in windows:
        total += _run_capacity(counts[n2], counts[n1], counts[m1], counts[m2], jokers)
    return total


def _counts_with_none(counts: Sequence[int]) -> list[int]:
    """``counts`` with the count at index 52 (a red joker, never in a Manipulation deck) set to 0:
    the off-the-end neighbour of :func:`_neighbours`."""
    out = list(counts)
    out[_NONE] = 0
    return out


def playable_bound(table: Cards, hand: Cards, rules: ManipulationRules) -> Cards:
    """The hand cards that could be played at all (an upper bound on every play).

    ``table`` is the multiset of table cards. Exact as a bound: a card left out
    cannot be played in any rearrangement (see the module docstring).
    """
    tc, hc = table.counts, hand.counts
    counts = list(map(add, tc, hc))
    counts[_NONE] = 0  # see _counts_with_none
    out = [0] * len(hc)
    # _capacity of each natural hand card, inlined (the engine asks this once per position)
    jokers, decks, neighbours = counts[_J], rules.decks, _neighbours(rules.ace)
    for i in compress(range(N_NATURAL), hc):
        (a, b, c), windows = neighbours[i]
        total = _set_capacity_of(counts[a], counts[b], counts[c], jokers, decks)
        for n2, n1, m1, m2 in windows:
            total += _run_capacity(counts[n2], counts[n1], counts[m1], counts[m2], jokers)
        n = min(hc[i], total - tc[i])
        if n > 0:
            out[i] = n
    if hc[_J] and any(counts[i] and _joker_partner(i, counts, rules) for i in range(N_NATURAL)):
        out[_J] = hc[_J]
    return Cards._make(tuple(out))


def card_playable(table: Cards, hand: Cards, card: Card, rules: ManipulationRules) -> bool:
    """Whether the natural hand card ``card`` is in :func:`playable_bound` (only its capacity is
    worked out: what the engine asks of a card just drawn).

    >>> from solver.melds import parse_table
    >>> on_table = Cards(c for m in parse_table("5H 6H 7H | 9S 9H 9D") for c in m.cards)
    >>> card_playable(on_table, Cards.parse("8H KD"), Card.parse("8H"), ManipulationRules())
    True
    >>> card_playable(on_table, Cards.parse("8H KD"), Card.parse("KD"), ManipulationRules())
    False
    """
    i = card.index
    if i >= N_NATURAL or not hand.counts[i]:
        raise ValueError(f"{card} is not a natural card in the hand")
    counts = _counts_with_none((table + hand).counts)
    return _capacity(i, counts, rules) > table.counts[i]


def _joker_partner(index: int, counts: Sequence[int], rules: ManipulationRules) -> bool:
    """Whether the natural ``index`` and a joker can share a meld of three."""
    if counts[_J] >= 2:
        return True
    suit, rank = divmod(index, 13)
    if any(counts[s * 13 + rank] for s in range(4) if s != suit):
        return True
    lo, hi = position_range(rules.ace)
    for p in positions_of(rank + 1, rules.ace):
        for q in (p - 2, p - 1, p + 1, p + 2):
            if lo <= q <= hi and counts[card_index(suit, q)] and card_index(suit, q) != index:
                return True
    return False


# --- the extension play ----------------------------------------------------------------------


def score_of(cards: Cards, rules: ManipulationRules, objective: str) -> int:
    """The objective score of played cards (the sum of :func:`card_weight`)."""
    return sum(card_weight(c, rules, objective) * n for c, n in cards.items())
