"""The JSON-lines engine protocol: one request per line in, one response per line out.

A request is a JSON object with a ``cmd`` and usually an ``id``, which the
response echoes. A response is ``{"id": ..., "result": {...}}`` or
``{"id": ..., "error": {"code": ..., "message": ...}}``. Bad input never
stops the engine: every line gets an answer and the next line is read.
``docs/protocol.md`` documents every command.

>>> server = EngineServer()
>>> server.handle_line('{"id": 1, "cmd": "new_game", "game": "zsy", "players": 4, "seed": 3}')
'{"id": 1, "result": {"game_id": "g1", "game": "zsy", "players": 4, "to_move": 0}}'
>>> server.handle_line('{"id": 2, "cmd": "dance"}')
'{"id": 2, "error": {"code": "unknown_command", "message": "unknown command \\'dance\\'"}}'
"""

from __future__ import annotations

import json
import math
import queue
import sys
import threading
import time
from collections.abc import Callable, Mapping
from typing import IO, Any

from solver.budget import BudgetError
from solver.cards import clip
from solver.cpsat import Stop, stoppable, stopped
from solver.engine import GAME_NAMES, SetupError, new_game, record_of
from solver.engine.base import Game
from solver.engine.every import EVERY
from solver.errors import IllegalActionError, ShanghaiError, SolverTimeout

__all__ = ["EngineServer", "ProtocolError", "COMMANDS", "POOLED", "STOPPABLE", "PROTOCOL_VERSION", "serve"]

POOLED = ("solve", "hint")
"""Commands that ``serve`` answers in worker processes when they need no game (``hint`` on a puzzle)."""

STOPPABLE = ("solve", "hint", "ai_move")
"""Commands that ``stop`` ends early: their reply is the answer so far, with ``"stopped": true``."""

PROTOCOL_VERSION = 2
"""The protocol's version (``version``): 2 added ``ping``, ``isready``, ``version`` and ``stop``."""

_EVERY = EVERY


def _dumps(data: dict[str, Any]) -> str:
    """Strict JSON on one line: never NaN or Infinity."""
    return json.dumps(data, ensure_ascii=False, allow_nan=False)


def _request(req: Any) -> dict[str, Any]:
    """``req`` if it is a request object with a usable id (``ProtocolError`` otherwise)."""
    if not isinstance(req, dict):
        raise ProtocolError("invalid_request", "a request is a JSON object")
    rid = req.get("id")
    if isinstance(rid, (dict, list)) or (isinstance(rid, float) and not math.isfinite(rid)):
        req.pop("id")
        raise ProtocolError("invalid_request", "id must be a string, a finite number or null")
    return req


def _no_constant(name: str) -> Any:
    raise ProtocolError("parse_error", f"not valid JSON: {name} is not a JSON number")


def _seconds(req: Mapping[str, Any], name: str, default: float | None) -> float | None:
    """A time limit field, checked by :func:`solver.budget.seconds` (``bad_value`` otherwise)."""
    from solver.budget import BudgetError, seconds

    value = _field(req, name, (int, float), default)
    if value is None:
        return None
    try:
        return seconds(value, f"field {name!r}")
    except BudgetError as exc:
        raise ProtocolError("bad_value", str(exc)) from None


class ProtocolError(Exception):
    """An error reply: a code and a one-line message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _field(req: Mapping[str, Any], name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
    if name not in req:
        if default is ...:
            raise ProtocolError("missing_field", f"missing field {name!r}")
        return default
    value = req[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
        raise ProtocolError("bad_value", f"field {name!r} must be {names}, not {json.dumps(value)[:60]}")
    return value


class EngineServer:
    """Holds the games of one session and answers requests."""

    def __init__(self) -> None:
        self.games: dict[str, Game] = {}
        self.kinds: dict[str, list[str]] = {}
        self.counter = 0
        self.done = False
        self.handlers: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
            "solve": self.cmd_solve,
            "hint": self.cmd_hint,
            "new_game": self.cmd_new_game,
            "legal": self.cmd_legal,
            "apply": self.cmd_apply,
            "observe": self.cmd_observe,
            "ai_move": self.cmd_ai_move,
            "record": self.cmd_record,
            "close": self.cmd_close,
            "ping": self.cmd_ping,
            "isready": self.cmd_isready,
            "version": self.cmd_version,
            "stop": self.cmd_stop,
            "quit": self.cmd_quit,
        }

    # --- the loop ------------------------------------------------------------------

    def handle_line(self, line: str) -> str | None:
        """The response line for one request line (None for a blank line)."""
        if not line.strip():
            return None
        rid: Any = None
        try:
            req = self.parse_line(line)
            rid = req.get("id")
            return self.answer(req)
        except ProtocolError as exc:
            return _dumps({"id": rid, "error": {"code": exc.code, "message": exc.message}})

    @staticmethod
    def parse_line(line: str) -> dict[str, Any]:
        """The request object of a line (``ProtocolError`` for a line that is not one)."""
        try:
            req = json.loads(line, parse_constant=_no_constant)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise ProtocolError("parse_error", f"not valid JSON: {exc}") from None
        return _request(req)

    def handle(self, req: Any) -> dict[str, Any]:
        """The reply object to a decoded request (dict in, dict out; never raises).

        The HTTP API (``web``) calls this, so both front ends share one engine.
        """
        try:
            return self.respond(_request(req))
        except ProtocolError as exc:  # not an object, or a bad id (which _request has removed)
            rid = req.get("id") if isinstance(req, dict) else None
            return {"id": rid, "error": {"code": exc.code, "message": exc.message}}

    def answer(self, req: Mapping[str, Any]) -> str:
        """The response line to a parsed request (every error becomes an error reply)."""
        return _dumps(self.respond(req))

    def respond(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """The reply object to a parsed request: ``{"id", "result"}`` or ``{"id", "error"}``."""
        rid = req.get("id")
        try:
            cmd = _field(req, "cmd", str)
            if cmd not in self.handlers:
                raise ProtocolError("unknown_command", f"unknown command {clip(cmd)}")
            result = self.handlers[cmd](req)
            if cmd in STOPPABLE and stopped():  # the engine's stop came: the answer so far
                result["stopped"] = True
            return {"id": rid, "result": result}
        except ProtocolError as exc:
            code, message = exc.code, exc.message
        except (SetupError, BudgetError) as exc:
            code, message = "bad_value", str(exc)
        except SolverTimeout as exc:  # the time limit was too short for any answer: not a bug
            code, message = "timeout", f"no answer within the time limit: {exc}"
        except IllegalActionError as exc:
            code, message = "illegal_action", str(exc)
        except ShanghaiError as exc:
            code, message = "bad_input", str(exc)
        except Exception as exc:
            code, message = "internal_error", f"{type(exc).__name__}: {exc}"
        return {"id": rid, "error": {"code": code, "message": message}}

    def pooled(self, req: Mapping[str, Any]) -> float | None:
        """The time limit of a request ``serve`` runs in a worker (None for one it answers itself)."""
        if req.get("cmd") not in POOLED or "game_id" in req:
            return None
        try:
            return _seconds(req, "time_limit", 10.0)
        except ProtocolError:
            return None  # answered at once, with the error

    def serve(
        self, stdin: IO[str], stdout: IO[str], workers: int = 2, target: Callable[[dict[str, Any]], str] | None = None
    ) -> None:
        """Answer lines until ``quit`` or the end of input.

        ``solve`` and ``hint`` on a puzzle run in worker processes (:mod:`solver.engine.workers`):
        their replies come when ready, possibly after replies to later lines (the ``id`` matches
        them up), and each is stopped at its hard limit. Every other request is answered in order,
        by one thread, while this one goes on reading: ``ping`` is answered at once, and ``stop``
        ends the running (and already queued) requests, which then reply with the answer so far.
        ``workers=0`` answers everything in order in this process; ``target`` replaces the handler
        the workers run (a module-level function; tests give a slow one).
        """
        from solver.engine.workers import SolvePool

        lock = threading.Lock()

        def write(reply: str) -> None:
            with lock:
                stdout.write(reply + "\n")
                stdout.flush()

        pool = None
        if workers > 0:
            pool = SolvePool(write, workers, answer_request if target is None else target)
        runner = _Runner(write)
        try:
            for line in stdin:
                if not line.strip():
                    continue
                try:
                    req = self.parse_line(line)
                except ProtocolError as exc:
                    reply = _dumps({"id": None, "error": {"code": exc.code, "message": exc.message}})
                    runner.put(None, lambda reply=reply: reply)  # type: ignore[misc]
                    continue
                cmd = req.get("cmd")
                if cmd == "ping":  # at once, even while a request runs
                    write(self.answer(req))
                    continue
                if cmd == "stop":
                    write(self._stop(req, runner, pool))
                    continue
                limit = self.pooled(req) if pool is not None else None
                if pool is not None and limit is not None:
                    pool.submit(req.get("id"), req, limit)
                    continue
                if cmd == "quit":
                    runner.drain()  # every earlier reply first
                    if pool is not None:
                        pool.close()  # answer every pending solve before saying bye
                    write(self.answer(req))
                    if self.done:
                        return
                    continue
                runner.put(req.get("id"), lambda req=req: self.answer(req), cmd in STOPPABLE)  # type: ignore[misc]
        except KeyboardInterrupt:  # Ctrl-C: stop now; the workers are killed, pending requests dropped
            runner.stop(_EVERY)
            if pool is not None:
                pool.kill()
                pool = None
            raise
        except BaseException:  # a broken stdin: stop what runs, so closing does not wait for it
            runner.stop(_EVERY)
            if pool is not None:
                pool.stop(_EVERY)
            raise
        finally:
            runner.close()
            if pool is not None:
                pool.close()

    def _stop(self, req: Mapping[str, Any], runner: _Runner, pool: Any) -> str:
        """The reply to ``stop``: the ids of the requests asked to stop (their replies follow)."""
        rid = req.get("id")
        which: Any = req.get("target", _EVERY)
        ids = runner.stop(which) + (pool.stop(which) if pool is not None else [])
        return _dumps({"id": rid, "result": {"stopped": ids}})

    # --- commands --------------------------------------------------------------------

    def _game(self, req: Mapping[str, Any]) -> tuple[str, Game]:
        gid = _field(req, "game_id", str)
        if gid not in self.games:
            raise ProtocolError("unknown_game", f"no game {gid!r}")
        return gid, self.games[gid]

    def _puzzle(self, req: Mapping[str, Any]) -> Any:
        from solver.puzzles import from_data

        return from_data(_field(req, "puzzle", dict), "<request>")

    def cmd_solve(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Solve a puzzle position given inline (the fields of a puzzle file)."""
        from solver.answers import SolveOptions, solve_puzzle

        puzzle = self._puzzle(req)
        objective = _field(req, "objective", str, "cards")
        if objective not in ("cards", "value"):
            raise ProtocolError("bad_value", "objective must be 'cards' or 'value'")
        opts = SolveOptions(
            objective=objective,
            time_limit=_seconds(req, "time_limit", 10.0) or 10.0,
            all_plays=bool(_field(req, "all", bool, False)),
        )
        start = time.perf_counter()
        answer = solve_puzzle(puzzle, opts)
        result = {"game": puzzle.game, **answer.data, "seconds": round(time.perf_counter() - start, 6)}
        if puzzle.answer:
            result["check"] = "mismatch" if answer.mismatch else "ok"
            if answer.mismatch:
                result["mismatch"] = answer.mismatch
        return result

    def cmd_hint(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """The best action for the player to move in a game, or in a puzzle position."""
        from solver.engine.hints import hint_for_game, hint_for_puzzle

        if "game_id" in req:
            _, game = self._game(req)
            if game.is_terminal():
                raise ProtocolError("game_over", "the game is over")
            d = hint_for_game(game)
            player = game.current_player()
        else:
            d = hint_for_puzzle(self._puzzle(req), _seconds(req, "time_limit", 10.0) or 10.0)
            player = 0
        return {"player": player, "action": str(d.action), "reason": d.reason, "facts": d.facts}

    def cmd_new_game(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Start a seeded game; returns its id."""
        game_name = _field(req, "game", str)
        if game_name not in GAME_NAMES:
            raise ProtocolError("bad_value", f"unknown game {clip(game_name)} (known: {', '.join(GAME_NAMES)})")
        rules = _field(req, "rules", dict, {})
        players = _field(req, "players", int, 4)
        seed = _field(req, "seed", int, 0)
        options = _field(req, "options", dict, {})
        game = new_game(game_name, rules, players, seed, options=options)
        self.counter += 1
        gid = f"g{self.counter}"
        self.games[gid] = game
        return {"game_id": gid, "game": game_name, "players": players, "to_move": game.current_player()}

    def cmd_legal(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """The legal actions of the player to move (as text)."""
        _, game = self._game(req)
        player = _field(req, "player", int, game.current_player())
        if player != game.current_player() and not 0 <= player < game.num_players:
            raise ProtocolError("bad_value", f"player must be 0-{game.num_players - 1}, not {player}")
        if player != game.current_player():
            return {"player": player, "to_move": game.current_player(), "actions": []}
        return {"player": player, "to_move": player, "actions": [str(a) for a in game.legal_actions()]}

    def cmd_apply(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Apply an action (its text form) for the player to move."""
        _, game = self._game(req)
        if game.is_terminal():
            raise ProtocolError("game_over", "the game is over")
        text = _field(req, "action", str)
        player = _field(req, "player", int, game.current_player())
        if player != game.current_player():
            raise IllegalActionError(f"it is player {game.current_player()}'s turn, not player {player}'s")
        game.apply(game.parse_action(text))
        return self._status(game)

    def _status(self, game: Game) -> dict[str, Any]:
        return {
            "to_move": game.current_player(),
            "terminal": game.is_terminal(),
            "scores": game.scores(),
            "winners": game.winners(),
            "actions": len(game.history),
        }

    def cmd_observe(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """What one player can see."""
        _, game = self._game(req)
        player = _field(req, "player", int, max(game.current_player(), 0))
        if not 0 <= player < game.num_players:
            raise ProtocolError("bad_value", f"player must be 0-{game.num_players - 1}")
        return {**game.observation(player), **self._status(game)}

    def cmd_ai_move(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """The action an AI player would take (applied when ``apply`` is true)."""
        from solver.engine.players import PLAYER_KINDS, make_player

        _, game = self._game(req)
        if game.is_terminal():
            raise ProtocolError("game_over", "the game is over")
        kind = _field(req, "ai", str, "solver")
        if kind not in PLAYER_KINDS and not kind.startswith("ismcts:"):
            known = ", ".join(PLAYER_KINDS)
            raise ProtocolError("bad_value", f"unknown AI {clip(kind)} (known: {known}, ismcts:BUDGET[:ROLLOUT])")
        seed = _field(req, "seed", int, len(game.history))
        limit = _seconds(req, "time_limit", None)
        old = getattr(game, "time_limit", None)
        if limit is not None and old is not None:
            game.time_limit = float(limit)  # type: ignore[attr-defined]
        try:
            try:
                player = make_player(kind, seed)
            except ShanghaiError as exc:  # a bad ismcts budget (solver.budget) or rollout
                raise ProtocolError("bad_value", str(exc)) from None
            decision = player.decide(game) if hasattr(player, "decide") else None
            action = decision.action if decision else player.choose(game)
        finally:
            if old is not None:
                game.time_limit = old  # type: ignore[attr-defined]
        result: dict[str, Any] = {"player": game.current_player(), "action": str(action)}
        if decision is not None:
            result["reason"] = decision.reason
        if _field(req, "apply", bool, False):
            game.apply(action)
            result.update(self._status(game))
        return result

    def cmd_record(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """The game record (replays exactly)."""
        _, game = self._game(req)
        data: dict[str, Any] = json.loads(record_of(game).to_json())
        return data

    def cmd_close(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Forget a game."""
        gid, _ = self._game(req)
        del self.games[gid]
        return {"closed": gid}

    def cmd_ping(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Liveness: answered at once by ``shanghai engine``, even while a request runs."""
        return {"pong": True}

    def cmd_isready(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Answered in order, so once every earlier request (but pooled solves) has been answered."""
        return {"ready": True}

    def cmd_version(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """The engine's version, the protocol's, and its commands."""
        from solver import __version__
        from solver.native import describe

        return {
            "engine": "shanghai",
            "version": __version__,
            "core": describe(),
            "protocol": PROTOCOL_VERSION,
            "commands": list(self.handlers),
        }

    def cmd_stop(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """``stop`` outside ``shanghai engine`` (one request at a time): nothing is running."""
        return {"stopped": []}

    def cmd_quit(self, req: Mapping[str, Any]) -> dict[str, Any]:
        """Stop the engine after this reply."""
        self.done = True
        return {"bye": True}


class _Runner:
    """The thread that answers in-order requests one after the other, each under its own :class:`Stop`."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.queue: queue.Queue[tuple[Any, Callable[[], str], Stop | None] | None] = queue.Queue()
        self.lock = threading.Lock()
        self.pending: list[tuple[Any, Stop]] = []  # stoppable requests queued or running
        self.thread = threading.Thread(target=self._loop, name="engine-runner", daemon=True)
        self.thread.start()

    def put(self, rid: Any, job: Callable[[], str], can_stop: bool = False) -> None:
        """Answer ``job`` after every earlier one (``can_stop``: ``stop`` may end it early)."""
        token = Stop() if can_stop else None
        if token is not None:
            with self.lock:
                self.pending.append((rid, token))
        self.queue.put((rid, job, token))

    def _loop(self) -> None:
        while True:
            item = self.queue.get()
            try:
                if item is None:
                    return
                _, job, token = item
                if token is None:
                    self.write(job())
                    continue
                with stoppable(token):
                    reply = job()
                with self.lock:
                    self.pending = [(r, t) for r, t in self.pending if t is not token]
                self.write(reply)
            finally:
                self.queue.task_done()

    def stop(self, which: Any) -> list[Any]:
        """Stop the queued and running stoppable requests (every one, or those with id ``which``)."""
        with self.lock:
            hit = [(r, t) for r, t in self.pending if which is _EVERY or r == which]
        for _, token in hit:
            token.stop()
        return [r for r, _ in hit]

    def drain(self) -> None:
        """Wait until every queued request has been answered."""
        self.queue.join()

    def close(self) -> None:
        """Answer what is queued, then end the thread."""
        self.queue.put(None)
        self.thread.join()


COMMANDS = tuple(EngineServer().handlers)


def answer_request(request: dict[str, Any]) -> str:
    """The reply line to one stateless request (what a worker of :class:`~solver.engine.workers.SolvePool` runs)."""
    return EngineServer().handle_line(json.dumps(request)) or ""


def serve(workers: int = 2) -> None:
    """Run the engine on stdin/stdout (``workers`` solver processes for ``solve`` and puzzle hints)."""
    EngineServer().serve(sys.stdin, sys.stdout, workers)
