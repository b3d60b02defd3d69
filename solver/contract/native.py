"""The bridge to Contract's compiled core (``solver.native._contract``): checks, conversions, errors.

The exact distance search (:mod:`solver.contract.search`) and the pricing of
a combination (:func:`solver.contract.shapes.combo_cost`,
:func:`~solver.contract.shapes.price_combo`) run in C++ when the core is
built (``solver/native/src/contract.cpp`` mirrors those functions line for
line: the same answers, the same choice among equal ones). The Python code
stays, as the fallback and the oracle (``with solver.native.pure():``).

Only plain ints, lists and tuples cross: the counts of :class:`Counts`, a
shape as ``(run, size, wmax, rank, cards)``, a candidate as ``(shape index,
s, q, need)``. Every input is checked here before it crosses (the C++ checks
again); a bad one raises :class:`~solver.errors.CardError`, never a crash.

>>> from solver.contract.shapes import shapes_for
>>> shape_tuple(shapes_for(True, 4, "both", "fewer")[0])
(True, 4, 1, 0, (0, 1, 2, 3))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from types import ModuleType
from typing import Protocol, TypeVar

from solver import native
from solver.errors import CardError, ShanghaiError
from solver.ranks import N_NATURAL

__all__ = ["ShapeTuple", "ShapeFields", "contract_core", "shape_tuple", "check_counts", "check_shapes", "call"]

ShapeTuple = tuple[bool, int, int, int, tuple[int, ...]]
"""A shape as it crosses to the C++: run, size, wild cap, rank (0 for a run), natural card indexes."""

T = TypeVar("T")


class ShapeFields(Protocol):
    """What :func:`shape_tuple` reads of a shape (a :class:`solver.contract.shapes.Shape`, which
    imports this module: the bridge names the fields, not the class)."""

    @property
    def run(self) -> bool: ...
    @property
    def size(self) -> int: ...
    @property
    def wmax(self) -> int: ...
    @property
    def rank(self) -> int: ...
    @property
    def cards(self) -> tuple[int, ...]: ...


MAX_COUNT = 64
"""The most copies of a card, or wilds, a count may hold (the C++ refuses more: far above any deck)."""

MAX_MELDS = 8
"""The most requirements (or shapes of a combination) the C++ takes: a split enumeration of many more
runs for ever (the hostile fuzz run found it); longer ones, which no preset has, run in Python."""


def contract_core(melds: int = 0) -> ModuleType | None:
    """The compiled Contract core, or None when the pure-Python path is to be used (also for a
    contract or combination of more than :data:`MAX_MELDS` melds, which the C++ refuses)."""
    return native.core("contract") if melds <= MAX_MELDS else None


@cache
def shape_tuple(shape: ShapeFields) -> ShapeTuple:
    """``shape`` in the plain form the C++ takes, checked (cached: shapes are few and immutable)."""
    out = (shape.run, shape.size, shape.wmax, shape.rank, shape.cards)
    check_shapes([out])
    return out


def check_counts(hn: Sequence[int], pn: Sequence[int], hw: int, pw: int) -> None:
    """Raise :class:`CardError` unless ``hn``/``pn`` are 52 natural counts and ``hw``/``pw`` wild counts,
    each from 0 to :data:`MAX_COUNT`."""
    if len(hn) != N_NATURAL or len(pn) != N_NATURAL:
        raise CardError(f"the natural counts must have {N_NATURAL} entries")
    if hw < 0 or pw < 0 or min(hn) < 0 or min(pn) < 0:
        raise CardError("card counts must be >= 0")
    if max(hw, pw, max(hn), max(pn)) > MAX_COUNT:
        raise CardError(f"card counts must be at most {MAX_COUNT}")


def check_shapes(shapes: Sequence[ShapeTuple]) -> None:
    """Raise :class:`CardError` unless each shape is one :func:`shapes_for` could give."""
    for run, size, wmax, rank, cards in shapes:
        ok = 1 <= size <= 13 and 0 <= wmax < size and cards and all(0 <= i < N_NATURAL for i in cards)
        if ok and run:
            ok = len(cards) == size and rank == 0
        elif ok:
            ok = 1 <= rank <= 13 and len(cards) == 4
        if not ok:
            raise CardError(f"not a meld shape: {(run, size, wmax, rank, cards)}")


def call(fn: Callable[..., T], *args: object) -> T:
    """Call a native entry point; a ValueError the C++ raises becomes :class:`CardError`."""
    try:
        return fn(*args)
    except ShanghaiError:
        raise
    except ValueError as exc:
        raise CardError(f"the compiled Contract core refused its input: {exc}") from exc
