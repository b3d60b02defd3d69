"""The web API under load, and its latency against the same solve in process.

    python -m benchmarks.bench_web [--requests 300] [--clients 50] [--seconds 60]
        [--fleet-clients 50] [--fleet-seconds 60] [--only-fleet]
    python -m benchmarks.bench_web --heavy-clients 1,3,6 [--heavy-seconds 20]

``--heavy-clients``: only the fair-share run (issue 37). One server (two solver
processes); for each count N, N clients (each its own address) keep two heavy
solves each in flight (four-deck positions of 150 table cards and 30 in hand,
each a new one, ``time_limit`` 10) while a light
client solves a six-card position one request after another for
``--heavy-seconds``: the light client's p50 and p95 (target p95 < 1 s).

First the fleet (:mod:`benchmarks.bench_web_fleet`): two server processes sharing a Redis,
``--fleet-clients`` clients playing games and solving, then the fairness run. Then:

Starts ``shanghai serve`` twice on free localhost ports, with two solver
worker processes (the default) and with ``--solvers 0`` (solves in threads of
the server), and:

1. latency: ``--requests`` rounds; each round solves the same two-deck
   Manipulation position three ways, in a rotating order: in this process
   (``EngineServer.handle``, the peer), over HTTP to each server (one
   keep-alive connection each). Every position is solved once each way before
   timing, so every way sees warm caches. Per request: wall time; CPU time of
   every process that worked on it (this thread, the server's threads and its
   workers, from ``/proc/*/schedstat``); the time those processes sat
   runnable but waiting for a CPU; the engine's own solve span. Target: the
   HTTP median within 5 ms of the in-process median;
2. load: ``--clients`` concurrent clients solving two-deck positions for
   ``--seconds`` (target: no error); prints p50 and p95 latency.

Traffic goes only to 127.0.0.1 and stops by itself; the servers are stopped at the end.
"""

from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import platform
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from rich.console import Console
from rich.table import Table

from benchmarks.bench_protocol import _puzzles
from solver.engine.protocol import EngineServer

SCHEDSTAT = os.path.exists("/proc/self/schedstat")
"""Linux: per-thread CPU and run-queue time in ns; elsewhere the CPU columns read n/a."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(conn: http.client.HTTPConnection, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    conn.request("POST", path, json.dumps(body), {"content-type": "application/json"})
    r = conn.getresponse()
    return r.status, json.loads(r.read())


def _start(port: int, workers: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "cli", "serve", "--port", str(port), "--solvers", str(workers)]
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


def _family(pid: int) -> list[int]:
    """A process and its children (a server and its solver workers)."""
    out = [pid]
    try:
        for tid in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                out += [int(x) for x in f.read().split()]
    except OSError:
        pass
    return out


def _sched(pids: list[int]) -> tuple[int, int]:
    """Nanoseconds on a CPU and waiting for one, summed over every thread of ``pids``."""
    run = wait = 0
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                    r, w, _ = f.read().split()
            except (OSError, ValueError):
                continue
            run += int(r)
            wait += int(w)
    return run, wait


class Way:
    """One way to solve a request, and its measurements (ms)."""

    def __init__(self, name: str, call: Callable[[dict[str, Any]], dict[str, Any]], pid: int | None) -> None:
        self.name = name
        self.call = call
        self.pid = pid  # the server's pid; None: this process (its own thread is counted by thread_time)
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self.parts: list[tuple[float, float, float]] = []  # CPU of this thread, the server, its workers
        self.wait: list[float] = []
        self.solve: list[float] = []

    def _others(self) -> tuple[list[int], list[int]]:
        if self.pid is None or not SCHEDSTAT:
            return [], []
        return [self.pid], _family(self.pid)[1:]

    def _own_wait(self) -> int:
        if not SCHEDSTAT:
            return 0
        with open(f"/proc/self/task/{threading.get_native_id()}/schedstat") as f:
            return int(f.read().split()[1])

    def measure(self, puzzle: dict[str, Any]) -> None:
        """Time one solve of ``puzzle``."""
        server, workers = self._others()
        (srun0, swait0), (wrun0, wwait0) = _sched(server), _sched(workers)
        own0 = self._own_wait()
        cpu0, t0 = time.thread_time(), time.perf_counter()
        result = self.call(puzzle)
        t1, cpu1 = time.perf_counter(), time.thread_time()
        own1 = self._own_wait()
        (srun1, swait1), (wrun1, wwait1) = _sched(server), _sched(workers)
        parts = ((cpu1 - cpu0) * 1000, (srun1 - srun0) / 1e6, (wrun1 - wrun0) / 1e6)
        self.wall.append((t1 - t0) * 1000)
        self.parts.append(parts)
        self.cpu.append(sum(parts))
        self.wait.append((own1 - own0 + swait1 - swait0 + wwait1 - wwait0) / 1e6)
        self.solve.append(result["seconds"] * 1000)


def _http(port: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def call(puzzle: dict[str, Any]) -> dict[str, Any]:
        status, data = _post(conn, "/api/solve", {"puzzle": puzzle, "time_limit": 10})
        assert status == 200, data
        return data

    return call


def _local() -> Callable[[dict[str, Any]], dict[str, Any]]:
    server = EngineServer()

    def call(puzzle: dict[str, Any]) -> dict[str, Any]:
        reply = server.handle({"cmd": "solve", "puzzle": puzzle, "time_limit": 10})
        result: dict[str, Any] = reply["result"]
        return result

    return call


def _p90(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=10)[-1] if len(xs) > 1 else xs[0]


def latency(ways: list[Way], puzzles: list[dict[str, Any]], rounds: int, console: Console) -> dict[str, float]:
    """Interleaved rounds, every way on the same position; prints the table, returns the medians."""
    for p in puzzles:  # warm every cache of every way on every position
        for w in ways:
            w.call(p)
    for i in range(rounds):
        p = puzzles[i % len(puzzles)]
        k = i % len(ways)
        for w in ways[k:] + ways[:k]:  # rotate who goes first, so drift hits all alike
            w.measure(p)
    med = statistics.median
    cpu = "CPU" if SCHEDSTAT else "CPU (this thread only)"
    table = Table(title=f"solve of a two-deck position, ms ({platform.machine()}, {rounds} interleaved rounds)")
    for col in ("way", "wall median", "wall p90", f"{cpu} median", "waiting (sum)", "engine's solve span"):
        table.add_column(col, justify="left" if col == "way" else "right")
    for w in ways:
        table.add_row(
            w.name, f"{med(w.wall):.2f}", f"{_p90(w.wall):.2f}", f"{med(w.cpu):.2f}", f"{med(w.wait):.2f}",
            f"{med(w.solve):.2f}",
        )  # fmt: skip
    peer = ways[0]
    for w in ways[1:]:
        gap = med(w.wall) - med(peer.wall)
        verdict = "met" if gap < 5 else "missed"
        table.add_row(
            f"{w.name} - in process (target < 5 ms wall: {verdict})",
            f"{gap:.2f}", "", f"{med(w.cpu) - med(peer.cpu):.2f}", f"{med(w.wait) - med(peer.wait):.2f}", "",
        )  # fmt: skip
    console.print(table)
    if SCHEDSTAT:
        cpu_table = Table(title="where the CPU goes, ms (medians per request)")
        for col in ("way", "this thread (client)", "server process", "worker processes"):
            cpu_table.add_column(col, justify="left" if col == "way" else "right")
        for w in ways:
            cpu_table.add_row(w.name, *(f"{med(part):.2f}" for part in zip(*w.parts)))
        console.print(cpu_table)
    return {
        "in_process_median_ms": med(peer.wall),
        "in_process_cpu_ms": med(peer.cpu),
        "http_median_ms": med(ways[1].wall),
        "http_cpu_ms": med(ways[1].cpu),
        "http_threads_median_ms": med(ways[2].wall),
        "http_threads_cpu_ms": med(ways[2].cpu),
    }


def spans(puzzles: list[dict[str, Any]], port: int, console: Console) -> None:
    """The pieces of a ``POST /api/solve``, each timed alone in this process (medians, ms)."""
    import pickle

    from pydantic import TypeAdapter

    from solver.puzzles import from_data
    from web.app import SolveRequest, _fields

    server = EngineServer()
    bodies = [json.dumps({"puzzle": p, "time_limit": 10}).encode() for p in puzzles]
    requests = [{"cmd": "solve", **_fields(SolveRequest.model_validate(json.loads(b)))} for b in bodies]
    replies = [server.handle(r) for r in requests]
    reply_json = TypeAdapter(dict[str, Any])
    health = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def get_health(i: int) -> None:
        health.request("GET", "/api/health")
        health.getresponse().read()

    pieces: list[tuple[str, Callable[[int], object]]] = [
        ("request body: JSON decode + pydantic SolveRequest", lambda i: SolveRequest.model_validate(json.loads(bodies[i]))),
        ("request model -> protocol request (_fields)", lambda i: _fields(SolveRequest.model_validate(json.loads(bodies[i])))),
        ("pickle request and reply both ways (the worker pipe)", lambda i: pickle.loads(pickle.dumps(requests[i])) and pickle.loads(pickle.dumps(replies[i]))),
        ("puzzle parsing (puzzles.from_data)", lambda i: from_data(puzzles[i], "<request>")),
        ("EngineServer.handle (parse, solve, answer)", lambda i: server.handle(requests[i])),
        ("reply -> JSON bytes (as FastAPI serialises it)", lambda i: reply_json.dump_json(replies[i]["result"])),
        ("GET /api/health over HTTP (uvicorn + FastAPI floor)", get_health),
    ]  # fmt: skip
    table = Table(title="the pieces of POST /api/solve, each alone in one process, ms (medians)")
    table.add_column("piece")
    table.add_column("median", justify="right")
    for name, piece in pieces:
        times = []
        for k in range(3 * len(puzzles)):
            i = k % len(puzzles)
            t0 = time.perf_counter()
            piece(i)
            times.append((time.perf_counter() - t0) * 1000)
        table.add_row(name, f"{statistics.median(times):.3f}")
    console.print(table)


def load(port: int, puzzles: list[dict[str, Any]], clients: int, seconds: float, console: Console) -> dict[str, Any]:
    """``clients`` concurrent clients solving for ``seconds``; prints the table, returns the figures."""
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    def client(k: int) -> None:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        i = k
        while time.monotonic() < deadline:
            p = puzzles[i % len(puzzles)]
            i += clients
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

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    elapsed = time.monotonic() - started
    table = Table(title=f"{clients} concurrent clients for {seconds:g} s, two-deck solves ({os.cpu_count()} cores)")
    for col in ("requests", "errors", "per second", "p50 ms", "p95 ms", "max ms"):
        table.add_column(col, justify="right")
    q = statistics.quantiles(latencies, n=20) if len(latencies) > 1 else [0.0] * 19
    p50 = statistics.median(latencies) if latencies else 0.0
    table.add_row(
        str(len(latencies) + len(errors)), str(len(errors)), f"{len(latencies) / elapsed:.1f}", f"{p50:.1f}",
        f"{q[18]:.1f}", f"{max(latencies, default=0):.1f}",
    )  # fmt: skip
    console.print(table)
    for e in errors[:5]:
        console.print(f"error: {e}")
    return {"load_requests": len(latencies), "load_errors": len(errors), "p50_ms": p50, "p95_ms": q[18]}


def heavy_clients(counts: list[int], seconds: float, console: Console) -> dict[str, Any]:
    """The fair-share run (see the module docstring); prints the table, returns the figures."""
    from benchmarks.bench_web_fleet import _heavy

    port = _free_port()
    proc = _start(port, 2)
    url = f"http://127.0.0.1:{port}"
    figures: dict[str, Any] = {}
    table = Table(title=f"light solves beside heavy clients (two heavy solves each in flight), {seconds:g} s each")
    for col in ("heavy clients", "heavy done", "heavy 429", "5xx", "light solves", "light p50 ms", "light p95 ms",
                "light max ms"):  # fmt: skip
        table.add_column(col, justify="right")
    try:
        heavy = _heavy(5000)  # each solved once: a repeat would be a worker's cache hit, not heavy work
        taken = itertools.count()
        for n, count in enumerate(counts):
            codes, light, light_codes = _heavy_round(url, heavy, taken, n, count, seconds)
            q = statistics.quantiles(light, n=20) if len(light) > 1 else [0.0] * 19
            p50 = statistics.median(light) if light else 0.0
            bad = sum(c >= 500 for c in codes + light_codes)
            table.add_row(str(count), str(codes.count(200)), str(codes.count(429)), str(bad), str(len(light)),
                          f"{p50:.0f}", f"{q[18]:.0f}", f"{max(light, default=0):.0f}")  # fmt: skip
            figures[f"heavy_{count}_light_p95_ms"] = q[18]
            figures[f"heavy_{count}_light_p50_ms"] = p50
            figures[f"heavy_{count}_5xx"] = bad
    finally:
        proc.terminate()
        proc.wait(10)
    console.print(table)
    return figures


LIGHT_PUZZLE = {
    "game": "manipulation",
    "rules": {"preset": "norwegian"},
    "position": {"table": ["3H 4H 5H 6H", "3C 4C 5C 6C"], "hand": "6S KD"},
}


def _heavy_round(
    url: str, heavy: list[dict[str, Any]], taken: Iterator[int], n: int, count: int, seconds: float
) -> tuple[list[int], list[float], list[int]]:
    """One count of the fair-share run: ``count`` heavy clients (two solves each in flight) beside the light one.

    Returns the heavy clients' status codes, the light client's solve times (ms) and its status codes.
    """
    deadline = time.monotonic() + seconds
    codes: list[int] = []
    lock = threading.Lock()
    threads = [
        threading.Thread(target=_heavy_client, args=(url, f"10.{n}.{h}.1", heavy, taken, deadline, codes, lock))
        for h in range(count)
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    time.sleep(1.0)
    light, light_codes = _light_client(url, f"10.200.{n}.1", deadline)
    for t in threads:
        t.join()
    return codes, light, light_codes


def _heavy_client(
    url: str,
    address: str,
    heavy: list[dict[str, Any]],
    taken: Iterator[int],
    deadline: float,
    codes: list[int],
    lock: threading.Lock,
) -> None:
    """Solve the next heavy position after another until ``deadline``, waiting as told on a 429."""
    import httpx

    with httpx.Client(base_url=url, headers={"x-forwarded-for": address}, timeout=120) as c:
        while time.monotonic() < deadline:
            with lock:
                i = next(taken) % len(heavy)  # past the last, repeats (cache hits)
            r = c.post("/api/solve", json={"puzzle": heavy[i], "time_limit": 10})
            with lock:
                codes.append(r.status_code)
            if r.status_code == 429:
                time.sleep(min(2.0, float(r.headers.get("retry-after", "1"))))


def _light_client(url: str, address: str, deadline: float) -> tuple[list[float], list[int]]:
    """Solve the light position one request after another until ``deadline``: the 200s' times (ms), every code."""
    import httpx

    light: list[float] = []
    light_codes: list[int] = []
    with httpx.Client(base_url=url, headers={"x-forwarded-for": address}, timeout=120) as c:
        while time.monotonic() < deadline:
            start = time.perf_counter()
            r = c.post("/api/solve", json={"puzzle": LIGHT_PUZZLE, "time_limit": 5})
            light_codes.append(r.status_code)
            if r.status_code == 200:
                light.append((time.perf_counter() - start) * 1000)
            time.sleep(0.05)
    return light, light_codes


def main() -> None:
    """Measure and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="interleaved latency rounds")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="load test length (0: skip it)")
    parser.add_argument("--workers", type=int, default=2, help="solver processes of the one-process server")
    parser.add_argument("--fleet-clients", type=int, default=50)
    parser.add_argument("--fleet-seconds", type=float, default=60.0, help="the Redis fleet's play run (0: skip it)")
    parser.add_argument("--only-fleet", action="store_true", help="only the fleet's runs (play and fairness)")
    parser.add_argument("--heavy-clients", default="", help="only the fair-share run, for these counts (1,3,6)")
    parser.add_argument("--heavy-seconds", type=float, default=20.0, help="each fair-share run's length")
    args = parser.parse_args()
    console = Console(width=130)
    if args.heavy_clients:
        before = os.getloadavg()
        counts = [int(x) for x in args.heavy_clients.split(",")]
        fair = heavy_clients(counts, args.heavy_seconds, console)
        after = os.getloadavg()
        fair["load_average"] = [round(before[0], 2), round(after[0], 2)]
        print(json.dumps({k: round(v, 1) if isinstance(v, float) else v for k, v in fair.items()}))
        return
    puzzles = _puzzles(50)
    if args.fleet_seconds > 0:
        from benchmarks.bench_web_fleet import run

        fleet = run(puzzles, args.fleet_clients, args.fleet_seconds, console)
        print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in fleet.items()}))
    if args.only_fleet:
        return
    ports = _free_port(), _free_port()
    procs = [_start(ports[0], args.workers), _start(ports[1], 0)]
    try:
        before = os.getloadavg()
        console.print(f"load average before: {before[0]:.2f} {before[1]:.2f} {before[2]:.2f} ({os.cpu_count()} cores)")
        ways = [
            Way("in process", _local(), None),
            Way(f"HTTP, --solvers {args.workers}", _http(ports[0]), procs[0].pid),
            Way("HTTP, --solvers 0", _http(ports[1]), procs[1].pid),
        ]
        figures: dict[str, Any] = latency(ways, puzzles, args.requests, console)
        spans(puzzles, ports[0], console)
        after = os.getloadavg()
        console.print(f"load average after: {after[0]:.2f} {after[1]:.2f} {after[2]:.2f}")
        figures["load_average"] = [round(before[0], 2), round(after[0], 2)]
        if args.seconds > 0:
            figures.update(load(ports[0], puzzles, args.clients, args.seconds, console))
        print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}))
    finally:
        for proc in procs:
            proc.terminate()
            proc.wait(10)


if __name__ == "__main__":
    main()
