"""Exact shortcuts before CP-SAT: a bound on the playable hand cards, the best play that
keeps every old meld whole, and (with no joker in play) the best play itself.

**The bound.** Every copy of a card on the new table sits in its own meld (a
set never holds two cards of one suit, a run never one rank twice), so the
copies of a card ``c`` the new table can hold are at most the melds that can
contain ``c``: sets of its rank (each needs two more cards of other suits,
or jokers) plus runs through its position (each holds one of the pairs
``(p-2, p-1)``, ``(p-1, p+1)``, ``(p+1, p+2)`` of its suit, jokers filling
gaps). A hand card is *playable* only as far as that capacity exceeds the
copies already on the table; a joker only if some meld with a joker can be
built at all. The playable cards :func:`playable_bound` returns bound every
objective that rewards each card played (``cards``, ``value``).

**The extension play.** :func:`extension_play` finds, by exhaustive search
(memoised, with a work budget), the best play that leaves every old meld
whole: cards added to old melds (runs at either end, sets up to four suits;
jokers anywhere) and new melds from the hand alone. When it plays every
card of the bound it is proven optimal, and since it keeps every old meld
and moves no table card it is also the least-change optimum; no solver call
is needed. When a solver call proves the same score, the extension play is
again the least-change optimum.

**The best play without jokers.** :func:`natural_play` finds the most hand
cards one play can add, with a table that adds them, by dynamic programming
over rank positions (the engine's "can the player play?" question). Exact,
with no least-change pass; it steps aside (None) when a joker is in play or
past a work budget.

>>> from solver.melds import parse_table
>>> from solver.rules import ManipulationRules
>>> rules = ManipulationRules()
>>> table = parse_table("5H 6H 7H | 9S 9H 9D")
>>> str(playable_bound(Cards(c for m in table for c in m.cards), Cards.parse("8H 9C KD"), rules))
'8H 9C'
>>> ext = extension_play(table, Cards.parse("8H 9C KD"), rules)
>>> str(ext.played), [str(m) for m in ext.table], ext.proven
('8H 9C', ['5H 6H 7H 8H', '9S 9H 9D 9C'], True)
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from solver.cards import Card, Cards, Joker, Rank, Suit
from solver.melds import Meld, meld_kinds
from solver.rules import ManipulationRules

__all__ = [
    "Extension",
    "ExtensionSearch",
    "NaturalPlay",
    "playable_bound",
    "extension_play",
    "natural_play",
    "card_weight",
]

_SUITS = tuple(Suit)
_JOKER = Card(None, None, Joker.PLAIN)
_J = _JOKER.index
_N_NATURAL = 52
_VALUE_SCALE = 256  # as the CP-SAT model: value * 256 + 1, so more cards break ties
_MAX_RUN = 13
_BUDGET = 1_000  # search states before the extension search gives up (then the solver decides)


def card_weight(card: Card, rules: ManipulationRules, objective: str) -> int:
    """The objective weight of one played card (the CP-SAT model's weights)."""
    if objective == "cards" or card.rank is None:
        return 1
    return rules.card_value(card) * _VALUE_SCALE + 1


def _pos_range(ace: str) -> tuple[int, int]:
    return (2 if ace == "high" else 1, 13 if ace == "low" else 14)


def _positions(rank: int, ace: str) -> tuple[int, ...]:
    if rank != 1:
        return (rank,)
    return {"low": (1,), "high": (14,), "both": (1, 14)}[ace]


def _index_at(suit: int, position: int) -> int:
    """Card index of the natural at a rank position (1 and 14 are both the ace)."""
    return suit * 13 + (0 if position == 14 else position - 1)


@cache
def _natural(index: int) -> Card:
    return Card(Rank(index % 13 + 1), _SUITS[index // 13])


# --- the bound -----------------------------------------------------------------------------


@cache
def _run_capacity(n2: int, n1: int, m1: int, m2: int, jokers: int) -> int:
    """Most runs through one position, given the cards at p-2, p-1, p+1, p+2 and the jokers.

    Runs ending at p hold (p-2, p-1), runs through p hold (p-1, p+1), runs
    starting at p hold (p+1, p+2); no card serves two runs, jokers fill gaps.
    """
    best = 0
    for a in range(n2 + jokers + 1):  # runs ending at p
        for c in range(m2 + jokers + 1):  # runs starting at p
            left = jokers - max(0, a - n2) - max(0, c - m2) - max(0, a - n1) - max(0, c - m1)
            if left < 0:
                continue
            b = 0  # runs through p
            while max(0, a + b + 1 - n1) + max(0, b + 1 + c - m1) - max(0, a - n1) - max(0, c - m1) <= left:
                b += 1
            best = max(best, a + b + c)
    return best


def _set_capacity(others: Sequence[int], jokers: int, decks: int) -> int:
    """Most sets holding one card, given the copies of the other three suits and the jokers."""
    best = 0
    for y in range(1, decks + 1):
        if sum(min(n, y) for n in others) + jokers >= 2 * y:
            best = y
    return best


def _capacity(index: int, counts: Sequence[int], rules: ManipulationRules) -> int:
    """Most melds that can hold the natural card ``index`` among ``counts`` (jokers included)."""
    suit, rank = divmod(index, 13)
    rank += 1
    jokers = counts[_J]
    others = [counts[s * 13 + rank - 1] for s in range(4) if s != suit]
    total = _set_capacity(others, jokers, rules.decks)
    lo, hi = _pos_range(rules.ace)

    def at(q: int) -> int:
        return counts[_index_at(suit, q)] if lo <= q <= hi else 0

    for p in _positions(rank, rules.ace):
        total += _run_capacity(at(p - 2), at(p - 1), at(p + 1), at(p + 2), jokers)
    return total


def playable_bound(table: Cards, hand: Cards, rules: ManipulationRules) -> Cards:
    """The hand cards that could be played at all (an upper bound on every play).

    ``table`` is the multiset of table cards. Exact as a bound: a card left out
    cannot be played in any rearrangement (see the module docstring).
    """
    counts = (table + hand).counts
    tc, hc = table.counts, hand.counts
    out: dict[Card, int] = {}
    partner_for_joker = False
    for i in range(_N_NATURAL):
        if not counts[i]:
            continue
        if hc[i]:
            n = min(hc[i], _capacity(i, counts, rules) - tc[i])
            if n > 0:
                out[_natural(i)] = n
        if counts[_J] and not partner_for_joker:
            partner_for_joker = _joker_partner(i, counts, rules)
    if hc[_J] and partner_for_joker:
        out[_JOKER] = hc[_J]
    return Cards.from_counts(out)


def _joker_partner(index: int, counts: Sequence[int], rules: ManipulationRules) -> bool:
    """Whether the natural ``index`` and a joker can share a meld of three."""
    if counts[_J] >= 2:
        return True
    suit, rank = divmod(index, 13)
    if any(counts[s * 13 + rank] for s in range(4) if s != suit):
        return True
    lo, hi = _pos_range(rules.ace)
    for p in _positions(rank + 1, rules.ace):
        for q in (p - 2, p - 1, p + 1, p + 2):
            if lo <= q <= hi and counts[_index_at(suit, q)] and _index_at(suit, q) != index:
                return True
    return False


# --- the extension play ----------------------------------------------------------------------


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


Take = tuple[int, ...]  # counts over the compact hand


class _Search:
    """Depth-first search with memoised failures over the compact hand ``cards``."""

    def __init__(self, cards: list[Card], weights: list[int], rules: ManipulationRules, budget: int) -> None:
        self.cards = cards
        self.weights = weights
        self.rules = rules
        self.budget = budget
        self.slot = {c.index: k for k, c in enumerate(cards)}
        self.joker = self.slot.get(_J, -1)
        self.lo, self.hi = _pos_range(rules.ace)
        self.states = 0
        self.failed: set[tuple[int, Take, int]] = set()

    def tick(self) -> None:
        self.states += 1
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

    def runs(
        self, suit: int, fixed: dict[int, Card], fixed_jokers: int, free: Take, min_add: int
    ) -> Iterator[tuple[Take, Meld]]:
        """Runs of ``suit`` holding the ``fixed`` naturals (position -> card) and ``fixed_jokers``,
        plus at least ``min_add`` cards from ``free``; every other slot a hand natural or a joker."""
        hand_jokers = free[self.joker] if self.joker >= 0 else 0
        jokers_max = fixed_jokers + hand_jokers
        lo, hi = self.lo, self.hi
        slot = self.slot
        avail = [False] * 16
        for q in range(lo, hi + 1):
            k = slot.get(_index_at(suit, q), -1)
            avail[q] = k >= 0 and free[k] > 0
        f_lo, f_hi = min(fixed), max(fixed)
        inner = [q for q in range(f_lo, f_hi + 1) if q not in fixed]
        inner_holes = sum(1 for q in inner if not avail[q])
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
                if length > _MAX_RUN or length < 3 or length - n_fixed - fixed_jokers < min_add:
                    continue
                if start == 1 and end == 14:  # pragma: no cover - needs 14 cards
                    continue
                holes = inner_holes + h_left + h_right
                if holes > jokers_max:
                    continue
                slots = [q for q in range(start, end + 1) if q not in fixed and avail[q]]
                # slots left to jokers: u of the available ones, so that holes + u jokers in all
                for u in range(max(0, fixed_jokers - holes), jokers_max - holes + 1):
                    if u > len(slots):
                        break
                    for spare in itertools.combinations(slots, u) if u else ((),):
                        used = [q for q in slots if q not in spare]
                        take = self._take([_index_at(suit, q) for q in used], holes + u - fixed_jokers)
                        cards: list[Card] = []
                        roles: list[Card | None] = []
                        picked = set(used)
                        for q in range(start, end + 1):
                            if q in fixed:
                                cards.append(fixed[q])
                                roles.append(None)
                            elif q in picked:
                                cards.append(_natural(_index_at(suit, q)))
                                roles.append(None)
                            else:
                                cards.append(_JOKER)
                                roles.append(_natural(_index_at(suit, q)))
                        yield take, Meld(tuple(cards), tuple(roles))

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
                    cards = [_natural(s * 13 + rank - 1) for s in naturals] + [_JOKER] * jokers
                    roles: list[Card | None] = [None] * len(naturals)
                    roles += [_natural(free_suits[i] * 13 + rank - 1) for i in range(jokers)]
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
        suit, rank = _SUITS.index(card.suit), int(card.rank)
        options = list(self.sets(rank, [suit], 0, after_first, 2))
        for p in _positions(rank, self.rules.ace):
            options.extend(self.runs(suit, {p: card}, 0, after_first, 2))
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
        suits = [_SUITS.index(c.suit) for c in naturals if c.suit is not None]
        rank = int(naturals[0].rank or 0)
        for take, new in search.sets(rank, suits, jokers, free, min_add):
            found.setdefault(take, new)
    if "run" in kinds and len(meld.cards) + min_add <= _MAX_RUN:
        suit = _SUITS.index(naturals[0].suit) if naturals[0].suit is not None else 0
        choices = [_positions(int(c.rank or 0), rules.ace) for c in naturals]
        for placed in itertools.product(*choices):
            if len(set(placed)) != len(placed) or max(placed) - min(placed) >= len(meld.cards):
                continue
            for take, new in search.runs(suit, dict(zip(placed, naturals)), jokers, free, min_add):
                found.setdefault(take, new)
    return list(found.items())


def _printed(search: _Search, meld: Meld, rules: ManipulationRules) -> Meld:
    """An old meld as the solver prints melds (what the CP-SAT path would print for it)."""
    options = _old_options(search, meld, rules, (0,) * len(search.cards), 0)
    return options[0][1] if options else meld


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
        budget: int = _BUDGET,
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

    def find(self, target: int | None = None) -> Extension:
        """A play scoring at least ``target`` (default: every playable card), if there is one."""
        old, bound, search = self.old, self.bound, self.search
        target = self.total if target is None else target
        if target > self.total:
            return Extension(Cards(), old, bound, False, True, 0)
        if target <= 0:
            return Extension(Cards(), old, bound, True, True, 0)
        slack = self.total - target
        search.states = 0
        try:
            if self._options is None:
                self._options = [_old_options(search, m, self.rules, self.free0) for m in old]
            options = self._options
            active = [i for i, opts in enumerate(options) if opts]

            def extend(k: int, free: Take) -> list[tuple[int, Meld]] | None:
                """Extensions of the melds active[k:], then new melds, from ``free``."""
                key = (k, free, slack)
                if key in search.failed:
                    return None
                search.tick()
                if k == len(active):
                    melds = search.new_melds(free, slack)
                    return None if melds is None else [(-1, m) for m in melds]
                for take, meld in options[active[k]]:
                    if all(a >= b for a, b in zip(free, take)):
                        found = extend(k + 1, tuple(a - b for a, b in zip(free, take)))
                        if found is not None:
                            return [(active[k], meld), *found]
                found = extend(k + 1, free)
                if found is None:
                    search.failed.add(key)
                return found

            result = extend(0, self.free0)
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
    budget: int = _BUDGET,
) -> Extension:
    """A play scoring at least ``target`` that keeps every old meld whole, if there is one.

    ``target`` defaults to the whole bound (every playable card); see
    :class:`ExtensionSearch` (this is one search with one target).
    """
    search = ExtensionSearch(table, hand, rules, objective, table_cards=table_cards, bound=bound, budget=budget)
    return search.find(target)


# --- the exact best play without jokers ----------------------------------------------------------

_DP_BUDGET = 20_000  # DP steps (about 1 us each) before natural_play gives up: about a CP-SAT call

RunCodes = tuple[int, ...]  # one suit's open runs, sorted: 1, 2 = that many cards so far, 3 = three or more
_Option = tuple[int, int, RunCodes, int, int]  # used, into sets, new run codes, long runs continued, runs started
_State = tuple[Any, ...]  # four RunCodes, set copies at this position (sum, max), aces used at the first ace column
# A stage is one suit at one rank position:
# (suit, card index, copies, table copies, ace column, copies of later suits here, hand copies counted)
_Stage = tuple[int, int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class NaturalPlay:
    """The best play (most hand cards) of a position with no joker, found by dynamic programming.

    ``table`` is a whole new table holding every old table card and ``played``;
    no play adds more hand cards. It keeps old melds only where the program
    happens to rebuild them (there is no least-change pass); those come
    first, in their old order.
    """

    played: Cards
    table: tuple[Meld, ...]

    @property
    def cards(self) -> int:
        """How many hand cards the play adds."""
        return len(self.played)


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
                    out.append((used, g, codes, c3, new))
    return tuple(out)


def _stages(tc: Sequence[int], bc: Sequence[int], ace: str) -> list[_Stage]:
    """The DP's stages in rank-position order (four suits a position).

    With ``ace=both`` the ace has two columns: 1 for the first one met (any
    copies, recorded in the state; its hand copies are counted at the other
    column) and 2 for the second (the rest; the table's copies must be used
    by then).
    """
    lo, hi = _pos_range(ace)
    out: list[_Stage] = []
    for q in range(lo, hi + 1):
        base = 0 if q == 14 else q - 1
        avails = [tc[base] + bc[base], tc[13 + base] + bc[13 + base], tc[26 + base] + bc[26 + base]]
        avails.append(tc[39 + base] + bc[39 + base])
        column = 0 if ace != "both" or q not in (1, 14) else (1 if q == 1 else 2)
        rest = avails[1] + avails[2] + avails[3]
        for s in range(4):
            i = 13 * s + base
            out.append((s, i, avails[s], tc[i], column, rest, 0 if column == 1 else bc[i]))
            if s < 3:
                rest -= avails[s + 1]
    return out


def _orient(stages: list[_Stage]) -> list[_Stage]:
    """The stages in the direction with fewer table cards before the first hand card (runs read
    both ways): every arrangement of those cards is a state the program carries to that card."""
    hand = [k for k, st in enumerate(stages) if st[2] > st[3]]
    if not hand or sum(st[3] for st in stages[: hand[0]]) <= sum(st[3] for st in stages[hand[-1] + 1 :]):
        return stages
    out: list[_Stage] = []
    for k in range(len(stages) - 4, -1, -4):
        for s, i, avail, need, column, rest, _ in stages[k : k + 4]:
            column = (0, 2, 1)[column]
            out.append((s, i, avail, need, column, rest, 0 if column == 1 else avail - need))
    return out


_SKIP: _Option = (0, 0, (), 0, 0)  # no copy here and no open run of the suit: nothing changes


class _OutOfBudget(Exception):
    """The dynamic program ran out of its work budget."""


def _moves(stage: _Stage, st: _State, memo: dict[RunCodes, tuple[_Option, ...]]) -> list[tuple[_Option, _State, int]]:
    """Every move from state ``st`` at ``stage``: (option, next state, hand cards added).

    After the fourth suit the position closes: its set copies must make sets.
    ``memo`` holds the stage's options by run codes (except at the ace's
    second column, where they also depend on the copies the first took).
    """
    s, _, avail, need, column, rest, _ = stage
    low = st[6]
    if column == 2:
        # the second ace column: the copies the first left; hand cards are what the first did not count
        taken = low[s]
        sub = need - taken if need > taken else 0
        opts = _suit_options(st[s], avail - taken, sub, False)
    else:
        opts = memo.get(st[s])  # type: ignore[assignment]
        if opts is None:
            opts = memo[st[s]] = _suit_options(st[s], avail, 0 if column else need, True)
        sub = need
    gsum, gmax = st[4], st[5]
    out: list[tuple[_Option, _State, int]] = []
    for opt in opts:
        used, g, codes = opt[0], opt[1], opt[2]
        gs = gsum + g
        gm = g if g > gmax else gmax
        if gs + rest < 3 * gm:  # too few copies here to make sets of them (at the fourth suit: none to come)
            continue
        if s == 3:  # the position closes, its set copies made into sets
            gs = gm = 0
        if column == 1:
            low = (*st[6][:s], used, *st[6][s + 1 :])
        if s == 0:
            ns = (codes, st[1], st[2], st[3], gs, gm, low)
        elif s == 1:
            ns = (st[0], codes, st[2], st[3], gs, gm, low)
        elif s == 2:
            ns = (st[0], st[1], codes, st[3], gs, gm, low)
        else:
            ns = (st[0], st[1], st[2], codes, gs, gm, low)
        out.append((opt, ns, used - sub if used > sub else 0))
    return out


class _Program:
    """The dynamic program over ``stages``: forward while hand cards remain, then depth first."""

    def __init__(self, stages: list[_Stage], budget: int) -> None:
        self.stages = stages
        self.budget = budget
        self.work = 0
        self.failed: set[tuple[int, _State]] = set()
        self.memos: list[dict[RunCodes, tuple[_Option, ...]]] = [{} for _ in stages]
        left = [0] * (len(stages) + 1)  # hand copies in the stages from k on
        for k in range(len(stages) - 1, -1, -1):
            left[k] = left[k + 1] + stages[k][6]
        self.left = left

    def complete(self, k: int, st: _State) -> list[_Option] | None:
        """The options of a path from stage ``k`` to the end (reversed), or None."""
        if k == len(self.stages):
            return [] if all(r == 3 for runs in st[:4] for r in runs) else None
        if (k, st) in self.failed:
            return None
        stage = self.stages[k]
        s = stage[0]
        if not stage[2] and not stage[4] and not st[s] and (s != 3 or not st[4]):
            rest = self.complete(k + 1, st)
            if rest is not None:
                rest.append(_SKIP)
            return rest
        moves = _moves(stage, st, self.memos[k])
        self.work += len(moves) + 1
        if self.work > self.budget:
            raise _OutOfBudget
        for opt, ns, _ in moves:
            rest = self.complete(k + 1, ns)
            if rest is not None:
                rest.append(opt)
                return rest
        self.failed.add((k, st))
        return None

    def best(self, target: int) -> tuple[int, list[_Option]] | None:
        """The most hand cards a path adds and its options, when that reaches ``target``; else None.

        Forward while hand cards remain (a state that cannot reach ``target``
        with the hand cards still to come is dropped), then the best states
        are completed depth first.
        """
        cur: dict[_State, int] = {((), (), (), (), 0, 0, (0, 0, 0, 0)): 0}
        layers: list[dict[_State, tuple[_State, _Option]]] = []
        stages, left, memos = self.stages, self.left, self.memos
        k = 0
        while k < len(stages) and left[k] > 0:
            need = target - left[k + 1]
            nxt: dict[_State, int] = {}
            back: dict[_State, tuple[_State, _Option]] = {}
            stage, memo = stages[k], memos[k]
            s = stage[0]
            nothing = not stage[2] and not stage[4]
            plain = stage[4] == 0  # not an ace column: moves inline (the hot loop), else by _moves
            rest, sub = stage[5], stage[3]
            for st, val in cur.items():
                if nothing and not st[s] and (s != 3 or not st[4]):
                    self.work += 1
                    if val >= need and val > nxt.get(st, -1):
                        nxt[st] = val
                        back[st] = (st, _SKIP)
                    continue
                if not plain:
                    moves = _moves(stage, st, memo)
                    self.work += len(moves) + 1
                    for opt, ns, gain in moves:
                        nv = val + gain
                        if nv >= need and nv > nxt.get(ns, -1):
                            nxt[ns] = nv
                            back[ns] = (st, opt)
                    continue
                opts = memo.get(st[s])
                if opts is None:
                    opts = memo[st[s]] = _suit_options(st[s], stage[2], sub, True)
                self.work += len(opts) + 1
                gsum, gmax = st[4], st[5]
                for opt in opts:
                    used, g = opt[0], opt[1]
                    nv = val + used - sub
                    if nv < need:
                        continue
                    gs = gsum + g
                    gm = g if g > gmax else gmax
                    if gs + rest < 3 * gm:
                        continue
                    if s == 3:
                        gs = gm = 0
                    if s == 0:
                        ns = (opt[2], st[1], st[2], st[3], gs, gm, st[6])
                    elif s == 1:
                        ns = (st[0], opt[2], st[2], st[3], gs, gm, st[6])
                    elif s == 2:
                        ns = (st[0], st[1], opt[2], st[3], gs, gm, st[6])
                    else:
                        ns = (st[0], st[1], st[2], opt[2], gs, gm, st[6])
                    if nv > nxt.get(ns, -1):
                        nxt[ns] = nv
                        back[ns] = (st, opt)
            if self.work > self.budget:
                raise _OutOfBudget
            layers.append(back)
            cur = nxt
            k += 1
            if not cur:
                return None
        for st, val in sorted(cur.items(), key=lambda item: -item[1]):
            if val < target:
                return None
            tail = self.complete(k, st)
            if tail is not None:
                head: list[_Option] = []
                for back in reversed(layers):
                    st, opt = back[st]
                    head.append(opt)
                return val, [*reversed(head), *reversed(tail)]
        return None


def natural_play(
    table: Sequence[Meld],
    hand: Cards,
    rules: ManipulationRules,
    *,
    table_cards: Cards | None = None,
    bound: Cards | None = None,
    at_least: int = 1,
    budget: int = _DP_BUDGET,
) -> NaturalPlay | None:
    """The best play by card count when no joker is in play, or None (then ask the solver).

    ``table`` must be valid (not checked here). When no play adds
    ``at_least`` hand cards the answer is the old table, nothing played (so
    with ``at_least=1`` it is always the best play).

    A dynamic program over rank positions, one suit at a time: the state is
    each suit's open runs (one, two, three or more cards so far) and the
    copies going into sets at the current position (``g`` copies per suit
    make sets of three or four distinct suits exactly when ``3 * max(g) <=
    sum(g)``). Every table card is used; hand cards within ``bound``
    (:func:`playable_bound` by default) may be. States that cannot reach
    ``at_least`` with the hand cards still to come are dropped; once no hand
    card is left, a depth-first search completes the best states. None when
    a joker is in play, when ``ace=both`` could allow a run over all 14
    positions, or when more than ``budget`` steps would be needed.

    >>> from solver.melds import parse_table
    >>> rules = ManipulationRules.preset("norwegian")
    >>> best = natural_play(parse_table("3H 4H 5H 6H | 3C 4C 5C 6C"), Cards.parse("6S KD"), rules)
    >>> str(best.played), [str(m) for m in best.table]
    ('6S', ['3H 4H 5H', '6S 6H 6C', '3C 4C 5C'])
    """
    old = tuple(table)
    on_table = Cards(c for m in old for c in m.cards) if table_cards is None else table_cards
    if any(on_table.counts[_N_NATURAL:]) or any(hand.counts[_N_NATURAL:]):
        return None
    if bound is None:
        bound = playable_bound(on_table, hand, rules)
    if len(bound) < at_least or not bound:
        return NaturalPlay(Cards(), old)
    tc, bc = on_table.counts, bound.counts
    if rules.ace == "both":
        for s in range(4):
            if tc[s * 13] + bc[s * 13] >= 2 and all(tc[s * 13 + r] + bc[s * 13 + r] for r in range(1, 13)):
                return None
    stages = _orient(_stages(tc, bc, rules.ace))
    try:
        found = _Program(stages, budget).best(max(1, at_least))
    except _OutOfBudget:
        return None
    if found is None:
        return NaturalPlay(Cards(), old)
    melds = _natural_melds(stages, found[1])
    played = Cards(c for m in melds for c in m.cards) - on_table
    return NaturalPlay(played, _old_first(old, melds))


def _natural_melds(stages: Sequence[_Stage], path: Sequence[_Option]) -> list[Meld]:
    """Replay a path with the cards themselves: runs in rank order, sets in suit order."""
    melds: list[Meld] = []
    open_runs: list[list[list[Card]]] = [[], [], [], []]
    to_sets: list[Card] = []
    copies = 0
    for stage, (_, g, _, c3, new) in zip(stages, path):
        s = stage[0]
        card = _natural(stage[1])
        short = [r for r in open_runs[s] if len(r) < 3]
        long = [r for r in open_runs[s] if len(r) >= 3]
        melds.extend(_run_meld(r) for r in long[c3:])
        going = short + long[:c3] + [[] for _ in range(new)]
        for r in going:
            r.append(card)
        open_runs[s] = going
        to_sets.extend([card] * g)
        copies = max(copies, g)
        if s == 3:
            # round robin over the copies in suit order: no set holds a suit twice, sizes 3-4
            groups: list[list[Card]] = [[] for _ in range(copies)]
            for k, c in enumerate(sorted(to_sets, key=lambda c: c.index)):
                groups[k % copies].append(c)
            melds.extend(Meld.of(gr) for gr in groups)
            to_sets, copies = [], 0
    for runs in open_runs:
        melds.extend(_run_meld(r) for r in runs)
    return melds


def _run_meld(cards: list[Card]) -> Meld:
    """A run in rank order, whichever way the program read it."""
    if len(cards) > 1 and (cards[0].index > cards[1].index or (cards[0].rank == 1 and cards[1].rank == 13)):
        cards = cards[::-1]
    return Meld.of(cards)


def _old_first(old: Sequence[Meld], melds: Sequence[Meld]) -> tuple[Meld, ...]:
    """The new table in a stable order: the old melds rebuilt unchanged first (as they were
    printed, in old order), then the others by the first old meld their cards come from (those
    with more of its cards first)."""
    waiting: dict[tuple[int, ...], list[int]] = {}
    for j, m in enumerate(melds):
        waiting.setdefault(tuple(sorted(c.index for c in m.cards)), []).append(j)
    first: list[Meld] = []
    taken: set[int] = set()
    home: dict[int, int] = {}  # card index -> the first old meld holding it
    for k, m in enumerate(old):
        for c in m.cards:
            home.setdefault(c.index, k)
        js = waiting.get(tuple(sorted(c.index for c in m.cards)))
        if js:
            taken.add(js.pop(0))
            first.append(m)

    def order(m: Meld) -> tuple[int, int, list[int]]:
        homes = [home.get(c.index, len(old)) for c in m.cards]
        return min(homes), -homes.count(min(homes)), [c.index for c in m.cards]

    return (*first, *sorted((m for j, m in enumerate(melds) if j not in taken), key=order))
