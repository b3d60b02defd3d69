"""Contract Shanghai: can a hand make the round's contract, how far is it, the best lay-off.

The public API; :mod:`solver.contract.game` holds the engine's game state,
:mod:`solver.contract.players` its AI players and :mod:`solver.contract.referee`
the independent checks. Where each part lives: ``api`` (the questions),
``shapes`` and ``search`` (the exact distance search), ``model`` (the CP-SAT
lay-down and distance), ``layoff`` (the lay-off model), ``turn`` (the whole-turn plan), ``advice`` (that plan in
engine actions: the hint and ``solve``'s ``turn``), ``wilds`` (wild roles
and swaps as graphs), ``referee``, ``game``, ``players``. A solve that runs
out of time raises :class:`solver.errors.SolverTimeout`.
"""

from __future__ import annotations

from solver.contract.api import (
    UNREACHABLE,
    Distance,
    LayDown,
    Layoff,
    Swap,
    best_discards,
    best_lay_down,
    best_layoff,
    can_go_down_whole,
    discard_order,
    distance_to_contract,
    validate_table,
    whole_discards,
)
from solver.contract.turn import (
    AfterDraw,
    CallDecision,
    TurnPlan,
    after_lay_down,
    best_turn,
    call_decision,
    plan_after_draw,
)

__all__ = [
    "LayDown",
    "Distance",
    "Swap",
    "Layoff",
    "UNREACHABLE",
    "best_lay_down",
    "can_go_down_whole",
    "distance_to_contract",
    "best_layoff",
    "best_discards",
    "discard_order",
    "validate_table",
    "whole_discards",
    "AfterDraw",
    "CallDecision",
    "TurnPlan",
    "best_turn",
    "call_decision",
    "plan_after_draw",
    "after_lay_down",
]
