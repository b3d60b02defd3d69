"""Live updates of games: who is waiting for which game to change, fed by the store's announcements.

Each server process has one :class:`Hub`. A request streaming a game's moves
(``GET /api/events?game_id=<id>``, Server-Sent Events) waits on it; the hub wakes the
waiters of a game when the store announces a change (:meth:`web.store.Store.publish`):

- the embedded store calls the hub directly (one process);
- with Redis, every change is published on the game's channel and each
  process's hub holds one pattern subscription (``shanghai:ev:*``) for all its
  waiters: a move made through one worker reaches the streams held by every
  other. The subscription reconnects by itself; while Redis is away a waiter
  still wakes on its timeout and reads the store (the stream doubles as polling).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from web.store import MemoryStore, RedisStore, Store

__all__ = ["Hub"]

_log = logging.getLogger("shanghai.web")


class Hub:
    """Waiters for game changes in this process (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._waiters: dict[str, set[asyncio.Event]] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        if isinstance(store, MemoryStore):
            store.listeners.append(self._from_thread)

    def __len__(self) -> int:
        """How many streams are waiting."""
        return sum(len(w) for w in self._waiters.values())

    def _from_thread(self, gid: str) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop has just closed
                loop.call_soon_threadsafe(self.wake, gid)

    def wake(self, gid: str) -> None:
        """Wake every waiter of ``gid`` (in the event loop's thread)."""
        for event in self._waiters.get(gid, ()):
            event.set()

    def _start(self) -> None:
        self._loop = asyncio.get_running_loop()
        if isinstance(self.store, RedisStore) and (self._task is None or self._task.done()):
            self._task = self._loop.create_task(self._listen(self.store))

    async def _listen(self, store: RedisStore) -> None:
        """Hold the pattern subscription, reconnecting after a lost connection."""
        import redis.asyncio as aioredis

        pattern = store.channel("*")
        start = len(store.channel(""))
        while True:
            client = aioredis.Redis.from_url(store.url, socket_connect_timeout=5)
            try:
                async with client.pubsub() as pubsub:
                    await pubsub.psubscribe(pattern)
                    while True:
                        message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=30.0)
                        if message is not None and message.get("type") == "pmessage":
                            channel = message["channel"]
                            name = channel.decode() if isinstance(channel, bytes) else str(channel)
                            self.wake(name[start:])
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # Redis away: the waiters poll on their timeouts meanwhile
                _log.warning("game events: the store's channel was lost (%s); reconnecting", type(exc).__name__)
                await asyncio.sleep(1.0)
            finally:
                with contextlib.suppress(Exception):
                    await client.aclose()

    @contextlib.asynccontextmanager
    async def waiter(self, gid: str) -> AsyncIterator[asyncio.Event]:
        """An event set whenever ``gid`` changes (clear it before reading the store)."""
        self._start()
        event = asyncio.Event()
        self._waiters.setdefault(gid, set()).add(event)
        try:
            yield event
        finally:
            waiting = self._waiters.get(gid)
            if waiting is not None:
                waiting.discard(event)
                if not waiting:
                    del self._waiters[gid]

    def stop(self) -> None:
        """Stop listening."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
