"""Meld shapes of a contract and their exact pricing (the parts of :mod:`solver.contract.search`).

The contract is a few melds, so the distance search picks one *shape* per
requirement (a set of a rank, or a run window of a suit) and prices each
combination of shapes exactly. The cards to add are what the melds need
beyond the hand: natural cards that can still come, and wilds beyond the
hand's own.

**Pricing a combination.** Each meld takes the hand naturals it can use
(``h``); its other ``s = size - h`` slots are filled by naturals still to
come (at least ``need = max(0, s - wmax)`` of them, ``wmax`` being the most
wilds a meld of its size may hold) or by wilds. With ``S`` open slots in
all, ``HW`` wilds in hand and ``PW`` wilds still to come, ``X`` naturals to
come cost ``X + max(0, S - X - HW)``, so the fewest extra cards are
``max(sum(need), S - HW)``; feasible when every meld finds its ``need``
among the naturals still to come and the slots no natural can fill are at
most ``HW + PW``. Where melds share cards (two runs over one window, a set
and a run through its rank) a greedy split (runs first take the copies they
find, sets the rest) is priced against the lower bound; when it falls
short, the shared copies are split among the melds in every way (a handful
of cases), each split priced the same way.

**Which shapes.** A set never needs more than its minimum length (drop a
wild, or a natural when it has no wild). A run longer than its minimum is
needed only when it cannot be trimmed: both ends natural and as many wilds
as its length allows, so an odd length under the ``fewer`` limit, an even
one under ``half``, never under ``any``. Trimming keeps a meld valid and
uses a subset of its cards, so nothing is lost.

>>> [str(s) for s in shapes_for(True, 4, "both", "fewer")[:2]]
['run AS-4S', 'run 2S-5S']
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, compress, product
from typing import NamedTuple, TypeVar

from solver.cards import ALL_CARDS, Card, Cards, Rank
from solver.contract.native import call, check_counts, contract_core, shape_tuple
from solver.melds import Meld
from solver.ranks import N_NATURAL, card_index, position_range, wild_cap

T = TypeVar("T")

__all__ = [
    "Shape",
    "Counts",
    "Cand",
    "Split",
    "shapes_for",
    "suit_mask",
    "price",
    "combo_cost",
    "price_combo",
    "bits_of",
    "decode_combo",
]


def bits_of(items: Sequence[int]) -> int:
    """The bit mask with bit ``i`` set for each ``i`` in ``items``."""
    out = 0
    for i in items:
        out |= 1 << i
    return out


@dataclass(frozen=True, slots=True)
class Shape:
    """One meld a requirement may take: a set of ``rank`` or a run over ``positions`` of ``suit``.

    ``cards`` are the natural card indices (:attr:`Card.index`) the meld can
    use: a run's cards in window order, a set's four suits of its rank.
    ``pmask`` has bit ``p`` for each window position of a run, ``cmask`` bit
    ``i`` for each index in ``cards``; ``ends`` the bits of the end
    positions of a run longer than its minimum (0 otherwise: those ends must
    be naturals that exist).
    """

    run: bool
    size: int
    wmax: int
    rank: int
    suit: int
    positions: tuple[int, ...]
    cards: tuple[int, ...]
    pmask: int
    cmask: int
    ends: int

    def __str__(self) -> str:
        if not self.run:
            return f"set of {Rank(self.rank).symbol}"
        return f"run {ALL_CARDS[self.cards[0]]}-{ALL_CARDS[self.cards[-1]]}"


def _set_shapes(m: int, limit: str) -> tuple[Shape, ...]:
    out = []
    for rank in Rank:
        cards = tuple(s * 13 + rank - 1 for s in range(4))
        out.append(Shape(False, m, wild_cap(limit, m), int(rank), -1, (), cards, 0, bits_of(cards), 0))
    return tuple(out)


@cache
def shapes_for(run: bool, m: int, ace: str, limit: str) -> tuple[Shape, ...]:
    """Every shape a requirement of minimum length ``m`` needs (see the module docstring)."""
    if not run:
        return _set_shapes(m, limit)
    lo, hi = position_range(ace)
    parity = {"fewer": 1, "half": 0}.get(limit)
    shapes = []
    for suit in range(4):
        for length in range(m, 14):
            if length > m and (parity is None or length % 2 != parity):
                continue
            for start in range(lo, hi - length + 2):
                positions = tuple(range(start, start + length))
                if 1 in positions and 14 in positions:
                    continue
                cards = tuple(card_index(suit, p) for p in positions)
                ends = (1 << positions[0]) | (1 << positions[-1]) if length > m else 0
                shapes.append(
                    Shape(True, length, wild_cap(limit, length), 0, suit, positions, cards, bits_of(positions),
                          bits_of(cards), ends)
                )  # fmt: skip
    return tuple(shapes)


def suit_mask(counts: Sequence[int], suit: int) -> int:
    """Bit ``p`` for each rank position of ``suit`` with a card in ``counts`` (the ace at 1 and 14)."""
    base = suit * 13
    mask = 0
    for r in range(13):
        if counts[base + r]:
            mask |= 1 << (r + 1)
    if mask & 2:
        mask |= 1 << 14
    return mask


class Counts:
    """Hand and pool: natural counts by card index (wild cards zeroed), wilds, per-suit position masks."""

    __slots__ = ("hmask", "hn", "hw", "hwild", "pmask", "pn", "pw", "pwild")

    def __init__(self, hand: Cards, pool: Cards, wilds: frozenset[Card]) -> None:
        hc, pc = hand.counts, pool.counts
        hn, pn = list(hc[:N_NATURAL]), list(pc[:N_NATURAL])
        self.hwild: list[Card] = []
        self.pwild: list[Card] = []
        for w in _in_order(wilds):
            i = w.index
            self.hwild += [w] * hc[i]
            self.pwild += [w] * pc[i]
            if i < N_NATURAL:
                hn[i] = pn[i] = 0
        self.hn, self.pn = hn, pn
        self.hw, self.pw = len(self.hwild), len(self.pwild)
        # suit_mask of each suit, from the hand's cards (a few) rather than every rank
        hmask = [0, 0, 0, 0]
        for i in compress(_NATURALS, hn):
            hmask[i // 13] |= 2 << (i % 13)
        self.hmask = [m | 1 << 14 if m & 2 else m for m in hmask]
        self.pmask = [suit_mask(pn, s) for s in range(4)] if pool else [0, 0, 0, 0]


_NATURALS = range(N_NATURAL)


@cache
def _in_order(wilds: frozenset[Card]) -> tuple[Card, ...]:
    return tuple(sorted(wilds, key=lambda c: c.index))


@dataclass(frozen=True, slots=True)
class Cand:
    """A shape priced on its own: hand naturals ``h``, open slots ``s``, open slots a natural still to
    come can fill ``q``, the fewest of those it must take ``need``."""

    shape: Shape
    s: int
    q: int
    need: int


def price(shape: Shape, c: Counts) -> Cand | None:
    """The shape on its own, or None when it cannot be made even with every card still to come."""
    if shape.run:
        hm = c.hmask[shape.suit]
        pm = c.pmask[shape.suit]
        if shape.ends and (hm | pm) & shape.ends != shape.ends:
            return None
        wm = shape.pmask
        h = (hm & wm).bit_count()
        q = (pm & wm & ~hm).bit_count()
    else:
        hr = sum(c.hn[i] for i in shape.cards)
        pr = sum(c.pn[i] for i in shape.cards)
        h = min(shape.size, hr)
        q = min(shape.size - h, pr)
    s = shape.size - h
    need = s - shape.wmax if s > shape.wmax else 0
    if need > q or s - q > c.hw + c.pw:
        return None
    return Cand(shape, s, q, need)


# ---------------------------------------------------------------- pricing a combination


@dataclass(frozen=True, slots=True)
class Split:
    """How a combination's melds share the cards: per meld, hand naturals taken and the open slots
    naturals still to come may fill (runs: card indices; sets: counts)."""

    hand: tuple[tuple[int, ...] | int, ...]
    pool: tuple[tuple[int, ...] | int, ...]


def _cost(
    sizes: Sequence[int], wmaxes: Sequence[int], h: Sequence[int], q: Sequence[int], hw: int, pw: int
) -> int | None:
    """Fewest extra cards for melds with ``h`` hand naturals and ``q`` fillable open slots each."""
    total_need = 0
    total_s = 0
    unfillable = 0
    for size, wmax, hj, qj in zip(sizes, wmaxes, h, q):
        s = size - hj
        need = s - wmax if s > wmax else 0
        if need > qj:
            return None
        total_need += need
        total_s += s
        unfillable += s - qj
    if unfillable > hw + pw:
        return None
    return max(total_need, total_s - hw)


def _choices(copies: int, takers: list[int], flexible: bool) -> list[tuple[int, ...]]:
    """Which runs among ``takers`` get one of ``copies`` copies of a card.

    Copies no run takes go to the sets of the card's rank when ``flexible``
    (so every number of runs is tried); otherwise as many runs as possible
    take one.
    """
    k = len(takers)
    if not flexible:
        if copies >= k:
            return [tuple(takers)]
        return list(combinations(takers, copies))
    return [c for t in range(min(copies, k) + 1) for c in combinations(takers, t)]


def _set_splits(total: int, caps: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to give ``min(total, sum(caps))`` copies to sets with room ``caps``."""
    goal = min(total, sum(caps))

    def rec(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(caps) - 1:
            if left <= caps[i]:
                yield (left,)
            return
        for k in range(min(left, caps[i]), -1, -1):
            for rest in rec(i + 1, left - k):
                yield (k, *rest)

    yield from rec(0, goal)


class _Greedy:
    """The greedy split of :func:`combo_cost`: per meld its size, wild cap, hand naturals and fillable
    slots; ``need0`` the sum of the melds' own ``need`` (part of the lower bound)."""

    __slots__ = ("hl", "hn", "hs", "need0", "pl", "pn", "qs", "sizes", "wmaxes")

    def __init__(self, hn: Sequence[int], pn: Sequence[int]) -> None:
        self.hn, self.pn = hn, pn
        self.hl: dict[int, int] = {}  # hand copies left, where some are taken
        self.pl: dict[int, int] = {}  # pool copies left, where some are taken
        self.sizes: list[int] = []
        self.wmaxes: list[int] = []
        self.hs: list[int] = []
        self.qs: list[int] = []
        self.need0 = 0

    def _add(self, sh: Shape, h0: int, hj: int, qj: int) -> None:
        s0 = sh.size - h0
        self.need0 += s0 - sh.wmax if s0 > sh.wmax else 0
        self.sizes.append(sh.size)
        self.wmaxes.append(sh.wmax)
        self.hs.append(hj)
        self.qs.append(qj)

    def run(self, sh: Shape) -> None:
        """A run takes each card of its window from the hand if a copy is left, else from the pool."""
        hn, pn, hl, pl = self.hn, self.pn, self.hl, self.pl
        hj = qj = h0 = 0
        for i in sh.cards:
            a = hl.get(i, hn[i])
            if hn[i]:
                h0 += 1
            if a:
                hl[i] = a - 1
                hj += 1
            else:
                b = pl.get(i, pn[i])
                if b:
                    pl[i] = b - 1
                    qj += 1
        self._add(sh, h0, hj, qj)

    @staticmethod
    def _take(left: dict[int, int], counts: Sequence[int], cards: Sequence[int], wanted: int) -> None:
        for i in cards:
            a = left.get(i, counts[i])
            k = min(a, wanted)
            left[i] = a - k
            wanted -= k

    def set_(self, sh: Shape) -> None:
        """A set takes the copies of its rank the runs left: hand first, then the pool."""
        hn, pn, hl, pl = self.hn, self.pn, self.hl, self.pl
        h0 = min(sh.size, sum(hn[i] for i in sh.cards))
        hj = min(sh.size, sum(hl.get(i, hn[i]) for i in sh.cards))
        self._take(hl, hn, sh.cards, hj)
        qj = min(sh.size - hj, sum(pl.get(i, pn[i]) for i in sh.cards))
        self._take(pl, pn, sh.cards, qj)
        self._add(sh, h0, hj, qj)


def combo_cost(shapes: Sequence[Shape], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int) -> int | None:
    """The exact fewest extra cards of a combination (None: impossible), fast when a greedy split
    (runs first take the copies they find, then sets) meets the lower bound; else :func:`price_combo`."""
    mod = contract_core(len(shapes))
    if mod is not None:
        cost: int | None = _native_combo(mod.combo_cost, shapes, hn, pn, hw, pw)
        return cost
    g = _Greedy(hn, pn)
    for sh in shapes:
        if sh.run:
            g.run(sh)
    for sh in shapes:
        if not sh.run:
            g.set_(sh)
    # runs first, then sets on the copies left, take the most hand naturals there are
    s_lb = sum(g.sizes) - sum(g.hs)
    bound = max(g.need0, s_lb - sum(g.wmaxes), s_lb - hw)
    greedy = _cost(g.sizes, g.wmaxes, g.hs, g.qs, hw, pw)
    if greedy is not None and greedy <= bound:
        return greedy
    priced = price_combo(shapes, hn, pn, hw, pw)
    return None if priced is None else priced[0]


class _HandPick(NamedTuple):
    """One split of the hand's shared copies: the cards each run takes, and each meld's hand naturals."""

    got: dict[int, list[int]]
    h: list[int]


class _Pricer:
    """Every split of a combination's shared copies, priced (see :func:`price_combo`)."""

    def __init__(self, shapes: Sequence[Shape], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int) -> None:
        self.shapes, self.hn, self.pn, self.hw, self.pw = shapes, hn, pn, hw, pw
        self.runs = [j for j, sh in enumerate(shapes) if sh.run]
        self.set_rank: dict[int, list[int]] = {}
        for j, sh in enumerate(shapes):
            if not sh.run:
                self.set_rank.setdefault(sh.rank, []).append(j)
        self.cover: dict[int, list[int]] = {}
        for j in self.runs:
            for card in shapes[j].cards:
                self.cover.setdefault(card, []).append(j)
        self.sizes = [sh.size for sh in shapes]
        self.wmaxes = [sh.wmax for sh in shapes]
        self.no_pool = not any(pn)

    def contested(self, counts: Sequence[int], open_cover: dict[int, list[int]], room: dict[int, int]) -> set[int]:
        """Ranks whose sets compete with runs for ``counts`` copies."""
        out = set()
        for rank, js in self.set_rank.items():
            cards = self.shapes[js[0]].cards
            total = sum(counts[i] for i in cards)
            runs_want = sum(min(counts[i], len(open_cover.get(i, ()))) for i in cards)
            if total - runs_want < room[rank]:
                out.add(rank)
        return out

    def _set_options(
        self, counts: Sequence[int], taken: Sequence[int], room: Sequence[int]
    ) -> list[list[tuple[list[int], tuple[int, ...]]]]:
        """For each set rank, every split of its copies left (``counts - taken``) among its sets."""
        out = []
        for group in self.set_rank.values():
            total = sum(counts[i] - taken[i] for i in self.shapes[group[0]].cards)
            out.append([(group, split) for split in _set_splits(total, [room[j] for j in group])])
        return out

    def _run_picks(
        self, counts: Sequence[int], cover: dict[int, list[int]], flex: set[int]
    ) -> Iterator[tuple[dict[int, list[int]], list[int]]]:
        """Every way the runs take the copies of ``counts`` they cover: the cards of each run, copies taken."""
        cards = [c for c in cover if counts[c]]
        options = [_choices(counts[c], cover[c], c % 13 + 1 in flex) for c in cards]
        for pick in product(*options):
            got: dict[int, list[int]] = {j: [] for j in self.runs}
            taken = [0] * N_NATURAL
            for card, js in zip(cards, pick):
                for j in js:
                    got[j].append(card)
                taken[card] = len(js)
            yield got, taken

    def _per_meld(self, got: dict[int, list[int]], set_pick: Sequence[tuple[list[int], tuple[int, ...]]]) -> list[int]:
        out = [0] * len(self.shapes)
        for j in self.runs:
            out[j] = len(got[j])
        for group, split in set_pick:
            for j, k in zip(group, split):
                out[j] = k
        return out

    def hand_picks(self) -> Iterator[_HandPick]:
        """Every split of the hand's naturals among the melds."""
        room = {rank: sum(self.sizes[j] for j in js) for rank, js in self.set_rank.items()}
        for got, taken in self._run_picks(self.hn, self.cover, self.contested(self.hn, self.cover, room)):
            for set_pick in product(*self._set_options(self.hn, taken, self.sizes)):
                yield _HandPick(got, self._per_meld(got, set_pick))

    def pool_picks(self, pick: _HandPick) -> Iterator[tuple[dict[int, list[int]], list[int]]]:
        """Every split of the pool's naturals among the open slots left by a hand split."""
        if self.no_pool:  # nothing to come: the one split leaves every open slot to wilds
            yield {j: [] for j in self.runs}, [0] * len(self.shapes)
            return
        open_cover: dict[int, list[int]] = {}
        for j in self.runs:
            mine = pick.got[j]
            for card in self.shapes[j].cards:
                if card not in mine:
                    open_cover.setdefault(card, []).append(j)
        h = pick.h
        room = {rank: sum(self.sizes[j] - h[j] for j in js) for rank, js in self.set_rank.items()}
        flex = self.contested(self.pn, open_cover, room)
        set_room = [size - hj for size, hj in zip(self.sizes, h)]
        for fill, ptaken in self._run_picks(self.pn, open_cover, flex):
            for qpick in product(*self._set_options(self.pn, ptaken, set_room)):
                yield fill, self._per_meld(fill, qpick)

    def best(self) -> tuple[int, Split] | None:
        """The cheapest split (the first found of that cost), or None when none completes the combination."""
        best: tuple[int, Split] | None = None
        n = len(self.shapes)
        for pick in self.hand_picks():
            for fill, q in self.pool_picks(pick):
                cost = _cost(self.sizes, self.wmaxes, pick.h, q, self.hw, self.pw)
                if cost is not None and (best is None or cost < best[0]):
                    hand_part = tuple(tuple(pick.got[j]) if j in pick.got else pick.h[j] for j in range(n))
                    pool_part = tuple(tuple(fill[j]) if j in fill else q[j] for j in range(n))
                    best = (cost, Split(hand_part, pool_part))
                    if cost == 0:  # no split costs less: the first free one is the answer
                        return best
        return best


def price_combo(
    shapes: Sequence[Shape], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int
) -> tuple[int, Split] | None:
    """The exact fewest extra cards of a combination of shapes (None: impossible), and a best split.

    Every way to share the contested copies (a card two runs cover, a rank a
    set and a run both want) among the melds, first the hand's, then the
    pool's, priced by the formula of the module docstring.
    """
    mod = contract_core(len(shapes))
    if mod is not None:
        priced: tuple[int, SplitPart, SplitPart] | None = _native_combo(mod.price_combo, shapes, hn, pn, hw, pw)
        return None if priced is None else (priced[0], Split(priced[1], priced[2]))
    return _Pricer(shapes, hn, pn, hw, pw).best()


SplitPart = tuple[tuple[int, ...] | int, ...]


def _native_combo(
    fn: Callable[..., T], shapes: Sequence[Shape], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int
) -> T:
    """A compiled pricing entry point on the same inputs (checked first; see :mod:`solver.contract.native`)."""
    items = [shape_tuple(sh) for sh in shapes]  # each checked once (cached)
    check_counts(hn, pn, hw, pw)
    return call(fn, items, list(hn), list(pn), hw, pw)


# ---------------------------------------------------------------- the melds of a combination


class _Decoder:
    """The melds of one best combination: its best split, then the cards, runs first (exact cards)."""

    def __init__(self, c: Counts, shapes: Sequence[Shape]) -> None:
        self.c = c
        self.shapes = shapes
        priced = price_combo(shapes, c.hn, c.pn, c.hw, c.pw)
        assert priced is not None
        self.split = priced[1]
        self.h = [len(x) if isinstance(x, tuple) else x for x in self.split.hand]
        self.x = self._naturals_to_come()
        self.hleft = list(c.hn)
        self.pleft = list(c.pn)
        self.extras: list[Card] = []

    def _naturals_to_come(self) -> list[int]:
        """Per meld, the naturals still to come it takes: as many as cost nothing more (they beat wilds
        still to come); sets the wilds that fill the rest."""
        c, split, shapes = self.c, self.split, self.shapes
        q = [len(x) if isinstance(x, tuple) else x for x in split.pool]
        s = [sh.size - hj for sh, hj in zip(shapes, self.h)]
        need = [sj - sh.wmax if sj > sh.wmax else 0 for sj, sh in zip(s, shapes)]
        x = list(need)
        extra = max(sum(need), min(sum(s) - c.hw, sum(q))) - sum(need)
        for j in range(len(shapes)):
            add = min(extra, q[j] - x[j])
            x[j] += add
            extra -= add
        wilds_needed = sum(s) - sum(x)
        assert extra == 0 and wilds_needed <= c.hw + c.pw
        hand_wilds = list(c.hwild[: min(wilds_needed, c.hw)])
        pool_wilds = list(c.pwild[: wilds_needed - len(hand_wilds)])
        self.wilds = iter([(w, False) for w in hand_wilds] + [(w, True) for w in pool_wilds])
        return x

    def _wild(self) -> Card:
        wild, extra = next(self.wilds)
        if extra:
            self.extras.append(wild)
        return wild

    def _run(self, j: int, sh: Shape) -> Meld:
        mine, fill = self.split.hand[j], self.split.pool[j]
        assert isinstance(mine, tuple) and isinstance(fill, tuple)
        from_pool = set(fill[: self.x[j]])
        cards: list[Card] = []
        roles: list[Card | None] = []
        for i in sh.cards:
            card = ALL_CARDS[i]
            if i in mine:
                self.hleft[i] -= 1
            elif i in from_pool:
                self.pleft[i] -= 1
                self.extras.append(card)
            else:
                cards.append(self._wild())
                roles.append(card)
                continue
            cards.append(card)
            roles.append(None)
        return Meld(tuple(cards), tuple(roles))

    def _set(self, j: int, sh: Shape) -> Meld:
        cards: list[Card] = []
        for counts, k, is_extra in ((self.hleft, self.h[j], False), (self.pleft, self.x[j], True)):
            for i in sh.cards:
                while k and counts[i]:
                    counts[i] -= 1
                    k -= 1
                    cards.append(ALL_CARDS[i])
                    if is_extra:
                        self.extras.append(ALL_CARDS[i])
            assert k == 0
        role = cards[0]
        n_nat = len(cards)
        cards += [self._wild() for _ in range(sh.size - n_nat)]
        return Meld(tuple(cards), tuple([None] * n_nat + [role] * (sh.size - n_nat)))

    def melds(self) -> tuple[list[Meld], list[Card]]:
        """The melds in the combination's order, and the extra cards they take."""
        built: dict[int, Meld] = {}
        for j, sh in enumerate(self.shapes):
            if sh.run:
                built[j] = self._run(j, sh)
        for j, sh in enumerate(self.shapes):
            if not sh.run:
                built[j] = self._set(j, sh)
        return [built[j] for j in range(len(self.shapes))], self.extras


def decode_combo(c: Counts, shapes: Sequence[Shape]) -> tuple[list[Meld], list[Card]]:
    """The melds of a combination (its order, every wild's role written) and the extra cards they take:
    a best split (:func:`price_combo`), naturals still to come before wilds still to come."""
    return _Decoder(c, shapes).melds()
