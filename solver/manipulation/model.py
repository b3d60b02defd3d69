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

The template and a position's instance of it (the refinement included) are
built in :mod:`solver.manipulation.model_template`; this module solves a
position's model and decodes the answer into pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from ortools.sat.python import cp_model_helper as cp

from solver.cards import Card, Cards
from solver.cpsat import parameters, solution_values, solve_proto, status_of
from solver.errors import MeldError, Status
from solver.manipulation.model_template import (
    INF,
    SET_SUITS,
    Builder,
    Instance,
    Objective,
    Template,
    _counts53,
    _instance,
    _Refinement,
    _Window,
    long_run_length,
    template,
    value_weights,
)
from solver.ranks import JOKER, N_NATURAL, card_index, natural_card
from solver.rules import ManipulationRules

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
    "long_run_length",
]


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
