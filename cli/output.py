"""When stdout cannot be written: a closed pipe ends quietly, a full disk is one line.

``shanghai solve puzzles --json | head -1`` closes the pipe after one line:
the command stops at its next write and exits 141 (128 + SIGPIPE, what a
shell reports for ``yes | head -1``) with nothing on stderr. Any other
failure to write stdout (``> /dev/full``: no space left) is one line,
``error: cannot write the output: ...``, and exit 2. Either way stdout is
pointed at ``/dev/null`` first, so the interpreter's last flush stays quiet.

:func:`guard` wraps the click command's ``invoke``, below typer's own
handling (which would turn a broken pipe into exit 1 and re-raise the rest).
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
from collections.abc import Callable
from typing import Any, NoReturn

__all__ = ["EXIT_BROKEN_PIPE", "OutputFailed", "guard", "output_failed"]

EXIT_BROKEN_PIPE = 141
"""The exit code when the reader of stdout went away (128 + SIGPIPE)."""


class OutputFailed(Exception):
    """Stdout could not be written (not an ``OSError``: typer handles those itself)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(error.strerror or str(error))
        self.errno = error.errno


def _raise_broken_pipe() -> None:
    raise BrokenPipeError(errno.EPIPE, "Broken pipe")


_WRITE_ERRORS = frozenset({errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF})
"""What a failed write to a stream raises (with no file name: a named file's error is the command's)."""


def guard(command: Any) -> None:
    """Make the command's stdout write failures :class:`OutputFailed` (rich consoles included)."""
    from cli.common import out

    setattr(out, "on_broken_pipe", _raise_broken_pipe)  # noqa: B010 - rich's default exits 1 in the command
    invoke: Callable[[Any], Any] = command.invoke

    def guarded(ctx: Any) -> Any:
        try:
            return invoke(ctx)
        except OSError as exc:
            if exc.filename is None and exc.errno in _WRITE_ERRORS:
                raise OutputFailed(exc) from None
            raise

    command.invoke = guarded


def output_failed(exc: OutputFailed) -> NoReturn:
    """Exit after a stdout failure: quietly (141) for a closed pipe, else one line and exit 2."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    if exc.errno == errno.EPIPE:
        raise SystemExit(EXIT_BROKEN_PIPE)
    from cli.common import EXIT_BAD_INPUT, error

    error(f"cannot write the output: {exc}")
    raise SystemExit(EXIT_BAD_INPUT)
