"""The CP-SAT model of Manipulation Shanghai: most hand cards onto a rearranged table.

The formulation (``docs/decisions-manipulation.md`` has the proofs):

* The new table is a multiset of **pieces**. A run piece is a window of 3-5
  positions in the rank graph of a suit (:func:`solver.graph.runs.run_windows`,
  so the ace option is only which windows exist); every longer run is a chain
  of such pieces and is printed whole. A set piece is 3-4 cards of one rank
  in distinct suits. Candidates are built **once per rule set** into a model
  template that is cached; a position only sets the domains of the 53 card
  usage variables of a copy.
* Identical copies are **counts**: ``x_w`` runs on window ``w``, ``y_r`` sets
  of rank ``r`` with ``n_rs`` naturals of suit ``s`` (``n_rs <= y_r``,
  ``3 y_r <= cards <= 4 y_r``); never one variable per physical card.
* **Jokers** (the ``jokers`` variant) fill any slot: a run piece has per
  position natural counts ``n_wp <= x_w`` with ``sum_p n_wp >= x_w`` (each
  piece keeps a natural card); sets take ``j_r`` jokers; a pool of ``E``
  extra jokers lengthens runs up to 13 cards. These conditions are exact:
  any solution decodes into valid melds, and every valid table encodes.
* Every table card is used: card ``c`` appears on the new table between
  ``table_c`` and ``table_c + hand_c`` times.
* **Least change** is a second solve with the best score fixed: each old
  meld may keep a *home*, a new meld of its kind made of a part of the old
  meld (a run's window, a set's cards) plus cards from the pool; maximise
  kept melds, then cards left in their home (= fewest moved table cards).

The model is written straight into the ``CpModelProto`` of OR-Tools'
compiled helper (no pandas/numpy import), solved with ``num_workers=1`` for
small models and always under a time limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from ortools.sat.python import cp_model_helper as cp

from solver.cards import Card, Cards, Joker, Rank, Suit
from solver.errors import MeldError
from solver.graph.runs import position_rank, run_windows
from solver.melds import Meld, resolve_roles
from solver.rules import ManipulationRules
from solver.rules.base import Ace

__all__ = [
    "JOKER",
    "Objective",
    "Status",
    "Template",
    "template",
    "Piece",
    "Solved",
    "solve_play",
    "solve_least_change",
    "enumerate_plays",
    "value_weights",
]

JOKER = Card(None, None, Joker.PLAIN)
Objective = Literal["cards", "value"]
Status = Literal["optimal", "feasible", "infeasible", "unknown"]

_INF = 1 << 40
_SUITS = tuple(Suit)
_N_NATURAL = 52
_VALUE_SCALE = 256  # value objective: value * 256 + cards (more cards breaks ties)
_MAX_RUN = 13


def value_weights(rules: ManipulationRules, objective: Objective) -> tuple[int, ...]:
    """Objective weight of each card index 0..51, then the joker (index 52 here)."""
    naturals = [Card(Rank(r), s) for s in _SUITS for r in range(1, 14)]
    if objective == "cards":
        return (1,) * (_N_NATURAL + 1)
    return (*(rules.card_value(c) * _VALUE_SCALE + 1 for c in naturals), 1)


class _Builder:
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

    def linear(self, vars_: Sequence[int], coeffs: Sequence[int], lo: int, hi: int, enforce: int = -1) -> int:
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
        for v, c in terms:
            lin.vars.append(v)
            lin.coeffs.append(c)


@dataclass(frozen=True, slots=True)
class _Window:
    suit: int
    positions: tuple[int, ...]
    x: int
    naturals: tuple[int, ...]  # per position natural-count variables (jokers variant only)


@dataclass(frozen=True, slots=True)
class _SetGroup:
    rank: int
    y: int
    naturals: tuple[int, ...]  # per suit
    jokers: int  # variable, or -1


@dataclass(frozen=True, slots=True)
class Template:
    """The candidate pieces of one rule set and objective, as a model to copy per position."""

    decks: int
    ace: Ace
    jokers: int
    objective: Objective
    proto: cp.CpModelProto
    usage: tuple[int, ...]  # usage variable per card index 0..51, then the joker (or -1)
    usage_cons: tuple[int, ...]  # the constraint defining each usage variable
    windows: tuple[_Window, ...]
    sets: tuple[_SetGroup, ...]
    extras: int  # extra-joker variable, or -1
    extras_con: int  # capacity constraint of the extra jokers, or -1
    weights: tuple[int, ...]
    n_vars: int
    n_cons: int

    @property
    def pos_range(self) -> tuple[int, int]:
        """Lowest and highest rank position of a run under the ace option."""
        return (2 if self.ace == "high" else 1, 13 if self.ace == "low" else 14)


def _card_at(suit: int, position: int) -> Card:
    return Card(position_rank(position), _SUITS[suit])


@cache
def template(decks: int, ace: Ace, jokers: int, objective: Objective) -> Template:
    """Build (once, then cached) the model template of a rule set and objective."""
    b = _Builder(cp.CpModelProto())
    usage = [b.var(0, decks) for _ in range(_N_NATURAL)]
    u_joker = b.var(0, jokers) if jokers else -1
    terms: list[list[tuple[int, int]]] = [[] for _ in range(_N_NATURAL)]
    joker_terms: list[tuple[int, int]] = []
    capacity: list[tuple[int, int]] = []
    windows: list[_Window] = []
    for s in range(4):
        for positions in run_windows(ace, 3, 5):
            length = len(positions)
            x = b.var(0, decks + jokers // length)  # each slot beyond a natural copy is a joker
            nats: list[int] = []
            for p in positions:
                idx = _card_at(s, p).index
                if jokers:
                    n = b.var(0, decks)
                    b.linear((x, n), (1, -1), 0, _INF)
                    terms[idx].append((n, 1))
                    nats.append(n)
                else:
                    terms[idx].append((x, 1))
            if jokers:
                b.linear((*nats, x), (1,) * length + (-1,), 0, _INF)
                joker_terms.append((x, length))
                joker_terms.extend((n, -1) for n in nats)
                capacity.append((x, _MAX_RUN - length))
            windows.append(_Window(s, positions, x, tuple(nats)))
    sets: list[_SetGroup] = []
    for rank in range(1, 14):
        y = b.var(0, (4 * decks + jokers) // 3)
        nats = []
        for s in range(4):
            n = b.var(0, decks)
            b.linear((y, n), (1, -1), 0, _INF)
            terms[Card(Rank(rank), _SUITS[s]).index].append((n, 1))
            nats.append(n)
        j = -1
        if jokers:
            j = b.var(0, jokers)
            b.linear((*nats, j, y), (1, 1, 1, 1, 1, -3), 0, _INF)
            b.linear((*nats, j, y), (1, 1, 1, 1, 1, -4), -_INF, 0)
            b.linear((*nats, y), (1, 1, 1, 1, -1), 0, _INF)
            joker_terms.append((j, 1))
        else:
            b.linear((*nats, y), (1, 1, 1, 1, -3), 0, _INF)
            b.linear((*nats, y), (1, 1, 1, 1, -4), -_INF, 0)
        sets.append(_SetGroup(rank, y, tuple(nats), j))
    extras = extras_con = -1
    if jokers:
        extras = b.var(0, jokers)
        joker_terms.append((extras, 1))
        extras_con = b.linear([v for v, _ in capacity] + [extras], [c for _, c in capacity] + [-1], 0, _INF)
    usage_cons = []
    for idx in range(_N_NATURAL):
        vs = [v for v, _ in terms[idx]] + [usage[idx]]
        cs = [c for _, c in terms[idx]] + [-1]
        usage_cons.append(b.linear(vs, cs, 0, 0))
    joker_con = -1
    if jokers:
        joker_con = b.linear([v for v, _ in joker_terms] + [u_joker], [c for _, c in joker_terms] + [-1], 0, 0)
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
        (*usage_cons, joker_con),
        tuple(windows),
        tuple(sets),
        extras,
        extras_con,
        weights,
        b.n_vars,
        b.n_cons,
    )


def _counts53(cards: Cards) -> list[int]:
    counts = cards.counts
    return [*counts[:_N_NATURAL], counts[JOKER.index]]


def _instance(t: Template, table: Cards, hand: Cards) -> cp.CpModelProto:
    proto = cp.CpModelProto()
    proto.copy_from(t.proto)
    tc, hc = _counts53(table), _counts53(hand)
    for v, lo, extra in zip(t.usage, tc, hc):
        if v < 0:
            continue
        dom = proto.variables[v].domain
        dom[0] = lo
        dom[1] = lo + extra
    return proto


@dataclass(frozen=True, slots=True)
class _Response:
    status: Status
    values: tuple[int, ...]
    objective: int  # maximised value (sign restored)
    bound: int


_STATUS: dict[object, Status] = {
    cp.CpSolverStatus.OPTIMAL: "optimal",
    cp.CpSolverStatus.FEASIBLE: "feasible",
    cp.CpSolverStatus.INFEASIBLE: "infeasible",
}


def _run(proto: cp.CpModelProto, time_limit: float, hard: bool = False) -> _Response:
    """Solve; ``hard`` models (jokers) get the stronger LP relaxation (linearization level 2).

    Presolve is off: on these small, tight models it measured slower (about 2-5x on
    two-deck positions, and far slower with jokers; docs/decisions-manipulation.md).
    """
    params = cp.SatParameters()
    params.num_workers = 1 if len(proto.variables) < 4000 else 2
    params.max_time_in_seconds = max(0.001, time_limit)
    params.cp_model_presolve = False
    if hard:
        params.linearization_level = 2
    wrapper = cp.SolveWrapper()
    wrapper.set_parameters(params)
    r = wrapper.solve(proto)  # type: ignore[no-untyped-call]
    status = _STATUS.get(r.status, "unknown")
    if r.status == cp.CpSolverStatus.MODEL_INVALID:  # pragma: no cover - a bug in this module
        raise RuntimeError("invalid CP-SAT model")
    values = tuple(r.solution) if status in ("optimal", "feasible") else ()
    return _Response(status, values, -round(r.objective_value), -round(r.best_objective_bound))


@dataclass(frozen=True, slots=True)
class Piece:
    """One decoded meld: a run (suit, first position, slots) or a set (rank, cards).

    Run slots hold the natural card or None for a joker; ``home`` is the old
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
    extra_jokers: int
    least_change_status: Status | None = None


def _played(t: Template, values: Sequence[int], table: Cards) -> Cards:
    tc = _counts53(table)
    out: dict[Card, int] = {}
    for i, v in enumerate(t.usage):
        if v < 0:
            continue
        n = values[v] - tc[i]
        if n:
            out[JOKER if i == _N_NATURAL else _card_from_index(i)] = n
    return Cards.from_counts(out)


@cache
def _card_from_index(i: int) -> Card:
    return Card(Rank(i % 13 + 1), _SUITS[i // 13])


def _decode_pool(t: Template, values: Sequence[int]) -> tuple[list[Piece], int]:
    pieces: list[Piece] = []
    for w in t.windows:
        x = values[w.x]
        if not x:
            continue
        cards = [_card_at(w.suit, p) for p in w.positions]
        if not w.naturals:
            pieces.extend(Piece("run", w.suit, w.positions[0], tuple(cards)) for _ in range(x))
            continue
        slots: list[list[Card | None]] = [[None] * len(cards) for _ in range(x)]
        k = 0
        for i, n in enumerate(w.naturals):
            for _ in range(values[n]):  # round robin: each piece gets a natural, no slot twice
                slots[k % x][i] = cards[i]
                k += 1
        pieces.extend(Piece("run", w.suit, w.positions[0], tuple(s)) for s in slots)
    for g in t.sets:
        y = values[g.y]
        if not y:
            continue
        members: list[list[Card | None]] = [[] for _ in range(y)]
        k = 0
        for s, n in enumerate(g.naturals):
            for _ in range(values[n]):
                members[k % y].append(Card(Rank(g.rank), _SUITS[s]))
                k += 1
        jokers = values[g.jokers] if g.jokers >= 0 else 0
        for m in members:  # bring every set to 3 cards, then up to 4
            while len(m) < 3 and jokers:
                m.append(None)
                jokers -= 1
        for m in members:
            while len(m) < 4 and jokers:
                m.append(None)
                jokers -= 1
        pieces.extend(Piece("set", -1, 0, tuple(m), g.rank) for m in members)
    extras = values[t.extras] if t.extras >= 0 else 0
    return pieces, extras


def _check_cards(t: Template, table: Cards, hand: Cards) -> None:
    rules = ManipulationRules(decks=t.decks, ace=t.ace, jokers=t.jokers)
    (table + hand).check_against(rules.deck, "table and hand together")


def solve_play(t: Template, table: Cards, hand: Cards, time_limit: float) -> tuple[Solved, cp.CpModelProto, _Response]:
    """Phase 1: the best score; returns the decoded pool solution, the instance and the response."""
    _check_cards(t, table, hand)
    proto = _instance(t, table, hand)
    r = _run(proto, time_limit, t.jokers > 0)
    if r.status == "infeasible":
        raise MeldError("the table cannot be arranged into valid melds")
    if r.status == "unknown":
        return Solved("unknown", 0, Cards(), (), 0), proto, r
    pieces, extras = _decode_pool(t, r.values)
    return Solved(r.status, r.objective, _played(t, r.values, table), tuple(pieces), extras), proto, r


# --- least change: homes for the old melds ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class _OldRun:
    suit: int
    naturals: dict[int, Card]  # position -> card
    jokers: int


@dataclass(frozen=True, slots=True)
class _OldSet:
    rank: int
    suits: tuple[int, ...]
    jokers: int


def _analyse(meld: Meld, rules: ManipulationRules) -> _OldRun | _OldSet:
    spec = rules.meld_spec
    kind, roles = resolve_roles(meld, spec)
    jokers = sum(1 for c in meld.cards if spec.is_wild(c))
    if kind == "set":
        rank = next(int(c.rank) for c in roles if c.rank is not None)
        suits = tuple(_SUITS.index(c.suit) for c in meld.cards if not spec.is_wild(c) and c.suit is not None)
        return _OldSet(rank, suits, jokers)
    ranks = [int(r.rank) for r in roles if r.rank is not None]
    high_ace = _ace_high(rules.ace, ranks)
    naturals: dict[int, Card] = {}
    suit = 0
    for c in meld.cards:
        if spec.is_wild(c) or c.rank is None or c.suit is None:
            continue
        suit = _SUITS.index(c.suit)
        p = int(c.rank)
        if p == 1 and high_ace:
            p = 14
        naturals[p] = c
    return _OldRun(suit, naturals, jokers)


def _ace_high(ace: str, ranks: Sequence[int]) -> bool:
    """Whether an ace in a run with these ranks sits above the king."""
    if ace == "low":
        return False
    if ace == "high":
        return True
    return max((r for r in ranks if r != 1), default=2) >= 12


@dataclass(frozen=True, slots=True)
class _Home:
    index: int
    kind: Literal["run", "set"]
    options: tuple[tuple[int, int, int], ...] = ()  # run: (window var, first, last)
    fills: tuple[tuple[int, int], ...] = ()  # run: (position, natural-fill var)
    suit: int = 0
    naturals: tuple[tuple[int, Card], ...] = ()
    rank: int = 0
    stays: tuple[tuple[int, int], ...] = ()  # set: (suit, var) for old naturals and additions
    home_jokers: int = -1  # set: joker variable
    kept: int = -1


def _add_homes(
    b: _Builder, t: Template, old: Sequence[Meld], rules: ManipulationRules
) -> tuple[list[_Home], list[tuple[int, int]]]:
    lo_pos, hi_pos = t.pos_range
    big = sum(len(m) for m in old) + 1
    objective: list[tuple[int, int]] = []
    homes: list[_Home] = []
    usage_terms: list[list[tuple[int, int]]] = [[] for _ in range(_N_NATURAL + 1)]
    capacity: list[tuple[int, int]] = []
    for i, meld in enumerate(old):
        info = _analyse(meld, rules)
        kept = b.var(0, 1)
        objective.append((kept, big))
        if isinstance(info, _OldRun):
            nps = sorted(info.naturals)
            nlo, nhi = nps[0], nps[-1]
            ext = 2 + info.jokers
            opts: list[tuple[int, int, int]] = []
            for a in range(max(lo_pos, nlo - ext), nhi + 1):
                for z in range(max(a + 2, nlo), min(hi_pos, nhi + ext) + 1):
                    if z - a + 1 > _MAX_RUN or not any(a <= q <= z for q in nps):
                        continue
                    opts.append((b.var(0, 1), a, z))
            b.linear([v for v, _, _ in opts], [1] * len(opts), 0, 1)
            covering = [v for v, a, z in opts if a <= nlo and z >= nhi]
            b.linear([kept, *covering], [1] + [-1] * len(covering), -_INF, 0)
            positions = sorted({q for _, a, z in opts for q in range(a, z + 1)})
            fills: list[tuple[int, int]] = []
            joker_expr: list[tuple[int, int]] = []
            for v, a, z in opts:
                inside = [q for q in nps if a <= q <= z]
                objective.append((v, len(inside)))
                for q in inside:
                    usage_terms[info.naturals[q].index].append((v, 1))
                joker_expr.append((v, (z - a + 1) - len(inside)))
                capacity.append((v, _MAX_RUN - (z - a + 1)))
            for q in positions:
                if q in info.naturals:
                    continue
                f = b.var(0, 1)
                over = [v for v, a, z in opts if a <= q <= z]
                b.linear([f, *over], [1] + [-1] * len(over), -_INF, 0)
                usage_terms[_card_at(info.suit, q).index].append((f, 1))
                fills.append((q, f))
                joker_expr.append((f, -1))
            if not t.jokers:
                b.linear([v for v, _ in joker_expr], [c for _, c in joker_expr], 0, 0)
            else:
                usage_terms[_N_NATURAL].extend(joker_expr)
                if info.jokers:
                    rj = b.var(0, info.jokers)
                    b.linear([rj] + [v for v, _ in joker_expr], [1] + [-c for _, c in joker_expr], -_INF, 0)
                    b.linear((kept, rj), (info.jokers, -1), -_INF, 0)
                    objective.append((rj, 1))
            homes.append(
                _Home(i, "run", tuple(opts), tuple(fills), info.suit, tuple(sorted(info.naturals.items())), kept=kept)
            )
        else:
            h = b.var(0, 1)
            stays: list[tuple[int, int]] = []
            for s in range(4):
                v = b.var(0, 1)
                b.linear((v, h), (1, -1), -_INF, 0)
                usage_terms[Card(Rank(info.rank), _SUITS[s]).index].append((v, 1))
                stays.append((s, v))
                if s in info.suits:
                    objective.append((v, 1))
                    b.linear((kept, v), (1, -1), -_INF, 0)
            hj = b.var(0, 4) if t.jokers else -1
            svars = [v for _, v in stays]
            extra = [hj] if hj >= 0 else []
            b.linear(svars + extra + [h], [1] * (4 + len(extra)) + [-3], 0, _INF)
            b.linear(svars + extra + [h], [1] * (4 + len(extra)) + [-4], -_INF, 0)
            b.linear([*svars, h], [1, 1, 1, 1, -1], 0, _INF)
            b.linear((kept, h), (1, -1), -_INF, 0)
            if hj >= 0:
                usage_terms[_N_NATURAL].append((hj, 1))
                if info.jokers:
                    rj = b.var(0, info.jokers)
                    b.linear((rj, hj), (1, -1), -_INF, 0)
                    b.linear((kept, rj), (info.jokers, -1), -_INF, 0)
                    objective.append((rj, 1))
            homes.append(_Home(i, "set", rank=info.rank, stays=tuple(stays), home_jokers=hj, kept=kept))
    for idx, extra_terms in enumerate(usage_terms):
        if extra_terms:
            b.append_terms(t.usage_cons[idx], extra_terms)
    if t.extras_con >= 0:
        b.append_terms(t.extras_con, capacity)
    return homes, objective


def _decode_homes(homes: Sequence[_Home], values: Sequence[int]) -> tuple[list[Piece], int]:
    pieces: list[Piece] = []
    kept = 0
    for h in homes:
        kept += values[h.kept]
        if h.kind == "run":
            chosen = [(a, z) for v, a, z in h.options if values[v]]
            if not chosen:
                continue
            a, z = chosen[0]
            nat = dict(h.naturals)
            fill = {q for q, f in h.fills if values[f]}
            slots = tuple(nat[q] if q in nat else (_card_at(h.suit, q) if q in fill else None) for q in range(a, z + 1))
            pieces.append(Piece("run", h.suit, a, slots, home=h.index))
        else:
            cards: list[Card | None] = [Card(Rank(h.rank), _SUITS[s]) for s, v in h.stays if values[v]]
            cards.extend([None] * (values[h.home_jokers] if h.home_jokers >= 0 else 0))
            if cards:
                pieces.append(Piece("set", -1, 0, tuple(cards), h.rank, home=h.index))
    return pieces, kept


def solve_least_change(
    t: Template,
    instance: cp.CpModelProto,
    first: _Response,
    old: Sequence[Meld],
    rules: ManipulationRules,
    table: Cards,
    time_limit: float,
) -> Solved | None:
    """Phase 2: with the score held at phase 1's best, keep the most old melds, move the fewest cards.

    Returns None when no solution was found in time (the caller keeps phase 1's).
    """
    proto = cp.CpModelProto()
    proto.copy_from(instance)
    b = _Builder(proto)
    usage = [v for v in t.usage if v >= 0]
    weights = [w for v, w in zip(t.usage, t.weights) if v >= 0]
    b.linear(usage, weights, first.objective, _INF)
    homes, objective = _add_homes(b, t, old, rules)
    proto.clear_objective()
    obj = proto.objective
    for v, c in objective:
        obj.vars.append(v)
        obj.coeffs.append(-c)
    hint = proto.solution_hint
    hint.vars.extend(range(t.n_vars))
    hint.values.extend(first.values[: t.n_vars])
    for h in homes:  # the hint keeps no homes
        hint.vars.append(h.kept)
        hint.values.append(0)
    r = _run(proto, time_limit, t.jokers > 0)
    if r.status not in ("optimal", "feasible"):
        return None
    pool, extras = _decode_pool(t, r.values)
    home_pieces, _ = _decode_homes(homes, r.values)
    score = sum(r.values[v] * w for v, w in zip(usage, weights))
    return Solved(
        "feasible", score, _played(t, r.values, table), (*home_pieces, *pool), extras, least_change_status=r.status
    )


def enumerate_plays(
    t: Template, instance: cp.CpModelProto, first: _Response, table: Cards, hand: Cards, time_limit: float, limit: int
) -> tuple[Cards, ...]:
    """Distinct multisets of hand cards reaching phase 1's score, by no-good cuts (at most ``limit``)."""
    import time

    deadline = time.perf_counter() + time_limit
    proto = cp.CpModelProto()
    proto.copy_from(instance)
    proto.clear_objective()
    b = _Builder(proto)
    usage = [v for v in t.usage if v >= 0]
    weights = [w for v, w in zip(t.usage, t.weights) if v >= 0]
    b.linear(usage, weights, first.objective, first.objective)
    tc, hc = _counts53(table), _counts53(hand)
    found: list[Cards] = []
    values = first.values
    while len(found) < limit:
        found.append(_played(t, values, table))
        lits: list[int] = []
        for i, v in enumerate(t.usage):
            if v < 0 or not hc[i]:
                continue
            u = values[v]
            if u > tc[i]:
                lt = b.var(0, 1)
                b.linear((v,), (1,), -_INF, u - 1, enforce=lt)
                lits.append(lt)
            if u < tc[i] + hc[i]:
                gt = b.var(0, 1)
                b.linear((v,), (1,), u + 1, _INF, enforce=gt)
                lits.append(gt)
        if not lits:
            break
        b.linear(lits, [1] * len(lits), 1, _INF)
        left = deadline - time.perf_counter()
        if left <= 0:
            break
        r = _run(proto, left, t.jokers > 0)
        if r.status not in ("optimal", "feasible"):
            break
        values = r.values
    return tuple(found)
