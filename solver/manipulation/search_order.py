"""The two orders the extension search (:mod:`solver.manipulation.extension`) walks in.

By old melds when a joker is in the hand (each old meld takes one of its
extensions or none), by hand cards otherwise (the card the fewest old melds
can hold goes first). Both are exhaustive within the search's budget and
memoise their failures; the search state (:class:`~solver.manipulation.extension._Search`)
is passed in, typed by what these orders use of it (:class:`SearchState`), since the extension
module imports this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from solver.melds import Meld

__all__ = ["by_meld", "by_card", "SearchState", "Take"]

Take = tuple[int, ...]
"""Counts over the compact hand: what the extension search takes and leaves free."""

Holder = tuple[int, Take, Meld, tuple[tuple[int, int], ...]]
"""An old meld's extension holding a card: the meld's index, the cards taken (dense and sparse)."""


class SearchState(Protocol):
    """What the two orders use of the extension search (:class:`~solver.manipulation.extension._Search`)."""

    weights: list[int]
    failed: set[tuple[int, Take, int]]

    def tick(self, work: int = 1) -> None: ...
    def could_meld(self, k: int, free: Take) -> bool: ...
    def new_melds(self, free: Take, slack: int) -> list[Meld] | None: ...


def by_meld(
    search: SearchState, options: Sequence[Sequence[tuple[Take, Meld]]], active: Sequence[int], free0: Take, slack: int
) -> list[tuple[int, Meld]] | None:
    """The extension search driven by old melds (a joker in the hand): each old meld in turn takes
    one of its extensions or none, then the rest goes to :meth:`~solver.manipulation.extension._Search.new_melds`. Raises
    :class:`~solver.manipulation.extension._Budget` past the budget."""

    def extend(k: int, free: Take) -> list[tuple[int, Meld]] | None:
        """Extensions of the melds active[k:], then new melds, from ``free``."""
        key = (k, free, slack)
        if key in search.failed:
            return None
        if k == len(active):
            search.tick()
            melds = search.new_melds(free, slack)
            return None if melds is None else [(-1, m) for m in melds]
        search.tick(1 + len(options[active[k]]))
        for take, meld in options[active[k]]:
            if all(a >= b for a, b in zip(free, take)):
                found = extend(k + 1, tuple(a - b for a, b in zip(free, take)))
                if found is not None:
                    return [(active[k], meld), *found]
        found = extend(k + 1, free)
        if found is None:
            search.failed.add(key)
        return found

    return extend(0, free0)


def by_card(
    search: SearchState, options: Sequence[Sequence[tuple[Take, Meld]]], active: Sequence[int], free0: Take, slack: int
) -> list[tuple[int, Meld]] | None:
    """The extension search driven by hand cards (no joker in the hand): see :class:`_ByCard`.
    Raises :class:`~solver.manipulation.extension._Budget` past the budget."""
    return _ByCard(search, options, active, free0, slack).place(0, 0, free0)


class _ByCard:
    """The search by hand cards: the card that the fewest old melds' extensions can still hold is
    placed first, in each of them in turn, or else kept for new melds of hand cards alone (all its
    copies); when no card is left that an old meld can hold, the rest goes to
    :meth:`~solver.manipulation.extension._Search.new_melds`. Every extension play is one path: each card either joins an old meld
    in that meld's one extension, or no copy of it joins any. A node fails at once when the cards
    that neither an old meld nor a meld of free cards can hold outweigh the slack."""

    def __init__(
        self,
        search: SearchState,
        options: Sequence[Sequence[tuple[Take, Meld]]],
        active: Sequence[int],
        free0: Take,
        slack: int,
    ) -> None:
        self.search, self.slack = search, slack
        self.holders: list[list[Holder]] = [[] for _ in free0]
        for i in active:
            for take, meld in options[i]:
                needs = tuple((k, n) for k, n in enumerate(take) if n)  # the cards it takes, sparse
                for k, _ in needs:
                    self.holders[k].append((i, take, meld, needs))
        self.failed: set[tuple[int, int, Take]] = set()

    def pick(self, used: int, kept: int, free: Take) -> tuple[int, list[Holder]] | None:
        """The card the fewest old melds can hold (-1 if none can) with those extensions; None when
        the cards that nothing can hold any more outweigh the slack."""
        search, weights = self.search, self.search.weights
        best: list[Holder] = []
        card = -1
        lost = 0  # the weight of cards that neither an old meld nor a meld of free cards can hold
        for k, f in enumerate(free):
            if not f:
                continue
            search.tick()  # a card looked at
            here = []
            if self.holders[k] and not kept >> k & 1:
                here = [
                    h
                    for h in self.holders[k]
                    if not used >> h[0] & 1 and all(n <= free[j] and not kept >> j & 1 for j, n in h[3])
                ]
            if not here:
                if not search.could_meld(k, free):
                    lost += weights[k] * f
                    if lost > self.slack:
                        return None
            elif card < 0 or len(here) < len(best):
                best, card = here, k
        return card, best

    def place(self, used: int, kept: int, free: Take) -> list[tuple[int, Meld]] | None:
        """Extensions of the old melds not in ``used``, then new melds, from ``free`` (the cards in
        ``kept`` only in new melds); None if nothing reaches the target."""
        key = (used, kept, free)
        if key in self.failed:
            return None
        self.search.tick()
        picked = self.pick(used, kept, free)
        found: list[tuple[int, Meld]] | None = None
        if picked is not None and picked[0] < 0:
            melds = self.search.new_melds(free, self.slack)
            found = None if melds is None else [(-1, m) for m in melds]
        elif picked is not None:
            card, best = picked
            self.search.tick(len(best))
            for i, take, meld, _ in best:
                rest = self.place(used | 1 << i, kept, tuple(a - b for a, b in zip(free, take)))
                if rest is not None:
                    found = [(i, meld), *rest]
                    break
            if found is None:
                found = self.place(used, kept | 1 << card, free)
        if found is None:
            self.failed.add(key)
        return found
