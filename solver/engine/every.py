"""The ``stop`` target that means every request: one object shared by the protocol and its worker pool.

Its own module, below both :mod:`solver.engine.protocol` and
:mod:`solver.engine.workers`, so that neither imports the other back up.
"""

from __future__ import annotations

__all__ = ["EVERY"]

EVERY = object()
"""Stop every running (and queued) request, whatever its id: a ``stop`` without a ``target``."""
