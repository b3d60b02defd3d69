"""The web service as a deployment: two server processes sharing Redis, many clients at once.

Run by ``python -m benchmarks.bench_web`` (``--fleet-seconds 0`` skips it). Starts a
``redis-server`` of its own and ``shanghai serve --workers 2 --solvers 2 --store redis://...`` on
free localhost ports, then:

1. play: ``clients`` clients, each its own address (``X-Forwarded-For``, as from a reverse
   proxy), for ``seconds``: each plays Zheng Shang You games against greedy seats (new_game,
   observe, legal, apply) and solves two-deck positions between turns. Counted: 5xx answers
   and transport errors (target: none), 429s, p50/p95 of the light requests (observe, legal,
   light solves) and of apply; at the end every game's log is read from Redis and replayed
   in the engine, and each client's own actions must be exactly its seat's actions there
   (nothing lost, nothing applied twice);
2. fairness: one client keeps six heavy solves going at once while another sends light solves one
   after another; the heavy client gets its share (the rest 429 at once, never a 504), and
   the light client's p95 is the target (< 1 s).
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
from rich.console import Console
from rich.table import Table

from solver.engine.protocol import EngineServer

GREEDY = ["human", "greedy", "greedy", "greedy"]


def _port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def fleet(workers: int = 2, solvers: int = 2) -> Iterator[tuple[str, str]]:
    """A redis-server and ``shanghai serve --workers N`` on it: yields (base URL, Redis URL)."""
    exe = shutil.which("redis-server")
    if exe is None:
        raise SystemExit("redis-server is needed (apt-get install redis-server)")
    rport, port = _port(), _port()
    redis = subprocess.Popen([exe, "--port", str(rport), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                             stdout=subprocess.DEVNULL)  # fmt: skip
    store = f"redis://127.0.0.1:{rport}/0"
    time.sleep(0.5)
    args = ["--port", str(port), "--workers", str(workers), "--solvers", str(solvers), "--store", store]
    server = subprocess.Popen([sys.executable, "-m", "cli", "serve", *args], stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        seen: set[int] = set()
        while len(seen) < workers:
            if time.monotonic() > deadline or server.poll() is not None:
                raise SystemExit("the server did not start")
            try:
                seen.add(httpx.get(url + "/api/health", timeout=5).json()["process"])
            except (httpx.HTTPError, KeyError, ValueError):
                time.sleep(0.2)
        yield url, store
    finally:
        server.send_signal(signal.SIGINT)
        try:
            server.wait(20)
        except subprocess.TimeoutExpired:
            server.kill()
        redis.terminate()
        redis.wait(10)


class Client:
    """One client: its own address, a connection pool, its latencies and errors."""

    def __init__(self, url: str, address: str) -> None:
        self.http = httpx.Client(base_url=url, headers={"x-forwarded-for": address}, timeout=120)
        self.times: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.limited = 0
        self.games: dict[str, list[str]] = {}

    def call(self, cmd: str, body: dict[str, Any]) -> dict[str, Any] | None:
        start = time.perf_counter()
        try:
            r = self.http.post(f"/api/{cmd}", json=body)
        except httpx.HTTPError as exc:
            self.errors.append(f"{cmd}: {type(exc).__name__}")
            return None
        self.times.setdefault(cmd, []).append(time.perf_counter() - start)
        if r.status_code == 429:
            self.limited += 1
            return None
        if r.status_code >= 500:
            self.errors.append(f"{cmd}: {r.status_code} {r.text[:120]}")
            return None
        if r.status_code != 200:
            return None
        data: dict[str, Any] = r.json()
        return data


def _player(c: Client, puzzles: list[dict[str, Any]], deadline: float, seed: int) -> None:
    rng = random.Random(seed)
    while time.monotonic() < deadline:
        new = c.call("new_game", {"game": "zsy", "seats": GREEDY, "seed": rng.randrange(10**6),
                                  "options": {"max_hands": 1}})  # fmt: skip
        if new is None:
            time.sleep(0.5)
            continue
        gid, token = new["game_id"], new["tokens"]["0"]
        mine = c.games.setdefault(gid, [])
        while time.monotonic() < deadline:
            state = c.call("observe", {"game_id": gid, "token": token})
            if state is None or state["terminal"]:
                break
            legal = c.call("legal", {"game_id": gid, "token": token})
            if not legal or not legal["actions"]:
                break
            action = rng.choice(legal["actions"])
            if c.call("apply", {"game_id": gid, "token": token, "action": action}) is not None:
                mine.append(action)
            if rng.random() < 0.5:
                c.call("solve", {"puzzle": rng.choice(puzzles), "time_limit": 5})


def _replays(store: str, clients: list[Client]) -> tuple[int, int]:
    """(games checked, games whose seat-0 actions differ from what their client applied)."""
    from web.store import RedisStore

    s = RedisStore(store)
    checked = bad = 0
    for c in clients:
        for gid, mine in c.games.items():
            meta = s.meta(gid)
            if meta is None:
                continue
            server = EngineServer()
            fields = {k: meta[k] for k in ("game", "rules", "players", "seed", "options")}
            server.handle({"cmd": "new_game", **fields})
            seat0 = []
            ok = True
            for entry in s.log(gid):
                who = server.handle({"cmd": "observe", "game_id": "g1"})["result"]["to_move"]
                if "error" in server.handle({"cmd": "apply", "game_id": "g1", "action": entry["action"]}):
                    ok = False
                    break
                if who == 0:
                    seat0.append(entry["action"])
            checked += 1
            bad += not ok or seat0 != mine
    s.close()
    return checked, bad


def _q(xs: list[float], p: int) -> float:
    if len(xs) < 2:
        return xs[0] * 1000 if xs else 0.0
    return statistics.quantiles(xs, n=100)[p - 1] * 1000


def play(
    url: str, store: str, puzzles: list[dict[str, Any]], clients: int, seconds: float, console: Console
) -> dict[str, Any]:
    """The play run (see the module docstring); prints its table, returns its figures."""
    cs = [Client(url, f"10.0.{k // 250}.{k % 250 + 1}") for k in range(clients)]
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=_player, args=(c, puzzles, deadline, k)) for k, c in enumerate(cs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    checked, bad = _replays(store, cs)
    light = [x for c in cs for cmd in ("observe", "legal", "solve") for x in c.times.get(cmd, [])]
    apply = [x for c in cs for x in c.times.get("apply", [])]
    errors = [e for c in cs for e in c.errors]
    table = Table(
        title=f"{clients} clients for {seconds:g} s: 2 server processes (2 solvers each), Redis ({os.cpu_count()} cores)"
    )
    for col in ("requests", "5xx/errors", "429", "games", "replay mismatches", "light p50 ms", "light p95 ms",
                "apply p50 ms", "apply p95 ms"):  # fmt: skip
        table.add_column(col, justify="right")
    total = sum(len(v) for c in cs for v in c.times.values())
    table.add_row(str(total), str(len(errors)), str(sum(c.limited for c in cs)), str(checked), str(bad),
                  f"{_q(light, 50):.1f}", f"{_q(light, 95):.1f}", f"{_q(apply, 50):.1f}", f"{_q(apply, 95):.1f}")  # fmt: skip
    console.print(table)
    for e in errors[:5]:
        console.print(f"error: {e}")
    for cmd in sorted({k for c in cs for k in c.times}):
        xs = [x for c in cs for x in c.times.get(cmd, [])]
        console.print(
            f"  {cmd}: {len(xs)} requests, p50 {_q(xs, 50):.1f} ms, p95 {_q(xs, 95):.1f} ms, max {max(xs) * 1000:.0f} ms"
        )
    return {"fleet_requests": total, "fleet_errors": len(errors), "fleet_429": sum(c.limited for c in cs),
            "fleet_games": checked, "fleet_mismatches": bad, "light_p50_ms": _q(light, 50),
            "light_p95_ms": _q(light, 95), "apply_p50_ms": _q(apply, 50), "apply_p95_ms": _q(apply, 95)}  # fmt: skip


def _heavy(seeds: int = 60) -> list[dict[str, Any]]:
    """Four-deck positions of 150 table cards and 30 in hand (the heaviest this solver meets
    often: 0.1-1.7 s each on this machine; each solved once, as a worker's caches would make a
    repeat cheap)."""
    from benchmarks.positions import random_position
    from solver.rules import ManipulationRules

    out = []
    for seed in range(seeds):
        table, hand = random_position(ManipulationRules(decks=4), 150, 30, seed)
        position = {"table": [str(m) for m in table], "hand": str(hand)}
        out.append({"game": "manipulation", "rules": {"decks": 4}, "position": position})
    return out


def fairness(url: str, puzzles: list[dict[str, Any]], console: Console, seconds: float = 20) -> dict[str, Any]:
    """The fairness run: six heavy solves of one client, light solves of another."""
    heavy, light = Client(url, "10.1.0.1"), Client(url, "10.2.0.1")
    codes: list[int] = []
    lock = threading.Lock()
    deadline = time.monotonic() + seconds

    todo = _heavy()
    took: list[float] = []

    def one() -> None:
        while time.monotonic() < deadline:
            with lock:
                if not todo:
                    return
                p = todo.pop()
            start = time.perf_counter()
            r = heavy.http.post("/api/solve", json={"puzzle": p, "time_limit": 3})
            with lock:
                codes.append(r.status_code)
                if r.status_code == 200:
                    took.append(time.perf_counter() - start)
                else:
                    todo.append(p)
            if r.status_code == 429:
                time.sleep(float(r.headers.get("retry-after", "1")))

    threads = [threading.Thread(target=one) for _ in range(6)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    rng = random.Random(7)
    while time.monotonic() < deadline:
        light.call("solve", {"puzzle": rng.choice(puzzles), "time_limit": 5})
    for t in threads:
        t.join()
    times = light.times.get("solve", [])
    table = Table(title="fairness: one client's six heavy solves (3 s limit) against another's light solves")
    for col in ("heavy 200", "heavy p50 ms", "heavy 429", "heavy 5xx", "light solves", "light errors", "light p50 ms", "light p95 ms",
                "light max ms"):  # fmt: skip
        table.add_column(col, justify="right")
    table.add_row(str(codes.count(200)), f"{_q(took, 50):.0f}", str(codes.count(429)), str(sum(c >= 500 for c in codes)), str(len(times)),
                  str(len(light.errors) + light.limited), f"{_q(times, 50):.1f}", f"{_q(times, 95):.1f}",
                  f"{max(times, default=0) * 1000:.1f}")  # fmt: skip
    console.print(table)
    return {"heavy_200": codes.count(200), "heavy_429": codes.count(429), "heavy_5xx": sum(c >= 500 for c in codes),
            "fair_light_p50_ms": _q(times, 50), "fair_light_p95_ms": _q(times, 95)}  # fmt: skip


def run(puzzles: list[dict[str, Any]], clients: int, seconds: float, console: Console) -> dict[str, Any]:
    """Both runs against one fleet."""
    with fleet() as (url, store):
        warm = [Client(url, f"10.3.0.{k + 1}") for k in range(8)]  # every solver worker's first solves
        ts = [threading.Thread(target=lambda c=c: [c.call("solve", {"puzzle": p}) for p in puzzles[:6]]) for c in warm]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        figures = play(url, store, puzzles, clients, seconds, console)
        figures.update(fairness(url, puzzles, console))
    return figures
