"""Files a command writes: every failure is one line naming the file, exit 2 (never an internal error)."""

from __future__ import annotations

from pathlib import Path

from cli.common import bad_input

__all__ = ["write_output", "make_folder"]


def _reason(exc: OSError) -> str:
    if isinstance(exc, IsADirectoryError):
        return "is a folder"
    return exc.strerror or type(exc).__name__


def write_output(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path``; a failure (a folder, a read-only or full disk, /proc) exits 2 in one line."""
    try:
        path.write_bytes(data)
    except OSError as exc:
        bad_input(f"{path}: cannot write: {_reason(exc)}")


def make_folder(path: Path) -> None:
    """Create the folder ``path`` (and its parents) if missing; a failure exits 2 in one line."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        bad_input(f"{path}: cannot make the folder: {_reason(exc)}")
