"""The models of a solver for the Contract questions with depth (``outway``, ``twonear``).

:data:`solver.generate.calibrate.MODELS` asks :func:`finds` for these kinds
(the models are described in :mod:`solver.generate.contract_proofs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from solver.cards import Card, Cards
from solver.generate.contract_looks import touches
from solver.generate.contract_proofs import one_pass
from solver.melds import TableMeld
from solver.puzzles import ContractPosition, Puzzle

__all__ = ["finds"]


def _plan_out(p: Puzzle, table: Sequence[TableMeld], rules: Any) -> bool:
    from solver.contract import plan_after_draw
    from solver.generate.difficulty import SOLVE_SECONDS

    pos = p.position
    assert isinstance(pos, ContractPosition)
    plan = plan_after_draw(pos.hand, tuple(table), rules, pos.round, time_limit=SOLVE_SECONDS)
    return plan.goes_out and plan.discard is not None and str(plan.discard) == str(p.meta.get("solution"))


def _one_look_out(p: Puzzle) -> bool:
    from solver.contract import best_lay_down
    from solver.generate.difficulty import SOLVE_SECONDS

    pos = p.position
    rules: Any = p.rules
    assert isinstance(pos, ContractPosition)
    down = best_lay_down(pos.hand, rules, pos.round, time_limit=SOLVE_SECONDS)
    if down is None:
        return False
    after = (*pos.table, *(TableMeld(m, 0) for m in down.melds))
    answer = Cards.parse(str(p.meta.get("solution")))
    return answer <= down.hand and one_pass(down.hand - answer, after, rules) == len(down.hand) - 1


def _lone_pick(p: Puzzle) -> Card:
    hand = list(p.position.hand)
    lone = [c for i, c in enumerate(hand) if not touches(c, hand[:i] + hand[i + 1 :])]
    return max(lone or hand, key=lambda c: (p.rules.points(c), c.index))  # type: ignore[union-attr]


def finds(model: str, p: Puzzle) -> bool:
    """Does ``model`` (a name of :data:`solver.generate.calibrate.MODELS`) find the puzzle's answer?"""
    from solver.generate.players import contract_turn

    pos = p.position
    rules: Any = p.rules
    assert isinstance(pos, ContractPosition)
    answer = str(p.meta.get("solution"))
    outway = p.meta.get("kind") == "outway"
    if model in ("greedy", "solver") or (model == "no-swap" and not outway):
        laid, discard = contract_turn("greedy" if model == "no-swap" else model, rules, pos)
        went = laid == pos.hand - Cards([discard]) if discard is not None else False
        return str(discard) == answer and (went or not outway)
    if model == "no-swap":
        return _plan_out(p, pos.table, replace(rules, wild_swap=False))
    if model == "glance":
        if not outway:
            return str(_lone_pick(p)) == answer
        seen = [t for t in pos.table if any(touches(c, t.meld.cards) for c in pos.hand)]
        return _plan_out(p, seen, rules)
    if model == "one-look":
        if outway:
            return _one_look_out(p)
        from solver.generate.contract_looks import one_look

        return one_look(replace(p, meta={**p.meta, "kind": "discard"}))
    raise ValueError(f"no model {model!r} for {p.meta.get('kind')} puzzles")
