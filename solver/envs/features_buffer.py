"""The feature buffer the writers of :mod:`solver.envs.features` fill: a list or a numpy array, and
per part the value it was last written from (a part unchanged since costs one comparison)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from itertools import compress
from operator import ne
from typing import Any

from solver.cards import Card, Cards
from solver.envs.features_layout import _NONE, _RANGE, N

__all__: list[str] = []


class _Buffer:
    """A zeroed feature buffer and, per part (an id: its offset), the value that part was last
    written from.

    The parts compare their source with :attr:`keys` before writing (immutable values by
    identity, the rest by value), so an unchanged hand or table meld costs one comparison,
    and a changed one sets only the numbers that changed.
    """

    __slots__ = ("_row", "keys", "listed", "out", "sizes")

    def __init__(self, out: Any, sizes: list[list[Any]] | None = None) -> None:
        self.out = out
        self.listed = isinstance(out, list)
        self.keys: dict[int, Any] = {}
        # per seat, the last hand whose size was worked out and that size / 30 (shared by the
        # buffers of one Observations: each new hand's size is counted once, not once a player)
        self.sizes: list[list[Any]] = sizes if sizes is not None else []
        self._row: Callable[[bytes], Any] | None = None  # bytes of counts -> a row a numpy slice takes
        if not self.listed:
            from numpy import frombuffer, uint8  # a numpy buffer: numpy is there

            self._row = partial(frombuffer, dtype=uint8)

    def clear(self, at: int, size: int) -> None:
        """Zeros at ``at`` .. ``at + size - 1``."""
        if self.listed:
            self.out[at : at + size] = [0.0] * size
        else:
            self.out[at : at + size] = 0

    def counts(self, at: int, cards: Cards | None) -> bool:
        """Card counts (N) at ``at`` unless these very cards are there (None: no cards); True if written.

        In a list only the counts that differ from the cards written last are set; a numpy
        slice takes all of them at once as the bytes of the counts (cheaper than finding the
        few that differ, and than a slice assigned from the tuple of 55 ints).
        """
        keys = self.keys
        old = keys.get(at)
        if old is cards:
            return False
        keys[at] = cards
        new = cards.counts if cards is not None else _NONE
        out = self.out
        if self._row is not None:
            out[at : at + N] = self._row(bytes(new))
            return True
        for i in compress(_RANGE, map(ne, old.counts if old is not None else _NONE, new)):
            out[at + i] = new[i]
        return True

    def picks(self, at: int, picks: tuple[int, ...]) -> None:
        """The counts (N) of the cards picked so far: one more pick sets one count."""
        old = self.keys.get(at, ())
        if old == picks:
            return
        out = self.out
        if picks[: len(old)] != old:
            for i in old:
                out[at + i] = 0.0
            old = ()
        for i in picks[len(old) :]:
            out[at + i] = picks.count(i)
        self.keys[at] = picks

    def each(self, at: int, cards: Iterable[Card], sign: int = 1) -> None:
        """Add (or with ``sign`` -1, take away) the counts of a few loose cards at ``at``."""
        out = self.out
        for card in cards:
            out[at + card._index] += sign

    def seats(self, at: int, values: list[Any], p: int, scale: float = 1.0) -> None:
        """Per seat, relative to the observer (MAX_SEATS), each value / ``scale``: the seats whose
        value changed since the last write."""
        old = self.keys.get(at)
        if old == values:
            return
        self.keys[at] = list(values)
        n = len(values)
        out = self.out
        for q in range(n):
            if old is None or old[q] != values[q]:
                out[at + (q - p) % n] = values[q] / scale

    def one_hot(self, at: int, i: int, size: int) -> None:
        """A one-hot of ``i`` among ``size`` (all zeros when out of range), unless it is there."""
        old = self.keys.get(at)
        if old == i:
            return
        self.keys[at] = i
        out = self.out
        if old is not None and 0 <= old < size:
            out[at + old] = 0.0
        if 0 <= i < size:
            out[at + i] = 1.0
