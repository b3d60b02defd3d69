"""Adapters for the field's AI tools: a finite action space, PettingZoo and OpenSpiel.

``solver.envs.actions`` needs nothing beyond the base install. The
PettingZoo environment (:func:`aec_env`) needs the ``rl`` extra
(``pip install 'shanghai[rl]'``: pettingzoo, gymnasium, numpy);
``import solver.envs.openspiel`` needs the ``openspiel`` extra.
"""

from __future__ import annotations

from typing import Any

__all__ = ["aec_env", "require", "MissingExtra", "missing"]


class MissingExtra(ImportError):
    """An optional extra is not installed: one line naming the module and the extra to install
    (the CLI prints it as one line and exits 2)."""


def missing(exc: ImportError, extra: str) -> MissingExtra:
    """The one-line error for an import of ``extra`` that failed with ``exc``."""
    return MissingExtra(f"{exc.name or 'a module'} is missing: pip install 'shanghai[{extra}]'")


def require(module: str, extra: str) -> Any:
    """Import ``module`` or raise one clear line naming the extra to install."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise missing(exc, extra) from None


def aec_env(game: str, rules: Any = None, players: int = 4, seed: int = 0, **options: Any) -> Any:
    """A PettingZoo ``AECEnv`` of ``game`` (manipulation, contract, zsy); see :mod:`solver.envs.pettingzoo`."""
    require("pettingzoo", "rl")
    from solver.envs.pettingzoo import ShanghaiEnv

    return ShanghaiEnv(game, rules=rules, players=players, seed=seed, **options)
