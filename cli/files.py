"""Files a command writes (every failure is one line naming the file, exit 2), and the puzzle stream on stdin."""

from __future__ import annotations

import json
from pathlib import Path

from cli.common import bad_input
from solver.errors import ShanghaiError
from solver.puzzles import Puzzle, from_data, loads

__all__ = ["write_output", "make_folder", "stream_puzzles", "STREAM_SEPARATOR", "wrong_kind"]


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


STREAM_SEPARATOR = "---"
"""The line between two TOML puzzles in a stream (``generate`` prints it; ``solve -`` splits at it)."""


def stream_puzzles(text: str, source: str = "<stdin>") -> list[tuple[str, Puzzle | str]]:
    """The puzzles of a stream (what ``solve -`` and ``check -`` read), each with its name, or the
    one-line reason it is bad (the others are kept).

    Two forms: JSON lines (the first character that is not blank is ``{``): one puzzle per line,
    an object with a puzzle file's tables (``game``, ``title``, ``rules``, ``position``,
    ``answer``, ``meta``), as ``generate --json`` prints them (its ``file`` is ignored);
    otherwise TOML: one puzzle file, or several separated by lines ``---`` (as ``generate``
    prints them). A single puzzle is named ``<stdin>``, several ``<stdin>:1``, ``<stdin>:2`` ...
    """
    text = text.removeprefix("\ufeff")
    if text.lstrip().startswith("{"):
        if "\n" in text.strip():  # one JSON object over several lines, or JSON lines
            try:
                whole = json.loads(text)
            except (ValueError, RecursionError):
                whole = None
            if isinstance(whole, dict):
                return [(source, _json_puzzle(text, source))]
        chunks = [(n, line) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        many = len(chunks) > 1
        names = [(f"{source}:{n}" if many else source, line) for n, line in chunks]
        return [(name, _json_puzzle(line, name)) for name, line in names]
    parts = _toml_parts(text)
    many = len(parts) > 1
    named = [(f"{source}:{k}" if many else source, part) for k, part in enumerate(parts, 1)]
    return [(name, _toml_puzzle(part, name)) for name, part in named]


def _toml_parts(text: str) -> list[str]:
    """The TOML documents of a stream: split at lines ``---`` (blank parts dropped, one at least)."""
    parts: list[list[str]] = [[]]
    for line in text.splitlines(keepends=True):
        if line.strip() == STREAM_SEPARATOR:
            parts.append([])
        else:
            parts[-1].append(line)
    texts = ["".join(p) for p in parts]
    return [t for t in texts if t.strip()] or [text]


def _toml_puzzle(text: str, name: str) -> Puzzle | str:
    try:
        return loads(text, name)
    except ShanghaiError as exc:
        return str(exc)


def _json_puzzle(line: str, name: str) -> Puzzle | str:
    try:
        data = json.loads(line)
    except RecursionError:
        return f"{name}: not valid JSON: arrays or objects nested too deeply"
    except json.JSONDecodeError as exc:
        return f"{name}: not valid JSON: {exc}"
    if not isinstance(data, dict):
        return f"{name}: a puzzle is a JSON object"
    data.pop("file", None)
    try:
        return from_data(data, name)
    except ShanghaiError as exc:
        return str(exc)


def wrong_kind(path: Path) -> str | None:
    """For ``hint``: the complaint naming the right command when ``path`` holds the other kind of
    file (a puzzle as JSON, a game record named ``.toml``); None when it looks right or is unreadable
    (the reader says why)."""
    try:
        head = path.read_text(encoding="utf-8-sig")[:1_000_000] if path.is_file() else ""
    except (OSError, UnicodeDecodeError):
        return None
    try:
        data = json.loads(head) if head.lstrip().startswith("{") else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict):
        return None
    if path.suffix == ".json" and "position" in data and "num_players" not in data:
        return (
            f"{path}: a puzzle (as JSON), not a game record; hint reads puzzles as .toml files, "
            f"and `shanghai solve - < {path}` solves this one"
        )
    if path.suffix != ".json" and "num_players" in data and "actions" in data:
        game = data.get("game") if isinstance(data.get("game"), str) else "GAME"
        return (
            f"{path}: a game record (JSON), not a puzzle file; hint reads records named .json, "
            f"and `shanghai play {game} --load {path}` resumes the game"
        )
    return None
