"""The distance search with nothing still to come: the engine's "can this hand lay down now?" each turn.

With an empty pool the pieces of :mod:`solver.contract.shapes` simplify,
and the engine asks this question on every turn of a player who has not
laid down, so these are the same answers computed for that case alone:

* :func:`price_hand_only` -- the candidates of :func:`~solver.contract.shapes.price`
  in the search's order (a shape needs no card from the pool exactly when
  its open slots are at most its wild cap and the hand's wilds); a suit
  with too few naturals for any of its windows is skipped whole;
* :func:`hand_split` -- the split :func:`~solver.contract.shapes.price_combo`
  finds for a combination whose melds share no card (then there is only
  one: each run takes the hand's cards of its window, each set the copies
  of its rank up to its size), so no splits are enumerated;
* :func:`hand_melds` -- the melds :func:`~solver.contract.shapes.decode_combo`
  builds for a combination that needs no card (the hand's wilds fill the
  open slots in order; nothing is left to come).

Each is checked against the general code on random hands of every round
(``tests/contract/test_contract_handonly.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from solver.cards import ALL_CARDS, Card
from solver.contract.shapes import Cand, Counts, Shape, Split, price_combo, shapes_for
from solver.melds import Meld

__all__ = ["price_hand_only", "hand_split", "hand_melds", "shares_cards"]

_Entry = tuple[int, int, int, tuple[Cand, ...]]
"""A run shape for the hand-only pricing: its position mask, end bits, size and its candidates by ``s``."""


@cache
def _zero_cands(shape: Shape) -> tuple[Cand, ...]:
    """The shape's candidate for each number ``s`` of open slots a wild fills (none from the pool)."""
    return tuple(Cand(shape, s, 0, 0) for s in range(min(shape.wmax, shape.size) + 1))


@cache
def _run_table(m: int, ace: str, limit: str) -> tuple[tuple[int, tuple[_Entry, ...]], ...]:
    """Per suit, the fewest naturals any of its run shapes needs and the shapes in :func:`shapes_for` order."""
    per_suit: list[list[_Entry]] = [[], [], [], []]
    least = [99] * 4
    for sh in shapes_for(True, m, ace, limit):
        per_suit[sh.suit].append((sh.pmask, sh.ends, sh.size, _zero_cands(sh)))
        least[sh.suit] = min(least[sh.suit], sh.size - sh.wmax)
    # shapes_for lists the suits in order, so the concatenation keeps its order
    return tuple((least[s], tuple(per_suit[s])) for s in range(4))


@cache
def _set_table(m: int, ace: str, limit: str) -> tuple[tuple[int, int, tuple[int, ...], tuple[Cand, ...]], ...]:
    return tuple((sh.size, sh.wmax, sh.cards, _zero_cands(sh)) for sh in shapes_for(False, m, ace, limit))


@lru_cache(maxsize=1 << 16)
def _suit_cands(m: int, ace: str, limit: str, suit: int, hm: int, hw: int) -> tuple[tuple[Cand, ...], ...]:
    """The candidates of one suit's run shapes for a hand with position mask ``hm`` and ``hw`` wilds,
    by ``s`` (0..hw), each in :func:`shapes_for` order (hands repeat a suit's cards often)."""
    found: list[list[Cand]] = [[] for _ in range(hw + 1)]
    for pmask, ends, size, cands in _run_table(m, ace, limit)[suit][1]:
        if ends and hm & ends != ends:
            continue
        s = size - (hm & pmask).bit_count()
        if s < len(cands) and s <= hw:
            found[s].append(cands[s])
    return tuple(tuple(f) for f in found)


def price_hand_only(run: bool, m: int, ace: str, limit: str, c: Counts) -> list[Cand]:
    """``[price(sh, c) for sh in shapes_for(run, m, ace, limit)]`` without the Nones, sorted by
    ``(s, need)`` (stable), when ``c`` has an empty pool: the search's candidates, computed faster."""
    hw = c.hw
    buckets: list[list[Cand]] = [[] for _ in range(hw + 1)]
    if run:
        hmask = c.hmask
        for suit, (least, _) in enumerate(_run_table(m, ace, limit)):
            hm = hmask[suit]
            if hm.bit_count() < least or hm.bit_count() + hw < m:
                continue  # no window of this suit holds enough naturals
            for s, found in enumerate(_suit_cands(m, ace, limit, suit, hm, hw)):
                buckets[s] += found
    else:
        hn = c.hn
        for size, wmax, cards, cands in _set_table(m, ace, limit):
            a, b, d, e = cards
            s = size - min(size, hn[a] + hn[b] + hn[d] + hn[e])
            if s <= wmax and s <= hw:
                buckets[s].append(cands[s])
    out: list[Cand] = []
    for bucket in buckets:
        out += bucket
    return out


def shares_cards(shapes: Sequence[Shape]) -> bool:
    """True when two of the shapes cover a common card (then the melds may compete for its copies)."""
    seen = 0
    for sh in shapes:
        if seen & sh.cmask:
            return True
        seen |= sh.cmask
    return False


def hand_split(shapes: Sequence[Shape], hn: Sequence[int]) -> Split:
    """The split :func:`~solver.contract.shapes.price_combo` gives shapes that share no card, with an
    empty pool: each run's hand cards in window order, each set ``min(size, copies of its rank)``."""
    hand: list[tuple[int, ...] | int] = []
    pool: list[tuple[int, ...] | int] = []
    for sh in shapes:
        if sh.run:
            hand.append(tuple(i for i in sh.cards if hn[i]))
            pool.append(())
        else:
            hand.append(min(sh.size, sum(hn[i] for i in sh.cards)))
            pool.append(0)
    return Split(tuple(hand), tuple(pool))


def hand_melds(shapes: Sequence[Shape], c: Counts) -> list[Meld]:
    """:func:`~solver.contract.shapes.decode_combo`'s melds for a combination that costs nothing from
    the hand alone (``c`` has an empty pool), in its order.

    Its split is :func:`hand_split` where the melds share no card, else the first free split of
    :func:`~solver.contract.shapes.price_combo`; no slot needs a natural card to come, so the hand's
    wilds fill the open slots in order, runs first, then sets (each set's naturals in card order,
    its wilds standing for the first of them).
    """
    if shares_cards(shapes):
        priced = price_combo(shapes, c.hn, c.pn, c.hw, c.pw)
        assert priced is not None and priced[0] == 0
        split = priced[1]
    else:
        split = hand_split(shapes, c.hn)
    wilds = iter(c.hwild)
    left = list(c.hn)
    built: list[Meld | None] = [None] * len(shapes)
    for j, sh in enumerate(shapes):
        if sh.run:
            mine = split.hand[j]
            assert isinstance(mine, tuple)
            cards: list[Card] = []
            roles: list[Card | None] = []
            for i in sh.cards:
                if i in mine:
                    left[i] -= 1
                    cards.append(ALL_CARDS[i])
                    roles.append(None)
                else:
                    cards.append(next(wilds))
                    roles.append(ALL_CARDS[i])
            built[j] = Meld(tuple(cards), tuple(roles))
    for j, sh in enumerate(shapes):
        if not sh.run:
            k = split.hand[j]
            assert isinstance(k, int)
            naturals: list[Card] = []
            for i in sh.cards:
                while k and left[i]:
                    left[i] -= 1
                    k -= 1
                    naturals.append(ALL_CARDS[i])
            n_wild = sh.size - len(naturals)
            cards = naturals + [next(wilds) for _ in range(n_wild)]
            built[j] = Meld(tuple(cards), (None,) * len(naturals) + (naturals[0],) * n_wild)
    return [m for m in built if m is not None]
