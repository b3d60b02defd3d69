"""Plays that need no rearrangement: one hand card added to a meld, a new meld from the hand alone.

The engine lists these plays (:func:`simple_plays`) and takes the greedy
play (:func:`greedy_play`, new melds then additions, repeatedly) as the lower
bound of the most cards a player can play.

Cost: what a table meld can take is worked out once per meld object (a
table's melds stand turn after turn) and what a hand makes once per hand,
so a listing is a few dictionary look-ups per meld.

>>> from solver.melds import format_table, parse_table
>>> rules = ManipulationRules()
>>> table = parse_table("5H 6H 7H | 9S 9H 9D")
>>> [format_table(t) for t in simple_plays(table, Cards.parse("8H 9C 4H"), rules)]
['4H 5H 6H 7H | 9S 9H 9D', '5H 6H 7H 8H | 9S 9H 9D', '5H 6H 7H | 9S 9H 9D 9C']
>>> format_table(greedy_play(table, Cards.parse("8H 9C 4H"), rules))
'4H 5H 6H 7H 8H | 9S 9H 9D 9C'
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

from solver.cards import ALL_CARDS, Card, Cards
from solver.melds import Meld, meld_kinds
from solver.ranks import SUITS, ace_high
from solver.rules import ManipulationRules

__all__ = ["simple_plays", "hand_melds", "greedy_play", "additions", "sorted_meld"]

_Variant = tuple[str, bool]  # (ace, jokers in play): all that the meld spec and the display order depend on
_Growths = tuple[tuple[int, Meld], ...]  # (card index, the meld grown by that card), by card index
_MEMO_SIZE = 1 << 14  # entries per memo before it starts afresh (memory stays bounded)
_GROWTHS: dict[int, tuple[Meld, _Variant, _Growths]] = {}  # by id(meld); the entry holds the meld itself
_BY_CARDS: dict[tuple[Any, ...], _Growths] = {}  # by the meld's card indexes, roles and the variant
_HAND_MELDS: dict[tuple[Cards, str, bool], tuple[Meld, ...]] = {}


def sorted_meld(cards: list[Card], rules: ManipulationRules) -> Meld:
    """A meld in display order: runs by rank position, sets by suit."""
    spec = rules.meld_spec
    meld = Meld.of(cards)
    kinds = meld_kinds(meld, spec)
    if "run" in kinds and "set" not in kinds and not any(spec.is_wild(c) for c in cards):
        high = ace_high(rules.ace, [int(c.rank or 0) for c in cards])

        def pos(c: Card) -> int:
            assert c.rank is not None
            return 14 if (c.rank == 1 and high) else int(c.rank)

        return Meld.of(sorted(cards, key=pos))
    return Meld.of(sorted(cards, key=lambda c: c.index))


def simple_plays(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> Iterator[tuple[Meld, ...]]:
    """New tables reachable without rearranging: one card added to a meld, or one new meld from hand.

    The additions come first (meld by meld, hand cards in canonical order),
    then the new melds of :func:`hand_melds`.
    """
    for i, meld in additions(table, hand, rules):
        yield (*table[:i], meld, *table[i + 1 :])
    for meld in hand_melds(hand, rules):
        yield (*table, meld)


def additions(
    table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules, start: int = 0
) -> Iterator[tuple[int, Meld]]:
    """Each old meld (by its place, from ``start``) grown by one hand card, in display order.

    The hand cards are tried in canonical order (wilds after every natural
    card); a meld's possible growths are listed once (:func:`_growths`).
    """
    counts = hand.counts
    variant = (rules.ace, rules.jokers > 0)
    for i in range(start, len(table)):
        for index, grown in _growths(table[i], variant, rules):
            if counts[index]:
                yield i, grown


def _growths(meld: Meld, variant: _Variant, rules: ManipulationRules) -> _Growths:
    """Every card that ``meld`` can take, with the meld it makes (in display order), by card index.

    Memoised by the meld object, then by its cards (a table meld stands turn
    after turn; an equal one is often built anew).
    """
    found = _GROWTHS.get(id(meld))
    if found is not None and found[0] is meld and found[1] == variant:
        return found[2]
    key = (tuple([c.index for c in meld.cards]), meld.roles if any(meld.roles) else None, variant)
    growths = _BY_CARDS.get(key)
    if growths is None:
        growths = _BY_CARDS[key] = _grow_all(meld, rules)
    if len(_GROWTHS) >= _MEMO_SIZE:
        _GROWTHS.clear()
        _BY_CARDS.clear()
    _GROWTHS[id(meld)] = (meld, variant, growths)
    return growths


def _grow_all(meld: Meld, rules: ManipulationRules) -> _Growths:
    """The growths of :func:`_growths`, worked out. Only candidates go to the validator: a natural
    card joins a set only in a suit the set lacks, and a run only in its suit; in a meld without
    wilds, a run only at a rank next to one it holds (K-A and A-2 both count); a meld of wilds only
    may take any card."""
    if len(meld.cards) >= 13:
        return ()
    spec = rules.meld_spec
    naturals = [c for c in meld.cards if not spec.is_wild(c)]
    if naturals:
        candidates = sorted(_candidates(meld, naturals)) + [c.index for c in spec.wilds]
    else:
        candidates = list(range(len(ALL_CARDS)))
    out: list[tuple[int, Meld]] = []
    for index in candidates:  # canonical order: the one wild card, JK, comes last
        grown = [*meld.cards, ALL_CARDS[index]]
        if meld_kinds(Meld.of(grown), spec):
            out.append((index, sorted_meld(grown, rules)))
    return tuple(out)


def _candidates(meld: Meld, naturals: list[Card]) -> set[int]:
    """The natural cards (by index) that might join ``meld`` (a necessary condition)."""
    ranks = {int(c.rank) for c in naturals if c.rank is not None}
    suits = {SUITS.index(c.suit) for c in naturals if c.suit is not None}
    out: set[int] = set()
    if len(ranks) == 1:  # into a set: the same rank in a suit it lacks
        r = next(iter(ranks))
        out.update(13 * s + r - 1 for s in range(4) if s not in suits)
    if len(suits) == 1:  # into a run: its suit, next to a rank it holds when it has no wild
        s = next(iter(suits))
        adjacent = set(range(1, 14))
        if len(naturals) == len(meld.cards):
            adjacent = {(r % 13) + 1 for r in ranks} | {(r - 2) % 13 + 1 for r in ranks}  # K-A-2 round
            adjacent -= ranks
        out.update(13 * s + r - 1 for r in adjacent)
    return out


def hand_melds(hand: Cards, rules: ManipulationRules) -> tuple[Meld, ...]:
    """Every distinct meld made of natural hand cards alone (sets of 3-4, runs of 3+), memoised by hand:
    the sets rank by rank, then the runs suit by suit from each start."""
    key = (hand, rules.ace, rules.jokers > 0)
    found = _HAND_MELDS.get(key)
    if found is None:
        found = tuple(_hand_melds(hand, rules)) if _may_meld(hand.counts, rules.ace) else ()
        if len(_HAND_MELDS) >= _MEMO_SIZE:
            _HAND_MELDS.clear()
        _HAND_MELDS[key] = found
    return found


def _may_meld(counts: tuple[int, ...], ace: str) -> bool:
    """Whether natural cards with these counts make any meld: three suits of one rank, or three
    consecutive rank positions of one suit (the ace low, high or both, as ``ace`` says). Exactly
    when :func:`_hand_melds` finds one (most hands make none: then it need not run)."""
    for r in range(13):
        if (counts[r] > 0) + (counts[13 + r] > 0) + (counts[26 + r] > 0) + (counts[39 + r] > 0) >= 3:
            return True
    for s in range(0, 52, 13):
        ranks = counts[s : s + 13]
        if ace == "low":
            line = ranks
        elif ace == "high":
            line = (*ranks[1:], ranks[0])
        else:
            line = (*ranks, ranks[0])
        run = 0
        for n in line:
            run = run + 1 if n else 0
            if run == 3:
                return True
    return False


def _hand_melds(hand: Cards, rules: ManipulationRules) -> Iterator[Meld]:
    spec = rules.meld_spec
    naturals = [c for c in hand.distinct() if not spec.is_wild(c)]
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for c in naturals:
        assert c.rank is not None and c.suit is not None
        by_rank.setdefault(int(c.rank), []).append(c)
        by_suit.setdefault(c.suit.value, []).append(c)
    for cards in by_rank.values():  # distinct suits of one rank, already in suit order
        for size in (3, 4):
            for combo in itertools.combinations(cards, size):
                yield Meld(combo)
    for cards in by_suit.values():
        ranks = {int(c.rank): c for c in cards if c.rank is not None}
        positions = dict(ranks)
        if rules.ace != "low" and 1 in ranks:
            positions[14] = ranks[1]
        if rules.ace == "high":
            positions.pop(1, None)
        keys = sorted(positions)
        for a in keys:
            run = [positions[a]]
            b = a + 1
            while b in positions and len(run) < 13:
                run.append(positions[b])
                if len(run) >= 3:
                    yield Meld.of(list(run))
                b += 1


def greedy_play(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> tuple[Meld, ...]:
    """Play as many cards as possible without rearranging: new melds, then additions, repeatedly.

    Each step takes the first simple play (in :func:`simple_plays` order) that
    adds the most cards: the longest new meld from the hand if there is one,
    else the first card that joins a meld. (Once the hand makes no meld it
    never will, as it only shrinks; and melds before the one last grown take
    no card, so the search for a card to add resumes there.)
    """
    current = table
    left = hand
    while True:
        best: Meld | None = None
        for meld in hand_melds(left, rules):
            if best is None or len(meld) > len(best):
                best = meld
        if best is None:
            break
        current = (*current, best)
        left = left - Cards(best.cards)
    # the additions, as ``next(additions(current, left, rules, start))`` again and again, in one
    # loop: a growth adds the one card of its index, so the hand is tracked as counts
    counts = list(left.counts)
    variant = (rules.ace, rules.jokers > 0)
    grown_table: list[Meld] | None = None
    i = 0
    while i < len(current):
        meld = current[i] if grown_table is None else grown_table[i]
        for index, grown in _growths(meld, variant, rules):
            if counts[index]:
                counts[index] -= 1
                if grown_table is None:
                    grown_table = list(current)
                grown_table[i] = grown
                break
        else:
            i += 1
    return current if grown_table is None else tuple(grown_table)
