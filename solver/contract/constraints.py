"""CP-SAT pieces shared by Contract Shanghai's models (:mod:`solver.contract.model`,
:mod:`solver.contract.layoff`): the wild limit as a constraint, objective weights, count vectors.

>>> from solver.rules import ContractRules
>>> wild_room(ContractRules(wild_limit="fewer"), 3), wild_room(ContractRules(wild_limit="half"), 3)
(2, 3)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from solver.cards import Card, Cards
from solver.rules.contract import ContractRules

if TYPE_CHECKING:
    from ortools.sat.python import cp_model

__all__ = ["Expr", "BIG", "wild_room", "post_wild_limit", "natural_counts"]

Expr = Any
"""A CP-SAT linear expression (or a plain int); OR-Tools' own stubs type these loosely."""

BIG = 10_000
"""Weight of the primary objective over the secondary one (hands hold far fewer cards)."""


def wild_room(rules: ContractRules, naturals: int) -> int:
    """Most wilds a meld with ``naturals`` natural cards may hold (plain Python)."""
    if naturals <= 0:
        return 0
    return {"fewer": naturals - 1, "half": naturals}.get(rules.wild_limit, 1_000)


def post_wild_limit(model: cp_model.CpModel, rules: ContractRules, wilds: Expr, naturals: Expr, active: Expr) -> None:
    """Post ``wilds <= wild_room(naturals)`` for a meld that exists when ``active`` is 1."""
    if rules.wild_limit == "fewer":
        model.add(wilds <= naturals - active)
    elif rules.wild_limit == "half":
        model.add(wilds <= naturals)


def natural_counts(cards: Cards, wilds: frozenset[Card]) -> list[int]:
    """Multiplicities by card index, wild cards zeroed."""
    counts = list(cards.counts)
    for w in wilds:
        counts[w.index] = 0
    return counts
