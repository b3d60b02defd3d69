"""The engine behind the HTTP API: :class:`~solver.engine.protocol.EngineServer` requests,
run off the event loop.

Two kinds of request, one engine:

- **stateless** (``solve``, ``hint`` of a puzzle) go to a pool of worker
  processes, each holding its own ``EngineServer``; a slow solve occupies one
  worker and never the event loop, and a queue bound turns overload into a
  ``busy`` error instead of a pile-up;
- **games** each get their own ``EngineServer`` (so one user's AI move never
  waits for another's) behind a per-game lock, run in a thread pool. Game ids
  are random tokens, not the engine's ``g1``: nobody can guess another
  player's game.

Games expire after ``game_ttl`` seconds without a request; the record of a
finished game, or of one the user asked to keep, outlives it for
``record_ttl`` seconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
import os
import secrets
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from solver.engine.protocol import EngineServer

__all__ = ["EngineError", "Limits", "WebEngine"]


class EngineError(Exception):
    """An error answer: the protocol's code and message (the HTTP layer picks the status)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Limits:
    """Server limits. ``workers`` 0 solves in threads of this process (tests, tiny machines)."""

    workers: int = 2
    max_time_limit: float = 10.0
    default_time_limit: float = 5.0
    max_pending: int = 256
    max_games: int = 500
    game_ttl: float = 3600.0
    record_ttl: float = 86400.0
    max_records: int = 2000
    max_body: int = 64 * 1024


# --- the worker processes ------------------------------------------------------------------

_WORKER: EngineServer | None = None


def _worker_init() -> None:
    global _WORKER
    _WORKER = EngineServer()
    parent = os.getppid()

    def watch() -> None:  # a worker outlives no server, however the server ends
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True, name="shanghai-parent-watch").start()


def _worker_handle(request: dict[str, Any]) -> dict[str, Any]:
    global _WORKER
    if _WORKER is None:
        _WORKER = EngineServer()
    reply = _WORKER.handle(request)
    _WORKER.games.clear()  # stateless: nothing outlives a request
    return reply


def _worker_main(conn: Connection) -> None:
    """A solver worker: import the solver, say ready, then answer requests until the pipe closes."""
    import solver.answers
    import solver.engine.hints  # noqa: F401

    _worker_init()
    conn.send("ready")
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_worker_handle(request))


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self, ctx: Any) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker_main, args=(child,), daemon=True, name="shanghai-solver")
        self.proc.start()
        child.close()
        if self.conn.recv() != "ready":
            raise RuntimeError("a solver worker did not start")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.join(2)
        self.conn.close()


class _ProcessPool:
    """Worker processes answering over their own pipes, read by the event loop itself.

    Cheaper per request than ``ProcessPoolExecutor`` (no feeder and manager
    threads between the loop and a worker), and the time limit is enforced:
    a worker that outlasts it is killed and replaced. Idle workers are a
    stack, not a queue: a request goes to the worker that answered last, whose
    caches (the solver's and the CPU's) are still warm; the others only take
    the overflow of concurrent requests.
    """

    def __init__(self, size: int) -> None:
        self.ctx = multiprocessing.get_context("spawn")
        self.workers = [_Worker(self.ctx) for _ in range(size)]
        self.idle: asyncio.LifoQueue[_Worker] | None = None
        self.tasks: set[asyncio.Task[None]] = set()

    async def run(self, request: dict[str, Any], timeout: float) -> dict[str, Any]:
        if self.idle is None:
            self.idle = asyncio.LifoQueue()
            for w in self.workers:
                self.idle.put_nowait(w)
        loop = asyncio.get_running_loop()
        worker = await asyncio.wait_for(self.idle.get(), timeout)
        reply: asyncio.Future[dict[str, Any]] = loop.create_future()
        fd = worker.conn.fileno()

        def readable() -> None:
            loop.remove_reader(fd)
            if not reply.done():
                try:
                    reply.set_result(worker.conn.recv())
                except (EOFError, OSError) as exc:
                    reply.set_exception(exc)

        healthy = False
        try:
            worker.conn.send(request)
            loop.add_reader(fd, readable)
            result = await asyncio.wait_for(reply, timeout)
            healthy = True
            return result
        finally:
            if healthy:
                self.idle.put_nowait(worker)
            else:  # timed out, cancelled or died: replace it
                loop.remove_reader(fd)
                self._replace(worker)

    def _replace(self, worker: _Worker) -> None:
        loop = asyncio.get_running_loop()
        worker.kill()
        self.workers.remove(worker)

        async def spawn() -> None:
            fresh = await loop.run_in_executor(None, _Worker, self.ctx)
            self.workers.append(fresh)
            assert self.idle is not None
            self.idle.put_nowait(fresh)

        task = loop.create_task(spawn())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def stop(self) -> None:
        for w in self.workers:
            w.kill()
        self.workers = []


# --- games ------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Session:
    server: EngineServer
    engine_id: str
    game: str
    lock: threading.Lock = field(default_factory=threading.Lock)
    last_used: float = field(default_factory=time.monotonic)
    keep: bool = False


def _unwrap(reply: Mapping[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        error = reply["error"]
        raise EngineError(str(error["code"]), str(error["message"]))
    result: dict[str, Any] = reply["result"]
    return result


class WebEngine:
    """Answers API requests with the protocol's commands; see the module docstring."""

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or Limits()
        self.sessions: dict[str, _Session] = {}
        self.records: dict[str, tuple[float, dict[str, Any]]] = {}
        self._pool: _ProcessPool | None = None
        self._solve_threads: concurrent.futures.ThreadPoolExecutor | None = None
        self._threads = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="shanghai-game")
        self._pending = 0
        self._lock = threading.Lock()

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker processes (they import the solver first: a second or two)."""
        if self.limits.workers > 0 and self._pool is None:
            self._pool = _ProcessPool(self.limits.workers)
        if self.limits.workers == 0 and self._solve_threads is None:
            self._solve_threads = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="shanghai-solve")

    def stop(self) -> None:
        """Stop the workers (running solves are abandoned)."""
        if self._pool is not None:
            self._pool.stop()
            self._pool = None
        if self._solve_threads is not None:
            self._solve_threads.shutdown(wait=False, cancel_futures=True)
            self._solve_threads = None
        self._threads.shutdown(wait=False, cancel_futures=True)

    # --- stateless requests ---------------------------------------------------------------

    def _time_limit(self, value: float | None) -> float:
        limit = self.limits.default_time_limit if value is None else float(value)
        if not 0 < limit <= self.limits.max_time_limit:
            raise EngineError("bad_value", f"time_limit must be more than 0 and at most {self.limits.max_time_limit:g}")
        return limit

    async def stateless(self, request: dict[str, Any]) -> dict[str, Any]:
        """Run ``solve`` or ``hint`` (of a puzzle) in the worker pool, within the time limit."""
        request = dict(request)
        limit = self._time_limit(request.get("time_limit"))
        request["time_limit"] = limit
        self.start()
        with self._lock:
            if self._pending >= self.limits.max_pending:
                raise EngineError("busy", "the server is busy; try again in a moment")
            self._pending += 1
        timeout = limit * 4 + 5  # a question can take a few solver stages, each within the limit
        try:
            if self._pool is not None:
                reply = await self._pool.run(request, timeout)
            else:
                loop = asyncio.get_running_loop()
                reply = await asyncio.wait_for(
                    loop.run_in_executor(self._solve_threads, _worker_handle, request), timeout
                )
        except TimeoutError:
            raise EngineError("timeout", f"no answer within {timeout:g} s") from None
        except (EOFError, OSError):
            raise EngineError("busy", "a solver worker stopped; try again") from None
        finally:
            with self._lock:
                self._pending -= 1
        return _unwrap(reply)

    # --- games ----------------------------------------------------------------------------

    def _session(self, game_id: str) -> _Session:
        session = self.sessions.get(game_id)
        if session is None:
            if game_id in self.records:
                raise EngineError("game_over", f"game {game_id!r} has expired; its record is kept")
            raise EngineError("unknown_game", f"no game {game_id!r}")
        return session

    def _call(self, session: _Session, request: dict[str, Any]) -> dict[str, Any]:
        with session.lock:
            session.last_used = time.monotonic()
            return _unwrap(session.server.handle({**request, "game_id": session.engine_id}))

    async def game(self, game_id: str, request: dict[str, Any]) -> dict[str, Any]:
        """Run a game command (``legal``, ``apply``, ``observe``, ``ai_move``, ``hint``, ``record``)."""
        if request.get("cmd") == "record" and game_id not in self.sessions and game_id in self.records:
            return self.records[game_id][1]
        session = self._session(game_id)
        if "time_limit" in request:
            request = {**request, "time_limit": self._time_limit(request["time_limit"])}
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, self._call, session, request)

    def _new_session(self, game: str) -> tuple[str, _Session]:
        self.expire()
        if len(self.sessions) >= self.limits.max_games:
            raise EngineError("busy", "too many games are running; try again later")
        return secrets.token_urlsafe(12), _Session(EngineServer(), "", game)

    def _start(self, request: dict[str, Any]) -> tuple[str, _Session, dict[str, Any]]:
        game_id, session = self._new_session(str(request.get("game")))
        options = dict(request.get("options") or {})
        if "time_limit" in options:
            options["time_limit"] = self._time_limit(options["time_limit"])
        elif request.get("game") in ("manipulation", "contract"):  # the games whose AI players search
            options["time_limit"] = self.limits.default_time_limit / 2
        result = _unwrap(session.server.handle({**request, "cmd": "new_game", "options": options}))
        session.engine_id = result["game_id"]
        return game_id, session, result

    async def new_game(self, request: dict[str, Any]) -> dict[str, Any]:
        """Start a game; returns the protocol's answer with a random ``game_id``."""
        game_id, session, result = self._start(request)
        self.sessions[game_id] = session
        return {**result, "game_id": game_id, "seed": request.get("seed", 0)}

    def _load(self, record: Mapping[str, Any]) -> dict[str, Any]:
        keys = {"game", "rules", "num_players", "seed", "players", "options", "actions"}
        unknown = sorted(set(record) - keys)
        if unknown:
            raise EngineError("bad_value", f"unknown record field {unknown[0]!r}")
        actions = record.get("actions", [])
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise EngineError("bad_value", "record field 'actions' must be a list of strings")
        request = {
            "game": record.get("game"),
            "rules": record.get("rules", {}),
            "players": record.get("num_players", 4),
            "seed": record.get("seed", 0),
            "options": record.get("options", {}),
        }
        for name, value in request.items():
            if value is None:
                raise EngineError("missing_field", f"missing record field {name!r}")
        game_id, session, result = self._start(request)
        for i, text in enumerate(actions):
            reply = session.server.handle({"cmd": "apply", "game_id": session.engine_id, "action": text})
            if "error" in reply:
                raise EngineError("bad_input", f"record action {i + 1} ({text!r}): {reply['error']['message']}")
        self.sessions[game_id] = session
        status = _unwrap(session.server.handle({"cmd": "observe", "game_id": session.engine_id}))
        return {**result, "game_id": game_id, "actions": len(actions), "to_move": status["to_move"]}

    async def load_record(self, record: Mapping[str, Any]) -> dict[str, Any]:
        """Replay a game record (as ``record`` returns it) into a new game."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, self._load, record)

    async def keep(self, game_id: str) -> dict[str, Any]:
        """Keep the game's record when the game expires."""
        self._session(game_id).keep = True
        return {"game_id": game_id, "keep": True}

    async def close(self, game_id: str) -> dict[str, Any]:
        """Forget a game now (a kept or finished game leaves its record)."""
        session = self._session(game_id)
        self._retire(game_id, session)
        return {"closed": game_id}

    def _retire(self, game_id: str, session: _Session) -> None:
        self.sessions.pop(game_id, None)
        with session.lock:
            record = session.server.handle({"cmd": "record", "game_id": session.engine_id})
            status = session.server.handle({"cmd": "observe", "game_id": session.engine_id})
        finished = "result" in status and status["result"].get("terminal")
        if "result" in record and (session.keep or finished):
            self.records[game_id] = (time.monotonic(), record["result"])
            while len(self.records) > self.limits.max_records:
                self.records.pop(next(iter(self.records)))

    def expire(self, now: float | None = None) -> int:
        """Retire games idle longer than ``game_ttl`` and drop old records; returns games retired."""
        now = time.monotonic() if now is None else now
        old = [(gid, s) for gid, s in list(self.sessions.items()) if now - s.last_used > self.limits.game_ttl]
        for gid, session in old:
            self._retire(gid, session)
        for gid, (saved, _) in list(self.records.items()):
            if now - saved > self.limits.record_ttl:
                self.records.pop(gid, None)
        return len(old)
