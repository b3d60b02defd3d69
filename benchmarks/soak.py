"""Soak: many seeded random games of every game and preset, every action checked.

    python -m benchmarks.soak --games 10000 --workers 2          # the full soak
    python -m benchmarks.soak --games 200 --only zsy             # one game
    python -m benchmarks.soak --only manipulation --preset german  # one preset

Each game is played by ``random`` players; the engine verifies every action
(an illegal one raises), and after every action the soak checks that no card
was created or lost (the cards in hands, stock, pile, table and tricks are
exactly the deck). A game is one hand of Manipulation Shanghai, two hands of
Zheng Shang You (the second begins with the tribute) and a full seven-round
game of Contract Shanghai (``--contract-rounds``).
Prints a table: games, errors, actions, seconds and games per second.
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from solver.engine.selfplay import selfplay
from solver.rules import GAMES

PLAYERS = {"manipulation": 4, "contract": 4, "zsy": 4}
SEATS = {("zsy", "teams6"): 6, ("manipulation", "norwegian"): 4}


def main() -> None:
    """Run the soak and print the table; exit 1 if any game failed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per game and preset")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--preset", help="one preset only (of the game given by --only)")
    parser.add_argument("--contract-rounds", type=int, default=7, help="rounds per Contract Shanghai game")
    args = parser.parse_args()
    console = Console(stderr=True)
    table = Table(title=f"soak: {args.games} random games per row, every action and card checked")
    for col in ("game", "preset", "players", "games", "errors", "mean actions", "seconds", "games/s"):
        table.add_column(col, justify="left" if col in ("game", "preset") else "right")
    failed = 0
    for game, cls in GAMES.items():
        if args.only and game != args.only:
            continue
        for preset in cls.PRESETS:
            if args.preset and preset != args.preset:
                continue
            players = SEATS.get((game, preset), PLAYERS[game])
            options = {
                "contract": {"max_rounds": args.contract_rounds},
                "manipulation": {"max_hands": 1},
                "zsy": {"max_hands": 2},  # the second hand starts with the tribute
            }[game]
            start = time.perf_counter()
            with Progress(
                TextColumn(f"{game} {preset}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=console,
                transient=True,
            ) as bar:
                task = bar.add_task("soak", total=args.games)
                stats = selfplay(
                    game,
                    args.games,
                    ["random"] * players,
                    seed=args.seed,
                    workers=args.workers,
                    rules={"preset": preset},
                    options=options,
                    check=True,
                    progress=lambda _r, task=task: bar.advance(task),  # type: ignore[misc]
                )
            wall = time.perf_counter() - start
            failed += len(stats.errors)
            for e in stats.errors[:3]:
                console.print(f"[red]{game} {preset}:[/] {e}")
            mean = stats.actions / max(1, stats.games - len(stats.errors))
            console.print(
                f"{game} {preset}: {stats.games} games, {len(stats.errors)} errors,"
                f" {mean:.0f} actions a game, {wall:.1f} s"
            )
            table.add_row(
                game,
                preset,
                str(players),
                str(stats.games),
                str(len(stats.errors)),
                f"{mean:.0f}",
                f"{wall:.1f}",
                f"{stats.games / wall:.1f}",
            )
    Console().print(table)
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
