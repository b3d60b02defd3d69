"""Puzzle generator benchmark: the difficulty table and the generation speed.

    python -m benchmarks.bench_generate                 # 100 puzzles per level and game
    python -m benchmarks.bench_generate --per-level 10  # a quick look

For each game and level, ``--per-level`` puzzles are generated (seeded), and
each is put before the engine's ``greedy`` and ``solver`` players (and, for
Manipulation, the ``shallow`` search: one loosening move, then greedy);
the table shows how often each finds the puzzle's unique answer, the mean
score, and the mean generation time per puzzle (target: a hard
Manipulation puzzle in under 2 s on average). One process, one core.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from solver.generate import GAMES, LEVELS, generate
from solver.generate.players import finds_answer


def main() -> None:
    """Run the benchmark and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-level", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    table = Table(title=f"Generated puzzles: {args.per_level} a level and game, seed {args.seed}")
    for col in ("game", "level", "greedy finds", "shallow finds", "solver finds", "mean score", "s / puzzle", "kinds"):
        table.add_column(col, justify="left" if col in ("game", "level", "kinds") else "right")
    for game in args.games.split(","):
        for level in LEVELS:
            start = time.perf_counter()
            puzzles = generate(game, level, args.per_level, args.seed)
            per = (time.perf_counter() - start) / len(puzzles)
            deciders = ["greedy", "shallow", "solver"] if game == "manipulation" else ["greedy", "solver"]
            found = {k: sum(finds_answer(k, p) for p in puzzles) for k in deciders}
            kinds: dict[str, int] = {}
            for p in puzzles:
                kinds[p.meta["kind"]] = kinds.get(p.meta["kind"], 0) + 1

            def pct(k: str, found: dict[str, int] = found, n: int = len(puzzles)) -> str:
                return f"{100 * found[k] / n:.0f}%" if k in found else "-"

            mean = sum(float(p.meta["score"]) for p in puzzles) / len(puzzles)
            table.add_row(
                game,
                level,
                pct("greedy"),
                pct("shallow"),
                pct("solver"),
                f"{mean:.1f}",
                f"{per:.3f}",
                " ".join(f"{k} {n}" for k, n in sorted(kinds.items())),
            )
            Console(stderr=True).print(f"{game} {level} done", style="dim")
    Console().print(table)


if __name__ == "__main__":
    main()
