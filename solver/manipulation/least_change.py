"""Stage 5 of the best play: least change, the play that disturbs the old table least.

With the best score fixed (or in one solve with stage 4, the score first),
a CP-SAT solve: each old meld may keep a
*home*, a new meld of its kind made of a part of the old meld (a run's
window, a set's cards) plus copies from the pool (naturals or jokers);
maximise kept melds, then old cards left in their home
(docs/decisions-manipulation.md has the formulation).

Cost: one CP-SAT solve on the plain model plus, per old meld, a handful of
window variables (runs) or up to five suit-subset variables (sets). A home
is one choice among its options (a window, a subset), so its LP relaxation is
the convex hull of its options, and "kept" is the options holding the whole
old meld (a kept variable only for old melds with jokers; with jokers in
play, set homes are copy variables with the same kept written as a cut).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ortools.sat.python import cp_model_helper as cp

from solver.cards import Card, Cards
from solver.errors import Status
from solver.manipulation.model import (
    INF,
    SET_SUITS,
    Builder,
    Instance,
    Piece,
    Solved,
    Template,
    decode_pool,
    played_cards,
    run_model,
)
from solver.melds import Meld, resolve_roles
from solver.ranks import MAX_RUN, N_NATURAL, SUITS, ace_high, card_index, natural_card
from solver.rules import ManipulationRules

__all__ = ["solve_least_change"]


@dataclass(frozen=True, slots=True)
class _OldRun:
    suit: int
    naturals: dict[int, Card]  # position -> card
    jokers: int
    positions: tuple[int, ...] = ()  # the naturals' positions, in order
    own: tuple[tuple[int, Card], ...] = ()  # (position, card) in order


def _old_run(suit: int, naturals: dict[int, Card], jokers: int) -> _OldRun:
    return _OldRun(suit, naturals, jokers, tuple(sorted(naturals)), tuple(sorted(naturals.items())))


@dataclass(frozen=True, slots=True)
class _OldSet:
    rank: int
    suits: tuple[int, ...]
    jokers: int


@lru_cache(maxsize=4096)
def _analyse(meld: Meld, rules: ManipulationRules) -> _OldRun | _OldSet:
    """An old meld's kind, natural cards (runs: by position) and jokers, as the validator reads it."""
    cards = meld.cards
    if not any(c.is_joker for c in cards):  # fast path: the kind is plain to see
        ranks = [int(c.rank or 0) for c in cards]
        if len(set(ranks)) == 1:
            return _OldSet(ranks[0], tuple(SUITS.index(c.suit) for c in cards if c.suit is not None), 0)
        high_ace = ace_high(rules.ace, ranks)
        suit = SUITS.index(cards[0].suit) if cards[0].suit is not None else 0
        return _old_run(suit, {(14 if r == 1 and high_ace else r): c for r, c in zip(ranks, cards)}, 0)
    spec = rules.meld_spec
    kind, roles = resolve_roles(meld, spec)
    jokers = sum(1 for c in cards if spec.is_wild(c))
    if kind == "set":
        rank = next(int(c.rank) for c in roles if c.rank is not None)
        suits = tuple(SUITS.index(c.suit) for c in cards if not spec.is_wild(c) and c.suit is not None)
        return _OldSet(rank, suits, jokers)
    ranks = [int(r.rank) for r in roles if r.rank is not None]
    high_ace = ace_high(rules.ace, ranks)
    naturals: dict[int, Card] = {}
    suit = 0
    for c in cards:
        if spec.is_wild(c) or c.rank is None or c.suit is None:
            continue
        suit = SUITS.index(c.suit)
        p = int(c.rank)
        if p == 1 and high_ace:
            p = 14
        naturals[p] = c
    return _old_run(suit, naturals, jokers)


@dataclass(frozen=True, slots=True)
class _RunShape:
    """A run home's options, whatever the variables: its windows, and what each holds."""

    spans: tuple[tuple[int, int], ...]  # (first, last) position of each window
    costs: tuple[int, ...]  # the old naturals each window holds (staying home)
    whole: tuple[bool, ...]  # whether each window holds all of them (kept)
    holding: tuple[tuple[int, ...], ...]  # per position from 0, the windows (by number) holding it
    as_one: _AsOne  # the terms of :meth:`_Homes._kept_as_one`, by variable number (``kept``: the last)


@dataclass(frozen=True, slots=True)
class _AsOne:
    """A run home's terms with its whole windows summed into ``kept``, by variable number (the
    windows in order, then ``kept``), ready to offset by the first variable's index."""

    kept: int
    rows: tuple[tuple[tuple[int, ...], tuple[int, ...], int, int], ...]  # (variables, coefficients, lo, hi)
    costs: tuple[tuple[int, int], ...]  # (variable, old naturals held) of the partial windows
    top: int  # their sum
    copies: tuple[tuple[int, tuple[int, ...]], ...]  # (position, variables holding a copy there)


def _as_one(
    costs: tuple[int, ...], whole: tuple[bool, ...], holding: Sequence[Sequence[int]], inside: set[int]
) -> _AsOne:
    """``kept`` (variable ``n``, after the ``n`` windows) is the sum of the whole windows; it stands
    for them at the run's own positions (``inside``), which every whole window holds; the other
    positions list the windows holding them; positions with neither are left out."""
    n = len(costs)
    wholes = tuple(k for k, w in enumerate(whole) if w)
    partial = tuple(k for k, w in enumerate(whole) if not w)
    copies = []
    for q, ks in enumerate(holding):
        if q in inside:
            copies.append((q, (n, *(k for k in ks if not whole[k]))))
        elif ks:
            copies.append((q, tuple(ks)))
    return _AsOne(
        n,
        (((n, *wholes), (1,) + (-1,) * len(wholes), 0, 0), ((n, *partial), (1,) * (len(partial) + 1), 0, 1)),
        tuple((k, costs[k]) for k in partial),
        sum(costs[k] for k in partial),
        tuple(copies),
    )


@lru_cache(maxsize=4096)
def _run_shape(
    nps: tuple[int, ...], jokers: int, open_: tuple[bool, ...], in_play: int, lo_pos: int, hi_pos: int
) -> _RunShape:
    """The windows a run's home may take: around its naturals (positions ``nps``, with ``jokers``
    of its own), at most two positions plus its jokers beyond them, with no more cards nobody has
    (``open_``: per position from ``lo_pos``, on the table or in the hand, or the run's own) than
    the jokers in play. Cached: on big tables every card is there, and the same runs come back
    (nine in ten homes of three- and four-deck tables)."""
    nlo, nhi = nps[0], nps[-1]
    ext = 2 + jokers
    holes = [0] * (hi_pos + 2)  # holes[q]: cards no one has at positions lo_pos..q-1
    for q in range(lo_pos, hi_pos + 1):
        holes[q + 1] = holes[q] + (not open_[q - lo_pos])
    spans: list[tuple[int, int]] = []
    for a in range(max(lo_pos, nlo - ext), nhi + 1):
        first_in = next(q for q in nps if q >= a)  # a natural at or after a (a <= nhi)
        for z in range(max(a + 2, nlo, first_in), min(hi_pos, nhi + ext, a + MAX_RUN - 1) + 1):
            if holes[z + 1] - holes[a] <= in_play:  # no more cards no one has than jokers in play
                spans.append((a, z))
    hi = max(z for _, z in spans) + 2
    before = [0] * hi  # before[q]: the run's naturals at positions below q
    inside = set(nps)
    for q in range(1, hi):
        before[q] = before[q - 1] + (q - 1 in inside)
    holding: list[list[int]] = [[] for _ in range(hi)]
    for k, (a, z) in enumerate(spans):
        for q in range(a, z + 1):
            holding[q].append(k)
    whole = tuple(a <= nlo and z >= nhi for a, z in spans)
    costs = tuple(before[z + 1] - before[a] for a, z in spans)
    return _RunShape(
        tuple(spans), costs, whole, tuple(tuple(ks) for ks in holding), _as_one(costs, whole, holding, inside)
    )


@lru_cache(maxsize=8)
def _suit_row(suit: int) -> tuple[int, ...]:
    """The card index of each run position (0 unused) of a suit."""
    return tuple(card_index(suit, q) if q else 0 for q in range(16))


@lru_cache(maxsize=256)
def _set_shape(
    open_: tuple[bool, ...], suits: tuple[int, ...]
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...], tuple[bool, ...], tuple[tuple[int, ...], ...]]:
    """A set home's options (the suit subsets whose cards are all on the table or in the hand:
    ``open_`` per suit), the old suits (``suits``) each holds, whether it holds them all, and
    per suit the options (by number) holding it."""
    old = set(suits)
    subsets = tuple(t for t in SET_SUITS if all(open_[s] for s in t))
    return (
        subsets,
        tuple(len(old & set(t)) for t in subsets),
        tuple(old <= set(t) for t in subsets),
        tuple(tuple(k for k, t in enumerate(subsets) if s in t) for s in range(4)),
    )


@lru_cache(maxsize=16)
def _rank_cards(rank: int) -> tuple[int, ...]:
    """The card index of each suit of a rank."""
    return tuple(card_index(s, rank) for s in range(4))


_NO_WILD = (-1, -1, -1, -1)


@dataclass(frozen=True, slots=True)
class _Home:
    index: int
    kind: Literal["run", "set"]
    first: int = 0  # run: the variable of its first window (the others follow)
    spans: tuple[tuple[int, int], ...] = ()  # run: (first, last) position of each window
    fills: tuple[tuple[int, int], ...] = ()  # run: (position, joker var) where a joker may fill
    suit: int = 0
    naturals: tuple[tuple[int, Card], ...] = ()
    rank: int = 0
    subsets: tuple[tuple[int, tuple[int, ...]], ...] = ()  # set: (option var, suits); with jokers: (copy var, (suit,))
    wild: tuple[int, ...] = ()  # set: per suit, the joker var that may stand for it (or -1)


class _Terms:
    """Terms the homes add to the template's per-card constraints: the copies (coefficient 1),
    and with jokers in play the naturals among them and the joker slots."""

    def __init__(self) -> None:
        self.copies: list[list[int]] = [[] for _ in range(N_NATURAL)]
        self.naturals: list[list[tuple[int, int]]] = [[] for _ in range(N_NATURAL)]
        self.jokers: list[list[int]] = [[] for _ in range(N_NATURAL)]

    def copy(self, idx: int, var: int, joker: int = -1) -> None:
        """A copy of card ``idx`` in a home (a joker when ``joker`` is set)."""
        self.copies[idx].append(var)
        self.naturals[idx].append((var, 1))
        if joker >= 0:
            self.joker(idx, joker)

    def joker(self, idx: int, joker: int) -> None:
        """One of the home's copies of card ``idx`` is a joker when ``joker`` is set."""
        self.naturals[idx].append((joker, -1))
        self.jokers[idx].append(joker)


class _Homes:
    """Builds the homes of the old melds into a copy of the plain model (one method per kind)."""

    def __init__(self, b: Builder, t: Template, old: Sequence[Meld], instance: Instance) -> None:
        self.b, self.t, self.instance = b, t, instance
        self.big = sum(len(m) for m in old) + 1
        self.most = self.big * len(old) + self.big - 1  # the objective's maximum: every meld kept, every card home
        self.objective: list[tuple[int, int]] = []
        self.top = 0  # the objective's terms at their variables' upper bounds, summed
        self.terms = _Terms()
        self.wild = t.jokers > 0
        self.pos_range = lo_pos, hi_pos = t.pos_range
        available = instance.available
        # per suit, per position from lo_pos: a copy is on the table or in the hand
        self.open = [tuple(available[card_index(s, q)] > 0 for q in range(lo_pos, hi_pos + 1)) for s in range(4)]

    def add(self, i: int, info: _OldRun | _OldSet) -> _Home:
        """The home of old meld ``i``: kept (worth more than every card) and its cards left home.

        A run without jokers, and a set when no joker is in play, have no
        kept variable: the options of the home that hold the whole old meld
        (a run's windows covering its naturals, a set's suit subsets holding
        its suits; at most one option is chosen) weigh ``big`` more instead:
        the same optimum with a variable and a constraint fewer.
        """
        b = self.b
        held: list[int] = []  # joker slots of this home
        if isinstance(info, _OldRun) and not info.jokers:
            return self._run(i, info, -1, held)
        if isinstance(info, _OldSet) and not self.wild:  # no jokers in play: none in the old set
            return self._set(i, info)
        kept = b.var(0, 1)
        self.objective.append((kept, self.big))
        self.top += self.big
        if isinstance(info, _OldRun):
            home = self._run(i, info, kept, held)
        else:
            home = self._set_copies(i, info, kept, held)
        if info.jokers:  # the old jokers stay home: counted as staying, all of them for a kept meld
            rj = b.var(0, info.jokers)
            b.linear([rj, *held], [1] + [-1] * len(held), -INF, 0)
            b.linear((kept, rj), (info.jokers, -1), -INF, 0)
            self.objective.append((rj, 1))
            self.top += info.jokers
        return home

    def _run(self, i: int, info: _OldRun, kept: int, held: list[int]) -> _Home:
        """A run's home; ``kept`` -1: the covering windows carry the kept weight."""
        b, terms = self.b, self.terms
        suit = info.suit
        shape = _run_shape(
            info.positions, info.jokers, self.open[suit], self.instance.jokers_in_play, *self.pos_range
        )  # its own positions are on the table: open
        n = len(shape.spans)
        if kept < 0 and not self.wild:
            first = b.bools(n + 1)
            self._kept_as_one(info, shape.as_one, first)
            return _Home(i, "run", first, shape.spans, (), suit, info.own)
        first = b.bools(n)
        b.linear(range(first, first + n), [1] * n, 0, 1)
        if kept >= 0:
            covering = [first + k for k in range(n) if shape.whole[k]]
            b.linear([kept, *covering], [1] + [-1] * len(covering), -INF, 0)
        big = self.big if kept < 0 else 0
        costs = [c + big if whole else c for c, whole in zip(shape.costs, shape.whole)] if big else list(shape.costs)
        self.objective.extend(zip(range(first, first + n), costs))
        self.top += sum(costs)
        cards = _suit_row(suit)
        holding = [[first + k for k in ks] for ks in shape.holding]  # per position, the windows holding it
        copies = terms.copies
        for q, vs in enumerate(holding):  # per card, in window order (the order the model always had)
            if vs:
                copies[cards[q]].extend(vs)
        fills: list[tuple[int, int]] = []
        if self.wild:  # the naturals' rows; the copy at a fill position may be a joker standing for the card
            naturals = terms.naturals
            for q, vs in enumerate(holding):
                if vs:
                    naturals[cards[q]].extend((v, 1) for v in vs)
            for q, vs in enumerate(holding):
                if vs and q not in info.naturals:
                    j = b.var(0, 1)
                    b.linear([j, *vs], [1] + [-1] * len(vs), -INF, 0)
                    held.append(j)
                    terms.joker(cards[q], j)
                    fills.append((q, j))
        return _Home(i, "run", first, shape.spans, tuple(fills), suit, info.own)

    def _kept_as_one(self, info: _OldRun, one: _AsOne, first: int) -> None:
        """The terms of a run's home with no joker in play: its whole windows (every old natural
        held) summed into one ``kept`` variable (``first`` + the windows), which stands for all of
        them in the objective and in the per-card rows of the run's own positions (every whole
        window holds those). The same model with fewer terms: three- and four-deck tables solved
        14-25% faster, the same optima (docs/decisions-manipulation.md, eighth round). The terms
        are listed once per shape (:class:`_AsOne`) and offset here."""
        b = self.b
        at = first.__add__
        for vs, cs, lo, hi in one.rows:
            b.linear(map(at, vs), cs, lo, hi)
        keep = self.big + len(info.naturals)
        objective = self.objective
        objective.append((first + one.kept, keep))
        objective.extend([(first + k, c) for k, c in one.costs])
        self.top += keep + one.top
        copies, row = self.terms.copies, _suit_row(info.suit)
        for q, vs in one.copies:
            copies[row[q]].extend(map(at, vs))

    def _set(self, i: int, info: _OldSet) -> _Home:
        """A set's home without jokers in play: one variable per suit subset it may take (any 3,
        or all 4), one term per suit it holds in the per-card constraints; the subsets holding
        every old suit carry the kept weight."""
        b, copies = self.b, self.terms.copies
        available = self.instance.available
        cards = _rank_cards(info.rank)
        subsets, shared, whole, by_suit = _set_shape(tuple(available[c] > 0 for c in cards), info.suits)
        n = len(subsets)
        first = b.bools(n)
        b.linear(range(first, first + n), [1] * n, 0, 1)
        big = self.big
        costs = [c + big if w else c for c, w in zip(shared, whole)]
        self.objective.extend(zip(range(first, first + n), costs))
        self.top += sum(costs)
        at = first.__add__
        for card, ks in zip(cards, by_suit):
            if ks:
                copies[card].extend(map(at, ks))
        return _Home(i, "set", rank=info.rank, subsets=tuple(zip(range(first, first + n), subsets)), wild=_NO_WILD)

    def _set_copies(self, i: int, info: _OldSet, kept: int, held: list[int]) -> _Home:
        """A set's home with jokers in play: a copy variable per suit under a home variable ``h``
        (a joker may stand for a missing suit), kept by the exact cut
        ``kept <= sum of the old suits' copies - (old suits - 1) h``: the subsets holding
        every old suit, which the subset variables of :meth:`_set` count (measured faster
        here, where each subset would add its terms to the joker rows too)."""
        b = self.b
        available, jokers = self.instance.available, self.instance.jokers_in_play
        h = b.var(0, 1)
        copies: list[int] = []
        wild: list[int] = []
        naturals_in: list[tuple[int, int]] = []
        for s in range(4):
            idx = card_index(s, info.rank)
            room = 1 if available[idx] or jokers else 0
            v = b.var(0, room)
            b.linear((v, h), (1, -1), -INF, 0)
            j = -1
            naturals_in.append((v, 1))
            if s in info.suits:  # the old natural itself (WLOG: never a joker in its place)
                self.objective.append((v, 1))
                self.top += room
            else:
                j = b.var(0, 1)
                b.linear((j, v), (1, -1), -INF, 0)
                held.append(j)
                naturals_in.append((j, -1))
            self.terms.copy(idx, v, j)
            copies.append(v)
            wild.append(j)
        b.linear([*copies, h], [1, 1, 1, 1, -3], 0, INF)
        b.linear([*copies, h], [1, 1, 1, 1, -4], -INF, 0)
        b.linear([v for v, _ in naturals_in] + [h], [c for _, c in naturals_in] + [-1], 0, INF)  # a natural card
        old = [copies[s] for s in info.suits]
        b.linear([kept, *old, h], [1] + [-1] * len(old) + [len(old) - 1], -INF, 0)
        return _Home(i, "set", rank=info.rank, subsets=tuple((v, (s,)) for s, v in enumerate(copies)), wild=tuple(wild))

    def close(self) -> None:
        """Add the homes' copies to the template's per-card constraints."""
        b, t, terms = self.b, self.t, self.terms
        refinement = self.instance.refinement
        for idx in range(N_NATURAL):
            if terms.copies[idx]:
                b.append_ones(t.usage_cons[idx], terms.copies[idx])
            if refinement is not None and terms.naturals[idx]:
                b.append_terms(refinement.natural_cons[idx], terms.naturals[idx])
            elif self.wild and terms.naturals[idx]:  # homes hold no more naturals of a card than are played
                nats = terms.naturals[idx]
                b.linear([v for v, _ in nats] + [t.usage[idx]], [c for _, c in nats] + [-1], -INF, 0)
            if terms.jokers[idx]:  # joker slots at this card are jokers standing for it
                js = terms.jokers[idx]
                b.linear([*js, t.joker_copies[idx]], [1] * len(js) + [-1], -INF, 0)


def _add_homes(
    b: Builder, t: Template, old: Sequence[Meld], rules: ManipulationRules, instance: Instance
) -> tuple[list[_Home], list[tuple[int, int]], int, int]:
    """Every old meld's home, the least-change objective's terms, its maximum, and its terms summed
    at their variables' upper bounds."""
    builder = _Homes(b, t, old, instance)
    homes = [builder.add(i, _analyse(meld, rules)) for i, meld in enumerate(old)]
    builder.close()
    return homes, builder.objective, builder.most, builder.top


def _decode_homes(homes: Sequence[_Home], values: Sequence[int]) -> tuple[list[Piece], list[int]]:
    """Home pieces, and the jokers standing for each card inside homes."""
    pieces: list[Piece] = []
    jokers = [0] * N_NATURAL
    for h in homes:
        if h.kind == "run":
            try:  # at most one window is chosen
                a, z = h.spans[values.index(1, h.first, h.first + len(h.spans)) - h.first]
            except ValueError:
                continue
            nat = dict(h.naturals)
            joker_at = {q for q, j in h.fills if values[j]}
            slots: list[Card | None] = []
            for q in range(a, z + 1):
                if q in nat:
                    slots.append(nat[q])
                elif q in joker_at:
                    slots.append(None)
                    jokers[natural_card(card_index(h.suit, q)).index] += 1
                else:
                    slots.append(natural_card(card_index(h.suit, q)))
            pieces.append(Piece("run", h.suit, a, tuple(slots), home=h.index))
        else:
            cards: list[Card | None] = []
            for s in sorted({s for o, t in h.subsets if values[o] for s in t}):  # one subset at most
                card = natural_card(card_index(s, h.rank))
                if h.wild[s] >= 0 and values[h.wild[s]]:
                    cards.append(None)
                    jokers[card.index] += 1
                else:
                    cards.append(card)
            if cards:
                pieces.append(Piece("set", -1, 0, tuple(cards), h.rank, home=h.index))
    return pieces, jokers


_DOMAIN_SCORES = 200
"""The most score values the objective's domain lists (the ``cards`` objective: one per hand card)."""


def _score_first(
    b: Builder,
    proto: cp.CpModelProto,
    usage: Sequence[int],
    weights: Sequence[int],
    bounds: tuple[int, int],
    top: int,
    most: int,
) -> None:
    """The combined objective ``W * score + least change`` (``W`` above any least-change objective).

    The score is an integer, and alone its LP bound rounds down to it; the
    bound of the combined objective does not round: where the score's LP
    bound is fractional (often half a card above the best score) the LP
    trades that fraction for least change, and CP-SAT had to search to prove
    the score. Where the score takes few values (the ``cards`` objective)
    it is a variable ``s`` and the objective's domain is the union over
    ``s`` of ``[W s, W s + most]`` (``most``: the least-change objective's
    maximum, every meld kept and every table card home): the bound rounds
    down into the best score's interval, which bounds ``s`` in the LP
    (docs/decisions-manipulation.md, sixth round). One unit of ``W s`` stays
    on the usage variables: their objective coefficients guide CP-SAT's
    first dive (with all of it on ``s`` that dive found a worse score first
    on some positions, and the median solve was 0.1-0.5 ms slower).
    ``bounds``: the score's least and greatest values (from the usage
    variables' bounds).
    """
    obj = proto.objective
    above = top + 1  # ``top``: the least-change terms at their upper bounds (a joker count may exceed 1)
    lo, hi = bounds
    if hi - lo >= _DOMAIN_SCORES:
        obj.vars.extend(usage)
        obj.coeffs.extend([-w * above for w in weights])
        return
    s = b.var(lo, hi)
    b.linear([*usage, s], [*weights, -1], 0, 0)
    obj.vars.extend([*usage, s])  # W s as (W - 1) s + the score over the usage variables
    obj.coeffs.extend([*(-w for w in weights), 1 - above])
    domain: list[int] = []
    for v in range(hi, lo - 1, -1):  # minimised: -(W s + least change), increasing intervals
        start, end = -(above * v + most), -above * v
        if domain and domain[-1] + 1 >= start:  # no gap (W = most + 1): one interval
            domain[-1] = end
        else:
            domain.extend((start, end))
    obj.domain.extend(domain)


def solve_least_change(
    t: Template,
    instance: Instance,
    score: int | None,
    old: Sequence[Meld],
    rules: ManipulationRules,
    table: Cards,
    time_limit: float,
    *,
    own: bool = False,
) -> Solved | None:
    """Keep the most old melds and move the fewest cards, among the plays of the best score.

    With ``score`` (the best objective over the whole new table's cards, old
    ones included, proven by an earlier stage) the score is held there: phase
    2 alone, ``status`` ``feasible`` and ``least_change_status`` this solve's.
    With ``score=None`` one solve does both, the score first
    (``W * score + least change``, ``W`` above any least-change objective):
    ``status`` and ``least_change_status`` are this solve's. Returns None
    when no solution was found in time. No warm start: phase 1's values as a
    hint made it twice as slow (docs/decisions-manipulation.md). ``own``: the
    homes are added to ``instance``'s own model (no copy; the instance is
    not solved again).
    """
    if own:
        proto = instance.proto
    else:
        proto = cp.CpModelProto()
        proto.copy_from(instance.proto)
    b = Builder(proto)
    used = [k for k, v in enumerate(t.usage) if v >= 0]
    usage = [t.usage[k] for k in used]
    weights = [t.weights[k] for k in used]
    if score is not None:
        b.linear(usage, weights, score, INF)
    homes, objective, most, top = _add_homes(b, t, old, rules, instance)
    proto.clear_objective()
    obj = proto.objective
    obj.vars.extend([v for v, _ in objective])  # in bulk: thousands of terms on big tables
    obj.coeffs.extend([-c for _, c in objective])
    if score is None:  # the score first: each unit worth more than the whole least-change objective
        lo = sum(t.weights[k] * instance.low[k] for k in used)
        hi = sum(t.weights[k] * instance.high[k] for k in used)
        _score_first(b, proto, usage, weights, (lo, hi), top, most)
    r = run_model(proto, time_limit, zero_half_cuts=True)
    if r.status not in (Status.OPTIMAL, Status.FEASIBLE):
        return None
    home_pieces, home_jokers = _decode_homes(homes, r.values)
    pool = decode_pool(t, r.values, instance.refinement, home_jokers)
    return Solved(
        Status.FEASIBLE if score is not None else r.status,
        sum(r.values[v] * w for v, w in zip(usage, weights)),
        played_cards(t, r.values, table),
        (*home_pieces, *pool),
        least_change_status=r.status,
        least_change_value=sum(r.values[v] * c for v, c in objective),
    )
