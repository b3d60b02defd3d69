"""``shanghai solve`` for Manipulation Shanghai: best play, least change, moves, ``--all``, ``--check``.

The handler parses nothing and decides nothing: :func:`solver.answers.solve_puzzle`
answers (best play, least change, ``--all``, the ``[answer]`` check) and this formats it.
Lines are built as styled parts (:func:`cli.common.print_lines`), not rich markup: a
puzzle prints in a fraction of a millisecond, and as plain text when piped.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console

from cli.common import Outcome, Part, SolveOptions, cards_parts, meld_parts, plural, print_lines
from solver.answers import solve_puzzle
from solver.cards import Cards
from solver.manipulation import Play
from solver.manipulation.moves import Move
from solver.puzzles import ManipulationPosition, Puzzle

__all__ = ["solve"]

_VERDICT: dict[str, list[Part]] = {
    "optimal": [("optimal", "green")],
    "feasible": [("feasible", "yellow"), (" (time ran out)", "")],
    "infeasible": [("no card can be played", "red")],
}


def _lines(puzzle: Puzzle, play: Play, plays: tuple[Cards, ...] | None) -> list[list[Part]]:
    pos = puzzle.position
    assert isinstance(pos, ManipulationPosition)
    head: list[Part] = [(puzzle.name, "bold"), ("  ", ""), ("manipulation", "dim")]
    if puzzle.title:
        head.append(("  " + puzzle.title, ""))
    lines = [head]
    lines.extend([("  table  ", ""), *meld_parts(meld)] for meld in pos.table)
    lines.append([("  hand   ", ""), *cards_parts(pos.hand)])
    n = len(play.played)
    verdict: list[Part] = [("  ", ""), *_VERDICT[play.status]]
    if n:  # "play 0 cards -  value 0" said nothing the verdict had not
        verdict += [
            (f": play {plural(n, 'card')} ", ""),
            *cards_parts(play.played),
            ("  ", ""),
            (f"value {play.value}", "dim"),
        ]
    lines.append(verdict)
    if play.status != "infeasible":
        whole = {j for j, kept in zip(play.matching, play.kept) if kept and j is not None}
        for k, meld in enumerate(play.table):
            line = [("  new    ", ""), *meld_parts(meld)]
            if k in whole:
                line += [("  ", ""), ("kept", "dim")]
            lines.append(line)
        moved = play.moved_cards
        summary = f"{play.kept_melds} of {len(play.old_table)} melds kept, {moved} table card{'s' if moved != 1 else ''} moved"
        lines.append([("  ", ""), (summary, "dim")])
        lines.extend([("  step   ", ""), *_move_parts(move)] for move in play.moves)
    lines.append([("  left   ", ""), *cards_parts(play.hand)])
    if plays is not None:
        lines.append([(f"  {plural(len(plays), 'distinct best play')}:", "")])
        lines.extend([("         ", ""), *cards_parts(p)] for p in plays)
    return lines


def _move_parts(move: Move) -> list[Part]:
    if move.source_meld is None:
        return [("play ", ""), *cards_parts(move.cards), (" to ", ""), *meld_parts(move.target_meld)]
    return [
        ("move ", ""),
        *cards_parts(move.cards),
        (" from ", ""),
        *meld_parts(move.source_meld),
        (" to ", ""),
        *meld_parts(move.target_meld),
    ]


def _render(puzzle: Puzzle, play: Play, plays: tuple[Cards, ...] | None) -> Any:
    def render(console: Console) -> None:
        print_lines(console, _lines(puzzle, play, plays))

    return render


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Solve one Manipulation Shanghai puzzle for ``shanghai solve``."""
    answer = solve_puzzle(puzzle, opts)
    return Outcome(answer.data, _render(puzzle, answer.result["play"], answer.result["plays"]), answer.mismatch)
