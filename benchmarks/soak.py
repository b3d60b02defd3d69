"""Soak: many seeded random games of every game and preset, every action checked.

    python -m benchmarks.soak --games 10000 --workers 2          # the full soak
    python -m benchmarks.soak --games 200 --only zsy             # one game
    python -m benchmarks.soak --only manipulation --preset german  # one preset
    python -m benchmarks.soak --only contract --jokers 0-6 --games 20  # every Contract preset x 0-6 jokers

Each game is played by ``random`` players; the engine verifies every action
(an illegal one raises), and after every action the soak checks that no card
was created or lost (the cards in hands, stock, pile, table and tricks are
exactly the deck). A game is one hand of Manipulation Shanghai, two hands of
Zheng Shang You (the second begins with the tribute) and a full seven-round
game of Contract Shanghai (``--contract-rounds``).
``--jokers 0-6`` (Contract Shanghai) plays every preset once per joker
count; a combination the rules reject (``poker_deck`` with no jokers: they
are its only wilds) is listed as rejected, not played.
Prints a table: games, errors, actions, seconds and games per second.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from solver.engine.selfplay import selfplay
from solver.errors import RulesError
from solver.rules import GAMES

PLAYERS = {"manipulation": 4, "contract": 4, "zsy": 4}
SEATS = {("zsy", "teams6"): 6, ("manipulation", "norwegian"): 4}


def main() -> None:
    """Run the soak and print the table; exit 1 if any game failed."""
    args = _parse_args()
    console = Console(stderr=True)
    table = Table(title=f"soak: {args.games} random games per row, every action and card checked")
    for col in ("game", "preset", "players", "games", "errors", "mean actions", "seconds", "games/s"):
        table.add_column(col, justify="left" if col in ("game", "preset") else "right")
    failed = 0
    for game, cls in GAMES.items():
        if args.only and game != args.only:
            continue
        for preset, rules in _variants(game, cls, args.jokers):
            if args.preset and preset.split()[0] != args.preset:
                continue
            try:
                cls.from_dict(rules)
            except RulesError as exc:
                console.print(f"{game} {preset}: rejected by the rules ({exc})")
                table.add_row(game, preset, "-", "0", "0", "rejected", "-", "-")
                continue
            failed += _soak_row(args, game, preset, rules, console, table)
    Console().print(table)
    raise SystemExit(1 if failed else 0)


def _parse_args() -> argparse.Namespace:
    """The command line of :func:`main`."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=10_000, help="games per game and preset")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", choices=sorted(GAMES), help="one game only")
    parser.add_argument("--preset", help="one preset only (of the game given by --only)")
    parser.add_argument("--contract-rounds", type=int, default=7, help="rounds per Contract Shanghai game")
    parser.add_argument("--jokers", type=_span, help="Contract Shanghai: every preset with each joker count (0-6)")
    return parser.parse_args()


def _soak_row(
    args: argparse.Namespace, game: str, preset: str, rules: dict[str, Any], console: Console, table: Table
) -> int:
    """Play one game and preset's soak (with a progress bar), add its row to ``table``; the number of errors."""
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
            rules=rules,
            options=options,
            check=True,
            progress=lambda _r, task=task: bar.advance(task),  # type: ignore[misc]
        )
    wall = time.perf_counter() - start
    for e in stats.errors[:3]:
        console.print(f"[red]{game} {preset}:[/] {e}")
    mean = stats.actions / max(1, stats.games - len(stats.errors))
    console.print(
        f"{game} {preset}: {stats.games} games, {len(stats.errors)} errors, {mean:.0f} actions a game, {wall:.1f} s"
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
    return len(stats.errors)


def _span(text: str) -> range:
    """``4`` or ``0-6`` as a range of joker counts."""
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def _variants(game: str, cls: Any, jokers: range | None) -> list[tuple[str, dict[str, Any]]]:
    """The rule sets of one game: each preset, and for Contract with ``jokers`` each joker count too."""
    if game != "contract" or jokers is None:
        return [(preset, {"preset": preset}) for preset in cls.PRESETS]
    return [(f"{preset} jokers={j}", {"preset": preset, "jokers": j}) for preset in cls.PRESETS for j in jokers]


if __name__ == "__main__":
    main()
