"""``shanghai solve`` for Contract Shanghai: contract check, distance, best lay-off.

For a player who has not laid down: the best lay-down (fewest points left),
the distance to the contract, and (with ``layoff_same_turn``) the best
lay-off right after laying down. For a player who has: the best lay-off.
``--objective value`` lays off the most points, ``cards`` (the default) the
most cards.

JSON keys: ``can_lay_down``, ``lay_down``, ``points_left``, ``distance``,
``missing``, ``layoff``, ``swaps``, ``can_go_out``, ``status`` (and
``seconds``, added by the CLI).
"""

from __future__ import annotations

from rich.console import Console

from cli.common import Outcome, SolveOptions, cards_markup, meld_markup
from solver.answers import solve_puzzle
from solver.contract import Distance, LayDown, Layoff
from solver.puzzles import ContractPosition, Puzzle

__all__ = ["solve"]


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Answer every question of a Contract Shanghai position."""
    answer = solve_puzzle(puzzle, opts)
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    data = answer.data
    down: LayDown | None = answer.result["down"]
    dist: Distance | None = answer.result["dist"]
    layoff: Layoff | None = answer.result["layoff"]
    whole: bool = answer.result["whole"]
    hand, table, can_go_out, status = pos.hand, pos.table, data["can_go_out"], data["status"]

    def render(console: Console) -> None:
        console.print(f"[bold]{puzzle.name}[/]  [dim]contract, round {pos.round}: {data['contract']}[/]")
        for i, t in enumerate(table):
            console.print(f"  table {i}  [dim]p{t.owner}[/] {meld_markup(t.meld)}")
        console.print(f"  hand     {cards_markup(hand)}{'  [dim](laid down)[/]' if pos.laid_down else ''}")
        if not pos.laid_down:
            what = "the whole hand goes down" if whole else "can lay down"
            if down is None:
                console.print(f"  [red]cannot lay down[/]{' the whole hand' if whole else ''}")
            else:
                console.print(f"  [green]{what}[/]:")
                for m in down.melds:
                    console.print(f"    {meld_markup(m)}")
                console.print(f"  left     {cards_markup(down.hand)}  [dim]({down.points_left} points)[/]")
            if dist is not None:
                console.print(f"  missing  {dist.missing} card(s)")
                if dist.missing and dist.options:
                    console.print(f"  outs     {cards_markup(dist.options.distinct())}")
        if layoff is not None:
            console.print(f"  lay off  {cards_markup(layoff.played)}  [dim]({layoff.points} points)[/]")
            for s in layoff.swaps:
                console.print(
                    f"  swap     {cards_markup([s.card])} for {cards_markup([s.wild])} in meld {s.meld}, wild to meld {s.to}"
                )
            for i, t in enumerate(layoff.table):
                console.print(f"    {i} [dim]p{t.owner}[/] {meld_markup(t.meld)}")
        console.print(f"  go out   {'[green]yes[/]' if can_go_out else 'no'}  [dim]{status}[/]")

    return Outcome(data, render, answer.mismatch)
