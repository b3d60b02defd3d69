"""Adapters for the field's AI tools: a finite action space, PettingZoo and OpenSpiel.

``solver.envs.actions`` needs nothing beyond the base install. The
PettingZoo environment (:func:`aec_env`) needs the ``rl`` extra
(``pip install 'shanghai[rl]'``: pettingzoo, gymnasium, numpy);
``import solver.envs.openspiel`` needs the ``openspiel`` extra.
"""

from __future__ import annotations

from typing import Any

from solver.envs import actions as actions  # fills the codec registry (solver.envs.turn) before any Turn
from solver.extras import MissingExtra, missing, require

__all__ = ["aec_env", "require", "MissingExtra", "missing"]


def aec_env(game: str, rules: Any = None, players: int = 4, seed: int = 0, **options: Any) -> Any:
    """A PettingZoo ``AECEnv`` of ``game`` (manipulation, contract, zsy); see :mod:`solver.envs.pettingzoo`."""
    require("pettingzoo", "rl")
    from solver.envs.pettingzoo import ShanghaiEnv

    return ShanghaiEnv(game, rules=rules, players=players, seed=seed, **options)
