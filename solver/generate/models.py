"""The models of a human solver (:data:`MODELS`) that place a puzzle on the ladder.

Described in :mod:`solver.generate.calibrate` (which re-exports
:data:`MODELS` and measures their shares); their own module, below both the
ladder (:func:`solver.generate.ladder.place` asks them) and the game
generators, so that imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from solver.cards import Cards
from solver.generate.contract_looks import one_look, touches
from solver.generate.contract_models import finds as depth_finds
from solver.generate.contract_proofs import DEPTH_KINDS
from solver.generate.difficulty import SOLVE_SECONDS
from solver.generate.players import finds_answer
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition

__all__ = ["MODELS"]


def _glance_manipulation(p: Puzzle) -> bool:
    from solver.manipulation import best_play

    pos = p.position
    assert isinstance(pos, ManipulationPosition)
    seen = tuple(m for m in pos.table if any(touches(c, m.cards) for c in pos.hand))
    play = best_play(seen, pos.hand, p.rules, time_limit=SOLVE_SECONDS, least_change=False)  # type: ignore[arg-type]
    return bool(play.cards >= p.answer["played"])


def _shallow(depth: int) -> Callable[[Puzzle], bool]:
    def finds(p: Puzzle) -> bool:
        from solver.generate.shallow import shallow_play

        pos = p.position
        assert isinstance(pos, ManipulationPosition)
        rules: Any = p.rules
        return bool(len(shallow_play(pos.table, pos.hand, rules, depth)) >= p.answer["played"])

    return finds


def _layoff_cards(p: Puzzle, table: Any, rules: Any) -> int:
    from solver.contract import best_layoff

    pos = p.position
    assert isinstance(pos, ContractPosition)
    return len(best_layoff(pos.hand, table, rules, player=0, objective="cards", time_limit=SOLVE_SECONDS).played)


def _plan_grouping(p: Puzzle, table: Any, rules: Any) -> bool:
    """A lay-down puzzle: does the whole-turn plan against ``table`` under ``rules`` lay down the answer's grouping?"""
    from solver.contract import plan_after_draw
    from solver.generate.contract_looks import grouping
    from solver.melds import Meld

    pos = p.position
    assert isinstance(pos, ContractPosition)
    plan = plan_after_draw(pos.hand, table, rules, pos.round, time_limit=SOLVE_SECONDS)
    return grouping(plan.lay_down) == grouping([Meld.parse(m) for m in p.meta["solution"]])


def _glance_contract(p: Puzzle) -> bool:
    pos = p.position
    assert isinstance(pos, ContractPosition)
    if p.meta.get("kind") == "laydown":  # the plan against the melds the hand touches only
        seen = tuple(t for t in pos.table if any(touches(c, t.meld.cards) for c in pos.hand))
        return _plan_grouping(p, seen, p.rules)
    if p.meta.get("kind") in ("discard", "whole"):
        hand = list(pos.hand)
        lone = [c for i, c in enumerate(hand) if not touches(c, hand[:i] + hand[i + 1 :])]
        pick = max(lone or hand, key=lambda c: (p.rules.points(c), c.index))  # type: ignore[union-attr]
        return bool(str(pick) == p.meta["solution"])
    seen = tuple(t for t in pos.table if any(touches(c, t.meld.cards) for c in pos.hand))
    return bool(_layoff_cards(p, seen, p.rules) >= p.answer["layoff"])


def _no_swap(p: Puzzle) -> bool:
    from dataclasses import replace

    pos = p.position
    assert isinstance(pos, ContractPosition)
    if p.meta.get("kind") in ("discard", "whole"):
        return finds_answer("greedy", p)
    rules: Any = p.rules
    if p.meta.get("kind") == "laydown":  # the plan with no wild swaps
        return _plan_grouping(p, pos.table, replace(rules, wild_swap=False))
    return bool(_layoff_cards(p, pos.table, replace(rules, wild_swap=False)) >= p.answer["layoff"])


def _sets_only(hand: Cards) -> int:
    """A hand's plays counted by a player blind to straights: one set per rank (wilds join one)."""
    from solver.zsy import is_wild, zsy_value

    ranks = {zsy_value(c) for c in hand if not is_wild(c)}
    return len(ranks) or (1 if hand else 0)


def _glance_zsy(p: Puzzle) -> bool:
    from solver.zsy import combo_from_position, is_wild, legal_moves

    pos = p.position
    assert isinstance(pos, ZsyPosition)
    if pos.opponent is not None:
        return _glance_lead(p)
    if pos.to_beat is None:
        return bool(_sets_only(pos.hand) == p.answer["fewest_plays"])
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, p.rules)  # type: ignore[arg-type]
    moves = legal_moves(pos.hand, to_beat, p.rules)  # type: ignore[arg-type]
    if not moves:
        return p.meta.get("solution") == "pass"
    best = min(moves, key=lambda m: (_sets_only(pos.hand - m.cards), sum(map(is_wild, m.cards)), m.top))
    solution = str(p.meta.get("solution", ""))
    if _sets_only(pos.hand - best.cards) >= _sets_only(pos.hand):
        return solution == "pass"
    return solution != "pass" and best.cards == Cards.parse(solution)


def _glance_lead(p: Puzzle) -> bool:
    """A one-ply look at a two-player endgame: the biggest lead the opponent cannot beat (most cards,
    then the lowest top), else the biggest lead."""
    from solver.zsy import Combo, legal_moves

    pos = p.position
    assert isinstance(pos, ZsyPosition) and pos.opponent is not None
    rules: Any = p.rules
    leads = legal_moves(pos.hand, None, rules)
    safe = [m for m in leads if not legal_moves(pos.opponent, m, rules)]
    pick = min(safe or leads, key=lambda m: (-m.size, m.top, str(m)))
    return pick == Combo.parse(str(p.meta["solution"]), rules)


def _engine(kind: str) -> Callable[[Puzzle], bool]:
    return lambda p: finds_answer(kind, p)


def _depth(name: str, base: Callable[[Puzzle], bool]) -> Callable[[Puzzle], bool]:
    """Model ``name``: the questions with depth (``outway``, ``twonear``) asked of
    :func:`solver.generate.contract_models.finds`, every other puzzle of ``base``."""
    return lambda p: depth_finds(name, p) if p.meta.get("kind") in DEPTH_KINDS else base(p)


MODELS: dict[str, dict[str, Callable[[Puzzle], bool]]] = {
    "manipulation": {
        "greedy": _engine("greedy"),
        "shallow-1": _shallow(1),
        "shallow-2": _shallow(2),
        "glance": _glance_manipulation,
        "solver": _engine("solver"),
    },
    "contract": {
        "greedy": _depth("greedy", _engine("greedy")),
        "no-swap": _depth("no-swap", _no_swap),
        "glance": _depth("glance", _glance_contract),
        "one-look": _depth("one-look", one_look),
        "solver": _depth("solver", _engine("solver")),
    },
    "zsy": {"greedy": _engine("greedy"), "glance": _glance_zsy, "solver": _engine("solver")},
}
"""Per game, each model's test: does it find the puzzle's answer?"""
