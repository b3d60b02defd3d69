"""The least-change model against the formulation it replaced, on random positions of every kind.

The old formulation: a ``kept`` variable in every home (``kept <= sum of
covering windows`` for a run, ``kept <= copy`` of each old suit for a set,
worth ``big``), a set's home by one copy variable a suit. Now runs without
jokers carry ``big`` on their covering windows; without jokers in play a set's
home is one variable per suit subset, the subsets holding the old set carrying
``big``; with jokers in play it keeps its copy variables and gets the cut
``kept <= old suits' copies - (old suits - 1) h`` instead of ``kept <= copy``.
The joker kinds check the last, the others the first two.
The reference below is that old formulation, kept here only to check that both
models prove the same optimum (best score, then kept melds, then cards staying
home, all in one objective) on every kind the benchmark spans.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import pytest

import solver.manipulation.least_change as lc
import solver.manipulation.play as play_module
from benchmarks.bench_manipulation_field import KINDS, Kind
from solver.errors import Status
from solver.manipulation import best_play
from solver.manipulation.model import INF, Solved
from solver.ranks import card_index


class _KeptVariableHomes(lc._Homes):
    """The old formulation: a ``kept`` variable in every home, runs without jokers included."""

    def add(self, i: int, info: lc._OldRun | lc._OldSet) -> lc._Home:
        b = self.b
        kept = b.var(0, 1)
        self.objective.append((kept, self.big))
        held: list[int] = []
        if isinstance(info, lc._OldRun):
            home = self._run(i, info, kept, held)
        else:
            home = self._old_set(i, info, kept, held)
        if info.jokers:
            rj = b.var(0, info.jokers)
            b.linear([rj, *held], [1] + [-1] * len(held), -INF, 0)
            b.linear((kept, rj), (info.jokers, -1), -INF, 0)
            self.objective.append((rj, 1))
        return home

    def _old_set(self, i: int, info: lc._OldSet, kept: int, held: list[int]) -> lc._Home:
        """A set's home by copy variables, one a suit (at most 4, at least 3 when it exists)."""
        b = self.b
        available, jokers = self.instance.available, self.instance.jokers_in_play
        h = b.var(0, 1)
        stays: list[tuple[int, int, int]] = []
        naturals_in: list[tuple[int, int]] = []
        for s in range(4):
            idx = card_index(s, info.rank)
            v = b.var(0, 1 if available[idx] or jokers else 0)
            b.linear((v, h), (1, -1), -INF, 0)
            j = -1
            naturals_in.append((v, 1))
            if s in info.suits:  # the old natural itself (WLOG: never a joker in its place)
                self.objective.append((v, 1))
                b.linear((kept, v), (1, -1), -INF, 0)
            elif self.wild:
                j = b.var(0, 1)
                b.linear((j, v), (1, -1), -INF, 0)
                held.append(j)
                naturals_in.append((j, -1))
            self.terms.copy(idx, v, j)
            stays.append((s, v, j))
        copies = [v for _, v, _ in stays]
        b.linear([*copies, h], [1, 1, 1, 1, -3], 0, INF)
        b.linear([*copies, h], [1, 1, 1, 1, -4], -INF, 0)
        if self.wild:  # a natural card in every home (without jokers every copy is one)
            b.linear([v for v, _ in naturals_in] + [h], [c for _, c in naturals_in] + [-1], 0, INF)
        b.linear((kept, h), (1, -1), -INF, 0)
        return lc._Home(
            i, "set", rank=info.rank, subsets=tuple((v, (s,)) for s, v, _ in stays), wild=tuple(j for _, _, j in stays)
        )


def _least_change_optima(kind: Kind, homes: type[lc._Homes]) -> list[tuple[int, int]]:
    """Per position: (best score, least-change objective) proven by the model built with ``homes``."""
    seen: list[Solved] = []
    solve: Callable[..., Solved | None] = lc.solve_least_change

    def spy(*args: Any, **kwargs: Any) -> Solved | None:
        solved = solve(*args, **kwargs)
        assert solved is not None
        seen.append(solved)
        return solved

    out = []
    with patch.object(lc, "_Homes", homes), patch.object(play_module, "solve_least_change", spy):
        for table, hand in kind.positions(3, 23):
            seen.clear()
            play = best_play(table, hand, kind.rules, time_limit=60)
            if not seen:  # every old meld kept: no least-change solve
                out.append((len(play.played), -1))
                continue
            assert seen[0].least_change_status is Status.OPTIMAL
            out.append((len(play.played), seen[0].least_change_value))
    return out


@pytest.mark.parametrize("kind", KINDS, ids=[k.name.split(",")[0] + f" {k.table}/{k.hand}" for k in KINDS])
def test_covering_windows_carry_kept_as_the_kept_variable_did(kind: Kind) -> None:
    assert _least_change_optima(kind, lc._Homes) == _least_change_optima(kind, _KeptVariableHomes)
