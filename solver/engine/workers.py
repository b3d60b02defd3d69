"""Stateless engine requests (``solve``, ``hint`` on a puzzle) in worker processes.

A long solve must not hold up the other games of a session, and must not run
past its time limit. :class:`SolvePool` runs each such request in a worker
process (kept warm between requests, at most ``workers`` at once) and writes
the reply, with the request's ``id``, as soon as it is ready, while the
engine goes on answering other lines. A request that overruns its hard limit
(``hard_limit(time_limit)``: twice the time limit plus a grace for starting a
worker) gets a ``timeout`` error and its worker is killed; a worker that dies
(out of memory, a crash) gives an ``internal_error``. See docs/protocol.md.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import signal
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from solver.engine.every import EVERY

__all__ = ["SolvePool", "hard_limit", "GRACE_SECONDS"]

GRACE_SECONDS = 10.0
"""Added to twice a request's time limit for its hard limit (starting a worker imports the solver)."""


def hard_limit(time_limit: float) -> float:
    """Seconds after which a pooled request is abandoned and its worker killed."""
    return 2.0 * time_limit + GRACE_SECONDS


STOP = "stop"
"""What the parent sends a worker to stop the request it is answering (the engine's ``stop``)."""


def _worker_main(conn: Connection, target: Callable[[dict[str, Any]], str]) -> None:
    """A worker's loop: a request in, its reply line out, until the pipe closes or ``None`` arrives.

    A worker ignores Ctrl-C (it reaches the whole process group): the engine kills its workers.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            request = conn.recv()
        except (EOFError, OSError):
            return
        if request is None:
            return
        if request == STOP:  # it came after the answer: nothing to stop
            continue
        try:
            conn.send(_stoppable(conn, target, request))
        except (EOFError, OSError):
            return


def _stoppable(conn: Connection, target: Callable[[dict[str, Any]], str], request: dict[str, Any]) -> str:
    """``target(request)`` in a thread, under a :class:`~solver.cpsat.Stop` that a ``STOP`` from the parent sets."""
    from solver.cpsat import Stop, stoppable

    token = Stop()
    box: list[str] = []

    def run() -> None:
        with stoppable(token):
            try:
                box.append(target(request))
            except Exception as exc:  # pragma: no cover - the engine's handler answers every error itself
                box.append(_error(request.get("id"), "internal_error", f"{type(exc).__name__}: {exc}"))

    thread = threading.Thread(target=run, name="solve", daemon=True)
    thread.start()
    while thread.is_alive():
        if conn.poll(0.05) and conn.recv() == STOP:
            token.stop()
    thread.join()
    return box[0]


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, target: Callable[[dict[str, Any]], str]) -> None:
        self.conn, child = context.Pipe()
        self.lock = threading.Lock()  # one sender at a time: the request, or a stop
        self.process = context.Process(target=_worker_main, args=(child, target), daemon=True)
        self.process.start()
        child.close()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()

    def stop(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.conn.send(None)
        self.process.join(timeout=5)
        if self.process.is_alive():
            self.kill()


class SolvePool:
    """Runs stateless requests in worker processes; ``write`` receives each reply line when it is ready.

    ``target`` answers one request inside a worker (the engine's own handler,
    :func:`solver.engine.protocol.answer_request`; tests give a slow one). It must be a module-level
    function: workers are started with ``spawn``.
    """

    def __init__(
        self,
        write: Callable[[str], None],
        workers: int,
        target: Callable[[dict[str, Any]], str],
        limit: Callable[[float], float] = hard_limit,
    ) -> None:
        self.write = write
        self.target = target
        self.limit = limit
        self.context = multiprocessing.get_context("spawn")
        self.slots = threading.Semaphore(max(1, workers))
        self.lock = threading.Lock()
        self.idle: list[_Worker] = []
        self.threads: list[threading.Thread] = []
        self.killed = False
        self.running: list[tuple[Any, _Worker]] = []  # (request id, its worker) being answered
        self.waiting: list[dict[str, Any]] = []  # requests waiting for a worker (a stop marks them)

    def submit(self, rid: Any, request: dict[str, Any], time_limit: float) -> None:
        """Answer ``request`` in a worker; its reply (or a ``timeout`` error) is written when ready."""
        job: dict[str, Any] = {"rid": rid, "stop": False}
        thread = threading.Thread(target=self._run, args=(rid, request, time_limit, job), daemon=True)
        with self.lock:
            self.waiting.append(job)
            self.threads = [t for t in self.threads if t.is_alive()]
            self.threads.append(thread)
        thread.start()

    def pending(self) -> int:
        """Requests not yet answered."""
        with self.lock:
            return sum(t.is_alive() for t in self.threads)

    def _run(self, rid: Any, request: dict[str, Any], time_limit: float, job: dict[str, Any]) -> None:
        try:
            self._answer(rid, request, time_limit, job)
        except Exception:
            if self.killed:  # Ctrl-C tore down what it used (a worker starting, the output): no reply, no traceback
                return
            raise

    def _answer(self, rid: Any, request: dict[str, Any], time_limit: float, job: dict[str, Any]) -> None:
        with self.slots:
            with self.lock:
                if self.killed:
                    return
                worker = self.idle.pop() if self.idle else None
            if worker is None or not worker.process.is_alive():
                worker = _Worker(self.context, self.target)
            reply = self._ask(worker, rid, request, time_limit, job)
            with self.lock:
                if self.killed:  # Ctrl-C while it ran: no reply, and the worker goes too
                    worker.kill()
                    return
                if worker.process.is_alive():
                    self.idle.append(worker)
            self.write(reply)

    def _ask(self, worker: _Worker, rid: Any, request: dict[str, Any], time_limit: float, job: dict[str, Any]) -> str:
        """The reply line of one worker to one request (an error line if it timed out or died)."""
        seconds = self.limit(time_limit)
        entry = (rid, worker)
        try:
            with worker.lock:
                worker.conn.send(request)
            with self.lock:
                self.running.append(entry)
                if job in self.waiting:
                    self.waiting.remove(job)
                if job["stop"]:  # stopped while it waited for a worker: the answer so far at once
                    with worker.lock:
                        worker.conn.send(STOP)
            if not worker.conn.poll(seconds):
                worker.kill()
                return _error(rid, "timeout", f"no answer within the hard limit of {seconds:g} s; stopped")
            reply: str = worker.conn.recv()
            return reply
        except Exception as exc:
            if self.killed:  # Ctrl-C closed the connection under this read (any error): no reply follows
                return ""
            if not isinstance(exc, (EOFError, OSError)):
                raise
            worker.kill()
            code = worker.process.exitcode
            return _error(rid, "internal_error", f"the solver worker stopped (exit code {code})")
        finally:
            with self.lock:
                if entry in self.running:
                    self.running.remove(entry)
                if job in self.waiting:
                    self.waiting.remove(job)

    def kill(self) -> None:
        """Stop at once (Ctrl-C): kill every worker, busy or idle; pending requests get no reply."""
        with self.lock:
            self.killed = True
            workers, self.idle = [*(w for _, w in self.running), *self.idle], []
        for worker in workers:
            worker.kill()

    def stop(self, which: Any) -> list[Any]:
        """Ask the workers answering requests (every one, or those whose id is ``which``) to stop;
        each then replies with its answer so far. Returns the ids asked."""
        with self.lock:
            hit = [(rid, w) for rid, w in self.running if which is EVERY or rid == which]
            queued = [job for job in self.waiting if which is EVERY or job["rid"] == which]
            for job in queued:
                job["stop"] = True
        for _, worker in hit:
            with worker.lock, contextlib.suppress(OSError, ValueError):
                worker.conn.send(STOP)
        return [rid for rid, _ in hit] + [job["rid"] for job in queued]

    def close(self) -> None:
        """Wait for every pending request (each is bounded by its hard limit), then stop the workers."""
        while True:
            with self.lock:
                alive = [t for t in self.threads if t.is_alive()]
            if not alive:
                break
            for t in alive:
                t.join()
        with self.lock:
            idle, self.idle = self.idle, []
        for worker in idle:
            worker.stop()


def _error(rid: Any, code: str, message: str) -> str:
    return json.dumps({"id": rid, "error": {"code": code, "message": message}}, ensure_ascii=False, allow_nan=False)
