"""The CP-SAT model of Manipulation Shanghai: most hand cards onto a rearranged table.

The formulation (``docs/decisions-manipulation.md`` has the proofs):

* The new table is a multiset of **pieces**. A run piece is a window of 3-5
  positions in the rank graph of a suit (:func:`solver.graph.runs.run_windows`,
  so the ace option is only which windows exist); every longer run is a chain
  of such pieces and is printed whole. A set piece is 3-4 cards of one rank
  in distinct suits. Candidates are built **once per rule set** into a model
  template that is cached; a position only sets the domains of the 53 card
  usage variables of a copy.
* Identical copies are **counts**: ``x_w`` runs on window ``w``, ``z_rT``
  sets of rank ``r`` holding the suits ``T`` (any three, or all four; card
  ``(r, s)`` has the sum over ``T`` holding ``s`` in sets, no row needed);
  never one variable per physical card.
* **Jokers are role copies**: a joker in a meld is one more copy of the card
  it stands for. Every card ``c`` appears on the new table ``u_c + k_c``
  times, ``u_c`` natural copies and ``k_c`` jokers standing for it, with
  ``sum_c k_c`` the jokers played. The model is the joker-free model with
  more supply, so its relaxation is as tight and it solves as fast. It
  allows one thing the rules forbid, a meld of jokers only (possible only
  with three or more jokers in play): the decoder first moves such jokers
  into melds with room; only if that fails is the position solved again
  with the **exact refinement** (per window and position natural counts,
  each piece keeping a natural card).
* Every table card is used: card ``c`` appears on the new table between
  ``table_c`` and ``table_c + hand_c`` times as a natural.
* **Least change** is a second solve with the best score fixed: each old
  meld may keep a *home*, a new meld of its kind made of a part of the old
  meld (a run's window, a set's cards) plus copies from the pool (naturals or
  jokers); maximise kept melds, then old cards left in their home.

The model is written straight into the ``CpModelProto`` of OR-Tools'
compiled helper (no pandas/numpy import), solved with ``num_workers=1`` for
small models and always under a time limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal, NamedTuple

from ortools.sat.python import cp_model_helper as cp

from solver.cards import Card, Cards
from solver.cpsat import parameters, solution_values, solve_proto, status_of
from solver.errors import MeldError, Status
from solver.ranks import JOKER, MAX_RUN, N_NATURAL, VALUE_SCALE, card_index, natural_card, position_range
from solver.rules import ManipulationRules
from solver.rules.base import Ace

__all__ = [
    "JOKER",
    "INF",
    "Objective",
    "Builder",
    "Response",
    "Template",
    "Instance",
    "template",
    "Piece",
    "Solved",
    "solve_play",
    "run_model",
    "decode_pool",
    "played_cards",
    "exact_instance",
    "plain_instance",
    "enumerate_plays",
    "value_weights",
    "SET_SUITS",
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


@dataclass(frozen=True, slots=True)
class Response:
    """A CP-SAT answer: status, the solution's values, the objective maximised and its bound."""

    status: Status
    values: tuple[int, ...]
    objective: int  # maximised value (sign restored)
    bound: int


def run_model(proto: cp.CpModelProto, time_limit: float, *, zero_half_cuts: bool = False) -> Response:
    """Solve with the parameters that measured fastest on these small, tight models.

    Presolve, probing, symmetry detection and the generic cut generators are
    off (:func:`solver.cpsat.parameters` ``lean``): each measured slower here
    (docs/decisions-manipulation.md), the LP relaxation alone being tight
    enough; and every constraint is in the LP from the start (not added
    lazily), which measured 1.5x faster on plain models and 2.5x on
    least-change models. ``zero_half_cuts`` turns that one cut generator
    back on: it halves the least-change solve on tables of 100+ cards and
    costs the plain model a little. SAT in-processing (clause database
    simplification between restarts) is off: it only ever ran in the long
    searches of the least-change tails, which it made 10-15% slower on
    average (plain models: no change). With the zero-half cuts, two rounds of
    root cuts: the least-change tails lower again (eighth round).
    """
    params = parameters(time_limit, workers=1 if len(proto.variables) < 4000 else 2, lean=True)
    params.add_lp_constraints_lazily = False  # every constraint in the LP from the start: 1.5-2.5x faster here
    params.add_zero_half_cuts = zero_half_cuts
    if zero_half_cuts:
        params.max_cut_rounds_at_level_zero = 2  # the least-change tails: means 5-16% lower
    params.use_sat_inprocessing = False  # the least-change tails: means 5-15% lower (docs/decisions-manipulation.md)
    r = solve_proto(proto, params)
    status = status_of(r.status)
    values = solution_values(r) if status in (Status.OPTIMAL, Status.FEASIBLE) else ()
    return Response(status, values, -round(r.objective_value), -round(r.best_objective_bound))


@dataclass(frozen=True, slots=True)
class Piece:
    """One decoded meld: a run (suit, first position, slots) or a set (rank, cards).

    Slots hold the natural card or None for a joker; ``home`` is the old
    meld (index) this piece keeps together, if any.
    """

    kind: Literal["run", "set"]
    suit: int
    start: int
    slots: tuple[Card | None, ...]
    rank: int = 0
    home: int | None = None

    @property
    def end(self) -> int:
        """Last position of a run."""
        return self.start + len(self.slots) - 1


@dataclass(frozen=True, slots=True)
class Solved:
    """A decoded solution: status, the score, the played counts and the pieces."""

    status: Status
    score: int  # objective over the new table's cards
    played: Cards
    pieces: tuple[Piece, ...]
    least_change_status: Status | None = None
    least_change_value: int = 0  # the least-change objective reached (kept melds, cards staying)


def played_cards(t: Template, values: Sequence[int], table: Cards) -> Cards:
    """The hand cards a solution adds to ``table``."""
    tc = _counts53(table)
    out: dict[Card, int] = {}
    for i, v in enumerate(t.usage):
        if v < 0:
            continue
        n = values[v] - tc[i]
        if n:
            out[JOKER if i == N_NATURAL else natural_card(i)] = n
    return Cards.from_counts(out)


class _Row(NamedTuple):
    """A decoded piece before printing: its shape and a card index per slot (None for a joker)."""

    kind: Literal["run", "set"]
    key: int  # suit of a run, rank of a set
    start: int  # first position of a run
    slots: list[int | None]


def _window_rows(t: Template, values: Sequence[int], refinement: _Refinement | None) -> list[_Row]:
    """The run pieces; with the refinement, natural counts per slot are the model's (round robin:
    each piece gets a natural, no slot twice)."""
    out: list[_Row] = []
    windows: list[tuple[_Window, tuple[int, ...] | None]] = [
        (w, None if refinement is None else refinement.windows[k]) for k, w in enumerate(t.windows)
    ]
    if refinement is not None:
        windows += refinement.long
    for w, nats in windows:
        x = values[w.x]
        if not x:
            continue
        if nats is None:
            rows: list[list[int | None]] = [list(w.cards) for _ in range(x)]
        else:
            rows = [[None] * len(w.cards) for _ in range(x)]
            i = 0
            for p, n in enumerate(nats):
                for _ in range(values[n]):
                    rows[i % x][p] = w.cards[p]
                    i += 1
        out.extend(_Row("run", w.suit, w.positions[0], row) for row in rows)
    return out


def _set_rows(t: Template, values: Sequence[int], refinement: _Refinement | None) -> list[_Row]:
    """The set pieces: naturals round robin (no suit twice, every set a natural), then the refined
    model's jokers, every set to 3 cards and then up to 4."""
    out: list[_Row] = []
    for k, g in enumerate(t.sets):
        y = sum(values[v] for v in g.counts)
        if not y:
            continue
        members: list[list[int | None]] = [[] for _ in range(y)]
        jokers = 0
        i = 0
        for s, held in enumerate(g.by_suit):
            copies = sum(values[v] for v in held)
            naturals = copies if refinement is None else values[refinement.sets[k][s]]
            jokers += copies - naturals
            for _ in range(naturals):
                members[i % y].append(card_index(s, g.rank))
                i += 1
        for size in (3, 4):
            for m in members:
                while len(m) < size and jokers:
                    m.append(None)
                    jokers -= 1
        out.extend(_Row("set", g.rank, 0, m) for m in members)
    return out


def _place_role_jokers(t: Template, values: Sequence[int], rows: list[_Row], home_jokers: Sequence[int]) -> None:
    """Jokers as role copies: those standing for each card replace that card in the pieces that
    keep the most naturals (those inside homes are already placed)."""
    natural = [sum(1 for c in row.slots if c is not None) for row in rows]
    holders: dict[int, list[tuple[int, int]]] = {}
    for r, row in enumerate(rows):
        for i, c in enumerate(row.slots):
            if c is not None:
                holders.setdefault(c, []).append((r, i))
    for idx, v in enumerate(t.joker_copies):
        jokers = values[v] - (home_jokers[idx] if home_jokers else 0)
        if jokers <= 0:
            continue
        for r, i in sorted(holders.get(idx, ()), key=lambda ri: -natural[ri[0]])[:jokers]:
            rows[r].slots[i] = None
            natural[r] -= 1


def decode_pool(
    t: Template, values: Sequence[int], refinement: _Refinement | None, home_jokers: Sequence[int] = ()
) -> list[Piece]:
    """The pool's pieces; ``home_jokers[c]``: jokers standing for card ``c`` inside homes.

    With the refinement, natural counts per slot are the model's (each piece
    keeps one: round robin). Without it, the jokers standing for each card
    go to the pieces holding that card that keep the most naturals.
    """
    rows = _window_rows(t, values, refinement) + _set_rows(t, values, refinement)
    if refinement is None and t.joker_copies:
        _place_role_jokers(t, values, rows, home_jokers)
    pieces = []
    for row in rows:
        cards = tuple(None if c is None else natural_card(c) for c in row.slots)
        if row.kind == "run":
            pieces.append(Piece("run", row.key, row.start, cards))
        else:
            pieces.append(Piece("set", -1, 0, cards, row.key))
    return pieces


def _check_cards(t: Template, table: Cards, hand: Cards) -> None:
    rules = ManipulationRules(decks=t.decks, ace=t.ace, jokers=t.jokers)
    (table + hand).check_against(rules.deck, "table and hand together")


def plain_instance(t: Template, table: Cards, hand: Cards, *, checked: bool = False) -> Instance:
    """The position's model (jokers as role copies), without solving it (``checked``: the cards
    are known to be within the deck)."""
    if not checked:
        _check_cards(t, table, hand)
    return _instance(t, table, hand)


def exact_instance(t: Template, table: Cards, hand: Cards) -> Instance:
    """The position's model with the exact joker refinement (when three or more jokers are in play)."""
    return _instance(t, table, hand, exact=True)


def solve_play(
    t: Template, table: Cards, hand: Cards, time_limit: float, *, exact: bool = False
) -> tuple[Solved, Instance, Response]:
    """Phase 1: the best score; returns the decoded pool solution, the instance and the response.

    ``exact`` adds the refinement that forbids melds of jokers only (needed
    only with three or more jokers in play, when the decoder cannot repair).
    """
    _check_cards(t, table, hand)
    inst = _instance(t, table, hand, exact)
    r = run_model(inst.proto, time_limit)
    if r.status is Status.INFEASIBLE:
        raise MeldError("the table cannot be arranged into valid melds")
    if r.status is Status.UNKNOWN:
        return Solved(Status.UNKNOWN, 0, Cards(), ()), inst, r
    pieces = decode_pool(t, r.values, inst.refinement)
    played = played_cards(t, r.values, table)
    return Solved(r.status, r.objective, played, tuple(pieces)), inst, r


def enumerate_plays(
    t: Template, instance: Instance, first: Response, table: Cards, hand: Cards, time_limit: float, limit: int
) -> tuple[Cards, ...]:
    """Distinct multisets of hand cards reaching phase 1's score, by no-good cuts (at most ``limit``).

    ``instance`` must be exact (refined) when three or more jokers are in play.
    """
    import time

    deadline = time.perf_counter() + time_limit
    proto = cp.CpModelProto()
    proto.copy_from(instance.proto)
    proto.clear_objective()
    b = Builder(proto)
    usage = [v for v in t.usage if v >= 0]
    weights = [w for v, w in zip(t.usage, t.weights) if v >= 0]
    b.linear(usage, weights, first.objective, first.objective)
    tc, hc = _counts53(table), _counts53(hand)
    found: list[Cards] = []
    values = first.values
    while len(found) < limit:
        found.append(played_cards(t, values, table))
        lits: list[int] = []
        for i, v in enumerate(t.usage):
            if v < 0 or not hc[i]:
                continue
            u = values[v]
            if u > tc[i]:
                lt = b.var(0, 1)
                b.linear((v,), (1,), -INF, u - 1, enforce=lt)
                lits.append(lt)
            if u < tc[i] + hc[i]:
                gt = b.var(0, 1)
                b.linear((v,), (1,), u + 1, INF, enforce=gt)
                lits.append(gt)
        if not lits:
            break
        b.linear(lits, [1] * len(lits), 1, INF)
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        r = run_model(proto, left)
        if r.status not in (Status.OPTIMAL, Status.FEASIBLE):
            break
        values = r.values
    return tuple(found)
