"""Zheng Shang You rules (``../shared/rules/zheng-shang-you.md``).

>>> ZsyRules.preset("teams6").target
50
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from solver.cards import Cards, Joker, make_deck
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

    def __post_init__(self) -> None:
        if self.min_players > self.max_players:
            raise RulesError("zsy rule option 'min_players' exceeds 'max_players'")

    @property
    def deck(self) -> Cards:
        """One 52-card deck plus the red and the black joker."""
        return make_deck(1, {Joker.RED: 1, Joker.BLACK: 1})
