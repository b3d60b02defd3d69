"""Puzzle files: one position per TOML file, with its rules and verified answer.

::

    game = "manipulation"            # manipulation | contract | zsy
    title = "Six of spades"          # optional
    [rules]                          # optional: preset and option overrides
    preset = "norwegian"
    [position]
    table = ["3H 4H 5H 6H", "3C 4C 5C 6C"]
    hand = "6S KD"
    [answer]                         # optional: the verified optimum
    played = 1
    [meta]                           # optional, free-form: e.g. a generated puzzle's difficulty

Contract positions hold ``round``, ``hand``, ``table`` (each meld a string,
or a table ``{cards = "5H 5D 2S=5C", owner = 1}``; owner 0 is the player to
move), ``laid_down``, ``discard`` and optionally ``dead`` (other cards the
player has seen), ``calls`` (the player's "Shanghai!" calls this round, each
with its penalty card; default 0) and ``drawn`` (true after the draw, false
before it; unset: either), which the hand's size must agree with
(:mod:`solver.contract.handsize`). Zheng Shang You positions hold ``hand`` and optionally
``to_beat``, in cards (``"5S RJ BJ"``) or the notation ``kind:cards``
(``"set:5S RJ BJ"``), and ``to_beat_kind`` (a kind, or ``parallel-CxL``), which
an ambiguous ``to_beat`` without a kind needs. A two-player endgame (a
"lead" puzzle: which lead wins however the last opponent defends?) holds
``hand`` and ``opponent``, the last opponent's known hand, and no
``to_beat``: you lead (:mod:`solver.zsy.endgame`).

Every problem raises :class:`PuzzleError` naming the file and the key.

>>> p = loads('game = "manipulation"\\n[position]\\ntable = ["3H 4H 5H"]\\nhand = "6H"\\n')
>>> p.position.hand, p.rules.decks
(Cards.parse('6H'), 2)
>>> loads(dumps(p)) == p
True
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal, TypeVar

import tomli_w

from solver.cards import Card, Cards
from solver.errors import PuzzleError, ShanghaiError
from solver.melds import Meld, TableMeld, validate_table
from solver.positions import ContractPosition, ManipulationPosition, Position, ZsyPosition
from solver.rules import ContractRules, ManipulationRules, ZsyRules, rules_for
from solver.rules.base import MeldSpec

__all__ = [
    "Puzzle",
    "from_data",
    "ManipulationPosition",
    "ContractPosition",
    "ZsyPosition",
    "ZsyKind",
    "load",
    "loads",
    "dump",
    "dumps",
    "iter_puzzle_paths",
    "ANSWER_KEYS",
    "ANSWER_TYPES",
    "position_dict",
    "position_json",
]

T = TypeVar("T")

ZsyKind = Literal["single", "set", "straight", "parallel"]


ANSWER_KEYS: dict[str, frozenset[str]] = {
    "manipulation": frozenset({"played", "value", "cards", "distinct_plays"}),
    "contract": frozenset(
        {
            "can_lay_down",
            "points_left",
            "distance",
            "layoff",
            "layoff_points",
            "can_go_out",
            "swaps",
            "discard",
            "plan_points_left",
        }
    ),
    "zsy": frozenset({"fewest_plays", "moves", "leads", "winning_leads"}),
}


ANSWER_TYPES: dict[str, type] = {
    "played": int,
    "value": int,
    "cards": str,
    "distinct_plays": int,
    "can_lay_down": bool,
    "points_left": int,
    "distance": int,
    "layoff": int,
    "layoff_points": int,
    "can_go_out": bool,
    "swaps": int,
    "discard": str,
    "plan_points_left": int,
    "fewest_plays": int,
    "moves": int,
    "leads": int,
    "winning_leads": int,
}
"""The type of each ``[answer]`` key: integers are counts or points (0 or more), ``cards`` is card codes,
``discard`` (Contract, a last round played all at once) the card codes of every discard that lets the rest go
down (one card when the answer is unique)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A position with its game, rules, optional title and verified answer."""

    game: str
    rules: ManipulationRules | ContractRules | ZsyRules
    position: Position
    title: str = ""
    answer: dict[str, Any] = field(default_factory=dict)
    path: str = field(default="", compare=False)
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The file's path, else the title, else ``<inline>``."""
        return self.path or self.title or "<inline>"


_TYPE_WORDS: dict[type, str] = {int: "an integer", str: "a string", bool: "true or false"}


def _shown(value: Any) -> str:
    from solver.rules.base import shown

    return shown(value)


class _Ctx:
    """Prefixes errors with the file and key being read."""

    def __init__(self, source: str) -> None:
        self.source = source

    @contextmanager
    def at(self, key: str) -> Iterator[None]:
        try:
            yield
        except PuzzleError:
            raise
        except ShanghaiError as exc:
            raise PuzzleError(f"{self.source}: {key}: {exc}") from None

    def fail(self, key: str, message: str) -> PuzzleError:
        return PuzzleError(f"{self.source}: {key}: {message}")

    def typed(self, data: Mapping[str, Any], key: str, kind: type[T], where: str) -> T:
        value = data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(f"{where}.{key}", f"expected {_TYPE_WORDS.get(kind, kind.__name__)}, got {_shown(value)}")
        return value


def _check_keys(ctx: _Ctx, data: Mapping[str, Any], allowed: set[str] | frozenset[str], where: str) -> None:
    for key in data:
        if key not in allowed:
            raise ctx.fail(
                f"{where}.{str(key)[:40]}" if where else str(key)[:40],
                f"unknown key (known: {', '.join(sorted(allowed))})",
            )


def _cards(ctx: _Ctx, data: Mapping[str, Any], key: str, where: str) -> Cards:
    value = data[key]
    if not isinstance(value, (str, list)) or (isinstance(value, list) and not all(isinstance(v, str) for v in value)):
        raise ctx.fail(f"{where}.{key}", "expected a string of card codes")
    with ctx.at(f"{where}.{key}"):
        return Cards.parse(value)


@lru_cache(maxsize=4096)
def _table_meld(text: str, spec: MeldSpec) -> Meld:
    """A table meld parsed and checked (cached: a folder of puzzles repeats the same melds; a bad
    meld raises, and is not cached)."""
    meld = Meld.parse(text)
    validate_table((meld,), spec)
    return meld


def _parse_manipulation(ctx: _Ctx, pos: Mapping[str, Any], rules: Any) -> ManipulationPosition:
    _check_keys(ctx, pos, {"table", "hand"}, "position")
    if "hand" not in pos:
        raise ctx.fail("position.hand", "missing")
    hand = _cards(ctx, pos, "hand", "position")
    table_raw = pos.get("table", [])
    if not isinstance(table_raw, list):
        raise ctx.fail("position.table", "expected a list of melds")
    melds = []
    spec = rules.meld_spec
    for i, m in enumerate(table_raw):
        if not isinstance(m, str):
            raise ctx.fail(f"position.table[{i}]", "expected a string of card codes")
        with ctx.at(f"position.table[{i}]"):
            melds.append(_table_meld(m, spec))
    table = tuple(melds)
    with ctx.at("position"):
        (hand + Cards(c for m in table for c in m.cards)).check_against(rules.deck, "table and hand together")
    return ManipulationPosition(table, hand)


def _parse_contract(ctx: _Ctx, pos: Mapping[str, Any], rules: Any) -> ContractPosition:
    _check_keys(ctx, pos, {"round", "hand", "table", "laid_down", "discard", "dead", "calls", "drawn"}, "position")
    for key in ("round", "hand"):
        if key not in pos:
            raise ctx.fail(f"position.{key}", "missing")
    round_ = ctx.typed(pos, "round", int, "position")
    with ctx.at("position.round"):
        rules.contract(round_)
    hand = _cards(ctx, pos, "hand", "position")
    table_raw = pos.get("table", [])
    if not isinstance(table_raw, list):
        raise ctx.fail("position.table", "expected a list of melds")
    table: list[TableMeld] = []
    for i, entry in enumerate(table_raw):
        where = f"position.table[{i}]"
        owner = 0
        if isinstance(entry, dict):
            _check_keys(ctx, entry, {"cards", "owner"}, where)
            if "cards" not in entry:
                raise ctx.fail(f"{where}.cards", "missing")
            owner = ctx.typed(entry, "owner", int, where) if "owner" in entry else 0
            if owner < 0:
                raise ctx.fail(f"{where}.owner", "must be 0 or more")
            entry = entry["cards"]
        if isinstance(entry, list) and all(isinstance(c, str) for c in entry):
            entry = " ".join(entry)  # the JSON form (`position_json`): a meld's cards as a list
        if not isinstance(entry, str):
            raise ctx.fail(where, "expected a meld string or {cards = ..., owner = N}")
        with ctx.at(where):
            meld = Meld.parse(entry)
            validate_table([meld], rules.meld_spec)
        table.append(TableMeld(meld, owner))
    laid_down = ctx.typed(pos, "laid_down", bool, "position") if "laid_down" in pos else False
    discard = None
    if "discard" in pos:
        d = ctx.typed(pos, "discard", str, "position")
        with ctx.at("position.discard"):
            discard = Card.parse(d)
    dead = _cards(ctx, pos, "dead", "position") if "dead" in pos else Cards()
    with ctx.at("position"):
        seen = hand + Cards(c for t in table for c in t.meld.cards) + dead + Cards([discard] if discard else [])
        seen.check_against(rules.deck, "hand, table, discard and dead cards together")
    calls = ctx.typed(pos, "calls", int, "position") if "calls" in pos else 0
    drawn = ctx.typed(pos, "drawn", bool, "position") if "drawn" in pos else None
    return ContractPosition(round_, hand, tuple(table), laid_down, discard, dead, calls, drawn)


ZSY_KINDS = ("single", "set", "straight", "parallel")


def _parse_zsy(ctx: _Ctx, pos: Mapping[str, Any], rules: Any) -> ZsyPosition:
    _check_keys(ctx, pos, {"hand", "to_beat", "to_beat_kind", "opponent"}, "position")
    if "hand" not in pos:
        raise ctx.fail("position.hand", "missing")
    from solver.zsy import label_shape, split_label  # lazy: climbing imports the rules, not puzzles

    hand = _cards(ctx, pos, "hand", "position")
    label = None
    if isinstance(pos.get("to_beat"), str) and ":" in pos["to_beat"]:  # the notation kind:cards
        with ctx.at("position.to_beat"):
            label, text = split_label(pos["to_beat"])
        pos = {**pos, "to_beat": text}
    to_beat = _cards(ctx, pos, "to_beat", "position") if "to_beat" in pos else None
    kind = label
    if "to_beat_kind" in pos:
        kind = ctx.typed(pos, "to_beat_kind", str, "position")
        try:
            label_shape(kind)
        except ShanghaiError:
            raise ctx.fail(
                "position.to_beat_kind", f"must be one of {', '.join(ZSY_KINDS)} or parallel-CxL, not {_shown(kind)}"
            ) from None
        if to_beat is None:
            raise ctx.fail("position.to_beat_kind", "given without to_beat")
        if label is not None and label != kind:
            raise ctx.fail("position.to_beat_kind", f"says {_shown(kind)} but to_beat says {label}")
    opponent = None
    if "opponent" in pos:
        opponent = _cards(ctx, pos, "opponent", "position")
        if to_beat is not None:
            raise ctx.fail("position.opponent", "an endgame is led by you: give no to_beat with opponent")
        if not opponent:
            raise ctx.fail("position.opponent", "empty: the opponent is out, there is no endgame")
        if not hand:
            raise ctx.fail("position.hand", "empty: you are out, there is no endgame")
    with ctx.at("position"):
        if opponent is not None:
            (hand + opponent).check_against(rules.deck, "hand and opponent together")
        else:
            (hand + (to_beat or Cards())).check_against(rules.deck, "hand and to_beat together")
    position = ZsyPosition(hand, to_beat, kind, opponent)
    if to_beat is not None:
        from solver.zsy import combo_from_position  # lazy: climbing imports the rules, not puzzles

        with ctx.at("position.to_beat"):
            combo_from_position(to_beat, kind, rules)
    return position


_PARSERS: dict[str, Callable[[_Ctx, Mapping[str, Any], Any], Position]] = {
    "manipulation": _parse_manipulation,
    "contract": _parse_contract,
    "zsy": _parse_zsy,
}


_RULES_CACHE: dict[tuple[Any, ...], Any] = {}


def _rules_for(game: str, raw: Mapping[str, Any]) -> Any:
    """:func:`rules_for`, remembered for plain ``[rules]`` tables (rule sets are frozen values;
    building one type-checks every option, which costs more than the rest of a puzzle file)."""
    key = (game, *sorted((k, type(v), v) for k, v in raw.items()))
    try:
        hit = _RULES_CACHE.get(key)
    except TypeError:  # a list or table value: not hashable, build it every time
        return rules_for(game, raw)
    if hit is None:
        hit = _RULES_CACHE[key] = rules_for(game, raw)
    return hit


def loads(text: str, source: str = "<string>") -> Puzzle:
    """Parse a puzzle from TOML text; ``source`` names it in errors.

    A leading UTF-8 byte order mark is skipped; arrays or tables nested deeper than the
    parser's stack allows are a :class:`PuzzleError`, like any other malformed file.
    """
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError as exc:
        raise PuzzleError(f"{source}: not valid TOML: {exc}") from None
    except RecursionError:
        raise PuzzleError(f"{source}: not valid TOML: arrays or tables nested too deeply") from None
    return from_data(data, source)


def from_data(data: Mapping[str, Any], source: str = "<string>") -> Puzzle:
    """A puzzle from already-parsed data (a TOML file's tables, or JSON); ``source`` names it in errors."""
    ctx = _Ctx(source)
    _check_keys(ctx, data, {"game", "title", "rules", "position", "answer", "meta"}, "")
    if "game" not in data:
        raise ctx.fail("game", "missing")
    game = ctx.typed(data, "game", str, "puzzle")
    if game not in _PARSERS:
        raise ctx.fail("game", f"unknown game {_shown(game)} (known: {', '.join(_PARSERS)})")
    title = ctx.typed(data, "title", str, "puzzle") if "title" in data else ""
    rules_raw = data.get("rules", {})
    if not isinstance(rules_raw, dict):
        raise ctx.fail("rules", "expected a table")
    with ctx.at("rules"):
        rules = _rules_for(game, rules_raw)
    pos = data.get("position")
    if not isinstance(pos, dict):
        raise ctx.fail("position", "missing or not a table")
    position = _PARSERS[game](ctx, pos, rules)
    _check_legal(position, rules, f"{source}: position")
    answer = data.get("answer", {})
    if not isinstance(answer, dict):
        raise ctx.fail("answer", "expected a table")
    _check_keys(ctx, answer, ANSWER_KEYS[game], "answer")
    _check_answer(ctx, answer)
    meta = data.get("meta", {})
    if not isinstance(meta, dict):
        raise ctx.fail("meta", "expected a table")
    return Puzzle(game, rules, position, title, dict(answer), source if source != "<string>" else "", dict(meta))


def _check_answer(ctx: _Ctx, answer: Mapping[str, Any]) -> None:
    """Every ``[answer]`` value of its type: ``played = "five"`` is bad input, not a mismatch."""
    for key in answer:
        value: Any = ctx.typed(answer, key, ANSWER_TYPES[key], "answer")
        if isinstance(value, int) and not isinstance(value, bool) and value < 0:
            raise ctx.fail(f"answer.{key}", f"must be 0 or more, not {value}")
        if key in ("cards", "discard"):
            with ctx.at(f"answer.{key}"):
                Cards.parse(value)


def _check_legal(position: Position, rules: Any, where: str) -> None:
    """The one legality check (:mod:`solver.legality`): a position the rules cannot produce is an error."""
    from solver.legality import check_legal

    check_legal(position, rules, where)


def load(path: str | Path) -> Puzzle:
    """Read one puzzle file: a regular file of at most ``SHANGHAI_MAX_BYTES`` (1 MiB), else a
    :class:`~solver.inputs.InputError` naming it (:func:`solver.inputs.read_file`)."""
    from solver.inputs import ENV, limits, read_file

    p = Path(path)
    text = read_file(p, limits().puzzle_bytes, "a puzzle file", ENV["puzzle_bytes"])
    return loads(text, str(p))


def iter_puzzle_paths(path: str | Path) -> list[Path]:
    """A file itself, or every ``*.toml`` below a folder, sorted."""
    p = Path(path)
    if p.is_dir():
        return sorted(p.rglob("*.toml"))
    return [p]


def position_dict(position: Position) -> dict[str, Any]:
    """The position as plain data, as written in a puzzle file's ``[position]``."""
    if isinstance(position, ManipulationPosition):
        return {"table": [str(m) for m in position.table], "hand": str(position.hand)}
    if isinstance(position, ContractPosition):
        out: dict[str, Any] = {"round": position.round, "hand": str(position.hand)}
        out["table"] = [{"cards": str(t.meld), "owner": t.owner} for t in position.table]
        out["laid_down"] = position.laid_down
        if position.discard is not None:
            out["discard"] = str(position.discard)
        if position.dead:
            out["dead"] = str(position.dead)
        if position.calls:
            out["calls"] = position.calls
        if position.drawn is not None:
            out["drawn"] = position.drawn
        return out
    out = {"hand": str(position.hand)}
    if position.to_beat is not None:
        out["to_beat"] = str(position.to_beat)
    if position.to_beat_kind is not None:
        out["to_beat_kind"] = position.to_beat_kind
    if position.opponent is not None:
        out["opponent"] = str(position.opponent)
    return out


def position_json(position: Position) -> dict[str, Any]:
    """The position as JSON data (docs/json.md): every group of cards a list of card codes."""
    data = position_dict(position)
    for key in ("hand", "dead", "to_beat", "opponent"):
        if key in data:
            data[key] = data[key].split()
    if isinstance(position, ManipulationPosition):
        data["table"] = [str(m).split() for m in position.table]
    elif isinstance(position, ContractPosition):
        data["table"] = [{"cards": str(t.meld).split(), "owner": t.owner} for t in position.table]
    return data


def dumps(puzzle: Puzzle) -> str:
    """The TOML text of a puzzle (``loads(dumps(p)) == p``)."""
    data: dict[str, Any] = {"game": puzzle.game}
    if puzzle.title:
        data["title"] = puzzle.title
    rules = {k: v for k, v in puzzle.rules.changed().items() if v is not None}
    if rules:
        data["rules"] = rules
    data["position"] = position_dict(puzzle.position)
    if puzzle.answer:
        data["answer"] = puzzle.answer
    if puzzle.meta:
        data["meta"] = puzzle.meta
    return tomli_w.dumps(data)


def dump(puzzle: Puzzle, path: str | Path) -> None:
    """Write a puzzle file."""
    Path(path).write_text(dumps(puzzle), encoding="utf-8")
