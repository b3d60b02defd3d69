"""The branch-and-bound walk of the exact distance search (:mod:`solver.contract.search`: the bound
is laid out there) over one candidate per requirement of the contract.

A walk (:class:`_Walk`) visits every combination whose lower bound is at most
the limit it is given, keeping running totals in a :class:`Path`; a visit may
end it early by raising :class:`StopWalk`. It reads its search through
:class:`Walked` (the search that owns it,
:class:`~solver.contract.search.DistanceSearch`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from itertools import compress
from typing import NamedTuple, Protocol

from solver.contract.shapes import Cand, Counts, Shape
from solver.cpsat import stopped
from solver.ranks import N_NATURAL
from solver.rules.contract import ContractRules

__all__ = ["Path", "StopWalk", "Visit", "Walked"]


class Walked(Protocol):
    """What a walk reads of the search that owns it (and ``complete``, which it clears when the time is up)."""

    c: Counts
    hand_only: bool
    rules: ContractRules
    same: tuple[bool, ...]
    deadline: float | None
    complete: bool

    @property
    def cands(self) -> list[list[Cand]]:
        """Each requirement's candidates in walk order, cheapest first."""
        ...


class StopWalk(Exception):
    """Ends a walk early: the answer is settled (or the time is up)."""


class Path(NamedTuple):
    """The running totals of a partial combination: the sum of the melds' ``need`` and ``s`` (with the
    slots they lose to each other), the slots no card to come can fill, their wild caps, the set ranks
    taken (bits), the card bits they cover (all, and runs only), whether two melds share a card."""

    need: int
    opened: int
    unfilled: int
    wmax: int
    ranks: int
    bits: int
    run_bits: int
    clash: bool


_ROOT = Path(0, 0, 0, 0, 0, 0, 0, False)

Visit = Callable[[tuple[Cand, ...], Path], None]
"""Called on each combination the walk reaches: its candidates and their totals."""


class _Walk:
    """One walk over the combinations whose lower bound is at most ``limit[0]`` (which may shrink)."""

    def __init__(self, search: Walked, limit: list[int], on_leaf: Visit, skip: Callable[[int], bool] | None) -> None:
        cands = self.cands = search.cands
        n = len(cands)
        c = search.c
        self.search, self.limit, self.on_leaf, self.skip = search, limit, on_leaf, skip
        self.hw, self.pw, self.hn, self.pn = c.hw, c.pw, c.hn, c.pn
        self.rest_s = [0] * (n + 1)
        self.rest_need = [0] * (n + 1)
        self.rest_u = [0] * (n + 1)
        for k in range(n - 1, -1, -1):
            if search.hand_only:  # sorted by s, and nothing to come: need = q = 0
                self.rest_s[k] = self.rest_u[k] = self.rest_s[k + 1] + cands[k][0].s
                continue
            self.rest_s[k] = self.rest_s[k + 1] + min(x.s for x in cands[k])
            self.rest_need[k] = self.rest_need[k + 1] + min(x.need for x in cands[k])
            self.rest_u[k] = self.rest_u[k + 1] + min(x.s - x.q for x in cands[k])
        self.distinct = search.rules.distinct_set_ranks
        self.same = search.same
        self.deadline = search.deadline
        self.last = n - 1
        self.chosen: list[Cand] = []
        # hand naturals the chosen melds can take at most: runs take their exact cards, the sets of a
        # rank any copies left, so rank r yields min(copies, set room + copies the runs take)
        self.cover = [0] * N_NATURAL  # chosen runs over each card
        self.run_take = [0] * 14  # copies of each rank the chosen runs take
        self.set_room = [0] * 14  # slots of the chosen sets of each rank
        self.copies = [0] * 14
        for i in compress(range(N_NATURAL), c.hn):
            self.copies[i % 13 + 1] += c.hn[i]
        self.set_bits = 0  # the cards of ranks with a chosen set
        self.leaves = 0  # nodes and leaves walked (the clock is read now and then)

    def run(self) -> None:
        """Walk every combination (until a visit raises :class:`StopWalk` or the time is up)."""
        with contextlib.suppress(StopWalk):
            self._node(0, 0, _ROOT)

    def _tick(self, mask: int) -> None:
        self.leaves += 1
        if self.deadline is not None and not self.leaves & mask and (time.perf_counter() > self.deadline or stopped()):
            self.search.complete = False
            raise StopWalk

    def _run_overlap(self, sh: Shape, run_bits: int) -> tuple[int, int]:
        if not (run_bits | self.set_bits) & sh.cmask:
            return 0, 0
        hn, pn, cover, set_room, run_take, copies = (
            self.hn, self.pn, self.cover, self.set_room, self.run_take, self.copies
        )  # fmt: skip
        dup = lost = 0
        for i in sh.cards:
            if not hn[i]:
                continue
            r = i % 13 + 1
            if cover[i] >= hn[i]:
                dup += 1  # another run holds every copy: this slot takes a card to come or a wild
                if not pn[i]:
                    lost += 1
            elif set_room[r] + run_take[r] >= copies[r]:
                dup += 1  # a set would lose the copy instead (and may fill it with any suit)
        return dup, lost

    def _overlap(self, x: Cand, run_bits: int) -> tuple[int, int]:
        """Hand naturals ``x`` counts on that the chosen melds already take (its extra open slots),
        and how many of those slots no card still to come can fill."""
        sh = x.shape
        if sh.run:
            return self._run_overlap(sh, run_bits)
        r = sh.rank
        room, took = self.set_room[r], self.run_take[r]
        if not room and not took:
            return 0, 0
        have = self.copies[r]
        gain = min(have, room + sh.size + took) - min(have, room + took)
        dup = min(sh.size, have) - gain
        if took:
            return dup, 0  # the runs might give copies back and fill their slots otherwise
        opened = x.s + dup
        return dup, opened - min(opened, sum(self.pn[i] for i in sh.cards)) - (x.s - x.q)

    def _child(self, k: int, x: Cand, path: Path) -> Path | None:
        """``path`` with ``x`` chosen for requirement ``k``, or None when the bound rules it out."""
        sh = x.shape
        ranks = path.ranks
        if self.distinct and not sh.run:
            bit = 1 << sh.rank
            if ranks & bit:
                return None
            ranks |= bit
        dup, lost = self._overlap(x, path.run_bits) if k else (0, 0)
        opened = path.opened + x.s + dup
        wmax = path.wmax + sh.wmax
        need = path.need + x.need
        unfilled = path.unfilled + x.s - x.q + lost
        if dup:
            need = max(need, opened - wmax)
            limit = self.limit[0]
            if (
                opened + self.rest_s[k + 1] - self.hw > limit
                or need + self.rest_need[k + 1] > limit
                or unfilled + self.rest_u[k + 1] > self.hw + self.pw
            ):
                return None
        bits = path.bits
        run_bits = path.run_bits | sh.cmask if sh.run else path.run_bits
        return Path(need, opened, unfilled, wmax, ranks, bits | sh.cmask, run_bits, path.clash or bool(bits & sh.cmask))

    def _node(self, k: int, start: int, path: Path) -> None:
        """Try each candidate of requirement ``k`` from ``start`` (identical requirements: no going back)."""
        cs = self.cands[k]
        self._tick(255)
        limit, rest_s, rest_need, rest_u = self.limit, self.rest_s, self.rest_need, self.rest_u
        s_room = limit[0] + self.hw - rest_s[k + 1] - path.opened
        need_room = limit[0] - rest_need[k + 1] - path.need
        u_room = self.hw + self.pw - rest_u[k + 1] - path.unfilled
        for idx in range(start if self.same[k] else 0, len(cs)):
            x = cs[idx]
            if x.s > s_room:
                break
            if x.need > need_room or x.s - x.q > u_room:
                continue
            child = self._child(k, x, path)
            if child is None:
                continue
            if k == self.last:
                self._leaf(x, child)
            else:
                self._descend(k, idx, x, child)
            # the bound may have tightened
            s_room = limit[0] + self.hw - rest_s[k + 1] - path.opened
            need_room = limit[0] - rest_need[k + 1] - path.need

    def _leaf(self, x: Cand, path: Path) -> None:
        if self.skip is not None and self.skip(path.bits):
            return
        self._tick(63)
        self.chosen.append(x)
        self.on_leaf(tuple(self.chosen), path)
        self.chosen.pop()

    def _descend(self, k: int, idx: int, x: Cand, path: Path) -> None:
        """Choose ``x``, walk the next requirement, and undo the choice."""
        sh = x.shape
        self.chosen.append(x)
        if sh.run:
            cover, hn, run_take = self.cover, self.hn, self.run_take
            took: list[int] = []
            for i in sh.cards:
                if cover[i] < hn[i]:
                    took.append(i % 13 + 1)
                cover[i] += 1
            for r in took:
                run_take[r] += 1
            self._node(k + 1, idx, path)
            for r in took:
                run_take[r] -= 1
            for i in sh.cards:
                cover[i] -= 1
        else:
            saved = self.set_bits
            self.set_bits |= sh.cmask
            self.set_room[sh.rank] += sh.size
            self._node(k + 1, idx, path)
            self.set_room[sh.rank] -= sh.size
            self.set_bits = saved
        self.chosen.pop()
