"""shanghai: a constraint-solver meld and rearrangement assistant for the Shanghai card games.

The library is ``solver``; its core types are re-exported here::

    >>> from solver import Cards, Meld
    >>> Cards.parse("qs 10h")
    Cards.parse('QS 10H')
"""

from solver.cards import Card, Cards, Joker, Rank, Suit, make_deck
from solver.errors import (
    CardError,
    IllegalActionError,
    MeldError,
    PuzzleError,
    RulesError,
    ShanghaiError,
    TooManyCopiesError,
)
from solver.melds import Meld, meld_kind, parse_table, validate_rearrangement

__version__ = "0.1.0"

__all__ = [
    "Card",
    "Cards",
    "Joker",
    "Rank",
    "Suit",
    "make_deck",
    "Meld",
    "meld_kind",
    "parse_table",
    "validate_rearrangement",
    "CardError",
    "IllegalActionError",
    "MeldError",
    "PuzzleError",
    "RulesError",
    "ShanghaiError",
    "TooManyCopiesError",
    "__version__",
]
