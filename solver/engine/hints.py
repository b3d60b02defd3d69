"""Hints: the best action for the player to move, and why.

For a live game (a game state or a replayed record) the hint is the
``solver`` player's decision. For a puzzle position the hint answers the
position's question directly with the solver.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from solver.cards import Cards
from solver.engine.base import Game
from solver.engine.players import Decision, SolverPlayer
from solver.errors import Status
from solver.melds import TableMeld, format_table
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
    ``shanghai solve`` ranks."""
    from solver.answers import SolveOptions, solve_puzzle

    answer = solve_puzzle(puzzle, SolveOptions(time_limit=time_limit))
    now = answer.data["fewest_plays"]
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


def _layoff_actions(table: tuple[TableMeld, ...], plan: Any) -> list[str]:
    """A lay-off plan as engine actions: the swaps first, then one ``layoff N CARDS`` per meld."""
    actions = [f"swap {s.meld} {s.card} {s.wild} {s.to}" for s in plan.swaps]
    placed: dict[int, Counter[Any]] = {}
    for s in plan.swaps:  # a swap puts the natural card in one meld and the freed wild on another
        placed.setdefault(s.meld, Counter())[s.card] += 1
        placed.setdefault(s.to, Counter())[s.wild] += 1
    for i, (old, new) in enumerate(zip(table, plan.table)):
        added = Counter(new.meld.cards)
        added.subtract(old.meld.cards)
        added.subtract(placed.get(i, Counter()))
        tokens: list[str] = []
        for card, role in zip(new.meld.cards, new.meld.roles):
            if added[card] > 0:
                added[card] -= 1
                tokens.append(f"{card}={role}" if role is not None else str(card))
        if not tokens:
            continue
        actions.append(f"layoff {i} {' '.join(tokens)}")
    return actions or [f"layoff 0 {plan.played}"]


def _contract(puzzle: Puzzle, pos: ContractPosition, time_limit: float) -> Decision:
    from solver.contract import best_discards, best_lay_down, best_layoff, distance_to_contract

    rules = puzzle.rules
    assert isinstance(rules, ContractRules)  # a ContractPosition comes with Contract rules
    seen = pos.dead + Cards(c for t in pos.table for c in t.meld.cards)
    if pos.discard is not None:
        seen = seen + Cards([pos.discard])
    if pos.laid_down:
        plan = best_layoff(pos.hand, pos.table, rules, player=0, time_limit=time_limit)
        if plan.played:
            actions = _layoff_actions(pos.table, plan)
            return Decision(
                actions[0],
                f"lays off {_n(len(plan.played), 'card')} worth {_n(plan.points, 'point')}"
                + ("; goes out" if plan.can_go_out else "")
                + (f" ({len(actions)} actions: {'; '.join(actions)})" if len(actions) > 1 else ""),
                {"can_go_out": plan.can_go_out, "actions": actions},
            )
        worst = max(pos.hand, key=rules.points)
        return Decision(f"discard {worst}", "nothing can be laid off: discard the card worth most", {})
    lay = best_lay_down(pos.hand, rules, pos.round, time_limit=time_limit)
    if lay is not None:
        return Decision(
            f"laydown {format_table(lay.melds)}",
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
                "take",
                f"take {pos.discard}: with it (then discarding {taken[0][0]}) the contract is"
                f" {_n(taken[0][1], 'card')} away (now {now.missing})",
                {"distance": now.missing, "distance_with_discard": taken[0][1]},
            )
    card, after = best_discards(pos.hand, rules, pos.round, seen=seen, time_limit=time_limit)[0]
    return Decision(
        f"discard {card}",
        f"the contract is {_n(now.missing, 'card')} away; without {card} it is {after} away",
        {"distance": now.missing, "outs": str(now.options)},
    )
