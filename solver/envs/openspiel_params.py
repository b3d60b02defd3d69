"""The OpenSpiel games' parameters (rule options among them) and their length bound.

Every option of the game's rule set is a game parameter, next to the
engine's own (``players``, ``preset``, ``hands``, ``turn_limit``). A rule
option left at its parameter default (``""``, or ``-1`` for a number)
keeps the preset's value; a value given overrides it, checked as the rule
set checks every option (:class:`~solver.errors.RulesError`, one line).
Types: an integer option is an ``int`` parameter; a true/false option an
``int``, 1 or 0 (OpenSpiel reads ``true`` as a bool parameter, which has no
value left to mean "the preset's"); a choice a string; ``max_calls`` an
``int`` (left out: unlimited, as in every preset); ``contracts`` ``finnish``, ``us`` or rounds
separated by ``/`` (``set run/run run``: OpenSpiel's game strings keep
commas for parameters).

>>> rule_data("contract", {"preset": "us", "ace": "low", "layoff_same_turn": 0, "deal": -1})
{'preset': 'us', 'ace': 'low', 'layoff_same_turn': False}
>>> rule_data("zsy", {"bombs": 2})
Traceback (most recent call last):
...
solver.errors.RulesError: zsy rule option 'bombs' must be 1 (true) or 0 (false), not 2

:func:`length_bound` is the longest a game can last, in OpenSpiel steps
(chance outcomes and env actions), derived from the rules:

* each engine action takes at most ``(MAX_CANCELS + 1) * (3C + 3) +
  MAX_CANCELS`` env steps, ``C`` the cards in the game: between cancels
  (at most ``MAX_CANCELS`` per engine action) an attempt picks at most
  every card (``select``), closes at most one meld per card (Contract's
  ``meld``) or puts every card of the table and hand and closes one
  meld per card (Manipulation's ``build``), names at most one role per
  wild (``role r``: :mod:`solver.envs.readings`), then commits once;
* engine actions per hand (round) ``E``: Zheng Shang You ``n C + 6``
  (a play sheds a card, at most ``n - 1`` passes follow a play, six
  tribute steps); Contract ``(turn_limit + 1)(n + 3) + C`` (a turn is a
  take or decline, up to ``n - 1`` calls, a lay-down and a discard, and
  every lay-off or swap sheds a card; ``turn_limit`` ends the round);
  Manipulation ``3C + n (C + 1)`` (a draw takes a stock card and may be
  followed by one pass, a play sheds a card, at most ``n`` passes with
  an empty stock end the hand);
* ``hands`` hands (rounds), and the deal's ``SEED_BYTES`` chance steps.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from collections.abc import Mapping
from typing import Any, Literal

from solver.envs.turn import MAX_CANCELS
from solver.errors import RulesError
from solver.rules import rules_for

__all__ = ["ENGINE_PARAMS", "actions_per_hand", "length_bound", "rule_data", "spec", "steps_per_action"]

ENGINE_PARAMS: dict[str, Any] = {"players": 0, "preset": "", "hands": 1, "turn_limit": 1000, "random_seed": 1}


@functools.cache
def _hints(name: str) -> dict[str, Any]:
    cls = type(rules_for(name))
    hints = typing.get_type_hints(cls)
    return {f.name: hints[f.name] for f in dataclasses.fields(cls)}


def _is_int(hint: Any) -> bool:
    """True for the options that are ``int`` parameters: numbers, true/false, ``int | None``."""
    if hint is int or hint is bool:
        return True
    args = typing.get_args(hint)
    if typing.get_origin(hint) is Literal:
        return all(type(a) is int for a in args)
    return int in args


def spec(name: str) -> dict[str, Any]:
    """The parameter specification of game ``name``: the engine's parameters and every rule option."""
    rules = {key: -1 if _is_int(hint) else "" for key, hint in _hints(name).items()}
    return {**ENGINE_PARAMS, **rules}


def rule_data(name: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The rule data (preset and overrides) that ``params`` asks for, for :func:`solver.rules.rules_for`."""
    data: dict[str, Any] = {"preset": params["preset"]} if params.get("preset") else {}
    for key, hint in _hints(name).items():
        value = params.get(key, -1 if _is_int(hint) else "")
        if value in ("", -1):
            continue
        data[key] = _convert(name, key, hint, value)
    return data


def _convert(name: str, key: str, hint: Any, value: Any) -> Any:
    """One parameter value as the rule option's value (the rule set checks it further)."""
    if hint is bool:
        if value not in (0, 1) or isinstance(value, bool):
            raise RulesError(f"{name} rule option {key!r} must be 1 (true) or 0 (false), not {value!r}")
        return value == 1
    if key == "contracts":
        text = str(value)
        return text if text in ("finnish", "us") else [r.strip() for r in text.split("/")]
    return value


def steps_per_action(cards: int) -> int:
    """The most env steps one engine action takes in a game of ``cards`` cards (module docstring)."""
    return (MAX_CANCELS + 1) * (3 * cards + 3) + MAX_CANCELS


def actions_per_hand(name: str, players: int, cards: int, turn_limit: int) -> int:
    """The most engine actions one hand (Contract: round) takes (module docstring)."""
    if name == "zsy":
        return players * cards + 6
    if name == "contract":
        return (turn_limit + 1) * (players + 3) + cards
    return 3 * cards + players * (cards + 1)


def length_bound(name: str, players: int, cards: int, hands: int, turn_limit: int, chance: int) -> int:
    """The most OpenSpiel steps a game takes: ``chance`` deal steps, then ``hands`` hands."""
    return chance + hands * actions_per_hand(name, players, cards, turn_limit) * steps_per_action(cards)
