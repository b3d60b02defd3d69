"""Where the web app's games live: an embedded store for one process, or Redis for many.

A game is stored as its **meta** (how it was dealt: game, rules, players,
seed, options, and its seats with their token hashes) and its **log** (one
entry per action, in order: the action's text form, its player, and for an
AI seat the public reason and table after it). A game replays exactly from
its record (``solver.engine.record_of``), so meta and log are all there is:
each worker process rebuilds the game from them and caches it (see
:mod:`web.games`).

Every change to a log is :meth:`Store.append` with the length the writer
saw: it succeeds only if no other writer got there first, in one atomic step
(a Lua script in Redis), so concurrent actions on one game are serialised
across processes and machines and none is lost or applied twice. A short
lease (:meth:`Store.lock`) keeps two processes from computing the same AI
move at once; it expires by itself if its holder dies.

Keys expire on their own: ``ttl`` seconds after the last use while the game
runs (:meth:`Store.touch`), longer once it is kept or finished. A game counts
as *live* (against the quotas) only ``live`` seconds after its last use: an
abandoned game stops counting long before it is forgotten, and its resume
link works until then.

Every change to a game is announced (:meth:`Store.publish`): in Redis on a
pub/sub channel (``shanghai:ev:<id>``) that every server process listens to
(:mod:`web.events`), in memory to this process's listeners.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Protocol

from solver.extras import missing

__all__ = ["Store", "MemoryStore", "RedisStore", "open_store", "StoreError"]


class StoreError(Exception):
    """The store cannot be reached or used (the app answers ``busy``)."""


class Store(Protocol):
    """The operations the web app needs (both stores implement them, with the same meaning)."""

    def create(self, gid: str, meta: dict[str, Any], ttl: float, live: float | None = None) -> None:
        """Store a new game (``meta``, an empty log) for ``ttl`` seconds; ``meta["owner"]`` is counted
        for its quota for ``live`` seconds (default ``ttl``)."""

    def meta(self, gid: str) -> dict[str, Any] | None:
        """The game's meta, or None if there is no such game (or it expired)."""

    def log(self, gid: str, start: int = 0) -> list[dict[str, Any]]:
        """The game's log entries from ``start`` on."""

    def append(self, gid: str, expected: int, entries: list[dict[str, Any]]) -> bool:
        """Add ``entries`` if the log still has ``expected`` entries (False: someone else wrote first)."""

    def update(self, gid: str, changes: dict[str, Any], ttl: float | None = None) -> None:
        """Change fields of the game's meta (and its time to live, when given)."""

    def touch(self, gid: str, ttl: float, owner: str, live: float | None = None) -> None:
        """The game (of ``owner``) was used: it lives ``ttl`` more seconds (never shortens a longer
        life). Given ``live``, it counts as live (again, if it had stopped) ``live`` more seconds;
        else a game still counted counts ``ttl`` more seconds."""

    def delete(self, gid: str) -> None:
        """Forget the game."""

    def count(self) -> int:
        """How many games are stored and running (not retired)."""

    def owned(self, owner: str) -> int:
        """How many running games ``owner`` started."""

    def owned_games(self, owner: str) -> list[tuple[str, float]]:
        """The running games ``owner`` started, each with the seconds until it stops counting
        (unless used again), the soonest first."""

    def publish(self, gid: str) -> None:
        """Announce that the game changed (its log or its seats) to every listener."""

    def retire(self, gid: str, owner: str) -> None:
        """The game no longer counts as running (finished, closed): off the counts."""

    def lock(self, gid: str, holder: str, ttl: float) -> bool:
        """Take (or renew, for the same ``holder``) the game's lease for ``ttl`` seconds."""

    def unlock(self, gid: str, holder: str) -> None:
        """Give the lease back (only its holder can)."""

    def close(self) -> None:
        """Release connections."""


# --- in process ---------------------------------------------------------------------------------


class MemoryStore:
    """The embedded store: dicts in this process (one server process; tests)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._meta: dict[str, dict[str, Any]] = {}
        self._log: dict[str, list[dict[str, Any]]] = {}
        self._expires: dict[str, float] = {}
        self._running: dict[str, tuple[str, float]] = {}  # gid -> (owner, until when it counts)
        self._leases: dict[str, tuple[str, float]] = {}
        self.listeners: list[Any] = []
        """Callables called with a game id when it changes (:mod:`web.events`)."""

    def _sweep(self, now: float) -> None:
        for gid in [g for g, t in self._expires.items() if t <= now]:
            self._drop(gid)
        for gid in [g for g, (_, t) in self._running.items() if t <= now]:
            self._running.pop(gid)

    def _drop(self, gid: str) -> None:
        self._meta.pop(gid, None)
        self._log.pop(gid, None)
        self._expires.pop(gid, None)
        self._running.pop(gid, None)
        self._leases.pop(gid, None)

    def create(self, gid: str, meta: dict[str, Any], ttl: float, live: float | None = None) -> None:
        with self._lock:
            self._sweep(time.monotonic())
            self._meta[gid] = json.loads(json.dumps(meta))
            self._log[gid] = []
            self._expires[gid] = time.monotonic() + ttl
            self._running[gid] = (str(meta.get("owner", "")), time.monotonic() + (ttl if live is None else live))

    def meta(self, gid: str) -> dict[str, Any] | None:
        with self._lock:
            if self._expires.get(gid, 0.0) <= time.monotonic():
                self._drop(gid)
                return None
            return dict(self._meta[gid])

    def log(self, gid: str, start: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            return [dict(e) for e in self._log.get(gid, [])[start:]]

    def append(self, gid: str, expected: int, entries: list[dict[str, Any]]) -> bool:
        with self._lock:
            log = self._log.get(gid)
            if log is None or len(log) != expected:
                return False
            log.extend(json.loads(json.dumps(entries)))
            return True

    def update(self, gid: str, changes: dict[str, Any], ttl: float | None = None) -> None:
        with self._lock:
            if gid in self._meta:
                self._meta[gid].update(json.loads(json.dumps(changes)))
                if ttl is not None:
                    self._expires[gid] = time.monotonic() + ttl

    def touch(self, gid: str, ttl: float, owner: str, live: float | None = None) -> None:
        with self._lock:
            now = time.monotonic()
            if gid in self._expires:
                self._expires[gid] = max(self._expires[gid], now + ttl)
            if live is not None and gid in self._meta:
                self._running[gid] = (owner, now + live)
            elif gid in self._running:
                self._running[gid] = (owner, now + ttl)

    def delete(self, gid: str) -> None:
        with self._lock:
            self._drop(gid)

    def count(self) -> int:
        with self._lock:
            self._sweep(time.monotonic())
            return len(self._running)

    def owned(self, owner: str) -> int:
        with self._lock:
            self._sweep(time.monotonic())
            return sum(1 for o, _ in self._running.values() if o == owner)

    def owned_games(self, owner: str) -> list[tuple[str, float]]:
        with self._lock:
            now = time.monotonic()
            self._sweep(now)
            return sorted(((g, t - now) for g, (o, t) in self._running.items() if o == owner), key=lambda x: x[1])

    def publish(self, gid: str) -> None:
        for listener in list(self.listeners):
            listener(gid)

    def retire(self, gid: str, owner: str) -> None:
        with self._lock:
            self._running.pop(gid, None)

    def lock(self, gid: str, holder: str, ttl: float) -> bool:
        now = time.monotonic()
        with self._lock:
            current = self._leases.get(gid)
            if current is not None and current[0] != holder and current[1] > now:
                return False
            self._leases[gid] = (holder, now + ttl)
            return True

    def unlock(self, gid: str, holder: str) -> None:
        with self._lock:
            if self._leases.get(gid, ("", 0.0))[0] == holder:
                self._leases.pop(gid, None)

    def close(self) -> None:
        """Nothing to release."""


# --- Redis --------------------------------------------------------------------------------------

_APPEND = """
if redis.call('EXISTS', KEYS[2]) == 0 then return -2 end
if redis.call('LLEN', KEYS[1]) ~= tonumber(ARGV[1]) then return -1 end
for i = 3, #ARGV do redis.call('RPUSH', KEYS[1], ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], redis.call('PTTL', KEYS[2]))
return redis.call('LLEN', KEYS[1])
"""

_LOCK = """
local v = redis.call('GET', KEYS[1])
if v == false or v == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""

_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

_TOUCH = """
local ms = tonumber(ARGV[1])
for i = 1, 2 do
  local left = redis.call('PTTL', KEYS[i])
  if left >= 0 and left < ms then redis.call('PEXPIRE', KEYS[i], ms) end
end
if ARGV[4] == '1' then
  redis.call('ZADD', KEYS[3], ARGV[3], ARGV[2])
  redis.call('ZADD', KEYS[4], ARGV[3], ARGV[2])
else
  redis.call('ZADD', KEYS[3], 'XX', ARGV[3], ARGV[2])
  redis.call('ZADD', KEYS[4], 'XX', ARGV[3], ARGV[2])
end
local left = redis.call('PTTL', KEYS[4])
if left >= 0 and left < ms then redis.call('PEXPIRE', KEYS[4], ms) end
return 1
"""


class RedisStore:
    """Games in Redis (``redis://host:port/db``): shared by every worker process and machine.

    Keys (prefix ``shanghai:``): ``g:<id>`` the meta (JSON), ``g:<id>:log`` the log (a list
    of JSON entries), ``g:<id>:lease`` the AI lease, ``running`` (a sorted set: running
    games by their expiry) and ``owner:<client>`` (the same, per client).
    """

    def __init__(self, url: str, prefix: str = "shanghai:") -> None:
        try:
            import redis
        except ImportError as exc:  # one line naming the extra
            raise missing(exc, "web") from None

        self._redis = redis.Redis.from_url(url, socket_timeout=5, socket_connect_timeout=5, health_check_interval=30)
        self.url = url
        self.prefix = prefix
        self._append = self._redis.register_script(_APPEND)
        self._lock = self._redis.register_script(_LOCK)
        self._unlock = self._redis.register_script(_UNLOCK)
        self._touch = self._redis.register_script(_TOUCH)
        self._errors: tuple[type[BaseException], ...] = (redis.RedisError,)

    def _k(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    def _call(self, fn: Any, *args: Any, **kw: Any) -> Any:
        try:
            return fn(*args, **kw)
        except self._errors as exc:
            raise StoreError(f"the game store is not answering ({type(exc).__name__})") from None

    def ping(self) -> None:
        """Raise :class:`StoreError` unless Redis answers."""
        self._call(self._redis.ping)

    def create(self, gid: str, meta: dict[str, Any], ttl: float, live: float | None = None) -> None:
        ms = int(ttl * 1000)
        expiry = time.time() + (ttl if live is None else live)
        owner = str(meta.get("owner", ""))
        pipe = self._redis.pipeline(transaction=True)
        pipe.set(self._k("g", gid), json.dumps(meta), px=ms)
        pipe.zadd(self._k("running"), {gid: expiry})
        pipe.zadd(self._k("owner", owner), {gid: expiry})
        pipe.pexpire(self._k("owner", owner), ms)
        self._call(pipe.execute)

    def meta(self, gid: str) -> dict[str, Any] | None:
        raw = self._call(self._redis.get, self._k("g", gid))
        if raw is None:
            return None
        data: dict[str, Any] = json.loads(raw)
        return data

    def log(self, gid: str, start: int = 0) -> list[dict[str, Any]]:
        raw = self._call(self._redis.lrange, self._k("g", gid, "log"), start, -1)
        return [json.loads(x) for x in raw]

    def append(self, gid: str, expected: int, entries: list[dict[str, Any]]) -> bool:
        keys = [self._k("g", gid, "log"), self._k("g", gid)]
        args = [expected, 0, *(json.dumps(e) for e in entries)]
        return int(self._call(self._append, keys=keys, args=args)) >= 0

    def update(self, gid: str, changes: dict[str, Any], ttl: float | None = None) -> None:
        key = self._k("g", gid)
        with self._redis.pipeline(transaction=True) as pipe:
            for _ in range(20):
                try:
                    pipe.watch(key)  # type: ignore[no-untyped-call]
                    raw = pipe.get(key)
                    if raw is None:
                        pipe.reset()
                        return
                    meta = {**json.loads(raw), **changes}
                    pipe.multi()
                    if ttl is None:
                        pipe.set(key, json.dumps(meta), keepttl=True)
                    else:
                        ms = int(ttl * 1000)
                        pipe.set(key, json.dumps(meta), px=ms)
                        pipe.pexpire(self._k("g", gid, "log"), ms)
                    pipe.execute()
                    return
                except self._errors as exc:
                    if type(exc).__name__ != "WatchError":
                        raise StoreError(f"the game store is not answering ({type(exc).__name__})") from None
        raise StoreError("the game is changing too fast; try again")

    def touch(self, gid: str, ttl: float, owner: str, live: float | None = None) -> None:
        keys = [self._k("g", gid), self._k("g", gid, "log"), self._k("running"), self._k("owner", owner)]
        until = time.time() + (ttl if live is None else live)
        self._call(self._touch, keys=keys, args=[int(ttl * 1000), gid, until, "0" if live is None else "1"])

    def channel(self, gid: str) -> str:
        """The pub/sub channel announcing the game's changes."""
        return self._k("ev", gid)

    def publish(self, gid: str) -> None:
        self._call(self._redis.publish, self.channel(gid), "1")

    def delete(self, gid: str) -> None:
        meta = self.meta(gid)
        pipe = self._redis.pipeline(transaction=True)
        pipe.delete(self._k("g", gid), self._k("g", gid, "log"), self._k("g", gid, "lease"))
        pipe.zrem(self._k("running"), gid)
        if meta is not None:
            pipe.zrem(self._k("owner", str(meta.get("owner", ""))), gid)
        self._call(pipe.execute)

    def _live(self, key: str) -> int:
        pipe = self._redis.pipeline(transaction=True)
        pipe.zremrangebyscore(key, "-inf", time.time())
        pipe.zcard(key)
        return int(self._call(pipe.execute)[1])

    def count(self) -> int:
        return self._live(self._k("running"))

    def owned(self, owner: str) -> int:
        return self._live(self._k("owner", owner))

    def owned_games(self, owner: str) -> list[tuple[str, float]]:
        key = self._k("owner", owner)
        pipe = self._redis.pipeline(transaction=True)
        now = time.time()
        pipe.zremrangebyscore(key, "-inf", now)
        pipe.zrange(key, 0, -1, withscores=True)
        rows = self._call(pipe.execute)[1]
        return [(g.decode() if isinstance(g, bytes) else str(g), float(t) - now) for g, t in rows]

    def retire(self, gid: str, owner: str) -> None:
        pipe = self._redis.pipeline(transaction=True)
        pipe.zrem(self._k("running"), gid)
        pipe.zrem(self._k("owner", owner), gid)
        self._call(pipe.execute)

    def lock(self, gid: str, holder: str, ttl: float) -> bool:
        return bool(self._call(self._lock, keys=[self._k("g", gid, "lease")], args=[holder, int(ttl * 1000)]))

    def unlock(self, gid: str, holder: str) -> None:
        self._call(self._unlock, keys=[self._k("g", gid, "lease")], args=[holder])

    def persistence(self) -> tuple[bool, bool] | None:
        """Whether Redis writes its data to disk: (an append-only file, snapshots), or None when
        it will not say (``CONFIG`` disabled)."""
        try:
            aof = self._redis.config_get("appendonly").get("appendonly", "no")
            save = self._redis.config_get("save").get("save", "")
        except self._errors:
            return None
        return str(aof) in ("yes", "b'yes'"), bool(str(save).strip())

    def close(self) -> None:
        self._redis.close()


def open_store(url: str | None) -> Store:
    """The store a URL names: None or ``memory:`` the embedded one, ``redis://...`` Redis."""
    if url is None or url in ("", "memory", "memory:"):
        return MemoryStore()
    if url.startswith(("redis://", "rediss://", "unix://")):
        store = RedisStore(url)
        store.ping()
        return store
    raise ValueError(f"unknown store {url!r} (memory, or redis://host:port/db)")
