"""Contract Shanghai's lay-off as a CP-SAT model: hand cards onto the table's melds, wild swaps included.

Sets grow by naturals of their rank and by wilds; runs grow at either end
(each reading of an ambiguous run is a candidate, exactly one is chosen).
A swap puts a hand natural where a table wild stood: in a set any natural
of the set's rank, in a run the card the wild stands for; the freed wild
goes at once onto some meld (the wilds arriving on the melds balance the
hand's wilds played plus the wilds freed). The objective: the most points
(or cards) played, then the other measure, then the fewest swaps.

The public question is :func:`solver.contract.best_layoff`; the referee
that checks its answers is :func:`solver.contract.referee.check_layoff`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from solver.cards import Card, Cards, Rank, Suit
from solver.contract.constraints import BIG, Expr, post_wild_limit, wild_room
from solver.contract.wilds import RunShape, SetShape, position_card, run_shapes, set_shape
from solver.errors import Status
from solver.melds import Meld, meld_kind
from solver.ranks import position_range
from solver.rules.contract import ContractRules

if TYPE_CHECKING:  # OR-Tools' cp_model takes about 0.6 s to import (pandas): the models import it when built
    from ortools.sat.python import cp_model

__all__ = ["Swap", "LayoffPlan", "solve_layoff"]


@dataclass(frozen=True, slots=True)
class Swap:
    """A wild swap: ``card`` from hand replaces ``wild`` in table meld ``meld``; the wild goes to meld ``to``.

    >>> str(Swap(Card.parse("10C"), 0, Card.parse("2S"), 1))
    '10C for 2S in meld 0, the 2S to meld 1'
    """

    card: Card
    meld: int
    wild: Card
    to: int

    def __str__(self) -> str:
        return f"{self.card} for {self.wild} in meld {self.meld}, the {self.wild} to meld {self.to}"


@dataclass(frozen=True, slots=True)
class LayoffPlan:
    """A lay-off found by the model: the table after it, the hand cards played, the swaps."""

    table: tuple[Meld, ...]
    played: Cards
    swaps: tuple[Swap, ...]
    points: int
    status: Status


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


@dataclass
class _Slots:
    """A run reading's nodes outside its naturals: hand naturals added, written wilds kept, wild slots."""

    naturals: list[Expr] = field(default_factory=list)
    kept_written: list[Expr] = field(default_factory=list)
    wild_slots: list[Expr] = field(default_factory=list)


class _LayoffModel:
    """The lay-off model of a hand and a table (each meld with whether its wilds may be swapped)."""

    def __init__(self, hand: Cards, table: Sequence[tuple[Meld, bool]], rules: ContractRules) -> None:
        from ortools.sat.python import cp_model

        self.rules = rules
        self.model = cp_model.CpModel()
        wilds = rules.wilds
        self.hand_nat = {c: n for c, n in hand.items() if c not in wilds}
        self.hand_wild = {c: n for c, n in hand.items() if c in wilds}
        self.rank_hand: dict[Rank, int] = {}
        for c, n in self.hand_nat.items():
            if c.rank is not None:
                self.rank_hand[c.rank] = self.rank_hand.get(c.rank, 0) + n
        table_wilds = sum(1 for meld, _ in table for c in meld.cards if c in wilds)
        self.pool_max = sum(self.hand_wild.values()) + (table_wilds if rules.wild_swap else 0)
        self.lo_pos, self.hi_pos = position_range(rules.ace)
        self.sets: list[_TableSet] = []
        self.runs: list[list[_TableRun]] = []
        self.incoming: list[Expr] = []
        self.freed_terms: list[Expr] = []
        self.swap_terms: list[Expr] = []
        self.card_use: dict[Card, list[cp_model.IntVar]] = {}
        for index, (meld, swappable) in enumerate(table):
            if meld_kind(meld, rules.meld_spec) == "set":
                self._add_set(index, meld, swappable and rules.wild_swap)
            else:
                self._add_run(index, meld, swappable and rules.wild_swap)
        self._card_limits()
        self.hw = {c: self.model.new_int_var(0, n, f"hw_{c}") for c, n in self.hand_wild.items()}
        self.model.add(sum(self.incoming) == sum(self.hw.values()) + sum(self.freed_terms))

    def _add_set(self, index: int, meld: Meld, swappable: bool) -> None:
        """A set takes naturals of its rank (each may free a wild) and incoming wilds."""
        model, rules = self.model, self.rules
        sshape = set_shape(meld, rules.meld_spec)
        ts = _TableSet(index, sshape, swappable)
        have = self.rank_hand.get(sshape.rank, 0)
        n0, w0 = len(sshape.naturals), len(sshape.wilds)
        if have:
            ts.add = model.new_int_var(0, have, f"ta{index}")
        if swappable and have and w0:
            ts.freed = model.new_int_var(0, min(w0, have), f"tf{index}")
            model.add(ts.freed <= ts.add)
        inc_max = min(self.pool_max, wild_room(rules, n0 + have) - w0 + min(w0, have))
        if inc_max > 0:
            ts.inc = model.new_int_var(0, inc_max, f"ti{index}")
        post_wild_limit(model, rules, w0 - ts.freed + ts.inc, n0 + ts.add, 1)
        self.incoming.append(ts.inc)
        self.freed_terms.append(ts.freed)
        self.swap_terms.append(ts.freed)
        self.sets.append(ts)

    def _add_run(self, index: int, meld: Meld, swappable: bool) -> None:
        """Each reading of a run is a candidate; exactly one is active."""
        shapes = run_shapes(meld, self.rules.meld_spec)
        acts: list[cp_model.IntVar | int] = [1]
        if len(shapes) > 1:
            bools = [self.model.new_bool_var(f"ra{index}_{k}") for k in range(len(shapes))]
            self.model.add_exactly_one(bools)
            acts = list(bools)
        self.runs.append([self._add_reading(index, k, shape, acts[k], swappable) for k, shape in enumerate(shapes)])

    def _reach(self, start: int, step: int, budget: int, suit: Suit) -> int:
        """How far a run can grow from ``start``: hand naturals are free, other nodes cost a wild."""
        last, p = start, start + step
        while self.lo_pos <= p <= self.hi_pos:
            card = position_card(p, suit)
            if card in self.rules.wilds or self.hand_nat.get(card, 0) == 0:
                if budget == 0:
                    break
                budget -= 1
            last, p = p, p + step
        return last

    def _span(self, tr: _TableRun, act: cp_model.IntVar | int) -> list[int]:
        """The nodes the run may cover: the ones every window holds, and reachable ones beyond (contiguous)."""
        shape, model = tr.shape, self.model
        core_lo = min(min(w) for w in shape.windows)
        core_hi = max(max(w) for w in shape.windows)
        must = set(shape.windows[0]).intersection(*map(set, shape.windows))
        budget = self.pool_max + len(shape.open)
        lo, hi = min(must), max(must)
        reach_lo = min(self._reach(lo, -1, budget, shape.suit), core_lo)
        reach_hi = max(self._reach(hi, 1, budget, shape.suit), core_hi)
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
        return positions

    def _written_node(self, tr: _TableRun, p: int, card: Card, act: cp_model.IntVar | int, slots: _Slots) -> None:
        """A wild with a written role: it stays, or a hand natural of that card frees it."""
        if self.hand_nat.get(card, 0) > 0 and tr.swappable:
            s = self.model.new_bool_var("")
            self.model.add(s <= act)
            tr.sw[p] = s
            tr.h[p] = s
            slots.naturals.append(s)
            slots.kept_written.append(act - s)
            self.card_use.setdefault(card, []).append(s)
            self.freed_terms.append(s)
            self.swap_terms.append(s)
        else:
            slots.kept_written.append(act)

    def _slots(self, tr: _TableRun, positions: list[int], act: cp_model.IntVar | int) -> _Slots:
        """Each node inside the run that no natural holds: a hand natural or a wild fills it."""
        shape = tr.shape
        written = dict(shape.written)
        slots = _Slots()
        for p in positions:
            if p in shape.naturals:
                continue
            card = position_card(p, shape.suit)
            if p in written:
                self._written_node(tr, p, card, act, slots)
                continue
            fill: list[Expr] = []
            if self.hand_nat.get(card, 0) > 0:
                v = self.model.new_bool_var("")
                tr.h[p] = v
                fill.append(v)
                slots.naturals.append(v)
                self.card_use.setdefault(card, []).append(v)
            wl = self.model.new_bool_var("")
            tr.wl[p] = wl
            fill.append(wl)
            slots.wild_slots.append(wl)
            self.model.add(sum(fill) == tr.inside[p])
        return slots

    def _free_open(self, tr: _TableRun, name: str, act: cp_model.IntVar | int) -> None:
        """Open wilds freed by hand naturals on the nodes they stood for (in the chosen window)."""
        shape, model = tr.shape, self.model
        n_open = len(shape.open)
        fo = model.new_int_var(0, n_open, name)
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
        self.freed_terms.append(fo)
        self.swap_terms.append(fo)

    def _add_reading(
        self, index: int, k: int, shape: RunShape, act: cp_model.IntVar | int, swappable: bool
    ) -> _TableRun:
        """One reading of a run: its span, the fill of its nodes, open wilds freed, wilds arriving."""
        model = self.model
        tr = _TableRun(index, shape, swappable, act)
        slots = self._slots(tr, self._span(tr, act), act)
        n_open = len(shape.open)
        if n_open and tr.swappable:
            self._free_open(tr, f"fo{index}_{k}", act)
        inc = model.new_int_var(0, self.pool_max, f"ri{index}_{k}")
        model.add(inc <= self.pool_max * act)
        tr.inc = inc
        # open wilds that stay take free nodes, with the incoming wilds
        model.add(sum(slots.wild_slots) == n_open * act - tr.freed_open + inc)
        naturals = len(shape.naturals) * act + sum(slots.naturals)
        post_wild_limit(model, self.rules, sum(slots.kept_written) + sum(slots.wild_slots), naturals, act)
        self.incoming.append(inc)
        return tr

    def _card_limits(self) -> None:
        """Each hand natural goes to one place (runs take exact cards, sets any card of their rank)."""
        model = self.model
        for c, vs in self.card_use.items():
            if len(vs) > self.hand_nat[c]:
                model.add(sum(vs) <= self.hand_nat[c])
        for rank in Rank:
            terms: list[Expr] = [s.add for s in self.sets if s.shape.rank == rank and not isinstance(s.add, int)]
            terms += [v for c, vs in self.card_use.items() if c.rank == rank for v in vs]
            if len(terms) > 1:
                model.add(sum(terms) <= self.rank_hand.get(rank, 0))

    def objective(self, objective: Literal["points", "cards"]) -> None:
        """The primary measure, then the other, then the fewest swaps."""
        pts = self.rules.points
        added_runs = [(position_card(p, tr.shape.suit), v) for rs in self.runs for tr in rs for p, v in tr.h.items()]
        points = (
            sum(pts(Card(s.shape.rank, Suit.HEARTS)) * s.add for s in self.sets if not isinstance(s.add, int))
            + sum(pts(c) * v for c, v in added_runs)
            + sum(pts(c) * v for c, v in self.hw.items())
        )
        cards = sum(s.add for s in self.sets) + sum(v for _, v in added_runs) + sum(self.hw.values())
        primary, secondary = (points, cards) if objective == "points" else (cards, points)
        self.model.maximize(BIG * BIG * primary + BIG * secondary - sum(self.swap_terms))


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
    from solver.cpsat import parameters, require_answer, solver_for, status_of

    m = _LayoffModel(hand, table, rules)
    m.objective(objective)
    solver = solver_for(parameters(time_limit))
    status = require_answer(status_of(solver.solve(m.model)))
    assert status is not Status.INFEASIBLE, "a lay-off of nothing is always possible"
    return _Decoder(hand, table, m, solver.value).plan(status)


@dataclass
class _Placed:
    """A meld being rebuilt: its cards and roles, the slots of a run its wilds fill, the open wilds that
    stayed, and how many wilds arrive."""

    kind: str
    cards: list[Card]
    roles: list[Card | None]
    slots: list[int]
    open_left: list[Card]
    incoming: int


class _Decoder:
    """Reads the solved lay-off model back: runs first (exact cards), then sets, then the wilds placed."""

    def __init__(self, hand: Cards, table: Sequence[tuple[Meld, bool]], m: _LayoffModel, value: Any) -> None:
        self.table, self.m, self.rules = table, m, m.rules
        self.val = value
        self.left = {c: n for c, n in hand.items() if c not in m.rules.wilds}
        self.played: list[Card] = []
        # the wilds to place: hand wilds, then freed ones (with the meld and the natural that freed them)
        self.pool: list[tuple[Card, int | None, Card | None]] = []
        for c, x in m.hw.items():
            for _ in range(self.v(x)):
                self.pool.append((c, None, None))
                self.played.append(c)
        self.melds: dict[int, _Placed] = {}

    def v(self, x: object) -> int:
        """The value of a model term (or a constant)."""
        return x if isinstance(x, int) else int(self.val(x))

    def _play(self, card: Card) -> Card:
        self.left[card] -= 1
        self.played.append(card)
        return card

    def _freed_open(self, tr: _TableRun) -> list[Card]:
        """Free the open wilds the model freed (each by a hand natural on a gap); the open wilds left."""
        shape = tr.shape
        open_left = list(shape.open)
        n_freed = self.v(tr.freed_open)
        gaps: list[int] = []
        for w in shape.windows:
            g = [p for p in shape.gaps(w) if p in tr.h and self.v(tr.h[p])]
            if len(g) >= n_freed:
                gaps = g
                break
        for k in range(n_freed):
            self.pool.append((open_left.pop(), tr.index, position_card(gaps[k], shape.suit)))
        return open_left

    def _run(self, tr: _TableRun) -> None:
        shape, written = tr.shape, dict(tr.shape.written)
        open_left = self._freed_open(tr)
        cards: list[Card] = []
        roles: list[Card | None] = []
        slots: list[int] = []
        for p in sorted(tr.inside):
            if not self.v(tr.inside[p]):
                continue
            card = position_card(p, shape.suit)
            if p in shape.naturals:
                role: Card | None = None
            elif p in written and not (p in tr.sw and self.v(tr.sw[p])):
                card, role = written[p], card
            elif p in written:  # swapped: the natural takes the node, the written wild is freed
                self.pool.append((written[p], tr.index, self._play(card)))
                role = None
            elif p in tr.h and self.v(tr.h[p]):
                self._play(card)
                role = None
            else:
                slots.append(len(cards))  # a wild goes here (the card is a placeholder)
                role = card
            cards.append(card)
            roles.append(role)
        self.melds[tr.index] = _Placed("run", cards, roles, slots, open_left, self.v(tr.inc))

    def _set(self, ts: _TableSet) -> None:
        sshape = ts.shape
        add = self.v(ts.add)
        added: list[Card] = []
        for c in list(self.left):
            while add and self.left[c] and c.rank == sshape.rank:
                add -= 1
                added.append(self._play(c))
        wild_list = list(sshape.wilds)
        for k in range(self.v(ts.freed)):
            self.pool.append((wild_list.pop(), ts.index, added[k]))
        cards = list(sshape.naturals) + added
        role = Card(sshape.rank, sshape.naturals[0].suit)
        roles: list[Card | None] = [None] * len(cards)
        cards += wild_list
        roles += [role] * len(wild_list)
        self.melds[ts.index] = _Placed("set", cards, roles, [], [], self.v(ts.inc))

    def plan(self, status: Status) -> LayoffPlan:
        """The table after the lay-off, the cards played, the swaps."""
        for rs in self.m.runs:
            for tr in rs:
                if self.v(tr.active):
                    self._run(tr)
        for ts in self.m.sets:
            self._set(ts)
        # place the wilds: freed ones first (they must land), then hand wilds
        self.pool.sort(key=lambda t: t[1] is None)
        it = iter(self.pool)
        swaps: list[Swap] = []
        out: list[Meld] = []
        for index, (meld, _) in enumerate(self.table):
            placed = self.melds[index]
            arriving: list[Card] = []
            for _ in range(placed.incoming):
                wild, src, nat = next(it)
                if src is not None and nat is not None:
                    swaps.append(Swap(nat, src, wild, index))
                arriving.append(wild)
            out.append(self._rebuilt(meld, placed, arriving))
        played = Cards(self.played)
        points = sum(self.rules.points(c) for c in played)
        return LayoffPlan(tuple(out), played, tuple(swaps), points, status)

    def _rebuilt(self, meld: Meld, placed: _Placed, arriving: list[Card]) -> Meld:
        cards, roles = placed.cards, placed.roles
        if placed.kind == "run":
            # open wilds that stayed, then incoming wilds, fill the wild slots
            fill = placed.open_left + arriving
            assert len(fill) == len(placed.slots)
            for slot, wild in zip(placed.slots, fill):
                cards[slot] = wild
        else:
            role = Card(set_shape(meld, self.rules.meld_spec).rank, cards[0].suit)
            cards += arriving
            roles += [role] * len(arriving)
        return Meld(tuple(cards), tuple(roles))
