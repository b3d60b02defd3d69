"""Shared machinery for rule sets: presets, building from a dict, the meld spec.

A rule set is a frozen dataclass whose fields are the named options of the
rule book (``../shared/rules``), with the defaults given there. Options are
validated from the field types: ``Literal[...]`` fields take one of their
values, ``bool`` fields a boolean, ``int`` fields an integer within the range
given in the field's metadata.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Self

from solver.cards import Card, Cards, clip
from solver.errors import RulesError

__all__ = ["MeldSpec", "RuleSet", "OptionInfo", "option", "Ace", "WildLimit", "shown", "values_text"]

Ace = Literal["low", "high", "both"]
WildLimit = Literal["fewer", "half", "any"]


def option(default: Any, lo: int | None = None, hi: int | None = None, doc: str = "", values: str = "") -> Any:
    """A rule-set field with an optional integer range, a one-line description and, for an
    option whose type does not say it, the values it takes in words."""
    return field(default=default, metadata={"lo": lo, "hi": hi, "doc": doc, "values": values})


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One rule option as ``shanghai rules`` shows it: name, values, default (as written in a file), meaning."""

    name: str
    values: str
    default: Any
    doc: str


def values_text(hint: Any, meta: Mapping[str, Any]) -> str:
    """The values an option takes, in words: ``low | high | both``, ``true | false``, ``1-4``."""
    if meta.get("values"):
        return str(meta["values"])
    origin = typing.get_origin(hint)
    if origin is Literal:
        return " | ".join(shown(v).strip("'") for v in typing.get_args(hint))
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        return values_text(args[0], meta) + " | unlimited"
    if hint is bool:
        return "true | false"
    if hint is int:
        lo, hi = meta.get("lo"), meta.get("hi")
        return f"{lo}-{hi}" if lo is not None and hi is not None else "an integer"
    return getattr(hint, "__name__", str(hint))


@dataclass(frozen=True, slots=True)
class MeldSpec:
    """What makes a valid set or run under a rule set: the data the validators read.

    ``set_max`` None means unbounded. ``wilds`` are the cards that are always
    wild. ``wild_limit`` compares wilds with natural cards in one meld;
    every meld needs at least one natural card whatever the limit.
    """

    set_min: int
    set_max: int | None
    set_distinct_suits: bool
    run_min: int
    run_max: int
    ace: Ace
    wilds: frozenset[Card]
    wild_limit: WildLimit

    def is_wild(self, card: Card) -> bool:
        """True if ``card`` is a wild card under these rules."""
        return card in self.wilds

    def wilds_allowed(self, naturals: int) -> int:
        """The most wilds a meld with ``naturals`` natural cards may hold."""
        if naturals == 0:
            return 0
        if self.wild_limit == "fewer":
            return naturals - 1
        if self.wild_limit == "half":
            return naturals
        return 10**6


class RuleSet:
    """Mixin for the per-game rule dataclasses: presets and dict round trips."""

    GAME: ClassVar[str]
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]]
    DEFAULT_PRESET: ClassVar[str]

    @classmethod
    def preset(cls, name: str) -> Self:
        """The named preset (``RulesError`` if there is none by that name)."""
        if name not in cls.PRESETS:
            known = ", ".join(sorted(cls.PRESETS))
            raise RulesError(f"unknown {cls.GAME} preset {clip(name)} (known: {known})")
        return cls.from_dict(dict(cls.PRESETS[name]), _allow_preset=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, _allow_preset: bool = True) -> Self:
        """Build from a mapping such as a puzzle file's ``[rules]`` table.

        The key ``preset`` picks the base; every other key overrides one
        option. Unknown keys and bad values raise :class:`RulesError`.
        """
        data = dict(data)
        base: dict[str, Any] = {}
        if "preset" in data:
            if not _allow_preset:
                raise RulesError("a preset cannot name another preset")
            name = data.pop("preset")
            if not isinstance(name, str):
                raise RulesError(f"rules.preset must be a string, not {shown(name)}")
            preset = cls.preset(name)
            base = {f.name: getattr(preset, f.name) for f in dataclasses.fields(preset)}  # type: ignore[arg-type]
        hints = typing.get_type_hints(cls)
        fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        for key, value in data.items():
            if key not in fields:
                raise RulesError(
                    f"unknown {cls.GAME} rule option {clip(str(key))} (known: preset, {', '.join(sorted(fields))})"
                )
            base[key] = cls._convert(key, value, hints[key], fields[key].metadata)
        try:
            return cls(**base)
        except RulesError:
            raise
        except (TypeError, ValueError) as exc:
            raise RulesError(f"bad {cls.GAME} rules: {exc}") from None

    @classmethod
    def _convert(cls, key: str, value: Any, hint: Any, meta: Mapping[str, Any]) -> Any:
        """Check one option value against its declared type; hook for composite options."""
        return check_value(f"{cls.GAME} rule option {key!r}", value, hint, meta)

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain data (``from_dict(to_dict())`` gives the rule set back)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}  # type: ignore[arg-type]

    def changed(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (for writing puzzle files)."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if v != default.to_dict()[k]}

    @classmethod
    def options_info(cls) -> tuple[OptionInfo, ...]:
        """Every option with its values, default and meaning (``shanghai rules``, docs/rules.md)."""
        hints = typing.get_type_hints(cls)
        default = cls().to_dict()
        return tuple(
            OptionInfo(f.name, values_text(hints[f.name], f.metadata), default[f.name], f.metadata.get("doc", ""))
            for f in dataclasses.fields(cls)  # type: ignore[arg-type]
        )

    @classmethod
    def describe(cls) -> dict[str, str]:
        """Option name -> one-line description, for ``--help`` and docs."""
        return {f.name: f.metadata.get("doc", "") for f in dataclasses.fields(cls)}  # type: ignore[arg-type]


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Cards):
        return str(value)
    return value


def shown(value: Any) -> str:
    """A value as a user wrote it in TOML or JSON (``true``, ``'x'``, ``3``), cut to ~40 characters."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, str):
        return clip(value)
    return clip(str(value)).strip("'\"")


def check_value(what: str, value: Any, hint: Any, meta: Mapping[str, Any]) -> Any:
    """Validate ``value`` against a simple type hint (Literal, bool, int, int | None)."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        allowed = typing.get_args(hint)
        if value not in allowed or isinstance(value, bool) != isinstance(allowed[0], bool):
            raise RulesError(f"{what} must be one of {', '.join(map(shown, allowed))}, not {shown(value)}")
        return value
    if origin in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if value is None or value == "unlimited":
            return None
        return check_value(what, value, args[0], meta)
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{what} must be true or false, not {shown(value)}")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{what} must be an integer, not {shown(value)}")
        lo, hi = meta.get("lo"), meta.get("hi")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise RulesError(f"{what} must be between {lo} and {hi}, not {value}")
        return value
    return value
