"""``shanghai serve``: run the web app with uvicorn (one server process, or several sharing Redis)."""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import sys
import threading
import webbrowser
from collections.abc import Sequence
from typing import Any

from solver.extras import missing
from web.settings import Limits

__all__ = ["serve", "app_from_env", "check_port", "persistence_warning", "ServeError"]

_ENV = "SHANGHAI_WEB_CONFIG"
"""The environment variable that carries the settings to each worker process (uvicorn starts them)."""


class ServeError(ValueError):
    """A setting ``serve`` cannot run with (the CLI prints it as one line and exits 2)."""


def check_port(host: str, port: int) -> None:
    """Raise :class:`ServeError` if ``host:port`` cannot be listened on (in use, or no such address)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does
        try:
            s.bind((host, port))
        except OSError as exc:
            reason = "is in use" if exc.errno == 98 else f"cannot be used ({exc.strerror})"
            raise ServeError(f"port {port} on {host} {reason}; choose another with --port") from None


def _config(limits: Limits, store: str | None, allowed_hosts: Sequence[str]) -> str:
    return json.dumps({"limits": dataclasses.asdict(limits), "store": store, "allowed_hosts": list(allowed_hosts)})


def app_from_env() -> Any:
    """The app of one worker process, from the settings ``serve`` left in the environment."""
    from web.app import create_app

    data = json.loads(os.environ.get(_ENV, "{}"))
    limits = Limits(**data.get("limits", {}))
    return create_app(limits, data.get("store"), data.get("allowed_hosts", ()))


def _check_store(store: str | None, workers: int) -> None:
    from web.store import StoreError, open_store

    if workers > 1 and store in (None, "", "memory", "memory:"):
        raise ServeError(
            f"--workers {workers} needs a shared store: --store redis://127.0.0.1:6379/0 (each process would "
            "otherwise have its own games)"
        )
    try:
        opened = open_store(store)
    except (StoreError, ValueError) as exc:
        raise ServeError(f"--store {store}: {exc}") from None
    warning = persistence_warning(opened)
    opened.close()
    if warning is not None:
        print(f"warning: {warning}", file=sys.stderr)


def persistence_warning(store: Any) -> str | None:
    """What a restart of the store would lose, when it would lose anything (None: it keeps every
    game: Redis with an append-only file)."""
    from web.store import RedisStore

    if not isinstance(store, RedisStore):
        return None
    kept = store.persistence()
    if kept is None:
        return "the Redis store will not say whether it persists games (CONFIG is disabled); see docs/web.md"
    aof, snapshots = kept
    if aof:
        return None
    loses = "the moves since its last snapshot" if snapshots else "every game"
    return (
        f"the Redis store has no append-only file: a restart of Redis loses {loses}; "
        "set 'appendonly yes' in redis.conf (docs/web.md, \"In production\")"
    )


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    open_browser: bool = False,
    workers: int = 1,
    solvers: int = 2,
    store: str | None = None,
    allowed_hosts: Sequence[str] = (),
) -> None:
    """Serve the page and the API on ``host:port`` until interrupted (``ServeError``: cannot start).

    ``workers`` server processes (more than one needs ``store``, a Redis URL), each with ``solvers``
    solver processes (0: threads); ``allowed_hosts`` are host names accepted besides localhost's.
    """
    try:
        import uvicorn
    except ImportError as exc:  # one line naming the extra
        raise missing(exc, "web") from None

    from web.app import create_app

    _check_store(store, workers)
    check_port(host, port)
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"warning: serving on {host}: anyone who can reach this machine can use the solver; "
            "there is no login. Use 127.0.0.1 unless you mean it.",
            file=sys.stderr,
        )
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"shanghai: serving on {url} (Ctrl-C stops)", file=sys.stderr)
    if open_browser:
        threading.Timer(1.5, webbrowser.open, args=(url,)).start()
    limits = Limits(workers=solvers)
    options: dict[str, Any] = {"host": host, "port": port, "log_level": "warning", "timeout_graceful_shutdown": 2}
    if workers > 1:
        os.environ[_ENV] = _config(limits, store, allowed_hosts)
        uvicorn.run("web.serve:app_from_env", factory=True, workers=workers, **options)
    else:
        uvicorn.run(create_app(limits, store, allowed_hosts), **options)
