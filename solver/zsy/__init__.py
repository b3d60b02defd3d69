"""Zheng Shang You, the climbing game: combinations, comparison, legal moves and the fewest plays.

The public API; :mod:`solver.zsy.game` holds the engine's game state and
:mod:`solver.zsy.players` its AI players.
"""

from __future__ import annotations

from solver.zsy.combos import (
    KINDS,
    Combo,
    Kind,
    Split,
    beats,
    classify,
    combo_from_position,
    fewest_plays,
    legal_moves,
    plays_after,
    value_symbol,
    zsy_value,
)

__all__ = [
    "Kind",
    "KINDS",
    "Combo",
    "Split",
    "zsy_value",
    "value_symbol",
    "classify",
    "beats",
    "legal_moves",
    "fewest_plays",
    "combo_from_position",
    "plays_after",
]
