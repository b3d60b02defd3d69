"""``play --save`` and ``play --load``: game records on disk, written safely.

``--save PATH`` writes the record after every action. It writes only regular
files: a device, a FIFO or a folder is refused (``--force`` too: a record is
a file). An existing file that is not a game record, or a symbolic link, is
refused unless ``--force``, and so is a record of another game: then the file is replaced, and a link is written
through (its target must be a regular file or not exist yet). The record is
written to a temporary file in the same folder and renamed over the target,
so a crash never leaves half a record, only where the target is a regular
file holding a record (or does not exist yet); otherwise (``--force`` on
another file, or through a link) the file is rewritten in place, so the link
stays a link and the file keeps its inode.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from solver.errors import PuzzleError, ShanghaiError
from solver.inputs import ENV, file_kind, limits, read_file

__all__ = ["RecordFile", "load_game", "read_record"]


def read_record(path: Path) -> str:
    """The text of the game record file ``path``: a regular file of at most ``SHANGHAI_MAX_RECORD_BYTES``
    (16 MiB), else one line naming the problem (:func:`solver.inputs.read_file`)."""
    return read_file(path, limits().record_bytes, "a game record", ENV["record_bytes"])


def _record_game(path: Path) -> str | None:
    """The game of the record in the regular file ``path``; None when it holds no game record."""
    from solver.engine import load_record

    try:
        return load_record(read_record(path), str(path)).game
    except ShanghaiError:
        return None


def _is_record(path: Path) -> bool:
    """True if the regular file ``path`` holds a game record (so replacing it loses nothing else)."""
    return _record_game(path) is not None


class RecordFile:
    """Where ``--save`` writes; :meth:`check` says why it may not (``PuzzleError``), :meth:`write` writes."""

    def __init__(self, path: Path, force: bool = False, game: str | None = None) -> None:
        self.path = path
        self.force = force
        self.game = game  # the game written: a record of another game is replaced only with --force
        self.mine = False  # set once this run has written the file: it is a record now

    def check(self) -> None:
        """Raise ``PuzzleError`` (one line naming the problem) if the record may not be written here."""
        where = f"--save {self.path}"
        try:
            link = os.lstat(self.path)
        except FileNotFoundError:
            link = None
        except OSError as exc:
            raise PuzzleError(f"{where}: cannot use: {exc.strerror}") from None
        if link is not None and stat.S_ISLNK(link.st_mode) and not self.force:
            raise PuzzleError(f"{where}: is a symbolic link; --force writes through it")
        try:
            target = os.stat(self.path)
        except FileNotFoundError:
            target = None
        except OSError as exc:
            raise PuzzleError(f"{where}: cannot use: {exc.strerror}") from None
        if target is not None and not stat.S_ISREG(target.st_mode):
            kind = file_kind(target.st_mode)
            raise PuzzleError(f"{where}: is {kind}; a game record is written only to a regular file")
        parent = self.path.resolve().parent
        if not parent.is_dir():
            raise PuzzleError(f"{where}: the folder {self.path.parent} does not exist")
        if target is not None and not self.force and not self.mine:
            game = _record_game(self.path)
            if game is None:
                raise PuzzleError(f"{where}: exists and is not a game record; --force replaces it")
            if self.game is not None and game != self.game:
                raise PuzzleError(f"{where}: holds a record of a {game} game, not {self.game}; --force replaces it")

    def _atomic(self) -> bool:
        """True if the record may be renamed over the target (a regular file holding a record, or none)."""
        if self.path.is_symlink():
            return False
        if not self.path.exists():
            return True
        return self.mine or _is_record(self.path)

    def write(self, text: str) -> None:
        """Write the record (``PuzzleError`` if the target became unsafe or the write failed)."""
        self.check()
        try:
            if self._atomic():
                self._replace(text)
            else:
                with open(self.path, "w", encoding="utf-8") as file:
                    file.write(text)
        except OSError as exc:
            raise PuzzleError(f"--save {self.path}: cannot write: {exc.strerror or exc}") from None
        self.mine = True

    def _replace(self, text: str) -> None:
        """Write a temporary file beside the target and rename it over the target."""
        try:
            mode = stat.S_IMODE(os.stat(self.path).st_mode)
        except FileNotFoundError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
            os.chmod(tmp, mode)
            os.replace(tmp, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def load_game(path: Path) -> tuple[Any, Any]:
    """The game record at ``path`` and the game replayed to its end (``ShanghaiError`` naming the problem)."""
    from solver.engine import load_record, replay

    record = load_record(read_record(path), str(path))
    try:
        return record, replay(record)
    except ShanghaiError as exc:  # the rules, the seats or an action: named with the file
        raise PuzzleError(f"{path}: {exc}") from None
