"""The model template of Manipulation Shanghai (:mod:`solver.manipulation.model` has the formulation):
the candidate pieces of a rule set and objective, built once and cached (:func:`template`), and a
position's copy of it with its cards' domains set (:class:`Instance`), with the exact joker
refinement when three or more jokers are in play.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

from ortools.sat.python import cp_model_helper as cp

from solver.cards import Cards
from solver.ranks import JOKER, MAX_RUN, N_NATURAL, VALUE_SCALE, card_index, natural_card, position_range
from solver.rules import ManipulationRules
from solver.rules.base import Ace

__all__ = [
    "INF",
    "SET_SUITS",
    "Builder",
    "Instance",
    "Objective",
    "Template",
    "long_run_length",
    "template",
    "value_weights",
]

Objective = Literal["cards", "value"]

INF = 1 << 40
"""A bound no linear expression of these models reaches."""


def value_weights(rules: ManipulationRules, objective: Objective) -> tuple[int, ...]:
    """Objective weight of each card index 0..51, then the joker (index 52 here)."""
    naturals = [natural_card(i) for i in range(N_NATURAL)]
    if objective == "cards":
        return (1,) * (N_NATURAL + 1)
    return (*(rules.card_value(c) * VALUE_SCALE + 1 for c in naturals), 1)


class Builder:
    """Appends variables and linear constraints to a ``CpModelProto``."""

    __slots__ = ("n_cons", "n_vars", "proto")

    def __init__(self, proto: cp.CpModelProto) -> None:
        self.proto = proto
        self.n_vars = len(proto.variables)
        self.n_cons = len(proto.constraints)

    def var(self, lo: int, hi: int) -> int:
        v = self.proto.variables.add()
        v.domain.extend((lo, hi))
        self.n_vars += 1
        return self.n_vars - 1

    def bools(self, n: int) -> int:
        """Append ``n`` variables in [0, 1]; the first one's index (the others follow).

        Merged from a cached model of ``n`` such variables: one call instead of
        two per variable (about 13x faster)."""
        self.proto.merge_from(_bools(n))
        self.n_vars += n
        return self.n_vars - n

    def linear(self, vars_: Iterable[int], coeffs: Sequence[int], lo: int, hi: int, enforce: int = -1) -> int:
        con = self.proto.constraints.add()
        if enforce >= 0:
            con.enforcement_literal.append(enforce)
        lin = con.linear
        lin.vars.extend(vars_)
        lin.coeffs.extend(coeffs)
        lin.domain.extend((lo, hi))
        self.n_cons += 1
        return self.n_cons - 1

    def append_terms(self, con: int, terms: Iterable[tuple[int, int]]) -> None:
        lin = self.proto.constraints[con].linear
        pairs = list(terms)
        lin.vars.extend([v for v, _ in pairs])
        lin.coeffs.extend([c for _, c in pairs])

    def append_ones(self, con: int, vars_: Sequence[int]) -> None:
        """Append ``vars_`` to a linear constraint, each with coefficient 1."""
        lin = self.proto.constraints[con].linear
        lin.vars.extend(vars_)
        lin.coeffs.extend([1] * len(vars_))


@lru_cache(maxsize=256)
def _domain(lo: int, hi: int) -> cp.IntegerVariableProto:
    """An unnamed variable in [lo, hi] (copied into models: never changed)."""
    var = cp.IntegerVariableProto()
    var.domain.extend((lo, hi))
    return var


@lru_cache(maxsize=64)
def _bools(n: int) -> cp.CpModelProto:
    """A model of ``n`` variables in [0, 1] and nothing else (merged into others: never changed)."""
    proto = cp.CpModelProto()
    add = proto.variables.add
    for _ in range(n):
        add().domain.extend((0, 1))
    return proto


@dataclass(frozen=True, slots=True)
class _Window:
    suit: int
    positions: tuple[int, ...]
    cards: tuple[int, ...]  # card index at each position
    x: int


SET_SUITS: tuple[tuple[int, ...], ...] = ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3), (0, 1, 2, 3))
"""The suits a set may hold: any three, or all four."""


@dataclass(frozen=True, slots=True)
class _SetGroup:
    rank: int
    counts: tuple[int, ...]  # per entry of SET_SUITS: how many sets of this rank hold those suits
    by_suit: tuple[tuple[int, ...], ...]  # per suit: the counts of the sets holding it (summed: its copies)


@dataclass(frozen=True, slots=True)
class Template:
    """The candidate pieces of one rule set and objective, as a model to copy per position."""

    decks: int
    ace: Ace
    jokers: int
    objective: Objective
    proto: cp.CpModelProto
    usage: tuple[int, ...]  # natural usage variable per card index 0..51, then the joker (or -1)
    usage_cons: tuple[int, ...]  # per natural card: pieces' copies - natural usage - joker copies = 0
    joker_copies: tuple[int, ...]  # per natural card: jokers standing for it (empty without jokers)
    windows: tuple[_Window, ...]
    sets: tuple[_SetGroup, ...]
    weights: tuple[int, ...]
    n_vars: int
    n_cons: int

    @property
    def pos_range(self) -> tuple[int, int]:
        """Lowest and highest rank position of a run under the ace option."""
        return position_range(self.ace)


@cache
def template(decks: int, ace: Ace, jokers: int, objective: Objective) -> Template:
    """Build (once, then cached) the model template of a rule set and objective."""
    from solver.graph.runs import run_windows

    b = Builder(cp.CpModelProto())
    usage = [b.var(0, decks) for _ in range(N_NATURAL)]
    u_joker = b.var(0, jokers) if jokers else -1
    copies = [b.var(0, jokers) for _ in range(N_NATURAL)] if jokers else []
    terms: list[list[tuple[int, int]]] = [[] for _ in range(N_NATURAL)]
    windows: list[_Window] = []
    for s in range(4):
        for positions in run_windows(ace, 3, 5):
            x = b.var(0, decks + jokers)
            windows.append(_Window(s, positions, tuple(card_index(s, p) for p in positions), x))
            for idx in windows[-1].cards:
                terms[idx].append((x, 1))
    sets: list[_SetGroup] = []
    for rank in range(1, 14):
        counts = tuple(b.var(0, decks + jokers) for _ in SET_SUITS)
        group = _SetGroup(rank, counts, tuple(tuple(v for v, t in zip(counts, SET_SUITS) if s in t) for s in range(4)))
        for s, held in enumerate(group.by_suit):
            terms[card_index(s, rank)].extend((v, 1) for v in held)
        sets.append(group)
    usage_cons = []
    for idx in range(N_NATURAL):
        vs = [v for v, _ in terms[idx]] + [usage[idx]]
        cs = [c for _, c in terms[idx]] + [-1]
        if jokers:
            vs.append(copies[idx])
            cs.append(-1)
        usage_cons.append(b.linear(vs, cs, 0, 0))
    if jokers:
        b.linear([*copies, u_joker], [1] * N_NATURAL + [-1], 0, 0)
    weights = value_weights(ManipulationRules(decks=decks, ace=ace, jokers=jokers), objective)
    all_usage = (*usage, u_joker)
    obj = b.proto.objective
    for v, w in zip(all_usage, weights):
        if v >= 0:
            obj.vars.append(v)
            obj.coeffs.append(-w)
    return Template(
        decks,
        ace,
        jokers,
        objective,
        b.proto,
        all_usage,
        tuple(usage_cons),
        tuple(copies),
        tuple(windows),
        tuple(sets),
        weights,
        b.n_vars,
        b.n_cons,
    )


def _counts53(cards: Cards) -> list[int]:
    counts = cards.counts
    return [*counts[:N_NATURAL], counts[JOKER.index]]


@dataclass(frozen=True, slots=True)
class _Refinement:
    """The exact joker model: natural copies per window position and per set suit, and the longer
    windows that runs with many jokers need."""

    windows: tuple[tuple[int, ...], ...]  # per template window: natural count per position
    sets: tuple[tuple[int, ...], ...]  # per set group: natural count per suit
    natural_cons: tuple[int, ...]  # per card: natural copies in pieces and homes - usage = 0
    long: tuple[tuple[_Window, tuple[int, ...]], ...] = ()  # windows of 6+ positions, natural count per position


def long_run_length(jokers: int) -> int:
    """The longest piece the exact joker model needs with ``jokers`` in play: every run of at most
    that many jokers splits into pieces of 3 up to this many positions that each keep a natural
    (checked for every run of up to 13 positions in the tests); 5, the template's longest window,
    up to two jokers.

    >>> long_run_length(2), long_run_length(3), long_run_length(5), long_run_length(20)
    (5, 6, 8, 13)
    """
    return min(MAX_RUN, max(5, jokers + 3))


@dataclass(slots=True)
class Instance:
    """One position's model (a copy of the template) and, if added, the exact joker refinement.

    ``available``: copies of each natural card on the table and in the hand;
    ``low`` and ``high``: each usage variable's bounds (per entry of
    ``Template.usage``; the table's copies, and the hand's on top).
    """

    proto: cp.CpModelProto
    refinement: _Refinement | None = None
    jokers_in_play: int = 0
    available: tuple[int, ...] = ()
    low: tuple[int, ...] = ()
    high: tuple[int, ...] = ()


def _refine(b: Builder, t: Template, jokers: int) -> _Refinement:
    """Natural copies per piece slot: every piece keeps a natural card (no meld of jokers only).

    A run longer than five cards is a chain of pieces, and with three or more
    jokers one of them may hold jokers only while the run keeps a natural
    (``AD JK JK JK JK JK``): windows up to :func:`long_run_length` positions
    are added, so every valid run is a chain of pieces that each keep one.
    """
    from solver.graph.runs import run_windows

    naturals: list[list[tuple[int, int]]] = [[] for _ in range(N_NATURAL)]

    def window_naturals(w: _Window) -> tuple[int, ...]:
        nats = []
        for idx in w.cards:
            n = b.var(0, t.decks)
            b.linear((w.x, n), (1, -1), 0, INF)
            naturals[idx].append((n, 1))
            nats.append(n)
        b.linear((*nats, w.x), (1,) * len(nats) + (-1,), 0, INF)
        return tuple(nats)

    wins = [window_naturals(w) for w in t.windows]
    longest = long_run_length(jokers)
    shapes = run_windows(t.ace, 6, longest) if longest > 5 else ()
    long = []
    for s in range(4):
        for positions in shapes:
            w = _Window(s, positions, tuple(card_index(s, p) for p in positions), b.var(0, t.decks + jokers))
            for idx in w.cards:
                b.append_ones(t.usage_cons[idx], [w.x])
            long.append((w, window_naturals(w)))
    groups = []
    for g in t.sets:
        nats = []
        for s, copies in enumerate(g.by_suit):
            n = b.var(0, t.decks)
            b.linear((*copies, n), (1,) * len(copies) + (-1,), 0, INF)
            naturals[card_index(s, g.rank)].append((n, 1))
            nats.append(n)
        b.linear((*nats, *g.counts), (1,) * len(nats) + (-1,) * len(g.counts), 0, INF)  # a natural in every set
        groups.append(tuple(nats))
    cons = []
    for idx in range(N_NATURAL):
        vs = [v for v, _ in naturals[idx]] + [t.usage[idx]]
        cs = [c for _, c in naturals[idx]] + [-1]
        cons.append(b.linear(vs, cs, 0, 0))
    return _Refinement(tuple(wins), tuple(groups), tuple(cons), tuple(long))


def _instance(t: Template, table: Cards, hand: Cards, exact: bool = False) -> Instance:
    proto = cp.CpModelProto()
    proto.copy_from(t.proto)
    tc, hc = _counts53(table), _counts53(hand)
    variables = proto.variables
    for v, lo, extra in zip(t.usage, tc, hc):
        if v >= 0:
            variables[v].copy_from(_domain(lo, lo + extra))  # one call, not three
    high = tuple(lo + extra for lo, extra in zip(tc, hc))  # the naturals' copies, then the jokers
    jokers = high[N_NATURAL]
    refinement = _refine(Builder(proto), t, jokers) if exact and jokers >= 3 else None
    return Instance(proto, refinement, jokers, high[:N_NATURAL], tuple(tc), high)
