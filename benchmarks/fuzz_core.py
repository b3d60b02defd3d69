"""A time-bounded fuzz run over the compiled core's entry points: native == pure, and no crash.

    python -m benchmarks.fuzz_core --seconds 120            # atheris (libFuzzer), every entry point
    python -m benchmarks.fuzz_core --seconds 60 --game zsy  # one game's entry points
    python -m benchmarks.fuzz_core --random 200             # no atheris: 200 seeded inputs an entry

Each input picks an entry point of :data:`benchmarks.core_entries.ENTRIES`
(the public functions the native code speeds, and each engine's legal-action
listing over a random game), builds its arguments from the fuzzer's bytes
(sometimes bad on purpose: too many copies, foreign cards) and runs them on
the native path and inside :func:`solver.native.pure`: the answers, or the
typed errors, must be equal, and neither path may raise anything else (a
native abort or a sanitizer report ends the process, which libFuzzer
reports with the input). Where a game's compiled module is not built its
entry points run on the pure path alone, and the run says so. Other inputs
go straight into the compiled modules (:mod:`benchmarks.core_hostile`):
every function and method of the typed stubs, called with recorded
arguments made hostile (wrong lengths, negative and huge counts, wrong
types, callbacks that raise); each must answer or refuse with a
``ValueError`` (subclass) or ``TypeError``. atheris
(``pip install atheris``) instruments the ``solver`` package for coverage;
``--random N`` runs seeded inputs instead (no fuzzer needed). Exit 0 when
every input agreed; on the first disagreement or crash, its traceback and a
non-zero exit (atheris also writes the input to ``crash-*``).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any


def _entries(games: Sequence[str]) -> list[Any]:
    from benchmarks.core_entries import ENTRIES

    return [e for e in ENTRIES if not games or e.core in games]


def _direct(games: Sequence[str]) -> list[Any]:
    """The recorded templates of every native entry point of the built cores (one list an entry point)."""
    from benchmarks.core_hostile import record, stub_entries
    from solver import native

    seen = record()
    out = []
    for core in native.CORES:
        if native.core(core) is None or (games and core not in games):
            continue
        for name in stub_entries(core):
            if not seen.get(name):
                raise SystemExit(f"fuzz_core: no recorded call of {name} to start from")
            out.append(seen[name])
    return out


def one_input(entries: Sequence[Any], src: Any, counts: Counter[str], direct: Sequence[Any] = ()) -> None:
    """Run one input (its entry chosen by ``src``): a public entry point on both paths (AssertionError
    when native != pure, or Crash), or a hostile call straight into a native one (``direct``)."""
    from benchmarks.core_entries import differ
    from solver.errors import ShanghaiError

    pick = src.below(len(entries) + len(direct))
    if pick >= len(entries):
        from benchmarks.core_hostile import hostile_call

        templates = direct[pick - len(entries)]
        template = templates[src.below(len(templates))]
        counts[f"direct {template.name}: {hostile_call(template, src)}"] += 1
        return
    entry = entries[pick]
    try:
        args = entry.args(src)
    except ShanghaiError:  # the input maker refused its own draw (a bad rule set): not an input
        counts["not an input"] += 1
        return
    problem = differ(entry, args)
    if problem:
        raise AssertionError(problem)
    from solver import native

    counts[entry.name + (": native == pure" if native.core(entry.core) is not None else ": pure only, no crash")] += 1


def run_random(entries: Sequence[Any], per_entry: int, seed: int, direct: Sequence[Any] = ()) -> Counter[str]:
    """``per_entry`` seeded inputs for each entry (about: the entry is drawn by the input)."""
    from benchmarks.core_entries import RandomSource

    counts: Counter[str] = Counter()
    for k in range(per_entry * (len(entries) + len(direct))):
        one_input(entries, RandomSource(seed * 1_000_003 + k), counts, direct)
    return counts


class _Bytes:
    """A fuzzer's bytes as a :class:`benchmarks.core_entries.Source`."""

    def __init__(self, data: bytes) -> None:
        import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]

        self.fdp = atheris.FuzzedDataProvider(data)

    def below(self, n: int) -> int:
        return int(self.fdp.ConsumeIntInRange(0, n - 1)) if n > 1 else 0


def run_atheris(games: Sequence[str], seconds: int, extra: Sequence[str]) -> None:
    """libFuzzer through atheris for ``seconds``; the solver package instrumented for coverage."""
    import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]

    entries = _entries(games)
    direct = _direct(games)
    counts: Counter[str] = Counter()
    start = time.perf_counter()

    def test_one_input(data: bytes) -> None:
        one_input(entries, _Bytes(data), counts, direct)
        if sum(counts.values()) % 500 == 0:  # libFuzzer ends the process itself: a summary as it goes
            _summary(counts, time.perf_counter() - start)

    atheris.Setup([sys.argv[0], f"-max_total_time={seconds}", "-print_final_stats=1", *extra], test_one_input)
    atheris.Fuzz()


def _summary(counts: Counter[str], seconds: float) -> None:
    total = sum(v for k, v in counts.items() if k != "not an input")
    direct = sum(v for k, v in counts.items() if k.startswith("direct "))
    print(
        f"fuzz_core: {total} inputs ({total - direct} public, {direct} direct) in {seconds:.0f} s,"
        " no disagreement, no crash so far",
        file=sys.stderr,
    )
    for name, n in sorted(counts.items()):
        print(f"  {name}: {n}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> None:
    """Parse, say what is covered, fuzz."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60, help="atheris: the run's length")
    parser.add_argument("--game", action="append", default=[], choices=("manipulation", "zsy", "contract"))
    parser.add_argument("--random", type=int, metavar="N", help="no atheris: N seeded inputs an entry point")
    parser.add_argument("--seed", type=int, default=1, help="--random: the first seed")
    args, extra = parser.parse_known_args(argv)
    if args.random is None:
        try:
            import atheris  # type: ignore[import-untyped, import-not-found, unused-ignore]
        except ImportError:
            parser.error("atheris is not installed (pip install atheris); or run --random N")
        if "solver" in sys.modules:
            print("fuzz_core: solver was imported before atheris could instrument it", file=sys.stderr)
        with atheris.instrument_imports(include=["solver"]):  # coverage guidance: the library's own code
            import solver.contract
            import solver.engine
            import solver.manipulation
            import solver.zsy  # noqa: F401
    from benchmarks.core_entries import coverage

    for line in coverage():
        print(f"fuzz_core: {line}", file=sys.stderr)
    if args.random is not None:
        start = time.perf_counter()
        counts = run_random(_entries(args.game), args.random, args.seed, _direct(args.game))
        _summary(counts, time.perf_counter() - start)
        return
    run_atheris(args.game, args.seconds, extra)


if __name__ == "__main__":
    main()
