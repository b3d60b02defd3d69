"""Issue 25, the protocol's basics as UCI has them: ``ping``/``isready``, ``version``, and ``stop`` for a running
solve or AI move (the answer so far, marked ``"stopped": true``), with the engine reading lines while it works."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from solver import __version__
from solver.cpsat import Stop, parameters, stoppable, stopped
from solver.engine import new_game
from solver.engine.ismcts import IsmctsPlayer
from solver.engine.protocol import COMMANDS, PROTOCOL_VERSION, EngineServer

ROOT = Path(__file__).resolve().parents[2]
DECK = "3S 4S 5S 6S 7S 8S 3H 4H 5H 6H 7H 8H 3D 4D 5D 6D 7D 8D 3C 4C 5C 6C 7C 8C 2S RJ BJ"
"""The largest hand a deal gives (27 cards: the deck between two players), dense with parallel straights."""
WHOLE_DECK = {"game": "zsy", "rules": {"min_players": 2}, "position": {"hand": DECK}}  # a solve of many seconds


def ask(server: EngineServer, **req: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(server.handle_line(json.dumps({"id": 1, **req})) or "")
    return reply


def test_ping_isready_version() -> None:
    server = EngineServer()
    assert ask(server, cmd="ping")["result"] == {"pong": True}
    assert ask(server, cmd="isready")["result"] == {"ready": True}
    version = ask(server, cmd="version")["result"]
    assert version["version"] == __version__ and version["protocol"] == PROTOCOL_VERSION
    assert version["commands"] == list(COMMANDS) and {"ping", "isready", "version", "stop"} <= set(COMMANDS)
    assert ask(server, cmd="stop")["result"] == {"stopped": []}  # one request at a time: nothing runs


def test_a_stop_token_stops_cp_sat_and_the_python_searches() -> None:
    token = Stop()
    with stoppable(token):
        assert not stopped() and parameters(60).max_time_in_seconds == 60
        token.stop()
        assert stopped() and parameters(60).max_time_in_seconds == 0.001
    assert not stopped()
    game = new_game("zsy", seed=4, max_hands=1)
    player = IsmctsPlayer(seed=1, budget=10_000)
    with stoppable(token):
        start = time.perf_counter()
        action = player.choose(game)
    assert game.is_legal(action) and player.simulations == 0 and time.perf_counter() - start < 5


class _Lines:
    """An engine's stdin fed line by line from the test (blocks until a line or the end)."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.lines: list[str] = []
        self.closed = False

    def send(self, **req: Any) -> None:
        with self.cond:
            self.lines.append(json.dumps(req) + "\n")
            self.cond.notify_all()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def __iter__(self) -> Iterator[str]:
        while True:
            with self.cond:
                self.cond.wait_for(lambda: self.lines or self.closed)
                if not self.lines:
                    return
                line = self.lines.pop(0)
            yield line


class _Out(io.StringIO):
    """The engine's stdout: each reply with the time it came."""

    def __init__(self) -> None:
        super().__init__()
        self.replies: list[tuple[float, dict[str, Any]]] = []
        self.event = threading.Event()

    def write(self, text: str) -> int:
        for line in text.splitlines():
            self.replies.append((time.perf_counter(), json.loads(line)))
            self.event.set()
        return len(text)

    def reply(self, rid: Any, timeout: float = 60) -> tuple[float, dict[str, Any]]:
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            for at, r in list(self.replies):
                if r.get("id") == rid:
                    return at, r
            self.event.wait(0.05)
            self.event.clear()
        raise AssertionError(f"no reply to {rid!r}: {self.replies}")


def _engine(workers: int) -> tuple[_Lines, _Out, threading.Thread]:
    stdin, stdout = _Lines(), _Out()
    thread = threading.Thread(
        target=EngineServer().serve, args=(stdin, stdout), kwargs={"workers": workers}, daemon=True
    )
    thread.start()
    return stdin, stdout, thread


class _Searcher:
    """A player that searches until it is stopped (a search that never settles by itself)."""

    def __init__(self, seed: int = 0) -> None:
        self.looked = 0

    def choose(self, game: Any) -> Any:
        while not stopped():
            self.looked += 1
            time.sleep(0.01)
        return game.legal_actions()[0]


def test_stop_ends_a_running_ai_move_with_the_answer_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine reads ``ping`` and ``stop`` while an in-order request (a search until stopped) runs."""
    import solver.engine.players

    monkeypatch.setitem(solver.engine.players.PLAYER_KINDS, "greedy", _Searcher)
    stdin, stdout, thread = _engine(workers=0)
    stdin.send(id=1, cmd="new_game", game="zsy", seed=1)
    stdout.reply(1)
    stdin.send(id="ai", cmd="ai_move", game_id="g1", ai="greedy")
    time.sleep(1.0)
    sent = time.perf_counter()
    stdin.send(id="p", cmd="ping")
    at, pong = stdout.reply("p", timeout=5)
    assert pong["result"] == {"pong": True} and at - sent < 1.0
    stdin.send(id="s", cmd="stop")
    assert stdout.reply("s", timeout=5)[1]["result"] == {"stopped": ["ai"]}
    at, move = stdout.reply("ai", timeout=20)
    assert move["result"]["stopped"] is True and at - sent < 10, move
    assert new_game("zsy", seed=1).is_legal(new_game("zsy", seed=1).parse_action(move["result"]["action"]))
    stdin.send(id="r", cmd="isready")
    assert stdout.reply("r")[1]["result"] == {"ready": True}
    stdin.send(id="q", cmd="quit")
    thread.join(30)
    assert not thread.is_alive()


def test_stop_with_a_target_ends_an_in_process_solve() -> None:
    stdin, stdout, thread = _engine(workers=0)
    stdin.send(id="long", cmd="solve", puzzle=WHOLE_DECK, time_limit=60)
    time.sleep(1.0)
    stdin.send(id="s0", cmd="stop", target="other")
    assert stdout.reply("s0")[1]["result"] == {"stopped": []}
    sent = time.perf_counter()
    stdin.send(id="s", cmd="stop", target="long")
    assert stdout.reply("s")[1]["result"] == {"stopped": ["long"]}
    at, solved = stdout.reply("long", timeout=30)
    result = solved["result"]
    assert result["stopped"] is True and result["status"] == "feasible" and at - sent < 10, result
    assert sorted(c for play in result["split"] for c in play) == sorted(DECK.split())
    stdin.close()
    thread.join(30)


@pytest.mark.parametrize("target", [None, "long"])
def test_stop_reaches_a_pooled_solve_in_its_worker(target: str | None) -> None:
    """``shanghai engine`` itself: the solve runs in a worker process, the stop is sent to it."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "engine"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin: IO[str] = proc.stdin
    try:

        def send(**req: Any) -> None:
            stdin.write(json.dumps(req) + "\n")
            stdin.flush()

        send(id="long", cmd="solve", puzzle=WHOLE_DECK, time_limit=60)
        send(id="v", cmd="version")
        assert json.loads(proc.stdout.readline())["id"] == "v"
        time.sleep(1.0)
        start = time.perf_counter()
        send(id="s", cmd="stop", **({"target": target} if target else {}))
        replies = [json.loads(proc.stdout.readline()) for _ in range(2)]
        assert replies[0] == {"id": "s", "result": {"stopped": ["long"]}}
        assert replies[1]["id"] == "long" and replies[1]["result"]["stopped"] is True, replies[1]
        assert time.perf_counter() - start < 20
        send(id="q", cmd="quit")
        assert json.loads(proc.stdout.readline()) == {"id": "q", "result": {"bye": True}}
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_ai_move_takes_an_ismcts_budget_checked_in_one_place() -> None:
    server = EngineServer()
    ask(server, cmd="new_game", game="zsy", seed=1)
    assert ask(server, cmd="ai_move", game_id="g1", ai="ismcts:2")["result"]["player"] == 0
    for bad in ("ismcts:1e9s", "ismcts:infs", "ismcts:nans", "ismcts:0", "nobody"):
        reply = ask(server, cmd="ai_move", game_id="g1", ai=bad)
        assert reply["error"]["code"] == "bad_value", (bad, reply)
