"""``shanghai post``, ``shanghai daily`` and ``shanghai book``: puzzles ready to share."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated, Optional

import typer

from cli import choices
from cli.common import bad_input, emit_json, err, out, seconds_option
from cli.files import make_folder
from solver.errors import ShanghaiError

__all__ = ["post_cmd", "daily_cmd", "book_cmd"]

TimeOpt = Annotated[float, seconds_option("Seconds for the solver per puzzle.")]


def post_cmd(
    file: Annotated[Path, typer.Argument(help="The puzzle file (.toml) to post.", show_default=False)],
    output: Annotated[
        Path, typer.Option("-o", "--output", help="Folder for the picture and the posts.", show_default=False)
    ],
    fmt: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--format", help="reddit, discord, bgg, html or markdown: print that post on stdout too."),
    ] = None,
    url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--url", help="The solver web page's public address: the post links the position there."),
    ] = None,
    picture_url: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--picture-url", help="Where the picture will be online (default: its file name)."),
    ] = None,
    time_limit: TimeOpt = 10.0,
    json_out: Annotated[bool, typer.Option("--json", help="Print what was written as JSON on stdout.")] = False,
) -> None:
    """Write a post of a puzzle for each forum: the question picture, the answer behind the forum's spoiler.

    Writes FOLDER/NAME.png and NAME.reddit.md (>!...!<), NAME.discord.txt (||...||), NAME.bgg.txt
    ([o]...[/o]), NAME.html and NAME.md (<details>); FOLDER is made if missing. With --url, each post
    links the position on that page.
    """
    from solver.generate.post import FORMATS, SUFFIX, answer_words, post
    from solver.picture import puzzle_svg, svg_to_png
    from solver.puzzles import load

    if fmt is not None and fmt not in FORMATS:
        bad_input(f"--format must be one of {', '.join(FORMATS)}, not {fmt[:40]!r}")
    if output.exists() and not output.is_dir():
        bad_input(f"--output: {str(output)[-60:]} is a file, not a folder")
    make_folder(output)  # as generate -o: a missing folder is made
    try:
        puzzle = load(file)
        png = svg_to_png(puzzle_svg(puzzle))
        words = answer_words(puzzle, time_limit)
    except ShanghaiError as exc:
        bad_input(str(exc))
    stem = file.stem
    (output / f"{stem}.png").write_bytes(png)
    written = [str(output / f"{stem}.png")]
    texts = {}
    for f in FORMATS:
        texts[f] = post(puzzle, f, picture_url or f"{stem}.png", url, words)
        path = output / f"{stem}.{SUFFIX[f]}"
        path.write_text(texts[f], encoding="utf-8")
        written.append(str(path))
    if json_out:
        emit_json({"file": str(file), "written": written, "answer": words})
    elif fmt is not None:
        out.print(texts[fmt], markup=False, highlight=False, end="")
    if not json_out:
        err.print(f"wrote {', '.join(written)}", markup=False, highlight=False)


def daily_cmd(
    date: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--date", help="The day, YYYY-MM-DD (default: today, UTC)."),
    ] = None,
    game: Annotated[Optional[str], typer.Option(help="Fix the game (default: by day, in turn).")] = None,  # noqa: UP045
    difficulty: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="Fix the level (default: by weekday, Monday easy to Sunday expert)."),
    ] = None,
    question: Annotated[Optional[str], typer.Option(help=choices.QUESTION_HELP)] = None,  # noqa: UP045
    output: Annotated[
        Optional[Path], typer.Option("-o", "--output", help="Write the puzzle file here (else TOML on stdout).")  # noqa: UP045
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="The puzzle as JSON on stdout.")] = False,
) -> None:
    """The puzzle of the day: the same puzzle for everyone on a given date."""
    from solver.generate import GAMES, LEVELS
    from solver.generate.post import daily
    from solver.puzzles import dumps, position_json

    try:
        day = dt.date.fromisoformat(date) if date is not None else dt.datetime.now(dt.UTC).date()
    except ValueError:
        bad_input(f"--date must be YYYY-MM-DD, not {date[:40]!r}")  # type: ignore[index]
    if game is not None and game not in GAMES:
        bad_input(f"unknown game {game[:40]!r} (known: {', '.join(GAMES)})")
    if difficulty is not None and difficulty not in LEVELS:
        bad_input(f"--difficulty must be one of {', '.join(LEVELS)}, not {difficulty[:40]!r}")
    if output is not None and not output.parent.is_dir():
        bad_input(f"--output: no such folder {str(output.parent)[-60:]}")
    try:
        puzzle = daily(day, game, difficulty, question)
    except ShanghaiError as exc:
        bad_input(str(exc))
    text = dumps(puzzle)
    if output is not None:
        output.write_text(text, encoding="utf-8")
    if json_out:
        emit_json(
            {
                "date": day.isoformat(),
                "game": puzzle.game,
                "title": puzzle.title,
                "difficulty": puzzle.meta.get("difficulty"),
                "position": position_json(puzzle.position),
                "answer": puzzle.answer,
                "file": str(output) if output is not None else None,
            }
        )
    elif output is None:
        out.print(text, markup=False, highlight=False, end="")
    else:
        err.print(f"wrote {output}", markup=False, highlight=False)


def book_cmd(
    paths: Annotated[list[Path], typer.Argument(help="Puzzle files or folders of them.", show_default=False)],
    output: Annotated[Path, typer.Option("-o", "--output", help="The PDF to write.", show_default=False)],
    title: Annotated[str, typer.Option(help="The book's title.")] = "Shanghai puzzles",
    time_limit: TimeOpt = 10.0,
    json_out: Annotated[bool, typer.Option("--json", help="Print what was written as JSON on stdout.")] = False,
) -> None:
    """A puzzle book (PDF): one page a puzzle, then the answers. Needs the `book` extra (fpdf2)."""
    from cli.inline import load_paths
    from solver.generate.post import book

    if output.suffix.lower() != ".pdf":
        bad_input(f"--output must end in .pdf, not {output.name[-40:]!r}")
    if not output.parent.is_dir():
        bad_input(f"--output: no such folder {str(output.parent)[-60:]}")
    loaded = load_paths(paths)
    if loaded.bad:
        raise typer.Exit(2)
    try:
        pages = book(loaded.puzzles, output, title=title, time_limit=time_limit)
    except ShanghaiError as exc:
        bad_input(str(exc))
    if json_out:
        emit_json({"output": str(output), "puzzles": len(loaded.puzzles), "pages": pages})
    else:
        err.print(f"wrote {output} ({len(loaded.puzzles)} puzzles, {pages} pages)", markup=False, highlight=False)
