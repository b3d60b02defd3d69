"""``shanghai generate``: puzzle files with verified, unique answers and a measured difficulty."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from cli import choices
from cli.common import bad_input, emit_json, err, out, progress_bar
from cli.files import STREAM_SEPARATOR, make_folder, write_output
from cli.inline import PRESET_NAMES
from cli.overrides import rule_overrides
from solver.errors import ShanghaiError
from solver.generate import GAMES, LEVELS, file_name, generate
from solver.generate.ladder import QUESTIONS
from solver.puzzles import Puzzle, dumps, position_json

__all__ = ["generate_cmd"]


def generate_cmd(
    game: Annotated[
        str,
        typer.Argument(metavar="GAME", help=choices.GAME_HELP, autocompletion=choices.complete_game),
    ],
    difficulty: Annotated[
        str,
        typer.Option(metavar=f"<{'|'.join(LEVELS)}>", help=choices.LEVEL_HELP, autocompletion=choices.complete_level),
    ] = "medium",
    count: Annotated[int, typer.Option(metavar="<int>", help="How many puzzles (1 or more).")] = 10,
    seed: Annotated[int, typer.Option(help="Random seed: the same seed gives the same files.")] = 0,
    preset: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            metavar=f"<{'|'.join(PRESET_NAMES)}>",
            help="Rule preset (see shanghai rules).",
            autocompletion=choices.complete_preset,
        ),
    ] = None,
    rule: Annotated[
        Optional[list[str]],  # noqa: UP045
        typer.Option("--rule", metavar="KEY=VALUE", help="Rule option KEY=VALUE (repeatable; see shanghai rules)."),
    ] = None,
    output: Annotated[
        Optional[Path], typer.Option("-o", "--output", help="Folder to write the puzzle files to.")  # noqa: UP045
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="One JSON object per puzzle on stdout.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    plain_titles: Annotated[
        bool, typer.Option("--plain-titles", help="Titles that do not give the answer's count away.")
    ] = False,
    question: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(metavar=f"<{'|'.join(q for qs in QUESTIONS.values() for q in qs)}>", help=choices.QUESTION_HELP),
    ] = None,
) -> None:
    """Generate puzzles with unique, verified answers and a measured difficulty.

    Manipulation: play N cards (a rearrangement the greedy misses).
    Contract: best lay-off with swaps, go out this turn, which card to discard,
    which lay-down leaves the best lay-off (only with --question laydown), which
    discard lets the whole hand go down (round 7, only with --question whole).
    Zheng Shang You: out in K plays, which reply, which lead wins a two-player
    endgame (only with --question lead). Files are written as
    ``<level>-<kind>-<NN>.toml`` in the output folder (stdout when none is given
    and --json is not set: the TOML texts, a line --- between two, which
    ``shanghai solve -`` reads).
    """
    if game not in GAMES:
        bad_input(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    if difficulty not in LEVELS:
        bad_input(f"--difficulty must be one of {', '.join(LEVELS)}, not {difficulty!r}")
    if count < 1:
        bad_input(f"--count must be 1 or more, not {count}")
    if output is not None and output.exists() and not output.is_dir():
        bad_input(f"{output}: not a folder")
    rules_data = rule_overrides(preset, rule or [])
    try:
        from solver.rules import rules_for

        rules = rules_for(game, rules_data)
    except ShanghaiError as exc:
        bad_input(str(exc))
    if output is not None:
        make_folder(output)  # before the work: a folder that cannot be made is said at once
    progress = progress_bar(quiet)
    with progress:
        task = progress.add_task(f"generating {difficulty} {game}", total=count)
        try:
            puzzles = generate(
                game,
                difficulty,
                count,
                seed,
                rules,
                progress=lambda _: progress.advance(task),
                titles="plain" if plain_titles else "count",
                question=question,
            )
        except ShanghaiError as exc:
            bad_input(str(exc))
    for i, puzzle in enumerate(puzzles, 1):
        path = None
        if output is not None:
            path = output / file_name(puzzle, i)
            write_output(path, dumps(puzzle).encode())
        if json:
            emit_json(_data(puzzle, path))
        elif output is None:  # a stream `solve -` reads: the TOML texts with a line --- between two
            out.print((STREAM_SEPARATOR + "\n" if i > 1 else "") + dumps(puzzle), markup=False)
    if output is not None and not json:
        err.print(f"wrote {len(puzzles)} puzzles to {output}")


def _data(puzzle: Puzzle, path: Path | None) -> dict[str, object]:
    return {
        "file": str(path) if path is not None else None,
        "game": puzzle.game,
        "title": puzzle.title,
        "rules": puzzle.rules.changed(),
        "position": position_json(puzzle.position),
        "answer": puzzle.answer,
        "meta": puzzle.meta,
    }
