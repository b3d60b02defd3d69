"""``shanghai render``: a puzzle as a picture to post (SVG or PNG)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.common import bad_input, emit_json, err, seconds_option
from cli.files import write_output
from solver.errors import ShanghaiError


def render_cmd(
    file: Annotated[Path, typer.Argument(help="The puzzle file (.toml) to draw.", show_default=False)],
    output: Annotated[
        Path,
        typer.Option("-o", "--output", help="Where to write the picture: a .svg or .png file.", show_default=False),
    ],
    answer: Annotated[
        bool, typer.Option("--answer", help="Draw the solution too: played and moved cards marked, steps numbered.")
    ] = False,
    time_limit: Annotated[float, seconds_option("Seconds for the solver (with --answer).")] = 10.0,
    json_out: Annotated[bool, typer.Option("--json", help="Print what was written as JSON on stdout.")] = False,
) -> None:
    """Draw a puzzle (and with --answer its solution) as an SVG or PNG picture."""
    from solver.picture import puzzle_svg, svg_to_png
    from solver.puzzles import load

    suffix = output.suffix.lower()
    if suffix not in (".svg", ".png"):
        bad_input(f"--output must end in .svg or .png, not {output.name[-40:]!r}")
    if not output.parent.is_dir():
        bad_input(f"--output: no such folder {str(output.parent)[-60:]}")
    if not time_limit > 0 or time_limit == float("inf"):
        bad_input("--time-limit must be a positive number of seconds")
    try:
        svg = puzzle_svg(load(file), answer=answer, time_limit=time_limit)
    except ShanghaiError as exc:
        bad_input(str(exc))
    data = svg.encode() if suffix == ".svg" else svg_to_png(svg)
    write_output(output, data)
    if json_out:
        emit_json({"file": str(file), "output": str(output), "format": suffix[1:], "bytes": len(data)})
    else:
        err.print(f"wrote {output} ({len(data):,} bytes)", markup=False, highlight=False)
