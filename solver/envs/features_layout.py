"""Where each part of the feature vector lies (:mod:`solver.envs.features` lays them out): the
sizes a game's view is built from, each part's offset, and the shape of a Zheng Shang You play.
"""

from __future__ import annotations

from typing import Any

from solver.cards import N_CARDS
from solver.envs.actions import MAX_MELDS

__all__ = [
    "HISTORY_SIZE",
    "MAX_KINDS",
    "MAX_MOVES",
    "MAX_SEATS",
    "MAX_TABLE",
    "MOVE_KINDS",
    "MOVE_SIZE",
    "N",
    "SHAPE",
    "feature_size",
    "table_slots",
]

N = N_CARDS
MAX_SEATS = 8
MAX_MOVES = 8  # the deal's last moves shown, newest first
MOVE_KINDS = {  # each game's move kinds (a move's one-hot, MAX_KINDS wide)
    "zsy": ("single", "set", "straight", "parallel", "pass", "offer", "take", "give"),
    "contract": ("discard", "take", "decline", "call", "nocall", "laydown", "layoff", "swap"),
    "manipulation": ("play", "draw", "pass"),
}
MAX_KINDS = 8
SHAPE = 2  # a Zheng Shang You play's shape: copies / 8, length / 16
MOVE_SIZE = MAX_SEATS + MAX_KINDS + SHAPE + N  # one move: its seat and kind (one-hot), its shape, its cards (N)
HISTORY_SIZE = MAX_SEATS * N + MAX_MOVES * MOVE_SIZE  # the cards played by seat, then the last moves


def table_slots(rules: Any) -> int:
    """The most melds a Manipulation table can hold under ``rules``: the deck's size over the
    shortest meld (no card is ever dropped from the table's view of that rule set)."""
    spec = rules.meld_spec
    return int(len(rules.deck) // min(spec.set_min, spec.run_min))


def _max_table() -> int:
    """The table slots of the largest deck the rule options allow (the view has one size a game)."""
    import dataclasses

    from solver.rules.manipulation import ManipulationRules

    high = {f.name: f.metadata["hi"] for f in dataclasses.fields(ManipulationRules) if f.name in ("decks", "jokers")}
    return table_slots(ManipulationRules(**high))


MAX_TABLE = _max_table()  # Manipulation table melds: 72 (4 decks and 8 jokers, melds of 3)
_COMMON = 2 * N + 3 * MAX_SEATS
_KINDS = ("single", "set", "straight", "parallel")  # a Zheng Shang You trick's kind (one-hot)
_ZSY_FACTS = _COMMON + 3 * N + 1 + 2 * MAX_SEATS  # where the trick's kind starts
_CONTRACT_ROLES = _COMMON + 2 * N + MAX_MELDS * (N + MAX_SEATS) + 2 * MAX_SEATS + 8 + 5 + MAX_MELDS + N + 1
_HISTORY = {  # where each game's history part (the cards played by seat, the last moves) starts
    "zsy": _ZSY_FACTS + len(_KINDS) + SHAPE,
    "contract": _CONTRACT_ROLES + MAX_MELDS * N,
    "manipulation": _COMMON + N + MAX_TABLE * N + MAX_SEATS + 2,
}
_SIZES = {game: at + HISTORY_SIZE for game, at in _HISTORY.items()}
_UNSET = object()  # a part never written into this buffer
_RANGE = range(N)
_NONE = (0,) * N  # the counts of no cards
_PHASES = {"first_discard": 0, "offer": 1, "call": 2, "play": 3, "over": 4}


def feature_size(game: str) -> int:
    """The length of :func:`features` for ``game``."""
    return _SIZES[game]


def _shape(combo: Any) -> tuple[float, float]:
    """A Zheng Shang You combination's shape as features (copies / 8, length / 16), zeros for none."""
    if combo is None:
        return (0.0, 0.0)
    return (combo.copies / 8, combo.length / 16)
