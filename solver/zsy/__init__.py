"""Zheng Shang You, the climbing game: combinations, comparison, legal moves and the fewest plays.

The public API, by module:

- :mod:`solver.zsy.combos`: the card order (:func:`zsy_value`), :class:`Combo`,
  :func:`classify`, :func:`beats`, :func:`combo_from_position`;
- :mod:`solver.zsy.moves`: :func:`legal_moves` and the lazy :func:`iter_moves`;
- :mod:`solver.zsy.fewest`: :func:`fewest_plays` and :func:`plays_after`;
- :mod:`solver.zsy.reply`: :func:`best_reply`, the one choice of a reply (or a pass);
- :mod:`solver.zsy.game`: the engine's game state, :mod:`solver.zsy.players`
  its AI players.
"""

from __future__ import annotations

from solver.zsy.combos import (
    ACE,
    KINDS,
    TWO,
    Combo,
    Kind,
    beats,
    classify,
    combo_from_position,
    is_wild,
    label_shape,
    split_label,
    value_symbol,
    zsy_value,
)
from solver.zsy.fewest import Split, fewest_plays, plays_after
from solver.zsy.moves import iter_moves, legal_moves
from solver.zsy.reply import Reply, best_reply

__all__ = [
    "Kind",
    "KINDS",
    "ACE",
    "TWO",
    "Combo",
    "Split",
    "zsy_value",
    "is_wild",
    "value_symbol",
    "classify",
    "beats",
    "legal_moves",
    "iter_moves",
    "fewest_plays",
    "combo_from_position",
    "split_label",
    "label_shape",
    "plays_after",
    "Reply",
    "best_reply",
]
