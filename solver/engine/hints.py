"""Hints: the best action for the player to move, and why.

For a live game (a game state or a replayed record) the hint is the
``solver`` player's decision. For a puzzle position the hint answers the
position's question directly with the solver.
"""

from __future__ import annotations

from solver.engine.base import Game
from solver.engine.players import Decision, SolverPlayer
from solver.errors import Status
from solver.melds import format_table
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition
from solver.rules import ContractRules

__all__ = ["hint_for_game", "hint_for_puzzle"]


def hint_for_game(game: Game, player: str = "solver") -> Decision:
    """The choice of a player kind (``solver`` by default, or ``ismcts[:BUDGET]``) for the player to move, with its reason."""
    if player == "solver":
        return SolverPlayer().decide(game)
    from solver.engine.players import make_player

    ai = make_player(player)
    if not hasattr(ai, "decide"):
        action = ai.choose(game)
        return Decision(action, f"the {player} player's choice")
    decision: Decision = ai.decide(game)
    return decision


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
        f"plays {_n(len(play.played), 'card')}: {play.played} ({play.status}); "
        f"keeps {_n(play.kept_melds, 'meld')}, moves {_n(play.moved_cards, 'table card')}",
        {
            "played": [str(c) for c in play.played],
            "moves": [str(m) for m in play.moves],
            "status": str(play.status),
        },
    )


def _zsy(puzzle: Puzzle, time_limit: float) -> Decision:
    """The one best reply or lead (:mod:`solver.zsy.reply`, passing included) among the moves
    ``shanghai solve`` ranks; in a two-player endgame (``opponent`` known) a lead that wins it
    (when none wins, the fewest-plays lead)."""
    from solver.answers import SolveOptions, solve_puzzle

    answer = solve_puzzle(puzzle, SolveOptions(time_limit=time_limit))
    now = answer.data["fewest_plays"]
    endgame = answer.result.get("endgame")
    if endgame is not None and endgame.winning:  # a two-player endgame: the lead that wins
        lead = endgame.winning[0]
        return Decision(
            f"play {lead}",
            f"wins however the opponent defends ({_n(len(endgame.winning), 'winning lead')} of {len(endgame.leads)})",
            {"winning": [str(m) for m in endgame.winning], "fewest_plays": now},
        )
    reply = answer.result["reply"]
    if reply.combo is None:
        return Decision("pass", reply.reason, {"fewest_plays": now})
    return Decision(
        f"play {reply.combo}",
        f"leaves {_n(reply.after, 'play')} to go out (the hand now needs {now})",
        {"fewest_plays": now, "after": reply.after},
    )


def _n(n: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _contract(puzzle: Puzzle, pos: ContractPosition, time_limit: float) -> Decision:
    """The whole-turn plan (:func:`solver.contract.advice.turn_decision`, the same as ``solve``'s ``turn``):
    with a discard on offer, take it or not; else the first step of the rest of the turn."""
    from solver.contract.advice import position_decision

    rules = puzzle.rules
    assert isinstance(rules, ContractRules)  # a ContractPosition comes with Contract rules
    return position_decision(pos, rules, time_limit)
