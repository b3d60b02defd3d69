"""The players that do not search: ``random``, ``greedy`` (simple rules) and ``solver``.

Below both :mod:`solver.engine.players` (the registry of player kinds, which
re-exports these) and :mod:`solver.engine.ismcts` (whose rollouts and
default play with them), so that imports run one way.
"""

from __future__ import annotations

import importlib
import random
from types import ModuleType
from typing import Any

from solver.engine.base import Decision, Game

__all__ = ["RandomPlayer", "GreedyPlayer", "SolverPlayer"]


class RandomPlayer:
    """Uniformly random among the legal actions (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        """A random legal action."""
        return self.rng.choice(game.legal_actions())


class GreedyPlayer:
    """Simple rules and no search: play the most cards now, keep pairs, shed high cards."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        """The greedy rule's action for the game."""
        return _strategies(game).greedy_action(game, self.rng)


class SolverPlayer:
    """Decisions from the solver: best rearrangement, contract distance, lay-off, fewest plays."""

    name = "solver"

    def __init__(self, seed: int = 0) -> None:
        """The solver's choices are deterministic: ``seed`` is accepted as for the other players."""

    def choose(self, game: Game) -> Any:
        """The solver's action for the game."""
        return self.decide(game).action

    def decide(self, game: Game) -> Decision:
        """The solver's action with the reason for it (used by hints)."""
        result: Decision = _strategies(game).solver_decision(game)
        return result


_STRATEGIES = {
    "manipulation": "solver.manipulation.players",
    "contract": "solver.contract.players",
    "zsy": "solver.zsy.players",
}


def _strategies(game: Game) -> ModuleType:
    """The players module beside the game (each has ``greedy_action`` and ``solver_decision``)."""
    return importlib.import_module(_STRATEGIES[game.GAME])
