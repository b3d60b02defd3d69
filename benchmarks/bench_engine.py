"""Engine benchmark: games per second by player kind, and a solver game's time.

    python -m benchmarks.bench_engine            # the default sizes
    python -m benchmarks.bench_engine --games 50 # more games per row

Rows: each game with four ``random`` players (the targets: Contract Shanghai
7 rounds >= 20 games/s, Manipulation Shanghai >= 20, Zheng Shang You one
hand >= 200), four ``greedy`` players for comparison in the same run, and a
full Contract Shanghai game with four ``solver`` players (target < 2 s).
One process, one core; medians of per-game times and games per second.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from solver.engine.selfplay import play_one

ROWS: list[tuple[str, str, dict[str, Any], list[str], float, str]] = [
    ("zsy", "one hand", {"max_hands": 1}, ["random"] * 4, 200.0, ">= 200 games/s"),
    ("zsy", "one hand", {"max_hands": 1}, ["greedy"] * 4, 0.0, ""),
    ("manipulation", "one hand", {"max_hands": 1}, ["random"] * 4, 20.0, ">= 20 games/s"),
    ("manipulation", "one hand", {"max_hands": 1}, ["greedy"] * 4, 0.0, ""),
    ("contract", "7 rounds", {}, ["random"] * 4, 20.0, ">= 20 games/s"),
    ("contract", "7 rounds", {}, ["greedy"] * 4, 0.0, ""),
    ("contract", "7 rounds", {}, ["solver"] * 4, 0.5, "< 2 s per game"),
]


def main() -> None:
    """Run the rows and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per row (solver rows: a quarter)")
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args()
    console = Console()
    table = Table(title=f"engine speed ({platform.processor() or platform.machine()}, 1 process)")
    for col in ("game", "unit", "players", "games", "median s/game", "games/s", "mean actions", "target", "met"):
        table.add_column(col, justify="left" if col in ("game", "unit", "players", "target") else "right")
    for game, unit, options, kinds, target, label in ROWS:
        n = max(2, args.games // 4) if kinds[0] == "solver" else args.games
        times: list[float] = []
        actions: list[int] = []
        start = time.perf_counter()
        for i in range(n):
            r = play_one(game, {}, kinds, args.seed + i, options)
            if r.error:
                console.print(f"[red]error:[/] {r.error}")
                continue
            times.append(r.seconds)
            actions.append(r.actions)
        wall = time.perf_counter() - start
        rate = n / wall
        median = statistics.median(times) if times else float("nan")
        if kinds[0] == "solver":
            met = "yes" if median < 2.0 else "no"
        elif target:
            met = "yes" if rate >= target else "no"
        else:
            met = ""
        table.add_row(
            game,
            unit,
            kinds[0],
            str(n),
            f"{median:.4f}",
            f"{rate:.1f}",
            f"{statistics.mean(actions):.0f}" if actions else "-",
            label,
            met,
        )
        console.print(f"[dim]{game} {kinds[0]}: {rate:.1f} games/s[/]")
    console.print(table)


if __name__ == "__main__":
    main()
