"""From decoded pieces to printed melds: the last step of a CP-SAT answer.

The CP-SAT model's pieces are run windows of 3-5 positions and sets; a run
longer than five cards is a chain of windows. :func:`assemble` joins
adjacent run pieces of a suit (at most one old meld's home in a chain),
then moves the jokers of a piece of jokers only into melds with room.
When it cannot, it returns None and the exact joker model is needed.

Cost: linear in the pieces (a chain scan per run piece).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import Card, Rank
from solver.manipulation.model import Piece
from solver.melds import Meld
from solver.ranks import JOKER, MAX_RUN, SUITS, position_range, position_rank
from solver.rules import ManipulationRules

__all__ = ["assemble"]


@dataclass(slots=True)
class _Chain:
    """Run pieces of one suit joined end to end: slots from ``start``, None for a joker."""

    suit: int
    start: int
    slots: list[Card | None]
    home: int | None

    def joins(self, other: _Chain) -> bool:
        """Append or prepend ``other`` when it touches this chain (one home at most); True if joined."""
        if self.suit != other.suit or (self.home is not None and other.home is not None):
            return False
        if len(self.slots) + len(other.slots) > MAX_RUN:
            return False
        if self.start + len(self.slots) == other.start:
            self.slots.extend(other.slots)
        elif other.start + len(other.slots) == self.start:
            self.start = other.start
            self.slots[:0] = other.slots
        else:
            return False
        if self.home is None:
            self.home = other.home
        return True

    def meld(self) -> Meld:
        """The run as a meld, jokers with their roles."""
        cards = [JOKER if c is None else c for c in self.slots]
        roles = [
            Card(position_rank(self.start + k), SUITS[self.suit]) if c is None else None
            for k, c in enumerate(self.slots)
        ]
        return Meld(tuple(cards), tuple(roles))


@dataclass(slots=True)
class _SetRow:
    """A set's members (None for a joker)."""

    rank: int
    members: list[Card | None]

    def meld(self) -> Meld:
        """The set as a meld: naturals in suit order, then jokers for the missing suits."""
        naturals = sorted((c for c in self.members if c is not None), key=lambda c: c.index)
        used = {c.suit for c in naturals}
        free = [s for s in SUITS if s not in used]
        jokers = sum(1 for c in self.members if c is None)
        cards = [*naturals, *([JOKER] * jokers)]
        roles: list[Card | None] = [None] * len(naturals) + [Card(Rank(self.rank), free[k]) for k in range(jokers)]
        return Meld(tuple(cards), tuple(roles))


def _chains(pieces: Sequence[Piece]) -> tuple[list[_Chain], list[_SetRow]]:
    """Run pieces joined into chains (homes first), and the sets."""
    runs = [_Chain(p.suit, p.start, list(p.slots), p.home) for p in pieces if p.kind == "run"]
    sets = [_SetRow(p.rank, list(p.slots)) for p in pieces if p.kind == "set"]
    runs.sort(key=lambda r: (r.home is None, r.suit, r.start))
    chains: list[_Chain] = []
    for r in runs:
        if not any(ch.joins(r) for ch in chains):
            chains.append(r)
    return chains, sets


def _place_loose_jokers(chains: list[_Chain], sets: list[_SetRow], loose: int, ace: str) -> bool:
    """Jokers of melds of jokers only go to runs (either end) and sets with room; False if some are left."""
    lo_pos, hi_pos = position_range(ace)
    for ch in chains:
        while loose and len(ch.slots) < MAX_RUN:
            if ch.start + len(ch.slots) <= hi_pos:
                ch.slots.append(None)
            elif ch.start > lo_pos:
                ch.start -= 1
                ch.slots.insert(0, None)
            else:  # pragma: no cover - a run of under 13 cards always has room
                break
            loose -= 1
    for st in sets:
        while loose and len(st.members) < 4:
            st.members.append(None)
            loose -= 1
    return not loose


def assemble(pieces: Sequence[Piece], rules: ManipulationRules) -> list[Meld] | None:
    """Pieces to printed melds: adjacent run pieces join (at most one home each), then jokers in
    a meld of jokers only move to melds with room. None if they find none (the exact model is needed).
    """
    chains, sets = _chains(pieces)
    loose = sum(len(ch.slots) for ch in chains if all(c is None for c in ch.slots))
    loose += sum(len(st.members) for st in sets if all(c is None for c in st.members))
    if loose:
        chains = [ch for ch in chains if any(c is not None for c in ch.slots)]
        sets = [st for st in sets if any(c is not None for c in st.members)]
        if not _place_loose_jokers(chains, sets, loose, rules.ace):
            return None
    return [ch.meld() for ch in chains] + [st.meld() for st in sets]
