"""Stage 2 of the best play: the extension search, the best play keeping every old meld whole.

:class:`ExtensionSearch` finds, by exhaustive search (memoised, with a work
budget), the best play that leaves every old meld whole: cards added to old
melds (runs at either end, sets up to four suits; jokers anywhere) and new
melds from the hand alone. When it plays every card of the playable bound
(:mod:`solver.manipulation.bound`) it is proven optimal, and since it keeps
every old meld and moves no table card it is also the least-change optimum;
no solver call is needed. When a later stage proves the same score, the
extension play is again the least-change optimum.

Cost: at most ``budget`` units of work, a search state or a meld listed
at one (300 by default, :func:`budget_for` in the best play; 10-30 us each);
past it the search gives up and the later stages decide.

>>> from solver.melds import parse_table
>>> from solver.rules import ManipulationRules
>>> ext = extension_play(parse_table("5H 6H 7H | 9S 9H 9D"), Cards.parse("8H 9C KD"), ManipulationRules())
>>> str(ext.played), [str(m) for m in ext.table], ext.proven
('8H 9C', ['5H 6H 7H 8H', '9S 9H 9D 9C'], True)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from solver.cards import Card, Cards
from solver.manipulation.bound import card_weight, playable_bound
from solver.manipulation.search_order import Take
from solver.manipulation.search_order import by_card as _by_card
from solver.manipulation.search_order import by_meld as _by_meld
from solver.melds import Meld, meld_kinds
from solver.ranks import JOKER, JOKER_INDEX, MAX_RUN, SUITS, card_index, natural_card, position_range, positions_of
from solver.rules import ManipulationRules

__all__ = ["Extension", "ExtensionSearch", "extension_play", "BUDGET", "budget_for"]

BUDGET = 300
"""Units of work before the extension search gives up (then the later stages decide)."""


def budget_for(table_cards: int) -> int:
    """The budget for a table of this many cards: the CP-SAT solve the search tries to avoid grows
    with the table, so may the search (180 units at 20 cards, 690 at 190). Three fifths of the
    first rule (300 + 5 a card past 20) since the solves got 20-40% cheaper (session 7): on 480
    positions of the kinds where the search succeeds or runs long, every kind's mean went down or
    stayed (docs/decisions-manipulation.md, eighth round).

    >>> budget_for(40), budget_for(190)
    (240, 690)
    """
    return (BUDGET + 5 * max(0, table_cards - 20)) * 3 // 5


_J = JOKER_INDEX


@dataclass(frozen=True, slots=True)
class Extension:
    """A play that keeps every old meld whole, searched for a target score.

    ``table``: the old melds (extended where cards join them, in old-table
    order) then the new melds. ``found``: the play reaches the target.
    ``complete``: the search finished, so when nothing was found no play
    keeping every old meld whole reaches the target. ``bound``: the playable
    hand cards (:func:`playable_bound`); ``played == bound`` proves the play
    optimal over every rearrangement.
    """

    played: Cards
    table: tuple[Meld, ...]
    bound: Cards
    found: bool
    complete: bool
    score: int

    @property
    def proven(self) -> bool:
        """The play reaches the bound: optimal for any objective, and least change."""
        return self.found and self.played == self.bound


class _Budget(Exception):
    """The search ran out of its work budget."""


class _Search:
    """Depth-first search with memoised failures over the compact hand ``cards``."""

    def __init__(self, cards: list[Card], weights: list[int], rules: ManipulationRules, budget: int) -> None:
        self.cards = cards
        self.weights = weights
        self.rules = rules
        self.budget = budget
        self.slot = {c.index: k for k, c in enumerate(cards)}
        self.joker = self.slot.get(_J, -1)
        self.lo, self.hi = position_range(rules.ace)
        self.states = 0
        self.failed: set[tuple[int, Take, int]] = set()

    def tick(self, work: int = 1) -> None:
        """Count ``work`` (a state, or the melds listed at one) against the budget."""
        self.states += work
        if self.states > self.budget:
            raise _Budget

    def score(self, take: Sequence[int]) -> int:
        return sum(w * n for w, n in zip(self.weights, take))

    def _take(self, naturals: Sequence[int], jokers: int) -> Take:
        take = [0] * len(self.cards)
        for i in naturals:
            take[self.slot[i]] += 1
        if jokers:
            take[self.joker] += jokers
        return tuple(take)

    def _available(self, suit: int, free: Take) -> list[bool]:
        """Per rank position (0..15): a copy of the suit's card there is free."""
        avail = [False] * 16
        for q in range(self.lo, self.hi + 1):
            k = self.slot.get(card_index(suit, q), -1)
            avail[q] = k >= 0 and free[k] > 0
        return avail

    def could_meld(self, k: int, free: Take) -> bool:
        """Whether hand card ``k`` (a natural, no joker in the hand) has a meld of ``free`` cards around
        it: three suits of its rank, or three positions of its suit in a row."""
        card = self.cards[k]
        assert card.rank is not None and card.suit is not None
        suit, rank = SUITS.index(card.suit), int(card.rank)
        suits = 0
        for s in range(4):
            j = self.slot.get(s * 13 + rank - 1, -1)
            suits += j >= 0 and free[j] > 0
        if suits >= 3:
            return True
        avail = self._available(suit, free)
        return any(
            all(avail[q] for q in range(start, start + 3))
            for p in positions_of(rank, self.rules.ace)
            for start in range(max(self.lo, p - 2), min(p, self.hi - 2) + 1)
        )

    def runs(
        self, suit: int, fixed: dict[int, Card], fixed_jokers: int, free: Take, min_add: int
    ) -> Iterator[tuple[Take, Meld]]:
        """Runs of ``suit`` holding the ``fixed`` naturals (position -> card) and ``fixed_jokers``,
        plus at least ``min_add`` cards from ``free``; every other slot a hand natural or a joker."""
        hand_jokers = free[self.joker] if self.joker >= 0 else 0
        jokers_max = fixed_jokers + hand_jokers
        avail = self._available(suit, free)
        for start, end, holes in self._windows(fixed, fixed_jokers, jokers_max, avail, min_add):
            slots = [q for q in range(start, end + 1) if q not in fixed and avail[q]]
            # slots left to jokers: u of the available ones, so that holes + u jokers in all
            for u in range(max(0, fixed_jokers - holes), jokers_max - holes + 1):
                if u > len(slots):
                    break
                for spare in itertools.combinations(slots, u) if u else ((),):
                    used = [q for q in slots if q not in spare]
                    take = self._take([card_index(suit, q) for q in used], holes + u - fixed_jokers)
                    yield take, _run_meld(suit, start, end, fixed, set(used))

    def _windows(
        self, fixed: dict[int, Card], fixed_jokers: int, jokers_max: int, avail: Sequence[bool], min_add: int
    ) -> Iterator[tuple[int, int, int]]:
        """The windows ``(start, end, holes)`` a run holding the ``fixed`` positions may span: 3 to
        MAX_RUN long, at least ``min_add`` slots beyond the fixed cards and jokers, and its slots
        with no free card (``avail`` False: ``holes``) at most ``jokers_max``."""
        lo, hi = self.lo, self.hi
        f_lo, f_hi = min(fixed), max(fixed)
        inner_holes = sum(1 for q in range(f_lo, f_hi + 1) if q not in fixed and not avail[q])
        if inner_holes > jokers_max:
            return
        lefts = [(f_lo, 0)]  # (start, holes left of the fixed span)
        holes = 0
        for q in range(f_lo - 1, lo - 1, -1):
            holes += not avail[q]
            if inner_holes + holes > jokers_max:
                break
            lefts.append((q, holes))
        rights = [(f_hi, 0)]
        holes = 0
        for q in range(f_hi + 1, hi + 1):
            holes += not avail[q]
            if inner_holes + holes > jokers_max:
                break
            rights.append((q, holes))
        n_fixed = len(fixed)
        for start, h_left in lefts:
            for end, h_right in rights:
                length = end - start + 1
                if length > MAX_RUN or length < 3 or length - n_fixed - fixed_jokers < min_add:
                    continue
                if start == 1 and end == 14:  # pragma: no cover - needs 14 cards
                    continue
                holes = inner_holes + h_left + h_right
                if holes <= jokers_max:
                    yield start, end, holes

    def run_holds(
        self, suit: int, fixed: dict[int, Card], fixed_jokers: int, free: Take, avail: Sequence[bool]
    ) -> set[int]:
        """The hand naturals (card indexes) that some run of :meth:`runs` (``min_add=1``) takes,
        without listing the runs (``avail``: :meth:`_available` of the suit): a window's available
        slots are all taken by one of its runs unless its jokers must fill every slot."""
        hand_jokers = free[self.joker] if self.joker >= 0 else 0
        jokers_max = fixed_jokers + hand_jokers
        lo, hi = self.lo, self.hi
        f_lo, f_hi = min(fixed), max(fixed)
        if not jokers_max:  # no joker anywhere: the free cards in a row at either end, 13 cards at most
            ends: set[int] = set()
            q = f_lo - 1
            while q >= lo and avail[q] and f_hi - q < MAX_RUN:
                ends.add(card_index(suit, q))
                q -= 1
            q = f_hi + 1
            while q <= hi and avail[q] and q - f_lo < MAX_RUN:
                ends.add(card_index(suit, q))
                q += 1
            return ends
        held: set[int] = set()
        for start, end, holes in self._windows(fixed, fixed_jokers, jokers_max, avail, 1):
            slots = [q for q in range(start, end + 1) if q not in fixed and avail[q]]
            if max(0, fixed_jokers - holes) < len(slots):  # some run leaves any one slot to its natural
                held.update(card_index(suit, q) for q in slots)
        return held

    def sets(
        self, rank: int, suits: Sequence[int], fixed_jokers: int, free: Take, min_add: int
    ) -> Iterator[tuple[Take, Meld]]:
        """Sets of ``rank`` holding the natural ``suits`` and ``fixed_jokers``, plus cards from ``free``."""
        size = len(suits) + fixed_jokers
        hand_jokers = free[self.joker] if self.joker >= 0 else 0
        missing = []
        for s in range(4):
            k = self.slot.get(s * 13 + rank - 1, -1)
            if s not in suits and k >= 0 and free[k] > 0:
                missing.append(s)
        for k in range(len(missing), -1, -1):
            for chosen in itertools.combinations(missing, k):
                for j in range(0, hand_jokers + 1):
                    total = size + k + j
                    if not 3 <= total <= 4 or k + j < min_add:
                        continue
                    naturals = sorted([*suits, *chosen])
                    take = self._take([s * 13 + rank - 1 for s in chosen], j)
                    free_suits = [s for s in range(4) if s not in naturals]
                    jokers = fixed_jokers + j
                    cards = [natural_card(s * 13 + rank - 1) for s in naturals] + [JOKER] * jokers
                    roles: list[Card | None] = [None] * len(naturals)
                    roles += [natural_card(free_suits[i] * 13 + rank - 1) for i in range(jokers)]
                    yield take, Meld(tuple(cards), tuple(roles))

    def new_melds(self, free: Take, slack: int) -> list[Meld] | None:
        """Melds from ``free`` alone leaving cards worth at most ``slack`` unplayed, or None."""
        key = (-1, free, slack)
        if key in self.failed:
            return None
        self.tick()
        first = next((k for k, n in enumerate(free) if n and k != self.joker), -1)
        if first < 0:
            left = free[self.joker] * self.weights[self.joker] if self.joker >= 0 else 0
            if left <= slack:
                return []
            self.failed.add(key)
            return None
        card = self.cards[first]
        rest = list(free)
        rest[first] -= 1
        after_first = tuple(rest)
        assert card.rank is not None and card.suit is not None
        suit, rank = SUITS.index(card.suit), int(card.rank)
        options = list(self.sets(rank, [suit], 0, after_first, 2))
        for p in positions_of(rank, self.rules.ace):
            options.extend(self.runs(suit, {p: card}, 0, after_first, 2))
        self.tick(len(options))
        seen: set[Take] = set()
        for take, meld in options:
            if take in seen:
                continue
            seen.add(take)
            found = self.new_melds(tuple(a - b for a, b in zip(after_first, take)), slack)
            if found is not None:
                return [meld, *found]
        if self.weights[first] <= slack:
            found = self.new_melds(after_first, slack - self.weights[first])
            if found is not None:
                return found
        self.failed.add(key)
        return None


@lru_cache(maxsize=4096)
def _kinds(meld: Meld, rules: ManipulationRules) -> tuple[str, ...]:
    return meld_kinds(meld, rules.meld_spec)


def _old_options(
    search: _Search, meld: Meld, rules: ManipulationRules, free: Take, min_add: int = 1
) -> list[tuple[Take, Meld]]:
    """Every way cards from ``free`` can join the old ``meld`` (distinct by cards taken).

    With ``min_add=0`` the first option is the meld itself in printed form
    (sets in suit order, runs in rank order, jokers with their roles).
    """
    kinds = _kinds(meld, rules)
    naturals = [c for c in meld.cards if not c.is_joker]
    jokers = len(meld.cards) - len(naturals)
    found: dict[Take, Meld] = {}
    if "set" in kinds and len(meld.cards) + min_add <= 4:
        suits = [SUITS.index(c.suit) for c in naturals if c.suit is not None]
        rank = int(naturals[0].rank or 0)
        for take, new in search.sets(rank, suits, jokers, free, min_add):
            found.setdefault(take, new)
    if "run" in kinds and len(meld.cards) + min_add <= MAX_RUN:
        for suit, fixed in _placements(meld, naturals, rules):
            for take, new in search.runs(suit, fixed, jokers, free, min_add):
                found.setdefault(take, new)
    return list(found.items())


def _placements(
    meld: Meld, naturals: Sequence[Card], rules: ManipulationRules
) -> Iterator[tuple[int, dict[int, Card]]]:
    """An old run's suit and its naturals by rank position, for each way the ace option places
    them (distinct positions within the run's length)."""
    suit = SUITS.index(naturals[0].suit) if naturals[0].suit is not None else 0
    choices = [positions_of(int(c.rank or 0), rules.ace) for c in naturals]
    for placed in itertools.product(*choices):
        if len(set(placed)) == len(placed) and max(placed) - min(placed) < len(meld.cards):
            yield suit, dict(zip(placed, naturals))


def _old_holds(
    search: _Search, meld: Meld, rules: ManipulationRules, free: Take, avail: Sequence[Sequence[bool]]
) -> set[int]:
    """The hand naturals (card indexes) some option of :func:`_old_options` (``min_add=1``) takes,
    without listing the options (no meld is built): a set takes any free suit it lacks, a run
    what :meth:`_Search.run_holds` finds (``avail``: per suit, :meth:`_Search._available`)."""
    naturals = [c for c in meld.cards if c.joker is None]
    jokers = len(meld.cards) - len(naturals)
    if jokers:
        kinds = _kinds(meld, rules)
    else:  # a valid meld of naturals: a set when its ranks agree, else a run
        rank0 = naturals[0].rank
        kinds = ("set",) if all(c.rank == rank0 for c in naturals) else ("run",)
    held: set[int] = set()
    if "set" in kinds and len(meld.cards) + 1 <= 4:  # one more card keeps it at 3-4
        suits = {SUITS.index(c.suit) for c in naturals if c.suit is not None}
        rank = int(naturals[0].rank or 0)
        for s in range(4):
            k = search.slot.get(s * 13 + rank - 1, -1)
            if s not in suits and k >= 0 and free[k] > 0:
                held.add(s * 13 + rank - 1)
    if "run" in kinds and len(meld.cards) + 1 <= MAX_RUN:
        for suit, fixed in _placements(meld, naturals, rules):
            held |= search.run_holds(suit, fixed, jokers, free, avail[suit])
    return held


def _printed(search: _Search, meld: Meld, rules: ManipulationRules) -> Meld:
    """An old meld as the solver prints melds (what the CP-SAT path would print for it)."""
    options = _old_options(search, meld, rules, (0,) * len(search.cards), 0)
    return options[0][1] if options else meld


def _run_meld(suit: int, start: int, end: int, fixed: dict[int, Card], picked: set[int]) -> Meld:
    """The run of ``suit`` over positions ``start..end``: the fixed cards, the picked hand cards,
    jokers (with their roles) everywhere else."""
    cards: list[Card] = []
    roles: list[Card | None] = []
    for q in range(start, end + 1):
        if q in fixed:
            cards.append(fixed[q])
            roles.append(None)
        elif q in picked:
            cards.append(natural_card(card_index(suit, q)))
            roles.append(None)
        else:
            cards.append(JOKER)
            roles.append(natural_card(card_index(suit, q)))
    return Meld(tuple(cards), tuple(roles))


class ExtensionSearch:
    """The search for plays that keep every old meld whole, set up once for several targets.

    Old melds take cards at their ends (runs) or in missing suits (sets), jokers
    anywhere; the rest of a play is new melds from the hand alone. Each
    :meth:`find` is exhaustive within ``budget`` states (a failure memo is
    shared between targets); ``table`` must be valid (not checked here).
    """

    def __init__(
        self,
        table: Sequence[Meld],
        hand: Cards,
        rules: ManipulationRules,
        objective: str = "cards",
        *,
        table_cards: Cards | None = None,
        bound: Cards | None = None,
        budget: int = BUDGET,
    ) -> None:
        self.table_cards = Cards(c for m in table for c in m.cards) if table_cards is None else table_cards
        self.bound = playable_bound(self.table_cards, hand, rules) if bound is None else bound
        self.old = tuple(table)
        self.rules = rules
        self.objective = objective
        self.budget = budget
        cards = list(self.bound.distinct())
        weights = [card_weight(c, rules, objective) for c in cards]
        self.free0: Take = tuple(self.bound.count(c) for c in cards)
        self.total = sum(w * n for w, n in zip(weights, self.free0))
        self.search = _Search(cards, weights, rules, budget)
        self._options: list[list[tuple[Take, Meld]]] | None = None
        self._listed = 0  # the listing's work, counted in every search so that a target's answer is one
        self._holders: dict[int, int] | None = None  # per hand natural, the old melds whose extensions take it

    def _reachable(self, slack: int) -> tuple[Take, int]:
        """The hand without the cards no extension play can hold, and the slack left after them.

        A card is held only by an old meld's extension (:func:`_old_holds`:
        the cards of :func:`_old_options`' takes, found without listing them,
        so a failing test costs no listing) or by a meld of hand cards alone:
        a set of its rank whose suits in the hand plus the hand's jokers
        reach three, or a run of three positions around it whose positions
        missing from the hand the jokers can fill. Jokers are never dropped.
        Exact: the search never places a dropped card, so it only skips
        them, spending their weight of slack. Copies count too: a meld holds
        one copy of a card at most, so the copies of a card no meld of hand
        cards can hold beyond the old melds that can take it cannot all be
        placed; when they outweigh the slack left, the slack returned is
        negative (a proof), else they stay in the hand (the search is the
        same search).
        """
        search, free = self.search, self.free0
        jokers = free[search.joker] if search.joker >= 0 else 0
        avail = [search._available(s, free) for s in range(4)]
        if self._holders is None:
            self._holders = {}
            for m in self.old:
                for idx in _old_holds(search, m, self.rules, free, avail):
                    self._holders[idx] = self._holders.get(idx, 0) + 1
        holders = self._holders
        lo, hi = search.lo, search.hi

        def meldable(card: Card) -> bool:  # a meld of hand cards alone could hold it
            assert card.rank is not None and card.suit is not None
            suit, rank = SUITS.index(card.suit), int(card.rank)
            slots = [search.slot.get(s * 13 + rank - 1, -1) for s in range(4)]
            suits = sum(1 for j in slots if j >= 0 and free[j] > 0)
            a = avail[suit]
            return suits + jokers >= 3 or any(
                sum(not a[q] for q in range(start, start + 3)) <= jokers
                for p in positions_of(rank, self.rules.ace)
                for start in range(max(lo, p - 2), min(p, hi - 2) + 1)
            )

        held = [True] * len(free)
        lost = excess = 0
        for k, card in enumerate(search.cards):
            if k == search.joker or card.rank is None:
                continue
            takers = holders.get(card.index, 0)
            if not takers:
                held[k] = meldable(card)
                lost += 0 if held[k] else search.weights[k] * free[k]
            elif free[k] > takers and not meldable(card):
                excess += search.weights[k] * (free[k] - takers)
        if lost + excess > slack:
            return free, slack - lost - excess
        if not lost:
            return free, slack
        return tuple(n if h else 0 for n, h in zip(free, held)), slack - lost

    def find(self, target: int | None = None) -> Extension:
        """A play scoring at least ``target`` (default: every playable card), if there is one."""
        old, bound, search = self.old, self.bound, self.search
        target = self.total if target is None else target
        if target > self.total:
            return Extension(Cards(), old, bound, False, True, 0)
        if target <= 0:
            return Extension(Cards(), old, bound, True, True, 0)
        slack = self.total - target
        free0, slack = self._reachable(slack)
        if slack < 0:  # the cards no extension play can hold are worth more than the slack
            return Extension(Cards(), old, bound, False, True, 0)
        search.states = self._listed
        try:
            if self._options is None:
                listing: list[list[tuple[Take, Meld]]] = []
                for m in old:  # the listing counts against the budget too, of every search (above)
                    listing.append(_old_options(search, m, self.rules, self.free0))
                    search.tick(1 + len(listing[-1]))
                self._options, self._listed = listing, search.states  # kept only once complete
            options = self._options
            active = [i for i, opts in enumerate(options) if opts]
            by_card = search.joker < 0 or not free0[search.joker]
            result = (_by_card if by_card else _by_meld)(search, options, active, free0, slack)
        except _Budget:
            return Extension(Cards(), old, bound, False, False, 0)
        if result is None:
            return Extension(Cards(), old, bound, False, True, 0)
        new_table = [_printed(search, m, self.rules) for m in old]
        extra = []
        for i, meld in result:
            if i >= 0:
                new_table[i] = meld
            else:
                extra.append(meld)
        played = Cards(c for m in (*new_table, *extra) for c in m.cards) - self.table_cards
        score = sum(card_weight(c, self.rules, self.objective) * n for c, n in played.items())
        return Extension(played, (*new_table, *extra), bound, True, True, score)


def extension_play(
    table: Sequence[Meld],
    hand: Cards,
    rules: ManipulationRules,
    objective: str = "cards",
    *,
    target: int | None = None,
    table_cards: Cards | None = None,
    bound: Cards | None = None,
    budget: int = BUDGET,
) -> Extension:
    """A play scoring at least ``target`` that keeps every old meld whole, if there is one.

    ``target`` defaults to the whole bound (every playable card); see
    :class:`ExtensionSearch` (this is one search with one target).
    """
    search = ExtensionSearch(table, hand, rules, objective, table_cards=table_cards, bound=bound, budget=budget)
    return search.find(target)
