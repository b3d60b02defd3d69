"""The difficulty features: measured facts, one summary score; the level comes from the ladder.

Every generated puzzle is measured (the features are facts about the
position and its answer, computed exactly, never timed) and the features
are weighted into one summary score::

    >>> d = measure("manipulation", {"moved_cards": 2, "melds_broken": 1, "greedy_shortfall": 1,
    ...                              "moves": 3, "decoys": 0, "shallow_depth": 1}, "easy")
    >>> d.score, d.level
    (7.5, 'easy')

The level is not a band of the score: it is set by which models of a
human solver miss the puzzle (:mod:`solver.generate.ladder`); the score
only summarises the features (docs/generate.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

__all__ = ["LEVELS", "Level", "WEIGHTS", "Difficulty", "score", "measure", "SOLVE_SECONDS"]

SOLVE_SECONDS = 60.0
"""The time limit of every solve while generating: far above what a candidate needs (well under a
second), so that a busy machine never changes which candidates qualify and the same arguments
write the same files byte for byte (a time-out rejects a candidate, which shifts all that follow)."""

Level = Literal["easy", "medium", "hard", "expert"]
LEVELS: tuple[Level, ...] = ("easy", "medium", "hard", "expert")

WEIGHTS: dict[str, dict[str, float]] = {
    # Manipulation "play N cards": how much of the table must change, and how far a shallow search must look.
    "manipulation": {
        "moved_cards": 1.0,  # table cards that change meld in the least-change answer
        "melds_broken": 1.0,  # old melds not kept whole
        "greedy_shortfall": 1.0,  # cards the no-rearrangement greedy plays fewer
        "moves": 0.5,  # steps of the answer (moves and plays)
        "decoys": 0.5,  # hand cards playable on their own that the answer does not play
        "shallow_depth": 2.0,  # table cards a greedy must first lift off to find the answer (3: more than 2)
    },
    # Contract: lay-off with swaps / go out this turn / which card to discard.
    "contract": {
        "cards": 0.5,  # cards in the answer (laid off) or the distance to contract (discard)
        "swaps": 2.0,  # wild swaps the best lay-off needs
        "greedy_shortfall": 3.0,  # cards the greedy player's lay-off leaves behind (discard: 1 if it differs)
        "decoys": 1.0,  # hand cards that fit a meld alone but are not in the answer / discards one card worse
        "melds": 0.5,  # table melds (lay-off) or the cards of the hand (discard, over 4)
        "wilds": 1.0,  # wild cards on the table and in the hand
    },
    # Zheng Shang You: out in K plays / which reply.
    "zsy": {
        "plays": 0.5,  # K, the fewest plays to go out
        "hand": 0.25,  # cards in hand
        "wilds": 1.0,  # 2s and jokers in hand
        "greedy_shortfall": 5.0,  # extra plays the greedy player needs (reply: 1 if its reply is not the answer)
        "near_best": 0.25,  # first moves one play worse than the best
        "kinds": 0.5,  # kinds of combination in the answer
    },
}
"""Feature weights per game: the score is the weighted sum of the features."""


@dataclass(frozen=True, slots=True)
class Difficulty:
    """A puzzle's measured difficulty: the features, their score and its level (set by the ladder)."""

    features: tuple[tuple[str, int], ...]
    score: float
    level: Level

    def as_dict(self) -> dict[str, object]:
        """As written in a puzzle file's ``[meta]``: ``difficulty``, ``score`` and ``features``."""
        return {"difficulty": self.level, "score": self.score, "features": dict(self.features)}


def score(game: str, features: Mapping[str, int]) -> float:
    """The weighted sum of a game's features (rounded to 2 places; unknown names raise KeyError)."""
    weights = WEIGHTS[game]
    return round(sum(weights[name] * value for name, value in features.items()), 2)


def measure(game: str, features: Mapping[str, int], level: Level) -> Difficulty:
    """Score the features of a puzzle meant for ``level`` (features kept in the weights' order)."""
    ordered = tuple((name, int(features[name])) for name in WEIGHTS[game] if name in features)
    return Difficulty(ordered, score(game, dict(ordered)), level)
