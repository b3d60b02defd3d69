"""Files a command writes (every failure is one line naming the file, exit 2), and the puzzle stream on stdin."""

from __future__ import annotations

import io
import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

from cli.common import bad_input
from solver.errors import ShanghaiError
from solver.inputs import ENV, InputError, Limits, limits, too_large
from solver.puzzles import Puzzle, from_data, loads

__all__ = ["write_output", "make_folder", "stream_puzzles", "STREAM_SEPARATOR", "CHECK_KEYS", "Item", "wrong_kind"]


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

Item = tuple[str, Puzzle | str]
"""A puzzle of a stream with its name, or the one-line reason it is bad."""


class _Lines:
    """The lines of a binary stream, each read with a cap (``readline(cap + 1)``: a stream without
    line breaks, ``/dev/zero``, is never read whole), counted against the cap of the whole stream."""

    def __init__(self, stream: BinaryIO, source: str, caps: Limits) -> None:
        self.stream = stream
        self.source = source
        self.caps = caps
        self.read = 0
        self.number = 0

    def __iter__(self) -> Iterator[tuple[int, str]]:
        caps = self.caps
        while True:
            raw = self.stream.readline(caps.puzzle_bytes + 1)
            if not raw:
                return
            self.number += 1
            self.read += len(raw)
            if self.read > caps.stdin_bytes:
                raise too_large(self.source, "stdin", caps.stdin_bytes, ENV["stdin_bytes"])
            if len(raw) > caps.puzzle_bytes:
                where = f"{self.source}: line {self.number}"
                raise too_large(where, "a puzzle", caps.puzzle_bytes, ENV["puzzle_bytes"])
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{self.source}: line {self.number}: cannot read: not UTF-8 text") from None
            if self.number == 1:
                text = text.removeprefix("\ufeff")
            yield self.number, text


class _Named:
    """Names the chunks of a stream: ``<stdin>`` when there is one, ``<stdin>:K`` when there are
    several (the first waits, unparsed, until the second shows); at most ``caps.stream_puzzles``."""

    def __init__(self, source: str, caps: Limits, parse: Callable[[str, str], Puzzle | str]) -> None:
        self.source = source
        self.caps = caps
        self.parse = parse
        self.first: tuple[int, str] | None = None
        self.count = 0

    def add(self, key: int, text: str) -> Iterator[Item]:
        self.count += 1
        if self.count > self.caps.stream_puzzles:
            limit = self.caps.stream_puzzles
            raise InputError(
                f"{self.source}: more than {limit} puzzles, the cap of a stream ({ENV['stream_puzzles']} raises it)"
            )
        if self.count == 1:
            self.first = (key, text)
            return
        if self.first is not None:
            k, first = self.first
            self.first = None
            yield self._item(f"{self.source}:{k}", first)
        yield self._item(f"{self.source}:{key}", text)

    def name(self, key: int) -> str:
        """The name a chunk numbered ``key`` has so far (for an error before it is whole)."""
        return self.source if self.count == 0 else f"{self.source}:{key}"

    def end(self) -> Iterator[Item]:
        if self.first is not None:
            yield self._item(self.source, self.first[1])
        elif self.count == 0:
            yield self.source, f"{self.source}: no puzzle: the stream is empty (or holds only blank lines and ---)"

    def _item(self, name: str, text: str) -> Item:
        return name, self.parse(text, name)


def stream_puzzles(stream: BinaryIO | str, source: str = "<stdin>", caps: Limits | None = None) -> Iterator[Item]:
    """The puzzles of a stream (what ``solve -`` and ``check -`` read), each with its name, or the
    one-line reason it is bad (the others are kept); read a line at a time, each input bounded.

    Two forms: JSON lines (the first character that is not blank is ``{``): one puzzle per line,
    an object with a puzzle file's tables (``game``, ``title``, ``rules``, ``position``,
    ``answer``, ``meta``), as ``generate --json`` prints them (its ``file`` is ignored, and so
    are ``check --json``'s ``puzzle`` and ``valid``), or one object over several lines;
    otherwise TOML: one puzzle file, or several separated by lines ``---`` (as ``generate``
    prints them; an empty section is skipped). A single puzzle is named ``<stdin>``, several
    ``<stdin>:1``, ``<stdin>:2`` ... (JSON lines: the line number).

    The caps (:mod:`solver.inputs`): a puzzle (a TOML section, a JSON line or object) of at most
    ``SHANGHAI_MAX_BYTES``, the stream of at most ``SHANGHAI_MAX_STDIN_BYTES`` and
    ``SHANGHAI_MAX_PUZZLES`` puzzles. Past one, :class:`~solver.inputs.InputError` is raised
    (the puzzles before it have been yielded) and nothing more is read.
    """
    caps = caps or limits()
    binary: BinaryIO = io.BytesIO(stream.encode("utf-8")) if isinstance(stream, str) else stream
    lines = iter(_Lines(binary, source, caps))
    first: tuple[int, str] | None = None
    skipped: list[tuple[int, str]] = []
    for number, text in lines:
        if text.strip():
            first = (number, text)
            break
        skipped.append((number, text))
    if first is not None and first[1].lstrip().startswith("{"):
        yield from _json_stream(first, lines, source, caps)
    else:
        yield from _toml_stream(skipped + ([first] if first else []), lines, source, caps)


def _toml_stream(
    head: list[tuple[int, str]], lines: Iterator[tuple[int, str]], source: str, caps: Limits
) -> Iterator[Item]:
    """TOML sections separated by lines ``---``, each at most ``caps.puzzle_bytes``."""
    named = _Named(source, caps, _toml_puzzle)
    part: list[str] = []
    size = 0
    sections = 0
    for _, text in itertools.chain(head, lines):
        if text.strip() == STREAM_SEPARATOR:
            if "".join(part).strip():
                sections += 1
                yield from named.add(sections, "".join(part))
            part, size = [], 0
            continue
        part.append(text)
        size += len(text.encode("utf-8"))
        if size > caps.puzzle_bytes:
            raise too_large(named.name(sections + 1), "a puzzle", caps.puzzle_bytes, ENV["puzzle_bytes"])
    if "".join(part).strip():
        sections += 1
        yield from named.add(sections, "".join(part))
    yield from named.end()


def _json_stream(first: tuple[int, str], lines: Iterator[tuple[int, str]], source: str, caps: Limits) -> Iterator[Item]:
    """JSON lines, or one object over several lines (tried first, while the stream is within one
    puzzle's cap: beyond it, it is JSON lines)."""
    gathered = [first]
    size = len(first[1].encode("utf-8"))
    whole = True
    for number, text in lines:
        gathered.append((number, text))
        size += len(text.encode("utf-8"))
        if size > caps.puzzle_bytes:
            whole = False
            break
    if whole and len([t for _, t in gathered if t.strip()]) > 1:
        text = "".join(t for _, t in gathered)
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            data = None
        if isinstance(data, dict):
            yield source, _json_puzzle(text, source)
            return
    if not whole and _json_error(first[1]) is not None:  # an object over several lines, past the cap
        raise too_large(source, "a puzzle", caps.puzzle_bytes, ENV["puzzle_bytes"])
    named = _Named(source, caps, _json_puzzle)
    for number, text in itertools.chain(gathered, lines):
        if text.strip():
            yield from named.add(number, text)
    yield from named.end()


def _json_error(line: str) -> str | None:
    """Why ``line`` is not JSON (None when it is)."""
    try:
        json.loads(line)
    except (ValueError, RecursionError) as exc:
        return str(exc) or "nested too deeply"
    return None


def _toml_puzzle(text: str, name: str) -> Puzzle | str:
    try:
        return loads(text, name)
    except ShanghaiError as exc:
        return str(exc)


CHECK_KEYS = ("file", "puzzle", "valid")
"""Keys of ``generate --json`` and ``check --json`` lines that are not a puzzle's: a stream ignores them."""


def _json_puzzle(line: str, name: str) -> Puzzle | str:
    try:
        data = json.loads(line)
    except RecursionError:
        return f"{name}: not valid JSON: arrays or objects nested too deeply"
    except json.JSONDecodeError as exc:
        return f"{name}: not valid JSON: {exc}"
    if not isinstance(data, dict):
        return f"{name}: a puzzle is a JSON object"
    if data.get("valid") is False:
        why = data.get("error") if isinstance(data.get("error"), str) else "invalid"
        return f"{name}: check --json found no puzzle here: {why}"
    for key in CHECK_KEYS:
        data.pop(key, None)
    try:
        return from_data(data, name)
    except ShanghaiError as exc:
        return str(exc)


def wrong_kind(path: Path) -> str | None:
    """For ``hint``: the complaint naming the right command when ``path`` holds the other kind of
    file (a puzzle as JSON, a game record named ``.toml``); None when it looks right or is unreadable
    (the reader says why)."""
    from cli.records import read_record

    try:
        head = read_record(path) if path.is_file() else ""
    except ShanghaiError:
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
