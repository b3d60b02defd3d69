"""Zheng Shang You's card order and combinations: classify and compare.

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
combination are one move, so a :class:`Combo` *is* a move. Legal moves are
in :mod:`solver.zsy.moves`, the fewest plays in :mod:`solver.zsy.fewest`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from solver.cards import ALL_CARDS, Card, Cards, Joker, Rank
from solver.errors import ComboError
from solver.rules import ZsyRules

__all__ = [
    "Kind",
    "KINDS",
    "ACE",
    "TWO",
    "Combo",
    "zsy_value",
    "is_wild",
    "value_symbol",
    "classify",
    "beats",
    "combo_from_position",
    "split_label",
    "label_shape",
]

Kind = Literal["single", "set", "straight", "parallel"]
KINDS: Final[tuple[Kind, ...]] = ("single", "set", "straight", "parallel")

ACE: Final = 14
"""The ZSY value of an ace, the highest natural card of a straight."""
TWO: Final = 15
"""The ZSY value of a 2; a card of this value or more (2s and jokers) is wild."""
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


def is_wild(card: Card) -> bool:
    """True for the wild cards, the 2s and both jokers (spent last by the players).

    >>> [is_wild(Card.parse(c)) for c in ("AS", "2H", "BJ")]
    [False, True, True]
    """
    return _VALUE[card] >= TWO


def value_symbol(value: int) -> str:
    """The symbol of a ZSY value: ``value_symbol(14) == 'A'``, ``value_symbol(17) == 'RJ'``."""
    return _SYMBOL[value]


def zsy_sorted(cards: Cards | Sequence[Card]) -> list[Card]:
    """The cards in ZSY order, low to high (package-internal helper)."""
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
    :meth:`parse` or :func:`solver.zsy.legal_moves`; the constructor trusts its fields.
    """

    cards: Cards
    kind: Kind
    top: int
    length: int = 1
    copies: int = 1
    flush: bool = False
    pure: bool = True

    @staticmethod
    def make(cards: Cards, kind: Kind, top: int, length: int, copies: int, flush: bool, pure: bool) -> Combo:
        """The same combo as the constructor, made three times faster (the move generators make
        many): the fields are set through their slots, without the frozen dataclass's
        ``__init__`` (package-internal; trusts its fields as the constructor does).

        >>> c = Combo.make(Cards.parse("5S 6S 7S"), "straight", 7, 3, 1, True, True)
        >>> c == Combo.parse("5S 6S 7S"), hash(c) == hash(Combo.parse("5S 6S 7S"))
        (True, True)
        """
        combo = _new(Combo)
        _SET_CARDS(combo, cards)
        _SET_KIND(combo, kind)
        _SET_TOP(combo, top)
        _SET_LENGTH(combo, length)
        _SET_COPIES(combo, copies)
        _SET_FLUSH(combo, flush)
        _SET_PURE(combo, pure)
        return combo

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
        if self.kind == "parallel" and len(_parallel_shapes(Parts.of(self.cards))) > 1:
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
        return " ".join(c.code for c in zsy_sorted(self.cards))

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
        label, cards_text = split_label(text)
        cards = Cards.parse(cards_text)
        return _pick(_of_label(classify(cards, rules), label), cards, label)


def split_label(text: str) -> tuple[str | None, str]:
    """``kind:cards`` as its kind label (checked, lower case; None when there is none) and its cards' text.

    >>> split_label("Set:5S RJ BJ")
    ('set', '5S RJ BJ')
    >>> split_label("7S 7H")
    (None, '7S 7H')
    """
    head, sep, tail = text.partition(":")
    if not sep:
        return None, head
    label = head.strip().lower()
    label_shape(label)
    return label, tail


def label_shape(label: str) -> tuple[str, tuple[int, int] | None]:
    """A kind label's kind and, for ``parallel-CxL``, its shape (copies, length); ``ComboError`` for a bad one."""
    kind, shape = label, None
    if label.startswith("parallel-"):
        kind = "parallel"
        c, x, n = label.removeprefix("parallel-").partition("x")
        if not (x and c.isdigit() and n.isdigit()):
            raise ComboError(f"bad parallel shape {label!r} (write parallel-COPIESxLENGTH)")
        shape = (int(c), int(n))
    if kind not in KINDS:
        raise ComboError(f"unknown combination kind {label!r} (known: {', '.join(KINDS)})")
    return kind, shape


def _of_label(combos: Sequence[Combo], label: str | None) -> list[Combo]:
    """The combinations that fit a kind label (all of them for None)."""
    if label is None:
        return list(combos)
    kind, shape = label_shape(label)
    return [k for k in combos if k.kind == kind and (shape is None or (k.copies, k.length) == shape)]


_new = object.__new__
# the slots' own setters (a frozen dataclass's __setattr__ refuses; its __init__ goes around it too)
_SET_CARDS, _SET_KIND, _SET_TOP, _SET_LENGTH, _SET_COPIES, _SET_FLUSH, _SET_PURE = (
    vars(Combo)[name].__set__ for name in ("cards", "kind", "top", "length", "copies", "flush", "pure")
)


def _pick(found: Sequence[Combo], cards: Cards, label: str | None, hint: str = "write kind:cards") -> Combo:
    shown = " ".join(c.code for c in zsy_sorted(cards)) or "(no cards)"
    if not found:
        what = f"a legal {label}" if label else "a legal combination"
        raise ComboError(f"{shown} is not {what}")
    if len(found) > 1:
        names = " or ".join(dict.fromkeys(k.label if k.kind == "parallel" else k.kind for k in found))
        if all(k.kind == "parallel" for k in found):
            names = " or ".join(f"parallel-{k.copies}x{k.length}" for k in found)
        raise ComboError(f"{shown} is ambiguous: {names} ({hint})")
    return found[0]


# --- classification ------------------------------------------------------------------


class Parts:
    """A multiset split by role: naturals by ZSY value (3..A), 2s, jokers (package-internal)."""

    __slots__ = ("jokers", "n", "nat", "twos")

    def __init__(self, nat: list[list[Card]], twos: list[Card], jokers: list[Card], n: int) -> None:
        self.nat = nat
        self.twos = twos
        self.jokers = jokers
        self.n = n

    @classmethod
    def of(cls, cards: Cards | Sequence[Card]) -> Parts:
        """Split ``cards`` by role."""
        nat: list[list[Card]] = [[] for _ in range(ACE + 1)]
        twos: list[Card] = []
        jokers: list[Card] = []
        n = 0
        # a Cards iterates by card index, which within one ZSY value is ZSY order: no sort
        for card in cards if isinstance(cards, Cards) else zsy_sorted(cards):
            v = _VALUE[card]
            n += 1
            if v <= ACE:
                nat[v].append(card)
            elif v == TWO:
                twos.append(card)
            else:
                jokers.append(card)
        if len(jokers) > 1:  # but the red joker's index comes before the black one's
            jokers.sort(key=_ORDER.__getitem__)
        return cls(nat, twos, jokers, n)

    def ranks(self) -> list[int]:
        """The natural ranks held, low to high."""
        return [v for v in range(3, ACE + 1) if self.nat[v]]


def check_cards(cards: Cards, rules: ZsyRules, what: str) -> None:
    """Raise when ``cards`` are not a sub-multiset of the rules' deck (package-internal)."""
    counts = cards.counts
    if max(counts) > 1 or counts[_PLAIN_JOKER]:
        cards.check_against(rules.deck, what)


def _parallel_shapes(p: Parts) -> list[tuple[int, int, int, bool]]:
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
    check_cards(cards, rules, "cards")
    p = Parts.of(cards)
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
    """The combination a puzzle's ``to_beat`` (with optional ``to_beat_kind``: a kind, or
    ``parallel-CxL`` for the shape of parallel straights) declares.

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
    found = _of_label(classify(cards, rules), kind)
    return _pick(found, cards, kind, "give to_beat_kind" if kind is None else "the kind does not say which shape")
