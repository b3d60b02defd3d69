"""The generator's error (re-exported by :mod:`solver.generate`), below every generator module."""

from __future__ import annotations

from solver.errors import ShanghaiError

__all__ = ["GenerateError"]


class GenerateError(ShanghaiError):
    """A bad generator request (unknown game or level, a count below one) or a level out of reach."""
