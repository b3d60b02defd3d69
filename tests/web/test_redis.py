"""Games in Redis, against a real redis-server: several server processes share every game,
concurrent actions are serialised, and a killed process loses nothing.

``.ci/run`` installs and requires redis-server (SHANGHAI_REQUIRE_REDIS=1: a missing one fails)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from solver.engine.protocol import EngineServer
from web.engine import EngineError, Limits, WebEngine
from web.store import RedisStore

from .conftest import _free_port, run_async

GREEDY = ["human", "greedy", "greedy", "greedy"]


def _db(url: str, n: int) -> str:
    """The same server, database ``n`` (each test its own: counts start at 0)."""
    return url.rsplit("/", 1)[0] + f"/{n}"


def test_appends_are_serialised(redis_url: str) -> None:
    """Eight writers, each appending 25 entries at the length it read: none lost, none twice."""
    store = RedisStore(_db(redis_url, 1))
    store.create("g", {"owner": "t"}, 60)

    def writer(w: int) -> None:
        done = 0
        while done < 25:
            n = len(store.log("g"))
            if store.append("g", n, [{"action": f"{w}:{done}"}]):
                done += 1

    threads = [threading.Thread(target=writer, args=(w,)) for w in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = [e["action"] for e in store.log("g")]
    assert len(log) == 200 and len(set(log)) == 200
    for w in range(8):  # each writer's entries in its own order
        assert [e for e in log if e.startswith(f"{w}:")] == [f"{w}:{i}" for i in range(25)]
    assert not store.append("g", 199, [{"action": "late"}]) and not store.append("nope", 0, [{"action": "x"}])
    store.delete("g")
    store.close()


def _seat_actions(record: dict[str, Any], seat: int) -> list[str]:
    """The actions of ``seat`` in a record, by replaying it in the engine (it must replay)."""
    server = EngineServer()
    fields = {"game": record["game"], "rules": record["rules"], "players": record["num_players"]}
    server.handle({"cmd": "new_game", **fields, "seed": record["seed"], "options": record["options"]})
    mine = []
    for text in record["actions"]:
        who = server.handle({"cmd": "observe", "game_id": "g1"})["result"]["to_move"]
        reply = server.handle({"cmd": "apply", "game_id": "g1", "action": text})
        assert "result" in reply, reply
        if who == seat:
            mine.append(text)
    return mine


def test_two_engines_share_one_game(redis_url: str) -> None:
    """Two server processes' engines (here in one process) on one Redis: a game started on one
    is played on both, and the same action sent to both at once is applied once."""
    url = _db(redis_url, 2)
    a, b = WebEngine(Limits(workers=0), url), WebEngine(Limits(workers=0), url)

    async def run() -> None:
        new = await a.new_game({"game": "zsy", "seed": 5, "options": {"max_hands": 1}}, GREEDY, "t")
        gid, token = new["game_id"], new["tokens"]["0"]
        mine = []
        for turn in range(200):
            engine = (a, b)[turn % 2]
            state = await engine.game(gid, {"cmd": "observe", "token": token})
            if state["terminal"]:
                break
            action = (await engine.game(gid, {"cmd": "legal", "token": token}))["actions"][0]
            seen = state["actions"]  # without it, the one sent second is legal again once the AI seats
            both = await asyncio.gather(  # have moved (a pass, say): it would be played twice
                a.game(gid, {"cmd": "apply", "token": token, "action": action, "expect": seen}),
                b.game(gid, {"cmd": "apply", "token": token, "action": action, "expect": seen}),
                return_exceptions=True,
            )
            ok = [r for r in both if isinstance(r, dict)]
            failed = [r for r in both if isinstance(r, EngineError)]
            assert len(ok) == 1 and len(failed) == 1, both
            assert failed[0].code == "stale", both
            mine.append(action)
        record = await b.game(gid, {"cmd": "record"})
        assert _seat_actions(record, 0) == mine
        assert a.count() == b.count() == 0  # finished: no longer running, on either

    try:
        run_async(run)
    finally:
        a.stop()
        b.stop()


class Server:
    """``shanghai serve --workers N --store redis://...`` in a subprocess."""

    def __init__(self, workers: int, store: str) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        args = ["--port", str(self.port), "--workers", str(workers), "--solvers", "0", "--store", store]
        env = {**os.environ, "PYTHONPATH": os.getcwd()}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cli", "serve", *args], env=env, stderr=subprocess.PIPE, text=True
        )
        deadline = time.monotonic() + 90
        seen: set[int] = set()
        while len(seen) < workers:  # every worker up (each answers health)
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                pytest.fail(f"the server did not start: {self.proc.stderr.read() if self.proc.stderr else ''}")
            try:
                seen.add(self.call("health", method="GET")["process"])
            except httpx.HTTPError:
                time.sleep(0.1)

    def call(self, cmd: str, body: dict[str, Any] | None = None, method: str = "POST") -> dict[str, Any]:
        """One request on a fresh connection (any worker may take it); a 2xx answer."""
        r = httpx.request(method, f"{self.url}/api/{cmd}", json=body, timeout=60)
        assert r.status_code == 200, (cmd, body, r.status_code, r.text)
        data: dict[str, Any] = r.json()
        return data

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)


@pytest.fixture
def server(request: pytest.FixtureRequest, redis_url: str) -> Iterator[Server]:
    workers, db = request.param
    s = Server(workers, _db(redis_url, db))
    yield s
    s.stop()


def _play(server: Server, gid: str, token: str, turns: int, processes: set[int]) -> tuple[list[str], bool]:
    """Up to ``turns`` of seat 0's turns, each request on a fresh connection; health between them
    notes which processes answer."""
    mine: list[str] = []
    for _ in range(turns):
        state = server.call("observe", {"game_id": gid, "token": token})
        if state["terminal"]:
            return mine, True
        processes.add(server.call("health", method="GET")["process"])
        action = server.call("legal", {"game_id": gid, "token": token})["actions"][-1]
        answer = server.call("apply", {"game_id": gid, "token": token, "action": action})
        mine.append(action)
        assert all(m["player"] != 0 for m in answer["ai_moves"])
        if answer["terminal"]:
            return mine, True
    return mine, False


@pytest.mark.parametrize("server", [(2, 3), (4, 4)], indirect=True, ids=["2-workers", "4-workers"])
def test_whole_games_across_workers(server: Server) -> None:
    processes: set[int] = set()
    games = []
    for seed in (1, 2):
        new = server.call("new_game", {"game": "zsy", "seed": seed, "seats": GREEDY, "options": {"max_hands": 1}})
        games.append((new["game_id"], new["tokens"]["0"]))
    counts = {server.call("health", method="GET")["games"] for _ in range(12)}
    assert counts == {2}  # every process counts the same games
    gid, token = games[0]
    mine, over = _play(server, gid, token, 300, processes)
    assert over
    assert _seat_actions(server.call("record", {"game_id": gid}), 0) == mine
    assert {server.call("health", method="GET")["games"] for _ in range(8)} == {1}
    assert len(processes) >= 2, processes  # the requests were answered by more than one process


@pytest.mark.parametrize("server", [(2, 5)], indirect=True, ids=["2-workers"])
def test_a_killed_worker_loses_nothing(server: Server) -> None:
    new = server.call("new_game", {"game": "zsy", "seed": 9, "seats": GREEDY, "options": {"max_hands": 1}})
    gid, token = new["game_id"], new["tokens"]["0"]
    processes: set[int] = set()
    first, over = _play(server, gid, token, 5, processes)
    assert not over
    victim = server.call("health", method="GET")["process"]
    os.kill(victim, signal.SIGKILL)
    rest, over = _play(server, gid, token, 300, processes)  # every request answered by the other (or a new) one
    assert over
    assert _seat_actions(server.call("record", {"game_id": gid}), 0) == first + rest
    assert victim not in {server.call("health", method="GET")["process"] for _ in range(10)}


def test_without_redis_ci_fails_rather_than_skips(monkeypatch: pytest.MonkeyPatch) -> None:
    from .conftest import _no_redis

    monkeypatch.setenv("SHANGHAI_REQUIRE_REDIS", "1")
    with pytest.raises(pytest.fail.Exception, match="required here"):
        _no_redis("no redis-server")
    monkeypatch.delenv("SHANGHAI_REQUIRE_REDIS")
    with pytest.raises(pytest.skip.Exception):
        _no_redis("no redis-server")
