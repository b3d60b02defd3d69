"""Engine protocol latency over the pipe, against the same requests in process.

    python -m benchmarks.bench_protocol [--requests 300]

Rows: ``legal`` for the player to move in a Zheng Shang You, a Manipulation
and a Contract game, 24 greedy actions in (target: median under 2 ms over the pipe), and ``solve``
of two-deck Manipulation positions (target: median under 10 ms). The peer
is the same request answered by an in-process server, so the difference is
the cost of the pipe and JSON.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.positions import random_position
from solver.engine.client import Client
from solver.rules import ManipulationRules


def _time(call: Callable[[], Any], n: int) -> list[float]:
    """Milliseconds per call; a call that returns a float reports its own timed part."""
    out = []
    for _ in range(n):
        start = time.perf_counter()
        own = call()
        took = own if isinstance(own, float) else time.perf_counter() - start
        out.append(took * 1000)
    return out


def _puzzles(n: int) -> list[dict[str, Any]]:
    """Two-deck positions: a table of about 30 cards and a hand of 10."""
    rules = ManipulationRules()
    puzzles = []
    for seed in range(n):
        table, hand = random_position(rules, 30, 10, seed)
        puzzles.append({"game": "manipulation", "position": {"table": [str(m) for m in table], "hand": str(hand)}})
    return puzzles


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()
    n = args.requests
    console = Console(width=130)
    table = Table(title=f"engine protocol latency, ms ({platform.machine()}, {n} requests a row)")
    for col in ("request", "pipe median", "pipe p90", "in-process median", "pipe / in-process", "target", "met"):
        table.add_column(col, justify="left" if col in ("request", "target") else "right")
    puzzles = _puzzles(min(n, 100))
    with Client() as pipe, Client(in_process=True) as local:
        rows: list[tuple[str, Callable[[Client], Callable[[], Any]], float]] = []
        for game, players in (("zsy", 4), ("manipulation", 4), ("contract", 4)):

            def legal(c: Client, game: str = game, players: int = players) -> Callable[[], Any]:
                """Each call: the legal actions of a fresh position (then, untimed, play the first)."""
                state = {"gid": c.new_game(game, players=players, seed=3), "moves": []}

                def call() -> Any:
                    if state["moves"]:
                        status = c.apply(state["gid"], state["moves"][0])
                        if status.terminal:
                            state["gid"] = c.new_game(game, players=players, seed=status.actions)
                    start = time.perf_counter()
                    state["moves"] = c.legal(state["gid"])
                    return time.perf_counter() - start

                return call

            rows.append((f"legal ({game}), a new position each time", legal, 2.0))

        def solve(c: Client) -> Callable[[], Any]:
            it = iter(puzzles * (n // len(puzzles) + 1))
            return lambda: c.solve(next(it), time_limit=10)

        rows.append(("solve (2-deck manipulation)", solve, 10.0))
        for name, make, target in rows:
            make(pipe)()  # warm up both sides (imports, caches)
            make(local)()
            p = _time(make(pipe), n)
            q = _time(make(local), n)
            pm, qm = statistics.median(p), statistics.median(q)
            p90 = statistics.quantiles(p, n=10)[-1]
            table.add_row(
                name,
                f"{pm:.3f}",
                f"{p90:.3f}",
                f"{qm:.3f}",
                f"{pm / qm:.2f}x",
                f"< {target:g} ms",
                "yes" if pm < target else "no",
            )
    console.print(table)
    console.print(json.dumps({"note": "medians in ms on a shared machine; rerun to see the noise"}))


if __name__ == "__main__":
    main()
