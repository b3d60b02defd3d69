"""Fair shares of the heavy work: each client gets its share of the workers, and no more.

A :class:`FairGate` stands in front of a pool of ``capacity`` workers (solver
processes, or the threads that play games). Each client (its seat token, else
its address) may have at most ``share`` requests running and ``queue`` more
waiting; a request beyond that is refused at once with 429 ``rate_limited``
and a ``Retry-After`` (never a 504 after a wait). Waiting requests start in
turn across clients (round robin), and a client at its share waits for its
own requests, not for a free worker: with ``share`` below ``capacity`` a
worker is always left for someone else, so one client's heavy solves never
hold up another's light ones. When too many requests wait in all
(``max_waiting``), the next is 503 ``busy`` at once, with ``Retry-After``.

Shares alone hold for one heavy client, not for several: two clients at their
shares fill every worker, and a third client's trivial request waits for a
ten-second solve. So ``reserved`` workers are a **lane for light work**: only a
*light* client may start a request on them, one with nothing running whose
recent use of the pool (worker-seconds, decaying with a half-life of
``HALF_LIFE`` s) is under ``light_seconds``. A heavy client's requests share the
other workers; whatever the number of heavy clients, a light client finds a
worker at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict, deque
from collections.abc import AsyncIterator

from web.settings import EngineError

__all__ = ["FairGate", "HALF_LIFE"]

HALF_LIFE = 30.0
"""Seconds in which a client's recorded use of the pool halves."""


class FairGate:
    """Admission and fair order for one pool of workers (see the module docstring)."""

    def __init__(
        self, capacity: int, share: int, queue: int, max_waiting: int, reserved: int = 0, light_seconds: float = 2.0
    ) -> None:
        self.capacity = max(1, capacity)
        self.share = max(1, min(share, self.capacity))
        self.queue = max(0, queue)
        self.max_waiting = max_waiting
        self.reserved = max(0, min(reserved, self.capacity - 1))
        self.light_seconds = light_seconds
        self.used: dict[str, tuple[float, float]] = {}  # client -> (worker-seconds, when)
        self.running: dict[str, int] = {}
        self.waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self.total = 0

    def _waiting(self, client: str) -> int:
        return len(self.waiting.get(client, ()))

    def use(self, client: str) -> float:
        """``client``'s recent use of the pool: worker-seconds, halving every :data:`HALF_LIFE` s."""
        value, when = self.used.get(client, (0.0, 0.0))
        return float(value * 0.5 ** ((time.monotonic() - when) / HALF_LIFE))

    def _add_use(self, client: str, seconds: float) -> None:
        self.used[client] = (self.use(client) + seconds, time.monotonic())
        if len(self.used) > 10_000:  # forget the clients whose use has faded
            for c in [c for c in self.used if self.use(c) < 0.01]:
                del self.used[c]

    def light(self, client: str) -> bool:
        """Whether ``client`` may use the reserved lane: nothing running, little recent use."""
        return not self.running.get(client) and self.use(client) < self.light_seconds

    def _room(self, client: str) -> bool:
        limit = self.capacity if self.light(client) else self.capacity - self.reserved
        return self.total < limit

    def load(self, client: str) -> tuple[int, int]:
        """How many of ``client``'s requests run, and how many wait."""
        return self.running.get(client, 0), self._waiting(client)

    @contextlib.asynccontextmanager
    async def slot(self, client: str, seconds: float) -> AsyncIterator[None]:
        """Hold one of the pool's workers for ``client`` (``seconds``: the request's time limit,
        for the ``Retry-After`` of a refusal)."""
        running, waiting = self.load(client)
        if running + waiting >= self.share + self.queue:
            raise EngineError(
                "rate_limited",
                f"you have {running} requests running and {waiting} waiting, your share; try again when one is done",
                retry_after=max(1, math.ceil(seconds)),
            )
        if running < self.share and self._room(client):
            self._start(client)
        else:
            if sum(len(q) for q in self.waiting.values()) >= self.max_waiting:
                raise EngineError("busy", "the server is busy; try again in a moment", retry_after=math.ceil(seconds))
            ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self.waiting.setdefault(client, deque()).append(ready)
            try:
                await ready
            except asyncio.CancelledError:
                if ready.done() and not ready.cancelled():  # started as it was cancelled: give it back
                    self._finish(client)
                else:
                    self._unwait(client, ready)
                raise
        began = time.monotonic()
        try:
            yield
        finally:
            self._add_use(client, time.monotonic() - began)
            self._finish(client)

    def _start(self, client: str) -> None:
        self.running[client] = self.running.get(client, 0) + 1
        self.total += 1

    def _unwait(self, client: str, ready: asyncio.Future[None]) -> None:
        q = self.waiting.get(client)
        if q is not None and ready in q:
            q.remove(ready)
            if not q:
                del self.waiting[client]

    def _finish(self, client: str) -> None:
        self.running[client] -= 1
        if not self.running[client]:
            del self.running[client]
        self.total -= 1
        self._dispatch()

    def _dispatch(self) -> None:
        """Start waiting requests while workers are free: clients in turn, each within its share."""
        progress = True
        while self.total < self.capacity and progress:
            progress = False
            for client in list(self.waiting):
                if self.total >= self.capacity:
                    return
                if self.running.get(client, 0) >= self.share or not self._room(client):
                    continue
                q = self.waiting[client]
                ready = q.popleft()
                if not q:
                    del self.waiting[client]
                else:
                    self.waiting.move_to_end(client)  # its next request goes after the other clients'
                self._start(client)
                ready.set_result(None)
                progress = True
