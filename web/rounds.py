"""Where a move ends a round (Contract) or a hand (Manipulation, Zheng Shang You): the web log
marks it, so the page can show the round's result, a score table and a separator in its log.

A log entry of a move that ends a round carries ``round_end``: ``{"round": n, "points": [...],
"scores": [...]}``, the round's number (from 1), what each seat's score changed by in it (Contract:
the penalty points taken, lower is better; the others: the points won) and the scores after it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["RoundMark", "mark", "round_end"]


@dataclass(frozen=True, slots=True)
class RoundMark:
    """What a game says of its rounds before a move: the round (or hand) being played, whether the
    game is over, and the scores."""

    number: int
    terminal: bool
    scores: tuple[int, ...]


def _number(game: Any) -> int:
    """The round (Contract) or hand (the others) being played, from 1."""
    value = getattr(game, "round", None)
    if not isinstance(value, int):
        value = getattr(game, "hand_number", 0)
    return value if isinstance(value, int) else 0


def mark(game: Any) -> RoundMark:
    """The game's rounds and scores now (taken before a move)."""
    return RoundMark(_number(game), bool(game.is_terminal()), tuple(int(s) for s in game.scores()))


def round_end(before: RoundMark, game: Any) -> dict[str, Any] | None:
    """The result of the round the move after ``before`` ended (None: the round goes on). A round
    ends when the next one is dealt or the game ends."""
    terminal = bool(game.is_terminal())
    if before.terminal or (_number(game) == before.number and not terminal):
        return None
    scores = [int(s) for s in game.scores()]
    points = [after - was for after, was in zip(scores, before.scores, strict=True)]
    return {"round": before.number, "points": points, "scores": scores}
