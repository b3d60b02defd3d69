"""Exact distance to contract in plain Python: branch and bound over the contract's melds.

The contract is a few melds, so the search picks one *shape* per
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
find, sets the rest) is priced against the lower bound below; when it falls
short, the shared copies are split among the melds in every way (a handful
of cases), each split priced the same way.

**Which shapes.** A set never needs more than its minimum length (drop a
wild, or a natural when it has no wild). A run longer than its minimum is
needed only when it cannot be trimmed: both ends natural and as many wilds
as its length allows, so an odd length under the ``fewer`` limit, an even
one under ``half``, never under ``any``. Trimming keeps a meld valid and
uses a subset of its cards, so nothing is lost.

**Bound.** A combination costs at least ``max(sum(need), sum(s) - HW)``
with each meld priced on its own, and more when chosen melds hold the same
hand copies: the most hand naturals a choice can use is counted per card
(runs) and per rank (``min(copies, set slots + copies the runs take)``).
Candidates are sorted by ``s``; a branch stops when the bound passes the
best found, or when the slots nothing can fill pass ``HW + PW``.

**Options and discards.** A card ``c`` that can still come is in some
fewest completion exactly when the hand plus ``c`` is one card closer, and
then only a best combination can be one card cheaper: each best combination
is re-priced with ``c`` moved from the pool to the hand. Dually, discarding
a hand card (it joins the cards that can still come) leaves the distance
unchanged exactly when some best combination does without it; otherwise
the distance grows by one.

>>> from solver.rules import ContractRules
>>> rules = ContractRules()
>>> hand = Cards.parse("5H 5D 5S 6C 7C 8C KD")
>>> res = search_distance(hand, rules.deck - hand, rules, rules.contract(1), outs=True)
>>> res.missing, str(res.outs), [str(m) for m in res.melds]
(1, '2S 2S 2C 2C 5C 5C 9C 9C', ['5S 5H 5D', '5C 6C 7C 8C'])
>>> contract_possible(Cards.parse("5H 5D 5S 6C 7C 8C 2S"), rules, rules.contract(1))
True
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, product

from solver.cards import ALL_CARDS, Card, Cards, Rank
from solver.melds import Meld
from solver.rules.contract import ContractRules, Requirement

__all__ = [
    "wild_cap",
    "Shape",
    "SearchResult",
    "SearchTimeout",
    "search_distance",
    "discard_distances",
    "contract_possible",
    "quick_reject",
]

N_NATURAL = 52


class SearchTimeout(RuntimeError):
    """The search hit its time limit before finding any completion (nor proving there is none)."""


def wild_cap(limit: str, size: int) -> int:
    """Most wilds a meld of ``size`` cards may hold under ``wild_limit`` (at least one natural).

    >>> [wild_cap(w, 4) for w in ("fewer", "half", "any")]
    [1, 2, 3]
    """
    if limit == "fewer":
        return (size - 1) // 2
    if limit == "half":
        return size // 2
    return size - 1


def _min_length(req: Requirement, rules: ContractRules) -> int:
    return max(req.min_len, rules.set_min if req.kind == "set" else rules.run_min)


def _card_index(suit: int, position: int) -> int:
    return suit * 13 + (0 if position == 14 else position - 1)


def _bits(items: Sequence[int]) -> int:
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


@cache
def _shapes(run: bool, m: int, ace: str, limit: str) -> tuple[Shape, ...]:
    """Every shape a requirement of minimum length ``m`` needs (see the module docstring)."""
    if not run:
        out = []
        for rank in Rank:
            cards = tuple(s * 13 + rank - 1 for s in range(4))
            out.append(Shape(False, m, wild_cap(limit, m), int(rank), -1, (), cards, 0, _bits(cards), 0))
        return tuple(out)
    lo = 2 if ace == "high" else 1
    hi = 13 if ace == "low" else 14
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
                cards = tuple(_card_index(suit, p) for p in positions)
                ends = (1 << positions[0]) | (1 << positions[-1]) if length > m else 0
                shapes.append(
                    Shape(True, length, wild_cap(limit, length), 0, suit, positions, cards, _bits(positions),
                          _bits(cards), ends)
                )  # fmt: skip
    return tuple(shapes)


def _suit_mask(counts: list[int], suit: int) -> int:
    base = suit * 13
    mask = 0
    for r in range(13):
        if counts[base + r]:
            mask |= 1 << (r + 1)
    if mask & 2:
        mask |= 1 << 14
    return mask


class _Counts:
    """Hand and pool: natural counts by card index (wild cards zeroed), wilds, per-suit position masks."""

    __slots__ = ("hmask", "hn", "hw", "hwild", "pmask", "pn", "pw", "pwild")

    def __init__(self, hand: Cards, pool: Cards, wilds: frozenset[Card]) -> None:
        hc, pc = hand.counts, pool.counts
        hn, pn = list(hc[:N_NATURAL]), list(pc[:N_NATURAL])
        self.hwild: list[Card] = []
        self.pwild: list[Card] = []
        for w in sorted(wilds, key=lambda c: c.index):
            i = w.index
            self.hwild += [w] * hc[i]
            self.pwild += [w] * pc[i]
            if i < N_NATURAL:
                hn[i] = pn[i] = 0
        self.hn, self.pn = hn, pn
        self.hw, self.pw = len(self.hwild), len(self.pwild)
        self.hmask = [_suit_mask(hn, s) for s in range(4)]
        self.pmask = [_suit_mask(pn, s) for s in range(4)]


@dataclass(frozen=True, slots=True)
class _Cand:
    """A shape priced on its own: hand naturals ``h``, open slots ``s``, open slots a natural still to
    come can fill ``q``, the fewest of those it must take ``need``."""

    shape: Shape
    s: int
    q: int
    need: int


def _price(shape: Shape, c: _Counts) -> _Cand | None:
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
    return _Cand(shape, s, q, need)


# ---------------------------------------------------------------- pricing a combination


@dataclass(frozen=True, slots=True)
class _Split:
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


def _combo_cost(shapes: Sequence[Shape], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int) -> int | None:
    """The exact fewest extra cards of a combination (None: impossible), fast when a greedy split
    (runs first take the copies they find, then sets) meets the lower bound; else :func:`_price_combo`."""
    hl: dict[int, int] = {}
    pl: dict[int, int] = {}
    sizes: list[int] = []
    wmaxes: list[int] = []
    hs: list[int] = []
    qs: list[int] = []
    need0 = 0
    for sh in shapes:
        if not sh.run:
            continue
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
        s0 = sh.size - h0
        need0 += s0 - sh.wmax if s0 > sh.wmax else 0
        sizes.append(sh.size)
        wmaxes.append(sh.wmax)
        hs.append(hj)
        qs.append(qj)
    for sh in shapes:
        if sh.run:
            continue
        total = sum(hn[i] for i in sh.cards)
        s0 = sh.size - min(sh.size, total)
        need0 += s0 - sh.wmax if s0 > sh.wmax else 0
        left = sum(hl.get(i, hn[i]) for i in sh.cards)
        hj = min(sh.size, left)
        taken = hj
        for i in sh.cards:
            a = hl.get(i, hn[i])
            k = min(a, taken)
            hl[i] = a - k
            taken -= k
        pleft = sum(pl.get(i, pn[i]) for i in sh.cards)
        qj = min(sh.size - hj, pleft)
        taken = qj
        for i in sh.cards:
            b = pl.get(i, pn[i])
            k = min(b, taken)
            pl[i] = b - k
            taken -= k
        sizes.append(sh.size)
        wmaxes.append(sh.wmax)
        hs.append(hj)
        qs.append(qj)
    # runs first, then sets on the copies left, take the most hand naturals there are
    s_lb = sum(sizes) - sum(hs)
    bound = max(need0, s_lb - sum(wmaxes), s_lb - hw)
    greedy = _cost(sizes, wmaxes, hs, qs, hw, pw)
    if greedy is not None and greedy <= bound:
        return greedy
    priced = _price_combo(shapes, hn, pn, hw, pw)
    return None if priced is None else priced[0]


def _price_combo(
    shapes: Sequence[Shape], hn: Sequence[int], pn: Sequence[int], hw: int, pw: int
) -> tuple[int, _Split] | None:
    """The exact fewest extra cards of a combination of shapes (None: impossible), and a best split."""
    runs = [j for j, sh in enumerate(shapes) if sh.run]
    sets = [j for j, sh in enumerate(shapes) if not sh.run]
    set_rank: dict[int, list[int]] = {}
    for j in sets:
        set_rank.setdefault(shapes[j].rank, []).append(j)
    cover: dict[int, list[int]] = {}
    for j in runs:
        for card in shapes[j].cards:
            cover.setdefault(card, []).append(j)
    sizes = [sh.size for sh in shapes]
    wmaxes = [sh.wmax for sh in shapes]

    def contested(counts: Sequence[int], open_cover: dict[int, list[int]], room: dict[int, int]) -> set[int]:
        """Ranks whose sets compete with runs for ``counts`` copies."""
        out = set()
        for rank, js in set_rank.items():
            cards = shapes[js[0]].cards
            total = sum(counts[i] for i in cards)
            runs_want = sum(min(counts[i], len(open_cover.get(i, ()))) for i in cards)
            if total - runs_want < room[rank]:
                out.add(rank)
        return out

    hand_room = {rank: sum(sizes[j] for j in js) for rank, js in set_rank.items()}
    hand_flex = contested(hn, cover, hand_room)
    hand_cards = [c for c in cover if hn[c]]
    hand_opts = [_choices(hn[c], cover[c], c % 13 + 1 in hand_flex) for c in hand_cards]
    best: tuple[int, _Split] | None = None
    for pick in product(*hand_opts):
        got: dict[int, list[int]] = {j: [] for j in runs}
        taken = [0] * N_NATURAL
        for card, js in zip(hand_cards, pick):
            for j in js:
                got[j].append(card)
            taken[card] = len(js)
        left_h = [hn[i] - taken[i] for i in range(N_NATURAL)] if set_rank else hn
        set_h_opts = []
        for group in set_rank.values():
            total = sum(left_h[i] for i in shapes[group[0]].cards)
            set_h_opts.append([(group, split) for split in _set_splits(total, [sizes[j] for j in group])])
        open_cover: dict[int, list[int]] = {}
        for j in runs:
            mine = got[j]
            for card in shapes[j].cards:
                if card not in mine:
                    open_cover.setdefault(card, []).append(j)
        pool_cards = [c for c in open_cover if pn[c]]
        for set_pick in product(*set_h_opts):
            h = [0] * len(shapes)
            for j in runs:
                h[j] = len(got[j])
            for group, split in set_pick:
                for j, k in zip(group, split):
                    h[j] = k
            pool_room = {rank: sum(sizes[j] - h[j] for j in js) for rank, js in set_rank.items()}
            pool_flex = contested(pn, open_cover, pool_room)
            pool_opts = [_choices(pn[c], open_cover[c], c % 13 + 1 in pool_flex) for c in pool_cards]
            for ppick in product(*pool_opts):
                fill: dict[int, list[int]] = {j: [] for j in runs}
                ptaken = [0] * N_NATURAL
                for card, js in zip(pool_cards, ppick):
                    for j in js:
                        fill[j].append(card)
                    ptaken[card] = len(js)
                set_q_opts = []
                for group in set_rank.values():
                    total = sum(pn[i] - ptaken[i] for i in shapes[group[0]].cards)
                    set_q_opts.append(
                        [(group, split) for split in _set_splits(total, [sizes[j] - h[j] for j in group])]
                    )
                for qpick in product(*set_q_opts):
                    q = [0] * len(shapes)
                    for j in runs:
                        q[j] = len(fill[j])
                    for group, split in qpick:
                        for j, k in zip(group, split):
                            q[j] = k
                    cost = _cost(sizes, wmaxes, h, q, hw, pw)
                    if cost is not None and (best is None or cost < best[0]):
                        hand_part = tuple(tuple(got[j]) if j in got else h[j] for j in range(len(shapes)))
                        pool_part = tuple(tuple(fill[j]) if j in fill else q[j] for j in range(len(shapes)))
                        best = (cost, _Split(hand_part, pool_part))
    return best


# ---------------------------------------------------------------- the search


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The fewest cards to add (None: no completion from the cards that can still come).

    ``melds`` is a lay-down of the hand plus ``completion`` (one fewest
    completion), in the contract's order; ``outs`` (when asked) every card
    of some fewest completion with the copies still to come; ``status`` is
    ``optimal``, or ``feasible`` when the time limit stopped the search.
    """

    missing: int | None
    completion: Cards
    melds: tuple[Meld, ...]
    outs: Cards | None
    status: str


class _Stop(Exception):
    """Ends a walk early: the answer is settled (or the time is up)."""


Visit = Callable[[tuple[_Cand, ...], bool, int, int, int], None]
"""Called on each best combination: the candidates, whether they share no card, the sum of their
``need``, of their ``s``, and the card bits they cover."""


class _Search:
    """Branch and bound over one shape per requirement (see the module docstring).

    :meth:`find` settles the fewest extra cards and one best combination;
    :meth:`outs` and :meth:`discards` then walk every best combination.
    """

    def __init__(self, hand: Cards, pool: Cards, rules: ContractRules, contract: Sequence[Requirement]) -> None:
        self.rules = rules
        self.hand = hand
        self.pool = pool
        self.contract = tuple(contract)
        c = self.c = _Counts(hand, pool, rules.wilds)
        self.hand_bits = _bits([i for i in range(N_NATURAL) if c.hn[i]])
        self.pool_bits = _bits([i for i in range(N_NATURAL) if c.pn[i]])
        # identical requirements next to each other (symmetry), sets first (fewer shapes)
        self.order = sorted(
            range(len(self.contract)), key=lambda i: (self.contract[i].kind == "run", self.contract[i].min_len, i)
        )
        self.cands: list[list[_Cand]] = []
        priced: dict[tuple[bool, int], list[_Cand]] = {}
        for i in self.order:
            req = self.contract[i]
            key = (req.kind == "run", _min_length(req, rules))
            if key not in priced:
                found = []
                for shape in _shapes(key[0], key[1], rules.ace, rules.wild_limit):
                    cand = _price(shape, c)
                    if cand is not None:
                        found.append(cand)
                found.sort(key=lambda k: (k.s, k.need))
                priced[key] = found
            self.cands.append(priced[key])
        self.same = [
            k > 0 and self.contract[self.order[k]] == self.contract[self.order[k - 1]] for k in range(len(self.order))
        ]
        self.best: int | None = None
        self.first: tuple[_Cand, ...] | None = None
        self.complete = True
        self.deadline: float | None = None

    # -------------------------------------------------------- the walk

    def _walk(
        self,
        limit: list[int],
        on_leaf: Visit,
        skip: Callable[[int], bool] | None = None,
    ) -> None:
        """Visit every combination whose lower bound is at most ``limit[0]`` (which may shrink)."""
        cands = self.cands
        n = len(cands)
        if any(not cs for cs in cands):
            return
        c = self.c
        hw, pw, hn, pn = c.hw, c.pw, c.hn, c.pn
        rest_s = [0] * (n + 1)
        rest_need = [0] * (n + 1)
        rest_u = [0] * (n + 1)
        for k in range(n - 1, -1, -1):
            rest_s[k] = rest_s[k + 1] + min(x.s for x in cands[k])
            rest_need[k] = rest_need[k + 1] + min(x.need for x in cands[k])
            rest_u[k] = rest_u[k + 1] + min(x.s - x.q for x in cands[k])
        distinct = self.rules.distinct_set_ranks
        same = self.same
        deadline = self.deadline
        chosen: list[_Cand] = []
        # hand naturals the chosen melds can take at most: runs take their exact cards, the sets of a
        # rank any copies left, so rank r yields min(copies, set room + copies the runs take)
        cover = [0] * N_NATURAL  # chosen runs over each card
        run_take = [0] * 14  # copies of each rank the chosen runs take
        set_room = [0] * 14  # slots of the chosen sets of each rank
        copies = [0] * 14
        for i in range(N_NATURAL):
            copies[i % 13 + 1] += hn[i]
        set_bits = [0]  # the cards of ranks with a chosen set
        leaves = [0]  # nodes and leaves walked (the clock is read now and then)
        last = n - 1

        def overlap(x: _Cand, run_bits: int) -> tuple[int, int]:
            """Hand naturals ``x`` counts on that the chosen melds already take (its extra open slots),
            and how many of those slots no card still to come can fill."""
            sh = x.shape
            if sh.run:
                if not (run_bits | set_bits[0]) & sh.cmask:
                    return 0, 0
                dup = lost = 0
                for i in sh.cards:
                    if not hn[i]:
                        continue
                    if cover[i] >= hn[i]:
                        dup += 1  # another run holds every copy: this slot takes a card to come or a wild
                        if not pn[i]:
                            lost += 1
                    elif set_room[i % 13 + 1] + run_take[i % 13 + 1] >= copies[i % 13 + 1]:
                        dup += 1  # a set would lose the copy instead (and may fill it with any suit)
                return dup, lost
            r = sh.rank
            room, took = set_room[r], run_take[r]
            if not room and not took:
                return 0, 0
            have = copies[r]
            gain = min(have, room + sh.size + took) - min(have, room + took)
            dup = min(sh.size, have) - gain
            if took:
                return dup, 0  # the runs might give copies back and fill their slots otherwise
            opened = x.s + dup
            return dup, opened - min(opened, sum(pn[i] for i in sh.cards)) - (x.s - x.q)

        def rec(
            k: int,
            start: int,
            need: int,
            opened: int,
            unfilled: int,
            wmax: int,
            ranks: int,
            bits: int,
            run_bits: int,
            clash: bool,
        ) -> None:
            cs = cands[k]
            leaves[0] += 1
            if deadline is not None and not leaves[0] & 255 and time.perf_counter() > deadline:
                self.complete = False
                raise _Stop
            s_room = limit[0] + hw - rest_s[k + 1] - opened
            need_room = limit[0] - rest_need[k + 1] - need
            u_room = hw + pw - rest_u[k + 1] - unfilled
            for idx in range(start if same[k] else 0, len(cs)):
                x = cs[idx]
                if x.s > s_room:
                    break
                if x.need > need_room or x.s - x.q > u_room:
                    continue
                sh = x.shape
                nranks = ranks
                if distinct and not sh.run:
                    bit = 1 << sh.rank
                    if ranks & bit:
                        continue
                    nranks = ranks | bit
                dup, lost = overlap(x, run_bits) if k else (0, 0)
                s2 = opened + x.s + dup
                w2 = wmax + sh.wmax
                need2 = need + x.need
                u2 = unfilled + x.s - x.q + lost
                if dup:
                    need2 = max(need2, s2 - w2)
                    if (
                        s2 + rest_s[k + 1] - hw > limit[0]
                        or need2 + rest_need[k + 1] > limit[0]
                        or u2 + rest_u[k + 1] > hw + pw
                    ):
                        continue
                bits2 = bits | sh.cmask
                clash2 = clash or bool(bits & sh.cmask)
                if k == last:
                    if skip is not None and skip(bits2):
                        continue
                    leaves[0] += 1
                    if deadline is not None and not leaves[0] & 63 and time.perf_counter() > deadline:
                        self.complete = False
                        raise _Stop
                    chosen.append(x)
                    on_leaf(tuple(chosen), not clash2, need2, s2, bits2)
                    chosen.pop()
                else:
                    chosen.append(x)
                    if sh.run:
                        took: list[int] = []
                        for i in sh.cards:
                            if cover[i] < hn[i]:
                                took.append(i % 13 + 1)
                            cover[i] += 1
                        for r in took:
                            run_take[r] += 1
                        rec(k + 1, idx, need2, s2, u2, w2, nranks, bits2, run_bits | sh.cmask, clash2)
                        for r in took:
                            run_take[r] -= 1
                        for i in sh.cards:
                            cover[i] -= 1
                    else:
                        saved = set_bits[0]
                        set_bits[0] |= sh.cmask
                        set_room[sh.rank] += sh.size
                        rec(k + 1, idx, need2, s2, u2, w2, nranks, bits2, run_bits, clash2)
                        set_room[sh.rank] -= sh.size
                        set_bits[0] = saved
                    chosen.pop()
                # the bound may have tightened
                s_room = limit[0] + hw - rest_s[k + 1] - opened
                need_room = limit[0] - rest_need[k + 1] - need

        with contextlib.suppress(_Stop):
            rec(0, 0, 0, 0, 0, 0, 0, 0, 0, False)

    def _cost(self, combo: tuple[_Cand, ...], independent: bool, need: int, opened: int) -> int | None:
        if independent:
            return max(need, opened - self.c.hw)
        return _combo_cost([x.shape for x in combo], self.c.hn, self.c.pn, self.c.hw, self.c.pw)

    def find(self) -> None:
        """The fewest extra cards (``best``, None when impossible) and one best combination (``first``)."""
        cands = self.cands
        if any(not cs for cs in cands):
            return
        floor = max(sum(min(x.need for x in cs) for cs in cands), sum(min(x.s for x in cs) for cs in cands) - self.c.hw)
        limit = [1 << 30]

        def on_leaf(combo: tuple[_Cand, ...], independent: bool, need: int, opened: int, bits: int) -> None:
            cost = self._cost(combo, independent, need, opened)
            if cost is not None and (self.best is None or cost < self.best):
                self.best = cost
                self.first = combo
                limit[0] = cost - 1
                if cost <= floor:
                    raise _Stop

        self._walk(limit, on_leaf)

    def _each_best(self, visit: Visit, skip: Callable[[int], bool] | None = None) -> None:
        """Call ``visit`` on every best combination (after :meth:`find`); ``visit`` may raise :class:`_Stop`."""
        assert self.best is not None
        best = self.best

        def on_leaf(combo: tuple[_Cand, ...], independent: bool, need: int, opened: int, bits: int) -> None:
            if self._cost(combo, independent, need, opened) == best:
                visit(combo, independent, need, opened, bits)

        self._walk([best], on_leaf, skip)

    # -------------------------------------------------------- re-pricing best combinations

    def _price_moved(self, combo: tuple[_Cand, ...], card: int, to_hand: int) -> int | None:
        """The combination's cost with one copy of ``card`` moved to the hand (``to_hand=1``) or to the pool
        (``-1``); ``card`` is a natural index, or -1 for a wild."""
        c = self.c
        shapes = [x.shape for x in combo]
        if card < 0:
            return _combo_cost(shapes, c.hn, c.pn, c.hw + to_hand, c.pw - to_hand)
        c.hn[card] += to_hand
        c.pn[card] -= to_hand
        try:
            return _combo_cost(shapes, c.hn, c.pn, c.hw, c.pw)
        finally:
            c.hn[card] -= to_hand
            c.pn[card] += to_hand

    def outs(self) -> Cards:
        """Every card still to come that is part of some fewest completion, with its copies."""
        assert self.best is not None and self.best > 0
        c = self.c
        best = self.best
        found = [0]
        wild = [False]  # a wild still to come is an out
        pool_bits, hand_bits = self.pool_bits, self.hand_bits

        def visit(combo: tuple[_Cand, ...], independent: bool, need: int, opened: int, bits: int) -> None:
            got = found[0]
            if independent:
                grow = need < best
                for x in combo:
                    if grow or x.need:
                        sh = x.shape
                        if sh.run:
                            got |= sh.cmask & pool_bits & ~hand_bits
                        elif x.s:
                            got |= sh.cmask & pool_bits
                if opened - c.hw > need:
                    wild[0] = True
            else:
                todo = bits & pool_bits & ~got
                while todo:
                    low = todo & -todo
                    todo ^= low
                    if self._price_moved(combo, low.bit_length() - 1, 1) == best - 1:
                        got |= low
                if not wild[0] and c.pw and self._price_moved(combo, -1, 1) == best - 1:
                    wild[0] = True
            found[0] = got
            if (wild[0] or not c.pw) and not pool_bits & ~got:
                raise _Stop

        def skip(bits: int) -> bool:
            return (wild[0] or not c.pw) and not bits & pool_bits & ~found[0]

        self._each_best(visit, skip)
        counts = self.pool.counts
        out = {ALL_CARDS[i]: counts[i] for i in range(N_NATURAL) if found[0] >> i & 1}
        if wild[0] and c.pw:
            for w in set(c.pwild):
                out[w] = counts[w.index]
        return Cards.from_counts(out)

    def discards(self) -> dict[Card, int]:
        """For each distinct hand card, the fewest extra cards after discarding it (it joins the pool)."""
        assert self.best is not None
        c = self.c
        d0 = self.best
        hn = c.hn
        # cards whose discard still raises the distance in every best combination seen so far
        state = {"critical": self.hand_bits, "wild": c.hw > 0}

        def visit(combo: tuple[_Cand, ...], independent: bool, need: int, opened: int, bits: int) -> None:
            critical = state["critical"]
            todo = critical & bits
            crit = 0
            if independent:
                for x in combo:
                    sh = x.shape
                    mine = todo & sh.cmask
                    if not mine:
                        continue
                    s = x.s + 1
                    need_j = s - sh.wmax if s > sh.wmax else 0
                    if opened + 1 - c.hw <= d0 and need - x.need + need_j <= d0:
                        continue  # one card fewer in this meld still costs d0
                    if sh.run:
                        while mine:
                            low = mine & -mine
                            mine ^= low
                            if hn[low.bit_length() - 1] < 2:  # no spare copy
                                crit |= low
                    elif sum(hn[j] for j in sh.cards) <= sh.size:
                        crit |= mine
                if opened - c.hw + 1 <= d0:
                    state["wild"] = False
            else:
                while todo:
                    low = todo & -todo
                    i = low.bit_length() - 1
                    todo ^= low
                    if self._price_moved(combo, i, -1) != d0:
                        crit |= low
                if state["wild"] and self._price_moved(combo, -1, -1) == d0:
                    state["wild"] = False
            state["critical"] = critical & crit
            if not state["critical"] and not state["wild"]:
                raise _Stop

        self._each_best(visit)
        out: dict[Card, int] = {}
        for card in self.hand.distinct():
            if card in self.rules.wilds:
                out[card] = d0 + 1 if state["wild"] else d0
            else:
                out[card] = d0 + 1 if state["critical"] >> card.index & 1 else d0
        return out

    # -------------------------------------------------------- a lay-down of one best combination

    def decode(self, combo: tuple[_Cand, ...]) -> tuple[tuple[Meld, ...], Cards]:
        """The melds (contract order, every wild's role written) and the extra cards of ``combo``."""
        c = self.c
        shapes = [k.shape for k in combo]
        priced = _price_combo(shapes, c.hn, c.pn, c.hw, c.pw)
        assert priced is not None
        _, split = priced
        sizes = [sh.size for sh in shapes]
        h = [len(x) if isinstance(x, tuple) else x for x in split.hand]
        q = [len(x) if isinstance(x, tuple) else x for x in split.pool]
        s = [size - hj for size, hj in zip(sizes, h)]
        need = [sj - sh.wmax if sj > sh.wmax else 0 for sj, sh in zip(s, shapes)]
        total_s = sum(s)
        # as many naturals still to come as cost nothing more (they beat wilds still to come)
        x = list(need)
        extra = max(sum(need), min(total_s - c.hw, sum(q))) - sum(need)
        for j in range(len(shapes)):
            add = min(extra, q[j] - x[j])
            x[j] += add
            extra -= add
        assert extra == 0 and total_s - sum(x) <= c.hw + c.pw
        wilds_needed = total_s - sum(x)
        hand_wilds = list(c.hwild[: min(wilds_needed, c.hw)])
        pool_wilds = list(c.pwild[: wilds_needed - len(hand_wilds)])
        wild_iter = iter([(w, False) for w in hand_wilds] + [(w, True) for w in pool_wilds])
        hleft = list(c.hn)
        pleft = list(c.pn)
        extras: list[Card] = []
        built: list[Meld | None] = [None] * len(shapes)
        # runs first: they take exact cards
        for j, sh in enumerate(shapes):
            if not sh.run:
                continue
            mine = split.hand[j]
            fill = split.pool[j]
            assert isinstance(mine, tuple) and isinstance(fill, tuple)
            from_pool = set(fill[: x[j]])
            cards: list[Card] = []
            roles: list[Card | None] = []
            for i in sh.cards:
                card = ALL_CARDS[i]
                if i in mine:
                    hleft[i] -= 1
                    cards.append(card)
                    roles.append(None)
                elif i in from_pool:
                    pleft[i] -= 1
                    extras.append(card)
                    cards.append(card)
                    roles.append(None)
                else:
                    wild, extra_card = next(wild_iter)
                    if extra_card:
                        extras.append(wild)
                    cards.append(wild)
                    roles.append(card)
            built[j] = Meld(tuple(cards), tuple(roles))
        for j, sh in enumerate(shapes):
            if sh.run:
                continue
            cards = []
            for counts, k, is_extra in ((hleft, h[j], False), (pleft, x[j], True)):
                for i in sh.cards:
                    while k and counts[i]:
                        counts[i] -= 1
                        k -= 1
                        cards.append(ALL_CARDS[i])
                        if is_extra:
                            extras.append(ALL_CARDS[i])
                assert k == 0
            role = cards[0]
            n_nat = len(cards)
            for _ in range(sh.size - n_nat):
                wild, extra_card = next(wild_iter)
                if extra_card:
                    extras.append(wild)
                cards.append(wild)
            built[j] = Meld(tuple(cards), tuple([None] * n_nat + [role] * (sh.size - n_nat)))
        by_req: list[Meld] = [Meld((ALL_CARDS[0],))] * len(self.contract)
        for k, i in enumerate(self.order):
            meld = built[k]
            assert meld is not None
            by_req[i] = meld
        return tuple(by_req), Cards(extras)


def search_distance(
    hand: Cards,
    pool: Cards,
    rules: ContractRules,
    contract: Sequence[Requirement],
    *,
    outs: bool = True,
    time_limit: float | None = None,
) -> SearchResult:
    """The fewest cards from ``pool`` that complete ``contract`` with ``hand``, exactly (see the module doc).

    With ``outs``, also every card of ``pool`` that is part of some fewest
    completion (with its copies in ``pool``). Raises :class:`SearchTimeout`
    when ``time_limit`` passes before any completion is found.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    search = _Search(hand, pool, rules, contract)
    search.deadline = deadline
    search.find()
    if search.best is None:
        if not search.complete:
            raise SearchTimeout("the distance search found no completion within the time limit")
        return SearchResult(None, Cards(), (), Cards() if outs else None, "impossible")
    assert search.first is not None
    melds, completion = search.decode(search.first)
    found: Cards | None = None
    if outs:
        found = search.outs() if search.best > 0 and search.complete else Cards()
    status = "optimal" if search.complete else "feasible"
    return SearchResult(search.best, completion, melds, found, status)


def discard_distances(
    hand: Cards,
    pool: Cards,
    rules: ContractRules,
    contract: Sequence[Requirement],
    *,
    time_limit: float | None = None,
) -> tuple[int | None, dict[Card, int | None], bool]:
    """The distance of ``hand``, for each distinct hand card the distance after discarding it (the
    card joins ``pool``; None where no completion exists), and whether the search finished in time."""
    search = _Search(hand, pool, rules, contract)
    search.deadline = None if time_limit is None else time.perf_counter() + time_limit
    search.find()
    if search.best is None:
        return None, {card: None for card in hand.distinct()}, search.complete
    after: dict[Card, int | None] = dict(search.discards())
    return search.best, after, search.complete


def quick_reject(hand: Cards, rules: ContractRules, contract: Sequence[Requirement]) -> bool:
    """A cheap necessary condition: True when ``hand`` surely cannot make ``contract`` on its own.

    Counts only. ``t`` sets of one rank with ``n`` naturals need ``t * nmin``
    naturals and at least ``t * m - n`` wilds; ``t`` runs of one suit need
    ``t * nmin`` naturals of the suit and at least ``t * m - min(t * b, n)``
    wilds, ``b`` the most naturals inside one window of ``m`` positions
    (every run of ``m`` or more cards holds such a window, and its wilds
    are at least that window's gaps). The requirements of one kind and
    length take the cheapest such options (the costs grow with ``t``);
    together they may not need more wilds than the hand holds, nor more
    cards than it has.
    """
    wilds = rules.wilds
    counts = hand.counts
    hw = 0
    for w in wilds:
        hw += counts[w.index]
    groups: dict[tuple[str, int], int] = {}
    size_total = 0
    for req in contract:
        m = _min_length(req, rules)
        size_total += m
        groups[(req.kind, m)] = groups.get((req.kind, m), 0) + 1
    if size_total > len(hand):
        return True
    hn = list(counts[:N_NATURAL])
    for w in wilds:
        if w.index < N_NATURAL:
            hn[w.index] = 0
    limit = rules.wild_limit
    need_total = 0
    for (kind, m), j in groups.items():
        nmin = m - wild_cap(limit, m)
        steps: list[int] = []
        if kind == "set":
            most = 1 if rules.distinct_set_ranks else j
            for r in range(13):
                n = hn[r] + hn[13 + r] + hn[26 + r] + hn[39 + r]
                prev = 0
                for t in range(1, most + 1):
                    if n < t * nmin:
                        break
                    cost = t * m - n if t * m > n else 0
                    steps.append(cost - prev)
                    prev = cost
        else:
            window = (1 << m) - 1
            for suit in range(4):
                base = 13 * suit
                n = sum(hn[base : base + 13])
                if n < nmin:
                    continue
                mask = _suit_mask(hn, suit)
                b = 0
                for start in range(1, 16 - m):
                    h = (mask >> start & window).bit_count()
                    if h > b:
                        b = h
                prev = 0
                for t in range(1, j + 1):
                    if n < t * nmin:
                        break
                    cost = max(0, t * m - min(t * b, n))
                    steps.append(cost - prev)
                    prev = cost
        if len(steps) < j:
            return True
        steps.sort()
        need_total += sum(steps[:j])
        if need_total > hw:
            return True
    return False


def contract_possible(hand: Cards, rules: ContractRules, contract: Sequence[Requirement]) -> bool:
    """Can ``hand`` make ``contract`` on its own (exactly: the distance with nothing to come is 0)?"""
    if quick_reject(hand, rules, contract):
        return False
    search = _Search(hand, Cards(), rules, contract)
    search.find()
    return search.best == 0
