"""Where ``shanghai solve`` gets its puzzles: files, folders, stdin (``-``) or an inline position.

Every option that shapes a position says which games it applies to; giving
one where it does not apply is bad input (exit 2), never silently ignored.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from cli.common import error
from cli.files import stream_puzzles
from solver.errors import PuzzleError, ShanghaiError
from solver.inputs import InputError
from solver.puzzles import Puzzle, from_data, iter_puzzle_paths, load
from solver.rules import GAMES

__all__ = ["PresetName", "Inline", "Loaded", "load_paths", "parse_rule_overrides", "PRESET_NAMES", "check_applies"]

PRESET_NAMES: tuple[str, ...] = tuple(sorted({name for rules in GAMES.values() for name in rules.PRESETS}))
"""Every preset of every game (``--preset`` offers these; the game's rule set checks the pair)."""

PresetName: Any = Enum("PresetName", {n: n for n in PRESET_NAMES}, type=str)  # type: ignore[misc]
"""``--preset`` choices (``--help`` lists them)."""

STDIN = Path("-")


@dataclass(frozen=True, slots=True)
class Loaded:
    """Puzzles read from paths, and the files that could not be read (path, one-line reason)."""

    puzzles: list[Puzzle]
    bad: list[tuple[str, str]]


def load_paths(paths: Sequence[Path], *, report: bool = True) -> Loaded:
    """Load every puzzle under ``paths`` (``-`` is stdin); a bad one is reported in one line and skipped."""
    puzzles: list[Puzzle] = []
    bad: list[tuple[str, str]] = []

    def fail(name: str, message: str) -> None:
        bad.append((name, message))
        if report:
            error(message)

    if sum(path == STDIN for path in paths) > 1:
        raise PuzzleError("'-' (stdin) is given more than once: stdin is read once, give '-' once")
    for path in paths:
        if path == STDIN:
            try:
                for name, item in stream_puzzles(sys.stdin.buffer):
                    if isinstance(item, str):
                        fail(name, item)
                    else:
                        puzzles.append(item)
            except InputError as exc:  # past a cap: nothing more is read from stdin
                fail("<stdin>", str(exc))
            except OSError as exc:
                fail("<stdin>", f"<stdin>: cannot read: {exc.strerror or exc}")
            continue
        files = iter_puzzle_paths(path)
        if not files:
            fail(str(path), f"{path}: no puzzle files (*.toml) here")
        for file in files:
            try:
                puzzles.append(load(file))
            except ShanghaiError as exc:
                fail(str(file), str(exc))
    return Loaded(puzzles, bad)


def parse_rule_overrides(preset: str | None, rules: Sequence[str]) -> dict[str, Any]:
    """``--preset`` and ``--rule KEY=VALUE`` options as a ``[rules]`` table (values: true/false, integers, text)."""
    data: dict[str, Any] = {}
    if preset:
        data["preset"] = str(getattr(preset, "value", preset))
    for item in rules:
        key, eq, raw = item.partition("=")
        if not eq or not key.strip():
            raise PuzzleError(f"--rule takes KEY=VALUE, not {_clip(item)}")
        value: Any = raw.strip()
        if value.lower() in ("true", "false"):
            value = value.lower() == "true"
        elif value.lstrip("-").isdigit() and value.lstrip("-").isascii():
            value = int(value)
        elif key.strip() == "contracts" and isinstance(value, str):
            value = _contract_list(value)
        data[key.strip()] = value
    return data


def _contract_list(text: str) -> str | list[str]:
    """``--rule contracts=...``: a named list (``finnish``, ``us``), or rounds like ``set run:5``
    separated by ``;`` or ``,`` (``"set set; set run; run run"``); one round alone is a one-round list."""
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    if len(parts) == 1 and " " not in parts[0] and ":" not in parts[0] and parts[0] not in ("set", "run"):
        return parts[0]  # a list's name (the rule set names an unknown one)
    if any(not p for p in parts):
        raise PuzzleError(f"--rule contracts: an empty round in {_clip(text)}")
    return parts


def _clip(text: str) -> str:
    from solver.cards import clip

    return clip(text)


@dataclass(frozen=True, slots=True)
class Inline:
    """An inline position from the command line (``--table``, ``--hand``, ``--round`` ...)."""

    game: str
    hand: str | None = None
    table: str | None = None
    round: int | None = None
    laid_down: bool = False
    discard: str | None = None
    to_beat: str | None = None
    to_beat_kind: str | None = None
    opponent: str | None = None

    def given(self) -> bool:
        """True if any part of an inline position was given."""
        parts = (self.hand, self.table, self.round, self.discard, self.to_beat, self.to_beat_kind, self.opponent)
        return any(v is not None for v in parts) or self.laid_down

    def _meld(self, text: str) -> str | dict[str, Any]:
        """One ``--table`` meld: ``5S 6S 7S 8S``, or with its owner ``p1: 5S 6S 7S 8S`` (Contract)."""
        head, colon, rest = text.partition(":")
        if not colon or not head.strip().lower().startswith("p"):
            return text
        owner = head.strip()[1:]
        if not owner.isdigit() or not owner.isascii():
            raise PuzzleError(f"--table: a meld's owner is written p0, p1, ..., not '{_clip(head.strip())}'")
        if self.game != "contract":
            raise PuzzleError(f"--table: meld owners ({head.strip()}:) apply to contract only")
        return {"cards": rest.strip(), "owner": int(owner)}

    def puzzle(self, rules: dict[str, Any]) -> Puzzle:
        """The position as a puzzle (``PuzzleError`` naming the first problem)."""
        only = {
            "--table": (self.table is not None, ("manipulation", "contract")),
            "--round": (self.round is not None, ("contract",)),
            "--laid-down": (self.laid_down, ("contract",)),
            "--discard": (self.discard is not None, ("contract",)),
            "--to-beat": (self.to_beat is not None, ("zsy",)),
            "--to-beat-kind": (self.to_beat_kind is not None, ("zsy",)),
            "--opponent": (self.opponent is not None, ("zsy",)),
        }
        for flag, (present, games) in only.items():
            if present and self.game not in games:
                raise PuzzleError(f"{flag} does not apply to {self.game} (only {' and '.join(games)})")
        if self.hand is None:
            raise PuzzleError("an inline position needs --hand")
        position: dict[str, Any] = {"hand": self.hand}
        if self.table is not None:
            position["table"] = [self._meld(m.strip()) for m in self.table.split("|") if m.strip()]
        if self.game == "contract":
            position["round"] = self.round if self.round is not None else 1
            position["laid_down"] = self.laid_down
            if self.discard is not None:
                position["discard"] = self.discard
        if self.to_beat is not None:
            position["to_beat"] = self.to_beat
        if self.to_beat_kind is not None:
            if self.to_beat is None:
                raise PuzzleError("--to-beat-kind says the kind of --to-beat, which is missing")
            position["to_beat_kind"] = self.to_beat_kind
        if self.opponent is not None:
            position["opponent"] = self.opponent
        return from_data({"game": self.game, "rules": rules, "position": position}, "<inline>")


APPLIES: dict[str, tuple[str, ...]] = {
    "--objective": ("manipulation", "contract"),
    "--all": ("manipulation",),
}


def check_applies(flag: str, games: set[str]) -> str | None:
    """The complaint when ``flag`` applies to none of the puzzles' ``games`` (None when it applies)."""
    ok = APPLIES[flag]
    if games and not games & set(ok):
        return f"{flag} does not apply to {', '.join(sorted(games))} (only {' and '.join(ok)})"
    return None
