"""RSS over many calls of each compiled entry point: flat, or a leak (issue 35: a million calls).

    python -m benchmarks.rss_core                          # a million calls an entry point (native)
    python -m benchmarks.rss_core --calls 100000 --game zsy

For each entry point of :data:`benchmarks.core_entries.ENTRIES` that one
call answers quickly (not the engines' whole games), a fixed pool of
``--pool`` seeded inputs is called round robin: a tenth of the calls warm
up (every cache the pool fills is full after one pass), then the resident
set size is read, the rest are called, and it is read again, with samples
between (each read after ``gc.collect()`` and glibc's ``malloc_trim(0)``:
memory freed but kept by the allocator is not a leak). RSS must not grow by more than ``--max-growth`` MB over the
measured calls. Native calls where the game's module is built; where it is
not, the pure path, capped at ``--pure-calls`` (the pure code is not what
leaks in C++, and a million pure calls would take hours), and the table
says so. Exit 1 when an entry point grew past the limit.
"""

from __future__ import annotations

import argparse
import ctypes
import gc
import os
import sys
import time
from collections.abc import Sequence
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from typing import Any

from benchmarks.core_entries import ENTRIES, Entry, RandomSource, outcome
from solver import native
from solver.errors import ShanghaiError

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _trim() -> None:
    """Collect garbage and hand glibc's free pages back (``malloc_trim``), so that memory freed but
    kept by the allocator is not read as a leak (measured: without it the pure path's CP-SAT calls
    seem to grow ~1 KB a call; with it they are flat)."""
    gc.collect()
    with suppress(OSError, AttributeError):  # not glibc: nothing to trim
        ctypes.CDLL("libc.so.6").malloc_trim(0)


def rss_bytes() -> int:
    """This process's resident set size now, after :func:`_trim` (Linux: /proc/self/statm; elsewhere
    the peak, from resource)."""
    _trim()
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * PAGE
    except OSError:  # pragma: no cover - not Linux
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


@dataclass(frozen=True, slots=True)
class Growth:
    """One entry point's RSS over its calls."""

    entry: str
    path: str
    calls: int
    seconds: float
    before: int
    after: int
    samples: tuple[int, ...]

    @property
    def growth_mb(self) -> float:
        """RSS after the measured calls less before them, MB."""
        return (self.after - self.before) / 2**20


def pool(entry: Entry, size: int, seed: int) -> list[tuple[Any, ...]]:
    """``size`` seeded argument tuples for ``entry`` (draws the input maker refuses are skipped)."""
    out: list[tuple[Any, ...]] = []
    k = 0
    while len(out) < size:
        with suppress(ShanghaiError):
            out.append(entry.args(RandomSource(seed * 1_000_003 + k)))
        k += 1
    return out


def measure(entry: Entry, calls: int, size: int, seed: int, samples: int = 10) -> Growth:
    """Call ``entry`` ``calls`` times round robin over a pool of ``size`` inputs; RSS before and after."""
    path = "native" if native.core(entry.core) is not None else "pure"
    inputs = pool(entry, size, seed)
    warm = max(len(inputs), calls // 10)
    with nullcontext() if path == "native" else native.pure():
        for k in range(warm):
            outcome(entry, inputs[k % len(inputs)])
        before = rss_bytes()
        seen = []
        step = max(1, calls // samples)
        start = time.perf_counter()
        for k in range(calls):
            outcome(entry, inputs[k % len(inputs)])
            if (k + 1) % step == 0:
                seen.append(rss_bytes())
        seconds = time.perf_counter() - start
        after = rss_bytes()
    return Growth(entry.name, path, calls, seconds, before, after, tuple(seen))


def main(argv: Sequence[str] | None = None) -> None:
    """Measure each cheap entry point and print a line each; exit 1 on growth past the limit."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=1_000_000, help="measured calls an entry point (native)")
    parser.add_argument("--pure-calls", type=int, default=20_000, help="measured calls where a module is not built")
    parser.add_argument("--pool", type=int, default=64, help="distinct inputs, called round robin")
    parser.add_argument("--max-growth", type=float, default=4.0, help="MB of RSS growth allowed")
    parser.add_argument("--game", action="append", default=[], choices=native.CORES)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    bad = 0
    print(f"rss_core: {native.describe()}")
    for entry in ENTRIES:
        if not entry.cheap or (args.game and entry.core not in args.game):
            continue
        calls = args.calls if native.core(entry.core) is not None else min(args.calls, args.pure_calls)
        g = measure(entry, calls, args.pool, args.seed)
        over = g.growth_mb > args.max_growth
        bad += over
        trail = " ".join(f"{s / 2**20:.1f}" for s in g.samples)
        print(
            f"{g.entry:45} {g.path:6} {g.calls:>9,} calls {g.seconds:7.1f} s  RSS {g.before / 2**20:.1f} -> "
            f"{g.after / 2**20:.1f} MB ({g.growth_mb:+.2f}){'  OVER THE LIMIT' if over else ''}  [{trail}]"
        )
        sys.stdout.flush()
    if bad:
        print(f"rss_core: {bad} entry point(s) grew more than {args.max_growth:g} MB")
        raise SystemExit(1)


if __name__ == "__main__":
    main()
