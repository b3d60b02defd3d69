"""The compiled core: the one place that decides whether the C++ paths are used.

The C++ core (``solver/native/src/*.cpp``, built by ``pip install`` where a
C++ compiler is present) speeds the hot paths behind the same public API; the
pure-Python code stays as the fallback and as the oracle the native code is
tested against. :func:`core` gives a game's compiled module, or None when the
pure-Python path is to be used: no compiled module, or ``SHANGHAI_PURE=1`` in
the environment, or inside :func:`pure`.

>>> backend() in ("native", "pure")
True
>>> with pure():
...     core("manipulation") is None
True
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

__all__ = ["CORES", "backend", "core", "describe", "pure"]

CORES = ("manipulation", "zsy", "contract")
"""The compiled modules, one a game (``solver.native._<name>``)."""

_forced_pure = os.environ.get("SHANGHAI_PURE", "") not in ("", "0")
_loaded: dict[str, ModuleType | None] = {}


def _load(name: str) -> ModuleType | None:
    if name not in _loaded:
        try:
            _loaded[name] = importlib.import_module(f"solver.native._{name}")
        except ImportError:
            _loaded[name] = None
    return _loaded[name]


def core(name: str) -> ModuleType | None:
    """The compiled module for ``name`` (one of :data:`CORES`), or None to use the pure-Python path."""
    if _forced_pure:
        return None
    return _load(name)


def built() -> tuple[str, ...]:
    """The compiled modules present (whether or not pure mode is forced)."""
    return tuple(name for name in CORES if _load(name) is not None)


def backend() -> str:
    """``native`` when every compiled module is present and used, else ``pure``."""
    return "native" if all(core(name) is not None for name in CORES) else "pure"


def describe() -> str:
    """One line for ``--version`` and the engine's ``version``: which paths run.

    >>> describe().split(" ")[0] in ("native", "pure")
    True
    """
    have = built()
    if _forced_pure:
        return "pure (SHANGHAI_PURE=1)" + (f"; built: {', '.join(have)}" if have else "")
    if len(have) == len(CORES):
        return "native (C++ core: " + ", ".join(have) + ")"
    if have:
        return "pure for " + ", ".join(n for n in CORES if n not in have) + "; native: " + ", ".join(have)
    return "pure (no compiled core built)"


@contextmanager
def pure() -> Iterator[None]:
    """Run the block on the pure-Python paths (the differential tests' oracle side)."""
    global _forced_pure
    before = _forced_pure
    _forced_pure = True
    try:
        yield
    finally:
        _forced_pure = before
