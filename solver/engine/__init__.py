"""The engine: game states for the three games, AI players, hints, records and self-play.

A thin layer: game states own turn order and rule checks, and ask the
solver (:mod:`solver.manipulation`, :mod:`solver.contract`,
:mod:`solver.zsy`) for every decision that needs search.

The registry here is the one place that knows each game's engine options
(:data:`ENGINE_OPTIONS`: name, type, range, meaning); :func:`new_game`,
:func:`replay`, the protocol and the CLI all check options through it.

>>> game = new_game("zsy", players=4, seed=7)
>>> game.current_player()
0
>>> new_game("zsy", options={"time_limit": 1})
Traceback (most recent call last):
...
solver.engine.SetupError: unknown zsy engine option 'time_limit' (known: max_hands, shown)
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from solver.budget import MAX_SECONDS, MIN_SECONDS
from solver.cards import clip
from solver.engine.base import Game, GameRecord, Player, play_game
from solver.errors import IllegalActionError, PuzzleError, ShanghaiError
from solver.rules import rules_for

__all__ = [
    "Game",
    "GameRecord",
    "Player",
    "new_game",
    "play_game",
    "replay",
    "record_of",
    "load_record",
    "check_options",
    "check_players",
    "EngineOption",
    "ENGINE_OPTIONS",
    "GAME_NAMES",
    "SetupError",
]

GAME_NAMES = ("manipulation", "contract", "zsy")


class SetupError(IllegalActionError):
    """A game cannot be set up as asked: an unknown engine option, a bad option value, a player count out of range.

    An :class:`IllegalActionError` (what a bad set-up raised before there was a registry of options),
    which the protocol reports as ``bad_value``.
    """


@dataclass(frozen=True, slots=True)
class EngineOption:
    """One engine option (beyond the rules): its type (``int``, ``float``, or ``str`` for a card),
    range, whether ``null`` is allowed (meaning no limit), and its meaning."""

    name: str
    kind: type
    lo: float
    hi: float
    doc: str
    nullable: bool = False

    def check(self, game: str, value: Any) -> Any:
        """The value, checked (``SetupError`` naming the option otherwise)."""
        what = f"{game} engine option {self.name!r}"
        if value is None and self.nullable:
            return None
        if self.kind is str:
            if not isinstance(value, str) or not value or len(value) > 4:
                raise SetupError(f"{what} must be a card like 'RJ' or '7S', not {json.dumps(value, default=str)[:40]}")
            return value
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not number or (self.kind is int and not isinstance(value, int)):
            kind = "an integer" if self.kind is int else "a number of seconds"
            raise SetupError(f"{what} must be {kind}, not {json.dumps(value, default=str)[:40]}")
        if not math.isfinite(value) or not self.lo <= value <= self.hi:
            raise SetupError(f"{what} must be between {self.lo:g} and {self.hi:g}, not {value}")
        return self.kind(value)


_TIME = EngineOption("time_limit", float, MIN_SECONDS, MAX_SECONDS, "seconds per solver question the engine asks")
ENGINE_OPTIONS: dict[str, dict[str, EngineOption]] = {
    "manipulation": {
        "max_hands": EngineOption("max_hands", int, 1, 10_000, "end the game after this many hands", True),
        "time_limit": _TIME,
    },
    "contract": {
        "max_rounds": EngineOption("max_rounds", int, 1, 100, "end the game after this many rounds", True),
        "turn_limit": EngineOption("turn_limit", int, 1, 1_000_000, "end a round after this many turns"),
        "time_limit": _TIME,
    },
    "zsy": {
        "max_hands": EngineOption("max_hands", int, 1, 10_000, "end the game after this many hands", True),
        "shown": EngineOption(
            "shown", str, 0, 0, "teams6: the card shown before the first deal (a record's check)", True
        ),
    },
}
"""Each game's engine options: what ``new_game`` accepts as ``options``, and what a record may hold."""


def _check_game(game: Any) -> str:
    if game not in GAME_NAMES:
        raise SetupError(f"unknown game {clip(str(game))} (known: {', '.join(GAME_NAMES)})")
    return str(game)


def check_options(game: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` checked against the game's schema: every name known, every value of its type and range."""
    schema = ENGINE_OPTIONS[_check_game(game)]
    if not isinstance(options, Mapping):
        raise SetupError("engine options must be an object of name: value")
    checked: dict[str, Any] = {}
    for name, value in options.items():
        if name not in schema:
            known = ", ".join(sorted(schema))
            raise SetupError(f"unknown {game} engine option {clip(str(name))} (known: {known})")
        checked[name] = schema[name].check(game, value)
    return checked


def check_players(game: str, rules: Any, players: Any) -> int:
    """The player count, checked against the rule set (``SetupError`` when out of range)."""
    if not isinstance(players, int) or isinstance(players, bool):
        raise SetupError(f"the number of players must be an integer, not {clip(str(players))}")
    lo, hi = rules.min_players, rules.max_players
    if getattr(rules, "teams", None) == "pairs":
        lo = hi = 4
    elif getattr(rules, "teams", None) == "teams6":
        lo = hi = 6
    if not lo <= players <= hi:
        count = str(lo) if lo == hi else f"{lo}-{hi}"
        raise SetupError(f"{game} with these rules takes {count} players, not {players}")
    return players


def new_game(
    game: str,
    rules: Mapping[str, Any] | Any = None,
    players: int = 4,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    **more: Any,
) -> Game:
    """A new seeded game: ``game`` is manipulation, contract or zsy; ``rules`` a rule set,
    or a mapping with a preset and overrides; ``options`` (or keywords) are engine options,
    checked against :data:`ENGINE_OPTIONS` (``SetupError`` for an unknown or bad one, or a
    player count out of range)."""
    game = _check_game(game)
    rule_set: Any = rules if rules is not None and not isinstance(rules, Mapping) else rules_for(game, rules or {})
    checked = check_options(game, {**(options or {}), **more})
    check_players(game, rule_set, players)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise SetupError(f"the seed must be an integer, not {clip(str(seed))}")
    try:
        if game == "manipulation":
            from solver.manipulation.game import ManipulationGame

            made: Game = ManipulationGame(rule_set, players, seed, **checked)
        elif game == "contract":
            from solver.contract.game import ContractGame

            made = ContractGame(rule_set, players, seed, **checked)
        else:
            from solver.zsy.game import ZsyGame

            made = ZsyGame(rule_set, players, seed, **checked)
    except IllegalActionError as exc:  # the game refuses the set-up (too many players for the deck ...)
        raise SetupError(str(exc)) from None
    made.engine_options = checked  # type: ignore[attr-defined]
    return made


def record_of(game: Game, players: tuple[str, ...] | list[str] = ()) -> GameRecord:
    """The game's record, with every engine option it was started with (so it replays exactly)."""
    record = game.record(players)
    accepted: dict[str, Any] = getattr(game, "engine_options", {})
    if not accepted:
        return record
    return GameRecord(
        record.game,
        record.rules,
        record.num_players,
        record.seed,
        record.actions,
        record.players,
        {**accepted, **record.options},
    )


def load_record(text: str, source: str = "<record>") -> GameRecord:
    """A game record from its JSON text, every field checked (``PuzzleError`` naming the first problem)."""
    try:
        data = json.loads(text.removeprefix("\ufeff"))
    except RecursionError:
        raise PuzzleError(f"{source}: not valid JSON: arrays or objects nested too deeply") from None
    except json.JSONDecodeError as exc:
        raise PuzzleError(f"{source}: not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PuzzleError(f"{source}: a game record is a JSON object")
    want = {
        "game": str,
        "num_players": int,
        "seed": int,
        "rules": dict,
        "options": dict,
        "actions": list,
        "players": list,
    }
    for key in data:
        if key not in want:
            raise PuzzleError(f"{source}: {clip(str(key))}: unknown key (known: {', '.join(sorted(want))})")
    for key, kind in want.items():
        if key not in data:
            if key in ("game", "num_players", "seed"):
                raise PuzzleError(f"{source}: {key}: missing")
            if key == "rules":
                raise PuzzleError(f"{source}: rules: missing (a record names its rules; {{}} is the game's defaults)")
            continue
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise PuzzleError(f"{source}: {key}: expected {kind.__name__}, got {json.dumps(value)[:40]}")
    for key in ("actions", "players"):
        if not all(isinstance(a, str) for a in data.get(key, [])):
            raise PuzzleError(f"{source}: {key}: expected a list of strings")
    _check_seats(data.get("players", []), data["num_players"], source)
    return GameRecord(
        game=data["game"],
        rules=data.get("rules", {}),
        num_players=data["num_players"],
        seed=data["seed"],
        actions=tuple(data.get("actions", [])),
        players=tuple(data.get("players", [])),
        options=data.get("options", {}),
    )


def _check_seats(players: list[str], num_players: int, source: str) -> None:
    """A record's ``players``: none, or one a seat, each ``you`` (the human, once at most) or a player kind."""
    from solver.engine.players import PLAYER_KINDS, make_player

    if not players:
        return
    if len(players) != num_players:
        raise PuzzleError(f"{source}: players: {len(players)} seats named for {num_players} players")
    if players.count("you") > 1:
        raise PuzzleError(f"{source}: players: 'you' takes one seat, not {players.count('you')}")
    for seat, kind in enumerate(players):
        if kind == "you":
            continue
        try:
            make_player(kind)
        except ShanghaiError:
            raise PuzzleError(
                f"{source}: players[{seat}]: unknown player {clip(kind)!r} "
                f"(known: you, {', '.join(PLAYER_KINDS)}, ismcts:BUDGET[:ROLLOUT])"
            ) from None


def replay(record: GameRecord, upto: int | None = None) -> Game:
    """Replay a record's actions from its seed (the first ``upto`` actions when given)."""
    game = new_game(record.game, record.rules, record.num_players, record.seed, options=record.options)
    for i, text in enumerate(record.actions[:upto]):
        try:
            game.apply(game.parse_action(text))
        except IllegalActionError as exc:
            raise IllegalActionError(f"record action {i + 1} ({clip(text)}): {exc}") from None
    return game
