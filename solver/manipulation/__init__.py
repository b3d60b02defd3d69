"""Manipulation Shanghai: rearrange the whole table to play the most cards from the hand.

The public API; :mod:`solver.manipulation.game` holds the engine's game state and
:mod:`solver.manipulation.players` its AI players.
"""

from __future__ import annotations

from solver.manipulation.play import (
    Most,
    Move,
    Play,
    Playable,
    all_best_plays,
    best_play,
    can_play,
    format_table,
    max_cards_playable,
    play_value,
)

__all__ = [
    "Play",
    "Move",
    "Playable",
    "Most",
    "best_play",
    "all_best_plays",
    "can_play",
    "max_cards_playable",
    "play_value",
    "format_table",
]
