"""Manipulation Shanghai benchmark: this solver against the peer ``rummikub-solver``, same run.

Run from the repository root::

    python -m benchmarks.bench_manipulation [--puzzles 100] [--seed 1]

Prints rich tables: equal optima, warm and cold timings (in process and as
whole processes), the cost of least change, time against table size, hand
size, decks and jokers, the value objective against exhaustive search, and
the four-deck six-joker target. Timings are medians; the machine is shared,
so expect noise.
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
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.positions import random_position
from solver.cards import Cards, Suit
from solver.manipulation import best_play
from solver.melds import Meld
from solver.puzzles import ManipulationPosition, Puzzle, dumps
from solver.rules import ManipulationRules

ROOT = Path(__file__).resolve().parent.parent
console = Console(highlight=False)

PEER_SCRIPT = """
import json, sys
from rummikub_solver import RuleSet
rs = RuleSet(numbers=13, repeats=2, colours=4, jokers=0, min_len=3, min_initial_value=1)
tiles = rs.tiles
for table, rack in json.load(open(sys.argv[1])):
    state = rs.new_game()
    state.add_table(*(tiles[t] for t in table))
    state.add_rack(*(tiles[t] for t in rack))
    state.initial = False
    sol = rs.solve(state)
    print(len(sol.tiles) if sol else 0, [[int(t) for t in s] for s in sol.sets] if sol else [])
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


def process_time(cmd: list[str], repeat: int = 3) -> float:
    """Median wall time of a whole process, after one discarded warm-up run (disk caches)."""
    subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--puzzles", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--quick", action="store_true", help="fewer repeats and scaling points")
    args = parser.parse_args(argv)
    rules = ManipulationRules()
    puzzles = two_deck_puzzles(args.puzzles, args.seed)
    peer = Peer()

    # --- in process: optima and warm times ---------------------------------------------------
    ours_t, plain_t, peer_t = [], [], []
    equal = 0
    statuses: dict[str, int] = {}
    for table, hand in puzzles:
        best_play(table, hand, rules)  # warm the template cache once (cheap after the first)
        t1, play = timed(lambda table=table, hand=hand: best_play(table, hand, rules))
        t2, _ = timed(lambda table=table, hand=hand: best_play(table, hand, rules, least_change=False))
        pt, ph = peer_tiles(table, hand)
        t3, theirs = timed(lambda pt=pt, ph=ph: peer.solve(pt, ph))
        ours_t.append(t1)
        plain_t.append(t2)
        peer_t.append(t3)
        statuses[play.status] = statuses.get(play.status, 0) + 1
        equal += play.cards == theirs
    table = Table(title=f"Two decks, ace low, no jokers: {len(puzzles)} random positions (table 20-50 cards, hand 10)")
    table.add_column("measure")
    table.add_column("this solver", justify="right")
    table.add_column("rummikub-solver", justify="right")
    table.add_column("ratio", justify="right")
    table.add_row("equal optima (cards)", f"{equal}/{len(puzzles)}", "", "")
    table.add_row("proven optimal", str(statuses.get("optimal", 0) + statuses.get("none", 0)), "", "")
    m_ours, m_plain, m_peer = (statistics.median(x) for x in (ours_t, plain_t, peer_t))
    table.add_row("median warm solve, least change", fmt(m_ours), fmt(m_peer), f"{m_ours / m_peer:.2f}x")
    table.add_row("median warm solve, plain", fmt(m_plain), fmt(m_peer), f"{m_plain / m_peer:.2f}x")
    table.add_row("cost of least change (median)", fmt(m_ours - m_plain), "", f"{m_ours / m_plain:.2f}x plain")

    # --- whole processes ------------------------------------------------------------------------
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "many"
        folder.mkdir()
        for k, (t, h) in enumerate(puzzles):
            (folder / f"p{k:03d}.toml").write_text(dumps(Puzzle("manipulation", rules, ManipulationPosition(t, h))))
        one = Path(tmp) / "one.toml"
        one.write_text((folder / "p001.toml").read_text())
        (Path(tmp) / "peer.py").write_text(PEER_SCRIPT)
        (Path(tmp) / "many.json").write_text(json.dumps([peer_tiles(t, h) for t, h in puzzles]))
        (Path(tmp) / "one.json").write_text(json.dumps([peer_tiles(*puzzles[1])]))
        repeat = 1 if args.quick else 3
        ours_cmd = [sys.executable, "-m", "cli", "solve"]
        peer_cmd = [sys.executable, str(Path(tmp) / "peer.py")]
        cold_ours = process_time([*ours_cmd, str(one)], repeat)
        cold_peer = process_time([*peer_cmd, str(Path(tmp) / "one.json")], repeat)
        many_ours = process_time([*ours_cmd, str(folder)], repeat)
        many_json = process_time([*ours_cmd, "--json", str(folder)], repeat)
        many_peer = process_time([*peer_cmd, str(Path(tmp) / "many.json")], repeat)
    n = len(puzzles)
    warm_ours = (many_ours - cold_ours) / (n - 1)
    warm_json = (many_json - cold_ours) / (n - 1)
    warm_peer = (many_peer - cold_peer) / (n - 1)
    table.add_row("process: cold, one puzzle", fmt(cold_ours), fmt(cold_peer), f"{cold_ours / cold_peer:.2f}x")
    table.add_row(
        f"process: warm per puzzle ({n} vs 1)", fmt(warm_ours), fmt(warm_peer), f"{warm_ours / warm_peer:.2f}x"
    )
    table.add_row("  same, --json output", fmt(warm_json), fmt(warm_peer), f"{warm_json / warm_peer:.2f}x")
    console.print(table)

    # --- scaling ----------------------------------------------------------------------------------
    seeds = range(3 if args.quick else 6)

    def series(label: str, points: Sequence[tuple[str, ManipulationRules, int, int]]) -> None:
        t = Table(title=f"Time against {label} (median of {len(seeds)} positions)")
        for col in (label, "plain solve", "with least change", "proven optimal"):
            t.add_column(col, justify="right")
        for name, r, tc, hc in points:
            plain, least, proven = [], [], 0
            for s in seeds:
                tab, hand = random_position(r, tc, hc, 7000 + s)
                best_play(tab, hand, r, least_change=False, time_limit=10)
                a, p = timed(lambda tab=tab, hand=hand, r=r: best_play(tab, hand, r, least_change=False, time_limit=10))
                b, _ = timed(lambda tab=tab, hand=hand, r=r: best_play(tab, hand, r, time_limit=10))
                plain.append(a)
                least.append(b)
                proven += p.status in ("optimal", "none")
            t.add_row(name, fmt(statistics.median(plain)), fmt(statistics.median(least)), f"{proven}/{len(seeds)}")
        console.print(t)

    series("table size", [(f"{tc} cards", rules, tc, 10) for tc in (20, 40, 80, 120)])
    series("hand size", [(f"{hc} cards", rules, 40, hc) for hc in (5, 10, 15, 20)])
    series("decks", [(f"{d} decks", ManipulationRules(decks=d), 25 * d, 10) for d in (1, 2, 3, 4)])
    series("jokers", [(f"{j} jokers", ManipulationRules(jokers=j), 40, 10) for j in (0, 1, 2, 4, 6)])

    # --- value objective against exhaustive search ----------------------------------------------
    from tests.manip_brute import best_by_brute_force

    agree = total = 0
    for s in range(10 if args.quick else 30):
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

    # --- the four-deck six-joker target ---------------------------------------------------------
    r = ManipulationRules(decks=4, jokers=6)
    t = Table(title="Four decks, six jokers, 150+ table cards, hand 14 (target: proven optimum within 1 s)")
    for col in ("seed", "table cards", "plain solve", "status", "with least change", "least change"):
        t.add_column(col, justify="right")
    for s in range(3 if args.quick else 6):
        tab, hand = random_position(r, 150, 14, s, table_jokers=3)
        a, p = timed(lambda tab=tab, hand=hand: best_play(tab, hand, r, least_change=False, time_limit=10))
        b, q = timed(lambda tab=tab, hand=hand: best_play(tab, hand, r, time_limit=10))
        t.add_row(str(s), str(sum(len(m) for m in tab)), fmt(a), p.status, fmt(b), q.least_change)
    console.print(t)


if __name__ == "__main__":
    main()
