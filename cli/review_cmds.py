"""``shanghai review RECORD``: every decision of one seat scored against the solver (issue 40)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.common import bad_input, emit_json, out, progress_bar, say, seconds_option
from cli.files import write_output
from solver.errors import ShanghaiError

BAR_WIDTH = 30
"""The widest bar of the terminal loss plot, in characters."""


def review_cmd(
    record: Annotated[Path, typer.Argument(help="A game record (.json) from play --save, selfplay or the engine.")],
    seat: Annotated[
        int | None, typer.Option("--seat", help="The seat to review (default: the human seat, else 0).")
    ] = None,
    time_limit: Annotated[float, seconds_option("Seconds per solver question at each decision.")] = 2.0,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            help="Contract: judge each take or call by the expected points over this many deals resampled "
            "from the seat's view (0: by the distance to the contract).",
        ),
    ] = 0,
    mistakes: Annotated[
        Path | None,
        typer.Option("--mistakes", help="A folder: write the three biggest mistakes there as puzzle files."),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Write the per-move loss plot to this .svg or .png file.")
    ] = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the review as one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
) -> None:
    """Score every decision of one seat against the solver: the loss per move, per round and for the game."""
    from cli.records import read_record
    from solver.engine import load_record
    from solver.engine.review import loss_svg, review_game

    if plot is not None and plot.suffix.lower() not in (".svg", ".png"):
        bad_input(f"--plot must end in .svg or .png, not {plot.name[-40:]!r}")
    if plot is not None and not plot.parent.is_dir():
        bad_input(f"--plot: no such folder {str(plot.parent)[-60:]}")
    if mistakes is not None and mistakes.exists() and not mistakes.is_dir():
        bad_input(f"--mistakes {str(mistakes)[-60:]}: not a folder")
    try:
        rec = load_record(read_record(record), str(record))
        with progress_bar(quiet or json_out) as bar:
            task = bar.add_task(f"reviewing {rec.game}", total=len(rec.actions))
            review = review_game(
                rec,
                seat,
                time_limit=time_limit,
                samples=samples,
                progress=lambda done, total: bar.update(task, completed=done),
            )
    except ShanghaiError as exc:
        bad_input(f"{record}: {exc}" if str(record) not in str(exc) else str(exc))
    written = _export(review, mistakes) if mistakes is not None else []
    if plot is not None:
        svg = loss_svg(review)
        if plot.suffix.lower() == ".png":
            from solver.picture import svg_to_png

            write_output(plot, svg_to_png(svg))
        else:
            write_output(plot, svg.encode())
    if json_out:
        data = review.to_json()
        data["file"] = str(record)
        data["puzzles"] = [str(p) for p in written]
        emit_json(data)
        return
    _show(review, written)


def _export(review: Any, folder: Path) -> list[Path]:
    """Write the three biggest exportable mistakes as puzzle files; the paths written."""
    from cli.files import make_folder
    from solver.puzzles import dumps

    make_folder(folder)
    paths = []
    for rank, move in enumerate(review.mistakes(3, exportable=True), 1):
        puzzle = move.puzzle
        title = f"Review mistake {rank}: seat {review.seat}, decision at action {move.index + 1}"
        text = dumps(type(puzzle)(puzzle.game, puzzle.rules, puzzle.position, title, puzzle.answer, "", puzzle.meta))
        path = folder / f"mistake-{rank}.toml"
        write_output(path, text.encode())
        paths.append(path)
    return paths


def _show(review: Any, written: list[Path]) -> None:
    unit = review.unit
    say(out, (f"{review.game} review, seat {review.seat}", "bold"), f"  (loss in {unit}; lower is better)")
    say(out, ("note:", "dim"), " ", review.note)
    top = max((m.loss for m in review.moves), default=0) or 1
    for m in review.moves:
        bar = "█" * max(0, round(BAR_WIDTH * m.loss / top)) if m.loss else "·"
        found = "" if m.proven else " (best found)"
        say(
            out,
            (f"{m.deal:>2} #{m.index + 1:<4}", "dim"),
            (f"{bar:<{BAR_WIDTH}} ", "red" if m.loss else "green"),
            f"{m.loss:>4g}  {m.taken[:40]}",
            ("" if not m.loss else f"  best: {m.best[:60]}{found}", "yellow"),
        )
    for d in review.deals():
        say(out, f"deal {d['deal']}: {d['decisions']} decisions, loss {d['loss']:g}, accuracy {d['accuracy']:.1f}%")
    proven = "" if all(m.proven for m in review.moves) else " (some best actions are only best found)"
    say(
        out,
        ("game:", "bold"),
        f" {len(review.moves)} decisions, total loss {review.total:g} {unit}, accuracy {review.accuracy:.1f}%{proven}",
    )
    say(out, "accuracy: the share of judged decisions that lose nothing against the solver's best")
    for rank, m in enumerate(review.mistakes(3), 1):
        say(
            out,
            (f"mistake {rank}:", "bold"),
            f" action {m.index + 1}: {m.taken[:60]}; best {m.best[:60]} (-{m.loss:g})",
        )
    for path in written:
        say(out, ("wrote", "dim"), " ", str(path))
