"""Runs as paths in the rank graph of a suit.

Positions are 1..14: 1 is the low ace, 2..13 the ranks two to king, 14 the
high ace. The ace option only decides which positions exist, so ``low``,
``high`` and ``both`` differ by one node and one edge, and no run ever wraps
(K-A-2 would need an edge 14 -> 2, which is never there).

>>> [p for p in rank_graph("both").nodes][:3], rank_graph("low").has_node(14)
([1, 2, 3], False)
>>> run_windows("high", 3, 3)[-1]
(12, 13, 14)
>>> len(run_windows("both", 3, 13))
77
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from solver.ranks import position_range, position_rank, positions_of

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["rank_graph", "run_windows", "position_rank", "positions_of"]


@cache
def rank_graph(ace: str) -> nx.DiGraph:
    """The directed path of rank positions a run may climb under ``ace``."""
    import networkx as nx  # imported on first use: run_windows walks the same path without it

    lo, hi = position_range(ace)
    graph = nx.DiGraph()
    graph.add_nodes_from(range(lo, hi + 1))
    graph.add_edges_from((p, p + 1) for p in range(lo, hi))
    return graph


@cache
def run_windows(ace: str, min_len: int, max_len: int = 13) -> tuple[tuple[int, ...], ...]:
    """Every run shape: the paths of ``min_len``..``max_len`` nodes in the rank graph.

    A path holds each position once; a path through both ace nodes would
    hold the ace twice, so it is left out (it needs 14 nodes anyway).
    """
    lo, hi = position_range(ace)  # the rank graph's nodes; each node's one successor is the next
    out: list[tuple[int, ...]] = []
    for start in range(lo, hi + 1):
        for end in range(start + max(min_len, 1) - 1, min(start + max_len - 1, hi) + 1):
            path = tuple(range(start, end + 1))
            if not (1 in path and 14 in path):
                out.append(path)
    return tuple(out)
