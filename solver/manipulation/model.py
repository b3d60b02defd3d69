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
  of rank ``r`` with ``n_rs`` cards of suit ``s`` (``n_rs <= y_r``,
  ``3 y_r <= sum_s n_rs <= 4 y_r``); never one variable per physical card.
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
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Literal

from ortools.sat.python import cp_model_helper as cp

from solver.cards import Card, Cards, Joker, Rank, Suit
from solver.errors import MeldError
from solver.graph.runs import run_windows
from solver.melds import Meld, resolve_roles
from solver.rules import ManipulationRules
from solver.rules.base import Ace

__all__ = [
    "JOKER",
    "Objective",
    "Status",
    "Template",
    "Instance",
    "template",
    "Piece",
    "Solved",
    "solve_play",
    "exact_instance",
    "solve_least_change",
    "plain_instance",
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
        pairs = list(terms)
        lin.vars.extend([v for v, _ in pairs])
        lin.coeffs.extend([c for _, c in pairs])


@dataclass(frozen=True, slots=True)
class _Window:
    suit: int
    positions: tuple[int, ...]
    cards: tuple[int, ...]  # card index at each position
    x: int


@dataclass(frozen=True, slots=True)
class _SetGroup:
    rank: int
    y: int
    copies: tuple[int, ...]  # per suit: copies of that card in the sets of this rank


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
        return (2 if self.ace == "high" else 1, 13 if self.ace == "low" else 14)


def _card_at(suit: int, position: int) -> Card:
    return _card_from_index(_index_at(suit, position))


def _index_at(suit: int, position: int) -> int:
    """Card index of the natural at a rank position (1 and 14 are both the ace)."""
    return suit * 13 + (0 if position == 14 else position - 1)


@cache
def template(decks: int, ace: Ace, jokers: int, objective: Objective) -> Template:
    """Build (once, then cached) the model template of a rule set and objective."""
    b = _Builder(cp.CpModelProto())
    usage = [b.var(0, decks) for _ in range(_N_NATURAL)]
    u_joker = b.var(0, jokers) if jokers else -1
    copies = [b.var(0, jokers) for _ in range(_N_NATURAL)] if jokers else []
    terms: list[list[tuple[int, int]]] = [[] for _ in range(_N_NATURAL)]
    windows: list[_Window] = []
    for s in range(4):
        for positions in run_windows(ace, 3, 5):
            x = b.var(0, decks + jokers)
            cards = tuple(_card_at(s, p).index for p in positions)
            for idx in cards:
                terms[idx].append((x, 1))
            windows.append(_Window(s, positions, cards, x))
    sets: list[_SetGroup] = []
    for rank in range(1, 14):
        y = b.var(0, (4 * decks + jokers) // 3)
        ns = []
        for s in range(4):
            n = b.var(0, decks + jokers)
            b.linear((y, n), (1, -1), 0, _INF)
            terms[Card(Rank(rank), _SUITS[s]).index].append((n, 1))
            ns.append(n)
        b.linear((*ns, y), (1, 1, 1, 1, -3), 0, _INF)
        b.linear((*ns, y), (1, 1, 1, 1, -4), -_INF, 0)
        sets.append(_SetGroup(rank, y, tuple(ns)))
    usage_cons = []
    for idx in range(_N_NATURAL):
        vs = [v for v, _ in terms[idx]] + [usage[idx]]
        cs = [c for _, c in terms[idx]] + [-1]
        if jokers:
            vs.append(copies[idx])
            cs.append(-1)
        usage_cons.append(b.linear(vs, cs, 0, 0))
    if jokers:
        b.linear([*copies, u_joker], [1] * _N_NATURAL + [-1], 0, 0)
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
    return [*counts[:_N_NATURAL], counts[JOKER.index]]


@dataclass(frozen=True, slots=True)
class _Refinement:
    """The exact joker model: natural copies per window position and per set suit."""

    windows: tuple[tuple[int, ...], ...]  # per template window: natural count per position
    sets: tuple[tuple[int, ...], ...]  # per set group: natural count per suit
    natural_cons: tuple[int, ...]  # per card: natural copies in pieces and homes - usage = 0


@dataclass(slots=True)
class Instance:
    """One position's model (a copy of the template) and, if added, the exact joker refinement.

    ``available``: copies of each natural card on the table and in the hand.
    """

    proto: cp.CpModelProto
    refinement: _Refinement | None = None
    jokers_in_play: int = 0
    available: tuple[int, ...] = ()


def _refine(b: _Builder, t: Template) -> _Refinement:
    """Natural copies per piece slot: every piece keeps a natural card (no meld of jokers only)."""
    naturals: list[list[tuple[int, int]]] = [[] for _ in range(_N_NATURAL)]
    wins = []
    for w in t.windows:
        nats = []
        for idx in w.cards:
            n = b.var(0, t.decks)
            b.linear((w.x, n), (1, -1), 0, _INF)
            naturals[idx].append((n, 1))
            nats.append(n)
        b.linear((*nats, w.x), (1,) * len(nats) + (-1,), 0, _INF)
        wins.append(tuple(nats))
    groups = []
    for g in t.sets:
        nats = []
        for s, copies in enumerate(g.copies):
            n = b.var(0, t.decks)
            b.linear((copies, n), (1, -1), 0, _INF)
            naturals[Card(Rank(g.rank), _SUITS[s]).index].append((n, 1))
            nats.append(n)
        b.linear((*nats, g.y), (1, 1, 1, 1, -1), 0, _INF)
        groups.append(tuple(nats))
    cons = []
    for idx in range(_N_NATURAL):
        vs = [v for v, _ in naturals[idx]] + [t.usage[idx]]
        cs = [c for _, c in naturals[idx]] + [-1]
        cons.append(b.linear(vs, cs, 0, 0))
    return _Refinement(tuple(wins), tuple(groups), tuple(cons))


def _instance(t: Template, table: Cards, hand: Cards, exact: bool = False) -> Instance:
    proto = cp.CpModelProto()
    proto.copy_from(t.proto)
    tc, hc = _counts53(table), _counts53(hand)
    for v, lo, extra in zip(t.usage, tc, hc):
        if v < 0:
            continue
        dom = proto.variables[v].domain
        dom[0] = lo
        dom[1] = lo + extra
    jokers = tc[_N_NATURAL] + hc[_N_NATURAL]
    available = tuple(a + b for a, b in zip(tc[:_N_NATURAL], hc[:_N_NATURAL]))
    refinement = _refine(_Builder(proto), t) if exact and jokers >= 3 else None
    return Instance(proto, refinement, jokers, available)


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


def _run(proto: cp.CpModelProto, time_limit: float) -> _Response:
    """Solve with the parameters that measured fastest on these small, tight models.

    Presolve, probing, symmetry detection and the generic cut generators are
    off: each measured slower here (docs/decisions-manipulation.md), the LP
    relaxation alone being tight enough.
    """
    params = cp.SatParameters()
    params.num_workers = 1 if len(proto.variables) < 4000 else 2
    params.max_time_in_seconds = max(0.001, time_limit)
    params.cp_model_presolve = False
    params.cp_model_probing_level = 0
    params.symmetry_level = 0
    params.add_cg_cuts = False
    params.add_mir_cuts = False
    params.add_zero_half_cuts = False
    params.add_clique_cuts = False
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
    exact: bool = field(default=False, compare=False)


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


def _decode_pool(
    t: Template, values: Sequence[int], refinement: _Refinement | None, home_jokers: Sequence[int] = ()
) -> list[Piece]:
    """The pool's pieces; ``home_jokers[c]``: jokers standing for card ``c`` inside homes.

    With the refinement, natural counts per slot are the model's (each piece
    keeps one: round robin). Without it, the jokers standing for each card
    go to the pieces holding that card that keep the most naturals.
    """
    slots: list[list[int | None]] = []  # per piece: card index per slot, None for a joker
    shape: list[tuple[str, int, int]] = []  # ("run", suit, start) or ("set", rank, 0)
    for k, w in enumerate(t.windows):
        x = values[w.x]
        if not x:
            continue
        if refinement is None:
            rows: list[list[int | None]] = [list(w.cards) for _ in range(x)]
        else:
            rows = [[None] * len(w.cards) for _ in range(x)]
            i = 0
            for p, n in enumerate(refinement.windows[k]):
                for _ in range(values[n]):  # round robin: each piece gets a natural, no slot twice
                    rows[i % x][p] = w.cards[p]
                    i += 1
        for row in rows:
            slots.append(row)
            shape.append(("run", w.suit, w.positions[0]))
    for k, g in enumerate(t.sets):
        y = values[g.y]
        if not y:
            continue
        members: list[list[int | None]] = [[] for _ in range(y)]
        jokers = 0
        i = 0
        for s, copies in enumerate(g.copies):
            idx = Card(Rank(g.rank), _SUITS[s]).index
            naturals = values[copies] if refinement is None else values[refinement.sets[k][s]]
            jokers += values[copies] - naturals
            for _ in range(naturals):  # round robin: no suit twice in a set, every set a natural
                members[i % y].append(idx)
                i += 1
        for m in members:  # jokers (refined model): every set to 3 cards, then up to 4
            while len(m) < 3 and jokers:
                m.append(None)
                jokers -= 1
        for m in members:
            while len(m) < 4 and jokers:
                m.append(None)
                jokers -= 1
        for m in members:
            slots.append(m)
            shape.append(("set", g.rank, 0))
    if refinement is None and t.joker_copies:
        natural = [sum(1 for c in row if c is not None) for row in slots]
        holders: dict[int, list[tuple[int, int]]] = {}
        for r, row in enumerate(slots):
            for i, c in enumerate(row):
                if c is not None:
                    holders.setdefault(c, []).append((r, i))
        for idx, v in enumerate(t.joker_copies):
            jokers = values[v] - (home_jokers[idx] if home_jokers else 0)
            if jokers <= 0:
                continue
            for r, i in sorted(holders.get(idx, ()), key=lambda ri: -natural[ri[0]])[:jokers]:
                slots[r][i] = None
                natural[r] -= 1
    pieces = []
    for (kind, a, start), row in zip(shape, slots):
        cards = tuple(None if c is None else _card_from_index(c) for c in row)
        if kind == "run":
            pieces.append(Piece("run", a, start, cards))
        else:
            pieces.append(Piece("set", -1, 0, cards, a))
    return pieces


def _check_cards(t: Template, table: Cards, hand: Cards) -> None:
    rules = ManipulationRules(decks=t.decks, ace=t.ace, jokers=t.jokers)
    (table + hand).check_against(rules.deck, "table and hand together")


def plain_instance(t: Template, table: Cards, hand: Cards) -> Instance:
    """The position's model (jokers as role copies), without solving it."""
    _check_cards(t, table, hand)
    return _instance(t, table, hand)


def exact_instance(t: Template, table: Cards, hand: Cards) -> Instance:
    """The position's model with the exact joker refinement (when three or more jokers are in play)."""
    return _instance(t, table, hand, exact=True)


def solve_play(
    t: Template, table: Cards, hand: Cards, time_limit: float, *, exact: bool = False
) -> tuple[Solved, Instance, _Response]:
    """Phase 1: the best score; returns the decoded pool solution, the instance and the response.

    ``exact`` adds the refinement that forbids melds of jokers only (needed
    only with three or more jokers in play, when the decoder cannot repair).
    """
    _check_cards(t, table, hand)
    inst = _instance(t, table, hand, exact)
    r = _run(inst.proto, time_limit)
    if r.status == "infeasible":
        raise MeldError("the table cannot be arranged into valid melds")
    if r.status == "unknown":
        return Solved("unknown", 0, Cards(), ()), inst, r
    pieces = _decode_pool(t, r.values, inst.refinement)
    played = _played(t, r.values, table)
    return Solved(r.status, r.objective, played, tuple(pieces), exact=inst.refinement is not None), inst, r


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


@lru_cache(maxsize=4096)
def _analyse(meld: Meld, rules: ManipulationRules) -> _OldRun | _OldSet:
    """An old meld's kind, natural cards (runs: by position) and jokers, as the validator reads it."""
    cards = meld.cards
    if not any(c.is_joker for c in cards):  # fast path: the kind is plain to see
        ranks = [int(c.rank or 0) for c in cards]
        if len(set(ranks)) == 1:
            return _OldSet(ranks[0], tuple(_SUITS.index(c.suit) for c in cards if c.suit is not None), 0)
        high_ace = _ace_high(rules.ace, ranks)
        suit = _SUITS.index(cards[0].suit) if cards[0].suit is not None else 0
        return _OldRun(suit, {(14 if r == 1 and high_ace else r): c for r, c in zip(ranks, cards)}, 0)
    spec = rules.meld_spec
    kind, roles = resolve_roles(meld, spec)
    jokers = sum(1 for c in cards if spec.is_wild(c))
    if kind == "set":
        rank = next(int(c.rank) for c in roles if c.rank is not None)
        suits = tuple(_SUITS.index(c.suit) for c in cards if not spec.is_wild(c) and c.suit is not None)
        return _OldSet(rank, suits, jokers)
    ranks = [int(r.rank) for r in roles if r.rank is not None]
    high_ace = _ace_high(rules.ace, ranks)
    naturals: dict[int, Card] = {}
    suit = 0
    for c in cards:
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
    fills: tuple[tuple[int, int], ...] = ()  # run: (position, joker var) where a joker may fill
    suit: int = 0
    naturals: tuple[tuple[int, Card], ...] = ()
    rank: int = 0
    stays: tuple[tuple[int, int, int], ...] = ()  # set: (suit, copy var, joker var or -1)
    kept: int = -1


class _Terms:
    """Terms the homes add to the template's per-card constraints."""

    def __init__(self) -> None:
        self.copies: list[list[tuple[int, int]]] = [[] for _ in range(_N_NATURAL)]
        self.naturals: list[list[tuple[int, int]]] = [[] for _ in range(_N_NATURAL)]
        self.jokers: list[list[int]] = [[] for _ in range(_N_NATURAL)]

    def copy(self, idx: int, var: int, joker: int = -1) -> None:
        """A copy of card ``idx`` in a home (a joker when ``joker`` is set)."""
        self.copies[idx].append((var, 1))
        self.naturals[idx].append((var, 1))
        if joker >= 0:
            self.joker(idx, joker)

    def joker(self, idx: int, joker: int) -> None:
        """One of the home's copies of card ``idx`` is a joker when ``joker`` is set."""
        self.naturals[idx].append((joker, -1))
        self.jokers[idx].append(joker)


def _add_homes(
    b: _Builder, t: Template, old: Sequence[Meld], rules: ManipulationRules, instance: Instance
) -> tuple[list[_Home], list[tuple[int, int]]]:
    lo_pos, hi_pos = t.pos_range
    big = sum(len(m) for m in old) + 1
    objective: list[tuple[int, int]] = []
    homes: list[_Home] = []
    terms = _Terms()
    wild = t.jokers > 0
    refinement = instance.refinement
    available, jokers = instance.available, instance.jokers_in_play
    for i, meld in enumerate(old):
        info = _analyse(meld, rules)
        kept = b.var(0, 1)
        objective.append((kept, big))
        held: list[int] = []  # joker slots of this home
        if isinstance(info, _OldRun):
            nps = sorted(info.naturals)
            nlo, nhi = nps[0], nps[-1]
            ext = 2 + info.jokers
            opts: list[tuple[int, int, int]] = []
            missing = {q for q in range(lo_pos, hi_pos + 1) if not available[_index_at(info.suit, q)]}
            for a in range(max(lo_pos, nlo - ext), nhi + 1):
                for z in range(max(a + 2, nlo), min(hi_pos, nhi + ext) + 1):
                    if z - a + 1 > _MAX_RUN or not any(a <= q <= z for q in nps):
                        continue
                    if sum(1 for q in range(a, z + 1) if q in missing and q not in info.naturals) > jokers:
                        continue  # more cards no one has than jokers in play
                    opts.append((b.var(0, 1), a, z))
            b.linear([v for v, _, _ in opts], [1] * len(opts), 0, 1)
            covering = [v for v, a, z in opts if a <= nlo and z >= nhi]
            b.linear([kept, *covering], [1] + [-1] * len(covering), -_INF, 0)
            for v, a, z in opts:
                inside = [q for q in nps if a <= q <= z]
                objective.append((v, len(inside)))
                for q in inside:
                    terms.copy(info.naturals[q].index, v)
            fills: list[tuple[int, int]] = []
            for q in sorted({q for _, a, z in opts for q in range(a, z + 1)} - set(nps)):
                # a copy of the card at q, there exactly when the chosen window covers q
                over = [v for v, a, z in opts if a <= q <= z]
                idx = _index_at(info.suit, q)
                for v in over:
                    terms.copy(idx, v)
                if wild:  # the copy may be a joker standing for the card
                    j = b.var(0, 1)
                    b.linear([j, *over], [1] + [-1] * len(over), -_INF, 0)
                    held.append(j)
                    terms.joker(idx, j)
                    fills.append((q, j))
            home = _Home(
                i, "run", tuple(opts), tuple(fills), info.suit, tuple(sorted(info.naturals.items())), kept=kept
            )
        else:
            h = b.var(0, 1)
            stays: list[tuple[int, int, int]] = []
            naturals_in: list[tuple[int, int]] = []
            for s in range(4):
                idx = s * 13 + info.rank - 1
                v = b.var(0, 1 if available[idx] or jokers else 0)
                b.linear((v, h), (1, -1), -_INF, 0)
                j = -1
                if s in info.suits:  # the old natural itself (WLOG: never a joker in its place)
                    objective.append((v, 1))
                    b.linear((kept, v), (1, -1), -_INF, 0)
                    naturals_in.append((v, 1))
                else:
                    naturals_in.append((v, 1))
                    if wild:
                        j = b.var(0, 1)
                        b.linear((j, v), (1, -1), -_INF, 0)
                        held.append(j)
                        naturals_in.append((j, -1))
                terms.copy(idx, v, j)
                stays.append((s, v, j))
            copies = [v for _, v, _ in stays]
            b.linear([*copies, h], [1, 1, 1, 1, -3], 0, _INF)
            b.linear([*copies, h], [1, 1, 1, 1, -4], -_INF, 0)
            if wild:  # a natural card in every home (without jokers every copy is one)
                b.linear([v for v, _ in naturals_in] + [h], [c for _, c in naturals_in] + [-1], 0, _INF)
            b.linear((kept, h), (1, -1), -_INF, 0)
            home = _Home(i, "set", rank=info.rank, stays=tuple(stays), kept=kept)
        if info.jokers:  # the old jokers stay home: counted as staying, all of them for a kept meld
            rj = b.var(0, info.jokers)
            b.linear([rj, *held], [1] + [-1] * len(held), -_INF, 0)
            b.linear((kept, rj), (info.jokers, -1), -_INF, 0)
            objective.append((rj, 1))
        homes.append(home)
    for idx in range(_N_NATURAL):
        if terms.copies[idx]:
            b.append_terms(t.usage_cons[idx], terms.copies[idx])
        if refinement is not None and terms.naturals[idx]:
            b.append_terms(refinement.natural_cons[idx], terms.naturals[idx])
        elif wild and terms.naturals[idx]:  # homes hold no more naturals of a card than are played
            nats = terms.naturals[idx]
            b.linear([v for v, _ in nats] + [t.usage[idx]], [c for _, c in nats] + [-1], -_INF, 0)
        if terms.jokers[idx]:  # joker slots at this card are jokers standing for it
            js = terms.jokers[idx]
            b.linear([*js, t.joker_copies[idx]], [1] * len(js) + [-1], -_INF, 0)
    return homes, objective


def _decode_homes(homes: Sequence[_Home], values: Sequence[int]) -> tuple[list[Piece], list[int]]:
    """Home pieces, and the jokers standing for each card inside homes."""
    pieces: list[Piece] = []
    jokers = [0] * _N_NATURAL
    for h in homes:
        if h.kind == "run":
            chosen = [(a, z) for v, a, z in h.options if values[v]]
            if not chosen:
                continue
            a, z = chosen[0]
            nat = dict(h.naturals)
            joker_at = {q for q, j in h.fills if values[j]}
            slots: list[Card | None] = []
            for q in range(a, z + 1):
                if q in nat:
                    slots.append(nat[q])
                elif q in joker_at:
                    slots.append(None)
                    jokers[_card_at(h.suit, q).index] += 1
                else:
                    slots.append(_card_at(h.suit, q))
            pieces.append(Piece("run", h.suit, a, tuple(slots), home=h.index))
        else:
            cards: list[Card | None] = []
            for s, v, j in h.stays:
                if not values[v]:
                    continue
                card = Card(Rank(h.rank), _SUITS[s])
                if j >= 0 and values[j]:
                    cards.append(None)
                    jokers[card.index] += 1
                else:
                    cards.append(card)
            if cards:
                pieces.append(Piece("set", -1, 0, tuple(cards), h.rank, home=h.index))
    return pieces, jokers


def solve_least_change(
    t: Template,
    instance: Instance,
    score: int,
    old: Sequence[Meld],
    rules: ManipulationRules,
    table: Cards,
    time_limit: float,
) -> Solved | None:
    """Phase 2: with the score held at phase 1's best, keep the most old melds, move the fewest cards.

    ``score`` is the best objective over the whole new table's cards (old
    ones included). Returns None when no solution was found in time (the
    caller keeps phase 1's).
    """
    proto = cp.CpModelProto()
    proto.copy_from(instance.proto)
    b = _Builder(proto)
    usage = [v for v in t.usage if v >= 0]
    weights = [w for v, w in zip(t.usage, t.weights) if v >= 0]
    b.linear(usage, weights, score, _INF)
    homes, objective = _add_homes(b, t, old, rules, instance)
    proto.clear_objective()
    obj = proto.objective
    for v, c in objective:
        obj.vars.append(v)
        obj.coeffs.append(-c)
    r = _run(proto, time_limit)
    if r.status not in ("optimal", "feasible"):
        return None
    home_pieces, home_jokers = _decode_homes(homes, r.values)
    pool = _decode_pool(t, r.values, instance.refinement, home_jokers)
    score = sum(r.values[v] * w for v, w in zip(usage, weights))
    return Solved(
        "feasible",
        score,
        _played(t, r.values, table),
        (*home_pieces, *pool),
        least_change_status=r.status,
        exact=instance.refinement is not None,
    )


def enumerate_plays(
    t: Template, instance: Instance, first: _Response, table: Cards, hand: Cards, time_limit: float, limit: int
) -> tuple[Cards, ...]:
    """Distinct multisets of hand cards reaching phase 1's score, by no-good cuts (at most ``limit``).

    ``instance`` must be exact (refined) when three or more jokers are in play.
    """
    import time

    deadline = time.perf_counter() + time_limit
    proto = cp.CpModelProto()
    proto.copy_from(instance.proto)
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
        r = _run(proto, left)
        if r.status not in ("optimal", "feasible"):
            break
        values = r.values
    return tuple(found)
