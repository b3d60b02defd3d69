"""Table melds of a game in progress: wild roles written for display, and the wilds a natural may replace.

Pure helpers of :class:`solver.contract.game.ContractGame`: they read a
meld and the rules, never the game state. :class:`MeldCache` keeps their
answers (and the validator's) per meld object, since the engine asks the
same questions about the same melds on every turn; :func:`run_ends` and
``MeldCache.fits`` settle the sure cases without the validator.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Literal, NamedTuple

from solver.cards import ALL_CARDS, N_CARDS, Card, Cards, Rank
from solver.errors import MeldError
from solver.melds import Meld, meld_effect, meld_kind, resolve_roles
from solver.ranks import SUITS, ace_high, card_index, position_range, positions_of
from solver.rules import ContractRules
from solver.rules.base import MeldSpec

__all__ = ["MeldCache", "canon", "replaceable", "single", "table_kind", "unit", "with_roles"]


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


def run_ends(meld: Meld, spec: MeldSpec) -> frozenset[int] | None:
    """The card indexes of the naturals that could extend ``meld`` by one, when it is a valid run
    whose every wild has its role written (None otherwise: then nothing is known).

    Every card of such a run stands for one rank position, so they fill a window of exactly its
    length; one more natural (its role left open, it stands for itself) must sit just below or
    just above that window. A necessary condition: the validator still decides.

    >>> from solver.rules import ContractRules
    >>> spec = ContractRules().meld_spec
    >>> sorted(str(ALL_CARDS[i]) for i in run_ends(Meld.parse("QH KH 2S=AH"), spec) or ())
    ['JH']
    >>> run_ends(Meld.parse("5H 6H 2S"), spec) is None  # an open wild may move
    True
    """
    fixed: list[Card] = []
    for card, role in zip(meld.cards, meld.roles):
        if spec.is_wild(card) != (role is not None):
            return None
        fixed.append(role if role is not None else card)
    suits = {c.suit for c in fixed}
    ranks = [c.rank for c in fixed if c.rank is not None]
    if len(suits) != 1 or len(ranks) != len(fixed) or len(set(ranks)) != len(ranks):
        return None
    suit = SUITS.index(next(iter(suits)))
    lo_bound, hi_bound = position_range(spec.ace)
    windows = []
    for ace in positions_of(Rank.ACE, spec.ace) if Rank.ACE in ranks else (0,):
        places = [ace if r == Rank.ACE else int(r) for r in ranks]
        lo, hi = min(places), max(places)
        if hi - lo + 1 == len(places) and lo_bound <= lo and hi <= hi_bound:
            windows.append((lo, hi))
    if len(windows) != 1:
        return None
    lo, hi = windows[0]
    return frozenset(card_index(suit, p) for p in (lo - 1, hi + 1) if lo_bound <= p <= hi_bound)


class _Facts:
    """What the engine has asked about one table meld so far (see :class:`MeldCache`)."""

    __slots__ = ("ends", "fits", "growth", "known", "listed", "meld", "one_rank", "ranks", "suits", "swap", "swapped")

    def __init__(self, meld: Meld, spec: MeldSpec) -> None:
        self.meld = meld
        stands = [r if r is not None else c for c, r in zip(meld.cards, meld.roles)]
        # the lay-off filter: a natural must share a set's rank, or a run's suit (wilds go anywhere)
        self.ranks = frozenset(c.rank for c in stands)
        self.one_rank = len(self.ranks) == 1
        self.suits = frozenset(c.suit for c in stands)
        # and, where the meld is a run with its roles written, sit at one of its ends
        self.ends = None if self.one_rank else run_ends(meld, spec)
        # by card index: the meld grown by that card, False (no fit), None (not asked yet)
        self.fits: list[Meld | Literal[False] | None] = [None] * N_CARDS
        self.known = 0  # bits by card index: the lay-off listing has asked about the card
        self.listed = 0  # bits by card index: the card passes the listing's filter and fits
        self.swapped: dict[tuple[int, int], Meld | None] = {}  # (wild, card) indexes: the meld after the swap
        self.swap: _Swappable | None = None
        self.growth: _Growth | None = None


class _Growth(NamedTuple):
    """What one more card surely does to a meld, known without the validator: a valid set takes any
    natural of its rank (``set_rank``), and a valid set or a run with its roles written takes an open
    wild while the wild limit and the length allow (``takes_wild``). Anything else, the validator decides."""

    set_rank: Rank | None
    takes_wild: bool


class _Swappable(NamedTuple):
    """A meld's part of :func:`replaceable`: a set's kinds of wild and the natural cards of its rank
    (indexes), or a run's wilds with the natural card each stands for (and its index)."""

    set_wilds: tuple[Card, ...]
    set_naturals: tuple[int, ...]
    run_pairs: tuple[tuple[Card, Card, int], ...]


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
            facts = self._entries[id(meld)] = _Facts(meld, self.spec)
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

    def _growth(self, facts: _Facts) -> _Growth:
        meld, spec = facts.meld, self.spec
        n = len(meld.cards)
        naturals = sum(1 for c in meld.cards if not spec.is_wild(c))
        wild_room = n - naturals + 1 <= spec.wilds_allowed(naturals)
        if not spec.set_distinct_suits and (spec.set_max is None or n < spec.set_max):
            try:
                meld_kind(meld, spec, "set")
            except MeldError:
                pass
            else:  # one more natural of its rank, or a wild within the limit, is still a valid set
                rank = next(c.rank for c in meld.cards if not spec.is_wild(c))
                return _Growth(rank, wild_room)
        # a run whose cards fill their window: an open wild goes at a free end (see run_ends)
        return _Growth(None, bool(facts.ends) and spec.run_min <= n + 1 <= spec.run_max and wild_room)

    def fits(self, meld: Meld, card: Card) -> bool:
        """``grown(meld, card) is not None``, without the validator where the answer is sure."""
        facts = self._facts(meld)
        growth = facts.growth
        if growth is None:
            growth = facts.growth = self._growth(facts)
        if growth.set_rank is not None and card.rank == growth.set_rank and not self.spec.is_wild(card):
            return True
        if growth.takes_wild and self.spec.is_wild(card):
            return True
        return self.grown(meld, card) is not None

    def layoffs(self, meld: Meld, held: int) -> int:
        """The cards of ``held`` (bits by card index) that pass the listing's quick filter and fit
        ``meld`` on their own, as bits. The filter: a natural must share a set's rank or a run's suit
        (wilds go anywhere)."""
        facts = self._entries.get(id(meld))
        if facts is None or facts.meld is not meld:
            facts = self._facts(meld)
        unknown = held & ~facts.known
        if unknown:
            self._learn(facts, unknown)
        return held & facts.listed

    def _learn(self, facts: _Facts, unknown: int) -> None:
        """Settle the lay-off listing of the cards ``unknown`` (bits) onto the meld of ``facts``."""
        meld = facts.meld
        while unknown:
            low = unknown & -unknown
            unknown ^= low
            i = low.bit_length() - 1
            card = ALL_CARDS[i]
            if self.spec.is_wild(card):
                ok = self.fits(meld, card)
            elif card.rank in facts.ranks if facts.one_rank else card.suit in facts.suits:
                ok = (facts.ends is None or i in facts.ends) and self.fits(meld, card)
            else:
                ok = False
            facts.known |= low
            if ok:
                facts.listed |= low

    def replaceable(self, meld: Meld, hand: Cards) -> list[tuple[Card, Card]]:
        """:func:`replaceable` of ``meld`` and ``hand``, with the meld's part worked out once."""
        facts = self._entries.get(id(meld))
        if facts is None or facts.meld is not meld:
            facts = self._facts(meld)
        if facts.swap is None:
            facts.swap = self._swappable(meld)
        set_wilds, set_naturals, run_pairs = facts.swap
        counts = hand.counts
        if set_wilds:  # any natural of the set's rank replaces any of its wilds
            naturals = [ALL_CARDS[i] for i in set_naturals if counts[i]]
            return [(w, card) for w in set_wilds for card in naturals]
        return [(w, r) for w, r, i in run_pairs if counts[i]]

    def _swappable(self, meld: Meld) -> _Swappable:
        spec = self.spec
        wilds = [(c, r) for c, r in zip(meld.cards, meld.roles) if spec.is_wild(c)]
        if not wilds:
            return _Swappable((), (), ())
        if table_kind(meld, spec) == "set":
            rank = next(c.rank for c in meld.cards if not spec.is_wild(c))
            kinds = tuple(sorted({c for c, _ in wilds}, key=lambda c: c.index))
            return _Swappable(kinds, tuple(c.index for c in ALL_CARDS if c.rank == rank and not spec.is_wild(c)), ())
        return _Swappable((), (), tuple((w, r, r.index) for w, r in wilds if r is not None and not spec.is_wild(r)))

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
        return self.grown(meld, wild)


def canon(meld: Meld | None) -> tuple[tuple[int, int], ...] | None:
    """A table meld as its effect (:func:`solver.melds.meld_effect`: a set's wild stands for its rank,
    the suit of its written role cosmetic, see :class:`~solver.contract.wilds.SetShape`), None for none."""
    return None if meld is None else meld_effect(meld)
