"""Manipulation Shanghai's AI players: the greedy rule and the solver's choice.

Both see the game through the public state of :class:`ManipulationGame`
(the table, the player's hand) and return an action it accepts.
"""

from __future__ import annotations

import random
from typing import Any

from solver.engine.base import Decision
from solver.manipulation.game import ManipulationGame, MPlay, greedy_play
from solver.manipulation.play import best_play

__all__ = ["greedy_action", "solver_decision"]


def greedy_action(game: ManipulationGame, rng: random.Random) -> Any:
    """The simple play: the most cards without rearranging the table, else the first legal action."""
    legal = game.legal_actions()
    plays = [a for a in legal if isinstance(a, MPlay)]
    if not plays:
        return legal[0]
    p = game.to_move
    table = greedy_play(game.table, game.hands[p], game.rules)
    candidate = MPlay(p, table)
    if table != game.table and game.is_legal(candidate):
        return candidate
    return max(plays, key=lambda a: game.cards_played(a.table))


def solver_decision(game: ManipulationGame) -> Decision:
    """The most cards the solver can play (least change), with the reason."""
    p = game.to_move
    legal = game.legal_actions()
    plays = [a for a in legal if isinstance(a, MPlay)]
    if not plays:
        action = legal[0]
        return Decision(action, "no card can be played: " + str(action), {"playable": 0})
    if game.opened[p]:
        play = best_play(game.table, game.hands[p], game.rules, time_limit=game.time_limit)
        action = MPlay(p, play.table)
        if game.is_legal(action):
            return Decision(
                action,
                f"plays {len(play.played)} card(s) ({play.played}), the most possible"
                f" ({play.status}); moves {play.moved_cards} table card(s)",
                {"played": str(play.played), "status": play.status, "moved_cards": play.moved_cards},
            )
    best = max(plays, key=lambda a: game.cards_played(a.table))
    return Decision(best, f"plays {game.cards_played(best.table)} card(s)", {})
