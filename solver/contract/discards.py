"""The "which card to discard?" search: the distance after each discard, in one walk.

Discarding a hand card (it joins the cards that can still come) leaves the
distance of :mod:`solver.contract.search` unchanged exactly when some best
combination does without it; otherwise the distance grows by one. So the
best combinations are walked once, narrowing the cards whose discard costs
a card in every one of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.cards import Card, Cards
from solver.contract.search import DistanceSearch
from solver.contract.shapes import Cand
from solver.contract.walk import Path, StopWalk
from solver.rules.contract import ContractRules, Requirement

__all__ = ["discard_distances"]


class _Discards:
    """The hand cards whose discard raises the distance in every best combination."""

    def __init__(self, search: DistanceSearch) -> None:
        self.search = search
        self.critical = search.hand_bits  # naturals whose discard raised the distance everywhere so far
        self.wild = search.c.hw > 0  # discarding a wild raised it everywhere so far

    def visit(self, combo: tuple[Cand, ...], path: Path) -> None:
        """Narrow the critical cards by one best combination; stop when none is left."""
        s = self.search
        todo = self.critical & path.bits
        if not path.clash:
            crit = self._independent(combo, path, todo)
        else:
            crit = 0
            while todo:
                low = todo & -todo
                todo ^= low
                if s.price_moved(combo, low.bit_length() - 1, -1) != s.best:
                    crit |= low
            if self.wild and s.price_moved(combo, -1, -1) == s.best:
                self.wild = False
        self.critical &= crit
        if not self.critical and not self.wild:
            raise StopWalk

    def _independent(self, combo: tuple[Cand, ...], path: Path, todo: int) -> int:
        s = self.search
        c, d0, hn = s.c, s.best, s.c.hn
        assert d0 is not None
        crit = 0
        for x in combo:
            sh = x.shape
            mine = todo & sh.cmask
            if not mine:
                continue
            slots = x.s + 1
            need_j = slots - sh.wmax if slots > sh.wmax else 0
            if path.opened + 1 - c.hw <= d0 and path.need - x.need + need_j <= d0:
                continue  # one card fewer in this meld still costs d0
            if sh.run:
                while mine:
                    low = mine & -mine
                    mine ^= low
                    if hn[low.bit_length() - 1] < 2:  # no spare copy
                        crit |= low
            elif sum(hn[j] for j in sh.cards) <= sh.size:
                crit |= mine
        if path.opened - c.hw + 1 <= d0:
            self.wild = False
        return crit


def _discards(search: DistanceSearch) -> dict[Card, int]:
    """For each distinct hand card, the fewest extra cards after discarding it (it joins the pool)."""
    assert search.best is not None
    d0 = search.best
    found = _Discards(search)
    search.each_best(found.visit)
    out: dict[Card, int] = {}
    for card in search.hand.distinct():
        if card in search.rules.wilds:
            out[card] = d0 + 1 if found.wild else d0
        else:
            out[card] = d0 + 1 if found.critical >> card.index & 1 else d0
    return out


def discard_distances(
    hand: Cards,
    pool: Cards,
    rules: ContractRules,
    contract: Sequence[Requirement],
    *,
    time_limit: float | None = None,
) -> tuple[int | None, dict[Card, int | None], bool]:
    """The distance of ``hand``, for each distinct hand card the distance after discarding it (the
    card joins ``pool``; None where no completion exists), and whether the search finished in time."""
    search = DistanceSearch(hand, pool, rules, contract, time_limit)
    search.find()
    if search.best is None:
        return None, {card: None for card in hand.distinct()}, search.complete
    after: dict[Card, int | None] = dict(_discards(search))
    return search.best, after, search.complete
