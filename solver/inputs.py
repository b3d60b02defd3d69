"""Bounded input: every puzzle file, game record and stream is read with a size cap, files only
when they are regular files.

A file is opened without blocking (``O_NONBLOCK``, so a FIFO with no writer does not hang the
open) and looked at (``fstat``) before a byte is read: a FIFO, a device, a socket or a folder is
refused in one line. A regular file is read up to its cap plus one byte, so a file that grows
while it is read is still refused, never read whole.

The caps, each raised (or lowered) by an environment variable of a whole number of bytes:

=============================  =========================================  =================
variable                       what it bounds                             default
=============================  =========================================  =================
``SHANGHAI_MAX_BYTES``         one puzzle: a puzzle file, or one puzzle   1 MiB (1048576)
                               of a stream on stdin
``SHANGHAI_MAX_STDIN_BYTES``   the whole of stdin (``solve -``)           64 MiB
``SHANGHAI_MAX_PUZZLES``       the puzzles of one stream                  10000
``SHANGHAI_MAX_RECORD_BYTES``  a game record file                         16 MiB
=============================  =========================================  =================

>>> Limits().puzzle_bytes
1048576
>>> limits({"SHANGHAI_MAX_BYTES": "4096"}).puzzle_bytes
4096
>>> limits({"SHANGHAI_MAX_PUZZLES": "many"})
Traceback (most recent call last):
...
solver.inputs.InputError: SHANGHAI_MAX_PUZZLES must be a whole number, 1 or more, not 'many'
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from solver.errors import PuzzleError

__all__ = ["InputError", "Limits", "limits", "ENV", "read_file", "file_kind", "size_words", "too_large"]


class InputError(PuzzleError):
    """An input that is not read: too large, too many puzzles, or not a regular file (the message names it)."""


ENV: dict[str, str] = {
    "puzzle_bytes": "SHANGHAI_MAX_BYTES",
    "stdin_bytes": "SHANGHAI_MAX_STDIN_BYTES",
    "stream_puzzles": "SHANGHAI_MAX_PUZZLES",
    "record_bytes": "SHANGHAI_MAX_RECORD_BYTES",
}
"""The environment variable that sets each cap of :class:`Limits`."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The input caps: bytes of one puzzle, of stdin, of a game record, and puzzles per stream."""

    puzzle_bytes: int = 1 << 20
    stdin_bytes: int = 64 << 20
    stream_puzzles: int = 10_000
    record_bytes: int = 16 << 20


def limits(environ: Mapping[str, str] | None = None) -> Limits:
    """The caps, from the environment (``os.environ`` by default); a bad value is an :class:`InputError`."""
    env = os.environ if environ is None else environ
    values: dict[str, int] = {}
    for field, name in ENV.items():
        raw = env.get(name)
        if raw is None or not raw.strip():
            continue
        text = raw.strip().replace("_", "")
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            noun = "number" if field == "stream_puzzles" else "number of bytes"
            raise InputError(f"{name} must be a whole {noun}, 1 or more, not {raw[:40]!r}")
        values[field] = int(text)
    return Limits(**values)


_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO",
    stat.S_IFSOCK: "a socket",
    stat.S_IFDIR: "a folder",
}


def file_kind(mode: int) -> str:
    """What a file that is not a regular file is, in words (``a FIFO``, ``a folder`` ...)."""
    return _KINDS.get(stat.S_IFMT(mode), "not a regular file")


def size_words(n: int) -> str:
    """A cap in words: ``1 MiB``, ``64 KiB``, ``1000 bytes``."""
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if n >= 1 << shift and n % (1 << shift) == 0:
            return f"{n >> shift} {unit}"
    return f"{n} bytes"


def read_file(path: str | Path, cap: int, what: str, variable: str) -> str:
    """The UTF-8 text of the regular file ``path``, at most ``cap`` bytes (a byte order mark is dropped).

    ``what`` names the kind of file in messages (``a puzzle``), ``variable`` the environment
    variable that raises the cap. Anything else is an :class:`InputError` naming the file: not a
    regular file (checked before reading, without blocking on a FIFO), larger than ``cap``,
    unreadable, or not UTF-8.
    """
    p = Path(path)
    try:
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket, or a FIFO opened for writing only
            raise InputError(f"{p}: is not a regular file; {what} is read only from a regular file") from None
        reason = "is a folder" if isinstance(exc, IsADirectoryError) else f"cannot read: {exc.strerror or exc}"
        raise InputError(f"{p}: {reason}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{p}: is {file_kind(info.st_mode)}; {what} is read only from a regular file")
        if info.st_size > cap:
            raise too_large(p, what, cap, variable)
        os.set_blocking(fd, True)
        chunks: list[bytes] = []
        size = 0
        while size <= cap:
            chunk = os.read(fd, min(1 << 20, cap + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > cap:
            raise too_large(p, what, cap, variable)
    except OSError as exc:
        raise InputError(f"{p}: cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise InputError(f"{p}: cannot read: not UTF-8 text") from None


def too_large(name: str | Path, what: str, cap: int, variable: str) -> InputError:
    """The error for an input past its cap: it names the input, the cap and the variable that raises it."""
    return InputError(f"{name}: larger than {size_words(cap)}, the cap of {what} ({variable} raises it)")
