"""Zheng Shang You's compiled core (solver/native/src/zsy.cpp): move generation and the fewest-plays search."""

from collections.abc import Callable, Sequence
from typing import Any

def moves(
    counts: Sequence[int],
    kind: int,
    top: int,
    length: int,
    copies: int,
    flush: bool,
    pure: bool,
    bombs: bool,
    skip: int,
    limit: int,
) -> list[tuple[bytes, int, int, int, int, bool, bool]]:
    """The moves of ``solver.zsy.moves._moves``: (counts by card index, kind index, top, length, copies, flush, pure)."""

def greedy(packed: int, jokers: int, twos: int, look: int) -> list[tuple[Any, ...]]:
    """``solver.zsy.fewest._greedy``'s structures as plain tuples."""

def fewest(
    packed: int, jokers: int, twos: int, limit: int, expired: Callable[[], bool], max_states: int
) -> tuple[int, list[tuple[Any, ...]]]:
    """``fewest_plays``' exact search: (0, []) none below ``limit``, (1, structures), (2, []) out of budget."""

def plays_after(states: Sequence[tuple[int, int, int]], expired: Callable[[], bool], max_states: int) -> list[int]:
    """The fewest plays of each state (packed, jokers, 2s), up to the first that ran out of budget."""

def endgame(
    hand: Sequence[int],
    opponent: Sequence[int],
    kind: int,
    top: int,
    length: int,
    copies: int,
    flush: bool,
    pure: bool,
    bombs: bool,
    max_nodes: int,
    expired: Callable[[], bool],
    all: bool,
) -> tuple[int, list[bool], bool, int]:
    """``endgame._Search.wins`` (``all``: winning_moves' flags per legal move): (outcome, flags, pass wins, nodes)."""
