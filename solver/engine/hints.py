"""Hints: the best action for the player to move, and why.

For a live game (a game state or a replayed record) the hint is the
``solver`` player's decision. For a puzzle position the hint answers the
position's question directly with the solver.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

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


def _turn_actions(table: tuple[TableMeld, ...], after: Any, player: int = 0) -> list[str]:
    """A whole-turn plan after the draw as engine actions: the lay-down, the swaps and lay-offs, the discard."""
    actions: list[str] = []
    if after.lay_down:
        actions.append(f"laydown {format_table(after.lay_down)}")
    if after.layoff is not None:
        full = (*table, *(TableMeld(m, player) for m in after.lay_down))
        actions += _layoff_actions(full, after.layoff)
    if after.discard is not None:
        actions.append(f"discard {after.discard}")
    return actions


def _plan_facts(after: Any) -> dict[str, Any]:
    """The plan after the draw as data: the lay-down (melds as card codes, wild roles written), the
    cards laid off, the discard, the points left at the end of the turn and whether the player goes out."""
    return {
        "lay_down": [str(m).split() for m in after.lay_down],
        "laid_off": [c.code for c in after.layoff.played] if after.layoff is not None else [],
        "discard": after.discard.code if after.discard is not None else None,
        "points_left": after.points_left,
        "can_go_out": after.goes_out,
    }


def _contract(puzzle: Puzzle, pos: ContractPosition, time_limit: float) -> Decision:
    """The whole-turn plan (:mod:`solver.contract.turn`): with a discard on offer, take it or not; else
    the first step of the rest of the turn (lay down, lay off, swap, discard)."""
    from solver.contract.turn import best_turn, plan_after_draw

    rules = puzzle.rules
    assert isinstance(rules, ContractRules)  # a ContractPosition comes with Contract rules
    if pos.discard is not None:
        plan = best_turn(
            pos.hand,
            pos.table,
            rules,
            pos.round,
            discard=pos.discard,
            laid_down=pos.laid_down,
            seen=pos.dead,
            time_limit=time_limit,
        )
        steps = _turn_actions(pos.table, plan.after) if plan.after is not None else []
        return Decision(
            "take" if plan.take else "decline",
            plan.reason,
            {
                "distance": plan.distance,
                "distance_with_discard": plan.distance_take,
                "outs": str(plan.outs),
                "actions": ["take", *steps] if plan.take else ["decline"],
                "status": str(plan.status),
                "plan": _plan_facts(plan.after) if plan.after is not None else None,
            },
        )
    after = plan_after_draw(
        pos.hand, pos.table, rules, pos.round, laid_down=pos.laid_down, seen=pos.dead, time_limit=time_limit
    )
    actions = _turn_actions(pos.table, after) or ["pass"]
    facts: dict[str, Any] = {
        "points_left": after.points_left,
        "can_go_out": after.goes_out,
        "actions": actions,
        "status": str(after.status),
        "plan": _plan_facts(after),
    }
    if after.distance is not None:
        facts["distance"] = after.distance
    more = f" ({len(actions)} actions: {'; '.join(actions)})" if len(actions) > 1 else ""
    return Decision(actions[0], after.reason + more, facts)
