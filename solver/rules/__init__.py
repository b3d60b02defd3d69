"""Rule sets as data: one frozen dataclass per game, with named presets.

>>> rules_for("contract", {"preset": "us"}).contract(1)
(Requirement('set', 3), Requirement('set', 3))
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.cards import clip
from solver.errors import RulesError
from solver.rules.base import MeldSpec, RuleSet
from solver.rules.contract import ContractRules, Requirement
from solver.rules.manipulation import ManipulationRules
from solver.rules.zsy import ZsyRules

__all__ = ["MeldSpec", "RuleSet", "ContractRules", "Requirement", "ManipulationRules", "ZsyRules", "GAMES", "rules_for"]

Rules = ManipulationRules | ContractRules | ZsyRules

GAMES: dict[str, type[ManipulationRules] | type[ContractRules] | type[ZsyRules]] = {
    "manipulation": ManipulationRules,
    "contract": ContractRules,
    "zsy": ZsyRules,
}


def rules_for(game: str, data: Mapping[str, Any] | None = None) -> Rules:
    """The rule set of ``game`` built from ``data`` (a preset name and overrides)."""
    if game not in GAMES:
        raise RulesError(f"unknown game {clip(str(game))} (known: {', '.join(GAMES)})")
    return GAMES[game].from_dict(data or {})
