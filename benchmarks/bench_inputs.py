"""Bounded input: how fast and how small ``shanghai`` refuses an input with no end.

    python -m benchmarks.bench_inputs [--runs 3]

Rows: ``check /dev/zero``, ``yes 'hand = "5H"' | solve -``, ``check - < /dev/zero`` and
``solve FIFO`` (a named pipe with no writer). Target (issue 34): each exits 2 within 2 s and
200 MB of resident memory. The peer is ``shanghai --version``, the same interpreter start and
imports without any input, so the difference is the cost of reading up to the cap.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
TARGET_SECONDS = 2.0
TARGET_MB = 200.0


def _run(args: list[str], stdin: int | None) -> tuple[int, float, float]:
    """Exit code, wall seconds and largest resident MB of ``shanghai ARGS``."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", *args],
        stdin=stdin if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=ROOT,
        env=env,
    )
    deadline = start + 30
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            _, status, usage = os.wait4(proc.pid, 0)
            break
        time.sleep(0.005)
    took = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, took, usage.ru_maxrss / 1024


def _case(name: str, folder: Path) -> tuple[int, float, float]:
    if name == "check /dev/zero":
        return _run(["check", "/dev/zero"], None)
    if name == "yes 'hand = \"5H\"' | solve -":
        yes = subprocess.Popen(["yes", 'hand = "5H"'], stdout=subprocess.PIPE)
        assert yes.stdout is not None
        try:
            return _run(["solve", "-"], yes.stdout.fileno())
        finally:
            yes.stdout.close()
            yes.kill()
            yes.wait()
    if name == "check - < /dev/zero":
        with open("/dev/zero", "rb") as zero:
            return _run(["check", "-"], zero.fileno())
    if name == "solve FIFO (no writer)":
        fifo = folder / "pipe.toml"
        if not fifo.exists():
            os.mkfifo(fifo)
        return _run(["solve", str(fifo)], None)
    return _run(["--version"], None)


CASES = ("check /dev/zero", "yes 'hand = \"5H\"' | solve -", "check - < /dev/zero", "solve FIFO (no writer)")


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    console = Console(width=130)
    table = Table(title=f"bounded input: seconds and resident MB, median of {args.runs} runs")
    for col in ("case", "exit", "seconds", "max MB", "peer seconds", "peer MB", "target", "met"):
        table.add_column(col, justify="left" if col in ("case", "target") else "right")
    with tempfile.TemporaryDirectory() as tmp:
        peers = [_case("peer", Path(tmp)) for _ in range(args.runs)]
        peer_s = statistics.median(p[1] for p in peers)
        peer_mb = statistics.median(p[2] for p in peers)
        for name in CASES:
            rows = [_case(name, Path(tmp)) for _ in range(args.runs)]
            codes = {r[0] for r in rows}
            seconds = statistics.median(r[1] for r in rows)
            mb = max(r[2] for r in rows)
            met = codes == {2} and max(r[1] for r in rows) < TARGET_SECONDS and mb < TARGET_MB
            table.add_row(
                name,
                ",".join(map(str, sorted(codes))),
                f"{seconds:.2f}",
                f"{mb:.0f}",
                f"{peer_s:.2f}",
                f"{peer_mb:.0f}",
                f"exit 2, < {TARGET_SECONDS:g} s, < {TARGET_MB:g} MB",
                "yes" if met else "NO",
            )
    console.print(table)


if __name__ == "__main__":
    main()
