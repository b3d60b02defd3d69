"""The typer app: ``shanghai check``, ``shanghai solve`` and friends.

Commands parse, call the library, format. Data goes to stdout (``--json``:
one object per line), messages to stderr. Exit codes: 0 ok, 1 no solution
or a failed ``--check``, 2 bad input.
"""

from __future__ import annotations

import importlib
import os
import time
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any, Optional

import typer

from cli.common import (
    EXIT_BAD_INPUT,
    EXIT_FAIL,
    Outcome,
    SolveOptions,
    bad_input,
    cards_parts,
    click,
    emit_json,
    err,
    error,
    meld_parts,
    out,
    plural,
    say,
    seconds_option,
)
from cli.inline import Inline, PresetName, check_applies, load_paths, parse_rule_overrides
from cli.output import OutputFailed, guard, output_failed
from cli.signals import EXIT_INTERRUPTED, interrupted, is_interrupt, watch_interrupts
from solver.cards import Card
from solver.errors import ShanghaiError, SolverTimeout
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition, position_json

app = typer.Typer(
    name="shanghai",
    help="Solve and play the Shanghai card games: Manipulation Shanghai, Contract Shanghai, Zheng Shang You.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion / --show-completion (bash, zsh, fish, PowerShell)
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Machine output: one JSON object per line on stdout.")]


class Objective(StrEnum):
    """What ``--objective`` maximises."""

    cards = "cards"
    value = "value"


class GameName(StrEnum):
    """The three games."""

    manipulation = "manipulation"
    contract = "contract"
    zsy = "zsy"


PresetOpt = Annotated[
    Optional[PresetName],  # noqa: UP045 - typer needs Optional here
    typer.Option(help="Rule preset (see shanghai rules)."),
]
RuleOpt = Annotated[
    Optional[list[str]],  # noqa: UP045
    typer.Option("--rule", metavar="KEY=VALUE", help="Rule option KEY=VALUE (repeatable; see shanghai rules)."),
]


def _version(value: bool) -> None:
    if value:
        from cli import version_text

        out.print(version_text(), highlight=False)
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        Optional[bool],  # noqa: UP045 - typer needs Optional here
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version and exit."),
    ] = None,
) -> None:
    """Solve and play the Shanghai card games."""


def zsy_order(cards: Iterable[Card]) -> list[Card]:
    """Zheng Shang You cards as a climbing-game player reads them: by rank, 3 low to 2 and the jokers
    high, suits in the notation's order within a rank (the notation itself is unchanged)."""
    from solver.zsy.combos import zsy_value

    return sorted(cards, key=lambda c: (zsy_value(c), c.index))


def render_position(puzzle: Puzzle) -> None:
    """Print a puzzle's position with pretty suits (user text is printed as text, never as markup)."""
    head: list[Any] = [(puzzle.name, "bold"), "  ", (puzzle.game, "dim")]
    if puzzle.title and puzzle.title != puzzle.name:
        head += ["  ", puzzle.title]
    say(out, *head)
    pos = puzzle.position
    if isinstance(pos, ManipulationPosition):
        for meld in pos.table:
            say(out, "  table  ", meld_parts(meld))
        say(out, "  hand   ", cards_parts(pos.hand))
    elif isinstance(pos, ContractPosition):
        contract = puzzle.rules.contract_text(pos.round)  # type: ignore[union-attr]
        say(out, f"  round  {pos.round}: {contract}")
        for t in pos.table:
            say(out, "  table  ", (f"p{t.owner}", "dim"), " ", meld_parts(t.meld))
        say(out, "  hand   ", cards_parts(pos.hand), ("  (laid down)", "dim") if pos.laid_down else "")
        if pos.discard is not None:
            say(out, "  discard ", cards_parts([pos.discard]))
    elif isinstance(pos, ZsyPosition):  # in rank order, the climbing game's order (3 ... A, 2, jokers)
        say(out, "  hand   ", cards_parts(zsy_order(pos.hand)))
        if pos.opponent is not None:
            say(out, "  opponent ", cards_parts(zsy_order(pos.opponent)), ("  (the last opponent; you lead)", "dim"))
        if pos.to_beat is not None:
            kind = ("", "") if not pos.to_beat_kind else (f" ({pos.to_beat_kind})", "dim")
            say(out, "  beat   ", cards_parts(zsy_order(pos.to_beat)), kind)


@app.command()
def check(
    paths: Annotated[list[Path], typer.Argument(help="Puzzle files or folders of them ('-' reads stdin).")],
    json: JsonOpt = False,
) -> None:
    """Validate puzzle files and print each position with pretty suits.

    Exit 0 when every file is valid, 2 when any is not (each bad file is
    named in one line on stderr, and with --json also as an object with
    "valid": false on stdout; the others are still checked).
    """
    loaded = load_paths(paths)
    for puzzle in loaded.puzzles:
        if json:
            emit_json(
                {
                    "puzzle": puzzle.name,
                    "game": puzzle.game,
                    "title": puzzle.title,
                    "rules": puzzle.rules.changed(),
                    "position": position_json(puzzle.position),
                    "answer": puzzle.answer,
                    "valid": True,
                }
            )
        else:
            render_position(puzzle)
    if json:
        for name, message in loaded.bad:
            emit_json({"puzzle": name, "valid": False, "error": message})
    if loaded.bad:
        raise typer.Exit(EXIT_BAD_INPUT)


_HANDLERS = {"manipulation": "cli.games.manipulation", "contract": "cli.games.contract", "zsy": "cli.games.zsy"}


def _solve_one(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    module: Any = importlib.import_module(_HANDLERS[puzzle.game])
    return module.solve(puzzle, opts)  # type: ignore[no-any-return]


def _parse_rule_overrides(preset: str | None, rules: list[str]) -> dict[str, Any]:
    """``--preset``/``--rule`` as a ``[rules]`` table; bad input exits 2."""
    try:
        return parse_rule_overrides(preset, rules)
    except ShanghaiError as exc:
        bad_input(str(exc))


def _puzzles(paths: list[Path] | None, inline: Inline, preset: Any, rule: list[str] | None) -> tuple[list[Puzzle], int]:
    """The puzzles to solve and the number of unreadable files (bad inline input exits 2)."""
    if inline.given():
        if paths:
            bad_input("give puzzle paths or an inline position (--hand, --table ...), not both")
        try:
            return [inline.puzzle(_parse_rule_overrides(preset, rule or []))], 0
        except ShanghaiError as exc:
            bad_input(str(exc))
    if not paths:
        bad_input("give puzzle files or folders ('-' reads stdin), or an inline position with --hand")
    for flag, given in (("--preset", preset is not None), ("--rule", bool(rule)), ("--game", inline.game != "")):
        if given:
            bad_input(f"{flag} applies to an inline position (--hand); a puzzle file sets its own game and [rules]")
    loaded = load_paths(paths)
    return loaded.puzzles, len(loaded.bad)


@app.command()
def solve(
    paths: Annotated[
        Optional[list[Path]],  # noqa: UP045
        typer.Argument(
            help="Puzzle files or folders of them ('-' reads puzzles from stdin: TOML, --- between two, or JSON lines)."
        ),
    ] = None,
    json: JsonOpt = False,
    objective: Annotated[
        Optional[Objective],  # noqa: UP045
        typer.Option(help="Manipulation and Contract: maximise the cards played or their value. [default: cards]"),
    ] = None,
    time_limit: Annotated[float, seconds_option("Seconds per puzzle.")] = 10.0,
    all_plays: Annotated[
        bool, typer.Option("--all", help="Manipulation: every distinct best set of hand cards.")
    ] = False,
    check_answers: Annotated[
        bool,
        typer.Option("--check", help="Compare with each file's [answer]; exit 1 on a mismatch or a missing [answer]."),
    ] = False,
    table: Annotated[Optional[str], typer.Option(help="Inline table: melds separated by '|'.")] = None,  # noqa: UP045
    hand: Annotated[Optional[str], typer.Option(help="Inline hand, e.g. '8H 9C KD'.")] = None,  # noqa: UP045
    game: Annotated[
        Optional[GameName],  # noqa: UP045
        typer.Option(help="Game of an inline position. [default: manipulation]"),
    ] = None,
    preset: PresetOpt = None,
    rule: RuleOpt = None,
    round_: Annotated[Optional[int], typer.Option("--round", help="Contract: the round (default 1).")] = None,  # noqa: UP045
    laid_down: Annotated[bool, typer.Option("--laid-down", help="Contract: the player has laid down.")] = False,
    discard: Annotated[Optional[str], typer.Option(help="Contract: the card on the discard pile.")] = None,  # noqa: UP045
    to_beat: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option("--to-beat", help="Zheng Shang You: the combination to beat, e.g. '7S 7H' or 'set:5S RJ BJ'."),
    ] = None,
    to_beat_kind: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(
            "--to-beat-kind",
            metavar="KIND",
            help="Zheng Shang You: the kind of an ambiguous --to-beat: single, set, straight, parallel or parallel-CxL.",
        ),
    ] = None,
    opponent: Annotated[
        Optional[str],  # noqa: UP045
        typer.Option(help="Zheng Shang You: the last opponent's hand (a two-player endgame, you to lead)."),
    ] = None,
) -> None:
    """Solve puzzle files, folders of them, stdin (-), or an inline position (--hand ...).

    Manipulation: the play with the most hand cards, least table change,
    and the moves. Contract: contract check, distance, best lay-off.
    Zheng Shang You: legal moves and the fewest-plays split; with --opponent,
    the leads that win the two-player endgame and the line.
    """
    inline = Inline(
        game.value if game is not None else "",
        hand=hand,
        table=table,
        round=round_,
        laid_down=laid_down,
        discard=discard,
        to_beat=to_beat,
        to_beat_kind=to_beat_kind,
        opponent=opponent,
    )
    if inline.given() and not inline.game:
        inline = Inline("manipulation", hand, table, round_, laid_down, discard, to_beat, to_beat_kind, opponent)
    puzzles, bad = _puzzles(paths, inline, preset, rule)
    games = {p.game for p in puzzles}
    for flag, given in (("--objective", objective is not None), ("--all", all_plays)):
        problem = check_applies(flag, games) if given else None
        if problem:
            bad_input(problem)
    if check_answers and inline.given():
        bad_input("--check compares with a puzzle file's [answer]; an inline position has none")
    opts = SolveOptions(objective=(objective or Objective.cards).value, time_limit=time_limit, all_plays=all_plays)
    counts = _solve_all(puzzles, opts, json, check_answers)
    bad += counts["bad"]
    if check_answers and not json:
        checked, mismatches = counts["checked"], counts["mismatches"]
        late = f", {counts['timeouts']} timed out" if counts["timeouts"] else ""
        say_err(f"checked {plural(checked, 'answer')}: {checked - mismatches} ok, {mismatches} mismatched{late}")
    if bad:
        raise typer.Exit(EXIT_BAD_INPUT)
    if counts["mismatches"] or counts["failures"] or counts["unchecked"]:
        raise typer.Exit(EXIT_FAIL)


def say_err(message: str) -> None:
    """A plain message line on stderr."""
    from cli.common import err

    say(err, message)


def _solve_all(puzzles: list[Puzzle], opts: SolveOptions, json: bool, check_answers: bool) -> dict[str, int]:
    """Solve and print each puzzle; counts of bad, mismatched, failed, checked and unchecked puzzles."""
    counts = dict.fromkeys(("bad", "mismatches", "failures", "checked", "unchecked", "timeouts"), 0)
    for puzzle in puzzles:
        start = time.perf_counter()
        try:
            outcome = _solve_one(puzzle, opts)
        except ShanghaiError as exc:
            error(f"{puzzle.name}: {exc}")
            counts["bad"] += 1
            continue
        except SolverTimeout as exc:  # too short a time limit: this puzzle's result, and the batch goes on
            outcome = _timed_out(puzzle, opts, str(exc))
        outcome.data.setdefault("seconds", round(time.perf_counter() - start, 6))
        timed_out = outcome.data.get("status") == "timeout"
        if check_answers and puzzle.answer and not timed_out:
            outcome.data["check"] = "mismatch" if outcome.mismatch else "ok"
            counts["checked"] += 1
        elif check_answers and not timed_out:
            outcome.data["check"] = "no_answer"
        if json:
            emit_json({"puzzle": puzzle.name, "game": puzzle.game, **outcome.data})
        else:
            outcome.render(out)
        if check_answers and not puzzle.answer and not timed_out:
            error(f"{puzzle.name}: no [answer] to check against", label="unchecked")
            counts["unchecked"] += 1
        if check_answers and outcome.mismatch:
            error(f"{puzzle.name}: {outcome.mismatch}", label="mismatch")
            counts["mismatches"] += 1
        if outcome.data.get("status") in ("error", "timeout"):
            counts["failures"] += 1
        counts["timeouts"] += timed_out
    return counts


def _timed_out(puzzle: Puzzle, opts: SolveOptions, reason: str) -> Outcome:
    """The result of a puzzle the time limit was too short for: status ``timeout`` (docs/json.md, solve.timeout)."""
    message = f"no answer within {opts.time_limit:g} s ({reason}); give a longer --time-limit"

    def render(console: Any) -> None:
        say(console, (puzzle.name, "bold"), "  ", (puzzle.game, "dim"))
        say(console, "  ", ("timeout", "red"), "  ", message)

    return Outcome({"status": "timeout", "error": message}, render, mismatch=None)


from cli import engine_cmds, rules_cmd  # noqa: E402

app.command()(engine_cmds.hint)
app.command()(engine_cmds.play)
app.command("selfplay")(engine_cmds.selfplay_cmd)
app.command("rules")(rules_cmd.rules)

from cli import generate_cmds  # noqa: E402

app.command("generate")(generate_cmds.generate_cmd)

from cli import render_cmds  # noqa: E402

app.command("render")(render_cmds.render_cmd)

from cli import post_cmds  # noqa: E402

app.command("post")(post_cmds.post_cmd)
app.command("daily")(post_cmds.daily_cmd)
app.command("book")(post_cmds.book_cmd)
app.command("review")(importlib.import_module("cli.review_cmds").review_cmd)


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
    workers: Annotated[
        int, typer.Option(min=1, max=64, help="Server processes (more than 1 needs --store redis://...).")
    ] = 1,
    solvers: Annotated[
        int, typer.Option(min=0, max=64, help="Solver worker processes of each server process (0: threads).")
    ] = 2,
    store: Annotated[
        str, typer.Option(help="Where games live: memory (this process) or redis://HOST:PORT/DB (shared).")
    ] = "memory",
    allowed_host: Annotated[
        list[str] | None,
        typer.Option("--allowed-host", help="A Host header name to accept besides localhost's (repeatable)."),
    ] = None,
) -> None:
    """Run the web page and its HTTP API (needs the web extra; see docs/web.md)."""
    try:
        import fastapi  # noqa: F401
        import uvicorn  # noqa: F401
    except ImportError:
        bad_input("shanghai serve needs the web extra: pip install -e '.[web]'")
    from web.serve import ServeError
    from web.serve import serve as run

    try:
        run(
            host,
            port,
            open_browser=open_browser,
            workers=workers,
            solvers=solvers,
            store=store,
            allowed_hosts=allowed_host or (),
        )
    except ServeError as exc:
        bad_input(str(exc))


def main(args: list[str] | None = None) -> None:
    """Entry point of the ``shanghai`` console script: exit 0 ok, 1 no solution or failed check, 2 bad input.

    Usage errors (an unknown option, a bad choice) are one line on stderr too, like every other bad input.
    """
    import sys

    from solver.extras import MissingExtra

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    command = typer.main.get_command(app)
    watch_interrupts()
    guard(command)
    try:
        code = command.main(args, prog_name="shanghai", standalone_mode=False)
    except OutputFailed as exc:
        if is_interrupt(exc):  # a write cut short by Ctrl-C's unwinding (a closed stream): still Ctrl-C
            interrupted()
        output_failed(exc)
    except (typer.Abort, KeyboardInterrupt) as exc:
        if not is_interrupt(exc):  # click's Abort of an end of input
            error("interrupted")
            raise SystemExit(EXIT_FAIL) from None
        interrupted()
    except click.exceptions.NoArgsIsHelpError as exc:  # a usage error: the help goes to stderr, as every message
        err.print(exc.ctx.get_help() if exc.ctx else exc.format_message(), markup=False)
        raise SystemExit(EXIT_BAD_INPUT) from None
    except click.ClickException as exc:
        error(exc.format_message())
        raise SystemExit(EXIT_BAD_INPUT) from None
    except EOFError:
        error("interrupted")
        raise SystemExit(EXIT_FAIL) from None
    except ShanghaiError as exc:
        error(str(exc))
        raise SystemExit(EXIT_BAD_INPUT) from None
    except MissingExtra as exc:  # an optional extra is not installed: one line naming it
        error(str(exc))
        raise SystemExit(EXIT_BAD_INPUT) from None
    except SolverTimeout as exc:  # the input was fine, the time limit too short: not a bug
        error(f"{exc}; give a longer --time-limit", label="timeout")
        raise SystemExit(EXIT_FAIL) from None
    except Exception as exc:  # a bug: one line, not a traceback (SHANGHAI_DEBUG=1 shows it)
        if is_interrupt(exc):  # Ctrl-C cut something short (an import of a compiled module)
            interrupted()
        if os.environ.get("SHANGHAI_DEBUG"):
            raise
        error(f"{type(exc).__name__}: {exc} (a bug; SHANGHAI_DEBUG=1 shows the traceback)", label="internal error")
        raise SystemExit(EXIT_FAIL) from None
    if code == EXIT_INTERRUPTED:  # typer's answer to a KeyboardInterrupt (no command exits 130 itself)
        interrupted()
    raise SystemExit(code if isinstance(code, int) else 0)
