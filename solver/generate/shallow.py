"""A shallow search for Manipulation Shanghai: lift up to ``depth`` table cards off, then play greedily.

Between the no-rearrangement greedy (depth 0) and the solver (any
rearrangement) sits the player who tries a few loosening moves (take the
end card off a run of four or more, a card out of a set of four, a middle
card out of a long run, or split a long run in two) and then plays as many
cards as the greedy rule finds, every lifted card placed again. The depth
it needs to find a puzzle's answer is one of the difficulty features.

>>> from solver.melds import parse_table
>>> from solver.rules import ManipulationRules
>>> rules = ManipulationRules(decks=1, ace="both")
>>> table = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
>>> str(shallow_play(table, Cards.parse("6S KD"), rules, 1)), str(shallow_play(table, Cards.parse("6S KD"), rules, 2))
('', '6S')
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from solver.cards import Cards
from solver.errors import MeldError
from solver.manipulation.game import greedy_play  # the engine's greedy rule (moves beside its game)
from solver.melds import Meld, meld_kind
from solver.rules import ManipulationRules

__all__ = ["loosenings", "shallow_play", "shallow_depth"]


def _valid(meld: Meld, rules: ManipulationRules) -> bool:
    try:
        meld_kind(meld, rules.meld_spec)
    except MeldError:
        return False
    return True


def _part(meld: Meld, lo: int, hi: int) -> Meld:
    return Meld(meld.cards[lo:hi], meld.roles[lo:hi])


def loosenings(table: tuple[Meld, ...], rules: ManipulationRules) -> Iterator[tuple[tuple[Meld, ...], Cards]]:
    """Every table one loosening move away, with the card it lifts off (none for a split).

    Jokers are never lifted (their role would be lost); every meld left
    behind is valid.
    """
    for i, meld in enumerate(table):
        n = len(meld)
        if n < 4:
            continue
        rest = table[:i] + table[i + 1 :]
        kind = meld_kind(meld, rules.meld_spec)
        if kind == "set":
            for k in range(n):
                if meld.cards[k].is_joker or meld.cards[k] in meld.cards[:k]:
                    continue
                left = Meld(meld.cards[:k] + meld.cards[k + 1 :], meld.roles[:k] + meld.roles[k + 1 :])
                if _valid(left, rules):
                    yield (*rest, left), Cards([meld.cards[k]])
            continue
        for k in (0, n - 1):  # an end card
            if meld.cards[k].is_joker:
                continue
            left = _part(meld, 1, n) if k == 0 else _part(meld, 0, n - 1)
            if _valid(left, rules):
                yield (*rest, left), Cards([meld.cards[k]])
        for k in range(3, n - 2):  # a middle card out of a long run: two runs of three or more
            if meld.cards[k].is_joker:
                continue
            a, b = _part(meld, 0, k), _part(meld, k + 1, n)
            if _valid(a, rules) and _valid(b, rules):
                yield (*rest, a, b), Cards([meld.cards[k]])
        for k in range(3, n - 2):  # split a long run in two
            a, b = _part(meld, 0, k), _part(meld, k, n)
            if _valid(a, rules) and _valid(b, rules):
                yield (*rest, a, b), Cards()


def _greedy_after(table: tuple[Meld, ...], hand: Cards, lifted: Cards, rules: ManipulationRules) -> Cards | None:
    """The hand cards the greedy plays onto ``table`` with ``lifted`` to place again (None: a lifted card stays)."""
    pool = hand + lifted
    new = greedy_play(table, pool, rules)
    placed = Cards(c for m in new for c in m.cards) - Cards(c for m in table for c in m.cards)
    left = pool - placed
    if not left <= hand:
        return None
    return hand - left


def shallow_play(table: Sequence[Meld], hand: Cards, rules: ManipulationRules, depth: int) -> Cards:
    """The most hand cards found by up to ``depth`` loosening moves followed by the greedy rule.

    Ties go to the first found (loosenings in table order). Depth 0 is the
    greedy rule alone.
    """
    start = tuple(table)
    best = _greedy_after(start, hand, Cards(), rules) or Cards()
    frontier: list[tuple[tuple[Meld, ...], Cards]] = [(start, Cards())]
    seen: set[tuple[tuple[Meld, ...], Cards]] = set()
    for _ in range(depth):
        nxt: list[tuple[tuple[Meld, ...], Cards]] = []
        for tab, lifted in frontier:
            for new_tab, card in loosenings(tab, rules):
                key = (tuple(sorted(new_tab, key=str)), lifted + card)
                if key in seen:
                    continue
                seen.add(key)
                nxt.append((new_tab, lifted + card))
                played = _greedy_after(new_tab, hand, lifted + card, rules)
                if played is not None and len(played) > len(best):
                    best = played
        frontier = nxt
    return best


def shallow_depth(table: Sequence[Meld], hand: Cards, answer: Cards, rules: ManipulationRules, most: int = 2) -> int:
    """The fewest loosening moves after which the greedy plays ``answer``'s count (``most + 1``: more)."""
    for depth in range(most + 1):
        if len(shallow_play(table, hand, rules, depth)) >= len(answer):
            return depth
    return most + 1
