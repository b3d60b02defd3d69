"""A Python client for the JSON-lines engine, as python-chess drives UCI engines.

The client starts ``shanghai engine`` as a subprocess (or, with
``in_process=True``, answers from an :class:`EngineServer` in this process)
and offers blocking calls with typed results::

    >>> with Client(in_process=True) as engine:
    ...     gid = engine.new_game("zsy", players=4, seed=3)
    ...     status = engine.apply(gid, engine.legal(gid)[0])
    ...     status.to_move
    1
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from solver.engine.base import GameRecord
from solver.engine.protocol import EngineServer
from solver.errors import ShanghaiError

__all__ = ["Client", "EngineError", "Status", "AiMove", "Hint"]


class EngineError(ShanghaiError):
    """An error reply from the engine; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code


@dataclass(frozen=True, slots=True)
class Status:
    """A game's state after an action."""

    to_move: int
    terminal: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    actions: int


@dataclass(frozen=True, slots=True)
class AiMove:
    """The action an AI player chose, with its reason, and the status if it was applied."""

    player: int
    action: str
    reason: str = ""
    status: Status | None = None


@dataclass(frozen=True, slots=True)
class Hint:
    """The best action for the player to move and why."""

    player: int
    action: str
    reason: str
    facts: dict[str, Any] = field(default_factory=dict)


def _status(data: Mapping[str, Any]) -> Status:
    return Status(
        int(data["to_move"]),
        bool(data["terminal"]),
        tuple(data["scores"]),
        tuple(data["winners"]),
        int(data["actions"]),
    )


class Client:
    """Blocking calls to an engine; use as a context manager."""

    def __init__(self, *, in_process: bool = False, command: Sequence[str] | None = None) -> None:
        self.in_process = in_process
        self.command = list(command) if command else [sys.executable, "-m", "cli", "engine"]
        self._server: EngineServer | None = None
        self._proc: subprocess.Popen[str] | None = None
        self._next_id = 0

    def __enter__(self) -> Client:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def start(self) -> None:
        """Start the engine (a subprocess, or an in-process server)."""
        if self.in_process:
            self._server = EngineServer()
        else:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )

    def close(self) -> None:
        """Stop the engine."""
        if self._proc is not None:
            with contextlib.suppress(EngineError, OSError, BrokenPipeError):
                self.request("quit")
            self._proc.wait(timeout=10)
            self._proc = None
        self._server = None

    def send_line(self, line: str) -> str:
        """Send one raw line, return the raw reply (for testing the protocol itself)."""
        if self._server is not None:
            return self._server.handle_line(line) or ""
        if self._proc is None or self._proc.stdin is None or self._proc.stdout is None:
            raise EngineError("closed", "the engine is not running")
        self._proc.stdin.write(line + "\n")
        self._proc.stdin.flush()
        reply = self._proc.stdout.readline()
        if not reply:
            raise EngineError("closed", "the engine stopped")
        return reply

    def request(self, cmd: str, **fields: Any) -> dict[str, Any]:
        """Send a command and return its result (``EngineError`` on an error reply)."""
        self._next_id += 1
        rid = self._next_id
        reply = json.loads(self.send_line(json.dumps({"id": rid, "cmd": cmd, **fields})))
        if "error" in reply:
            raise EngineError(reply["error"]["code"], reply["error"]["message"])
        result: dict[str, Any] = reply["result"]
        return result

    # --- typed calls ------------------------------------------------------------------

    def new_game(
        self,
        game: str,
        *,
        rules: Mapping[str, Any] | None = None,
        players: int = 4,
        seed: int = 0,
        options: Mapping[str, Any] | None = None,
    ) -> str:
        """Start a game; returns its id."""
        result = self.request(
            "new_game", game=game, rules=dict(rules or {}), players=players, seed=seed, options=dict(options or {})
        )
        return str(result["game_id"])

    def legal(self, game_id: str) -> list[str]:
        """The legal actions of the player to move, as text."""
        return list(self.request("legal", game_id=game_id)["actions"])

    def apply(self, game_id: str, action: str) -> Status:
        """Apply an action for the player to move."""
        return _status(self.request("apply", game_id=game_id, action=action))

    def observe(self, game_id: str, player: int) -> dict[str, Any]:
        """What ``player`` sees."""
        return self.request("observe", game_id=game_id, player=player)

    def ai_move(
        self, game_id: str, ai: str = "solver", *, time_limit: float | None = None, apply: bool = False
    ) -> AiMove:
        """The action the named AI would take now (and apply it when asked)."""
        fields: dict[str, Any] = {"game_id": game_id, "ai": ai, "apply": apply}
        if time_limit is not None:
            fields["time_limit"] = time_limit
        r = self.request("ai_move", **fields)
        return AiMove(int(r["player"]), str(r["action"]), str(r.get("reason", "")), _status(r) if apply else None)

    def hint(self, game_id: str | None = None, *, puzzle: Mapping[str, Any] | None = None) -> Hint:
        """A hint for a game's player to move, or for a puzzle position."""
        fields: dict[str, Any] = {"game_id": game_id} if game_id is not None else {"puzzle": dict(puzzle or {})}
        r = self.request("hint", **fields)
        return Hint(int(r["player"]), str(r["action"]), str(r["reason"]), dict(r.get("facts", {})))

    def solve(self, puzzle: Mapping[str, Any], *, time_limit: float = 10.0, objective: str = "cards") -> dict[str, Any]:
        """Solve a puzzle position (the fields of a puzzle file, as a dict)."""
        return self.request("solve", puzzle=dict(puzzle), time_limit=time_limit, objective=objective)

    def record(self, game_id: str) -> GameRecord:
        """The game's record."""
        return GameRecord.from_json(json.dumps(self.request("record", game_id=game_id)))
