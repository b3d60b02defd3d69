"""Run windows: computed from the rank positions, they are the paths of the rank graph (networkx)."""

from __future__ import annotations

import pytest

from solver.graph.runs import rank_graph, run_windows


def _graph_paths(ace: str, min_len: int, max_len: int) -> tuple[tuple[int, ...], ...]:
    """The paths of ``min_len``..``max_len`` nodes walked in the rank graph, by start then length."""
    graph = rank_graph(ace)
    out: list[tuple[int, ...]] = []
    for start in sorted(graph.nodes):
        path = [start]
        while True:
            if min_len <= len(path) <= max_len and not (1 in path and 14 in path):
                out.append(tuple(path))
            successors = list(graph.successors(path[-1]))
            if not successors or len(path) >= max_len:
                break
            path.append(successors[0])
    return tuple(out)


@pytest.mark.parametrize("ace", ["low", "high", "both"])
def test_run_windows_are_the_rank_graphs_paths(ace: str) -> None:
    for min_len in range(0, 16):
        for max_len in range(0, 16):
            assert run_windows(ace, min_len, max_len) == _graph_paths(ace, min_len, max_len), (min_len, max_len)


def test_run_windows_do_not_build_the_graph() -> None:
    run_windows.cache_clear()
    rank_graph.cache_clear()
    assert run_windows("both", 3) and rank_graph.cache_info().currsize == 0
