"""Manipulation's compiled core against the pure path, in one process: the program and self-play.

    python -m benchmarks.bench_native_manipulation             # 3 runs of 40 games a path
    python -m benchmarks.bench_native_manipulation --selfplay 100 --runs 5
    python -m benchmarks.bench_native_manipulation --rss 1000000   # also: RSS over that many core calls

Rows: (1) ``natural_play`` on the calls the engine's random games make
(collected from ``--games`` seeded games, untimed), the fastest of 3 timings
of each call, median and mean over the calls, native and pure; (2) the
engine's random self-play (the loop of ``benchmarks/bench_engine.py``:
seeded games 0 to ``--selfplay - 1``, a random legal action until each
ends, the same games on both paths), actions per second of process CPU time,
the median of ``--runs`` runs a path, the paths taking turns. The target
(issue 35): self-play at least twice RLCard gin rummy's env steps/s (about
23k actions/s on the 2-core machine). One core; the machine is shared:
compare the paths within one run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

import solver.manipulation.natural as natural
import solver.manipulation.play as play
from solver import native
from solver.engine import new_game

Call = tuple[tuple[Any, ...], dict[str, Any]]


def engine_rate(games: int) -> float:
    """Random legal actions per second of process CPU time over the seeded games 0 to ``games - 1``
    (the loop of bench_engine, but the same games on both paths; CPU time, steadier than the wall
    clock on a shared machine)."""
    play._BEYOND.clear()  # each path answers for itself
    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    for seed in range(games):
        game = new_game("manipulation", None, 4, seed)
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
    return actions / (time.process_time() - start)


def collect(games: int) -> list[Call]:
    """The ``natural_play`` calls that ``games`` seeded random games make."""
    calls: list[Call] = []
    real = natural.natural_play

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        return real(*args, **kwargs)

    setattr(play, "natural_play", spy)  # noqa: B010 (the name play imported, not exported)
    try:
        rng = random.Random(1)
        for seed in range(games):
            game = new_game("manipulation", None, 4, seed)
            while not game.is_terminal():
                game.apply(rng.choice(game.legal_actions()))
    finally:
        setattr(play, "natural_play", real)  # noqa: B010
    return calls


def per_call(calls: list[Call]) -> tuple[float, float]:
    """Median and mean microseconds a call (the fastest of 3 wall-clock timings each)."""
    times = []
    for args, kwargs in calls:
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            natural.natural_play(*args, **kwargs)
            best = min(best, time.perf_counter() - start)
        times.append(best)
    return statistics.median(times) * 1e6, statistics.mean(times) * 1e6


def rss_check(calls: int) -> None:
    """RSS (kB) every fifth of ``calls`` calls of the core's natural_program on drawn positions."""
    mod = native.core("manipulation")
    if mod is None:
        print("no compiled core: no RSS check")
        return
    rng = random.Random(3)
    cases = []
    for i in range(200):
        tc = [0] * 52
        bc = [0] * 52
        for _ in range(rng.randrange(10, 40)):  # any counts of two decks: the core is defined on counts
            j = rng.randrange(52)
            tc[j] = min(2, tc[j] + 1)
        for _ in range(rng.randrange(1, 20)):
            j = rng.randrange(52)
            bc[j] = min(2 - tc[j], bc[j] + 1)
        cases.append((tc, bc, i % 3, rng.choice([300, 2_000, 20_000]), rng.randrange(1, 5)))
    step = max(1, calls // 5)
    for done in range(calls):
        mod.natural_program(*cases[done % len(cases)])
        if (done + 1) % step == 0:
            with open("/proc/self/statm") as statm:
                kb = int(statm.read().split()[1]) * 4
            print(f"after {done + 1} calls: RSS {kb} kB")


def main() -> None:
    """Run the rows and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games whose natural_play calls are timed")
    parser.add_argument("--selfplay", type=int, default=40, help="seeded games a self-play run")
    parser.add_argument("--runs", type=int, default=3, help="self-play runs a path (their median)")
    parser.add_argument("--rss", type=int, default=0, metavar="N", help="also RSS over N core calls")
    args = parser.parse_args()
    print(f"backend: {native.describe()}")
    if native.core("manipulation") is None:
        print("the Manipulation core is not built: both rows would time the pure path")
        return
    calls = collect(args.games)
    fast = per_call(calls)
    with native.pure():
        pure = per_call(calls)
    print(f"natural_play, {len(calls)} calls of {args.games} random games, fastest of 3 (median / mean us):")
    print(f"  native {fast[0]:.1f} / {fast[1]:.1f}   pure {pure[0]:.1f} / {pure[1]:.1f}", end="")
    print(f"   speed-up {pure[0] / fast[0]:.1f}x / {pure[1] / fast[1]:.1f}x")
    rates: dict[str, list[float]] = {"native": [], "pure": []}
    for _ in range(args.runs):
        rates["native"].append(engine_rate(args.selfplay))
        with native.pure():
            rates["pure"].append(engine_rate(args.selfplay))
    print(f"random self-play (german, 4 players), actions/CPU s, median of {args.runs} runs of {args.selfplay} games:")
    for path, values in rates.items():
        print(f"  {path}: {statistics.median(values):.0f}  (runs: {', '.join(f'{v:.0f}' for v in values)})")
    print(f"  native / pure: {statistics.median(rates['native']) / statistics.median(rates['pure']):.1f}x")
    if args.rss:
        rss_check(args.rss)


if __name__ == "__main__":
    main()
