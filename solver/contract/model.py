"""CP-SAT models of Contract Shanghai: contract check, distance, lay-off.

Counts, not copies: a hand is a vector of card multiplicities, a set takes a
number of naturals of its rank, a run takes one card per node of its window.
Candidates (the set ranks and run windows a hand can support) are pruned in
plain Python before the model is built, so models stay small; every model
runs with ``num_workers = 1`` and a time limit, and reports ``optimal`` only
when CP-SAT proves it.

The public API is :mod:`solver.contract`; the referee that checks these
answers is :mod:`solver.contract.referee`, which shares no code with this
module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal

from ortools.sat.python import cp_model

from solver.cards import Card, Cards, Rank, Suit
from solver.contract.wilds import RunShape, SetShape, position_card, run_shapes, set_shape
from solver.graph.runs import rank_graph, run_windows
from solver.melds import Meld, meld_kind
from solver.rules.contract import ContractRules, Requirement

__all__ = [
    "SolverTimeout",
    "Plan",
    "DistancePlan",
    "LayoffPlan",
    "min_length",
    "solve_lay_down",
    "solve_distance",
    "solve_layoff",
]

Expr = Any
"""A CP-SAT linear expression (or a plain int); OR-Tools' own stubs type these loosely."""

BIG = 10_000
"""Weight of the primary objective over the secondary one (hands hold far fewer cards)."""


class SolverTimeout(RuntimeError):
    """CP-SAT hit its time limit before finding any answer (neither a plan nor a proof of none)."""


def min_length(req: Requirement, rules: ContractRules) -> int:
    """The shortest meld that meets ``req`` under ``rules`` (the larger of the two minimums)."""
    return max(req.min_len, rules.set_min if req.kind == "set" else rules.run_min)


def _cap(rules: ContractRules, naturals: int) -> int:
    """Most wilds a meld with ``naturals`` natural cards may hold (plain Python)."""
    if naturals <= 0:
        return 0
    return {"fewer": naturals - 1, "half": naturals}.get(rules.wild_limit, 1_000)


def _solver(time_limit: float, *, presolve: bool = True, probing: bool = True) -> cp_model.CpSolver:
    """A one-worker solver with a time limit (presolve and probing cost more than they save on tiny models)."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.max_time_in_seconds = max(0.001, time_limit)
    if not presolve:
        solver.parameters.cp_model_presolve = False
    if not probing:
        solver.parameters.cp_model_probing_level = 0
    return solver


def _status(code: Any) -> str | None:
    """'optimal', 'feasible', or None for infeasible; raises on a timeout without answer."""
    if code == cp_model.OPTIMAL:
        return "optimal"
    if code == cp_model.FEASIBLE:
        return "feasible"
    if code == cp_model.INFEASIBLE:
        return None
    if code == cp_model.UNKNOWN:
        raise SolverTimeout("CP-SAT found no answer within the time limit")
    raise RuntimeError(f"CP-SAT failed: status {code}")  # pragma: no cover - model bug


def _limit(model: cp_model.CpModel, rules: ContractRules, wilds: Expr, naturals: Expr, active: Expr) -> None:
    """Post ``wilds <= cap(naturals)`` for a meld that exists when ``active`` is 1."""
    if rules.wild_limit == "fewer":
        model.add(wilds <= naturals - active)
    elif rules.wild_limit == "half":
        model.add(wilds <= naturals)


@cache
def _suit_windows(ace: str, length: int, suit: Suit) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every run window of ``length``+ nodes in ``suit``, with the card index of each node."""
    return tuple((w, tuple(position_card(p, suit).index for p in w)) for w in run_windows(ace, length, 13))


def _natural_counts(cards: Cards, wilds: frozenset[Card]) -> list[int]:
    """Multiplicities by card index, wild cards zeroed."""
    counts = list(cards.counts)
    for w in wilds:
        counts[w.index] = 0
    return counts


# ---------------------------------------------------------------- lay-down


@dataclass(frozen=True, slots=True)
class Plan:
    """A lay-down found by the model: one meld per requirement with wild roles written."""

    melds: tuple[Meld, ...]
    used: Cards
    extras: Cards
    status: str


@dataclass(frozen=True, slots=True)
class DistancePlan:
    """The fewest extra cards, one completion, and the cards that appear in some completion."""

    missing: int
    plan: Plan
    outs: Cards | None
    status: str


CandKey = Rank | tuple[Suit, tuple[int, ...]]


@dataclass
class _SetCand:
    req: int
    rank: Rank
    sel: cp_model.IntVar
    nh: cp_model.IntVar | int
    nx: cp_model.IntVar | int
    w: cp_model.IntVar


@dataclass
class _RunCand:
    req: int
    suit: Suit
    window: tuple[int, ...]
    sel: cp_model.IntVar
    h: dict[int, cp_model.IntVar]
    x: dict[int, cp_model.IntVar]
    length: int = 0


@dataclass
class _ContractModel:
    hand: Cards
    rules: ContractRules
    contract: tuple[Requirement, ...]
    pool: Cards | None = None
    max_left: int | None = None
    allow: Callable[[int, Rank | tuple[Suit, tuple[int, ...]], int], bool] | None = None
    costs: list[dict[CandKey, int]] | None = None
    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    sets: list[_SetCand] = field(default_factory=list)
    runs: list[_RunCand] = field(default_factory=list)
    feasible: bool = True

    @staticmethod
    def _suit_cards(suit: Suit) -> tuple[Card, ...]:
        return tuple(Card(r, suit) for r in Rank)

    def build(self) -> None:
        rules, model = self.rules, self.model
        wilds = rules.wilds
        hand_nat = {c: n for c, n in self.hand.items() if c not in wilds}
        hand_wild = [(c, n) for c, n in self.hand.items() if c in wilds]
        pool = self.pool or Cards()
        pool_nat = {c: n for c, n in pool.items() if c not in wilds}
        pool_wild = [(c, n) for c, n in pool.items() if c in wilds]
        n_hw = sum(n for _, n in hand_wild)
        n_pw = sum(n for _, n in pool_wild)
        n_w = n_hw + n_pw
        distance = self.pool is not None
        hn = _natural_counts(self.hand, wilds)
        pn = _natural_counts(pool, wilds)
        rank_hand: dict[Rank, int] = {}
        rank_pool: dict[Rank, int] = {}
        for c, n in hand_nat.items():
            assert c.rank is not None
            rank_hand[c.rank] = rank_hand.get(c.rank, 0) + n
        for c, n in pool_nat.items():
            assert c.rank is not None
            rank_pool[c.rank] = rank_pool.get(c.rank, 0) + n

        wild_terms: list[Expr] = []
        cut_terms: list[Expr] = []
        per_req: list[list[cp_model.IntVar]] = [[] for _ in self.contract]
        for i, req in enumerate(self.contract):
            m = min_length(req, rules)
            if req.kind == "set":
                for rank in Rank:
                    nh_max = rank_hand.get(rank, 0)
                    np_max = rank_pool.get(rank, 0)
                    nat = nh_max + np_max
                    if nat == 0 or nat + min(n_w, _cap(rules, nat)) < m:
                        continue
                    if self.allow is not None and not self.allow(i, rank, m):
                        continue
                    sel = model.new_bool_var(f"s{i}_{rank}")
                    nh: cp_model.IntVar | int = model.new_int_var(0, nh_max, f"sh{i}_{rank}") if nh_max else 0
                    nx: cp_model.IntVar | int = model.new_int_var(0, np_max, f"sx{i}_{rank}") if np_max else 0
                    w = model.new_int_var(0, n_w, f"sw{i}_{rank}")
                    naturals = nh + nx
                    model.add(naturals <= nat * sel)
                    model.add(naturals >= sel)
                    model.add(w <= n_w * sel)
                    if distance:
                        # a set longer than its minimum never needs fewer extra cards
                        model.add(naturals + w == m * sel)
                    else:
                        model.add(naturals + w >= m * sel)
                    _limit(model, rules, w, naturals, sel)
                    wild_terms.append(w)
                    self.sets.append(_SetCand(i, rank, sel, nh, nx, w))
                    per_req[i].append(sel)
                    if self.costs is not None:
                        cut_terms.append(self.costs[i][rank] * sel)
            else:
                for suit in Suit:
                    if not distance and not any(hn[c.index] for c in self._suit_cards(suit)):
                        continue
                    for window, idx in _suit_windows(rules.ace, m, suit):
                        in_hand = [hn[k] > 0 for k in idx]
                        in_pool = [pn[k] > 0 for k in idx]
                        length = len(window)
                        nh_in = sum(in_hand)
                        if not distance:
                            if nh_in == 0 or length - nh_in > min(n_hw, _cap(rules, nh_in)):
                                continue
                        else:
                            nat = sum(a or b for a, b in zip(in_hand, in_pool))
                            if nat == 0 or length - nat > min(n_w, _cap(rules, nat)):
                                continue
                            if self.allow is not None and not self.allow(i, (suit, window), m):
                                continue
                        sel = model.new_bool_var(f"r{i}_{suit}_{window[0]}_{length}")
                        h = {p: model.new_bool_var("") for p, ok in zip(window, in_hand) if ok}
                        x = {p: model.new_bool_var("") for p, ok in zip(window, in_pool) if ok}
                        for p in window:
                            if p in h or p in x:
                                model.add(h.get(p, 0) + x.get(p, 0) <= sel)
                        naturals = sum(h.values()) + sum(x.values())
                        wild_count = length * sel - naturals
                        model.add(naturals >= sel)
                        _limit(model, rules, wild_count, naturals, sel)
                        wild_terms.append(wild_count)
                        cand = _RunCand(i, suit, window, sel, h, x, length)
                        self.runs.append(cand)
                        per_req[i].append(sel)
                        if self.costs is not None:
                            cut_terms.append(self.costs[i][(suit, window)] * sel)
            if not per_req[i]:
                self.feasible = False
                return
            model.add_exactly_one(per_req[i])
        # identical requirements: break the symmetry by candidate order
        for i in range(len(self.contract) - 1):
            if self.contract[i] == self.contract[i + 1]:
                a = sum(k * s for k, s in zip(range(len(per_req[i])), per_req[i]))
                b = sum(k * s for k, s in zip(range(len(per_req[i + 1])), per_req[i + 1]))
                model.add(a <= b)
        if rules.distinct_set_ranks:
            by_rank: dict[Rank, list[cp_model.IntVar]] = {}
            for s in self.sets:
                by_rank.setdefault(s.rank, []).append(s.sel)
            for sels in by_rank.values():
                if len(sels) > 1:
                    model.add(sum(sels) <= 1)
        # natural cards: runs take exact cards, sets any card of their rank
        card_hand: dict[Card, list[cp_model.IntVar]] = {}
        card_pool: dict[Card, list[cp_model.IntVar]] = {}
        for r in self.runs:
            for p, v in r.h.items():
                card_hand.setdefault(position_card(p, r.suit), []).append(v)
            for p, v in r.x.items():
                card_pool.setdefault(position_card(p, r.suit), []).append(v)
        for c, vs in card_hand.items():
            if len(vs) > hand_nat[c]:
                model.add(sum(vs) <= hand_nat[c])
        for c, vs in card_pool.items():
            if len(vs) > pool_nat[c]:
                model.add(sum(vs) <= pool_nat[c])
        for rank in Rank:
            terms = [s.nh for s in self.sets if s.rank == rank]
            terms += [v for c, vs in card_hand.items() if c.rank == rank for v in vs]
            if len(terms) > 1:
                model.add(sum(terms) <= rank_hand.get(rank, 0))
        for rank in Rank:
            terms = [s.nx for s in self.sets if s.rank == rank and not isinstance(s.nx, int)]
            terms += [v for c, vs in card_pool.items() if c.rank == rank for v in vs]
            if len(terms) > 1:
                model.add(sum(terms) <= rank_pool.get(rank, 0))
        # wilds: hand wilds by type (their points differ), then extra wilds from the pool
        self.hw = {c: model.new_int_var(0, n, f"hw_{c}") for c, n in hand_wild}
        self.xw = {c: model.new_int_var(0, n, f"xw_{c}") for c, n in pool_wild}
        model.add(sum(wild_terms) == sum(self.hw.values()) + sum(self.xw.values()))
        hand_used = (
            sum(s.nh for s in self.sets) + sum(v for r in self.runs for v in r.h.values()) + sum(self.hw.values())
        )
        self.hand_used = hand_used
        if self.max_left is not None:
            model.add(hand_used >= len(self.hand) - self.max_left)
        # extra cards: runs and wilds by card, sets by rank (any suit of the rank will do)
        extras: dict[Card | Rank, list[Expr]] = {}
        for s in self.sets:
            if not isinstance(s.nx, int):
                extras.setdefault(s.rank, []).append(s.nx)
        for c, vs in card_pool.items():
            extras.setdefault(c, []).extend(vs)
        for c, v in self.xw.items():
            extras.setdefault(c, []).append(v)
        self.extras: dict[Card | Rank, Expr] = {k: sum(vs) for k, vs in extras.items()}
        if distance:
            self.missing = sum(self.extras.values())
            if cut_terms:
                # each meld needs at least its cost on its own: a strong bound for the LP
                model.add(self.missing >= sum(cut_terms))
            model.minimize(self.missing)
        else:
            pts = rules.points
            points = (
                sum(pts(Card(s.rank, Suit.HEARTS)) * s.nh for s in self.sets)
                + sum(pts(position_card(p, r.suit)) * v for r in self.runs for p, v in r.h.items())
                + sum(pts(c) * v for c, v in self.hw.items())
            )
            model.maximize(BIG * points + hand_used)

    def decode(self, solver: cp_model.CpSolver, status: str) -> Plan:
        wilds = self.rules.wilds
        val = solver.value
        left = {c: n for c, n in self.hand.items() if c not in wilds}
        pool_left = {c: n for c, n in (self.pool or Cards()).items() if c not in wilds}
        melds: list[tuple[int, list[Card], list[Card | None], str, Card | None]] = []
        hand_used: list[Card] = []
        extras: list[Card] = []
        wild_cards: list[tuple[Card, bool]] = [(c, True) for c, v in self.hw.items() for _ in range(val(v))] + [
            (c, False) for c, v in self.xw.items() for _ in range(val(v))
        ]
        wild_iter = iter(wild_cards)
        pending_sets = []
        for r in self.runs:
            if not val(r.sel):
                continue
            cards: list[Card] = []
            roles: list[Card | None] = []
            for p in r.window:
                card = position_card(p, r.suit)
                if p in r.h and val(r.h[p]):
                    left[card] -= 1
                    hand_used.append(card)
                    cards.append(card)
                    roles.append(None)
                elif p in r.x and val(r.x[p]):
                    pool_left[card] -= 1
                    extras.append(card)
                    cards.append(card)
                    roles.append(None)
                else:
                    wild, from_hand = next(wild_iter)
                    (hand_used if from_hand else extras).append(wild)
                    cards.append(wild)
                    roles.append(card)
            melds.append((r.req, cards, roles, "run", None))
        for s in self.sets:
            if val(s.sel):
                pending_sets.append(s)
        for s in pending_sets:
            cards = []
            need = val(s.nh) if not isinstance(s.nh, int) else 0
            for c in list(left):
                while need and left[c] and c.rank == s.rank:
                    left[c] -= 1
                    need -= 1
                    cards.append(c)
                    hand_used.append(c)
            need = val(s.nx) if not isinstance(s.nx, int) else 0
            for c in list(pool_left):
                while need and pool_left[c] and c.rank == s.rank:
                    pool_left[c] -= 1
                    need -= 1
                    cards.append(c)
                    extras.append(c)
            role = Card(s.rank, cards[0].suit)
            roles = [None] * len(cards)
            for _ in range(val(s.w)):
                wild, from_hand = next(wild_iter)
                (hand_used if from_hand else extras).append(wild)
                cards.append(wild)
                roles.append(role)
            melds.append((s.req, cards, roles, "set", None))
        melds.sort(key=lambda t: t[0])
        out = tuple(Meld(tuple(c), tuple(r)) for _, c, r, _, _ in melds)
        return Plan(out, Cards(hand_used), Cards(extras), status)


def solve_lay_down(
    hand: Cards,
    rules: ContractRules,
    contract: Sequence[Requirement],
    *,
    max_left: int | None = None,
    time_limit: float = 5.0,
) -> Plan | None:
    """The lay-down of ``contract`` from ``hand`` that leaves the fewest points (then cards) in hand.

    With ``max_left``, at most that many cards may stay in hand. None when
    the contract cannot be made.
    """
    m = _ContractModel(hand, rules, tuple(contract), None, max_left)
    m.build()
    if not m.feasible:
        return None
    solver = _solver(time_limit, presolve=False)
    status = _status(solver.solve(m.model))
    if status is None:
        return None
    return m.decode(solver, status)


def _fill_cost(rules: ContractRules, length: int, nh: int, xa: int, hw: int, pw: int) -> int | None:
    """Fewest extra cards to fill a meld of ``length`` with ``nh`` hand naturals, ``xa`` extra naturals
    available, ``hw`` hand wilds and ``pw`` extra wilds (None if impossible)."""
    best: int | None = None
    for xn in range(0, min(xa, max(0, length - nh)) + 1):
        n = min(nh, length) + xn
        w = length - n
        if n == 0 or w > _cap(rules, n) or w > hw + pw:
            continue
        cost = xn + max(0, w - hw)
        if best is None or cost < best:
            best = cost
    return best


def _standalone_costs(
    hand: Cards, rules: ContractRules, contract: Sequence[Requirement], pool: Cards
) -> list[dict[CandKey, int]]:
    """For each requirement, each candidate's fewest extra cards on its own (a lower bound)."""
    wilds = rules.wilds
    hw = sum(n for c, n in hand.items() if c in wilds)
    pw = sum(n for c, n in pool.items() if c in wilds)
    rank_hand: dict[Rank, int] = {}
    rank_pool: dict[Rank, int] = {}
    for cards, into in ((hand, rank_hand), (pool, rank_pool)):
        for c, n in cards.items():
            if c not in wilds and c.rank is not None:
                into[c.rank] = into.get(c.rank, 0) + n
    hn = _natural_counts(hand, wilds)
    pn = _natural_counts(pool, wilds)
    out: list[dict[CandKey, int]] = []
    for req in contract:
        m = min_length(req, rules)
        costs: dict[CandKey, int] = {}
        if req.kind == "set":
            for rank in Rank:
                nh, xa = rank_hand.get(rank, 0), rank_pool.get(rank, 0)
                found = [
                    _fill_cost(rules, length, nh, xa, hw, pw) for length in range(m, max(m, nh + xa + hw + pw) + 1)
                ]
                ok = [c for c in found if c is not None]
                if ok:
                    costs[rank] = min(ok)
        else:
            for suit in Suit:
                for window, idx in _suit_windows(rules.ace, m, suit):
                    nh = sum(1 for k in idx if hn[k])
                    xa = sum(1 for k in idx if not hn[k] and pn[k])
                    cost = _fill_cost(rules, len(window), nh, xa, hw, pw)
                    if cost is not None:
                        costs[(suit, window)] = cost
        out.append(costs)
    return out


def solve_distance(
    hand: Cards,
    rules: ContractRules,
    contract: Sequence[Requirement],
    pool: Cards,
    *,
    outs: bool = True,
    time_limit: float = 5.0,
) -> DistancePlan | None:
    """The fewest cards from ``pool`` that complete the contract, and (``outs``) every card of any completion.

    Candidates are pruned by their cost on their own: a candidate whose
    cost plus the cheapest of every other requirement exceeds a bound ``B``
    cannot be in a completion of ``B`` cards or fewer. The model with the
    candidates within ``B`` (starting from the sum of the cheapest costs)
    holds every completion of ``B`` cards or fewer, so an optimum ``<= B``
    there is the optimum; otherwise ``B`` grows by one (small steps keep
    the models small).

    The outs are found by re-solving with the count fixed and at least one
    card not yet seen required, until that is infeasible. None when even
    the whole pool cannot complete the contract.
    """
    contract = tuple(contract)
    costs = _standalone_costs(hand, rules, contract, pool)
    if any(not c for c in costs):
        return None
    cheapest = [min(c.values()) for c in costs]
    lower = sum(cheapest)

    def within(bound: int) -> Callable[[int, CandKey, int], bool]:
        def allow(i: int, key: CandKey, m: int) -> bool:
            cost = costs[i].get(key)
            return cost is not None and cost + lower - cheapest[i] <= bound

        return allow

    deadline = time.perf_counter() + time_limit
    everything = sum(max(c.values()) for c in costs)
    bound = lower
    best: tuple[int, Plan] | None = None
    while True:
        m = _ContractModel(hand, rules, contract, pool, allow=within(bound), costs=costs)
        m.build()
        if m.feasible:
            solver = _solver(max(0.001, deadline - time.perf_counter()), probing=False)
            try:
                status = _status(solver.solve(m.model))
            except SolverTimeout:
                if best is None:
                    raise
                # out of time: the best completion so far, not proven fewest
                return DistancePlan(best[0], best[1], None, "feasible")
            if status is not None:
                value = round(solver.objective_value)
                if value <= bound:
                    break
                if best is None or value < best[0]:
                    best = (value, m.decode(solver, "feasible"))
        if bound >= everything:
            return None
        bound += 1
    missing = value
    plan = m.decode(solver, status)
    found: Cards | None = None
    if outs and missing > 0 and status == "optimal":
        model = m.model
        model.clear_objective()  # type: ignore[no-untyped-call]
        model.add(m.missing == missing)
        of_rank = {r: [c for c in pool.distinct() if c.rank == r and c not in rules.wilds] for r in Rank}

        def cards_of(key: Card | Rank) -> list[Card]:
            return of_rank[key] if isinstance(key, Rank) else [key]

        seen: set[Card] = set()
        for key, v in m.extras.items():
            if solver.value(v) > 0:
                seen.update(cards_of(key))
        while True:
            rest = [v for key, v in m.extras.items() if any(c not in seen for c in cards_of(key))]
            if not rest:
                break
            # each guard implies the earlier ones (``seen`` only grows), so they may stay
            model.add(sum(rest) >= 1)
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                status = "feasible"  # the list of cards that would do may be incomplete
                break
            solver.parameters.max_time_in_seconds = remaining
            code = solver.solve(model)
            if code == cp_model.INFEASIBLE:
                break
            if code == cp_model.UNKNOWN:
                status = "feasible"
                break
            for key, v in m.extras.items():
                if solver.value(v) > 0:
                    seen.update(cards_of(key))
        found = Cards.from_counts({c: pool.count(c) for c in seen})
    return DistancePlan(missing, plan, found, status)


# ---------------------------------------------------------------- lay-off


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """A lay-off found by the model: the table after it, the hand cards played, the swaps."""

    table: tuple[Meld, ...]
    played: Cards
    swaps: tuple[tuple[Card, int, Card, int], ...]
    points: int
    status: str


@dataclass
class _TableSet:
    index: int
    shape: SetShape
    swappable: bool
    add: cp_model.IntVar | int = 0
    freed: cp_model.IntVar | int = 0
    inc: cp_model.IntVar | int = 0


@dataclass
class _TableRun:
    index: int
    shape: RunShape
    swappable: bool
    active: cp_model.IntVar | int = 1
    inside: dict[int, cp_model.IntVar | int] = field(default_factory=dict)
    h: dict[int, cp_model.IntVar] = field(default_factory=dict)
    wl: dict[int, cp_model.IntVar] = field(default_factory=dict)
    sw: dict[int, cp_model.IntVar] = field(default_factory=dict)
    freed_open: cp_model.IntVar | int = 0
    inc: cp_model.IntVar | int = 0


def _reach(
    start: int, step: int, budget: int, suit: Suit, hand_nat: dict[Card, int], wilds: frozenset[Card], lo: int, hi: int
) -> int:
    """How far a run can grow from ``start``: hand naturals are free, other nodes cost a wild."""
    last, p = start, start + step
    while lo <= p <= hi:
        card = position_card(p, suit)
        if card in wilds or hand_nat.get(card, 0) == 0:
            if budget == 0:
                break
            budget -= 1
        last, p = p, p + step
    return last


def _extent(rules: ContractRules) -> tuple[int, int]:
    graph = rank_graph(rules.ace)
    return min(graph.nodes), max(graph.nodes)


def solve_layoff(
    hand: Cards,
    table: Sequence[tuple[Meld, bool]],
    rules: ContractRules,
    *,
    objective: Literal["points", "cards"] = "points",
    time_limit: float = 5.0,
) -> LayoffPlan:
    """The best lay-off of ``hand`` onto ``table`` (each meld with whether its wilds may be swapped).

    Sets grow by naturals of their rank and wilds; runs grow at either end.
    A swap puts a hand natural where a table wild stood and the freed wild
    goes at once onto some meld. Primary objective ``objective``, then the
    other measure, then fewest swaps.
    """
    spec = rules.meld_spec
    wilds = rules.wilds
    model = cp_model.CpModel()
    hand_nat = {c: n for c, n in hand.items() if c not in wilds}
    hand_wild = {c: n for c, n in hand.items() if c in wilds}
    n_hw = sum(hand_wild.values())
    rank_hand: dict[Rank, int] = {}
    for c, n in hand_nat.items():
        assert c.rank is not None
        rank_hand[c.rank] = rank_hand.get(c.rank, 0) + n
    table_wilds = sum(1 for meld, _ in table for c in meld.cards if c in wilds)
    pool_max = n_hw + (table_wilds if rules.wild_swap else 0)
    lo_pos, hi_pos = _extent(rules)

    sets: list[_TableSet] = []
    runs: list[list[_TableRun]] = []
    incoming: list[Expr] = []
    freed_terms: list[Expr] = []
    swap_terms: list[Expr] = []
    card_use: dict[Card, list[cp_model.IntVar]] = {}
    for index, (meld, swappable) in enumerate(table):
        kind = meld_kind(meld, spec)
        if kind == "set":
            sshape = set_shape(meld, spec)
            ts = _TableSet(index, sshape, swappable and rules.wild_swap)
            have = rank_hand.get(sshape.rank, 0)
            n0, w0 = len(sshape.naturals), len(sshape.wilds)
            if have:
                ts.add = model.new_int_var(0, have, f"ta{index}")
            if ts.swappable and have and w0:
                ts.freed = model.new_int_var(0, min(w0, have), f"tf{index}")
                model.add(ts.freed <= ts.add)
            inc_max = min(pool_max, _cap(rules, n0 + have) - w0 + min(w0, have))
            if inc_max > 0:
                ts.inc = model.new_int_var(0, inc_max, f"ti{index}")
            _limit(model, rules, w0 - ts.freed + ts.inc, n0 + ts.add, 1)
            incoming.append(ts.inc)
            freed_terms.append(ts.freed)
            swap_terms.append(ts.freed)
            sets.append(ts)
            continue
        readings: list[_TableRun] = []
        shapes = run_shapes(meld, spec)
        act_vars = [model.new_bool_var(f"ra{index}_{k}") for k in range(len(shapes))] if len(shapes) > 1 else None
        if act_vars:
            model.add_exactly_one(act_vars)
        for k, shape in enumerate(shapes):
            act: cp_model.IntVar | int = act_vars[k] if act_vars else 1
            tr = _TableRun(index, shape, swappable and rules.wild_swap, act)
            core_lo = min(min(w) for w in shape.windows)
            core_hi = max(max(w) for w in shape.windows)
            # nodes every window holds are surely inside; the rest may be, if reachable
            must = set(shape.windows[0]).intersection(*map(set, shape.windows))
            budget = pool_max + len(shape.open)
            lo, hi = min(must), max(must)
            # reach outward while hand naturals or wilds can fill the nodes
            reach_lo = _reach(lo, -1, budget, shape.suit, hand_nat, wilds, lo_pos, hi_pos)
            reach_hi = _reach(hi, 1, budget, shape.suit, hand_nat, wilds, lo_pos, hi_pos)
            reach_lo = min(reach_lo, core_lo)
            reach_hi = max(reach_hi, core_hi)
            positions = list(range(reach_lo, reach_hi + 1))
            for p in positions:
                tr.inside[p] = act if lo <= p <= hi else model.new_bool_var("")
            for p in positions:
                if p < lo:
                    model.add(tr.inside[p] <= tr.inside[p + 1])
                elif p > hi:
                    model.add(tr.inside[p] <= tr.inside[p - 1])
            if 1 in tr.inside and 14 in tr.inside:
                model.add(tr.inside[1] + tr.inside[14] <= 1)
            written = dict(shape.written)
            n_nat = len(shape.naturals)
            nat_added: list[Expr] = []
            kept_written: list[Expr] = []
            free_wild_slots: list[Expr] = []
            for p in positions:
                if p in shape.naturals:
                    continue
                card = position_card(p, shape.suit)
                natural_ok = hand_nat.get(card, 0) > 0
                if p in written:
                    if natural_ok and tr.swappable:
                        s = model.new_bool_var("")
                        model.add(s <= act)
                        tr.sw[p] = s
                        tr.h[p] = s
                        nat_added.append(s)
                        kept_written.append(act - s)
                        card_use.setdefault(card, []).append(s)
                        freed_terms.append(s)
                        swap_terms.append(s)
                    else:
                        kept_written.append(act)
                    continue
                slots: list[Expr] = []
                if natural_ok:
                    v = model.new_bool_var("")
                    tr.h[p] = v
                    slots.append(v)
                    nat_added.append(v)
                    card_use.setdefault(card, []).append(v)
                wl = model.new_bool_var("")
                tr.wl[p] = wl
                slots.append(wl)
                free_wild_slots.append(wl)
                model.add(sum(slots) == tr.inside[p])
            n_open = len(shape.open)
            # open wilds: some stay (any free node), some are freed by naturals on their nodes
            if n_open and tr.swappable and rules.wild_swap:
                fo = model.new_int_var(0, n_open, f"fo{index}_{k}")
                tr.freed_open = fo
                wins = shape.windows
                if len(wins) == 1:
                    model.add(fo <= sum(tr.h[p] for p in shape.gaps(wins[0]) if p in tr.h))
                else:
                    pick = [model.new_bool_var("") for _ in wins]
                    model.add(sum(pick) == act)
                    for w, b in zip(wins, pick):
                        model.add(fo <= sum(tr.h[p] for p in shape.gaps(w) if p in tr.h) + n_open * (1 - b))
                model.add(fo <= n_open * act)
                freed_terms.append(fo)
                swap_terms.append(fo)
            inc = model.new_int_var(0, pool_max, f"ri{index}_{k}")
            model.add(inc <= pool_max * act)
            tr.inc = inc
            model.add(sum(free_wild_slots) == n_open * act - tr.freed_open + inc)
            naturals = n_nat * act + sum(nat_added)
            final_wilds = sum(kept_written) + sum(free_wild_slots)
            _limit(model, rules, final_wilds, naturals, act)
            incoming.append(inc)
            readings.append(tr)
        runs.append(readings)

    for c, vs in card_use.items():
        if len(vs) > hand_nat[c]:
            model.add(sum(vs) <= hand_nat[c])
    for rank in Rank:
        terms: list[Expr] = [s.add for s in sets if s.shape.rank == rank and not isinstance(s.add, int)]
        terms += [v for c, vs in card_use.items() if c.rank == rank for v in vs]
        if len(terms) > 1:
            model.add(sum(terms) <= rank_hand.get(rank, 0))
    hw = {c: model.new_int_var(0, n, f"hw_{c}") for c, n in hand_wild.items()}
    model.add(sum(incoming) == sum(hw.values()) + sum(freed_terms))
    pts = rules.points
    points = (
        sum(pts(Card(s.shape.rank, Suit.HEARTS)) * s.add for s in sets if not isinstance(s.add, int))
        + sum(pts(position_card(p, tr.shape.suit)) * v for rs in runs for tr in rs for p, v in tr.h.items())
        + sum(pts(c) * v for c, v in hw.items())
    )
    cards = sum(s.add for s in sets) + sum(v for rs in runs for tr in rs for v in tr.h.values()) + sum(hw.values())
    swaps = sum(swap_terms)
    primary, secondary = (points, cards) if objective == "points" else (cards, points)
    model.maximize(BIG * BIG * primary + BIG * secondary - swaps)
    solver = _solver(time_limit)
    status = _status(solver.solve(model))
    assert status is not None, "a lay-off of nothing is always possible"
    val = solver.value
    return _decode_layoff(hand, table, rules, sets, runs, hw, val, status)


def _decode_layoff(
    hand: Cards,
    table: Sequence[tuple[Meld, bool]],
    rules: ContractRules,
    sets: list[_TableSet],
    runs: list[list[_TableRun]],
    hw: dict[Card, cp_model.IntVar],
    value: Any,
    status: str,
) -> LayoffPlan:
    val = value  # solver.value
    wilds = rules.wilds
    left = {c: n for c, n in hand.items() if c not in wilds}
    played: list[Card] = []

    def v(x: object) -> int:
        return x if isinstance(x, int) else int(val(x))

    # pool of wilds to place: hand wilds, then freed ones (recorded with their source)
    freed: list[tuple[Card, int, Card]] = []  # (wild, meld index, natural that replaced it)
    pool: list[tuple[Card, int | None, Card | None]] = []
    for c, x in hw.items():
        for _ in range(v(x)):
            pool.append((c, None, None))
            played.append(c)
    new_melds: dict[int, tuple[list[Card], list[Card | None], tuple[str, list[int], list[Card]]]] = {}
    incs: dict[int, int] = {}
    # runs first: they take exact cards
    for rs in runs:
        for tr in rs:
            if not v(tr.active):
                continue
            shape, index = tr.shape, tr.index
            written = dict(shape.written)
            cards: list[Card] = []
            roles: list[Card | None] = []
            open_left = list(shape.open)
            # open wilds freed
            n_freed = v(tr.freed_open)
            gaps_with_h: list[int] = []
            for w in shape.windows:
                g = [p for p in shape.gaps(w) if p in tr.h and v(tr.h[p])]
                if len(g) >= n_freed:
                    gaps_with_h = g
                    break
            for k in range(n_freed):
                wild = open_left.pop()
                replacing = position_card(gaps_with_h[k], shape.suit)
                freed.append((wild, index, replacing))
                pool.append((wild, index, replacing))
            slots: list[int] = []
            for p in sorted(tr.inside):
                if not v(tr.inside[p]):
                    continue
                card = position_card(p, shape.suit)
                if p in shape.naturals:
                    cards.append(card)
                    roles.append(None)
                elif p in written:
                    if p in tr.sw and v(tr.sw[p]):
                        left[card] -= 1
                        played.append(card)
                        cards.append(card)
                        roles.append(None)
                        freed.append((written[p], index, card))
                        pool.append((written[p], index, card))
                    else:
                        cards.append(written[p])
                        roles.append(card)
                elif p in tr.h and v(tr.h[p]):
                    left[card] -= 1
                    played.append(card)
                    cards.append(card)
                    roles.append(None)
                else:
                    slots.append(len(cards))
                    cards.append(card)  # placeholder: a wild goes here
                    roles.append(card)
            new_melds[index] = (cards, roles, ("run", slots, open_left))
            incs[index] = v(tr.inc)
    for ts in sets:
        index, sshape = ts.index, ts.shape
        add = v(ts.add)
        added: list[Card] = []
        for c in list(left):
            while add and left[c] and c.rank == sshape.rank:
                left[c] -= 1
                add -= 1
                added.append(c)
                played.append(c)
        wild_list = list(sshape.wilds)
        for k in range(v(ts.freed)):
            wild = wild_list.pop()
            freed.append((wild, index, added[k]))
            pool.append((wild, index, added[k]))
        cards = list(sshape.naturals) + added
        role = Card(sshape.rank, sshape.naturals[0].suit)
        roles = [None] * len(cards)
        cards += wild_list
        roles += [role] * len(wild_list)
        new_melds[index] = (cards, roles, ("set", [], []))
        incs[index] = v(ts.inc)
    # place the pool's wilds: freed ones first (they must land), then hand wilds
    pool.sort(key=lambda t: t[1] is None)
    placed: list[tuple[Card, int | None, Card | None, int]] = []
    it = iter(pool)
    out: list[Meld] = []
    for index, (meld, _) in enumerate(table):
        cards, roles, (kind, slots, open_left) = new_melds[index]
        n_inc = incs[index]
        if kind == "run":
            # open wilds that stayed, then incoming wilds, fill the wild slots
            fill = list(open_left)
            for _ in range(n_inc):
                wild, src, nat = next(it)
                placed.append((wild, src, nat, index))
                fill.append(wild)
            assert len(fill) == len(slots)
            for slot, wild in zip(slots, fill):
                cards[slot] = wild
        else:
            role = Card(set_shape(meld, rules.meld_spec).rank, cards[0].suit)
            for _ in range(n_inc):
                wild, src, nat = next(it)
                placed.append((wild, src, nat, index))
                cards.append(wild)
                roles.append(role)
        out.append(Meld(tuple(cards), tuple(roles)))
    swaps = tuple((nat, src, wild, dest) for wild, src, nat, dest in placed if src is not None and nat is not None)
    played_cards = Cards(played)
    points = sum(rules.points(c) for c in played_cards)
    return LayoffPlan(tuple(out), played_cards, swaps, points, status)
