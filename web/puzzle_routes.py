"""The API's puzzle routes: the rule sets' options and decks (the page's pickers), and puzzles
checked, written to TOML and read back (the page's share and upload). Split from :mod:`web.app`."""

from __future__ import annotations

import dataclasses
import typing
from functools import cache
from typing import Any, Literal

from solver.extras import missing

try:
    from fastapi import FastAPI
    from pydantic import Field
except ImportError as _exc:  # one line naming the extra, not the raw import error
    raise missing(_exc, "web") from None

from web.engine import EngineError
from web.models import Body as _Body
from web.models import GameName

__all__ = ["puzzle_routes", "rules_metadata"]


class RulesRequest(_Body):
    """A rule set: the game and its preset and options."""

    game: GameName
    rules: dict[str, Any] = Field(default_factory=dict)


class PuzzleRequest(_Body):
    """A puzzle position to check or write as TOML."""

    puzzle: dict[str, Any]


class TomlRequest(_Body):
    """The text of a puzzle file."""

    toml: str = Field(description="At most the body limit (64 KiB).")


@cache
def rules_metadata() -> dict[str, Any]:
    """Every game's presets and rule options (name, kind, values, range, default, description)."""
    from solver.rules import GAMES

    out: dict[str, Any] = {}
    for game, cls in GAMES.items():
        hints = typing.get_type_hints(cls)
        default = cls()
        options = []
        for f in dataclasses.fields(cls):
            hint = hints[f.name]
            args = [a for a in typing.get_args(hint) if a is not type(None)]
            entry: dict[str, Any] = {"name": f.name, "doc": f.metadata.get("doc", "")}
            value = default.to_dict()[f.name]
            if typing.get_origin(hint) is Literal:
                entry.update(kind="choice", values=list(typing.get_args(hint)))
            elif hint is bool:
                entry["kind"] = "bool"
            elif hint is int or (args and args[0] is int):
                entry.update(kind="int", lo=f.metadata.get("lo"), hi=f.metadata.get("hi"), optional=hint is not int)
            else:
                entry["kind"] = "text"
            entry["default"] = value
            options.append(entry)
        out[game] = {
            "default_preset": cls.DEFAULT_PRESET,
            "presets": {name: dict(values) for name, values in cls.PRESETS.items()},
            "options": options,
        }
    return out


def _puzzle_routes(app: FastAPI) -> None:
    """The rule sets' options and the decks they make, for the page's pickers."""

    @app.get("/api/rules", tags=["puzzles"])
    async def rules() -> dict[str, Any]:
        """Every game's presets and rule options, as ``shanghai rules`` lists them."""
        return rules_metadata()

    @app.post("/api/deck", tags=["puzzles"])
    async def deck(body: RulesRequest) -> dict[str, Any]:
        """A rule set in full, and its deck: how many copies of each card there are."""
        from solver.errors import ShanghaiError
        from solver.rules import rules_for

        try:
            ruleset = rules_for(body.game, body.rules)
        except ShanghaiError as exc:
            raise EngineError("bad_input", str(exc)) from None
        cards = {c.code: n for c, n in ruleset.deck.items()} if hasattr(ruleset, "deck") else {}
        extra: dict[str, Any] = {}
        if body.game == "contract":
            extra["contracts"] = [ruleset.contract_text(r) for r in range(1, ruleset.rounds + 1)]  # type: ignore[union-attr]
        return {"game": body.game, "rules": ruleset.to_dict(), "deck": cards, **extra}


def _puzzle_file_routes(app: FastAPI) -> None:
    """Puzzles checked, written to TOML and read back (the page's share and upload)."""

    @app.post("/api/check", tags=["puzzles"])
    async def check(body: PuzzleRequest) -> dict[str, Any]:
        """Parse a position with the puzzle parser: the position in canonical notation, or the error."""
        from solver.errors import ShanghaiError
        from solver.puzzles import from_data, position_dict

        try:
            puzzle = from_data(body.puzzle, "puzzle")
        except ShanghaiError as exc:
            raise EngineError("bad_input", str(exc)) from None
        return {"game": puzzle.game, "rules": puzzle.rules.changed(), "position": position_dict(puzzle.position)}

    @app.post("/api/toml", tags=["puzzles"])
    async def to_toml(body: PuzzleRequest) -> dict[str, Any]:
        """A puzzle as the text of a puzzle file (to download)."""
        from solver.errors import ShanghaiError
        from solver.puzzles import dumps, from_data

        try:
            return {"toml": dumps(from_data(body.puzzle, "puzzle"))}
        except ShanghaiError as exc:
            raise EngineError("bad_input", str(exc)) from None

    @app.post("/api/from_toml", tags=["puzzles"])
    async def from_toml(body: TomlRequest) -> dict[str, Any]:
        """The tables of a puzzle file's text (an uploaded file), checked."""
        import tomllib

        from solver.errors import ShanghaiError
        from solver.puzzles import loads

        try:
            data = tomllib.loads(body.toml)
            loads(body.toml, "upload")
        except tomllib.TOMLDecodeError as exc:
            raise EngineError("bad_input", f"not valid TOML: {exc}") from None
        except ShanghaiError as exc:
            raise EngineError("bad_input", str(exc)) from None
        return {"puzzle": data}


def puzzle_routes(app: FastAPI) -> None:
    """Add the puzzle routes to ``app``."""
    _puzzle_routes(app)
    _puzzle_file_routes(app)
