"""Table melds of a game in progress: wild roles written for display, and the wilds a natural may replace.

Pure helpers of :class:`solver.contract.game.ContractGame`: they read a
meld and the rules, never the game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, NamedTuple

from solver.cards import ALL_CARDS, N_CARDS, Card, Cards, Rank
from solver.errors import MeldError
from solver.melds import Meld, meld_kind, resolve_roles
from solver.ranks import ace_high
from solver.rules import ContractRules
from solver.rules.base import MeldSpec

__all__ = ["MeldCache", "replaceable", "single", "table_kind", "unit", "with_roles"]


def with_roles(meld: Meld, resolved: Sequence[Card], rules: ContractRules) -> Meld:
    """Write each wild's resolved role into the meld, ordered for display."""
    spec = rules.meld_spec
    pairs = [(c, r if spec.is_wild(c) else None) for c, r in zip(meld.cards, resolved)]
    kind = "run" if len({r.suit for r in resolved}) == 1 and len({r.rank for r in resolved}) == len(resolved) else "set"
    if kind == "run":
        high = ace_high(rules.ace, [int(r.rank) for r in resolved if r.rank is not None])

        def pos(pair: tuple[Card, Card | None]) -> int:
            card = pair[1] or pair[0]
            assert card.rank is not None
            return 14 if card.rank == 1 and high else int(card.rank)

        pairs.sort(key=pos)
    return Meld(tuple(c for c, _ in pairs), tuple(r for _, r in pairs))


@lru_cache(maxsize=4096)
def table_kind(meld: Meld, spec: MeldSpec) -> str:
    """The validator's kind of a table meld (memoised: the engine asks it for the same melds each turn)."""
    return meld_kind(meld, spec)


def replaceable(meld: Meld, hand: Cards, spec: MeldSpec) -> list[tuple[Card, Card]]:
    """The (wild, natural from ``hand``) pairs a swap in ``meld`` may make: in a set any
    natural of the set's rank replaces any of its wilds (the source: any ten for the 2S in
    10D 10H 2S), in a run the card a wild stands for. A wild never replaces a wild."""
    wilds = [(c, r) for c, r in zip(meld.cards, meld.roles) if spec.is_wild(c)]
    if not wilds:  # nothing to replace (and no need to validate the meld's kind)
        return []
    naturals = [c for c in hand.distinct() if not spec.is_wild(c)]
    if table_kind(meld, spec) == "set":
        rank = next(c.rank for c in meld.cards if not spec.is_wild(c))
        kinds = sorted({c for c, _ in wilds}, key=lambda c: c.index)
        return [(w, card) for w in kinds for card in naturals if card.rank == rank]
    return [(w, r) for w, r in wilds if r is not None and r in naturals]


_SINGLES = tuple(Meld((c,)) for c in ALL_CARDS)
_UNITS = tuple(Cards((c,)) for c in ALL_CARDS)


def single(index: int) -> Meld:
    """The one-card meld of the card with index ``index`` (role left open): a one-card lay-off (built once)."""
    return _SINGLES[index]


def unit(card: Card) -> Cards:
    """The multiset of ``card`` alone (built once per card)."""
    return _UNITS[card.index]


class _Facts:
    """What the engine has asked about one table meld so far (see :class:`MeldCache`)."""

    __slots__ = ("fits", "listed", "meld", "one_rank", "placed", "ranks", "suits", "swap", "swapped")

    def __init__(self, meld: Meld) -> None:
        self.meld = meld
        stands = [r if r is not None else c for c, r in zip(meld.cards, meld.roles)]
        # the lay-off filter: a natural must share a set's rank, or a run's suit (wilds go anywhere)
        self.ranks = frozenset(c.rank for c in stands)
        self.one_rank = len(self.ranks) == 1
        self.suits = frozenset(c.suit for c in stands)
        # by card index: the meld grown by that card, False (no fit), None (not asked yet)
        self.fits: list[Meld | Literal[False] | None] = [None] * N_CARDS
        self.listed: list[bool | None] = [None] * N_CARDS  # by card index: passes the filter and fits
        self.swapped: dict[tuple[int, int], Meld | None] = {}  # (wild, card) indexes: the meld after the swap
        self.placed: dict[int, Meld | None] = {}  # wild index: the meld with that wild added (role open)
        self.swap: _Swappable | None = None


class _Swappable(NamedTuple):
    """A meld's part of :func:`replaceable`: a set's rank and its kinds of wild, or a run's (wild, role) pairs."""

    set_rank: Rank | None
    set_wilds: tuple[Card, ...]
    run_pairs: tuple[tuple[Card, Card], ...]


class MeldCache:
    """The engine's questions about table melds, answered once per meld.

    Melds are immutable, so an answer about one stays true for as long as
    the meld lives. Entries are keyed by the meld object's identity (each
    entry holds its meld, so the key is never reused while it is there):
    a lookup costs one ``id``, where a meld's value hash walks its cards.
    A meld equal to a known one but built anew is simply asked again.
    """

    __slots__ = ("_entries", "rules", "spec")

    def __init__(self, rules: ContractRules) -> None:
        self.rules = rules
        self.spec = rules.meld_spec
        self._entries: dict[int, _Facts] = {}

    def clear(self) -> None:
        """Forget every answer (a new round: the old melds are gone)."""
        self._entries.clear()

    def _facts(self, meld: Meld) -> _Facts:
        facts = self._entries.get(id(meld))
        if facts is None or facts.meld is not meld:
            facts = self._entries[id(meld)] = _Facts(meld)
        return facts

    def _resolved(self, meld: Meld) -> Meld | None:
        try:
            _, roles = resolve_roles(meld, self.spec)
        except MeldError:
            return None
        return with_roles(meld, roles, self.rules)

    def grown(self, meld: Meld, card: Card) -> Meld | None:
        """``meld`` with ``card`` added (role open), roles resolved; None if that is no valid meld."""
        fits = self._facts(meld).fits
        found = fits[card.index]
        if found is None:
            grown = self._resolved(Meld((*meld.cards, card), (*meld.roles, None)))
            found = fits[card.index] = False if grown is None else grown
        return None if found is False else found

    def layoffs(self, meld: Meld, held: Sequence[int]) -> list[int]:
        """The card indexes of ``held`` that pass the listing's quick filter and fit ``meld`` on their own,
        in order. The filter: a natural must share a set's rank or a run's suit (wilds go anywhere)."""
        facts = self._facts(meld)
        listed = facts.listed
        out: list[int] = []
        for i in held:
            ok = listed[i]
            if ok is None:
                card = ALL_CARDS[i]
                if self.spec.is_wild(card) or (
                    card.rank in facts.ranks if facts.one_rank else card.suit in facts.suits
                ):
                    ok = self.grown(meld, card) is not None
                else:
                    ok = False
                listed[i] = ok
            if ok:
                out.append(i)
        return out

    def replaceable(self, meld: Meld, hand: Cards) -> list[tuple[Card, Card]]:
        """:func:`replaceable` of ``meld`` and ``hand``, with the meld's part worked out once."""
        facts = self._facts(meld)
        spec = self.spec
        if facts.swap is None:
            facts.swap = self._swappable(meld)
        set_rank, set_wilds, run_pairs = facts.swap
        if set_wilds:  # any natural of the set's rank replaces any of its wilds
            naturals = [c for c in hand.distinct() if c.rank == set_rank and not spec.is_wild(c)]
            return [(w, card) for w in set_wilds for card in naturals]
        return [(w, r) for w, r in run_pairs if r in hand and not spec.is_wild(r)]

    def _swappable(self, meld: Meld) -> _Swappable:
        spec = self.spec
        wilds = [(c, r) for c, r in zip(meld.cards, meld.roles) if spec.is_wild(c)]
        if not wilds:
            return _Swappable(None, (), ())
        if table_kind(meld, spec) == "set":
            rank = next(c.rank for c in meld.cards if not spec.is_wild(c))
            return _Swappable(rank, tuple(sorted({c for c, _ in wilds}, key=lambda c: c.index)), ())
        return _Swappable(None, (), tuple((w, r) for w, r in wilds if r is not None))

    def swapped(self, meld: Meld, wild: Card, card: Card) -> Meld | None:
        """``meld`` with ``card`` in the place of ``wild`` (a wild :func:`replaceable` lets it take: in a
        set the first copy of ``wild``, in a run the copy standing for ``card``), roles resolved; None if
        ``card`` may not take its place or the result is no valid meld."""
        facts = self._facts(meld)
        key = (wild.index, card.index)
        if key not in facts.swapped:
            facts.swapped[key] = self._swap_in(meld, wild, card)
        return facts.swapped[key]

    def _swap_in(self, meld: Meld, wild: Card, card: Card) -> Meld | None:
        if (wild, card) not in self.replaceable(meld, Cards([card])):
            return None
        kind = table_kind(meld, self.spec)
        for k, (c, r) in enumerate(zip(meld.cards, meld.roles)):
            if c == wild and (kind == "set" or r == card):
                cards = list(meld.cards)
                roles = list(meld.roles)
                cards[k] = card
                roles[k] = None
                return self._resolved(Meld(tuple(cards), tuple(roles)))
        return None  # pragma: no cover - replaceable found it

    def placed(self, meld: Meld, wild: Card, role: Card | None) -> Meld | None:
        """``meld`` with ``wild`` added (standing for ``role``, or open), roles resolved; None if invalid."""
        if role is not None:
            return self._resolved(Meld((*meld.cards, wild), (*meld.roles, role)))
        facts = self._facts(meld)
        if wild.index not in facts.placed:
            facts.placed[wild.index] = self._resolved(Meld((*meld.cards, wild), (*meld.roles, None)))
        return facts.placed[wild.index]
