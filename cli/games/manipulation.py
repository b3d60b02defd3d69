"""``shanghai solve`` for Manipulation Shanghai: best play, least change, moves, ``--all``, ``--check``.

The handler parses nothing and decides nothing: :func:`solver.answers.solve_puzzle`
answers (best play, least change, ``--all``, the ``[answer]`` check) and this formats it.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from cli.common import Outcome, SolveOptions, cards_markup, meld_markup
from solver.answers import solve_puzzle
from solver.cards import Cards
from solver.manipulation import Play
from solver.puzzles import ManipulationPosition, Puzzle

__all__ = ["solve"]


def _render(puzzle: Puzzle, play: Play, plays: tuple[Cards, ...] | None) -> Any:
    pos = puzzle.position
    assert isinstance(pos, ManipulationPosition)

    def render(console: Console) -> None:
        lines = [f"[bold]{puzzle.name}[/]  [dim]manipulation[/]" + (f"  {puzzle.title}" if puzzle.title else "")]
        for meld in pos.table:
            lines.append(f"  table  {meld_markup(meld)}")
        lines.append(f"  hand   {cards_markup(pos.hand)}")
        verdict = {
            "optimal": "[green]optimal[/]",
            "feasible": "[yellow]feasible[/] (time ran out)",
            "none": "[red]no card can be played[/]",
        }[play.status]
        lines.append(
            f"  {verdict}: play {len(play.played)} card{'s' if len(play.played) != 1 else ''}"
            f" {cards_markup(play.played)}  [dim]value {play.value}[/]"
        )
        if play.status != "none":
            whole = {j for j, kept in zip(play.matching, play.kept) if kept and j is not None}
            for k, meld in enumerate(play.table):
                mark = "[dim]kept[/]" if k in whole else ""
                lines.append(f"  new    {meld_markup(meld)}  {mark}".rstrip())
            lines.append(
                f"  [dim]{play.kept_melds} of {len(play.old_table)} melds kept, "
                f"{play.moved_cards} table card{'s' if play.moved_cards != 1 else ''} moved[/]"
            )
            for move in play.moves:
                lines.append(f"  step   {_move_markup(move)}")
        lines.append(f"  left   {cards_markup(play.hand)}")
        if plays is not None:
            lines.append(f"  {len(plays)} distinct best plays:")
            lines.extend(f"         {cards_markup(p)}" for p in plays)
        console.print("\n".join(lines))

    return render


def _move_markup(move: Any) -> str:
    if move.source_meld is None:
        return f"play {cards_markup(move.cards)} to {meld_markup(move.target_meld)}"
    return f"move {cards_markup(move.cards)} from {meld_markup(move.source_meld)} to {meld_markup(move.target_meld)}"


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Solve one Manipulation Shanghai puzzle for ``shanghai solve``."""
    answer = solve_puzzle(puzzle, opts)
    return Outcome(answer.data, _render(puzzle, answer.result["play"], answer.result["plays"]), answer.mismatch)
