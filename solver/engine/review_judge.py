"""What every judge of a game review (:mod:`solver.engine.review`) shares: one judged decision
(:class:`Move`), the replay that hands the reviewed seat's decisions to a judge (:class:`_Judge`),
and the weights of Contract Shanghai's measure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import IllegalActionError

__all__ = ["DISTANCE_POINTS", "ROLLOUT_ACTIONS", "Move"]

ROLLOUT_ACTIONS = 5000
"""The most actions a sampled Contract round is played on for (the engine's turn limit ends it sooner)."""

DISTANCE_POINTS = 10
"""What one card of distance to the contract weighs in Contract Shanghai's measure, in penalty points."""


@dataclass(frozen=True, slots=True)
class Move:
    """One judged decision: the action taken, the solver's best, their values and the loss."""

    index: int  # the record's action index (0-based) of the decision's first action
    deal: int  # the hand or round (1-based)
    kind: str  # play (Manipulation, ZSY), turn or offer (Contract)
    taken: str
    best: str
    taken_value: float
    best_value: float
    loss: float
    proven: bool
    puzzle: Any = None  # a Puzzle of the position with the best action as its solution, or None

    def to_json(self) -> dict[str, Any]:
        """The move as JSON data (docs/json.md, ``review``)."""
        return {
            "index": self.index,
            "deal": self.deal,
            "kind": self.kind,
            "taken": self.taken,
            "best": self.best,
            "taken_value": self.taken_value,
            "best_value": self.best_value,
            "loss": self.loss,
            "proven": self.proven,
        }


class _Judge:
    """Replays the game; subclasses judge the seat's decisions before (and after) each is applied."""

    def __init__(self, game: Any, seat: int, time_limit: float) -> None:
        self.game = game
        self.seat = seat
        self.time_limit = time_limit
        self.moves: list[Move] = []
        self.unjudged = 0
        self.samples = 0

    def deal(self) -> int:
        return int(self.game._epoch())

    def step(self, index: int, action: Any) -> None:
        game = self.game
        if action.player != game.current_player():
            raise IllegalActionError(f"it is player {game.current_player()}'s turn, not player {action.player}'s")
        if action.player == self.seat:
            self.judge(index, action)
        else:
            game.apply(action)

    def judge(self, index: int, action: Any) -> None:  # pragma: no cover - every game overrides
        raise NotImplementedError

    def finish(self) -> None:
        """Close a decision still open at the end of the record."""

    def best(self) -> Any:
        from solver.engine.hints import hint_for_game

        return hint_for_game(self.game)
