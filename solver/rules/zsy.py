"""Zheng Shang You rules (``../shared/rules/zheng-shang-you.md``).

>>> ZsyRules.preset("teams6").target
50
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from solver.cards import Card, Cards, Joker, make_deck
from solver.errors import RulesError
from solver.rules.base import RuleSet, option

__all__ = ["ZsyRules"]


@dataclass(frozen=True, slots=True)
class ZsyRules(RuleSet):
    """Every option of Zheng Shang You, defaults from the ``individual`` preset."""

    GAME: ClassVar[str] = "zsy"
    DEFAULT_PRESET: ClassVar[str] = "individual"
    PRESETS: ClassVar = {
        "individual": {},
        "pairs": {"teams": "pairs", "min_players": 4, "max_players": 4},
        "teams6": {"teams": "teams6", "min_players": 6, "max_players": 6, "target": 50},
    }

    bombs: bool = option(False, doc="four of a kind is a bomb that beats any non-bomb")
    target: int = option(11, 1, 10_000, "score that ends the game (highest wins)")
    teams: Literal["none", "pairs", "teams6"] = option("none", doc="individual, pairs opposite, or 2 teams of 3")
    min_players: int = option(4, 2, 8, "fewest players")
    max_players: int = option(8, 2, 8, "most players")
    ranks: int = option(
        13, 1, 13, "ranks in the deck, lowest first (a small variant for game-theory tools: 13 is 3 up to 2)"
    )
    suits: int = option(4, 1, 4, "suits in the deck, in the order S H D C (a small variant: 4 is every suit)")
    jokers: int = option(2, 0, 2, "jokers in the deck: 2 the black and the red, 1 the black only, 0 none")

    def __post_init__(self) -> None:
        if self.min_players > self.max_players:
            raise RulesError("zsy rule option 'min_players' exceeds 'max_players'")

    @property
    def deck(self) -> Cards:
        """One 52-card deck plus the red and the black joker; a small variant keeps the lowest ``ranks``
        ranks (3 up), the first ``suits`` suits and ``jokers`` jokers (the black first)."""
        full = make_deck(1, {Joker.RED: 1, Joker.BLACK: 1})
        if (self.ranks, self.suits, self.jokers) == (13, 4, 2):
            return full
        order = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2][: self.ranks]
        suits = "SHDC"[: self.suits]
        jokers = [Joker.BLACK, Joker.RED][: self.jokers]
        return Cards(c for c in full if _kept(c, order, suits, jokers))


def _kept(card: Card, ranks: list[int], suits: str, jokers: list[Joker]) -> bool:
    """True if a small variant's deck keeps ``card``."""
    if card.is_joker:
        return card.joker in jokers
    return int(card.rank or 0) in ranks and card.suit is not None and card.suit.value in suits
