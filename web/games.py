"""Games of the web app: seats, the AI seats' schedule, and state rebuilt from the store.

A game is its meta and its log in a :class:`~web.store.Store`; this process
keeps an :class:`~solver.engine.protocol.EngineServer` per game it has
served recently (``Limits.cache_games``), advanced to the log's end before
each command by replaying the actions it has not seen. Every command is the
engine protocol's own (``observe``, ``legal``, ``apply``, ``hint``,
``ai_move``, ``record``): the web adds only who may ask what
(:mod:`web.seats`) and when the AI seats move.

Writes are :meth:`Store.append` with the log length the writer built on:
when another process wrote first, the game is rebuilt and the action tried
again on the new position (it may no longer be legal), as a lock would
have it. AI seats move only here, after ``new_game`` and ``apply`` (and
when an ``observe`` finds an AI seat to move whose player is gone), under the
game's lease, so two processes never think about the same move.

These methods block (AI moves and hints search); the app runs them in threads.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from solver.engine.base import Game
from solver.engine.protocol import EngineServer
from web.rounds import mark, round_end
from web.seats import (
    HUMAN,
    hand_list,
    hash_token,
    new_tokens,
    public_reason,
    public_table,
    public_view,
    reason_facts,
    seat_of,
)
from web.settings import EngineError, Limits
from web.store import Store, StoreError

__all__ = ["Games"]

_STATUS = ("to_move", "terminal", "scores", "winners", "actions")

_PUBLIC_ENTRY = ("player", "action", "ai", "reason", "why", "table", "discard", "round_end")
"""The fields of a log entry anyone may read (the moves are public once made)."""


@dataclass(slots=True)
class _Live:
    """A game built in this process: its engine, and how many log entries it has applied."""

    server: EngineServer
    engine_id: str
    version: int
    lock: threading.Lock = field(default_factory=threading.Lock)
    stale: bool = False

    @property
    def game(self) -> Game:
        return self.server.games[self.engine_id]

    def ask(self, request: dict[str, Any]) -> dict[str, Any]:
        reply = self.server.handle({**request, "game_id": self.engine_id})
        if "error" in reply:
            raise EngineError(str(reply["error"]["code"]), str(reply["error"]["message"]))
        result: dict[str, Any] = reply["result"]
        return result


def _forbidden(message: str) -> EngineError:
    return EngineError("forbidden", message)


class Games:
    """The games of the app (all of them in the store; the recent ones built here)."""

    def __init__(self, store: Store, limits: Limits) -> None:
        self.store = store
        self.limits = limits
        self.cache: OrderedDict[str, _Live] = OrderedDict()
        self._cache_lock = threading.Lock()
        self.holder = secrets.token_hex(8)

    # --- building games from the store ---------------------------------------------------

    def _meta(self, gid: str) -> dict[str, Any]:
        meta = self.store.meta(gid)
        if meta is None:
            raise EngineError("unknown_game", f"no game {gid!r}")
        return meta

    @staticmethod
    def _build(meta: Mapping[str, Any]) -> _Live:
        server = EngineServer()
        fields = {k: meta[k] for k in ("game", "rules", "players", "seed", "options")}
        reply = server.handle({"cmd": "new_game", **fields})
        if "error" in reply:
            raise EngineError(str(reply["error"]["code"]), str(reply["error"]["message"]))
        return _Live(server, str(reply["result"]["game_id"]), 0)

    def _forget(self, gid: str, live: _Live | None = None) -> None:
        with self._cache_lock:
            if live is not None:
                live.stale = True
            if live is None or self.cache.get(gid) is live:
                self.cache.pop(gid, None)

    @contextlib.contextmanager
    def _locked(self, gid: str, meta: Mapping[str, Any]) -> Iterator[_Live]:
        """The game built to the end of its stored log, its lock held by the caller."""
        while True:
            with self._cache_lock:
                live = self.cache.get(gid)
                if live is not None:
                    self.cache.move_to_end(gid)
            if live is None:
                live = self._build(meta)
                with self._cache_lock:
                    live = self.cache.setdefault(gid, live)
                    while len(self.cache) > self.limits.cache_games:
                        self.cache.popitem(last=False)
            with live.lock:
                if live.stale:
                    continue
                for entry in self.store.log(gid, live.version):
                    reply = live.server.handle({"cmd": "apply", "game_id": live.engine_id, "action": entry["action"]})
                    if "error" in reply:  # cannot happen for a log this app wrote; never serve a wrong state
                        self._forget(gid, live)
                        message = reply["error"]["message"]
                        raise EngineError("internal_error", f"game {gid!r} does not replay: {message}")
                    live.version += 1
                yield live
                return

    def _commit(self, gid: str, meta: Mapping[str, Any], live: _Live, entry: dict[str, Any]) -> bool:
        """Append the entry of the action ``live`` has just applied (False: another writer was first)."""
        if not self.store.append(gid, live.version, [entry]):
            self._forget(gid, live)
            return False
        live.version += 1
        if live.game.is_terminal():  # a finished game's record stays for record_ttl
            self.store.update(gid, {"finished": True}, ttl=self.limits.record_ttl)
            self.store.retire(gid, str(meta.get("owner", "")))
        self._announce(gid)
        return True

    def _announce(self, gid: str) -> None:
        """Tell every stream of the game that it changed (a failure loses only the push: the
        streams read the store on their timeouts, and the pages poll without them)."""
        with contextlib.suppress(StoreError):
            self.store.publish(gid)

    # --- seats -------------------------------------------------------------------------------

    @staticmethod
    def _seat(meta: Mapping[str, Any], token: str | None, player: int | None = None) -> int | None:
        if token is None:
            return None
        seat = seat_of(meta.get("tokens", {}), token)
        if seat is None:
            raise _forbidden("the token is not one of this game's seats")
        if player is not None and player != seat:
            raise _forbidden(f"the token is seat {seat}'s, not player {player}'s")
        return seat

    def _need_seat(self, meta: Mapping[str, Any], token: str | None, player: int | None = None) -> int:
        seat = self._seat(meta, token, player)
        if seat is None:
            raise _forbidden("this needs the token of a seat (new_game gives one for each human seat)")
        return seat

    def _state(self, meta: Mapping[str, Any], live: _Live, seat: int | None) -> dict[str, Any]:
        """The observe answer for ``seat`` (None: the public view)."""
        game = live.game
        obs = live.ask({"cmd": "observe", "player": seat if seat is not None else max(game.current_player(), 0)})
        out = dict(obs) if seat is not None else public_view(obs)
        if "hand" in out:
            out["hand"] = hand_list(out["hand"])
        out["seats"] = list(meta["seats"])
        out["idle"] = round(self._idle(meta, live.version), 1)
        if game.is_terminal():
            out["seed"] = meta["seed"]
        return out

    def _idle(self, meta: Mapping[str, Any], version: int) -> float:
        """Seconds since the game's last move (since it started, before the first)."""
        if version:
            last = self.store.log(meta["id"], version - 1) if "id" in meta else []
            at = last[0].get("at") if last else None
        else:
            at = meta.get("started")
        return max(0.0, time.time() - float(at)) if isinstance(at, (int, float)) else 0.0

    # --- commands ------------------------------------------------------------------------

    def new_game(self, request: Mapping[str, Any], seats: list[str], owner: str) -> dict[str, Any]:
        """Start a game: its id, seats, the human seats' tokens and the AI moves before a human's turn."""
        meta = {k: request[k] for k in ("game", "rules", "players", "seed", "options")}
        live = self._build(meta)  # checks the rules and options before anything is stored
        return self._open(meta, seats, owner, live, [])

    def load_record(self, meta: dict[str, Any], actions: list[str], seats: list[str], owner: str) -> dict[str, Any]:
        """A new game replayed from a record's deal and actions."""
        live = self._build(meta)
        for i, text in enumerate(actions):
            reply = live.server.handle({"cmd": "apply", "game_id": live.engine_id, "action": text})
            if "error" in reply:
                raise EngineError("bad_input", f"record action {i + 1} ({text!r}): {reply['error']['message']}")
        entries = [{"player": None, "action": text} for text in actions]
        result = self._open(meta, seats, owner, live, entries)
        return {**result, "actions": len(actions)}

    def _open(
        self, meta: dict[str, Any], seats: list[str], owner: str, live: _Live, entries: list[dict[str, Any]]
    ) -> dict[str, Any]:
        if self.store.count() >= self.limits.max_games:
            raise EngineError("busy", "too many games are running; try again later", retry_after=60)
        owned = self.store.owned_games(owner)
        if len(owned) >= self.limits.games_per_client:
            raise EngineError(
                "rate_limited",
                f"you have {len(owned)} games running: {', '.join(g for g, _ in owned)}; close one (or finish "
                f"it) to start another (a game left alone stops counting {self.limits.live_ttl:g} s after its "
                "last move)",
                retry_after=max(1.0, owned[0][1]),
            )
        tokens, hashes = new_tokens(seats)
        gid = secrets.token_urlsafe(12)
        stored_meta = {**meta, "id": gid, "seats": seats, "tokens": hashes, "owner": owner, "started": time.time()}
        self.store.create(gid, stored_meta, self.limits.game_ttl, self._live_ttl())
        if entries and not self.store.append(gid, 0, entries):
            raise EngineError("internal_error", "a new game's log was written by someone else")
        live.version = len(entries)
        stored = self._meta(gid)
        if live.game.is_terminal():
            self.store.update(gid, {"finished": True}, ttl=self.limits.record_ttl)
            self.store.retire(gid, owner)
        with self._cache_lock:
            self.cache[gid] = live
        self._drive(gid, stored, wait=True)
        with self._locked(gid, stored) as built:
            status = self._state(stored, built, None)
        return {
            "game_id": gid,
            "game": meta["game"],
            "players": meta["players"],
            "to_move": status["to_move"],
            "seats": seats,
            "tokens": tokens,
            "ai_moves": self._ai_moves(gid, len(entries)),
        }

    def command(self, gid: str, cmd: str, fields: Mapping[str, Any]) -> dict[str, Any]:
        """A game command (``observe``, ``legal``, ``apply``, ``hint``, ``ai_move``, ``record``,
        ``keep``, ``close``) with the request's ``token`` and other fields."""
        meta = self._meta(gid)
        token = fields.get("token")
        player = fields.get("player")
        running = not (meta.get("finished") or meta.get("closed"))
        if cmd != "moves":  # a stream or a poll reading the moves is no player's use
            self.store.touch(
                gid, self.limits.game_ttl, str(meta.get("owner", "")), self._live_ttl() if running else None
            )
        if cmd == "moves":
            return self.moves(gid, int(fields.get("start", 0)))
        if cmd == "claim":
            return self._claim(gid, meta, self._need_seat(meta, token))
        if cmd in ("leave", "hand_over"):
            mine = self._need_seat(meta, token)
            target = mine if cmd == "leave" else int(fields.get("seat", -1))
            return self._hand_over(gid, meta, mine, target, str(fields.get("ai", "greedy")))
        if cmd == "observe":
            seat = self._seat(meta, token, player)
            self._drive(gid, meta, wait=False)  # an AI seat left to move by a process that is gone
            with self._locked(gid, meta) as live:
                return self._state(meta, live, seat)
        if cmd == "apply":
            expect = fields.get("expect")
            seat = self._need_seat(meta, token, player)
            return self._apply(gid, meta, seat, str(fields["action"]), None if expect is None else int(expect))
        if cmd == "record":
            return self._record(gid, meta)
        if cmd == "keep":
            self._seat(meta, token)
            self.store.update(gid, {"keep": True}, ttl=self.limits.record_ttl)
            return {"game_id": gid, "keep": True}
        if cmd == "close":
            mine = self._need_seat(meta, token)
            if list(meta["seats"]).count(HUMAN) > 1 and not meta.get("finished"):  # others play on
                self._hand_over(gid, meta, mine, mine, "greedy")
                return {"closed": gid}
            return self._close(gid, meta)
        seat = self._need_seat(meta, token, player)
        with self._locked(gid, meta) as live:
            if cmd == "legal":
                return live.ask({"cmd": "legal", "player": seat})
            if cmd == "ai_move" and fields.get("apply"):
                raise _forbidden("AI seats move on the server's schedule; ai_move here only answers as a hint")
            game = live.game
            if game.is_terminal():
                raise EngineError("game_over", "the game is over")
            if game.current_player() != seat:
                raise EngineError("illegal_action", f"it is player {game.current_player()}'s turn, not player {seat}'s")
            if cmd == "hint":
                return live.ask({"cmd": "hint"})
            if cmd == "ai_move":
                request = {k: v for k, v in fields.items() if k in ("ai", "time_limit", "seed")}
                return live.ask({"cmd": "ai_move", **request, "apply": False})
        raise EngineError("unknown_command", f"unknown command {cmd!r}")

    def _apply(
        self, gid: str, meta: Mapping[str, Any], seat: int, action: str, expect: int | None = None
    ) -> dict[str, Any]:
        while True:
            with self._locked(gid, meta) as live:
                game = live.game
                if expect is not None and len(game.history) != expect:
                    raise EngineError(
                        "stale",
                        f"the game has moved on: {len(game.history)} actions made, not {expect}; observe again",
                    )
                if game.is_terminal():
                    raise EngineError("game_over", "the game is over")
                if game.current_player() != seat:
                    who = game.current_player()
                    raise EngineError("illegal_action", f"it is player {who}'s turn, not player {seat}'s")
                at = live.version
                rounds = mark(game)
                status = live.ask({"cmd": "apply", "action": action, "player": seat})
                text = str(game.history[-1]) if game.history else action
                entry: dict[str, Any] = {"player": seat, "action": text, "at": time.time()}
                ended = round_end(rounds, game)
                if ended is not None:
                    entry["round_end"] = ended
                if self._commit(gid, meta, live, entry):
                    break
        if not status["terminal"]:
            self._drive(gid, meta, wait=True)
        with self._locked(gid, meta) as live:
            state = self._state(meta, live, seat)
        move = {k: entry[k] for k in _PUBLIC_ENTRY if k in entry}
        return {**{k: state[k] for k in _STATUS}, "move": move, "ai_moves": self._ai_moves(gid, at + 1), "state": state}

    def _ai_moves(self, gid: str, start: int) -> list[dict[str, Any]]:
        """The AI seats' moves logged from ``start`` on, up to the next human action."""
        out = []
        for entry in self.store.log(gid, start):
            if "ai" not in entry:
                break
            keys: tuple[str, ...] = ("player", "action", "reason", "why", "table", "discard", "round_end")
            out.append({k: entry[k] for k in keys if k in entry})
        return out

    def _record(self, gid: str, meta: Mapping[str, Any]) -> dict[str, Any]:
        with self._locked(gid, meta) as live:
            if not live.game.is_terminal():
                raise _forbidden("the record (with the deal's seed) is given when the game has ended")
            return live.ask({"cmd": "record"})

    def _close(self, gid: str, meta: Mapping[str, Any]) -> dict[str, Any]:
        with self._locked(gid, meta) as live:
            finished = live.game.is_terminal()
        if finished or meta.get("keep"):
            self.store.retire(gid, str(meta.get("owner", "")))
            self.store.update(gid, {"closed": True})
        else:
            self.store.delete(gid)
            self._forget(gid, live)
        return {"closed": gid}

    def _live_ttl(self) -> float:
        return min(self.limits.live_ttl, self.limits.game_ttl)

    def moves(self, gid: str, start: int = 0) -> dict[str, Any]:
        """The moves logged from ``start`` on (public: the moves are seen by all once made) and the
        public status: what a stream of the game or a poll sends (``start``: the first move's number)."""
        meta = self._meta(gid)
        start = max(0, start)
        with self._locked(gid, meta) as live:
            state = self._state(meta, live, None)
            version = live.version
        entries = self.store.log(gid, start)[: max(0, version - start)]
        return {
            "start": start,
            "moves": [{k: e[k] for k in _PUBLIC_ENTRY if k in e} for e in entries],
            **{k: state[k] for k in ("to_move", "terminal", "actions", "seats", "idle")},
        }

    def _claim(self, gid: str, meta: Mapping[str, Any], seat: int) -> dict[str, Any]:
        """The seat's token replaced by a fresh one, given to the caller: an invite link opens its
        seat once (whoever else holds the link, the inviter too, no longer acts for it)."""
        token = secrets.token_urlsafe(18)
        hashes = {**meta.get("tokens", {}), str(seat): hash_token(token)}
        self.store.update(gid, {"tokens": hashes})
        self._announce(gid)
        return {"game_id": gid, "seat": seat, "token": token}

    def _hand_over(self, gid: str, meta: Mapping[str, Any], seat: int, target: int, ai: str) -> dict[str, Any]:
        """Seat ``target`` handed to an AI player of kind ``ai``: the caller's own seat (it leaves),
        or another human seat that has been to move for ``absent_after`` seconds. A game left by its
        last human is closed."""
        from solver.engine.players import PLAYER_KINDS

        seats = list(meta["seats"])
        if ai not in PLAYER_KINDS:
            raise EngineError("bad_value", f"unknown AI kind {ai[:40]!r} (known: {', '.join(PLAYER_KINDS)})")
        if not 0 <= target < len(seats) or seats[target] != HUMAN:
            raise EngineError("bad_value", f"seat {target} is not a human seat of this game")
        if target != seat:
            with self._locked(gid, meta) as live:
                game = live.game
                if game.is_terminal():
                    raise EngineError("game_over", "the game is over")
                idle = self._idle(meta, live.version)
                if game.current_player() != target or idle < self.limits.absent_after:
                    raise _forbidden(
                        f"seat {target} can be handed to an AI once it has been to move for "
                        f"{self.limits.absent_after:g} s"
                    )
        seats[target] = ai
        tokens = {k: v for k, v in meta.get("tokens", {}).items() if k != str(target)}
        if HUMAN not in seats:
            self._close(gid, meta)
            return {"game_id": gid, "seat": target, "ai": ai, "closed": True}
        self.store.update(gid, {"seats": seats, "tokens": tokens})
        self._announce(gid)
        fresh = self._meta(gid)
        self._drive(gid, fresh, wait=True)
        return {"game_id": gid, "seat": target, "ai": ai, "closed": False}

    def summary(self, gid: str, token: str) -> dict[str, Any]:
        """A game of a "your games" list: which game, the token's seat and where the game is."""
        meta = self.store.meta(gid)
        seat = seat_of(meta.get("tokens", {}), token) if meta is not None else None
        if meta is None or seat is None:
            return {"game_id": gid, "gone": True}
        with self._locked(gid, meta) as live:
            game = live.game
            over = game.is_terminal()
            to_move = None if over else game.current_player()
            actions = live.version
        return {
            "game_id": gid,
            "game": meta["game"],
            "seat": seat,
            "seats": list(meta["seats"]),
            "to_move": to_move,
            "terminal": over,
            "actions": actions,
            "your_turn": to_move == seat,
        }

    # --- the AI seats' schedule ---------------------------------------------------------------

    def _ai_to_move(self, meta: Mapping[str, Any], live: _Live) -> bool:
        game = live.game
        return not game.is_terminal() and meta["seats"][game.current_player()] != HUMAN

    def _drive(self, gid: str, meta: Mapping[str, Any], *, wait: bool) -> None:
        """Play the AI seats until a human seat is to move or the game ends (under the game's lease;
        ``wait``: wait while another process holds it, else leave the moves to that process)."""
        holder = f"{self.holder}:{threading.get_ident()}"
        deadline = time.monotonic() + self.limits.ai_wait
        while True:
            with self._locked(gid, meta) as live:
                if not self._ai_to_move(meta, live):
                    return
            if self.store.lock(gid, holder, self.limits.lease):
                break
            if not wait or time.monotonic() > deadline:
                return
            time.sleep(0.05)
        try:
            for _ in range(self.limits.max_ai_moves):
                with self._locked(gid, meta) as live:
                    if not self._ai_to_move(meta, live):
                        return
                    self._ai_step(gid, meta, live)
                if not self.store.lock(gid, holder, self.limits.lease):
                    return  # the lease lapsed and another process took it: it goes on
        finally:
            self.store.unlock(gid, holder)

    def _ai_step(self, gid: str, meta: Mapping[str, Any], live: _Live) -> None:
        game = live.game
        p = game.current_player()
        kind = str(meta["seats"][p])
        before = public_view(live.ask({"cmd": "observe", "player": p}))
        seed = (int(meta["seed"]) * 1_000_003 + len(game.history)) % 2**31
        rounds = mark(game)
        move = live.ask({"cmd": "ai_move", "ai": kind, "seed": seed, "apply": True})
        ended = round_end(rounds, game)
        after = public_view(live.ask({"cmd": "observe", "player": p}))
        table, discard = public_table(after)
        text = str(game.history[-1])
        entry = {
            "player": p,
            "action": text,
            "ai": kind,
            "reason": public_reason(kind, str(move["action"]), before, after),
            "why": reason_facts(kind, str(move["action"]), before, after),
            "table": table,
            "discard": discard,
            "at": time.time(),
        }
        if ended is not None:
            entry["round_end"] = ended
        self._commit(gid, meta, live, entry)
