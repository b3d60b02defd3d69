"""The states and stages of the dynamic program of :mod:`solver.manipulation.natural`: one suit at one
rank position a stage (:func:`_stages`), a suit's open runs coded in a few bits of one int, and the
ways a suit's copies at a position go (:func:`_suit_options`, as state changes: :func:`_entries`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from functools import cache
from operator import itemgetter
from typing import NamedTuple

from solver.ranks import position_range

__all__: list[str] = []

RunCodes = tuple[int, ...]  # one suit's open runs, sorted: 1, 2 = that many cards so far, 3 = three or more


class _Option(NamedTuple):
    """One way a suit's copies at a position go: continuing runs, starting runs, into sets."""

    used: int  # copies used
    into_sets: int  # copies going into sets
    codes: RunCodes  # the suit's open runs after
    continued: int  # runs of three or more continued
    started: int  # runs started


# The program's state is one int (hashed and compared far faster than a tuple of tuples): each
# suit's open runs as an index into _CODES (6 bits a suit), then the copies going into sets at this
# position (their sum, 5 bits, and the most of one suit, 3 bits), then the copies each suit used at
# the first ace column under ace=both (3 bits a suit). At most four decks: at most four open runs a
# suit, sixteen set copies a position.
_CODES: tuple[RunCodes, ...] = tuple(
    sorted(
        {tuple(sorted(c)) for n in range(5) for c in itertools.product((1, 2, 3), repeat=n)}, key=lambda c: (len(c), c)
    )
)
_CODE_ID = {codes: i for i, codes in enumerate(_CODES)}  # () is 0: the empty state is the int 0
_CLOSED = frozenset(i for i, codes in enumerate(_CODES) if all(r == 3 for r in codes))
_SUIT_BITS = 6
_RUNS = (1 << _SUIT_BITS) - 1
_GS, _GM, _LOW = 24, 29, 32  # where the set sum, the set max and the first-column aces sit
_SETS = 255 << _GS  # both set fields
_Entry = tuple[int, int, int, _Option]  # (hand cards added, copies into sets, change of the state, option)


class _Stage(NamedTuple):
    """One suit at one rank position."""

    suit: int
    card: int  # card index
    copies: int  # copies on the table and in the bound
    table: int  # copies on the table (all must be used)
    column: int  # 0, or the ace's first (1) or second (2) column under ace=both
    later: int  # copies of the later suits at this position
    hand: int  # hand copies counted here


_stage = tuple.__new__  # builds a _Stage from a tuple without the Python-level constructor (52 a call)


@cache
def _suit_options(runs: RunCodes, avail: int, need: int, sets: bool) -> tuple[_Option, ...]:
    """Ways one suit's copies at a position continue its open ``runs``, start runs or join sets.

    Runs of one or two cards must continue; a run of three or more may stop.
    At least ``need`` copies (the table's) are used, at most ``avail``.
    Dominated options are left out: no run starts, and no copy is left
    unused, while a run of three or more stops (continuing that run instead
    is as good). The ace's first column under ``ace=both``, whose unused
    copies may go to its other column, is always the first stage: no run is
    open there.
    """
    must = sum(1 for r in runs if r < 3)
    long = len(runs) - must
    if must > avail:
        return ()
    grown = [r + 1 for r in runs if r < 3]
    out: list[_Option] = []
    for c3 in range(long + 1):
        for new in range(avail - must - c3 + 1):
            if new and c3 < long:
                continue
            codes = tuple(sorted([*grown, *([3] * c3), *([1] * new)]))
            for g in range(avail - must - c3 - new + 1 if sets else 1):
                used = must + c3 + new + g
                if used >= need and (c3 == long or used == avail):
                    out.append(_Option(used, g, codes, c3, new))
    return tuple(out)


def _stages(tc: Sequence[int], bc: Sequence[int], ace: str) -> list[_Stage]:
    """The DP's stages in rank-position order (four suits a position), read from the end with fewer
    table cards before the first hand card (runs read both ways): every arrangement of those cards
    is a state the program carries to that card.

    With ``ace=both`` the ace has two columns: 1 for the first one met (any
    copies, recorded in the state; its hand copies are counted at the other
    column) and 2 for the second (the rest; the table's copies must be used
    by then).
    """
    cards, forward, backward = _layout(ace)
    bcs = itemgetter(*cards)(bc)
    positions = forward
    for first, count in enumerate(bcs):
        if count:
            last = len(bcs) - 1 - next(k for k, count in enumerate(reversed(bcs)) if count)
            tcs = itemgetter(*cards)(tc)
            if sum(tcs[:first]) > sum(tcs[last + 1 :]):
                positions = backward
            break
    out: list[_Stage] = []
    for i0, i1, i2, i3, column in positions:
        a0, a1, a2, a3 = tc[i0] + bc[i0], tc[i1] + bc[i1], tc[i2] + bc[i2], tc[i3] + bc[i3]
        counted = column != 1
        out.append(_stage(_Stage, (0, i0, a0, tc[i0], column, a1 + a2 + a3, bc[i0] if counted else 0)))
        out.append(_stage(_Stage, (1, i1, a1, tc[i1], column, a2 + a3, bc[i1] if counted else 0)))
        out.append(_stage(_Stage, (2, i2, a2, tc[i2], column, a3, bc[i2] if counted else 0)))
        out.append(_stage(_Stage, (3, i3, a3, tc[i3], column, 0, bc[i3] if counted else 0)))
    return out


_RankPosition = tuple[int, int, int, int, int]  # the four suits' card indexes at a rank position, and its column


@cache
def _layout(ace: str) -> tuple[tuple[int, ...], tuple[_RankPosition, ...], tuple[_RankPosition, ...]]:
    """The stages' cards in rank-position order, and the positions read forward and backward (each
    with its ace column, see :func:`_stages`)."""
    lo, hi = position_range(ace)
    order = list(range(lo, hi + 1))
    cards = tuple(13 * s + (0 if q == 14 else q - 1) for q in order for s in range(4))

    def read(order: list[int]) -> tuple[_RankPosition, ...]:
        out = []
        for q in order:
            base = 0 if q == 14 else q - 1
            column = 0 if ace != "both" or q not in (1, 14) else (1 if q == order[0] else 2)
            out.append((base, 13 + base, 26 + base, 39 + base, column))
        return tuple(out)

    return cards, read(order), read(order[::-1])


_SKIP = _Option(0, 0, (), 0, 0)  # no copy here and no open run of the suit: nothing changes
_Back = dict[int, tuple[int, _Option]]  # a layer's way back: state -> (previous state, option)


class _OutOfBudget(Exception):
    """The dynamic program ran out of its work budget."""


@cache
def _entries(runs: int, shift: int, avail: int, need: int, sets: bool, sub: int) -> tuple[_Entry, ...]:
    """The options of :func:`_suit_options` for the suit at bit ``shift`` with open runs ``runs`` (an
    index into ``_CODES``), each with the hand cards it adds beyond ``sub`` and its change of the state."""
    out: list[_Entry] = []
    for opt in _suit_options(_CODES[runs], avail, need, sets):
        out.append((opt[0] - sub if opt[0] > sub else 0, opt[1], (_CODE_ID[opt[2]] - runs) << shift, opt))
    return tuple(out)
