"""The moves of a Contract Shanghai position (:class:`~solver.contract.game.ContractGame`'s base):
the lay-offs and wild swaps listed, the cards that may be discarded, and the check of any action
written out (:meth:`ContractMoves.verify`, which reads no cached listing).

The game state itself (rounds, the stock, the turn's state machine, applying actions) is
:class:`~solver.contract.game.ContractGame`; the lay-down listed and the whole-turn plan, which ask
the solver, are there too.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import Any, Literal

from solver.cards import ALL_CARDS, Card, Rank
from solver.contract.actions import (
    CCall,
    CDecline,
    CDiscard,
    CLayDown,
    CLayOff,
    CNoCall,
    ContractAction,
    CSwap,
    CTake,
)
from solver.contract.layoff import Swap
from solver.contract.referee import check_lay_down
from solver.contract.tablemelds import MeldCache, canon, single, with_roles
from solver.engine.base import PenaltyGame
from solver.errors import IllegalActionError, MeldError, ShanghaiError
from solver.melds import Meld, TableMeld, resolve_roles
from solver.ranks import ace_high
from solver.rules import ContractRules

__all__ = ["ContractMoves", "Phase"]


Phase = Literal["first_discard", "offer", "call", "play", "over"]
"""The phases of a Contract Shanghai turn (see :mod:`solver.contract.game`)."""

_INDEXES = range(len(ALL_CARDS))

_EXPECTED: dict[str, tuple[type, ...]] = {
    "first_discard": (CDiscard,),
    "offer": (CTake, CDecline),
    "call": (CCall, CNoCall),
    "play": (CDiscard, CLayDown, CLayOff, CSwap),
}
"""The kinds of action each phase takes."""


class ContractMoves(PenaltyGame):
    """The legal moves of a Contract Shanghai position: the base of
    :class:`~solver.contract.game.ContractGame`, which sets the state read here."""

    rules: ContractRules
    round: int
    to_move: int
    phase: Phase
    table: list[TableMeld]
    laid_down: list[bool]
    laid_this_turn: bool
    calls: list[int]
    no_discard: Card | None
    _melds: MeldCache

    @property
    def last_round(self) -> bool:
        """True in the rule set's final round (round 7 with the standard lists)."""
        return self.round == self.rules.rounds

    def all_at_once(self) -> bool:
        """True when this round's whole hand must go down at once (the last round, by the rules)."""
        return self.last_round and self.rules.last_round_all_at_once

    def _discard_mask(self, p: int) -> Sequence[int]:
        """Per card index, nonzero where the card may be discarded: every card in hand but one drawn
        from the stock this turn after a reshuffle (unless it is the only card)."""
        hand = self.hands[p]
        counts = hand.counts
        if len(hand) == 1 and not self.laid_down[p]:  # only a player who has laid down can go out
            return [0] * len(counts)
        barred = self.no_discard
        if barred is None or counts[barred.index] != 1 or len(hand) == 1:
            return counts
        mask = list(counts)
        mask[barred.index] = 0
        return mask

    def grown(self, target: int, added: Meld) -> Meld | None:
        """Table meld ``target`` with ``added`` laid off onto it, roles resolved; None if invalid."""
        old = self.table[target].meld
        if len(added.cards) == 1 and added.roles[0] is None:
            return self._melds.grown(old, added.cards[0])
        meld = Meld(old.cards + added.cards, old.roles + added.roles)
        try:
            _, roles = resolve_roles(meld, self.rules.meld_spec)
        except MeldError:
            return None
        return with_roles(meld, roles, self.rules)

    def _layoffs(self, p: int) -> list[ContractAction]:
        # a natural must share a set's rank, or a run's suit, before the validator is asked (wilds go anywhere)
        held = 0
        for i in compress(_INDEXES, self.hands[p].counts):
            held |= 1 << i
        out: list[ContractAction] = []
        spec = self.rules.meld_spec
        for i, tm in enumerate(self.table):
            fit = self._melds.layoffs(tm.meld, held)
            while fit:  # card order is index order
                low = fit & -fit
                fit ^= low
                out.append(CLayOff(p, i, single(low.bit_length() - 1)))
                card = ALL_CARDS[low.bit_length() - 1]
                if spec.is_wild(card):  # a wild's other readings: the run's other end (issue 36)
                    out.extend(CLayOff(p, i, Meld((card,), (role,))) for role in self._other_ends(tm.meld, card))
        return out

    def _other_ends(self, meld: Meld, wild: Card) -> list[Card]:
        """The roles, in card order, that lay ``wild`` off onto run ``meld`` at another end than its
        open role reads it (``4H 5H 2S=6H 7H`` + ``2C``: read as the 8H, and the 3H), each a distinct
        table meld; none for a set."""
        stands = [r if r is not None else c for c, r in zip(meld.cards, meld.roles)]
        if any(c.rank is None for c in stands) or len({c.suit for c in stands}) != 1 or len(stands) < 2:
            return []
        ranks = [int(c.rank) for c in stands if c.rank is not None]
        high = ace_high(self.rules.ace, [r for r in ranks if r != 1])
        places = sorted(14 if r == 1 and high else r for r in ranks)
        if len(set(places)) != len(places):
            return []
        suit = stands[0].suit
        seen = {canon(self._melds.grown(meld, wild))}
        out = []
        for at in (places[0] - 1, places[-1] + 1):
            if 1 <= at <= 14:
                role = Card(Rank(1 if at == 14 else at), suit)
                effect = canon(self._melds.placed(meld, wild, role))
                if effect is not None and effect not in seen:
                    seen.add(effect)
                    out.append(role)
        return sorted(out, key=lambda c: c.index)

    def _swappable(self, p: int, target: int) -> bool:
        owner = self.table[target].owner
        return self.rules.wild_swap and (owner != p or self.rules.wild_swap_own)

    def _swaps(self, p: int) -> list[ContractAction]:
        out: list[ContractAction] = []
        melds = self._melds
        if not self.rules.wild_swap:
            return out
        own = self.rules.wild_swap_own
        for i, tm in enumerate(self.table):
            if tm.owner == p and not own:  # see _swappable
                continue
            meld = tm.meld
            for wild, card in melds.replaceable(meld, self.hands[p]):
                swapped = melds.swapped(meld, wild, card)
                if swapped is None:
                    continue
                for dest in range(len(self.table)):
                    onto = swapped if dest == i else self.table[dest].meld
                    if not melds.fits(onto, wild):
                        continue
                    if dest != i:
                        out.append(CSwap(p, Swap(card, i, wild, dest)))
                        continue
                    role = self._back_role(i, card, swapped, wild)
                    if role is not False:
                        out.append(CSwap(p, Swap(card, i, wild, dest), role))
        return out

    def _back_role(self, i: int, card: Card, swapped: Meld, wild: Card) -> Card | Literal[False] | None:
        """The role listed for ``wild``, swapped out of table meld i for ``card``, going back onto it:
        left open (None), unless that leaves the meld a lay-off of ``card`` leaves (``swap QC 0``
        back onto meld 0 is ``layoff 0 QC``: one listed action an effect); then the lowest role that
        does not, or False when none (no such swap listed; a written one stays legal)."""
        layoff = canon(self.grown(i, single(card.index)))
        placed = self._melds.placed(swapped, wild, None)
        if placed is None or canon(placed) != layoff:
            return None
        suit = next((r.suit for r in resolve_roles(swapped, self.rules.meld_spec)[1]), None)
        for role in ALL_CARDS[:52]:
            if role.suit == suit:
                placed = self._melds.placed(swapped, wild, role)
                if placed is not None and canon(placed) != layoff:
                    return role
        return False

    def _swap_result(self, action: CSwap) -> list[TableMeld] | None:
        """The table after a swap, or None if the swap is not possible."""
        swap = action.swap
        if not 0 <= swap.meld < len(self.table) or not 0 <= swap.to < len(self.table):
            return None
        tm = self.table[swap.meld]
        swapped = self._melds.swapped(tm.meld, swap.wild, swap.card)
        if swapped is None:
            return None
        table = list(self.table)
        table[swap.meld] = TableMeld(swapped, tm.owner)
        placed = self._melds.placed(table[swap.to].meld, swap.wild, action.role)
        if placed is None:
            return None
        table[swap.to] = TableMeld(placed, table[swap.to].owner)
        return table

    def verify(self, action: Any) -> None:
        """Raise :class:`IllegalActionError` unless ``action`` is legal now (it reads no cache of
        :meth:`legal_actions`: each rule is checked here)."""
        p = self.to_move
        phase = self.phase
        expected = _EXPECTED.get(phase, ())
        if not isinstance(action, expected):
            raise IllegalActionError(f"{action} is not possible now (phase: {phase})")
        if isinstance(action, CDiscard):
            self._verify_discard(p, action)
        elif isinstance(action, CCall):
            if self.rules.max_calls is not None and self.calls[p] >= self.rules.max_calls:
                raise IllegalActionError(f"player {p} has used all {self.rules.max_calls} calls this round")
        elif isinstance(action, CLayDown):
            if self.laid_down[p]:
                raise IllegalActionError("the contract is already laid down")
            max_left = 1 if self.all_at_once() else None
            try:
                check_lay_down(self.hands[p], action.melds, self.rules, self.round, max_left=max_left)
            except ShanghaiError as exc:
                raise IllegalActionError(f"illegal lay-down: {exc}") from None
        elif isinstance(action, CLayOff):
            self._verify_layoff(p, action)
        elif isinstance(action, CSwap):
            self._verify_swap(p, action)

    def _verify_discard(self, p: int, action: CDiscard) -> None:
        hand = self.hands[p]
        if action.card not in hand:
            raise IllegalActionError(f"player {p} holds no {action.card}")
        if len(hand) == 1 and not self.laid_down[p]:
            raise IllegalActionError("only a player who has laid down the contract can go out")
        if self.phase == "play" and not self._discard_mask(p)[action.card.index]:
            raise IllegalActionError(f"{action.card} was drawn from the stock this turn after a reshuffle")
        if self.phase == "play" and self.all_at_once() and self.laid_down[p] and len(hand) > 1:
            raise IllegalActionError("in the last round a player who laid down must go out this turn")

    def _verify_may_meld(self, p: int) -> None:
        if not self.laid_down[p]:
            raise IllegalActionError("lay down the contract before laying off or swapping")
        if self.laid_this_turn and not self.rules.layoff_same_turn:
            raise IllegalActionError("laying off is not allowed in the turn of laying down (layoff_same_turn off)")

    def _verify_layoff(self, p: int, action: CLayOff) -> None:
        self._verify_may_meld(p)
        if not 0 <= action.target < len(self.table):
            raise IllegalActionError(f"no meld {action.target} on the table")
        if not action.cards.multiset <= self.hands[p]:
            raise IllegalActionError(f"player {p} does not hold {action.cards.multiset}")
        if self.grown(action.target, action.cards) is None:
            raise IllegalActionError(
                f"{action.cards} does not fit meld {action.target} ({self.table[action.target].meld})"
            )

    def _verify_swap(self, p: int, action: CSwap) -> None:
        self._verify_may_meld(p)
        if action.card not in self.hands[p]:
            raise IllegalActionError(f"player {p} holds no {action.card}")
        if not 0 <= action.target < len(self.table) or not self._swappable(p, action.target):
            raise IllegalActionError(f"wilds in meld {action.target} cannot be swapped by player {p}")
        if self._swap_result(action) is None:
            raise IllegalActionError(f"swap {action} is not possible")
