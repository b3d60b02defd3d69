"""A cheap necessary condition for making a contract: counts only, no search (:func:`quick_reject`).

The contract check runs it before the exact search of
:mod:`solver.contract.search`; most hands that cannot make the contract
stop here.
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.cards import Cards
from solver.contract.shapes import suit_mask
from solver.ranks import N_NATURAL, wild_cap
from solver.rules.contract import ContractRules, Requirement, min_length

__all__ = ["quick_reject"]


def _set_steps(hn: Sequence[int], m: int, nmin: int, most: int) -> list[int]:
    """The extra wilds each further set of length ``m`` costs, per rank (``most`` sets of a rank)."""
    steps: list[int] = []
    for r in range(13):
        n = hn[r] + hn[13 + r] + hn[26 + r] + hn[39 + r]
        prev = 0
        for t in range(1, most + 1):
            if n < t * nmin:
                break
            cost = t * m - n if t * m > n else 0
            steps.append(cost - prev)
            prev = cost
    return steps


def _run_steps(hn: Sequence[int], m: int, nmin: int, j: int) -> list[int]:
    """The extra wilds each further run of length ``m`` costs, per suit (at most ``j`` runs)."""
    steps: list[int] = []
    window = (1 << m) - 1
    for suit in range(4):
        base = 13 * suit
        n = sum(hn[base : base + 13])
        if n < nmin:
            continue
        mask = suit_mask(hn, suit)
        b = max((mask >> start & window).bit_count() for start in range(1, 16 - m))
        prev = 0
        for t in range(1, j + 1):
            if n < t * nmin:
                break
            cost = max(0, t * m - min(t * b, n))
            steps.append(cost - prev)
            prev = cost
    return steps


def quick_reject(hand: Cards, rules: ContractRules, contract: Sequence[Requirement]) -> bool:
    """A cheap necessary condition: True when ``hand`` surely cannot make ``contract`` on its own.

    Counts only. ``t`` sets of one rank with ``n`` naturals need ``t * nmin``
    naturals and at least ``t * m - n`` wilds; ``t`` runs of one suit need
    ``t * nmin`` naturals of the suit and at least ``t * m - min(t * b, n)``
    wilds, ``b`` the most naturals inside one window of ``m`` positions
    (every run of ``m`` or more cards holds such a window, and its wilds
    are at least that window's gaps). The requirements of one kind and
    length take the cheapest such options (the costs grow with ``t``);
    together they may not need more wilds than the hand holds, nor more
    cards than it has.
    """
    wilds = rules.wilds
    counts = hand.counts
    hw = sum(counts[w.index] for w in wilds)
    groups: dict[tuple[str, int], int] = {}
    size_total = 0
    for req in contract:
        m = min_length(req, rules)
        size_total += m
        groups[(req.kind, m)] = groups.get((req.kind, m), 0) + 1
    if size_total > len(hand):
        return True
    hn = list(counts[:N_NATURAL])
    for w in wilds:
        if w.index < N_NATURAL:
            hn[w.index] = 0
    need_total = 0
    for (kind, m), j in groups.items():
        nmin = m - wild_cap(rules.wild_limit, m)
        if kind == "set":
            steps = _set_steps(hn, m, nmin, 1 if rules.distinct_set_ranks else j)
        else:
            steps = _run_steps(hn, m, nmin, j)
        if len(steps) < j:
            return True
        steps.sort()
        need_total += sum(steps[:j])
        if need_total > hw:
            return True
    return False
