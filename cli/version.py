"""What ``shanghai --version`` prints (re-exported by :mod:`cli`, used by :mod:`cli.main` too)."""

from __future__ import annotations

__all__ = ["version_text"]


def version_text() -> str:
    """What ``shanghai --version`` prints: the package's version and which core runs."""
    from solver import __version__
    from solver.native import describe

    return f"shanghai {__version__}, {describe()}"
