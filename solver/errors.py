"""The error hierarchy: every bad input is a :class:`ValueError` subclass.

Library callers catch :class:`ShanghaiError` (or plain ``ValueError``); the
CLI turns each into one line on stderr and exit code 2.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = [
    "Status",
    "SolverTimeout",
    "ShanghaiError",
    "CardError",
    "TooManyCopiesError",
    "MeldError",
    "RulesError",
    "PuzzleError",
    "IllegalActionError",
    "ComboError",
]


class ShanghaiError(ValueError):
    """Base class of every error this library raises for bad input."""


class CardError(ShanghaiError):
    """A card or a list of cards could not be parsed."""


class TooManyCopiesError(ShanghaiError):
    """A multiset holds more copies of a card than the decks contain."""


class MeldError(ShanghaiError):
    """A meld breaks the rules, or a table arrangement is not valid."""


class RulesError(ShanghaiError):
    """An unknown rule option, a bad option value or an unknown preset."""


class PuzzleError(ShanghaiError):
    """A puzzle file is unreadable or malformed (the message names the file)."""


class IllegalActionError(ShanghaiError):
    """An action that the rules do not allow in the current position."""


class ComboError(ShanghaiError):
    """Cards that form no legal Zheng Shang You combination (or an ambiguous one)."""


class Status(StrEnum):
    """How sure an answer is, the same four words in every game.

    ``optimal``: proven best; ``feasible``: the best found within the time
    limit, not proven; ``infeasible``: proven that there is none (no card can
    be played, the contract cannot be made); ``unknown``: the time ran out
    before any answer.

    >>> Status.OPTIMAL == "optimal"
    True
    """

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"


class SolverTimeout(RuntimeError):
    """A search or a CP-SAT solve ran out of time before it found any answer.

    Not a :class:`ShanghaiError`: the input was fine, the time limit was too
    short; the CLI reports it as exit code 1 with one line.
    """
