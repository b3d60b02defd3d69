"""Zheng Shang You combinations: classify, compare, legal moves, fewest plays.

The rule book is ``../shared/rules/zheng-shang-you.md``. Cards are compared
by their *ZSY value*: 3..10 are 3..10, J=11, Q=12, K=13, A=14, 2=15,
BJ=16, RJ=17. The 2s and both jokers are wild within limits: 2s fill sets
and parallel straights (never straights), jokers fill anything.

A combination is a :class:`Combo`: its cards, its kind and its comparison
key. The notation is ``kind:cards`` (cards in ZSY order)::

    >>> c = Combo.parse("straight:6H RJ 8H")
    >>> c
    Combo.parse('straight:6H 8H RJ')
    >>> c.top, c.flush, c.pure
    (8, True, False)
    >>> beats(c, Combo.parse("7C 8C 9D")), beats(Combo.parse("6D 7D 8D"), c)
    (True, True)
    >>> [str(k) for k in classify(Cards.parse("5S RJ BJ"))]
    ['set:5S BJ RJ', 'straight:5S BJ RJ']
    >>> Combo.parse("5S RJ BJ")
    Traceback (most recent call last):
    ...
    solver.errors.ComboError: 5S BJ RJ is ambiguous: set or straight (write kind:cards)

The same cards may make several combinations (declared by the player);
each is a separate move. Two plays with the same cards that make the same
combination are one move, so a :class:`Combo` *is* a move.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations, product
from typing import Final, Literal

from solver.cards import ALL_CARDS, Card, Cards, Joker, Rank
from solver.errors import ComboError, ShanghaiError
from solver.rules import ZsyRules

__all__ = [
    "Kind",
    "KINDS",
    "Combo",
    "Split",
    "zsy_value",
    "value_symbol",
    "classify",
    "beats",
    "legal_moves",
    "fewest_plays",
    "combo_from_position",
    "plays_after",
]

Kind = Literal["single", "set", "straight", "parallel"]
KINDS: Final[tuple[Kind, ...]] = ("single", "set", "straight", "parallel")

ACE: Final = 14
TWO: Final = 15
BLACK: Final = 16
RED: Final = 17
MAX_STRAIGHT: Final = 12  # 3..A
DEFAULT_RULES: Final = ZsyRules()


def _value(card: Card) -> int:
    if card.joker is Joker.RED:
        return RED
    if card.joker is Joker.BLACK:
        return BLACK
    if card.joker is Joker.PLAIN:
        return 0  # not in the Zheng Shang You deck
    assert card.rank is not None
    return {Rank.ACE: ACE, Rank.TWO: TWO}.get(card.rank, int(card.rank))


_VALUE: Final[dict[Card, int]] = {c: _value(c) for c in ALL_CARDS}
_ORDER: Final[dict[Card, tuple[int, int]]] = {c: (_VALUE[c], c.index) for c in ALL_CARDS}
_SYMBOL: Final[dict[int, str]] = {
    **{v: str(v) for v in range(3, 11)},
    11: "J",
    12: "Q",
    13: "K",
    ACE: "A",
    TWO: "2",
    BLACK: "BJ",
    RED: "RJ",
}
_PLAIN_JOKER: Final = Card(None, None, Joker.PLAIN).index


def zsy_value(card: Card) -> int:
    """The card's rank in Zheng Shang You order (3=3 ... A=14, 2=15, BJ=16, RJ=17).

    >>> [zsy_value(Card.parse(c)) for c in ("3S", "KH", "AD", "2C", "BJ", "RJ")]
    [3, 13, 14, 15, 16, 17]
    """
    return _VALUE[card]


def value_symbol(value: int) -> str:
    """The symbol of a ZSY value: ``value_symbol(14) == 'A'``, ``value_symbol(17) == 'RJ'``."""
    return _SYMBOL[value]


def _zsy_sorted(cards: Cards | Sequence[Card]) -> list[Card]:
    return sorted(cards, key=_ORDER.__getitem__)


@dataclass(frozen=True, slots=True)
class Combo:
    """One combination (and one move): cards, kind and comparison key.

    ``top`` is the rank of a single or a set, or the highest rank of a
    straight or parallel straights (ZSY values). ``copies`` is the size of a
    set or the number of parallel copies (1 for singles and straights);
    ``length`` is the number of ranks of a straight or parallel (1 for
    singles and sets). ``flush`` marks flush straights, ``pure`` a
    combination without wilds. Build combos with :func:`classify`,
    :meth:`parse` or :func:`legal_moves`; the constructor trusts its fields.
    """

    cards: Cards
    kind: Kind
    top: int
    length: int = 1
    copies: int = 1
    flush: bool = False
    pure: bool = True

    @property
    def size(self) -> int:
        """The number of cards."""
        return self.copies * self.length

    @property
    def rank(self) -> int:
        """Alias of :attr:`top` (the rank of a single or a set)."""
        return self.top

    @property
    def shape(self) -> tuple[Kind, int, int]:
        """``(kind, copies, length)``: only a combination of the same shape can follow."""
        return (self.kind, self.copies, self.length)

    @property
    def strength(self) -> tuple[bool, int, bool]:
        """``(flush, top, pure)``: within a shape the larger strength beats the smaller."""
        return (self.flush, self.top, self.pure)

    def is_bomb(self, rules: ZsyRules = DEFAULT_RULES) -> bool:
        """With option ``bombs``, a set of exactly four cards is a bomb."""
        return rules.bombs and self.kind == "set" and self.copies == 4

    @property
    def label(self) -> str:
        """The kind as written in the notation (``parallel-3x4`` only when the shape is ambiguous)."""
        if self.kind == "parallel" and len(_parallel_shapes(_Parts.of(self.cards))) > 1:
            return f"parallel-{self.copies}x{self.length}"
        return self.kind

    def describe(self) -> str:
        """A short human description: ``three 7s (impure)``, ``flush straight 6-8``."""
        top = value_symbol(self.top)
        if self.kind == "single":
            return f"single {top}"
        if self.kind == "set":
            return f"set of {self.copies} {top}s{'' if self.pure else ' (impure)'}"
        low = value_symbol(self.top - self.length + 1)
        impure = "" if self.pure else " (impure)"
        if self.kind == "straight":
            return f"{'flush' if self.flush else 'mixed'} straight {low}-{top}{impure}"
        return f"{self.copies}x parallel straights {low}-{top}{impure}"

    @property
    def text(self) -> str:
        """The cards in ZSY order (low to high)."""
        return " ".join(c.code for c in _zsy_sorted(self.cards))

    def __str__(self) -> str:
        return f"{self.label}:{self.text}"

    def __repr__(self) -> str:
        return f"Combo.parse({str(self)!r})"

    @staticmethod
    def parse(text: str, rules: ZsyRules = DEFAULT_RULES) -> Combo:
        """Parse ``kind:cards`` (``set:7S 2H 2D``) or just cards when they make one combination.

        The kind of parallel straights may give the shape, ``parallel-3x4``
        (copies x length), needed only when the cards make more than one.
        """
        head, sep, tail = text.partition(":")
        label: str | None = head.strip().lower() if sep else None
        cards = Cards.parse(tail if sep else head)
        kind: str | None = label
        shape: tuple[int, int] | None = None
        if label is not None and label.startswith("parallel-"):
            kind = "parallel"
            c, x, n = label.removeprefix("parallel-").partition("x")
            if not (x and c.isdigit() and n.isdigit()):
                raise ComboError(f"bad parallel shape {label!r} (write parallel-COPIESxLENGTH)")
            shape = (int(c), int(n))
        if kind is not None and kind not in KINDS:
            raise ComboError(f"unknown combination kind {label!r} (known: {', '.join(KINDS)})")
        found = [
            k
            for k in classify(cards, rules)
            if (kind is None or k.kind == kind) and (shape is None or (k.copies, k.length) == shape)
        ]
        return _pick(found, cards, label)


def _pick(found: Sequence[Combo], cards: Cards, label: str | None, hint: str = "write kind:cards") -> Combo:
    shown = " ".join(c.code for c in _zsy_sorted(cards)) or "(no cards)"
    if not found:
        what = f"a legal {label}" if label else "a legal combination"
        raise ComboError(f"{shown} is not {what}")
    if len(found) > 1:
        names = " or ".join(dict.fromkeys(k.label if k.kind == "parallel" else k.kind for k in found))
        if all(k.kind == "parallel" for k in found):
            names = " or ".join(f"parallel-{k.copies}x{k.length}" for k in found)
        raise ComboError(f"{shown} is ambiguous: {names} ({hint})")
    return found[0]


# ---------------------------------------------------------------------------
# Classification


class _Parts:
    """A multiset split by role: naturals by ZSY value (3..A), 2s, jokers."""

    __slots__ = ("jokers", "n", "nat", "twos")

    def __init__(self, nat: list[list[Card]], twos: list[Card], jokers: list[Card], n: int) -> None:
        self.nat = nat
        self.twos = twos
        self.jokers = jokers
        self.n = n

    @classmethod
    def of(cls, cards: Cards | Sequence[Card]) -> _Parts:
        nat: list[list[Card]] = [[] for _ in range(ACE + 1)]
        twos: list[Card] = []
        jokers: list[Card] = []
        n = 0
        for card in _zsy_sorted(cards):
            v = _VALUE[card]
            n += 1
            if v <= ACE:
                nat[v].append(card)
            elif v == TWO:
                twos.append(card)
            else:
                jokers.append(card)
        return cls(nat, twos, jokers, n)

    def ranks(self) -> list[int]:
        return [v for v in range(3, ACE + 1) if self.nat[v]]


def _check(cards: Cards, rules: ZsyRules, what: str) -> None:
    counts = cards.counts
    if max(counts) > 1 or counts[_PLAIN_JOKER]:
        cards.check_against(rules.deck, what)


def _parallel_shapes(p: _Parts) -> list[tuple[int, int, int, bool]]:
    """Every ``(copies, length, top, pure)`` the cards make as parallel straights."""
    out: list[tuple[int, int, int, bool]] = []
    ranks = p.ranks()
    if not ranks:
        return out
    lo, hi = ranks[0], ranks[-1]
    most = max(len(p.nat[v]) for v in ranks)
    wilds = len(p.twos) + len(p.jokers)
    for copies in range(max(2, most), p.n // 3 + 1):
        if p.n % copies:
            continue
        length = p.n // copies
        span = hi - lo + 1
        if not 3 <= length <= MAX_STRAIGHT or span > length:
            continue
        if length - len(ranks) > len(p.jokers):  # a rank made only of wilds needs a joker
            continue
        out.append((copies, length, min(ACE, hi + length - span), wilds == 0))
    return out


def classify(cards: Cards, rules: ZsyRules = DEFAULT_RULES) -> tuple[Combo, ...]:
    """Every combination the cards can be, in the order single, set, straight, parallel.

    A joker at an end of a straight takes the highest value it can; impure
    sets of one rank are all equal (their key ignores which wilds they use).

    >>> [str(c) for c in classify(Cards.parse("5S 5H 6S 6H 7S 7H 2S 2H 2D 2C RJ BJ"))]
    ['parallel-3x4:5S 5H 6S 6H 7S 7H 2S 2H 2D 2C BJ RJ', 'parallel-4x3:5S 5H 6S 6H 7S 7H 2S 2H 2D 2C BJ RJ']
    >>> classify(Cards.parse("RJ BJ"))
    ()
    """
    _check(cards, rules, "cards")
    p = _Parts.of(cards)
    n = p.n
    if n == 0:
        return ()
    if n == 1:
        return (Combo(cards, "single", _VALUE[next(iter(cards))]),)
    out: list[Combo] = []
    ranks = p.ranks()
    # a set: one natural rank plus wilds, or 2s plus jokers
    if len(ranks) == 1:
        out.append(Combo(cards, "set", ranks[0], 1, n, False, not p.twos and not p.jokers))
    elif not ranks and p.twos:
        out.append(Combo(cards, "set", TWO, 1, n, False, not p.jokers))
    # a straight: distinct natural ranks, jokers fill gaps and extend at the top
    if ranks and not p.twos and 3 <= n <= MAX_STRAIGHT and len(ranks) + len(p.jokers) == n:
        lo, hi = ranks[0], ranks[-1]
        gaps = hi - lo + 1 - len(ranks)
        if gaps <= len(p.jokers):
            suits = {c.suit for v in ranks for c in p.nat[v]}
            top = min(ACE, hi + len(p.jokers) - gaps)
            out.append(Combo(cards, "straight", top, n, 1, len(suits) == 1, not p.jokers))
    for copies, length, top, pure in _parallel_shapes(p):
        out.append(Combo(cards, "parallel", top, length, copies, False, pure))
    return tuple(out)


def beats(a: Combo, b: Combo, rules: ZsyRules = DEFAULT_RULES) -> bool:
    """True if ``a`` may be played on ``b``.

    Same shape (kind, copies, length) and a larger strength (flush, top,
    pure); with option ``bombs``, a four-card set beats any non-bomb.

    >>> beats(Combo.parse("7S 7H 7D"), Combo.parse("7C 2S 2H"))
    True
    >>> beats(Combo.parse("9S 9H 2S"), Combo.parse("9D 2H RJ"))
    False
    >>> beats(Combo.parse("4S 4H 4D 4C"), Combo.parse("RJ"), ZsyRules(bombs=True))
    True
    """
    if rules.bombs:
        bomb_a, bomb_b = a.is_bomb(rules), b.is_bomb(rules)
        if bomb_a != bomb_b:
            return bomb_a
    return a.shape == b.shape and a.strength > b.strength


def combo_from_position(cards: Cards, kind: str | None, rules: ZsyRules = DEFAULT_RULES) -> Combo:
    """The combination a puzzle's ``to_beat`` (with optional ``to_beat_kind``) declares.

    Raises :class:`ComboError` when the cards make no combination of that
    kind, or when they make several and no kind (or not enough of one) says
    which: the kind decides which replies are legal, so ambiguity always
    matters.

    >>> combo_from_position(Cards.parse("5S RJ BJ"), "straight").top
    7
    >>> combo_from_position(Cards.parse("7S 8H"), None)
    Traceback (most recent call last):
    ...
    solver.errors.ComboError: 7S 8H is not a legal combination
    """
    if kind is not None and kind not in KINDS:
        raise ComboError(f"unknown combination kind {kind!r} (known: {', '.join(KINDS)})")
    found = [c for c in classify(cards, rules) if kind is None or c.kind == kind]
    return _pick(found, cards, kind, "give to_beat_kind" if kind is None else "the kind does not say which shape")


# ---------------------------------------------------------------------------
# Legal moves


class _Gen:
    """Move generators over one hand; each appends :class:`Combo` objects to ``out``."""

    def __init__(self, hand: Cards) -> None:
        self.p = _Parts.of(hand)
        self.out: list[Combo] = []

    def singles(self, floor: int) -> None:
        p = self.p
        for cards in (*p.nat[3:], p.twos, p.jokers):
            for card in cards:
                v = _VALUE[card]
                if v > floor:
                    self.out.append(Combo(Cards((card,)), "single", v))

    def sets(self, size: int | None, floor: tuple[int, bool] | None) -> None:
        p, out = self.p, self.out
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
                            out.append(Combo(Cards(nat + wild), "set", v, 1, a + b, False, b == 0))

    def straights(self, length: int | None, floor: tuple[bool, int, bool] | None) -> None:
        p, out = self.p, self.out
        jokers = p.jokers
        nj = len(jokers)
        nat = p.nat

        def close(path: list[Card], hi: int, gaps: int, flush: bool) -> None:
            m = len(path)
            for k in range(gaps, nj + 1):
                n = m + k
                if n < 3 or n > MAX_STRAIGHT or (length is not None and n != length):
                    continue
                top = min(ACE, hi + k - gaps)
                if floor is not None and (flush, top, k == 0) <= floor:
                    continue
                for js in combinations(jokers, k):
                    out.append(Combo(Cards((*path, *js)), "straight", top, n, 1, flush, k == 0))

        def extend(path: list[Card], x: int, gaps: int, flush: bool) -> None:
            close(path, x, gaps, flush)
            limit = MAX_STRAIGHT if length is None else length
            for y in range(x + 1, min(ACE, x + 1 + nj - gaps) + 1):
                g = gaps + y - x - 1
                if len(path) + 1 + g > limit:
                    break
                for card in nat[y]:
                    path.append(card)
                    extend(path, y, g, flush and card.suit == path[0].suit)
                    path.pop()

        for a in range(3, ACE + 1):
            for card in nat[a]:
                extend([card], a, 0, True)

    def parallels(self, shape: tuple[int, int] | None, floor: tuple[int, bool] | None) -> None:
        p = self.p
        if shape is not None:
            shapes = [shape]
        else:
            shapes = [(c, n) for c in range(2, p.n // 3 + 1) for n in range(3, min(MAX_STRAIGHT, p.n // c) + 1)]
        for copies, length in shapes:
            if copies * length > p.n:
                continue
            for a in range(3, ACE + 1):
                if p.nat[a]:
                    self._walk(_Walk(a, copies, length, floor), a, [], 0, 0)

    def _walk(self, w: _Walk, x: int, counts: list[int], slots: int, zeros: int) -> None:
        """Choose how many naturals of rank ``x`` to use (``counts[i]`` is rank ``w.low + i``)."""
        p = self.p
        nw, nj = len(p.twos) + len(p.jokers), len(p.jokers)
        for k in range(min(w.copies, len(p.nat[x])), -1 if x > w.low else 0, -1):
            s, z = slots + w.copies - k, zeros + (k == 0)
            if s > nw or z > nj:
                continue
            counts.append(k)
            if k:
                self._emit(w, x, counts, s, z)
            if x < ACE and x - w.low + 2 <= w.length:
                self._walk(w, x + 1, counts, s, z)
            counts.pop()

    def _emit(self, w: _Walk, high: int, counts: list[int], slots: int, zeros: int) -> None:
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
                self.out.append(Combo(cards, "parallel", top, w.length, w.copies, False, wild == 0))


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
    cards declared as two kinds is two moves.

    >>> len(legal_moves(Cards.parse("5S RJ BJ")))  # 3 singles, 3 sets, 1 straight
    7
    >>> [str(m) for m in legal_moves(Cards.parse("6H 7H 8H 8D 9C"), Combo.parse("5C 6C 7D"))]
    ['straight:6H 7H 8H', 'straight:6H 7H 8D', 'straight:7H 8H 9C', 'straight:7H 8D 9C']
    """
    _check(hand, rules, "hand")
    gen = _Gen(hand)
    if to_beat is None:
        gen.singles(0)
        gen.sets(None, None)
        gen.straights(None, None)
        gen.parallels(None, None)
        return tuple(gen.out)
    if to_beat.is_bomb(rules):
        gen.sets(4, (to_beat.top, to_beat.pure))
        return tuple(gen.out)
    kind = to_beat.kind
    if kind == "single":
        gen.singles(to_beat.top)
    elif kind == "set":
        gen.sets(to_beat.copies, (to_beat.top, to_beat.pure))
    elif kind == "straight":
        gen.straights(to_beat.length, to_beat.strength)
    else:
        gen.parallels((to_beat.copies, to_beat.length), (to_beat.top, to_beat.pure))
    if rules.bombs:
        gen.sets(4, None)
    return tuple(gen.out)


# ---------------------------------------------------------------------------
# Fewest plays


@dataclass(frozen=True, slots=True)
class Split:
    """A hand split into combinations: ``count`` plays, ``optimal`` or only ``feasible``."""

    plays: tuple[Combo, ...]
    count: int
    status: Literal["optimal", "feasible"]

    def __str__(self) -> str:
        return " | ".join(str(p) for p in self.plays)


_UNBOUNDED: Final = 1 << 20


class _Timeout(Exception):
    """The search ran out of time."""


# A structure chosen by the search: ("group", rank) | ("straight", ranks, jokers)
# | ("parallel", copies, length, ((rank, naturals), ...), jokers, twos)
_Choice = tuple[object, ...]


class _Search:
    """Exact search for the fewest plays on rank counts (suits never matter for it).

    The state is the count of natural cards per rank 3..A (3 bits each in
    one integer), the jokers and 2s not yet used, and whether a group (a
    single or set of a natural rank) exists. The lowest rank still held is
    decided next: each of its cards is in a straight or parallel whose
    lowest natural rank it is, or in the one group of its rank. Leftover
    wilds join any group for free (a set takes any number of wilds); with
    no group, leftover 2s make one set of 2s (with the jokers), and lone
    jokers are singles (RJ+BJ is not a set).
    """

    def __init__(self, deadline: float) -> None:
        self.memo: dict[tuple[int, int, int, bool], tuple[int, _Choice | None]] = {}  # exact values
        self.low: dict[tuple[int, int, int, bool], int] = {}  # proven lower bounds
        self.deadline = deadline
        self.calls = 0

    def best(self, packed: int, j: int, t: int, g: bool) -> int:
        """The exact fewest plays of a state (branch and bound: children only need to beat the best so far)."""
        return self.solve(packed, j, t, g, _UNBOUNDED)

    def solve(self, packed: int, j: int, t: int, g: bool, limit: int) -> int:
        """The exact value if it is below ``limit``, else a lower bound that is at least ``limit``."""
        key = (packed, j, t, g)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if packed == 0:
            value = 0 if g or not (j or t) else (1 if t else j)
            self.memo[key] = (value, None)
            return value
        low = self.low.get(key, 1)
        if low >= limit:
            return low
        self.calls += 1
        if self.calls & 1023 == 1 and time.perf_counter() > self.deadline:
            raise _Timeout
        i = ((packed & -packed).bit_length() - 1) // 3
        n = (packed >> (3 * i)) & 7
        best = 1 + self.solve(packed - (n << (3 * i)), j, t, True, limit - 1)
        choice: _Choice = ("group", i)
        if best > low:
            for nxt, j2, t2, desc in self.structures(packed, i, j, t):
                v = 1 + self.solve(nxt, j2, t2, g, min(limit, best) - 1)
                if v < best:
                    best, choice = v, desc
                    if best <= low:
                        break
        if best < limit:
            self.memo[key] = (best, choice)
            return best
        self.low[key] = limit
        return limit

    @staticmethod
    def structures(packed: int, i: int, j: int, t: int) -> Iterator[tuple[int, int, int, _Choice]]:
        """Straights and parallels whose lowest natural rank is ``i`` (index 0 = rank 3)."""

        def cnt(x: int) -> int:
            return (packed >> (3 * x)) & 7

        top = ACE - 3
        # straights: natural ranks i=r0<r1<..., jokers fill the gaps and extend
        stack: list[tuple[tuple[int, ...], int, int]] = [((i,), i, 0)]
        while stack:
            ranks, x, gaps = stack.pop()
            m = len(ranks)
            for k in range(gaps, j + 1):
                if 3 <= m + k <= MAX_STRAIGHT:
                    nxt = packed - sum(1 << (3 * r) for r in ranks)
                    yield nxt, j - k, t, ("straight", ranks, k)
            for y in range(x + 1, min(top, x + 1 + j - gaps) + 1):
                g2 = gaps + y - x - 1
                if m + 1 + g2 > MAX_STRAIGHT:
                    break
                if cnt(y):
                    stack.append(((*ranks, y), y, g2))
        # parallels: per rank a..b a count of naturals, wilds fill the rest
        wilds = j + t
        for copies in range(2, cnt(i) + wilds + 1):

            def walk(
                x: int, taken: tuple[tuple[int, int], ...], slots: int, zeros: int, copies: int = copies
            ) -> Iterator[tuple[int, int, int, _Choice]]:
                lo = 1 if x == i else 0
                for k in range(min(copies, cnt(x)), lo - 1, -1):
                    s, z = slots + copies - k, zeros + (k == 0)
                    if s > wilds or z > j:
                        continue
                    here = (*taken, (x, k)) if k else taken
                    if k:
                        span = x - i + 1
                        for length in range(max(3, span), MAX_STRAIGHT + 1):
                            extra = length - span
                            zz, w = z + extra, s + copies * extra
                            if zz > j or w > wilds:
                                break
                            nxt = packed - sum(kk << (3 * r) for r, kk in here)
                            for a in range(max(zz, w - t), min(j, w) + 1):
                                yield nxt, j - a, t - (w - a), ("parallel", copies, length, here, a, w - a)
                    if x < top:
                        yield from walk(x + 1, here, s, z)

            yield from walk(i, (), 0, 0)


def _pack(p: _Parts) -> int:
    return sum(len(p.nat[v]) << (3 * (v - 3)) for v in range(3, ACE + 1))


def fewest_plays(hand: Cards, rules: ZsyRules = DEFAULT_RULES, *, time_limit: float = 5.0) -> Split:
    """Split ``hand`` into the fewest legal combinations (plays to go out unopposed).

    An exact memoised search over rank counts; ``status`` is ``optimal``
    unless the time limit cut it short (then a valid split that plays each
    rank as one set, ``feasible``).

    >>> s = fewest_plays(Cards.parse("5S 5H 6D 2C 7S RJ 9H 10H JH QD 3C 3D"))
    >>> s.count, s.status
    (3, 'optimal')
    >>> fewest_plays(Cards.parse("5S 5H 6D 2C 7S RJ")).plays
    (Combo.parse('parallel:5S 5H 6D 7S 2C RJ'),)
    """
    _check(hand, rules, "hand")
    p = _Parts.of(hand)
    if p.n == 0:
        return Split((), 0, "optimal")
    search = _Search(time.perf_counter() + time_limit)
    packed = _pack(p)
    status: Literal["optimal", "feasible"] = "optimal"
    try:
        search.best(packed, len(p.jokers), len(p.twos), False)
        choices = _walk(search, packed, len(p.jokers), len(p.twos))
    except _Timeout:
        status = "feasible"
        choices = [("group", v - 3) for v in p.ranks()]
    plays = _realise(p, choices, rules)
    return Split(plays, len(plays), status)


def plays_after(
    hand: Cards, moves: Sequence[Combo], rules: ZsyRules = DEFAULT_RULES, *, time_limit: float = 5.0
) -> tuple[tuple[int, ...], Literal["optimal", "feasible"]]:
    """The fewest plays left in ``hand`` after each move (one shared search, so it is cheap).

    When the time limit runs out, the remaining counts are upper bounds
    (one set per rank) and the status is ``feasible``.

    >>> hand = Cards.parse("3S 4H 5D 5C 9S")
    >>> plays_after(hand, [Combo.parse("3S 4H 5D"), Combo.parse("5D 5C")])
    ((2, 3), 'optimal')
    """
    _check(hand, rules, "hand")
    search = _Search(time.perf_counter() + time_limit)
    counts: list[int] = []
    status: Literal["optimal", "feasible"] = "optimal"
    for move in moves:
        p = _Parts.of(hand - move.cards)
        if status == "optimal":
            try:
                counts.append(search.best(_pack(p), len(p.jokers), len(p.twos), False))
                continue
            except _Timeout:
                status = "feasible"
        ranks = len(p.ranks())
        counts.append(ranks + (0 if ranks or not (p.twos or p.jokers) else (1 if p.twos else len(p.jokers))))
    return tuple(counts), status


def _walk(search: _Search, packed: int, j: int, t: int) -> list[_Choice]:
    g = False
    out: list[_Choice] = []
    while packed:
        _, choice = search.memo[(packed, j, t, g)]
        assert choice is not None
        out.append(choice)
        if choice[0] == "group":
            i = choice[1]
            assert isinstance(i, int)
            packed -= ((packed >> (3 * i)) & 7) << (3 * i)
            g = True
        elif choice[0] == "straight":
            _, ranks, k = choice
            assert isinstance(ranks, tuple) and isinstance(k, int)
            packed -= sum(1 << (3 * r) for r in ranks)
            j -= k
        else:
            _, _, _, here, a, b = choice
            assert isinstance(here, tuple) and isinstance(a, int) and isinstance(b, int)
            packed -= sum(kk << (3 * r) for r, kk in here)
            j, t = j - a, t - b
    return out


def _realise(p: _Parts, choices: list[_Choice], rules: ZsyRules) -> tuple[Combo, ...]:
    """Turn the search's choices into plays of real cards (each checked by :func:`classify`)."""
    nat = [list(cards) for cards in p.nat]
    jokers, twos = list(p.jokers), list(p.twos)
    plays: list[tuple[list[Card], Kind, int]] = []  # cards, kind, copies
    groups: list[int] = []
    for choice in choices:
        if choice[0] == "group":
            v = int(choice[1]) + 3  # type: ignore[call-overload]
            cards, nat[v] = nat[v], []
            groups.append(len(plays))
            plays.append((cards, "set", len(cards)))
        elif choice[0] == "straight":
            ranks, k = choice[1], choice[2]
            assert isinstance(ranks, tuple) and isinstance(k, int)
            cards = [nat[r + 3].pop(0) for r in ranks] + [jokers.pop() for _ in range(k)]
            plays.append((cards, "straight", 1))
        else:
            _, copies, _, here, a, b = choice
            assert isinstance(here, tuple) and isinstance(a, int) and isinstance(b, int) and isinstance(copies, int)
            cards = [nat[r + 3].pop(0) for r, kk in here for _ in range(kk)]
            cards += [jokers.pop() for _ in range(a)] + [twos.pop() for _ in range(b)]
            plays.append((cards, "parallel", copies))
    leftover = twos + jokers
    if leftover:
        if groups:
            plays[groups[-1]][0].extend(leftover)
        elif twos:
            plays.append((leftover, "set", len(leftover)))
        else:
            plays.extend(([jk], "single", 1) for jk in jokers)
    out: list[Combo] = []
    for cards, kind, copies in plays:
        found = classify(Cards(cards), rules)
        if len(cards) == 1:
            kind = "single"
        match = [c for c in found if c.kind == kind and (kind != "parallel" or c.copies == copies)]
        if not match:  # pragma: no cover - a search bug, never bad input
            raise ShanghaiError(f"internal error: fewest plays made {Cards(cards)} as {kind}")
        out.append(match[0])
    out.sort(key=lambda c: (KINDS.index(c.kind), c.top))
    return tuple(out)
