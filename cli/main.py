"""The typer app: ``shanghai check``, ``shanghai solve`` and friends.

Commands parse, call the library, format. Data goes to stdout (``--json``:
one object per line), messages to stderr. Exit codes: 0 ok, 1 no solution
or a failed ``--check``, 2 bad input.
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cli.common import (
    EXIT_BAD_INPUT,
    EXIT_FAIL,
    Outcome,
    SolveOptions,
    bad_input,
    cards_markup,
    emit_json,
    err,
    meld_markup,
    out,
)
from solver import __version__
from solver.errors import ShanghaiError
from solver.puzzles import (
    ContractPosition,
    ManipulationPosition,
    Puzzle,
    ZsyPosition,
    iter_puzzle_paths,
    load,
    position_dict,
)

app = typer.Typer(
    name="shanghai",
    help="Solve and play the Shanghai card games: Manipulation Shanghai, Contract Shanghai, Zheng Shang You.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine output: one JSON object per line on stdout.")]


def _version(value: bool) -> None:
    if value:
        out.print(f"shanghai {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        Optional[bool],  # noqa: UP045 - typer needs Optional here
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Solve and play the Shanghai card games."""


def _load_all(paths: list[Path]) -> tuple[list[Puzzle], int]:
    """Load every puzzle under ``paths``; a bad one is reported in one line and skipped."""
    puzzles: list[Puzzle] = []
    bad = 0
    for path in paths:
        files = iter_puzzle_paths(path)
        if not files:
            err.print(f"[red]error:[/] {path}: no puzzle files (*.toml) here")
            bad += 1
        for file in files:
            try:
                puzzles.append(load(file))
            except ShanghaiError as exc:
                err.print(f"[red]error:[/] {exc}", markup=True)
                bad += 1
    return puzzles, bad


def render_position(puzzle: Puzzle) -> None:
    """Print a puzzle's position with pretty suits."""
    head = f"[bold]{puzzle.name}[/]  [dim]{puzzle.game}[/]"
    if puzzle.title and puzzle.title != puzzle.name:
        head += f"  {puzzle.title}"
    out.print(head)
    pos = puzzle.position
    if isinstance(pos, ManipulationPosition):
        for meld in pos.table:
            out.print(f"  table  {meld_markup(meld)}")
        out.print(f"  hand   {cards_markup(pos.hand)}")
    elif isinstance(pos, ContractPosition):
        out.print(f"  round  {pos.round}: {' + '.join(map(str, puzzle.rules.contract(pos.round)))}")  # type: ignore[union-attr]
        for t in pos.table:
            out.print(f"  table  [dim]p{t.owner}[/] {meld_markup(t.meld)}")
        out.print(f"  hand   {cards_markup(pos.hand)}{'  [dim](laid down)[/]' if pos.laid_down else ''}")
        if pos.discard is not None:
            out.print(f"  discard {cards_markup([pos.discard])}")
    elif isinstance(pos, ZsyPosition):
        out.print(f"  hand   {cards_markup(pos.hand)}")
        if pos.to_beat is not None:
            kind = f" [dim]({pos.to_beat_kind})[/]" if pos.to_beat_kind else ""
            out.print(f"  beat   {cards_markup(pos.to_beat)}{kind}")


@app.command()
def check(
    paths: Annotated[list[Path], typer.Argument(help="Puzzle files or folders of them.")],
    json: JsonOpt = False,
) -> None:
    """Validate puzzle files and print each position with pretty suits.

    Exit 0 when every file is valid, 2 when any is not (each bad file is
    named in one line on stderr; the others are still checked).
    """
    puzzles, bad = _load_all(paths)
    for puzzle in puzzles:
        if json:
            emit_json(
                {
                    "puzzle": puzzle.name,
                    "game": puzzle.game,
                    "title": puzzle.title,
                    "rules": puzzle.rules.changed(),
                    "position": position_dict(puzzle.position),
                    "answer": puzzle.answer,
                    "valid": True,
                }
            )
        else:
            render_position(puzzle)
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)


_HANDLERS = {"manipulation": "cli.games.manipulation", "contract": "cli.games.contract", "zsy": "cli.games.zsy"}


def _solve_one(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    module: Any = importlib.import_module(_HANDLERS[puzzle.game])
    return module.solve(puzzle, opts)  # type: ignore[no-any-return]


def _parse_rule_overrides(preset: str | None, rules: list[str]) -> dict[str, Any]:
    data: dict[str, Any] = {}
    if preset:
        data["preset"] = preset
    for item in rules:
        key, eq, raw = item.partition("=")
        if not eq:
            bad_input(f"--rule takes KEY=VALUE, not {item!r}")
        value: Any = raw
        if raw.lower() in ("true", "false"):
            value = raw.lower() == "true"
        elif raw.lstrip("-").isdigit():
            value = int(raw)
        data[key.strip()] = value
    return data


@app.command()
def solve(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Puzzle files or folders of them.")] = None,  # noqa: UP045
    json: JsonOpt = False,
    objective: Annotated[str, typer.Option(help="Manipulation: maximise 'cards' played or their 'value'.")] = "cards",
    time_limit: Annotated[float, typer.Option("--time-limit", min=0.01, help="Seconds per puzzle.")] = 10.0,
    all_plays: Annotated[
        bool, typer.Option("--all", help="Manipulation: every distinct best set of hand cards.")
    ] = False,
    check_answers: Annotated[
        bool, typer.Option("--check", help="Compare with each file's [answer]; exit 1 on a mismatch.")
    ] = False,
    table: Annotated[Optional[str], typer.Option(help="Inline table: melds separated by '|'.")] = None,  # noqa: UP045
    hand: Annotated[Optional[str], typer.Option(help="Inline hand, e.g. '8H 9C KD'.")] = None,  # noqa: UP045
    game: Annotated[str, typer.Option(help="Game of an inline position.")] = "manipulation",
    preset: Annotated[Optional[str], typer.Option(help="Rule preset of an inline position.")] = None,  # noqa: UP045
    rule: Annotated[
        Optional[list[str]], typer.Option("--rule", help="Rule option KEY=VALUE for an inline position (repeatable).")  # noqa: UP045
    ] = None,
) -> None:
    """Solve puzzle files, folders of them, or an inline position (--table/--hand).

    Manipulation: the play with the most hand cards, least table change,
    and the moves. Contract: contract check, distance, best lay-off.
    Zheng Shang You: legal moves and the fewest-plays split.
    """
    if objective not in ("cards", "value"):
        bad_input(f"--objective must be 'cards' or 'value', not {objective!r}")
    opts = SolveOptions(objective=objective, time_limit=time_limit, all_plays=all_plays)
    bad = 0
    puzzles: list[Puzzle] = []
    if hand is not None or table is not None:
        if paths:
            bad_input("give puzzle paths or an inline position (--table/--hand), not both")
        from solver.puzzles import loads

        position: dict[str, Any] = {}
        if hand is not None:
            position["hand"] = hand
        if table is not None:
            position["table"] = [m for m in table.split("|") if m.strip()]
        inline = {"game": game, "rules": _parse_rule_overrides(preset, rule or []), "position": position}
        try:
            import tomli_w

            puzzles.append(loads(tomli_w.dumps(inline), "<inline>"))
        except ShanghaiError as exc:
            bad_input(str(exc))
    elif not paths:
        bad_input("give puzzle files or folders, or an inline position with --table/--hand")
    else:
        puzzles, bad = _load_all(paths)
    mismatches = 0
    failures = 0
    for puzzle in puzzles:
        start = time.perf_counter()
        try:
            outcome = _solve_one(puzzle, opts)
        except ShanghaiError as exc:
            err.print(f"[red]error:[/] {puzzle.name}: {exc}")
            bad += 1
            continue
        outcome.data.setdefault("seconds", round(time.perf_counter() - start, 6))
        if check_answers and puzzle.answer:
            outcome.data["check"] = "mismatch" if outcome.mismatch else "ok"
        if json:
            emit_json({"puzzle": puzzle.name, "game": puzzle.game, **outcome.data})
        else:
            outcome.render(out)
        if check_answers and outcome.mismatch:
            err.print(f"[red]mismatch:[/] {puzzle.name}: {outcome.mismatch}")
            mismatches += 1
        if outcome.data.get("status") == "error":
            failures += 1
    if check_answers and not json:
        checked = sum(1 for p in puzzles if p.answer)
        err.print(f"checked {checked} answers: {checked - mismatches} ok, {mismatches} mismatched")
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)
    if mismatches or failures:
        raise typer.Exit(EXIT_FAIL)


from cli import engine_cmds  # noqa: E402

app.command()(engine_cmds.hint)
app.command()(engine_cmds.play)
app.command("selfplay")(engine_cmds.selfplay_cmd)

from cli import generate_cmds  # noqa: E402

app.command("generate")(generate_cmds.generate_cmd)

from cli import render_cmds  # noqa: E402

app.command("render")(render_cmds.render_cmd)


@app.command()
def engine() -> None:
    """Run the JSON-lines engine on stdin/stdout (see docs/protocol.md)."""
    from solver.engine.protocol import serve

    serve()


@app.command()
def serve(
    host: Annotated[
        str, typer.Option(help="Address to listen on (0.0.0.0: every network; a warning is printed).")
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port to listen on.")] = 8000,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the page in the browser.")] = False,
    workers: Annotated[int, typer.Option(min=0, max=64, help="Solver worker processes (0: threads).")] = 2,
) -> None:
    """Run the web page and its HTTP API (needs the web extra; see docs/web.md)."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        bad_input("shanghai serve needs the web extra: pip install -e '.\\[web]'")  # rich markup escape
    from web.serve import serve as run

    run(host, port, open_browser=open_browser, workers=workers)


def main() -> None:
    """Entry point of the ``shanghai`` console script."""
    try:
        app()
    except ShanghaiError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise SystemExit(EXIT_BAD_INPUT) from None
