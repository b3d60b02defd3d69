"""AI players: ``random``, ``greedy`` (simple rules, no search), ``solver`` and ``ismcts`` (search).

Every player sees the game only through what its seat may see (its hand,
the table, the discard, counts) and returns one of ``game.legal_actions()``
or another action the game accepts (a manipulation play from the solver).

>>> from solver.engine.players import PLAYER_KINDS
>>> sorted(PLAYER_KINDS)
['greedy', 'ismcts', 'random', 'solver', 'solver-old']
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from solver.engine.base import Decision, Game
from solver.errors import IllegalActionError

__all__ = ["PLAYER_KINDS", "Decision", "RandomPlayer", "GreedyPlayer", "SolverPlayer", "make_player", "make_players"]


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


class OldSolverPlayer(SolverPlayer):
    """``solver-old``: a game's earlier solver player, where it keeps one (Contract: the decisions
    before the whole-turn plan), else ``solver``; kept for paired comparisons."""

    name = "solver-old"

    def decide(self, game: Game) -> Decision:
        """The earlier solver's action with its reason."""
        module = _strategies(game)
        result: Decision = getattr(module, "old_solver_decision", module.solver_decision)(game)
        return result


def _ismcts(seed: int) -> Any:
    from solver.engine.ismcts import IsmctsPlayer

    return IsmctsPlayer(seed)


PLAYER_KINDS: dict[str, Callable[[int], Any]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "solver": SolverPlayer,
    "solver-old": OldSolverPlayer,
    "ismcts": _ismcts,
}


def make_player(kind: str, seed: int = 0) -> Any:
    """A player by name (``random``, ``greedy``, ``solver``, ``ismcts``).

    ``ismcts`` takes a budget and a rollout policy: ``ismcts:200`` (simulations
    a decision), ``ismcts:0.5s`` (seconds), ``ismcts:0.2s:solver``.
    """
    if kind.startswith("ismcts:"):
        from solver.engine.ismcts import parse_kind

        return parse_kind(kind, seed)
    if kind not in PLAYER_KINDS:
        raise IllegalActionError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
    return PLAYER_KINDS[kind](seed)


def make_players(kinds: Sequence[str], seed: int = 0) -> list[Any]:
    """Players for the seats, each with its own seed derived from ``seed``."""
    return [make_player(k, seed * 1000 + i) for i, k in enumerate(kinds)]


_STRATEGIES = {
    "manipulation": "solver.manipulation.players",
    "contract": "solver.contract.players",
    "zsy": "solver.zsy.players",
}


def _strategies(game: Game) -> ModuleType:
    """The players module beside the game (each has ``greedy_action`` and ``solver_decision``)."""
    return importlib.import_module(_STRATEGIES[game.GAME])
