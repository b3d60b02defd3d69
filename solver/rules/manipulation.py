"""Manipulation Shanghai rules (``../shared/rules/manipulation.md``).

The dataclass defaults are the default preset, ``german``. The rule book
marks ``must_play = one`` as the option's default but gives the default
preset ``more_than_one``; a rule set with no preset named is the default
preset, so ``ManipulationRules()`` has ``more_than_one`` (docs/decisions.md).
More than 5 players need a third deck: ``max_players`` left at its default
5 reads as 8 when ``decks`` is 3 or more.

>>> ManipulationRules.preset("norwegian").ace
'both'
>>> ManipulationRules.from_dict({"preset": "norwegian", "jokers": 2}).jokers
2
>>> ManipulationRules().max_players, ManipulationRules(decks=3).max_players
(5, 8)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import ClassVar, Literal

from solver.cards import Card, Cards, Joker, make_deck
from solver.errors import RulesError
from solver.rules.base import Ace, MeldSpec, RuleSet, option

__all__ = ["ManipulationRules"]

JOKER = Card(None, None, Joker.PLAIN)


@dataclass(frozen=True, slots=True)
class ManipulationRules(RuleSet):
    """Every option of Manipulation Shanghai, defaults from the ``german`` preset."""

    GAME: ClassVar[str] = "manipulation"
    DEFAULT_PRESET: ClassVar[str] = "german"
    PRESETS: ClassVar = {
        "german": {},
        "norwegian": {"decks": 1, "ace": "both", "must_play": "one", "draw_rule": "one", "min_players": 2},
        "rummikub": {"must_play": "never", "draw_rule": "one", "deal": 14, "jokers": 2, "initial_meld": 30},
    }

    decks: int = option(2, 1, 4, "number of 52-card decks")
    ace: Ace = option("low", doc="ace low (A-2-3), high (Q-K-A) or both (never K-A-2)")
    jokers: int = option(0, 0, 8, "jokers (JK) in the deck; wild anywhere in a meld")
    must_play: Literal["one", "more_than_one", "never"] = option(
        "more_than_one", doc="what a player able to play must play"
    )
    draw_rule: Literal["until_playable", "one"] = option(
        "until_playable", doc="draw until a card can be played, or draw one"
    )
    deal: int = option(10, 1, 20, "cards dealt to each player")
    initial_meld: int = option(0, 0, 200, "points a first play from hand alone must reach")
    target: int = option(50, 1, 10_000, "the first player to reach this total loses")
    min_players: int = option(3, 2, 8, "fewest players")
    max_players: int = option(5, 2, 8, "most players (the default 5 reads as 8 with decks = 3 or more)")

    def __post_init__(self) -> None:
        if self.decks >= 3 and self.max_players == 5:  # more than 5 players: a deck is added, 3 decks seat 8
            object.__setattr__(self, "max_players", 8)
        if self.min_players > self.max_players:
            raise RulesError("manipulation rule option 'min_players' exceeds 'max_players'")

    @property
    def deck(self) -> Cards:
        """All cards in play: ``decks`` x 52 plus ``jokers`` plain jokers."""
        return make_deck(self.decks, {Joker.PLAIN: self.jokers} if self.jokers else None)

    @property
    def meld_spec(self) -> MeldSpec:
        """Sets of 3-4 in distinct suits, runs of 3-13, jokers wild anywhere (built once per rule set)."""
        return _meld_spec(self.ace, self.jokers > 0)

    def card_value(self, card: Card) -> int:
        """Value for the ``value`` objective: A=1 ... K=13 (A=14 with ``ace=high``); jokers 0."""
        if card.rank is None:
            return 0
        if card.rank == 1 and self.ace == "high":
            return 14
        return int(card.rank)


@cache
def _meld_spec(ace: Ace, jokers: bool) -> MeldSpec:
    return MeldSpec(
        set_min=3,
        set_max=4,
        set_distinct_suits=True,
        run_min=3,
        run_max=13,
        ace=ace,
        wilds=frozenset({JOKER}) if jokers else frozenset(),
        wild_limit="any",
    )
