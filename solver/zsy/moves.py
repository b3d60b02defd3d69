"""Zheng Shang You's legal moves: every distinct play from a hand that beats a combination.

Generators over one hand split by role (:class:`~solver.zsy.combos.Parts`):
singles, sets, straights and parallel straights, each pruned by the
strength it must beat. See :func:`legal_moves`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from types import ModuleType
from typing import Final, Generic, TypeVar

from solver.cards import ALL_CARDS, Card, Cards
from solver.errors import ComboError
from solver.native import core
from solver.rules import ZsyRules
from solver.zsy.combos import (
    ACE,
    DEFAULT_RULES,
    KINDS,
    MAX_STRAIGHT,
    TWO,
    Combo,
    Parts,
    check_cards,
    zsy_value,
)

__all__ = ["legal_moves", "iter_moves", "LeadTable"]

T = TypeVar("T")


_SINGLE: Final[dict[Card, Combo]] = {c: Combo(Cards((c,)), "single", zsy_value(c)) for c in ALL_CARDS}
"""The single of each card (combos are immutable: one object serves every hand)."""


_make = Combo.make


class _Gen:
    """Lazy move generators over one hand; each yields :class:`Combo` objects."""

    def __init__(self, hand: Cards) -> None:
        self.p = Parts.of(hand)

    def singles(self, floor: int) -> Iterator[Combo]:
        p = self.p
        for cards in (*p.nat[3:], p.twos, p.jokers):
            for card in cards:
                combo = _SINGLE[card]
                if combo.top > floor:
                    yield combo

    def sets(self, size: int | None, floor: tuple[int, bool] | None) -> Iterator[Combo]:
        p = self.p
        wilds = p.twos + p.jokers
        for v in range(3, TWO + 1):
            naturals, extra = (p.twos, p.jokers) if v == TWO else (p.nat[v], wilds)
            if not naturals:
                continue
            only_pure = False
            if floor is not None:
                if v < floor[0] or (v == floor[0] and floor[1]):
                    continue
                only_pure = v == floor[0]
            for a in range(1, len(naturals) + 1):
                if size is not None:
                    bs: Sequence[int] = (size - a,) if 0 <= size - a <= len(extra) else ()
                else:
                    bs = range(0 if a >= 2 else 1, len(extra) + 1)
                for b in bs:
                    if only_pure and b:
                        continue
                    for nat in combinations(naturals, a):
                        for wild in combinations(extra, b):
                            yield _make(Cards(nat + wild), "set", v, 1, a + b, False, b == 0)

    def straights(self, length: int | None, floor: tuple[bool, int, bool] | None) -> Iterator[Combo]:
        p = self.p
        jokers = p.jokers
        nj = len(jokers)
        nat = p.nat
        limit = MAX_STRAIGHT if length is None else length

        def close(path: list[Card], hi: int, gaps: int, flush: bool) -> Iterator[Combo]:
            m = len(path)
            for k in range(gaps, nj + 1):
                n = m + k
                if n < 3 or n > MAX_STRAIGHT or (length is not None and n != length):
                    continue
                top = min(ACE, hi + k - gaps)
                if floor is not None and (flush, top, k == 0) <= floor:
                    continue
                for js in combinations(jokers, k):
                    yield _make(Cards((*path, *js)), "straight", top, n, 1, flush, k == 0)

        def extend(path: list[Card], x: int, gaps: int, flush: bool) -> Iterator[Combo]:
            if len(path) + nj >= 3:  # else even every joker would not make three cards
                yield from close(path, x, gaps, flush)
            for y in range(x + 1, min(ACE, x + 1 + nj - gaps) + 1):
                g = gaps + y - x - 1
                if len(path) + 1 + g > limit:
                    break
                for card in nat[y]:
                    path.append(card)
                    yield from extend(path, y, g, flush and card.suit == path[0].suit)
                    path.pop()

        for a in range(3, ACE + 1):
            if not nj and (a + 2 > ACE or not nat[a + 1] or not nat[a + 2]):
                continue  # without jokers a straight needs the next two ranks
            for card in nat[a]:
                yield from extend([card], a, 0, True)

    def parallels(self, shape: tuple[int, int] | None, floor: tuple[int, bool] | None) -> Iterator[Combo]:
        p = self.p
        if shape is not None:
            shapes = [shape]
        else:
            shapes = [(c, n) for c in range(2, p.n // 3 + 1) for n in range(3, min(MAX_STRAIGHT, p.n // c) + 1)]
        held = [len(cards) for cards in p.nat]
        for copies, length in shapes:
            if copies * length > p.n:
                continue
            for a in range(3, ACE + 1):
                if p.nat[a] and self._may_start(held, a, copies, length):
                    yield from self._walk(_Walk(a, copies, length, floor), a, [], 0, 0)

    def _may_start(self, held: list[int], low: int, copies: int, length: int) -> bool:
        """False when no parallel of this shape can have its lowest natural at ``low``.

        Each rank of the window ``low..low+length-1`` needs ``copies`` cards, the
        missing ones wild, and a rank with no natural needs a joker (ranks past
        the ace have none); every parallel :meth:`_walk` finds needs at least as many.
        """
        p = self.p
        wilds, jokers = len(p.twos) + len(p.jokers), len(p.jokers)
        need = zeros = 0
        for x in range(low, low + length):
            k = held[x] if x <= ACE else 0
            if k < copies:
                need += copies - k
                zeros += k == 0
                if need > wilds or zeros > jokers:
                    return False
        return True

    def _walk(self, w: _Walk, x: int, counts: list[int], slots: int, zeros: int) -> Iterator[Combo]:
        """Choose how many naturals of rank ``x`` to use (``counts[i]`` is rank ``w.low + i``)."""
        p = self.p
        nw, nj = len(p.twos) + len(p.jokers), len(p.jokers)
        for k in range(min(w.copies, len(p.nat[x])), -1 if x > w.low else 0, -1):
            s, z = slots + w.copies - k, zeros + (k == 0)
            if s > nw or z > nj:
                continue
            counts.append(k)
            if k:
                yield from self._emit(w, x, counts, s, z)
            if x < ACE and x - w.low + 2 <= w.length:
                yield from self._walk(w, x + 1, counts, s, z)
            counts.pop()

    def _emit(self, w: _Walk, high: int, counts: list[int], slots: int, zeros: int) -> Iterator[Combo]:
        """Emit every parallel with these natural counts; wild-only ranks extend at the top."""
        p = self.p
        twos, jokers = p.twos, p.jokers
        extra = w.length - (high - w.low + 1)
        z = zeros + extra
        wild = slots + w.copies * extra
        top = min(ACE, high + extra)
        if z > len(jokers) or wild > len(twos) + len(jokers):
            return
        if w.floor is not None and (top, wild == 0) <= w.floor:
            return
        picks = [list(combinations(p.nat[w.low + i], k)) for i, k in enumerate(counts) if k]
        for used in range(max(z, wild - len(twos)), min(len(jokers), wild) + 1):
            for chosen in product(*picks, combinations(jokers, used), combinations(twos, wild - used)):
                cards = Cards(c for group in chosen for c in group)
                yield _make(cards, "parallel", top, w.length, w.copies, False, wild == 0)


@dataclass(frozen=True, slots=True)
class _Walk:
    """One parallel-straights search: lowest natural rank, shape and the strength to beat."""

    low: int
    copies: int
    length: int
    floor: tuple[int, bool] | None


def legal_moves(hand: Cards, to_beat: Combo | None = None, rules: ZsyRules = DEFAULT_RULES) -> tuple[Combo, ...]:
    """Every distinct play from ``hand`` that beats ``to_beat`` (every lead when None).

    A move is a :class:`Combo`: different cards are different moves even
    when they make equal combinations (``7S 2H`` and ``7S 2D``); one set of
    cards declared as two kinds is two moves. A dense hand has millions of
    leads (34 cards: 1.4 million): use :func:`iter_moves` to take them one
    at a time within a time or count budget.

    >>> len(legal_moves(Cards.parse("5S RJ BJ")))  # 3 singles, 3 sets, 1 straight
    7
    >>> [str(m) for m in legal_moves(Cards.parse("6H 7H 8H 8D 9C"), Combo.parse("5C 6C 7D"))]
    ['straight:6H 7H 8H', 'straight:6H 7H 8D', 'straight:7H 8H 9C', 'straight:7H 8D 9C']
    """
    check_cards(hand, rules, "hand")
    mod = core("zsy")
    args = None if mod is None else _native_args(to_beat, rules)
    if mod is not None and args is not None:
        return tuple(_combos(_native_raw(mod, hand, args)))
    return tuple(_moves(_Gen(hand), to_beat, rules))


def iter_moves(hand: Cards, to_beat: Combo | None = None, rules: ZsyRules = DEFAULT_RULES) -> Iterator[Combo]:
    """The moves of :func:`legal_moves`, in the same order, one at a time (memory stays small).

    The hand is checked at once, before the first move is asked for.

    >>> moves = iter_moves(Cards.parse("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS"))
    >>> [str(next(moves)) for _ in range(2)]
    ['single:3S', 'single:4S']
    """
    check_cards(hand, rules, "hand")
    mod = core("zsy")
    args = None if mod is None else _native_args(to_beat, rules)
    if mod is not None and args is not None:
        return _native_iter(mod, hand, args)
    return _moves(_Gen(hand), to_beat, rules)


# --- the compiled core's path (solver/native/src/zsy.cpp, moves): the same moves, in the same order

_Raw = tuple[bytes, int, int, int, int, bool, bool]
"""A move from the core: its cards' counts by card index (bytes), kind index, top, length, copies, flush, pure."""
_NativeArgs = tuple[int, int, int, int, bool, bool, bool]
_KIND_INDEX: Final = {kind: i for i, kind in enumerate(KINDS)}
_LEAD_ARGS: Final = (-1, 0, 1, 1, False, False)
_FIRST_CHUNK: Final = 4_096
_MOST_CHUNK: Final = 16_384
"""The lazy path asks the core for moves in chunks of 4,096 up to 16,384 (memory stays small)."""


def _native_args(to_beat: Combo | None, rules: ZsyRules) -> _NativeArgs | None:
    """The combination to beat as the core's plain arguments, or None when its fields are not a
    combination's (the constructor trusts them): then the pure path answers, as the oracle."""
    if to_beat is None:
        return (*_LEAD_ARGS, rules.bombs)
    kind = _KIND_INDEX.get(to_beat.kind)
    top, length, copies, flush, pure = to_beat.top, to_beat.length, to_beat.copies, to_beat.flush, to_beat.pure
    if (
        kind is None
        or type(top) is not int
        or type(length) is not int
        or type(copies) is not int
        or type(flush) is not bool
        or type(pure) is not bool
        or not (-1000 <= top <= 1000 and 1 <= length <= 55 and 1 <= copies <= 55)
    ):
        return None
    return (kind, top, length, copies, flush, pure, rules.bombs)


def _native_raw(mod: ModuleType, hand: Cards, args: _NativeArgs, skip: int = 0, limit: int = -1) -> list[_Raw]:
    """The core's moves of a checked hand (skipping ``skip``, at most ``limit``; -1: all)."""
    try:
        raw: list[_Raw] = mod.moves(hand.counts, *args, skip, limit)
    except ValueError as exc:  # never for a checked hand: the core re-checks what Python checked
        raise ComboError(f"the compiled core refused the hand {hand}: {exc}") from None
    return raw


def _combos(raw: list[_Raw]) -> list[Combo]:
    """The core's moves as :class:`Combo` objects."""
    make, cards, kinds = _make, _cards_of, KINDS
    return [make(cards(tuple(b)), kinds[k], top, n, c, f, pu) for b, k, top, n, c, f, pu in raw]


def _native_iter(mod: ModuleType, hand: Cards, args: _NativeArgs) -> Iterator[Combo]:
    """The moves from the core, a chunk at a time (each chunk re-walks the moves before it, in C++)."""
    skip, chunk = 0, _FIRST_CHUNK
    while True:
        raw = _native_raw(mod, hand, args, skip, chunk)
        yield from _combos(raw)
        if len(raw) < chunk:
            return
        skip += chunk
        chunk = min(_MOST_CHUNK, 2 * chunk)


_cards_of = Cards._make  # a Cards from its counts tuple, trusted (the core's counts are a sub-multiset of the hand)


def _moves(gen: _Gen, to_beat: Combo | None, rules: ZsyRules) -> Iterator[Combo]:
    if to_beat is None:
        yield from gen.singles(0)
        yield from gen.sets(None, None)
        yield from gen.straights(None, None)
        yield from gen.parallels(None, None)
        return
    if to_beat.is_bomb(rules):
        yield from gen.sets(4, (to_beat.top, to_beat.pure))
        return
    kind = to_beat.kind
    if kind == "single":
        yield from gen.singles(to_beat.top)
    elif kind == "set":
        yield from gen.sets(to_beat.copies, (to_beat.top, to_beat.pure))
    elif kind == "straight":
        yield from gen.straights(to_beat.length, to_beat.strength)
    else:
        yield from gen.parallels((to_beat.copies, to_beat.length), (to_beat.top, to_beat.pure))
    if rules.bombs:
        yield from gen.sets(4, None)


# --- every lead of a hand, kept: replies and smaller hands are filters of it -------------


def card_mask(cards: Cards) -> int:
    """A bit set of the cards (one byte per card index): two hands of one deck share a card
    exactly when their masks share a bit (package-internal)."""
    return int.from_bytes(bytes(cards.counts), "little")


_KIND_KEY = {"single": 0, "set": 10_000, "straight": 20_000, "parallel": 30_000}


def _shape_key(m: Combo) -> int:
    """:attr:`Combo.shape` as one int (equal shapes, equal keys)."""
    return _KIND_KEY[m.kind] + m.copies * 100 + m.length


def _strength_key(m: Combo) -> int:
    """:attr:`Combo.strength` as one int in the same order."""
    return m.flush * 1_000 + m.top * 2 + m.pure


_BOMB_KEY = _KIND_KEY["set"] + 4 * 100 + 1


class LeadTable(Generic[T]):
    """Every lead of one hand in :func:`legal_moves` order, each with an item (package-internal).

    The engine keeps one per player (the items are its play actions) so that
    one generation serves a hand for a long time, by two facts of the
    generators in this module, which enumerate in an order that depends only
    on each move's own cards and their order in the hand:

    - the moves that beat ``to_beat`` are the leads of its shape with a
      larger strength, in lead order (then, with option ``bombs`` and a
      non-bomb to beat, every four-card set, in lead order);
    - the leads of the hand less some cards are the leads that use none of
      them, in the same order.

    ``tests/zsy/test_zsy_lead_table.py`` checks both against :func:`legal_moves`
    over random games. A table is not changed once built (:meth:`without` makes
    a new one), so copies of a game share them.
    """

    __slots__ = ("_entries", "_items", "hand")

    def __init__(self, hand: Cards, entries: list[tuple[int, int, int, T]]) -> None:
        self.hand = hand
        self._entries = entries  # (card mask, shape key, strength key, item) per lead
        self._items: tuple[T, ...] | None = None

    @property
    def items(self) -> tuple[T, ...]:
        """The item of every lead, in :func:`legal_moves` order."""
        if self._items is None:
            self._items = tuple([e[3] for e in self._entries])
        return self._items

    @classmethod
    def build(cls, hand: Cards, item: Callable[[Combo], T]) -> LeadTable[T]:
        """Generate every lead of ``hand`` (checked as :func:`iter_moves` does)."""
        kinds, mask = _KIND_KEY, int.from_bytes  # card_mask, _shape_key and _strength_key, inlined
        mod = core("zsy")
        if mod is not None:  # the compiled core's leads, in the same order, keyed as below
            check_cards(hand, DEFAULT_RULES, "hand")
            raw = _native_raw(mod, hand, (*_LEAD_ARGS, False))
            keys = tuple(kinds[kind] for kind in KINDS)
            make, cards = _make, _cards_of
            return cls(
                hand,
                [
                    (
                        mask(b, "little"),
                        keys[k] + c * 100 + n,
                        f * 1_000 + top * 2 + pu,
                        item(make(cards(tuple(b)), KINDS[k], top, n, c, f, pu)),
                    )
                    for b, k, top, n, c, f, pu in raw
                ],
            )
        entries = [
            (
                mask(bytes(m.cards.counts), "little"),
                kinds[m.kind] + m.copies * 100 + m.length,
                m.flush * 1_000 + m.top * 2 + m.pure,
                item(m),
            )
            for m in iter_moves(hand)
        ]
        return cls(hand, entries)

    def without(self, cards: Cards, hand: Cards) -> LeadTable[T]:
        """The table of ``hand``, which is this table's hand less ``cards``."""
        gone = card_mask(cards)
        return LeadTable(hand, [e for e in self._entries if not e[0] & gone])

    def replies(self, to_beat: Combo, rules: ZsyRules = DEFAULT_RULES) -> list[T]:
        """The items of the moves that beat ``to_beat``, in :func:`legal_moves` order."""
        shape, strength = _shape_key(to_beat), _strength_key(to_beat)  # a bomb's shape is _BOMB_KEY
        out = [e[3] for e in self._entries if e[1] == shape and e[2] > strength]
        if rules.bombs and shape != _BOMB_KEY:
            out += [e[3] for e in self._entries if e[1] == _BOMB_KEY]
        return out
