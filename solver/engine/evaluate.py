"""How a search scores a position it stops in: every player's result in [0, 1], by rank.

Once the hand (a Contract round) is over, the hand's score change ranks the
players. Before that each player's *standing* (lower is better) ranks them,
from the game's own solver so that an unfinished position is judged the way
the solver players play it:

- Zheng Shang You: a player who has gone out ranks by place; the others by
  the fewest plays that still empty their hand (:func:`solver.zsy.fewest_plays`),
  then by cards held.
- Contract Shanghai: a player who has not laid down by the distance to the
  contract (:func:`solver.contract.distance_to_contract`), then by the
  penalty points held; a player who has laid down by the cards held (each
  costs a turn to shed: the round goes to the first out), then the points.
- Manipulation Shanghai: by cards held.

Ties share a rank, so a result is ``(players below + half the players tied) / (n - 1)``.

:func:`ranked` orders a player's legal actions by the same measures (the
search's prior: which alternatives to the solver's choice to try first).

>>> from solver.engine import new_game
>>> game = new_game("zsy", seed=4, max_hands=1)
>>> [round(v, 2) for v in values(game, game.scores(), game._epoch())] == [
...     round(v, 2) for v in rank([-standing(game, q) for q in range(4)])]
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.engine.base import Game, PenaltyGame
from solver.errors import SolverTimeout

__all__ = ["rank", "ranked", "standing", "values", "LEAF_TIME_LIMIT"]

LEAF_TIME_LIMIT = 0.05
"""Seconds for each solver question asked to judge a leaf (a timeout falls back to what is held)."""


def rank(good: Sequence[float]) -> list[float]:
    """Each entry's rank in [0, 1] among ``good`` (higher is better; ties share).

    >>> rank([3.0, 1.0, 1.0, 0.0])
    [1.0, 0.5, 0.5, 0.0]
    """
    n = len(good)
    out = []
    for g in good:
        below = sum(1 for r in good if r < g)
        ties = sum(1 for r in good if r == g) - 1
        out.append((below + 0.5 * ties) / (n - 1))
    return out


def standing(game: Any, q: int) -> float:
    """Player ``q``'s standing in an unfinished hand (lower is better), as the module docstring says."""
    hand = game.hands[q]
    if game.GAME == "zsy":
        if q in game.places:
            return -float(game.num_players - game.places.index(q))
        from solver.zsy import fewest_plays

        return float(fewest_plays(hand, game.rules, time_limit=LEAF_TIME_LIMIT).count) + len(hand) / 100
    if game.GAME == "contract":
        points = float(sum(game.rules.points(c) for c in hand))
        if game.laid_down[q]:
            return len(hand) + points / 1000
        from solver.contract import distance_to_contract

        try:
            missing = distance_to_contract(
                hand, game.rules, game.round, seen=game.seen_cards(q), time_limit=LEAF_TIME_LIMIT, options=False
            ).missing
        except SolverTimeout:
            return 1000.0 + points
        return 1000.0 * (1 + missing) + points
    return float(len(hand))


def values(game: Game, start_scores: list[int], start_epoch: int) -> list[float]:
    """Every player's result in [0, 1] by rank: the hand's score change once it is over, else the standing."""
    if game.is_terminal() or game._epoch() != start_epoch:
        deltas = [s - s0 for s, s0 in zip(game.scores(), start_scores)]
        return rank([-float(d) for d in deltas] if isinstance(game, PenaltyGame) else [float(d) for d in deltas])
    return rank([-standing(game, q) for q in range(game.num_players)])


def ranked(game: Any, legal: list[Any]) -> list[Any]:
    """The legal actions best first by the game's solver measure (the others keep their order).

    Zheng Shang You: plays by the fewest plays they leave (:func:`solver.zsy.plays_after`),
    then the lower top card. Contract Shanghai: discards by the distance to the contract
    they leave (:func:`solver.contract.best_discards`). Manipulation Shanghai: as listed.
    """
    p = game.current_player()
    if game.GAME == "zsy":
        from solver.zsy import plays_after
        from solver.zsy.game import ZPlay

        plays = [a for a in legal if isinstance(a, ZPlay)]
        if len(plays) < 2:
            return legal
        left, _ = plays_after(game.hands[p], [a.combo for a in plays], game.rules, time_limit=LEAF_TIME_LIMIT)
        order = sorted(range(len(plays)), key=lambda i: (left[i], plays[i].combo.top))
        return [plays[i] for i in order] + [a for a in legal if not isinstance(a, ZPlay)]
    if game.GAME == "contract":
        from solver.contract import best_discards
        from solver.contract.actions import CDiscard

        discards = {a.card: a for a in legal if isinstance(a, CDiscard)}
        if len(discards) < 2:
            return legal
        try:
            best = best_discards(
                game.hands[p], game.rules, game.round, seen=game.seen_cards(p), time_limit=LEAF_TIME_LIMIT
            )
        except SolverTimeout:
            return legal
        first = [discards[c] for c, _ in best if c in discards]
        return first + [a for a in legal if a not in first]
    return legal
