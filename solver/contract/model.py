"""CP-SAT models of Contract Shanghai's lay-down and distance (the lay-off is :mod:`solver.contract.layoff`).

Counts, not copies: a hand is a vector of card multiplicities, a set takes a
number of naturals of its rank, a run takes one card per node of its window.
Candidates (the set ranks and run windows a hand can support) are pruned in
plain Python before the model is built, so models stay small; every model
runs with one worker and a time limit (:mod:`solver.cpsat`), and reports
``optimal`` only when CP-SAT proves it.

The public API is :mod:`solver.contract`; the referee that checks these
answers is :mod:`solver.contract.referee`, which shares no code with this
module.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from solver.cards import Card, Cards, Rank, Suit
from solver.contract.constraints import BIG, Expr, natural_counts, post_wild_limit, wild_room
from solver.contract.wilds import position_card
from solver.errors import SolverTimeout, Status
from solver.melds import Meld
from solver.rules.contract import ContractRules, Requirement, min_length

if TYPE_CHECKING:  # OR-Tools' cp_model takes about 0.6 s to import (pandas): the models import it when built
    from ortools.sat.python import cp_model

__all__ = ["Plan", "DistancePlan", "solve_lay_down", "solve_distance"]


@cache
def _suit_windows(ace: str, length: int, suit: Suit) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every run window of ``length``+ nodes in ``suit``, with the card index of each node."""
    from solver.graph.runs import run_windows

    return tuple((w, tuple(position_card(p, suit).index for p in w)) for w in run_windows(ace, length, 13))


def _by_rank(cards: Cards, wilds: frozenset[Card]) -> dict[Rank, int]:
    """Natural cards per rank (every card that is not wild has a rank: the rules make jokers wild)."""
    out: dict[Rank, int] = {}
    for c, n in cards.items():
        if c not in wilds and c.rank is not None:
            out[c.rank] = out.get(c.rank, 0) + n
    return out


# ---------------------------------------------------------------- lay-down


@dataclass(frozen=True, slots=True)
class Plan:
    """A lay-down found by the model: one meld per requirement with wild roles written."""

    melds: tuple[Meld, ...]
    used: Cards
    extras: Cards
    status: Status


@dataclass(frozen=True, slots=True)
class DistancePlan:
    """The fewest extra cards, one completion, and the cards that appear in some completion."""

    missing: int
    plan: Plan
    outs: Cards | None
    status: Status


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


class _Supply(NamedTuple):
    """What the hand (or the pool) offers: naturals by card and by rank, wilds by card, counts by index."""

    nat: dict[Card, int]
    wild: list[tuple[Card, int]]
    rank: dict[Rank, int]
    counts: list[int]

    @staticmethod
    def of(cards: Cards, wilds: frozenset[Card]) -> _Supply:
        return _Supply(
            {c: n for c, n in cards.items() if c not in wilds},
            [(c, n) for c, n in cards.items() if c in wilds],
            _by_rank(cards, wilds),
            natural_counts(cards, wilds),
        )


@dataclass
class _ContractModel:
    """The lay-down model (``pool`` None) or the distance model (extra cards from ``pool``)."""

    hand: Cards
    rules: ContractRules
    contract: tuple[Requirement, ...]
    pool: Cards | None = None
    max_left: int | None = None
    allow: Callable[[int, CandKey, int], bool] | None = None
    costs: list[dict[CandKey, int]] | None = None
    model: cp_model.CpModel = field(default_factory=lambda: _new_model())
    sets: list[_SetCand] = field(default_factory=list)
    runs: list[_RunCand] = field(default_factory=list)
    feasible: bool = True

    def build(self) -> None:
        """Candidates per requirement, one chosen each; card and wild limits; the objective."""
        wilds = self.rules.wilds
        self.h = _Supply.of(self.hand, wilds)
        self.p = _Supply.of(self.pool or Cards(), wilds)
        self.n_hw = sum(n for _, n in self.h.wild)
        self.n_w = self.n_hw + sum(n for _, n in self.p.wild)
        self.distance = self.pool is not None
        self.wild_terms: list[Expr] = []
        self.cut_terms: list[Expr] = []
        per_req: list[list[cp_model.IntVar]] = []
        for i, req in enumerate(self.contract):
            m = min_length(req, self.rules)
            sels = self._add_sets(i, m) if req.kind == "set" else self._add_runs(i, m)
            if not sels:
                self.feasible = False
                return
            self.model.add_exactly_one(sels)
            per_req.append(sels)
        self._symmetry(per_req)
        _, card_pool = self._card_limits()
        self._wilds_and_objective(card_pool)

    def _add_sets(self, i: int, m: int) -> list[cp_model.IntVar]:
        """A set candidate of each rank that could reach ``m`` cards."""
        model, rules, n_w = self.model, self.rules, self.n_w
        sels: list[cp_model.IntVar] = []
        for rank in Rank:
            nh_max = self.h.rank.get(rank, 0)
            np_max = self.p.rank.get(rank, 0)
            nat = nh_max + np_max
            if nat == 0 or nat + min(n_w, wild_room(rules, nat)) < m:
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
            if self.distance:
                # a set longer than its minimum never needs fewer extra cards
                model.add(naturals + w == m * sel)
            else:
                model.add(naturals + w >= m * sel)
            post_wild_limit(model, rules, w, naturals, sel)
            self.wild_terms.append(w)
            self.sets.append(_SetCand(i, rank, sel, nh, nx, w))
            sels.append(sel)
            if self.costs is not None:
                self.cut_terms.append(self.costs[i][rank] * sel)
        return sels

    def _window_ok(self, i: int, suit: Suit, window: tuple[int, ...], idx: tuple[int, ...], m: int) -> bool:
        """Could the window become a run (naturals there, few enough wilds)?"""
        hn, pn, rules = self.h.counts, self.p.counts, self.rules
        length = len(window)
        if not self.distance:
            nh_in = sum(hn[k] > 0 for k in idx)
            return nh_in > 0 and length - nh_in <= min(self.n_hw, wild_room(rules, nh_in))
        nat = sum(hn[k] > 0 or pn[k] > 0 for k in idx)
        if nat == 0 or length - nat > min(self.n_w, wild_room(rules, nat)):
            return False
        return self.allow is None or self.allow(i, (suit, window), m)

    def _add_runs(self, i: int, m: int) -> list[cp_model.IntVar]:
        """A run candidate for each window of ``m``+ nodes that could be made."""
        model, hn, pn = self.model, self.h.counts, self.p.counts
        sels: list[cp_model.IntVar] = []
        for suit in Suit:
            if not self.distance and not any(hn[Card(r, suit).index] for r in Rank):
                continue
            for window, idx in _suit_windows(self.rules.ace, m, suit):
                if not self._window_ok(i, suit, window, idx, m):
                    continue
                length = len(window)
                sel = model.new_bool_var(f"r{i}_{suit}_{window[0]}_{length}")
                h = {p: model.new_bool_var("") for p, k in zip(window, idx) if hn[k] > 0}
                x = {p: model.new_bool_var("") for p, k in zip(window, idx) if pn[k] > 0}
                for p in window:
                    if p in h or p in x:
                        model.add(h.get(p, 0) + x.get(p, 0) <= sel)
                naturals = sum(h.values()) + sum(x.values())
                wild_count = length * sel - naturals
                model.add(naturals >= sel)
                post_wild_limit(model, self.rules, wild_count, naturals, sel)
                self.wild_terms.append(wild_count)
                self.runs.append(_RunCand(i, suit, window, sel, h, x, length))
                sels.append(sel)
                if self.costs is not None:
                    self.cut_terms.append(self.costs[i][(suit, window)] * sel)
        return sels

    def _symmetry(self, per_req: list[list[cp_model.IntVar]]) -> None:
        """Identical requirements take candidates in order; distinct set ranks when the rules say so."""
        model = self.model
        for i in range(len(self.contract) - 1):
            if self.contract[i] == self.contract[i + 1]:
                a = sum(k * s for k, s in enumerate(per_req[i]))
                b = sum(k * s for k, s in enumerate(per_req[i + 1]))
                model.add(a <= b)
        if self.rules.distinct_set_ranks:
            by_rank: dict[Rank, list[cp_model.IntVar]] = {}
            for s in self.sets:
                by_rank.setdefault(s.rank, []).append(s.sel)
            for sels in by_rank.values():
                if len(sels) > 1:
                    model.add(sum(sels) <= 1)

    def _card_limits(self) -> tuple[dict[Card, list[cp_model.IntVar]], dict[Card, list[cp_model.IntVar]]]:
        """Natural cards: runs take exact cards, sets any card of their rank, within the copies there are."""
        model = self.model
        card_hand: dict[Card, list[cp_model.IntVar]] = {}
        card_pool: dict[Card, list[cp_model.IntVar]] = {}
        for r in self.runs:
            for p, v in r.h.items():
                card_hand.setdefault(position_card(p, r.suit), []).append(v)
            for p, v in r.x.items():
                card_pool.setdefault(position_card(p, r.suit), []).append(v)
        for cards, supply in ((card_hand, self.h), (card_pool, self.p)):
            for c, vs in cards.items():
                if len(vs) > supply.nat[c]:
                    model.add(sum(vs) <= supply.nat[c])
        for rank in Rank:
            terms = [s.nh for s in self.sets if s.rank == rank]
            terms += [v for c, vs in card_hand.items() if c.rank == rank for v in vs]
            if len(terms) > 1:
                model.add(sum(terms) <= self.h.rank.get(rank, 0))
            pterms = [s.nx for s in self.sets if s.rank == rank and not isinstance(s.nx, int)]
            pterms += [v for c, vs in card_pool.items() if c.rank == rank for v in vs]
            if len(pterms) > 1:
                model.add(sum(pterms) <= self.p.rank.get(rank, 0))
        return card_hand, card_pool

    def _wilds_and_objective(self, card_pool: dict[Card, list[cp_model.IntVar]]) -> None:
        """Hand wilds by type (their points differ), extra wilds from the pool; then the objective."""
        model = self.model
        self.hw = {c: model.new_int_var(0, n, f"hw_{c}") for c, n in self.h.wild}
        self.xw = {c: model.new_int_var(0, n, f"xw_{c}") for c, n in self.p.wild}
        model.add(sum(self.wild_terms) == sum(self.hw.values()) + sum(self.xw.values()))
        hand_used = (
            sum(s.nh for s in self.sets) + sum(v for r in self.runs for v in r.h.values()) + sum(self.hw.values())
        )
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
        if self.distance:
            self.missing = sum(self.extras.values())
            if self.cut_terms:
                # each meld needs at least its cost on its own: a strong bound for the LP
                model.add(self.missing >= sum(self.cut_terms))
            model.minimize(self.missing)
            return
        pts = self.rules.points
        points = (
            sum(pts(Card(s.rank, Suit.HEARTS)) * s.nh for s in self.sets)
            + sum(pts(position_card(p, r.suit)) * v for r in self.runs for p, v in r.h.items())
            + sum(pts(c) * v for c, v in self.hw.items())
        )
        model.maximize(BIG * points + hand_used)

    def decode(self, solver: cp_model.CpSolver, status: Status) -> Plan:
        """The chosen melds (requirement order, wild roles written), the hand cards used, the extras."""
        return _Decoded(self, solver).plan(status)


class _Decoded:
    """Reads a solved :class:`_ContractModel` back into melds: runs first (exact cards), then sets."""

    def __init__(self, m: _ContractModel, solver: cp_model.CpSolver) -> None:
        wilds = m.rules.wilds
        self.m = m
        self.val = solver.value
        self.left = {c: n for c, n in m.hand.items() if c not in wilds}
        self.pool_left = {c: n for c, n in (m.pool or Cards()).items() if c not in wilds}
        self.hand_used: list[Card] = []
        self.extras: list[Card] = []
        val = self.val
        wild_cards = [(c, True) for c, v in m.hw.items() for _ in range(val(v))]
        wild_cards += [(c, False) for c, v in m.xw.items() for _ in range(val(v))]
        self.wilds = iter(wild_cards)

    def _wild(self) -> Card:
        wild, from_hand = next(self.wilds)
        (self.hand_used if from_hand else self.extras).append(wild)
        return wild

    def _run(self, r: _RunCand) -> Meld:
        val = self.val
        cards: list[Card] = []
        roles: list[Card | None] = []
        for p in r.window:
            card = position_card(p, r.suit)
            if p in r.h and val(r.h[p]):
                self.left[card] -= 1
                self.hand_used.append(card)
            elif p in r.x and val(r.x[p]):
                self.pool_left[card] -= 1
                self.extras.append(card)
            else:
                cards.append(self._wild())
                roles.append(card)
                continue
            cards.append(card)
            roles.append(None)
        return Meld(tuple(cards), tuple(roles))

    @staticmethod
    def _take(left: dict[Card, int], rank: Rank, need: int, into: list[Card], used: list[Card]) -> None:
        for c in list(left):
            while need and left[c] and c.rank == rank:
                left[c] -= 1
                need -= 1
                into.append(c)
                used.append(c)

    def _set(self, s: _SetCand) -> Meld:
        val = self.val
        cards: list[Card] = []
        self._take(self.left, s.rank, val(s.nh) if not isinstance(s.nh, int) else 0, cards, self.hand_used)
        self._take(self.pool_left, s.rank, val(s.nx) if not isinstance(s.nx, int) else 0, cards, self.extras)
        role = Card(s.rank, cards[0].suit)
        roles: list[Card | None] = [None] * len(cards)
        for _ in range(val(s.w)):
            cards.append(self._wild())
            roles.append(role)
        return Meld(tuple(cards), tuple(roles))

    def plan(self, status: Status) -> Plan:
        """The plan of the solved model."""
        melds = [(r.req, self._run(r)) for r in self.m.runs if self.val(r.sel)]
        melds += [(s.req, self._set(s)) for s in self.m.sets if self.val(s.sel)]
        melds.sort(key=lambda t: t[0])
        return Plan(tuple(m for _, m in melds), Cards(self.hand_used), Cards(self.extras), status)


def _new_model() -> cp_model.CpModel:
    """An empty CP-SAT model (OR-Tools imported on first use)."""
    from ortools.sat.python import cp_model

    return cp_model.CpModel()


def _solve(model: cp_model.CpModel, time_limit: float, **stages: bool) -> tuple[cp_model.CpSolver, Status]:
    """Solve with the shared parameters; :class:`SolverTimeout` when no answer came in time."""
    from solver.cpsat import parameters, require_answer, solver_for, status_of

    solver = solver_for(parameters(time_limit, **stages))
    return solver, require_answer(status_of(solver.solve(model)))


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
    solver, status = _solve(m.model, time_limit, presolve=False)
    if status is Status.INFEASIBLE:
        return None
    return m.decode(solver, status)


def _fill_cost(rules: ContractRules, length: int, nh: int, xa: int, hw: int, pw: int) -> int | None:
    """Fewest extra cards to fill a meld of ``length`` with ``nh`` hand naturals, ``xa`` extra naturals
    available, ``hw`` hand wilds and ``pw`` extra wilds (None if impossible)."""
    best: int | None = None
    for xn in range(0, min(xa, max(0, length - nh)) + 1):
        n = min(nh, length) + xn
        w = length - n
        if n == 0 or w > wild_room(rules, n) or w > hw + pw:
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
    rank_hand, rank_pool = _by_rank(hand, wilds), _by_rank(pool, wilds)
    hn = natural_counts(hand, wilds)
    pn = natural_counts(pool, wilds)
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


def _fewest(
    hand: Cards, rules: ContractRules, contract: tuple[Requirement, ...], pool: Cards, deadline: float
) -> tuple[int, _ContractModel, cp_model.CpSolver, Status] | DistancePlan | None:
    """The fewest extra cards by growing bounds (see :func:`solve_distance`): the optimum and its solved
    model; or the best plan found when the time ran out; or None when nothing completes the contract."""
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

    everything = sum(max(c.values()) for c in costs)
    best: tuple[int, Plan] | None = None
    for bound in range(lower, everything + 1):
        m = _ContractModel(hand, rules, contract, pool, allow=within(bound), costs=costs)
        m.build()
        if not m.feasible:
            continue
        try:
            solver, status = _solve(m.model, deadline - time.perf_counter(), probing=False)
        except SolverTimeout:
            if best is None:
                raise
            # out of time: the best completion so far, not proven fewest
            return DistancePlan(best[0], best[1], None, Status.FEASIBLE)
        if status is Status.INFEASIBLE:
            continue
        value = round(solver.objective_value)
        if value <= bound:
            return value, m, solver, status
        if best is None or value < best[0]:
            best = (value, m.decode(solver, Status.FEASIBLE))
    return None


def _outs(
    m: _ContractModel, solver: cp_model.CpSolver, pool: Cards, missing: int, deadline: float
) -> tuple[Cards, bool]:
    """Every card of some fewest completion: re-solve with the count fixed and a card not yet seen
    required, until that is infeasible; and whether the list is complete (the time did not run out)."""
    from solver.cpsat import status_of

    rules = m.rules
    model = m.model
    model.clear_objective()  # type: ignore[no-untyped-call]
    model.add(m.missing == missing)
    of_rank = {r: [c for c in pool.distinct() if c.rank == r and c not in rules.wilds] for r in Rank}

    def cards_of(key: Card | Rank) -> list[Card]:
        return of_rank[key] if isinstance(key, Rank) else [key]

    seen: set[Card] = set()
    complete = True
    while True:
        for key, v in m.extras.items():
            if solver.value(v) > 0:
                seen.update(cards_of(key))
        rest = [v for key, v in m.extras.items() if any(c not in seen for c in cards_of(key))]
        if not rest:
            break
        # each guard implies the earlier ones (``seen`` only grows), so they may stay
        model.add(sum(rest) >= 1)
        remaining = deadline - time.perf_counter()
        if remaining <= 0:
            complete = False  # the list of cards that would do may be incomplete
            break
        solver.parameters.max_time_in_seconds = remaining
        status = status_of(solver.solve(model))
        if status is Status.INFEASIBLE:
            break
        if status is Status.UNKNOWN:
            complete = False
            break
    return Cards.from_counts({c: pool.count(c) for c in seen}), complete


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
    deadline = time.perf_counter() + time_limit
    found = _fewest(hand, rules, tuple(contract), pool, deadline)
    if found is None or isinstance(found, DistancePlan):
        return found
    missing, m, solver, status = found
    plan = m.decode(solver, status)
    cards: Cards | None = None
    if outs and missing > 0 and status is Status.OPTIMAL:
        cards, complete = _outs(m, solver, pool, missing, deadline)
        if not complete:
            status = Status.FEASIBLE
    return DistancePlan(missing, plan, cards, status)
