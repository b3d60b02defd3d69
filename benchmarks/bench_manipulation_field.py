"""Manipulation Shanghai across the field: every kind of position, this solver against the peer.

Run from the repository root::

    python -m benchmarks.bench_manipulation_field [--positions 10] [--quick] [--stages] [--plot out.png]
    python -m benchmarks.bench_manipulation_field --cpu --process 30 --only-process   # whole processes

Seeded kinds of positions (jokers 0-6, ace low / high / both, 1-4 decks,
tables of 20-190 cards, hands of 5-50). For each kind: the median over its
positions of the fastest of three in-process solves of ours without least
change (``plain``), ours with least change (the default answer) and the peer
``rummikub-solver`` (HiGHS, plain: it has no least change), the ratios, and
whether the optima agree. The peer has no ``ace=both`` and at most four
jokers: those kinds show ``n/a`` for it (ace ``high`` is the peer's ace-low
game with ranks relabelled, so it is compared). ``--stages`` adds the median
time each stage of ``best_play`` takes; ``--plot`` draws time against table
size (matplotlib, from the ``bench`` extra). The machine is shared: expect
noise, read the ratios (same run); ``--cpu`` times by process CPU time,
which other work on the machine disturbs less. ``--process N`` adds whole
processes: ``shanghai solve --json`` over folders of ``N`` and ``2N`` positions
of each kind against the peer's own script over the same positions, warm
cost per position (:mod:`benchmarks.field_process`).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, partial
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.field_kinds import KINDS as KINDS
from benchmarks.field_kinds import Kind as Kind
from benchmarks.field_kinds import peer_tile
from solver.cards import Cards
from solver.manipulation import best_play
from solver.melds import Meld
from solver.rules import ManipulationRules

console = Console(highlight=False, width=200)
CLOCK: list[Callable[[], float]] = [time.perf_counter]


# --- the peer -----------------------------------------------------------------------------------


@cache
def _peer_rules(decks: int, jokers: int) -> Any:
    from rummikub_solver import RuleSet

    return RuleSet(numbers=13, repeats=decks, colours=4, jokers=jokers, min_len=3, min_initial_value=1)


def peer_supports(rules: ManipulationRules) -> bool:
    """The peer plays ace low (or high, relabelled), at most four jokers, at most four decks."""
    return rules.ace != "both" and rules.jokers <= 4


def peer_solve(table: Sequence[Meld], hand: Cards, rules: ManipulationRules) -> int:
    """The peer's best tile count for a position (in process, its own model built per call)."""
    rs = _peer_rules(rules.decks, rules.jokers)
    state = rs.new_game()
    state.add_table(*(rs.tiles[peer_tile(c, rules.ace)] for m in table for c in m.cards))
    state.add_rack(*(rs.tiles[peer_tile(c, rules.ace)] for c in hand))
    state.initial = False
    sol = rs.solve(state)
    return len(sol.tiles) if sol else 0


# --- timing -------------------------------------------------------------------------------------


def fastest(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs (other work on the machine only ever adds time) and the value."""
    best = float("inf")
    value = None
    clock = CLOCK[0]
    for _ in range(repeat):
        start = clock()
        value = fn()
        best = min(best, clock() - start)
    return best, value


@dataclass
class Stages:
    """Seconds spent in each stage of ``best_play`` during one call (wrapped module functions)."""

    seconds: dict[str, float] = field(default_factory=dict)

    def wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            clock = CLOCK[0]
            start = clock()
            try:
                return fn(*args, **kwargs)
            finally:
                self.seconds[name] = self.seconds.get(name, 0.0) + clock() - start

        return timed


@contextmanager
def stage_timer(stages: Stages) -> Iterator[None]:
    """Wrap the stage functions ``best_play`` calls, restoring them afterwards."""
    import solver.manipulation.play as play
    from solver.manipulation.extension import ExtensionSearch

    names = {
        "bound": (play, "playable_bound"),
        "program": (play, "natural_play"),
        "cp-sat": (play, "solve_play"),
        "least change": (play, "solve_least_change"),
        "matching": (play, "match_melds"),
        "validate": (play, "validate_rearrangement"),
    }
    saved = {k: getattr(mod, attr) for k, (mod, attr) in names.items()}
    find = ExtensionSearch.find
    try:
        for k, (mod, attr) in names.items():
            setattr(mod, attr, stages.wrap(k, saved[k]))
        ExtensionSearch.find = stages.wrap("extension", find)  # type: ignore[method-assign]
        yield
    finally:
        for k, (mod, attr) in names.items():
            setattr(mod, attr, saved[k])
        ExtensionSearch.find = find  # type: ignore[method-assign]


STAGES = ("extension", "program", "cp-sat", "least change", "matching", "validate")


@dataclass
class Row:
    """One kind's measurements (seconds per position)."""

    kind: Kind
    table_cards: list[int] = field(default_factory=list)
    plain: list[float] = field(default_factory=list)
    least: list[float] = field(default_factory=list)
    peer: list[float] = field(default_factory=list)
    equal: int = 0
    compared: int = 0
    proven: int = 0
    stages: dict[str, list[float]] = field(default_factory=dict)


def measure(kind: Kind, n: int, seed: int, with_stages: bool, repeat: int) -> Row:
    """Solve every position of a kind: ours plain, ours least change, the peer."""
    row = Row(kind)
    rules = kind.rules
    for table, hand in kind.positions(n, seed):
        best_play(table, hand, rules)  # warm the template cache
        a, plain = fastest(partial(best_play, table, hand, rules, least_change=False), repeat)
        b, least = fastest(partial(best_play, table, hand, rules), repeat)
        assert plain.cards == least.cards, (kind.name, plain.cards, least.cards)
        row.table_cards.append(sum(len(m) for m in table))
        row.plain.append(a)
        row.least.append(b)
        row.proven += least.status in ("optimal", "infeasible") and least.least_change == "optimal"
        if peer_supports(rules):
            c, theirs = fastest(partial(peer_solve, table, hand, rules), repeat)
            row.peer.append(c)
            row.compared += 1
            row.equal += theirs == least.cards
        if with_stages:
            stages = Stages()
            with stage_timer(stages):
                best_play(table, hand, rules)
            for k in STAGES:
                row.stages.setdefault(k, []).append(stages.seconds.get(k, 0.0))
    return row


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def _ratio(a: float, b: list[float]) -> str:
    return f"{a / statistics.median(b):.2f}x" if b else "n/a"


def report(rows: Sequence[Row], n: int, with_stages: bool) -> None:
    """The table of kinds (and of stages)."""
    t = Table(title=f"Manipulation across the field: medians of {n} positions a kind, fastest of 3 each")
    for col in (
        "kind",
        "table",
        "ours plain",
        "ours least change",
        "peer (plain)",
        "plain / peer",
        "least change / peer",
        "equal optima",
        "proven",
    ):
        t.add_column(col, justify="left" if col == "kind" else "right")
    for r in rows:
        p, q = statistics.median(r.plain), statistics.median(r.least)
        t.add_row(
            r.kind.name,
            str(int(statistics.median(r.table_cards))),
            fmt(p),
            fmt(q),
            fmt(statistics.median(r.peer)) if r.peer else "n/a",
            _ratio(p, r.peer),
            _ratio(q, r.peer),
            f"{r.equal}/{r.compared}" if r.compared else "n/a",
            f"{r.proven}/{len(r.plain)}",
        )
    console.print(t)
    if with_stages:
        s = Table(title="Median time in each stage of best_play (least change), per kind")
        s.add_column("kind")
        for k in STAGES:
            s.add_column(k, justify="right")
        for r in rows:
            s.add_row(r.kind.name, *(fmt(statistics.median(r.stages[k])) for k in STAGES))
        console.print(s)


def plot(rows: Sequence[Row], path: str) -> None:
    """Time against table size, every position: ours plain, ours least change, the peer."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:  # pragma: no cover - the bench extra installs it
        console.print("matplotlib is not installed (pip install -e '.[bench]'): no plot")
        return
    fig, ax = plt.subplots(figsize=(8, 5))
    xs = [x for r in rows for x in r.table_cards]
    ax.scatter(xs, [y * 1000 for r in rows for y in r.plain], s=12, label="ours, plain")
    ax.scatter(xs, [y * 1000 for r in rows for y in r.least], s=12, marker="x", label="ours, least change")
    px = [x for r in rows if r.peer for x in r.table_cards]
    ax.scatter(px, [y * 1000 for r in rows for y in r.peer], s=12, marker="^", label="rummikub-solver (plain)")
    ax.set_xlabel("table cards")
    ax.set_ylabel("solve time, ms (fastest of 3)")
    ax.set_yscale("log")
    ax.set_title("Manipulation best play against table size, every kind of position")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    console.print(f"plot written to {path}")


def report_process(kinds: Sequence[Kind], n: int, seed: int, repeat: int, cpu: bool) -> None:
    """The whole-process table: warm cost per position over a folder of ``n`` positions of each kind."""
    from benchmarks.field_process import measure_process

    clock = "process CPU" if cpu else "wall"
    title = (
        f"Whole processes: warm per position, a folder of {2 * n} against its first {n} ({clock}, fastest of {repeat})"
    )
    table = Table(title=title)
    for col in ("kind", "ours: solve --json (least change)", "peer's script (plain)", "ours / peer", "equal counts"):
        table.add_column(col, justify="left" if col == "kind" else "right")
    for kind in kinds:
        row = measure_process(kind, n, seed, repeat, cpu)
        table.add_row(
            kind.name, fmt(row.ours), fmt(row.peer), f"{row.ours / row.peer:.2f}x", f"{row.agree}/{row.positions}"
        )
        console.print(f"[dim]{kind.name}: ours {fmt(row.ours)}, peer {fmt(row.peer)}[/]")
    console.print(table)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--positions", type=int, default=10, help="positions per kind")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="4 positions a kind, fastest of 2")
    parser.add_argument("--stages", action="store_true", help="also the median time of each stage")
    parser.add_argument("--kind", action="append", default=[], help="only kinds whose name contains this")
    parser.add_argument("--plot", metavar="PNG", help="draw time against table size")
    parser.add_argument("--cpu", action="store_true", help="process CPU time instead of wall time (a loaded machine)")
    parser.add_argument(
        "--process",
        type=int,
        metavar="N",
        default=0,
        help="also whole processes over folders of N and 2N positions a kind",
    )
    parser.add_argument("--only-process", action="store_true", help="skip the in-process table")
    parser.add_argument("--process-repeat", type=int, default=5, help="runs of each whole process (fastest kept)")
    args = parser.parse_args(argv)
    if args.cpu:
        CLOCK[0] = time.process_time
    n = 4 if args.quick else args.positions
    repeat = 2 if args.quick else 3
    kinds = [k for k in KINDS if not args.kind or any(s in k.name for s in args.kind)]
    if not args.only_process:
        rows = [measure(k, n, args.seed, args.stages, repeat) for k in kinds]
        report(rows, n, args.stages)
        if args.plot:
            plot(rows, args.plot)
    if args.process or args.only_process:
        report_process(
            [k for k in kinds if peer_supports(k.rules)], args.process or 30, args.seed, args.process_repeat, args.cpu
        )


if __name__ == "__main__":
    main()
