"""Redis persistence (issue 37): with an append-only file a redis-server restarted mid-game loses
nothing and the game goes on; without one the game is gone, and ``serve`` warns of it."""

from __future__ import annotations

import shutil
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from solver.extras import require
from web.engine import EngineError, Limits, WebEngine
from web.serve import persistence_warning
from web.store import RedisStore

from .conftest import _free_port, run_async

GREEDY = ["human", "greedy", "greedy", "greedy"]


class RedisServer:
    """A redis-server of its own in ``folder`` (restartable on the same port and files)."""

    def __init__(self, folder: Path, aof: bool) -> None:
        exe = shutil.which("redis-server")
        if exe is None:
            pytest.skip("no redis-server (apt-get install redis-server)")
        self.exe, self.folder, self.aof = exe, folder, aof
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None
        self.start()

    def start(self) -> None:
        aof = ["--appendonly", "yes", "--appendfsync", "always"] if self.aof else ["--appendonly", "no"]
        self.proc = subprocess.Popen(
            [self.exe, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", *aof, "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        redis = require("redis", "web")
        client = redis.Redis.from_url(self.url)
        deadline = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except (redis.ConnectionError, redis.BusyLoadingError):
                if time.monotonic() > deadline:
                    pytest.fail("redis-server did not start")
                time.sleep(0.05)
        client.close()

    def kill(self) -> None:
        """Killed outright (no shutdown save): only what it wrote as it went survives."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)


def _restart_mid_game(folder: Path, aof: bool) -> dict[str, Any]:
    folder.mkdir(parents=True, exist_ok=True)
    server = RedisServer(folder, aof)
    engine = WebEngine(Limits(workers=0), server.url)
    seen: dict[str, Any] = {}

    async def run() -> None:
        g = await engine.new_game({"game": "zsy", "seed": 4, "options": {"max_hands": 1}}, GREEDY)
        gid, token = g["game_id"], g["tokens"]["0"]
        for _ in range(3):
            legal = (await engine.game(gid, {"cmd": "legal", "token": token}))["actions"]
            await engine.game(gid, {"cmd": "apply", "token": token, "action": legal[0]})
        before = await engine.game(gid, {"cmd": "observe", "token": token})
        server.kill()
        with pytest.raises(EngineError) as outage:  # the outage is a 503 with Retry-After, not a 404
            await engine.game(gid, {"cmd": "observe", "token": token})
        assert outage.value.code == "busy" and outage.value.retry_after
        server.start()
        try:
            after = await engine.game(gid, {"cmd": "observe", "token": token})
        except EngineError as exc:
            seen["lost"] = exc.code
            return
        assert {**after, "idle": 0} == {**before, "idle": 0}
        for _ in range(300):  # the game goes on to its end
            if after["terminal"]:
                break
            legal = (await engine.game(gid, {"cmd": "legal", "token": token}))["actions"]
            after = (await engine.game(gid, {"cmd": "apply", "token": token, "action": legal[0]}))["state"]
        seen["terminal"] = after["terminal"]

    try:
        run_async(run)
    finally:
        engine.stop()
        server.kill()
    return seen


def test_a_redis_restart_with_aof_loses_nothing(tmp_path: Path) -> None:
    assert _restart_mid_game(tmp_path, aof=True) == {"terminal": True}


def test_without_aof_a_restart_loses_the_game_and_serve_warns(tmp_path: Path) -> None:
    """The same restart without an append-only file loses the game (what the test above guards
    against), and ``serve`` says so when it starts on such a store."""
    assert _restart_mid_game(tmp_path / "none", aof=False) == {"lost": "unknown_game"}
    for aof, warned in ((False, True), (True, False)):
        (folder := tmp_path / ("aof" if aof else "plain")).mkdir()
        server = RedisServer(folder, aof)
        store = RedisStore(server.url)
        try:
            warning = persistence_warning(store)
            assert (warning is not None) == warned, warning
            if warned:
                assert "appendonly yes" in str(warning) and "every game" in str(warning)
        finally:
            store.close()
            server.kill()
