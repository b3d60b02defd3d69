"""Exact distance to contract in plain Python: branch and bound over the contract's melds.

One shape per requirement (:mod:`solver.contract.shapes`: which shapes, and
how a combination of them is priced exactly); this module walks the
combinations (the walk itself: :mod:`solver.contract.walk`).

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
>>> rules = ContractRules(wild_limit="fewer")
>>> hand = Cards.parse("5H 5D 5S 6C 7C 8C KD")
>>> res = search_distance(hand, rules.deck - hand, rules, rules.contract(1), outs=True)
>>> res.missing, str(res.outs), [str(m) for m in res.melds]
(1, '2S 2S 2C 2C 5C 5C 9C 9C', ['5S 5H 5D', '5C 6C 7C 8C'])
>>> contract_possible(Cards.parse("5H 5D 5S 6C 7C 8C 2S"), rules, rules.contract(1))
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import compress
from typing import Any

from solver.cards import ALL_CARDS, N_CARDS, Card, Cards
from solver.contract.handonly import hand_melds, price_hand_only
from solver.contract.native import call, check_counts, contract_core
from solver.contract.precheck import quick_reject
from solver.contract.shapes import Cand, Counts, Shape, bits_of, combo_cost, decode_combo, price, shapes_for
from solver.contract.walk import Path, StopWalk, Visit, _Walk
from solver.cpsat import stopped
from solver.errors import CardError, SolverTimeout, Status
from solver.melds import Meld
from solver.ranks import N_NATURAL
from solver.rules.contract import ContractRules, Requirement, min_length

__all__ = [
    "SearchResult",
    "search_distance",
    "contract_possible",
    "hand_lay_down",
    "quick_reject",
]


@dataclass(frozen=True, slots=True)
class SearchResult:
    """The fewest cards to add (None: no completion from the cards that can still come).

    ``melds`` is a lay-down of the hand plus ``completion`` (one fewest
    completion), in the contract's order; ``outs`` (when asked) every card
    of some fewest completion with the copies still to come; ``status`` is
    ``optimal``, ``feasible`` when the time limit stopped the search, or
    ``infeasible`` when there is no completion.
    """

    missing: int | None
    completion: Cards
    melds: tuple[Meld, ...]
    outs: Cards | None
    status: Status


@cache
def _shape_indexes(run: bool, m: int, ace: str, limit: str) -> dict[Shape, int]:
    """Each shape of :func:`shapes_for` and its index there (how the compiled core names shapes)."""
    return {sh: t for t, sh in enumerate(shapes_for(run, m, ace, limit))}


@cache
def _walk_order(contract: tuple[Requirement, ...]) -> tuple[tuple[int, ...], tuple[bool, ...]]:
    """The requirements in walk order (identical ones next to each other, for symmetry; sets first,
    they have fewer shapes), and whether each is the same as the one before it."""
    order = sorted(range(len(contract)), key=lambda i: (contract[i].kind == "run", contract[i].min_len, i))
    return tuple(order), tuple(k > 0 and contract[order[k]] == contract[order[k - 1]] for k in range(len(order)))


class DistanceSearch:
    """Branch and bound over one shape per requirement (see the module docstring).

    :meth:`find` settles the fewest extra cards and one best combination;
    :meth:`outs` and :meth:`discards` then walk every best combination.
    """

    def __init__(
        self,
        hand: Cards,
        pool: Cards,
        rules: ContractRules,
        contract: Sequence[Requirement],
        time_limit: float | None = None,
    ) -> None:
        self.rules = rules
        self.hand = hand
        self.pool = pool
        self.contract = tuple(contract)
        self.deadline = None if time_limit is None else time.perf_counter() + time_limit
        c = self.c = Counts(hand, pool, rules.wilds)
        self.hand_only = not pool
        self.hand_bits = bits_of(list(compress(range(N_NATURAL), c.hn)))
        self.pool_bits = bits_of([i for i in range(N_NATURAL) if c.pn[i]]) if pool else 0
        self.order, self.same = _walk_order(self.contract)
        self.best: int | None = None
        self.first: tuple[Cand, ...] | None = None
        self.complete = True
        # the compiled core, when built, prices the candidates and walks (the same answers, the same order)
        self._core = contract_core(len(self.contract))
        self._native: Any = None
        self._tables: list[tuple[Shape, ...]] = []
        self._indexes: list[dict[Shape, int]] = []
        self._cands: list[list[Cand]] | None = None if self._core is not None else self._priced()

    @property
    def cands(self) -> list[list[Cand]]:
        """Each requirement's candidates in walk order, cheapest first (priced when first asked on the
        compiled path, which prices its own)."""
        if self._cands is None:
            self._cands = self._priced()
        return self._cands

    @cands.setter
    def cands(self, value: list[list[Cand]]) -> None:
        self._cands = value

    def _requirements(self) -> list[tuple[bool, int]]:
        """Each requirement in walk order as (run, minimum length)."""
        return [(self.contract[i].kind == "run", min_length(self.contract[i], self.rules)) for i in self.order]

    def _native_search(self) -> Any:
        """The compiled search on this position (built once, on the first walk)."""
        if self._native is None:
            c, rules, deadline = self.c, self.rules, self.deadline
            expired = None if deadline is None else (lambda: time.perf_counter() > deadline or stopped())
            check_counts(c.hn, c.pn, c.hw, c.pw)
            assert self._core is not None
            self._native = call(
                self._core.Search, c.hn, c.pn, c.hw, c.pw, self._requirements(), list(self.same),
                rules.ace, rules.wild_limit, rules.distinct_set_ranks, self.hand_only, expired,
            )  # fmt: skip
            self._tables = [shapes_for(run, m, rules.ace, rules.wild_limit) for run, m in self._requirements()]
            self._indexes = [_shape_indexes(run, m, rules.ace, rules.wild_limit) for run, m in self._requirements()]
        return self._native

    def _from_native(self, combo: Sequence[tuple[int, int, int, int]]) -> tuple[Cand, ...]:
        """A combination the compiled walk gives, as candidates (see :mod:`solver.contract.native`)."""
        tables = self._tables
        return tuple(Cand(tables[k][t[0]], t[1], t[2], t[3]) for k, t in enumerate(combo))

    def _priced(self) -> list[list[Cand]]:
        """Each requirement's candidates (in :attr:`order`), cheapest first."""
        rules = self.rules
        out: list[list[Cand]] = []
        priced: dict[tuple[bool, int], list[Cand]] = {}
        for i in self.order:
            req = self.contract[i]
            key = (req.kind == "run", min_length(req, rules))
            if key not in priced:
                priced[key] = self._price(*key)
            out.append(priced[key])
        return out

    def _price(self, run: bool, length: int) -> list[Cand]:
        """The candidates of one requirement shape, cheapest first."""
        rules = self.rules
        if self.hand_only:
            return price_hand_only(run, length, rules.ace, rules.wild_limit, self.c)
        found = [
            cand
            for shape in shapes_for(run, length, rules.ace, rules.wild_limit)
            if (cand := price(shape, self.c)) is not None
        ]
        found.sort(key=lambda k: (k.s, k.need))
        return found

    def _walk(self, limit: list[int], on_leaf: Visit, skip: Callable[[int], bool] | None = None) -> None:
        """Visit every combination whose lower bound is at most ``limit[0]`` (which may shrink)."""
        if any(not cs for cs in self.cands):
            return
        _Walk(self, limit, on_leaf, skip).run()

    def _cost(self, combo: tuple[Cand, ...], path: Path) -> int | None:
        if not path.clash:
            return max(path.need, path.opened - self.c.hw)
        return combo_cost([x.shape for x in combo], self.c.hn, self.c.pn, self.c.hw, self.c.pw)

    def find(self, *, zero: bool = False) -> None:
        """The fewest extra cards (``best``, None when impossible) and one best combination (``first``).

        With ``zero`` only a combination that needs no card counts: ``best`` is 0 or None, and
        ``first`` is the combination the full search finds when its answer is 0 (the first
        zero-cost leaf of the same walk; the bound never cuts one off, so a limit of 0 cuts more).
        """
        if self._core is not None:
            best, first, self.complete = self._native_search().find(zero)
            if best is not None:
                self.best, self.first = best, self._from_native(first)
            return
        cands = self.cands
        if any(not cs for cs in cands):
            return
        if self.hand_only:  # sorted by s, and none needs a card to come
            floor = max(0, sum(cs[0].s for cs in cands) - self.c.hw)
        else:
            floor = max(
                sum(min(x.need for x in cs) for cs in cands), sum(min(x.s for x in cs) for cs in cands) - self.c.hw
            )
        if zero and floor > 0:
            return
        limit = [0 if zero else 1 << 30]

        def on_leaf(combo: tuple[Cand, ...], path: Path) -> None:
            cost = self._cost(combo, path)
            if cost is not None and (self.best is None or cost < self.best) and not (zero and cost):
                self.best = cost
                self.first = combo
                limit[0] = cost - 1
                if cost <= floor:
                    raise StopWalk

        self._walk(limit, on_leaf)

    def each_best(self, visit: Visit, skip: Callable[[int], bool] | None = None) -> None:
        """Call ``visit`` on every best combination (after :meth:`find`); ``visit`` may raise :class:`StopWalk`."""
        assert self.best is not None
        best = self.best
        if self._core is not None:

            def on_best(combo: Sequence[tuple[int, int, int, int]], path: tuple[int, ...]) -> None:
                need, opened, unfilled, wmax, ranks, bits, run_bits, clash = path
                visit(self._from_native(combo), Path(need, opened, unfilled, wmax, ranks, bits, run_bits, bool(clash)))

            self.complete = self._native_search().each_best(best, on_best, skip, StopWalk)
            return

        def on_leaf(combo: tuple[Cand, ...], path: Path) -> None:
            if self._cost(combo, path) == best:
                visit(combo, path)

        self._walk([best], on_leaf, skip)

    # -------------------------------------------------------- re-pricing best combinations

    def price_moved(self, combo: tuple[Cand, ...], card: int, to_hand: int) -> int | None:
        """The combination's cost with one copy of ``card`` moved to the hand (``to_hand=1``) or to the pool
        (``-1``); ``card`` is a natural index, or -1 for a wild."""
        if self._core is not None:
            search = self._native_search()
            where = self._indexes
            pairs = [(k, where[k][x.shape]) for k, x in enumerate(combo)]
            cost: int | None = call(search.price_moved, pairs, card, to_hand)
            return cost
        c = self.c
        shapes = [x.shape for x in combo]
        if card < 0:
            return combo_cost(shapes, c.hn, c.pn, c.hw + to_hand, c.pw - to_hand)
        c.hn[card] += to_hand
        c.pn[card] -= to_hand
        try:
            return combo_cost(shapes, c.hn, c.pn, c.hw, c.pw)
        finally:
            c.hn[card] -= to_hand
            c.pn[card] += to_hand

    def outs(self) -> Cards:
        """Every card still to come that is part of some fewest completion, with its copies."""
        assert self.best is not None and self.best > 0
        if self._core is not None:  # the same walk and visits (_Outs), compiled
            search = self._native_search()
            found, wild = search.outs(self.best)
            self.complete = search.complete
        else:
            outs = _Outs(self)
            self.each_best(outs.visit, outs.skip)
            found, wild = outs.found, outs.wild
        counts = self.pool.counts
        out = {ALL_CARDS[i]: counts[i] for i in range(N_NATURAL) if found >> i & 1}
        if wild and self.c.pw:
            for w in set(self.c.pwild):
                out[w] = counts[w.index]
        return Cards.from_counts(out)

    # -------------------------------------------------------- a lay-down of one best combination

    def decode(self, combo: tuple[Cand, ...]) -> tuple[tuple[Meld, ...], Cards]:
        """The melds (contract order, every wild's role written) and the extra cards of ``combo``."""
        shapes = [k.shape for k in combo]
        extras: list[Card] = []
        if self.hand_only and self.best == 0:  # from the hand alone, no card to come: no extras
            built = hand_melds(shapes, self.c)
        else:
            built, extras = decode_combo(self.c, shapes)
        by_req: list[Meld] = [Meld((ALL_CARDS[0],))] * len(self.contract)
        for k, i in enumerate(self.order):
            by_req[i] = built[k]
        return tuple(by_req), Cards(extras)


class _Outs:
    """The cards still to come in some fewest completion, gathered over the best combinations."""

    def __init__(self, search: DistanceSearch) -> None:
        assert search.best is not None
        self.search = search
        self.best = search.best
        self.found = 0  # bits of the natural cards found so far
        self.wild = False  # a wild still to come is an out

    def _settled(self) -> bool:
        return self.wild or not self.search.c.pw

    def visit(self, combo: tuple[Cand, ...], path: Path) -> None:
        """Add the outs of one best combination; stop when every card still to come is one."""
        s = self.search
        if not path.clash:
            self._independent(combo, path)
        else:
            closer = self.best - 1
            todo = path.bits & s.pool_bits & ~self.found
            while todo:
                low = todo & -todo
                todo ^= low
                if s.price_moved(combo, low.bit_length() - 1, 1) == closer:
                    self.found |= low
            if not self.wild and s.c.pw and s.price_moved(combo, -1, 1) == closer:
                self.wild = True
        if self._settled() and not s.pool_bits & ~self.found:
            raise StopWalk

    def _independent(self, combo: tuple[Cand, ...], path: Path) -> None:
        """Melds that share no card: any open slot a natural to come fills, where it saves a card."""
        s = self.search
        grow = path.need < self.best
        got = self.found
        for x in combo:
            if grow or x.need:
                sh = x.shape
                if sh.run:
                    got |= sh.cmask & s.pool_bits & ~s.hand_bits
                elif x.s:
                    got |= sh.cmask & s.pool_bits
        self.found = got
        if path.opened - s.c.hw > path.need:
            self.wild = True

    def skip(self, bits: int) -> bool:
        """True when a combination over ``bits`` can add no out."""
        return self._settled() and not bits & self.search.pool_bits & ~self.found


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
    completion (with its copies in ``pool``). Raises
    :class:`~solver.errors.SolverTimeout` when ``time_limit`` passes before
    any completion is found.
    """
    search = DistanceSearch(hand, pool, rules, contract, time_limit)
    search.find()
    if search.best is None:
        if not search.complete:
            raise SolverTimeout("the distance search found no completion within the time limit")
        return SearchResult(None, Cards(), (), Cards() if outs else None, Status.INFEASIBLE)
    assert search.first is not None
    melds, completion = search.decode(search.first)
    found: Cards | None = None
    if outs:
        found = search.outs() if search.best > 0 and search.complete else Cards()
    status = Status.OPTIMAL if search.complete else Status.FEASIBLE
    return SearchResult(search.best, completion, melds, found, status)


def contract_possible(hand: Cards, rules: ContractRules, contract: Sequence[Requirement]) -> bool:
    """Can ``hand`` make ``contract`` on its own (exactly: the distance with nothing to come is 0)?"""
    if quick_reject(hand, rules, contract):
        return False
    mod = contract_core(len(contract))
    if mod is not None:
        return bool(_native_hand(mod, hand, rules, tuple(contract), False))
    search = DistanceSearch(hand, Cards(), rules, contract)
    search.find(zero=True)
    return search.best == 0


def hand_lay_down(hand: Cards, rules: ContractRules, contract: Sequence[Requirement]) -> tuple[Meld, ...] | None:
    """The lay-down of ``contract`` from ``hand`` alone that :func:`search_distance` finds with an empty
    pool when the distance is 0 (the same melds, found faster), or None when there is none."""
    mod = contract_core(len(contract))
    if mod is not None:
        return _hand_melds(_native_hand(mod, hand, rules, tuple(contract), True), _walk_order(tuple(contract))[0])
    search = DistanceSearch(hand, Cards(), rules, contract)
    search.find(zero=True)
    if search.first is None:
        return None
    return search.decode(search.first)[0]


# ---------------------------------------------------------------- the compiled core, nothing to come


@cache
def _native_plan(
    contract: tuple[Requirement, ...], set_min: int, run_min: int
) -> tuple[list[tuple[bool, int]], list[bool]]:
    """The requirements in walk order as (run, minimum length), and whether each repeats the one before."""
    order, same = _walk_order(contract)
    out = []
    for i in order:  # min_length, from the two rule options it reads
        run = contract[i].kind == "run"
        out.append((run, max(contract[i].min_len, run_min if run else set_min)))
    return out, list(same)


@cache
def _wild_indexes(wilds: frozenset[Card]) -> list[int]:
    return sorted(w.index for w in wilds)


def _native_hand(mod: Any, hand: Cards, rules: ContractRules, contract: tuple[Requirement, ...], melds: bool) -> Any:
    """The compiled search with nothing to come (``find(zero=True)``): the lay-down's melds as (card, role)
    index pairs in walk order, or None (``melds``); else whether there is one. Inputs checked first."""
    counts = hand.counts
    if len(counts) != N_CARDS or min(counts) < 0:
        raise CardError("the hand's counts must cover every card, each >= 0")
    reqs, same = _native_plan(contract, rules.set_min, rules.run_min)
    return call(
        mod.hand_lay_down, counts, _wild_indexes(rules.wilds), reqs, same, rules.ace, rules.wild_limit,
        rules.distinct_set_ranks, melds,
    )  # fmt: skip


def _hand_melds(found: list[list[tuple[int, int]]] | None, order: tuple[int, ...]) -> tuple[Meld, ...] | None:
    """The compiled core's melds (walk order, (card, role) index pairs) as melds in the contract's order."""
    if found is None:
        return None
    by_req: list[Meld] = [Meld((ALL_CARDS[0],))] * len(order)
    for k, i in enumerate(order):
        pairs = found[k]
        by_req[i] = Meld(
            tuple(ALL_CARDS[card] for card, _ in pairs),
            tuple(None if role < 0 else ALL_CARDS[role] for _, role in pairs),
        )
    return tuple(by_req)
