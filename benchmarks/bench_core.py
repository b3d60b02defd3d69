"""The compiled core against the pure-Python path and the peers, one command, the same run (issue 35).

    python -m benchmarks.bench_core                    # the default sizes (a few minutes)
    python -m benchmarks.bench_core --quick            # a smoke run (fewer positions, shorter rates)
    python -m benchmarks.bench_core --van-rijn PATH --markdown core.md

Every figure is measured on both paths in the same run wherever a game's
compiled module is built (``native``: :func:`solver.native.core` gives the
module; ``pure``: inside :func:`solver.native.pure`, or ``SHANGHAI_PURE=1``
for whole processes), next to the peers, through the public API only, so
that the table fills in as the cores are merged. Where a core is not built
its native cells say so. Four tables:

1. **Engines and envs**: random self-play actions per thread CPU second of
   each engine (ZSY, Contract, Manipulation; default presets, whole games,
   :func:`benchmarks.bench_engine._engine_rate`), RLCard 1.2.0's gin-rummy
   and doudizhu env steps per second, our PettingZoo envs' steps per second
   (``env.last()`` and a random legal index from the mask, as an agent
   does; :mod:`benchmarks.bench_engine`'s env-against-env loop). The
   measures take turns within each run (a change in the machine's load
   falls on all of them); the median of ``--runs`` runs. Targets (issue
   35): Manipulation >= 2x gin-rummy, ZSY and Contract >= 3x, every
   PettingZoo env >= 1x.
2. **Manipulation in process**, the issue's five classes of position
   (:data:`benchmarks.bench_manipulation_field.KINDS`, seed 1): per
   position the fastest of ``--repeat`` solves, then the median over the
   positions; the whole answer (least change), the plain one
   (``least_change=False``), rummikub-solver 1.0.0 (HiGHS, plain, in
   process) and, with ``--van-rijn PATH``, the van Rijn, Takes & Vis
   dynamic programme in C++ (an executable that reads ``table ; hand``
   tile lines on stdin and prints ``seconds played value tiles`` per line;
   two copies of a tile at most, so not for four decks). Agreement is
   checked: native and pure give the same optimum (cards, melds kept,
   cards moved), ours and the peer the
   same count, ours (value objective, untimed) and van Rijn the same
   value. Targets: least change <= 0.5x the peer, plain <= 0.1x the peer
   and <= 3x van Rijn.
3. **Whole processes**: cold ``shanghai --version`` (<= 150 ms) and one
   inline solve (<= 300 ms; the README's position, and issue 35's with
   ``--preset norwegian``), the median of ``--process-runs`` runs (wall),
   with the median CPU time (user + system) of the same runs beside it: on
   a loaded machine the wall time waits for a core, the CPU time less so.
4. The ratios of (1)-(3) against the targets, met or not (``native``
   where built, else ``pure``).

``--markdown FILE`` writes the tables as Markdown for docs/benchmarks.md.
The machine is shared: read ratios within one run.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.bench_engine import ENV_OPTIONS, _engine_rate, _our_env_steps, _rlcard_env_steps
from benchmarks.bench_manipulation_field import KINDS, Kind, fastest, peer_solve, peer_supports
from solver import native
from solver.cards import Cards, Suit
from solver.manipulation import best_play
from solver.melds import Meld

GAMES = ("zsy", "contract", "manipulation")
"""The engines, and the compiled module each one's hot paths use."""

CLASSES = (
    "one deck, table 28, hand 14",
    "two decks, table 40, hand 22 (tight)",
    "two decks, dense table 76, hand 16",
    "two decks, big hand 42, table 38",
    "four decks, table 143, hand 27",
)
"""Issue 35's five classes of Manipulation position, by their names in the field benchmark."""

ENGINE_TARGET = {"zsy": 3.0, "contract": 3.0, "manipulation": 2.0}
"""Engine random self-play actions/s at least this many times RLCard gin-rummy's env steps/s."""
ENV_TARGET = 1.0
"""Every PettingZoo env's steps/s at least gin-rummy's."""
LEAST_TARGET, PLAIN_TARGET, VAN_RIJN_TARGET = 0.5, 0.1, 3.0
"""Manipulation in process: least change / peer, plain / peer, plain / van Rijn, at most."""
VERSION_TARGET, SOLVE_TARGET = 0.150, 0.300
"""Whole processes: cold ``shanghai --version`` and one inline solve, seconds at most."""

INLINE = ["solve", "--table", "3H 4H 5H 6H | 3C 4C 5C 6C", "--hand", "6S KD"]
"""The inline solve timed as a whole process (the README's example, default rules)."""
INLINE_PRESET = [*INLINE, "--preset", "norwegian"]
"""Issue 35's inline solve: the same position under the norwegian preset."""


# --- the report: rich tables on the console, the same tables as Markdown ------------------------


@dataclass
class Section:
    """One table: a title, columns, rows of text, notes printed under it."""

    title: str
    columns: list[str]
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass
class Report:
    """The run's tables, printed as they are made and kept for the Markdown."""

    console: Console
    sections: list[Section] = field(default_factory=list)

    def add(self, section: Section) -> None:
        """Print a table (and its notes) and keep it."""
        table = Table(title=section.title)
        for k, col in enumerate(section.columns):
            table.add_column(col, justify="left" if k == 0 else "right")
        for row in section.rows:
            table.add_row(*row)
        self.console.print(table)
        for note in section.notes:
            self.console.print(f"  [dim]{note}[/]")
        self.sections.append(section)

    def markdown(self, head: Sequence[str]) -> str:
        """Every table as Markdown, after the ``head`` lines."""
        lines = [*head, ""]
        for s in self.sections:
            lines += [f"**{s.title}**", ""]
            lines.append("| " + " | ".join(s.columns) + " |")
            lines.append("|" + "|".join("---" if k == 0 else "---:" for k in range(len(s.columns))) + "|")
            lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in s.rows]
            lines.append("")
            lines += [f"- {note}" for note in s.notes]
            if s.notes:
                lines.append("")
        return "\n".join(lines)


# --- the two paths ---------------------------------------------------------------------------------


def paths(name: str) -> list[str]:
    """The paths to measure for compiled module ``name``: native (when built) and pure."""
    return ["native", "pure"] if native.core(name) is not None else ["pure"]


def on(path: str) -> AbstractContextManager[None]:
    """A context that runs its block on ``path`` (native: as the library decides; pure: forced)."""
    return nullcontext() if path == "native" else native.pure()


def best_path(name: str) -> str:
    """The path the targets are judged on: native where built, else pure."""
    return paths(name)[0]


def fmt_ms(seconds: float) -> str:
    """Seconds as ms (or us below 0.1 ms)."""
    if seconds != seconds:  # nan
        return "n/a"
    return f"{seconds * 1e6:.0f} us" if seconds < 1e-4 else f"{seconds * 1000:.2f} ms"


def met(ok: bool) -> str:
    """The met column."""
    return "yes" if ok else "no"


# --- 1. engines and envs -------------------------------------------------------------------------


@dataclass
class Rate:
    """One measured loop: a label, the path, the compiled module it uses (if any), a rate function."""

    label: str
    path: str
    core: str | None
    run: Callable[[float, int], float]
    rates: list[float] = field(default_factory=list)


def _engine(game: str) -> Callable[[float, int], float]:
    def run(seconds: float, seed: int) -> float:
        return _engine_rate(game, seconds, time.thread_time)[0]

    return run


def _steps(fn: Callable[[float, int], tuple[int, int, float]]) -> Callable[[float, int], float]:
    def run(seconds: float, seed: int) -> float:
        steps, _, cpu = fn(seconds, seed)
        return steps / cpu

    return run


def engine_rates(seconds: float, runs: int) -> tuple[list[Rate], list[str]]:
    """Every loop's rates, the loops taking turns within each run; notes on what is missing."""
    notes: list[str] = []
    loops: list[Rate] = [Rate(f"engine {g}", p, g, _engine(g)) for g in GAMES for p in paths(g)]
    try:
        import rlcard  # noqa: F401

        for name in ("gin-rummy", "doudizhu"):
            loops.append(Rate(f"RLCard {name} env", "-", None, _steps(partial(_rlcard_env_steps, name))))
    except ImportError:
        notes.append("rlcard is not installed (pip install -e '.[bench]'): no RLCard rows, no ratios")
    try:
        from solver.envs import aec_env  # noqa: F401

        for g in ENV_OPTIONS:
            loops += [Rate(f"PettingZoo {g}", p, g, _steps(partial(_our_env_steps, g))) for p in paths(g)]
    except ImportError:
        notes.append("pettingzoo is not installed (pip install -e '.[rl]'): no PettingZoo rows")
    for loop in loops:  # untimed: imports and first-use caches
        with on(loop.path):
            loop.run(min(0.2, seconds), 0)
    for r in range(runs):
        for loop in loops:
            with on(loop.path):
                loop.rates.append(loop.run(seconds, 1 + r))
    return loops, notes


def engines_section(loops: list[Rate], notes: list[str], seconds: float, runs: int) -> Section:
    """The engines and envs table."""
    by = {(x.label, x.path): statistics.median(x.rates) for x in loops}
    gin = by.get(("RLCard gin-rummy env", "-"))
    ddz = by.get(("RLCard doudizhu env", "-"))
    section = Section(
        f"1. Engines and envs: random legal actions per thread CPU second, median of {runs} runs of {seconds:g} s",
        ["loop", "path", "median /s", "min", "max", "x gin-rummy", "x doudizhu", "target", "met"],
        notes=notes,
    )
    for x in loops:
        median = by[(x.label, x.path)]
        want = ENGINE_TARGET.get(x.core or "") if x.label.startswith("engine") else None
        if x.label.startswith("PettingZoo"):
            want = ENV_TARGET
        section.rows.append(
            [
                x.label,
                x.path,
                f"{median:,.0f}",
                f"{min(x.rates):,.0f}",
                f"{max(x.rates):,.0f}",
                f"{median / gin:.2f}" if gin else "n/a",
                f"{median / ddz:.2f}" if ddz else "n/a",
                f">= {want:g}x gin" if want else "",
                met(median / gin >= want) if want and gin else "",
            ]
        )
    missing = [g for g in GAMES if native.core(g) is None]
    if missing:
        section.notes.append(f"pure path only for {', '.join(missing)}: {native.describe()}")
    return section


# --- 2. Manipulation in process ------------------------------------------------------------------


def _peer_tile(card: Any) -> int:
    """The van Rijn driver's tile index: colour * 13 + number - 1 (colours = suits S H D C, ace low), joker 52."""
    if card.rank is None:
        return 52
    return list(Suit).index(card.suit) * 13 + int(card.rank) - 1


def van_rijn(exe: Path, positions: Sequence[tuple[tuple[Meld, ...], Cards]], repeat: int) -> list[tuple[float, int]]:
    """The van Rijn executable's fastest seconds of ``repeat`` solves and best hand value, per position."""
    lines = [
        " ".join(str(_peer_tile(c)) for m in table for c in m.cards)
        + " ; "
        + " ".join(str(_peer_tile(c)) for c in hand)
        for table, hand in positions
    ]
    done = subprocess.run(
        [str(exe), str(repeat)], input="\n".join(lines) + "\n", capture_output=True, text=True, check=True, timeout=600
    )
    out = []
    for line in done.stdout.splitlines():
        seconds, _, value, _ = line.split()
        out.append((float(seconds), int(value)))
    if len(out) != len(positions):
        raise RuntimeError(f"{exe}: {len(out)} answers for {len(positions)} positions")
    return out


def van_rijn_supports(kind: Kind) -> bool:
    """The DP as published: two copies of a tile at most, ace low, at most two jokers."""
    return kind.rules.decks <= 2 and kind.rules.ace == "low" and kind.rules.jokers <= 2


@dataclass
class ClassRow:
    """One class's per-position times (seconds, fastest of the repeats) and agreement counts."""

    kind: Kind
    table_cards: list[int] = field(default_factory=list)
    least: dict[str, list[float]] = field(default_factory=dict)
    plain: dict[str, list[float]] = field(default_factory=dict)
    peer: list[float] = field(default_factory=list)
    van_rijn: list[float] = field(default_factory=list)
    peer_equal: int = 0
    van_rijn_equal: int = 0
    van_rijn_lower: int = 0
    paths_equal: int = 0


def measure_class(kind: Kind, n: int, seed: int, repeat: int, exe: Path | None) -> ClassRow:
    """Every position of a class: ours on each path (least change, plain), the peer, van Rijn."""
    row = ClassRow(kind)
    rules = kind.rules
    positions = kind.positions(n, seed)
    for table, hand in positions:
        row.table_cards.append(sum(len(m) for m in table))
        answers: dict[str, tuple[int, int, int, int]] = {}
        for path in paths("manipulation"):
            with on(path):
                best_play(table, hand, rules)  # warm the template cache
                a, least = fastest(partial(best_play, table, hand, rules), repeat)
                b, plain = fastest(partial(best_play, table, hand, rules, least_change=False), repeat)
            if plain.cards != least.cards:
                raise AssertionError(f"{kind.name} ({path}): plain {plain.cards} != least change {least.cards}")
            row.least.setdefault(path, []).append(a)
            row.plain.setdefault(path, []).append(b)
            answers[path] = (least.cards, least.kept_melds, least.moved_cards, plain.cards)
        row.paths_equal += len(set(answers.values())) == 1
        cards = answers["pure"][0]
        if peer_supports(rules):
            c, theirs = fastest(partial(peer_solve, table, hand, rules), repeat)
            row.peer.append(c)
            row.peer_equal += theirs == cards
    if exe is not None and van_rijn_supports(kind):
        for (table, hand), (seconds, value) in zip(positions, van_rijn(exe, positions, repeat), strict=True):
            row.van_rijn.append(seconds)
            ours = best_play(table, hand, rules, objective="value", least_change=False).value
            row.van_rijn_equal += ours == value
            row.van_rijn_lower += value < ours
    return row


def _median(xs: list[float] | None) -> float:
    return statistics.median(xs) if xs else float("nan")


def _van_rijn_agreement(r: ClassRow) -> str:
    """Equal best values, and how many of the others van Rijn found lower (or, a bug of ours, higher)."""
    if not r.van_rijn:
        return "n/a"
    n = len(r.van_rijn)
    higher = n - r.van_rijn_equal - r.van_rijn_lower
    return (
        f"{r.van_rijn_equal}/{n}"
        + (f", {r.van_rijn_lower} lower" if r.van_rijn_lower else "")
        + (f", {higher} HIGHER" if higher else "")
    )


def manipulation_sections(rows: list[ClassRow], n: int, repeat: int, exe: Path | None) -> list[Section]:
    """The times table and the agreement notes."""
    have = paths("manipulation")
    cols = ["class", "table"]
    for what in ("least change", "plain"):
        cols += [f"{what} ({p})" for p in ("native", "pure")]
    cols += ["rummikub-solver", "van Rijn (C++)", "native = pure", "= peer (cards)", "= van Rijn (value)"]
    times = Section(
        f"2. Manipulation in process: the median over {n} positions of the fastest of {repeat} solves", cols
    )
    for r in rows:
        cells = [r.kind.name, str(int(statistics.median(r.table_cards)))]
        for d in (r.least, r.plain):
            cells += [fmt_ms(_median(d.get(p))) if p in have else "not built" for p in ("native", "pure")]
        cells += [
            fmt_ms(_median(r.peer)) if r.peer else "n/a",
            fmt_ms(_median(r.van_rijn)) if r.van_rijn else "n/a",
            f"{r.paths_equal}/{len(r.table_cards)}" if len(have) > 1 else "n/a",
            f"{r.peer_equal}/{len(r.peer)}" if r.peer else "n/a",
            _van_rijn_agreement(r),
        ]
        times.rows.append(cells)
    times.notes.append(
        "plain: best_play(least_change=False); least change: the whole answer (the default); both checked equal in cards"
    )
    if exe is None:
        times.notes.append("van Rijn: no --van-rijn PATH given, column skipped")
    else:
        times.notes.append(
            "van Rijn: the executable given by --van-rijn; the DP maximises the value played, so its best value is"
            " checked against ours with objective='value' (untimed): 'lower' counts positions where it found less"
            " than the optimum; two copies of a tile at most, so n/a for four decks"
        )
    return [times]


# --- 3. whole processes --------------------------------------------------------------------------


def shanghai_commands() -> list[list[str]]:
    """The ``shanghai`` console script beside this interpreter, and ``python -m cli`` too when there is no
    script or it predates the ``cli:start`` entry point (an install older than the fast ``--version``)."""
    script = Path(sys.executable).parent / "shanghai"
    module = [sys.executable, "-m", "cli"]
    if not script.exists():
        return [module]
    current = "from cli import start" in script.read_text(errors="replace")
    return [[str(script)]] if current else [[str(script)], module]


def process_seconds(cmd: list[str], env: dict[str, str], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU (user + system) seconds of ``runs`` whole processes (after one untimed run); each
    must exit 0."""
    walls, cpus = [], []
    for k in range(runs + 1):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=120)
        took = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()[:200]}")
        if k:
            walls.append(took)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def process_section(runs: int) -> tuple[Section, dict[tuple[str, str], float]]:
    """Cold ``--version`` and one inline solve as whole processes, on each path."""
    bases = shanghai_commands()
    any_built = bool(native.built())
    section = Section(
        f"3. Whole processes: the median of {runs} cold runs (wall)",
        ["command", "path", "median", "min", "max", "CPU (median)", "target", "met"],
    )
    medians: dict[tuple[str, str], float] = {}
    runs_of = [(base, "--version", ["--version"], VERSION_TARGET) for base in bases] + [
        (bases[0], " ".join(f"'{a}'" if " " in a else a for a in line), line, SOLVE_TARGET)
        for line in (INLINE, INLINE_PRESET)
    ]
    for base, shown, args, target in runs_of:
        label = ("python -m cli " if base[-1] == "cli" else "shanghai ") + shown
        for path in ["native", "pure"] if any_built else ["pure"]:
            env = dict(os.environ)
            env.pop("SHANGHAI_PURE", None)
            if path == "pure":
                env["SHANGHAI_PURE"] = "1"
            times, cpus = process_seconds([*base, *args], env, runs)
            median = statistics.median(times)
            medians[(label, path)] = median
            section.rows.append(
                [
                    label,
                    path,
                    fmt_ms(median),
                    fmt_ms(min(times)),
                    fmt_ms(max(times)),
                    fmt_ms(statistics.median(cpus)),
                    f"<= {target * 1000:.0f} ms",
                    met(median <= target),
                ]
            )
    section.notes.append(f"shanghai: {bases[0][0]} (pure: SHANGHAI_PURE=1 in the environment)")
    if len(bases) > 1:
        section.notes.append(
            "the installed script predates the cli:start entry point (pip install -e . updates it):"
            " python -m cli --version runs the current code"
        )
    return section, medians


# --- 4. the targets ------------------------------------------------------------------------------


def targets_section(loops: list[Rate], rows: list[ClassRow], procs: dict[tuple[str, str], float]) -> Section:
    """Issue 35's targets against this run's figures, on the native path where built."""
    section = Section(
        "4. Issue 35's targets (native where built, else pure)", ["target", "path", "now", "wanted", "met"]
    )
    by = {(x.label, x.path): statistics.median(x.rates) for x in loops}
    gin = by.get(("RLCard gin-rummy env", "-"))
    if gin:
        for g in GAMES:
            p = best_path(g)
            ratio = by[(f"engine {g}", p)] / gin
            want = ENGINE_TARGET[g]
            section.rows.append([f"engine {g} / gin-rummy", p, f"{ratio:.2f}x", f">= {want:g}x", met(ratio >= want)])
        for g in ENV_OPTIONS:
            p = best_path(g)
            if (f"PettingZoo {g}", p) in by:
                ratio = by[(f"PettingZoo {g}", p)] / gin
                row = [
                    f"PettingZoo {g} / gin-rummy",
                    p,
                    f"{ratio:.2f}x",
                    f">= {ENV_TARGET:g}x",
                    met(ratio >= ENV_TARGET),
                ]
                section.rows.append(row)
    p = best_path("manipulation")
    for r in rows:
        peer = _median(r.peer)
        least, plain = _median(r.least[p]), _median(r.plain[p])
        if r.peer:
            ratio = least / peer
            wanted = f"<= {LEAST_TARGET:g}x"
            section.rows.append([f"{r.kind.name}: least change / peer", p, f"{ratio:.2f}x", wanted, met(ratio <= 0.5)])
            ratio = plain / peer
            wanted = f"<= {PLAIN_TARGET:g}x"
            section.rows.append([f"{r.kind.name}: plain / peer", p, f"{ratio:.2f}x", wanted, met(ratio <= 0.1)])
        if r.van_rijn:
            ratio = plain / _median(r.van_rijn)
            wanted = f"<= {VAN_RIJN_TARGET:g}x"
            section.rows.append([f"{r.kind.name}: plain / van Rijn", p, f"{ratio:.1f}x", wanted, met(ratio <= 3)])
    for (label, path), median in procs.items():
        want = VERSION_TARGET if label.endswith("--version") else SOLVE_TARGET
        short = label if label.endswith("--version") else "one inline solve (shanghai solve --hand ...)"
        if label.endswith("--preset norwegian"):
            short = "one inline solve (shanghai solve --hand ... --preset norwegian)"
        section.rows.append([short, path, fmt_ms(median), f"<= {want * 1000:.0f} ms", met(median <= want)])
    return section


# --- the command ---------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    """Measure, print, and write the Markdown."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 positions a class, fastest of 2, short rates")
    parser.add_argument("--positions", type=int, default=10, help="positions a class")
    parser.add_argument("--repeat", type=int, default=5, help="solves a position (the fastest is kept)")
    parser.add_argument("--seconds", type=float, default=1.0, help="seconds a rate loop runs")
    parser.add_argument("--runs", type=int, default=3, help="runs of the rate loops (their median)")
    parser.add_argument("--process-runs", type=int, default=11, help="runs of each whole process (their median)")
    parser.add_argument("--seed", type=int, default=1, help="the positions' seed (the field benchmark's)")
    parser.add_argument("--van-rijn", type=Path, metavar="PATH", help="the van Rijn DP executable (see the docstring)")
    parser.add_argument("--markdown", type=Path, metavar="FILE", help="also write the tables as Markdown")
    parser.add_argument("--skip", action="append", default=[], choices=("engines", "manipulation", "processes"))
    args = parser.parse_args(argv)
    if args.quick:
        args.positions, args.repeat, args.seconds, args.runs, args.process_runs = 3, 2, 0.3, 1, 3
    exe = args.van_rijn
    if exe is not None and not (exe.is_file() and os.access(exe, os.X_OK)):
        parser.error(f"--van-rijn {exe}: not an executable file")
    console = Console(width=200, highlight=False)
    head = [
        f"python -m benchmarks.bench_core {' '.join(sys.argv[1:] if argv is None else argv)}".rstrip(),
        f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC; {platform.machine()}, Python"
        f" {platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        f"compiled core: {native.describe()}",
    ]
    for line in head:
        console.print(f"[dim]{line}[/]")
    report = Report(console)
    loops: list[Rate] = []
    rows: list[ClassRow] = []
    procs: dict[tuple[str, str], float] = {}
    if "engines" not in args.skip:
        loops, notes = engine_rates(args.seconds, args.runs)
        report.add(engines_section(loops, notes, args.seconds, args.runs))
    if "manipulation" not in args.skip:
        kinds = [k for k in KINDS if k.name in CLASSES]
        for kind in kinds:
            rows.append(measure_class(kind, args.positions, args.seed, args.repeat, exe))
            console.print(f"[dim]{kind.name}: done[/]")
        for section in manipulation_sections(rows, args.positions, args.repeat, exe):
            report.add(section)
    if "processes" not in args.skip:
        section, procs = process_section(args.process_runs)
        report.add(section)
    report.add(targets_section(loops, rows, procs))
    if args.markdown:
        args.markdown.write_text(report.markdown([f"`{head[0]}`", "", *head[1:]]) + "\n")
        console.print(f"Markdown written to {args.markdown}")


if __name__ == "__main__":
    main()
