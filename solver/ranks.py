"""The shared rules of thumb about ranks and runs, each written once.

Rank positions: a run climbs positions 1..14 where 1 and 14 are both the ace
(low and high); the rule option ``ace`` (``low``, ``high``, ``both``) says
which of the two an ace may take. A natural card's *index* is
``suit * 13 + rank - 1`` (0..51, as :attr:`solver.cards.Card.index`);
index 52 is the plain joker in the solver models' count vectors.

>>> positions_of(Rank.ACE, "both"), position_range("high")
((1, 14), (2, 14))
>>> card_index(0, 14) == card_index(0, 1) == 0
True
>>> ace_high("both", [12, 13]), ace_high("both", [2, 3]), ace_high("low", [13])
(True, False, False)
>>> wild_cap("fewer", 4), wild_cap("half", 4), wild_cap("any", 4)
(1, 2, 3)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Final

from solver.cards import Card, Joker, Rank, Suit

__all__ = [
    "N_NATURAL",
    "JOKER",
    "JOKER_INDEX",
    "MAX_RUN",
    "VALUE_SCALE",
    "SUITS",
    "position_range",
    "positions_of",
    "position_rank",
    "card_index",
    "natural_card",
    "ace_high",
    "wild_cap",
]

N_NATURAL: Final = 52
"""Natural cards in a deck; card indexes from here on are jokers."""
JOKER: Final = Card(None, None, Joker.PLAIN)
"""The plain joker, the one wild card the solver models count (colour does not matter to them)."""
JOKER_INDEX: Final = JOKER.index
MAX_RUN: Final = 13
"""The longest run: a run holds each rank at most once."""
VALUE_SCALE: Final = 256
"""The value objective's weight of a card: ``value * VALUE_SCALE + 1``, so more cards break ties."""
SUITS: Final = tuple(Suit)


def position_range(ace: str) -> tuple[int, int]:
    """The lowest and highest rank position a run may use under ``ace``."""
    return (2 if ace == "high" else 1, 13 if ace == "low" else 14)


def positions_of(rank: Rank | int, ace: str) -> tuple[int, ...]:
    """The positions a rank may take in a run under ``ace`` (an ace may have two)."""
    if rank != Rank.ACE:
        return (int(rank),)
    return {"low": (1,), "high": (14,), "both": (1, 14)}[ace]


def position_rank(position: int) -> Rank:
    """The rank at a position (1 and 14 are both the ace)."""
    return Rank(1 if position == 14 else position)


def card_index(suit: int, position: int) -> int:
    """The card index of the natural card of ``suit`` at a rank position."""
    return suit * 13 + (0 if position == 14 else position - 1)


@cache
def natural_card(index: int) -> Card:
    """The natural card with this index (0..51)."""
    return Card(Rank(index % 13 + 1), SUITS[index // 13])


def ace_high(ace: str, ranks: Iterable[int]) -> bool:
    """Whether an ace in a run with these other ranks sits above the king (position 14).

    Always under ``ace = "high"``, never under ``"low"``. Under ``"both"`` the
    ace takes the end that gives the shorter run: read high, the run spans
    from its lowest other rank to 14; read low, from 1 to its highest other
    rank; a tie (only runs that hold every rank, or no other rank) reads low.
    ``ranks`` are the run's other cards' ranks (aces among them are ignored),
    wilds counted by the rank they stand for when known.

    >>> ace_high("both", range(2, 14)), ace_high("both", range(2, 13)), ace_high("both", [])
    (False, False, False)
    """
    if ace != "both":
        return ace == "high"
    others = [r for r in ranks if r != 1]
    if not others:
        return False
    return 15 - min(others) < max(others)


def wild_cap(limit: str, size: int) -> int:
    """The most wilds a meld of ``size`` cards may hold under ``wild_limit`` (at least one natural)."""
    if limit == "fewer":
        return (size - 1) // 2
    if limit == "half":
        return size // 2
    return size - 1
