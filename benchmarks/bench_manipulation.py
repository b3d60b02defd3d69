"""Manipulation Shanghai benchmark: this solver against the peer ``rummikub-solver``, same run.

Run from the repository root::

    python -m benchmarks.bench_manipulation [--puzzles 100] [--seed 1]

Prints rich tables: equal optima, warm and cold timings (in process and as
whole processes), how often the exact shortcuts answer without CP-SAT, the
cost of least change, what the command spends per puzzle besides solving
(loading, printing), time against table size, hand size, decks and jokers,
the value objective against exhaustive search, the four-deck six-joker
target, and self-play games of the engine. Timings are medians (means
where a whole run is summed); the machine is shared, so expect noise.

Whole-process figures run each command on a folder of all the puzzles and
on one of the first half, in turn, several times, and take the fastest run
of each: the warm cost per puzzle is ``(all - half) / (n - n // 2)``. Both
runs pay the start-up and every first-use cost (our first CP-SAT position
imports networkx and builds the model template; a one-puzzle run may never
pay it, which made ``(many - one) / (n - 1)`` biased low for the one and so
high for the rest); the cold row is still one puzzle. The peer's script also
times its own solving loop; that figure is printed next to it as a
cross-check, since the difference of two noisy process times is itself noisy.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.field_process import process_times
from benchmarks.positions import random_position
from solver.cards import Cards, Suit
from solver.manipulation import best_play
from solver.melds import Meld
from solver.puzzles import ManipulationPosition, Puzzle, dumps
from solver.rules import ManipulationRules

ROOT = Path(__file__).resolve().parent.parent
console = Console(highlight=False)

PEER_SCRIPT = """
import json, sys, time
from rummikub_solver import RuleSet
rs = RuleSet(numbers=13, repeats=2, colours=4, jokers=0, min_len=3, min_initial_value=1)
tiles = rs.tiles
times = []
for table, rack in json.load(open(sys.argv[1])):
    start = time.perf_counter()
    state = rs.new_game()
    state.add_table(*(tiles[t] for t in table))
    state.add_rack(*(tiles[t] for t in rack))
    state.initial = False
    sol = rs.solve(state)
    print(len(sol.tiles) if sol else 0, [[int(t) for t in s] for s in sol.sets] if sol else [])
    times.append(time.perf_counter() - start)
rest = times[1:] or times
print(f"per puzzle after the first {sum(rest) / len(rest)}", file=sys.stderr)
"""


def _tile(card: Any) -> int:
    return list(Suit).index(card.suit) * 13 + int(card.rank) - 1


def peer_tiles(table: Sequence[Meld], hand: Cards) -> tuple[list[int], list[int]]:
    """Positions as the peer's tile indices (colours = suits S H D C, numbers = ranks, ace low)."""
    return [_tile(c) for m in table for c in m.cards], [_tile(c) for c in hand]


class Peer:
    """The peer solver in process (cvxpy + HiGHS), set up once."""

    def __init__(self) -> None:
        from rummikub_solver import RuleSet

        self.rs = RuleSet(numbers=13, repeats=2, colours=4, jokers=0, min_len=3, min_initial_value=1)
        self.tiles = self.rs.tiles

    def solve(self, table: list[int], rack: list[int]) -> int:
        state = self.rs.new_game()
        state.add_table(*(self.tiles[t] for t in table))
        state.add_rack(*(self.tiles[t] for t in rack))
        state.initial = False
        sol = self.rs.solve(state)
        return len(sol.tiles) if sol else 0


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def two_deck_puzzles(n: int, seed: int) -> list[tuple[tuple[Meld, ...], Cards]]:
    rules = ManipulationRules()
    out = []
    for k in range(n):
        size = (20, 30, 40, 50)[k % 4]
        out.append(random_position(rules, size, 10, seed * 10_000 + k))
    return out


class _SolverCalls:
    """Counts the CP-SAT solves of each best_play call: none, or the least-change solve (the score
    fixed after the dynamic program, or one solve for both); a plain solve runs only without least
    change."""

    def __init__(self) -> None:
        import solver.manipulation.play as stages

        self.model = stages
        self.plain: Callable[..., Any] = getattr(stages, "solve_play")  # noqa: B009
        self.least: Callable[..., Any] = getattr(stages, "solve_least_change")  # noqa: B009
        self.counts = [0, 0]
        self.none = self.least_only = self.other = 0
        setattr(stages, "solve_play", self._count(0, self.plain))  # noqa: B010
        setattr(stages, "solve_least_change", self._count(1, self.least))  # noqa: B010

    def _count(self, k: int, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            self.counts[k] += 1
            return fn(*args, **kwargs)

        return wrapper

    def reset(self) -> None:
        self.counts = [0, 0]

    def record(self) -> None:
        plain, least = self.counts
        self.none += not plain and not least
        self.least_only += bool(least) and not plain
        self.other += bool(plain)

    def stop(self) -> None:
        setattr(self.model, "solve_play", self.plain)  # noqa: B010
        setattr(self.model, "solve_least_change", self.least)  # noqa: B010


def _json_seconds(cmd: list[str]) -> float:
    """Mean of the per-puzzle ``seconds`` a ``--json`` run reports (solving, without load and print),
    the first puzzle left out (it pays the solver's imports and model template)."""
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, text=True)
    seconds = [json.loads(line)["seconds"] for line in done.stdout.splitlines()]
    return float(statistics.mean(seconds[1:]))


def _cli_costs(folder: Path) -> list[tuple[str, float]]:
    """Median per-puzzle cost of what ``shanghai solve`` does besides solving: load, print."""
    import io

    from cli.games.manipulation import solve as cli_solve
    from solver.answers import SolveOptions
    from solver.puzzles import load

    files = sorted(folder.glob("*.toml"))
    load_t = [timed(partial(load, f))[0] for f in files]
    outcomes = [cli_solve(load(f), SolveOptions()) for f in files[:30]]
    plain = Console(file=io.StringIO(), highlight=False, soft_wrap=True)
    colour = Console(file=io.StringIO(), highlight=False, soft_wrap=True, force_terminal=True, color_system="truecolor")
    plain_t = [timed(partial(o.render, plain))[0] for o in outcomes]
    colour_t = [timed(partial(o.render, colour))[0] for o in outcomes]
    return [
        ("load one puzzle file (median)", statistics.median(load_t)),
        ("print one answer, piped (median)", statistics.median(plain_t)),
        ("print one answer, colour terminal (median)", statistics.median(colour_t)),
    ]


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


Puzzles = list[tuple[tuple[Meld, ...], Cards]]


def main(argv: Sequence[str] | None = None) -> None:
    """Run every part and print its tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--puzzles", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="fewer repeats and scaling points")
    args = parser.parse_args(argv)
    rules = ManipulationRules()
    puzzles = two_deck_puzzles(args.puzzles, args.seed)
    table = in_process(puzzles, rules)
    whole_processes(table, puzzles, rules, args.quick)
    console.print(table)
    scaling(rules, range(3 if args.quick else 6))
    value_objective(10 if args.quick else 30)
    four_decks(3 if args.quick else 6)
    engine(2 if args.quick else 6)


def in_process(puzzles: Puzzles, rules: ManipulationRules) -> Table:
    """Optima and warm times in this process, against the peer: the first rows of the two-deck table."""
    peer = Peer()
    ours_t, plain_t, peer_t = [], [], []
    equal = 0
    statuses: dict[str, int] = {}
    calls = _SolverCalls()
    for melds, hand in puzzles:
        best_play(melds, hand, rules)  # warm the template cache once (cheap after the first)
        calls.reset()
        t1, play = timed(partial(best_play, melds, hand, rules))
        calls.record()
        t2, _ = timed(partial(best_play, melds, hand, rules, least_change=False))
        pt, ph = peer_tiles(melds, hand)
        t3, theirs = timed(partial(peer.solve, pt, ph))
        ours_t.append(t1)
        plain_t.append(t2)
        peer_t.append(t3)
        statuses[play.status] = statuses.get(play.status, 0) + 1
        equal += play.cards == theirs
    calls.stop()
    n = len(puzzles)
    table = Table(title=f"Two decks, ace low, no jokers: {n} random positions (table 20-50 cards, hand 10)")
    table.add_column("measure")
    table.add_column("this solver", justify="right")
    table.add_column("rummikub-solver", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row("equal optima (cards)", f"{equal}/{n}", "", "")
    table.add_row("proven optimal", str(statuses.get("optimal", 0) + statuses.get("infeasible", 0)), "", "")
    table.add_row("answered with no CP-SAT solve (bound, extension, dynamic program)", f"{calls.none}/{n}", "", "")
    table.add_row("one CP-SAT solve (least change, the score first or fixed)", f"{calls.least_only}/{n}", "", "")
    table.add_row("a plain CP-SAT solve as well (should be none)", f"{calls.other}/{n}", "", "")
    m_ours, m_plain, m_peer = (statistics.median(x) for x in (ours_t, plain_t, peer_t))
    a_ours, a_plain, a_peer = (statistics.mean(x) for x in (ours_t, plain_t, peer_t))
    table.add_row("median warm solve, least change", fmt(m_ours), fmt(m_peer), f"{m_ours / m_peer:.2f}x")
    table.add_row("  mean", fmt(a_ours), fmt(a_peer), f"{a_ours / a_peer:.2f}x")
    table.add_row("median warm solve, plain", fmt(m_plain), fmt(m_peer), f"{m_plain / m_peer:.2f}x")
    table.add_row("  mean", fmt(a_plain), fmt(a_peer), f"{a_plain / a_peer:.2f}x")
    table.add_row("cost of least change (median)", fmt(m_ours - m_plain), "", f"{m_ours / m_plain:.2f}x plain")
    return table


def _write_inputs(tmp: Path, puzzles: Puzzles, rules: ManipulationRules) -> Path:
    """The puzzle files (all, the first half, one) and the peer's script and inputs in ``tmp``; the folder of all."""
    n = len(puzzles)
    folder = tmp / "many"
    folder.mkdir()
    for k, (t, h) in enumerate(puzzles):
        (folder / f"p{k:03d}.toml").write_text(dumps(Puzzle("manipulation", rules, ManipulationPosition(t, h))))
    half = tmp / "half"
    half.mkdir()
    for path in sorted(folder.iterdir())[: n // 2]:
        (half / path.name).write_text(path.read_text())
    one = tmp / "one.toml"
    one.write_text((folder / "p001.toml").read_text())
    (tmp / "peer.py").write_text(PEER_SCRIPT)
    tiles = [peer_tiles(t, h) for t, h in puzzles]
    (tmp / "many.json").write_text(json.dumps(tiles))
    (tmp / "half.json").write_text(json.dumps(tiles[: n // 2]))
    (tmp / "one.json").write_text(json.dumps([peer_tiles(*puzzles[1])]))
    return folder


def whole_processes(table: Table, puzzles: Puzzles, rules: ManipulationRules, quick: bool) -> None:
    """Whole-process rows (cold, warm per puzzle, solving only, the command's other costs) added to ``table``."""
    n = len(puzzles)
    with tempfile.TemporaryDirectory() as tmp:
        folder = _write_inputs(Path(tmp), puzzles, rules)
        half, one = Path(tmp) / "half", Path(tmp) / "one.toml"
        ours_cmd = [sys.executable, "-m", "cli", "solve"]
        peer_cmd = [sys.executable, str(Path(tmp) / "peer.py")]
        times, done = process_times(
            [
                [*ours_cmd, str(one)],
                [*ours_cmd, str(half)],
                [*ours_cmd, str(folder)],
                [*ours_cmd, "--json", str(half)],
                [*ours_cmd, "--json", str(folder)],
                [*peer_cmd, str(Path(tmp) / "one.json")],
                [*peer_cmd, str(Path(tmp) / "half.json")],
                [*peer_cmd, str(Path(tmp) / "many.json")],
            ],
            2 if quick else 5,
        )
        cold_ours, half_ours, many_ours, half_json, many_json, cold_peer, half_peer, many_peer = times
        loop_peer = float(done[7].stderr.split()[-1])
        solve_ours = _json_seconds([*ours_cmd, "--json", str(folder)])
        pages = _cli_costs(folder)
    more = n - n // 2
    warm_ours = (many_ours - half_ours) / more
    warm_json = (many_json - half_json) / more
    warm_peer = (many_peer - half_peer) / more
    table.add_row("process: cold, one puzzle", fmt(cold_ours), fmt(cold_peer), f"{cold_ours / cold_peer:.2f}x")
    table.add_row(
        f"process: warm per puzzle ({n} vs {n // 2}), human output",
        fmt(warm_ours),
        fmt(warm_peer),
        f"{warm_ours / warm_peer:.2f}x",
    )
    table.add_row("  same, --json output", fmt(warm_json), fmt(warm_peer), f"{warm_json / warm_peer:.2f}x")
    table.add_row(
        "  solving only, after the first (ours: --json seconds; peer: its own timing)",
        fmt(solve_ours),
        fmt(loop_peer),
        f"{solve_ours / loop_peer:.2f}x",
    )
    for label, seconds in pages:
        table.add_row(f"  {label}", fmt(seconds), "", "")


def series(label: str, points: Sequence[tuple[str, ManipulationRules, int, int]], seeds: range) -> None:
    """Print one scaling table: plain and least-change solve times at each point (median over ``seeds``)."""
    t = Table(title=f"Time against {label} (median of {len(seeds)} positions)")
    for col in (label, "plain solve", "with least change", "proven optimal"):
        t.add_column(col, justify="right")
    for name, r, tc, hc in points:
        plain, least, proven = [], [], 0
        for s in seeds:
            tab, hand = random_position(r, tc, hc, 7000 + s)
            best_play(tab, hand, r, least_change=False, time_limit=10)
            a, p = timed(partial(best_play, tab, hand, r, least_change=False, time_limit=10))
            b, _ = timed(partial(best_play, tab, hand, r, time_limit=10))
            plain.append(a)
            least.append(b)
            proven += p.status in ("optimal", "infeasible")
        t.add_row(name, fmt(statistics.median(plain)), fmt(statistics.median(least)), f"{proven}/{len(seeds)}")
    console.print(t)


def scaling(rules: ManipulationRules, seeds: range) -> None:
    """The scaling tables: time against table size, hand size, decks and jokers."""
    series("table size", [(f"{tc} cards", rules, tc, 10) for tc in (20, 40, 80, 120)], seeds)
    series("hand size", [(f"{hc} cards", rules, 40, hc) for hc in (5, 10, 15, 20)], seeds)
    series("decks", [(f"{d} decks", ManipulationRules(decks=d), 25 * d, 10) for d in (1, 2, 3, 4)], seeds)
    series("jokers", [(f"{j} jokers", ManipulationRules(jokers=j), 40, 10) for j in (0, 1, 2, 4, 6)], seeds)


def value_objective(positions: int) -> None:
    """The value objective against exhaustive search on small random positions of every rule option."""
    from tests.oracles.manip_brute import best_by_brute_force

    agree = total = 0
    for s in range(positions):
        r = ManipulationRules(decks=1 + s % 2, ace=("low", "high", "both")[s % 3], jokers=s % 3 if s % 4 else 0)
        tab, hand = random_position(r, 9, 4, 9000 + s)
        best, _ = best_by_brute_force(tab, hand, r, "value")
        total += 1
        agree += best_play(tab, hand, r, objective="value").value == best
    t = Table(title="Value objective against exhaustive search (small random positions, all rule options)")
    t.add_column("positions")
    t.add_column("equal best value", justify="right")
    t.add_row(str(total), f"{agree}/{total}")
    console.print(t)


def four_decks(seeds: int) -> None:
    """The four-deck six-joker target: in process for ``seeds`` positions, then one whole cold command."""
    r = ManipulationRules(decks=4, jokers=6)
    t = Table(title="Four decks, six jokers, 150+ table cards, hand 14 (target: proven optimum within 1 s)")
    for col in ("seed", "table cards", "plain solve", "status", "with least change", "least change"):
        t.add_column(col, justify="right")
    for s in range(seeds):
        tab, hand = random_position(r, 150, 14, s, table_jokers=3)
        a, p = timed(partial(best_play, tab, hand, r, least_change=False, time_limit=10))
        b, q = timed(partial(best_play, tab, hand, r, time_limit=10))
        t.add_row(str(s), str(sum(len(m) for m in tab)), fmt(a), p.status, fmt(b), q.least_change)
    console.print(t)
    with tempfile.TemporaryDirectory() as tmp:
        tab, hand = random_position(r, 150, 14, 0, table_jokers=3)
        (Path(tmp) / "big.toml").write_text(dumps(Puzzle("manipulation", r, ManipulationPosition(tab, hand))))
        (whole,), _ = process_times([[sys.executable, "-m", "cli", "solve", str(Path(tmp) / "big.toml")]], 3)
    console.print(f"  whole command, cold process (imports included), seed 0, least change: {fmt(whole)}")


def engine(games: int) -> None:
    """Self-play (solver, greedy and random players, one hand each): time, solver questions, CP-SAT solves."""
    import solver.manipulation.game as em
    import solver.manipulation.least_change as least_change
    import solver.manipulation.model as model
    from solver.engine.selfplay import play_one
    from solver.manipulation import Playable

    t = Table(title=f"Engine self-play, {games} one-hand games per preset (solver, greedy, random players)")
    for col in ("preset", "median game", "solver questions", "answered with no CP-SAT solve", "CP-SAT solves"):
        t.add_column(col, justify="right")
    originals = (Playable.most, getattr(em, "best_play"), model.run_model)  # noqa: B009
    asked = [0, 0]  # questions, questions that ran CP-SAT
    solves = [0]
    ran = [False]

    def question(fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            ran[0] = False
            out = fn(*args, **kwargs)
            asked[0] += 1
            asked[1] += ran[0]
            return out

        return wrapper

    def run(*args: Any, **kwargs: Any) -> Any:
        ran[0] = True
        solves[0] += 1
        return originals[2](*args, **kwargs)

    Playable.most = question(originals[0])  # type: ignore[method-assign]
    setattr(em, "best_play", question(originals[1]))  # noqa: B010
    setattr(model, "run_model", run)  # noqa: B010
    setattr(least_change, "run_model", run)  # noqa: B010
    try:
        for preset in ("german", "norwegian", "rummikub"):
            asked[:] = [0, 0]
            solves[0] = 0
            times = []
            for seed in range(games):
                result = play_one(
                    "manipulation", {"preset": preset}, ("solver", "greedy", "random"), seed, {"max_hands": 1}
                )
                if result.error:  # pragma: no cover - the engine tests guard this
                    raise RuntimeError(result.error)
                times.append(result.seconds)
            no_solve = asked[0] - asked[1]
            t.add_row(preset, fmt(statistics.median(times)), str(asked[0]), f"{no_solve}/{asked[0]}", str(solves[0]))
    finally:
        Playable.most = originals[0]  # type: ignore[method-assign]
        setattr(em, "best_play", originals[1])  # noqa: B010
        setattr(model, "run_model", originals[2])  # noqa: B010
        setattr(least_change, "run_model", originals[2])  # noqa: B010
    console.print(t)


if __name__ == "__main__":
    main()
