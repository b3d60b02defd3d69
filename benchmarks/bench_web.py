"""The web API under load, and its latency against the same solve in process.

    python -m benchmarks.bench_web [--clients 50] [--seconds 60] [--requests 100]

Starts ``shanghai serve`` on a free localhost port (two solver workers) and:

1. latency: ``--requests`` sequential solves of two-deck Manipulation
   positions over HTTP (one keep-alive connection) against the same requests
   answered by an in-process ``EngineServer`` (target: median within 5 ms);
2. load: ``--clients`` concurrent clients solving two-deck positions for
   ``--seconds`` (target: no error); prints p50 and p95 latency.

Traffic goes only to 127.0.0.1 and stops by itself; the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.bench_protocol import _puzzles
from solver.engine.protocol import EngineServer


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(conn: http.client.HTTPConnection, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    conn.request("POST", path, json.dumps(body), {"content-type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


def _start(port: int, workers: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "cli", "serve", "--port", str(port), "--workers", str(workers)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/api/health")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.2)
    proc.terminate()
    raise SystemExit("the server did not start")


def main() -> None:
    """Measure and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    console = Console(width=130)
    puzzles = _puzzles(50)
    port = _free_port()
    proc = _start(port, args.workers)
    try:
        # 1. latency, one request at a time
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        local = EngineServer()
        for p in puzzles[:5]:  # warm up both sides
            _post(conn, "/api/solve", {"puzzle": p, "time_limit": 10})
            local.handle({"cmd": "solve", "puzzle": p, "time_limit": 10})
        http_ms: list[float] = []
        local_ms: list[float] = []
        overhead_ms: list[float] = []  # HTTP time minus the solve's own time, as the server measured it

        def over_http(p: dict[str, Any]) -> None:
            start = time.perf_counter()
            status, data = _post(conn, "/api/solve", {"puzzle": p, "time_limit": 10})
            took = (time.perf_counter() - start) * 1000
            assert status == 200, data
            http_ms.append(took)
            overhead_ms.append(took - data["seconds"] * 1000)

        def in_process(p: dict[str, Any]) -> None:
            start = time.perf_counter()
            local.handle({"cmd": "solve", "puzzle": p, "time_limit": 10})
            local_ms.append((time.perf_counter() - start) * 1000)

        for i in range(args.requests):  # alternate which goes first, so drift hits both
            p = puzzles[i % len(puzzles)]
            first, second = (over_http, in_process) if i % 2 else (in_process, over_http)
            first(p)
            second(p)
        hm, lm = statistics.median(http_ms), statistics.median(local_ms)
        om = statistics.median(overhead_ms)
        lat = Table(title=f"solve of a two-deck position, ms ({platform.machine()}, {args.requests} requests)")
        for col in ("way", "median", "p90"):
            lat.add_column(col, justify="left" if col == "way" else "right")
        lat.add_row("HTTP (keep-alive)", f"{hm:.2f}", f"{statistics.quantiles(http_ms, n=10)[-1]:.2f}")
        lat.add_row("in process", f"{lm:.2f}", f"{statistics.quantiles(local_ms, n=10)[-1]:.2f}")
        lat.add_row("difference of medians (target < 5 ms)", f"{hm - lm:.2f}", "met" if hm - lm < 5 else "missed")
        lat.add_row(
            "HTTP + worker pool overhead per request", f"{om:.2f}", f"{statistics.quantiles(overhead_ms, n=10)[-1]:.2f}"
        )
        console.print(lat)

        # 2. load: many clients at once
        latencies: list[float] = []
        errors: list[str] = []
        lock = threading.Lock()
        deadline = time.monotonic() + args.seconds

        def client(k: int) -> None:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
            i = k
            while time.monotonic() < deadline:
                p = puzzles[i % len(puzzles)]
                i += args.clients
                start = time.perf_counter()
                try:
                    status, data = _post(c, "/api/solve", {"puzzle": p, "time_limit": 10})
                except (OSError, http.client.HTTPException, ValueError) as exc:
                    with lock:
                        errors.append(f"{type(exc).__name__}: {exc}")
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
                    continue
                took = (time.perf_counter() - start) * 1000
                with lock:
                    if status != 200:
                        errors.append(f"{status}: {data}")
                    else:
                        latencies.append(took)

        threads = [threading.Thread(target=client, args=(k,)) for k in range(args.clients)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        elapsed = time.monotonic() - started
        load = Table(
            title=f"{args.clients} concurrent clients for {args.seconds:g} s, two-deck solves ({os.cpu_count()} cores)"
        )
        for col in ("requests", "errors", "per second", "p50 ms", "p95 ms", "max ms"):
            load.add_column(col, justify="right")
        q = statistics.quantiles(latencies, n=20) if len(latencies) > 1 else [0.0] * 19
        load.add_row(
            str(len(latencies) + len(errors)),
            str(len(errors)),
            f"{len(latencies) / elapsed:.1f}",
            f"{statistics.median(latencies) if latencies else 0:.1f}",
            f"{q[18]:.1f}",
            f"{max(latencies, default=0):.1f}",
        )
        console.print(load)
        for e in errors[:5]:
            console.print(f"error: {e}")
        print(
            json.dumps(
                {
                    "http_median_ms": round(hm, 3),
                    "in_process_median_ms": round(lm, 3),
                    "overhead_median_ms": round(om, 3),
                    "load_requests": len(latencies),
                    "load_errors": len(errors),
                    "p50_ms": round(statistics.median(latencies), 1) if latencies else None,
                    "p95_ms": round(q[18], 1),
                }
            )
        )
    finally:
        proc.terminate()
        proc.wait(10)


if __name__ == "__main__":
    main()
