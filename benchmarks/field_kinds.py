"""The kinds of Manipulation positions the field benchmarks walk, and the peer's tile numbering.

Shared by :mod:`benchmarks.bench_manipulation_field` (in process) and
:mod:`benchmarks.field_process` (whole processes), below both of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from benchmarks.positions import random_position
from solver.cards import Cards, Suit
from solver.melds import Meld
from solver.rules import ManipulationRules


@dataclass(frozen=True, slots=True)
class Kind:
    """A kind of position: rules, table and hand sizes, jokers placed on the table."""

    name: str
    rules: ManipulationRules
    table: int
    hand: int
    table_jokers: int | None = None

    def positions(self, n: int, seed: int) -> list[tuple[tuple[Meld, ...], Cards]]:
        """``n`` seeded positions of this kind."""
        base = seed * 100_000 + sum(map(ord, self.name)) * 100
        return [random_position(self.rules, self.table, self.hand, base + k, self.table_jokers) for k in range(n)]


def _r(**kw: Any) -> ManipulationRules:
    return ManipulationRules(**kw)


KINDS: tuple[Kind, ...] = (
    Kind("small: 2 decks, table 20, hand 5", _r(), 20, 5),
    Kind("one deck, table 28, hand 14", _r(decks=1), 28, 14),
    Kind("two decks, table 40, hand 22 (tight)", _r(), 40, 22),
    Kind("two decks, dense table 76, hand 16", _r(), 76, 16),
    Kind("two decks, big hand 42, table 38", _r(), 38, 42),
    Kind("three decks, table 110, hand 20", _r(decks=3), 110, 20),
    Kind("four decks, table 143, hand 27", _r(decks=4), 143, 27),
    Kind("four decks, table 190, hand 50", _r(decks=4), 190, 50),
    Kind("ace high, 2 decks, table 50, hand 14", _r(ace="high"), 50, 14),
    Kind("ace both, 2 decks, table 50, hand 14", _r(ace="both"), 50, 14),
    Kind("2 jokers, 2 decks, table 40, hand 14", _r(jokers=2), 40, 14),
    Kind("4 jokers, 2 decks, table 60, hand 14", _r(jokers=4), 60, 14),
    Kind("6 jokers, 4 decks, table 180, hand 30", _r(decks=4, jokers=6), 180, 30, 3),
)


def peer_tile(card: Any, ace: str) -> int:
    """The peer's tile number of a card (52 for a joker; ace ``high`` relabelled as the peer's ace low)."""
    if card.rank is None:
        return 52
    rank = int(card.rank)
    number = (13 if rank == 1 else rank - 1) if ace == "high" else rank
    return list(Suit).index(card.suit) * 13 + number - 1
