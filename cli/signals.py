"""Ctrl-C: one SIGINT ends any command within a second, with exit code 130 and one line.

Python turns SIGINT into ``KeyboardInterrupt`` in the main thread, but only
when that thread runs Python code: a CP-SAT solve is C++ and would finish
first (up to its time limit). So :func:`watch_interrupts` registers a
wake-up socket (``signal.set_wakeup_fd``) that the C-level handler writes
to at once, and a watcher thread that, on SIGINT, stops every running
CP-SAT search (:func:`solver.cpsat.stop_searches`; CP-SAT itself is told
not to take the signal, ``catch_sigint_signal = False``). The solve returns,
Python raises ``KeyboardInterrupt``, and :func:`cli.main.main` prints
``interrupted`` and exits 130. Worker processes ignore SIGINT
(:func:`ignore_interrupts`): the parent stops them, so a Ctrl-C that
reaches the whole process group prints no worker traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
from typing import NoReturn

__all__ = ["EXIT_INTERRUPTED", "watch_interrupts", "ignore_interrupts", "is_interrupt", "interrupted"]

EXIT_INTERRUPTED = 130
"""The exit code of a command stopped by Ctrl-C (128 + SIGINT, as a shell reports it)."""

_WATCHING: list[socket.socket] = []
_SEEN = threading.Event()


def watch_interrupts() -> bool:
    """Start the SIGINT watcher (once, from the main thread); False where it cannot run."""
    if _WATCHING:
        return True
    if threading.current_thread() is not threading.main_thread():
        return False
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    try:
        signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except (ValueError, OSError):  # pragma: no cover - not the main thread of the main interpreter
        reader.close()
        writer.close()
        return False
    _WATCHING.extend((reader, writer))
    threading.Thread(target=_watch, args=(reader,), name="shanghai-sigint", daemon=True).start()
    return True


def _watch(reader: socket.socket) -> None:
    """Stop the running CP-SAT searches whenever SIGINT arrives (the bytes are signal numbers)."""
    while True:
        try:
            data = reader.recv(64)
        except OSError:  # pragma: no cover - the socket closed at exit
            return
        if not data:  # pragma: no cover - the socket closed at exit
            return
        if signal.SIGINT in data:
            _SEEN.set()
            cpsat = sys.modules.get("solver.cpsat")  # no solver imported: nothing to stop
            if cpsat is not None:
                cpsat.stop_searches()


def ignore_interrupts() -> None:
    """Ignore SIGINT in this process (a worker's initializer: the parent stops its workers)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def is_interrupt(exc: BaseException) -> bool:
    """True for ``KeyboardInterrupt``, also as an error raised from one (click's ``Abort``, or the
    ``ImportError`` of a compiled module whose import a Ctrl-C cut short), or any error after the
    watcher saw SIGINT."""
    if _SEEN.is_set():
        return True
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__  # type: ignore[assignment]
    return False


def interrupted() -> NoReturn:
    """Print ``interrupted`` on stderr and exit 130 at once; a second Ctrl-C meanwhile is ignored.

    The command has already unwound (its ``finally`` blocks ran, its pools were stopped, ``play``
    saved its record). The exit skips the interpreter's teardown, which after a solver run
    takes over a second on a busy machine: the output is flushed and any child process left
    is killed first.
    """
    from cli.common import error

    ignore_interrupts()
    error("interrupted")
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    children = sys.modules.get("multiprocessing")
    if children is not None:
        for child in children.active_children():
            child.kill()
    os._exit(EXIT_INTERRUPTED)
