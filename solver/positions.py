"""The positions a puzzle holds, one type per game (re-exported by :mod:`solver.puzzles`).

Their own module, below both :mod:`solver.puzzles` (the file format) and
:mod:`solver.legality` (the one legality check), which reads them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from solver.cards import Card, Cards
from solver.melds import Meld, TableMeld

__all__ = ["ManipulationPosition", "ContractPosition", "ZsyPosition", "Position"]


@dataclass(frozen=True, slots=True)
class ManipulationPosition:
    """The melds on the table and the hand of the player to move."""

    table: tuple[Meld, ...]
    hand: Cards


@dataclass(frozen=True, slots=True)
class ContractPosition:
    """A Contract Shanghai position from the view of the player to move."""

    round: int
    hand: Cards
    table: tuple[TableMeld, ...] = ()
    laid_down: bool = False
    discard: Card | None = None
    dead: Cards = field(default_factory=Cards)
    calls: int = 0
    drawn: bool | None = None


@dataclass(frozen=True, slots=True)
class ZsyPosition:
    """A Zheng Shang You hand and, optionally, the combination to beat, or the last opponent's
    hand (``opponent``: a two-player endgame, you to lead; never with ``to_beat``)."""

    hand: Cards
    to_beat: Cards | None = None
    to_beat_kind: str | None = None
    opponent: Cards | None = None


Position = ManipulationPosition | ContractPosition | ZsyPosition
