"""The engine behind the HTTP API: :class:`~solver.engine.protocol.EngineServer` requests,
run off the event loop.

Two kinds of request, one engine:

- **stateless** (``solve``, ``hint`` of a puzzle) go to a pool of worker
  processes, each holding its own ``EngineServer``; a slow solve occupies one
  worker and never the event loop, and a queue bound turns overload into a
  ``busy`` error instead of a pile-up;
- **games** live in a store (:mod:`web.store`: this process's memory, or
  Redis shared by several server processes) and are played by
  :class:`web.games.Games` in a thread pool, with seats and tokens
  (:mod:`web.seats`). Game ids and seat tokens are random: nobody can guess
  another player's game or act for their seat.

Games expire after ``game_ttl`` seconds without a request; a finished game,
or one the user asked to keep, stays ``record_ttl`` seconds.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any

from solver.engine.protocol import EngineServer
from web.events import Hub
from web.fair import FairGate
from web.games import Games
from web.seats import hash_token
from web.settings import EngineError, Limits
from web.store import Store, StoreError, open_store

__all__ = ["EngineError", "Limits", "WebEngine", "HEAVY"]

HEAVY = frozenset({"apply", "hint", "ai_move", "leave", "hand_over", "close"})
"""Game commands that may search (AI moves, hints): they run within the client's share."""


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
    if request.get("cmd") == "review":  # a game review (web/reviewing.py): no engine game of its own
        from web.reviewing import review_request

        return review_request(request)
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
        except (RecursionError, pickle.UnpicklingError):  # the whole message was read: go on with the next
            conn.send({"error": {"code": "bad_value", "message": "the request cannot be read (too deep)"}})
            continue
        try:
            reply = _worker_handle(request)
            conn.send(reply)
        except (RecursionError, pickle.PicklingError, TypeError, ValueError) as exc:  # an answer that is not data
            conn.send({"error": {"code": "internal_error", "message": f"{type(exc).__name__}: {exc}"}})


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

        try:
            data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
        except (RecursionError, pickle.PicklingError, TypeError, ValueError):
            self.idle.put_nowait(worker)  # the request never reached it: the worker is untouched
            raise EngineError("bad_value", "the request cannot be passed to a solver (too deep or not data)") from None
        healthy = False
        try:
            worker.conn.send_bytes(data)
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


_RECORD = {
    "game": str,
    "rules": dict,
    "num_players": int,
    "seed": int,
    "players": list,
    "options": dict,
    "actions": list,
}


def _check_record(record: Mapping[str, Any]) -> None:
    """A record's fields are there and of their types (``EngineError`` naming the first that is not)."""
    unknown = sorted(set(record) - set(_RECORD))
    if unknown:
        raise EngineError("bad_value", f"unknown record field {unknown[0]!r}")
    for name, kind in _RECORD.items():
        if name not in record:
            if name in ("players", "options", "rules"):
                continue
            raise EngineError("missing_field", f"missing record field {name!r}")
        value = record[name]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise EngineError("bad_value", f"record field {name!r} must be {_KIND[kind]}, not {json.dumps(value)[:40]}")
    if not all(isinstance(a, str) for a in record["actions"]):
        raise EngineError("bad_value", "record field 'actions' must be a list of strings")
    if not 0 <= record["seed"] < 2**63:
        raise EngineError("bad_value", "record field 'seed' must be from 0 to 2**63 - 1")
    if not 2 <= record["num_players"] <= 8:
        raise EngineError("bad_value", "record field 'num_players' must be from 2 to 8")


_KIND = {str: "a string", dict: "an object", int: "an integer", list: "a list"}


def _unwrap(reply: Mapping[str, Any]) -> dict[str, Any]:
    if "error" in reply:
        error = reply["error"]
        raise EngineError(str(error["code"]), str(error["message"]))
    result: dict[str, Any] = reply["result"]
    return result


class WebEngine:
    """Answers API requests with the protocol's commands; see the module docstring."""

    def __init__(self, limits: Limits | None = None, store: Store | str | None = None) -> None:
        self.limits = limits or Limits()
        self.store: Store = store if store is not None and not isinstance(store, str) else open_store(store)
        self.games = Games(self.store, self.limits)
        self.hub = Hub(self.store)
        self._pool: _ProcessPool | None = None
        self._solve_threads: concurrent.futures.ThreadPoolExecutor | None = None
        self._threads = self._light = concurrent.futures.ThreadPoolExecutor(1)
        self._threads.shutdown()
        self._games_up = False
        solvers = self.limits.workers or 4
        lane = self.limits.light_lane
        self.solve_gate = FairGate(
            solvers, self.limits.solver_share or solvers // 2, self.limits.client_queue, self.limits.max_pending, lane
        )
        threads = self.limits.games_threads
        self.game_gate = FairGate(
            threads, self.limits.game_share or threads // 2, self.limits.client_queue, self.limits.max_pending, lane
        )

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        """Start the worker processes (they import the solver first: a second or two)."""
        if self.limits.workers > 0 and self._pool is None:
            self._pool = _ProcessPool(self.limits.workers)
        if self.limits.workers == 0 and self._solve_threads is None:
            self._solve_threads = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix="shanghai-solve")
        self._start_games()

    def _start_games(self) -> None:
        if not self._games_up:  # the game threads (again after a stop: an app may be started twice)
            self._threads = concurrent.futures.ThreadPoolExecutor(
                max_workers=self.limits.games_threads, thread_name_prefix="shanghai-game"
            )
            self._light = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="shanghai-look")
            self._games_up = True

    def stop(self) -> None:
        """Stop the workers (running solves are abandoned)."""
        if self._pool is not None:
            self._pool.stop()
            self._pool = None
        if self._solve_threads is not None:
            self._solve_threads.shutdown(wait=False, cancel_futures=True)
            self._solve_threads = None
        if self._games_up:
            self._threads.shutdown(wait=False, cancel_futures=True)
            self._light.shutdown(wait=False, cancel_futures=True)
            self._games_up = False
        self.hub.stop()
        self.store.close()

    # --- stateless requests ---------------------------------------------------------------

    def _time_limit(self, value: Any) -> float:
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise EngineError("bad_value", f"time_limit must be a number of seconds, not {json.dumps(value)[:40]}")
        limit = self.limits.default_time_limit if value is None else float(value)
        if not 0 < limit <= self.limits.max_time_limit:
            raise EngineError("bad_value", f"time_limit must be more than 0 and at most {self.limits.max_time_limit:g}")
        return limit

    async def stateless(
        self, request: dict[str, Any], client: str = "", timeout: float | None = None
    ) -> dict[str, Any]:
        """Run ``solve`` or ``hint`` (of a puzzle), or a ``review``, in the worker pool, within the
        time limit (a whole review: within ``timeout``), within ``client``'s share of the workers
        (:class:`web.fair.FairGate`)."""
        request = dict(request)
        limit = self._time_limit(request.get("time_limit"))
        request["time_limit"] = limit
        self.start()
        if timeout is None:
            timeout = limit * 4 + 5  # a question can take a few solver stages, each within the limit
        async with self.solve_gate.slot(client, limit):
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
                raise EngineError("busy", "a solver worker stopped; try again", retry_after=2) from None
        return _unwrap(reply)

    # --- games ----------------------------------------------------------------------------

    async def _run(self, fn: Any, *args: Any, client: str | None = None) -> dict[str, Any]:
        """``fn(*args)`` in a thread: a light one, or (``client`` given) a heavy one within its share."""
        loop = asyncio.get_running_loop()
        self._start_games()
        try:
            if client is None:
                result: dict[str, Any] = await loop.run_in_executor(self._light, fn, *args)
            else:
                async with self.game_gate.slot(client, self.limits.default_time_limit):
                    result = await loop.run_in_executor(self._threads, fn, *args)
        except StoreError as exc:
            raise EngineError("busy", str(exc), retry_after=5) from None
        return result

    async def game(self, game_id: str, request: dict[str, Any], client: str = "") -> dict[str, Any]:
        """Run a game command (``legal``, ``apply``, ``observe``, ``ai_move``, ``hint``, ``record``,
        ``keep``, ``close``); ``request`` has its ``cmd`` and fields (``token``, ``player``...).
        The heavy ones (those that may search: ``apply``, ``hint``, ``ai_move``) run within the
        client's share: its seat token's, else ``client``'s (its address)."""
        request = dict(request)
        if "time_limit" in request:
            request["time_limit"] = self._time_limit(request["time_limit"])
        cmd = str(request.pop("cmd"))
        token = request.get("token")
        who = ("seat:" + hash_token(token)[:24]) if isinstance(token, str) else client
        heavy = who if cmd in HEAVY else None
        return await self._run(self.games.command, game_id, cmd, request, client=heavy)

    def _options(self, game: str, options: Mapping[str, Any]) -> dict[str, Any]:
        options = dict(options)
        if "time_limit" in options:
            options["time_limit"] = self._time_limit(options["time_limit"])
        elif game in ("manipulation", "contract"):  # the games whose AI players search
            options["time_limit"] = self.limits.default_time_limit / 2
        return options

    async def new_game(self, request: dict[str, Any], seats: list[str], owner: str = "") -> dict[str, Any]:
        """Start a game; the answer has a random ``game_id``, the seats and the human seats' tokens."""
        fields = {
            "game": request.get("game"),
            "rules": request.get("rules") or {},
            "players": request.get("players", 4),
            "seed": request.get("seed", 0),
            "options": self._options(str(request.get("game")), request.get("options") or {}),
        }
        return await self._run(self.games.new_game, fields, seats, owner, client=owner)

    async def load_record(self, record: Mapping[str, Any], seats: list[str], owner: str = "") -> dict[str, Any]:
        """Replay a game record (as ``record`` returns it) into a new game."""
        _check_record(record)
        meta = {
            "game": record["game"],
            "rules": record.get("rules", {}),
            "players": record["num_players"],
            "seed": record["seed"],
            "options": self._options(str(record["game"]), record.get("options", {})),
        }
        return await self._run(self.games.load_record, meta, list(record["actions"]), seats, owner, client=owner)

    async def summaries(self, seats: list[tuple[str, str]]) -> list[dict[str, Any]]:
        """The games of a "your games" list (each a game id and the seat's token), in order."""

        def run() -> dict[str, Any]:
            return {"games": [self.games.summary(gid, token) for gid, token in seats]}

        return list((await self._run(run))["games"])

    async def moves(self, game_id: str, start: int) -> dict[str, Any]:
        """The public moves from ``start`` on and the game's public status (a stream's event)."""
        return await self._run(self.games.moves, game_id, start)

    def count(self) -> int:
        """Running games (in the store: every server process's)."""
        return self.store.count()
