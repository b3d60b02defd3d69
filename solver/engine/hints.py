"""Hints: the best action for the player to move, and why.

For a live game (a game state or a replayed record) the hint is the
``solver`` player's decision. For a puzzle position the hint answers the
position's question directly with the solver.
"""

from __future__ import annotations

from typing import Any

from solver.cards import Cards
from solver.engine.base import Game
from solver.engine.players import Decision, SolverPlayer
from solver.errors import Status
from solver.melds import format_table
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition

__all__ = ["hint_for_game", "hint_for_puzzle"]


def hint_for_game(game: Game) -> Decision:
    """The solver player's choice for the player to move, with its reason."""
    return SolverPlayer().decide(game)


def hint_for_puzzle(puzzle: Puzzle, time_limit: float = 10.0) -> Decision:
    """The best move in a puzzle position, with its reason."""
    pos = puzzle.position
    if isinstance(pos, ManipulationPosition):
        return _manipulation(puzzle, pos, time_limit)
    if isinstance(pos, ZsyPosition):
        return _zsy(puzzle, time_limit)
    assert isinstance(pos, ContractPosition)
    return _contract(puzzle, pos, time_limit)


def _manipulation(puzzle: Puzzle, pos: ManipulationPosition, time_limit: float) -> Decision:
    from solver.manipulation import best_play

    play = best_play(pos.table, pos.hand, puzzle.rules, time_limit=time_limit)  # type: ignore[arg-type]
    if play.status is Status.INFEASIBLE:
        return Decision("draw", "no card from the hand can be played: draw", {"played": 0})
    return Decision(
        f"play {format_table(play.table)}",
        f"plays {len(play.played)} card(s): {play.played} ({play.status}); "
        f"keeps {play.kept_melds} meld(s), moves {play.moved_cards} table card(s)",
        {
            "played": [str(c) for c in play.played],
            "moves": [str(m) for m in play.moves],
            "status": str(play.status),
        },
    )


def _zsy(puzzle: Puzzle, time_limit: float) -> Decision:
    """The first of the moves ``shanghai solve`` ranks best (fewest plays left after it)."""
    from solver.answers import SolveOptions, solve_puzzle

    answer = solve_puzzle(puzzle, SolveOptions(time_limit=time_limit))
    now = answer.data["fewest_plays"]
    ranked = answer.result["ranked"]
    if not ranked:
        return Decision("pass", "no combination beats the one to beat", {"fewest_plays": now})
    best, after = ranked[0]
    return Decision(
        f"play {best}",
        f"leaves {after} play(s) to go out (the hand now needs {now})",
        {"fewest_plays": now, "after": after},
    )


def _contract(puzzle: Puzzle, pos: ContractPosition, time_limit: float) -> Decision:
    from solver.contract import best_discards, best_lay_down, best_layoff, distance_to_contract

    rules: Any = puzzle.rules
    seen = pos.dead + Cards(c for t in pos.table for c in t.meld.cards)
    if pos.discard is not None:
        seen = seen + Cards([pos.discard])
    if pos.laid_down:
        plan = best_layoff(pos.hand, pos.table, rules, player=0, time_limit=time_limit)
        if plan.played:
            return Decision(
                f"lay off {plan.played}",
                f"lays off {len(plan.played)} card(s) worth {plan.points} points"
                + ("; goes out" if plan.can_go_out else ""),
                {"can_go_out": plan.can_go_out},
            )
        worst = max(pos.hand, key=rules.points)
        return Decision(f"discard {worst}", "nothing can be laid off: discard the card worth most", {})
    lay = best_lay_down(pos.hand, rules, pos.round, time_limit=time_limit)
    if lay is not None:
        return Decision(
            f"lay down {format_table(lay.melds)}",
            f"the contract can be made, leaving {lay.points_left} points in hand",
            {"points_left": lay.points_left},
        )
    now = distance_to_contract(pos.hand, rules, pos.round, seen=seen, time_limit=time_limit)
    if pos.discard is not None:
        without_top = seen - Cards([pos.discard])
        hand = pos.hand + Cards([pos.discard])
        taken = best_discards(hand, rules, pos.round, seen=without_top, time_limit=time_limit)
        if taken and taken[0][1] < now.missing:
            return Decision(
                f"take {pos.discard}",
                f"with {pos.discard} (then discarding {taken[0][0]}) the contract is {taken[0][1]} card(s) away"
                f" (now {now.missing})",
                {"distance": now.missing, "distance_with_discard": taken[0][1]},
            )
    card, after = best_discards(pos.hand, rules, pos.round, seen=seen, time_limit=time_limit)[0]
    return Decision(
        f"discard {card}",
        f"the contract is {now.missing} card(s) away; without {card} it is {after} away",
        {"distance": now.missing, "outs": str(now.options)},
    )
