"""AI players: ``random``, ``greedy`` (simple rules, no search), ``solver`` and ``ismcts`` (search).

Every player sees the game only through what its seat may see (its hand,
the table, the discard, counts) and returns one of ``game.legal_actions()``
or another action the game accepts (a manipulation play from the solver).

>>> from solver.engine.players import PLAYER_KINDS
>>> sorted(PLAYER_KINDS)
['greedy', 'ismcts', 'random', 'solver', 'solver-old']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from solver.engine.base import Decision, Game
from solver.engine.basic_players import GreedyPlayer, RandomPlayer, SolverPlayer, _strategies
from solver.errors import IllegalActionError

__all__ = ["PLAYER_KINDS", "Decision", "RandomPlayer", "GreedyPlayer", "SolverPlayer", "make_player", "make_players"]


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
