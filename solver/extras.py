"""The optional extras: which import each one brings, and the one-line error when one is missing.

The base install (``pip install shanghai``) runs every solver, the engine and
the CLI. The adapters and front ends that need more come as extras
(``pyproject.toml``'s optional dependencies); importing one of them without
its extra raises :class:`MissingExtra`, one line naming the module and the
extra to install (the CLI prints it and exits 2; the test suite skips with
that line as its reason).

>>> extra_for("gymnasium"), extra_for("open_spiel.python.algorithms"), extra_for("json")
('rl', 'openspiel', None)
>>> str(missing(ModuleNotFoundError("No module named 'fpdf'", name="fpdf")))
"fpdf is missing: pip install 'shanghai[book]'"
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["EXTRAS", "MissingExtra", "as_missing", "extra_for", "missing", "require"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "rl": ("pettingzoo", "gymnasium", "numpy"),
    "openspiel": ("pyspiel", "open_spiel"),
    "ray": ("ray",),
    "train": ("torch",),
    "web": ("fastapi", "starlette", "pydantic", "uvicorn", "httpx", "playwright", "redis"),
    "webtest": ("schemathesis",),
    "book": ("fpdf", "pypdfium2"),
    "bench": ("rummikub_solver", "rlcard", "matplotlib"),
    "dev": ("ruff", "mypy", "pybind11"),
}
"""Each extra of ``pyproject.toml`` and the top-level import names it brings (the ``rllib`` extra
is ``ray`` and ``train`` together). A name is listed under the first extra that brings it."""


class MissingExtra(ImportError):
    """An optional extra is not installed: one line naming the module and the extra to install."""


def extra_for(module: str) -> str | None:
    """The extra that brings the import ``module`` (a dotted name), or None for a base module."""
    top = module.split(".")[0]
    return next((extra for extra, names in EXTRAS.items() if top in names), None)


def missing(exc: ImportError, extra: str | None = None) -> MissingExtra:
    """The one-line error for an import that failed with ``exc`` (``extra``: the one to install,
    by default the one that brings the missing module)."""
    name = exc.name or "a module"
    extra = extra or extra_for(name) or "all"
    return MissingExtra(f"{name} is missing: pip install 'shanghai[{extra}]'")


def require(module: str, extra: str | None = None) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtra`, one line naming the extra to install.

    >>> require("json").__name__
    'json'
    """
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        if isinstance(exc, MissingExtra):
            raise
        raise missing(exc, extra) from None


def as_missing(exc: BaseException | None) -> MissingExtra | None:
    """The missing extra behind ``exc`` (itself, or its cause or context), or None.

    A :class:`MissingExtra`, or a ``ModuleNotFoundError`` for a module an extra brings.

    >>> as_missing(ModuleNotFoundError("No module named 'numpy'", name="numpy")) is not None
    True
    >>> as_missing(ModuleNotFoundError("No module named 'nothere'", name="nothere")) is None
    True
    """
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, MissingExtra):
            return exc
        if isinstance(exc, ModuleNotFoundError) and exc.name and extra_for(exc.name):
            return missing(exc)
        exc = exc.__cause__ or exc.__context__
    return None
