"""How long an ``ismcts`` decision takes against its budget in seconds, per game.

Run from the repository root::

    python -m benchmarks.decision_time [--games 10] [--seed 9200] [--budget 0.2]

One ``ismcts`` seat (its budget in seconds) against three ``solver``
players, seats rotating with the seed, one hand (one round) a game; every
decision of the ``ismcts`` seat is timed in wall time (the budget is wall
time: a loaded machine makes fewer deals, not longer decisions). Prints, per
game, the decisions, those searched (more than one candidate), the mean,
median, 95th percentile and longest searched decision, and how many ran
past the budget by more than 10% (``late``): the target is none (issue 14: "at most
0.2 s a decision"). OR-Tools and networkx are imported before the clock
starts: a process's first solver question imports them (0.3-0.8 s, once),
which is start-up, not a decision's cost. The machine is shared: the load shows in the number of
deals, so read the longest against the budget, not against another run.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from solver.engine import new_game
from solver.engine.ismcts import IsmctsPlayer
from solver.engine.players import SolverPlayer

OPTIONS: dict[str, dict[str, Any]] = {
    "zsy": {"max_hands": 1},
    "contract": {"max_rounds": 1},
    "manipulation": {"max_hands": 1},
}


def decision_times(game_name: str, games: int, seed: int, budget: float) -> tuple[int, list[float]]:
    """All of the ``ismcts`` seat's decisions, and the wall seconds of those it searched."""
    decisions = 0
    searched: list[float] = []
    for g in range(games):
        game = new_game(game_name, None, 4, seed + g, **OPTIONS[game_name])
        seat = (seed + g) % 4
        search = IsmctsPlayer(seed=seed + g, budget=budget)
        solver = SolverPlayer(seed + g)
        while not game.is_terminal():
            if game.current_player() != seat:
                game.apply(solver.choose(game))
                continue
            start = time.perf_counter()
            decision = search.decide(game)
            took = time.perf_counter() - start
            decisions += 1
            if decision.facts.get("simulations", 0):
                searched.append(took)
            game.apply(decision.action)
    return decisions, searched


def main() -> None:
    """Time the decisions of every game and print the table."""
    import networkx  # noqa: F401  (start-up: imported once by a process's first solver question)
    import ortools.sat.python.cp_model  # noqa: F401

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per game kind")
    parser.add_argument("--seed", type=int, default=9200)
    parser.add_argument("--budget", type=float, default=0.2, help="seconds a decision")
    parser.add_argument("--game", action="append", choices=sorted(OPTIONS), help="only these games")
    args = parser.parse_args()
    console = Console()
    table = Table(
        title=f"ismcts decisions against a {args.budget} s budget "
        f"({platform.processor() or platform.machine()}, wall time, shared machine)"
    )
    for col in ("game", "games", "decisions", "searched", "mean s", "median s", "p95 s", "max s", "late"):
        table.add_column(col, justify="left" if col == "game" else "right")
    for name in args.game or ["zsy", "contract", "manipulation"]:
        decisions, searched = decision_times(name, args.games, args.seed, args.budget)
        if not searched:
            table.add_row(name, str(args.games), str(decisions), "0", "-", "-", "-", "-", "0")
            continue
        ordered = sorted(searched)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        late = sum(t > 1.1 * args.budget for t in searched)
        table.add_row(
            name,
            str(args.games),
            str(decisions),
            str(len(searched)),
            f"{statistics.mean(searched):.3f}",
            f"{statistics.median(searched):.3f}",
            f"{p95:.3f}",
            f"{ordered[-1]:.3f}",
            str(late),
        )
        console.print(f"[dim]{name}: {len(searched)} searched decisions, longest {ordered[-1]:.3f} s[/]")
    console.print(table)


if __name__ == "__main__":
    main()
