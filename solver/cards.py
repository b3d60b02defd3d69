"""Ranks, suits, cards, multisets of cards and their notation.

One parser and one printer per type, with exact round trips::

    >>> Card.parse("th")
    Card.parse('10H')
    >>> str(Card.parse("10♥")), Card.parse("QS").pretty
    ('10H', 'Q♠')
    >>> hand = Cards.parse("8s 7H 7h RJ")
    >>> str(hand), len(hand), hand.count(Card.parse("7H"))
    ('8S 7H 7H RJ', 4, 2)
    >>> Cards.parse(str(hand)) == hand
    True

Several decks hold identical cards, so hands and tables are multisets
(:class:`Cards`): two ``7H`` are the same card twice, never two cards.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import cache
from itertools import chain, compress, repeat
from operator import add, le, sub
from typing import Final

from solver.errors import CardError, TooManyCopiesError

__all__ = [
    "clip",
    "Suit",
    "Rank",
    "Joker",
    "Card",
    "Cards",
    "ALL_CARDS",
    "NATURAL_CARDS",
    "N_CARDS",
    "make_deck",
]


class Suit(StrEnum):
    """A suit; the value is the one-letter ASCII code."""

    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"
    CLUBS = "C"

    @property
    def pretty(self) -> str:
        """The unicode symbol: ``♠ ♥ ♦ ♣``."""
        return _PRETTY_SUIT[self]

    @property
    def is_red(self) -> bool:
        """Hearts and diamonds are red."""
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    @property
    def is_black(self) -> bool:
        """Spades and clubs are black."""
        return not self.is_red


_PRETTY_SUIT: Final = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦", Suit.CLUBS: "♣"}
_SUIT_OF: Final = {
    **{s.value: s for s in Suit},
    **{p: s for s, p in _PRETTY_SUIT.items()},
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}


class Rank(IntEnum):
    """A rank; the integer value is the ace-low rank number (A=1 ... K=13).

    Games that rank the ace high or rank cards differently (Zheng Shang You)
    keep their own orders as data; this value is only the card's identity.
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The canonical ASCII symbol: ``A 2 ... 10 J Q K``."""
        return _RANK_SYMBOL[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Parse a rank symbol (``A``, ``2``-``10``, ``T``, ``J``, ``Q``, ``K``; any case)."""
        try:
            return _RANK_OF[text.strip().upper()]
        except KeyError:
            raise CardError(f"unknown rank {clip(text)}") from None


_RANK_SYMBOL: Final = {r: {1: "A", 11: "J", 12: "Q", 13: "K"}.get(r.value, str(r.value)) for r in Rank}
_RANK_OF: Final = {**{sym: r for r, sym in _RANK_SYMBOL.items()}, "T": Rank.TEN}


class Joker(StrEnum):
    """The jokers: red, black, and a plain joker whose colour does not matter."""

    RED = "RJ"
    BLACK = "BJ"
    PLAIN = "JK"


_SUIT_ORDER: Final = tuple(Suit)
_JOKER_ORDER: Final = tuple(Joker)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card: a rank and a suit, or a joker (then ``rank`` and ``suit`` are None).

    >>> Card(Rank.TEN, Suit.HEARTS)
    Card.parse('10H')
    >>> Card.parse("RJ").is_joker
    True
    """

    rank: Rank | None
    suit: Suit | None
    joker: Joker | None = None
    _index: int = field(init=False, repr=False, compare=False, default=-1)

    def __post_init__(self) -> None:
        natural = self.rank is not None and self.suit is not None and self.joker is None
        joker = self.rank is None and self.suit is None and self.joker is not None
        if not (natural or joker):
            raise CardError(f"a card is a rank and a suit, or a joker: {self.rank}, {self.suit}, {self.joker}")
        if self.joker is not None:
            index = 52 + _JOKER_ORDER.index(self.joker)
        else:
            assert self.rank is not None and self.suit is not None
            index = _SUIT_ORDER.index(self.suit) * 13 + int(self.rank) - 1
        object.__setattr__(self, "_index", index)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Card) and self._index == other._index

    def __hash__(self) -> int:
        return self._index

    @staticmethod
    def parse(text: str) -> Card:
        """Parse one card: ``10H``, ``TH``, ``th``, ``10♥``, ``qs``, ``RJ``, ``BJ``, ``JK``.

        A suit as a phone types it, the symbol and a variation selector (``8♥️``: U+2665 U+FE0F),
        is the suit.

        >>> Card.parse("8\u2665\ufe0f")
        Card.parse('8H')
        """
        try:
            return _parse_card(text.strip().translate(_SELECTORS).upper())
        except CardError:
            raise CardError(f"malformed card {clip(text.strip())}") from None

    @property
    def is_joker(self) -> bool:
        """True for ``RJ``, ``BJ`` and ``JK``."""
        return self.joker is not None

    @property
    def index(self) -> int:
        """A dense index 0..54: suits S H D C, ranks A..K, then RJ, BJ, JK."""
        return self._index

    @property
    def code(self) -> str:
        """The canonical ASCII form, as ``str()`` (looked up by index: every answer prints hundreds)."""
        return _CODE[self._index]

    @property
    def pretty(self) -> str:
        """The unicode form for terminals: ``10♥``, ``RJ``."""
        if self.joker is not None:
            return self.joker.value
        assert self.rank is not None and self.suit is not None
        return self.rank.symbol + self.suit.pretty

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"


_SELECTORS: Final = {0xFE0E: None, 0xFE0F: None}
"""Variation selectors (text and emoji presentation) that phones add after a suit symbol: dropped."""


@cache
def _parse_card(text: str) -> Card:
    if text in ("RJ", "BJ", "JK"):
        return Card(None, None, Joker(text))
    if len(text) < 2 or text[-1] not in _SUIT_OF:
        raise CardError(text)
    return Card(Rank.parse(text[:-1]), _SUIT_OF[text[-1]])


NATURAL_CARDS: Final[tuple[Card, ...]] = tuple(Card(r, s) for s in Suit for r in Rank)
ALL_CARDS: Final[tuple[Card, ...]] = NATURAL_CARDS + tuple(Card(None, None, j) for j in Joker)


def _code_of(card: Card) -> str:
    if card.joker is not None:
        return card.joker.value
    assert card.rank is not None and card.suit is not None
    return card.rank.symbol + card.suit.value


_CODE: Final[tuple[str, ...]] = tuple(_code_of(c) for c in ALL_CARDS)
"""Each card's code, by index (``Card.code``)."""
N_CARDS: Final = len(ALL_CARDS)

_SPLIT = re.compile(r"[\s,]+")


class Cards:
    """An immutable multiset of cards (a hand, a table, a deck).

    Iteration yields cards in canonical order (suits S H D C, ranks A..K,
    then jokers), each as often as it occurs.

    >>> a = Cards.parse("5H 6H 7H")
    >>> a + Cards.parse("5H")
    Cards.parse('5H 5H 6H 7H')
    >>> (a - Cards.parse("6H")).pretty
    '5♥ 7♥'
    """

    __slots__ = ("_cards", "_counts", "_hash")

    _counts: tuple[int, ...]
    _hash: int | None
    _cards: tuple[Card, ...] | None

    def __init__(self, cards: Iterable[Card] = ()) -> None:
        counts = [0] * N_CARDS
        for card in cards:
            counts[card._index] += 1
        self._counts = tuple(counts)
        self._hash = None
        self._cards = None

    @classmethod
    def from_counts(cls, counts: Mapping[Card, int]) -> Cards:
        """Build from a mapping card -> multiplicity (negative counts are errors)."""
        out = [0] * N_CARDS
        for card, n in counts.items():
            if n < 0:
                raise CardError(f"negative count {n} of {card}")
            out[card._index] += n
        return cls._make(tuple(out))

    @classmethod
    def _make(cls, counts: tuple[int, ...]) -> Cards:
        self = cls.__new__(cls)
        self._counts = counts
        self._hash = None
        self._cards = None
        return self

    @classmethod
    def parse(cls, text: str | Iterable[str]) -> Cards:
        """Parse cards separated by spaces or commas, or an iterable of card codes."""
        if isinstance(text, str):
            tokens = [t for t in _SPLIT.split(text.strip()) if t]
        else:
            tokens = list(text)
        return cls(Card.parse(t) for t in tokens)

    def count(self, card: Card) -> int:
        """How many copies of ``card`` the multiset holds."""
        return self._counts[card._index]

    def items(self) -> Iterator[tuple[Card, int]]:
        """Distinct cards with their multiplicities, in canonical order."""
        return zip(compress(ALL_CARDS, self._counts), filter(None, self._counts))

    def distinct(self) -> tuple[Card, ...]:
        """The distinct cards, in canonical order."""
        return tuple(compress(ALL_CARDS, self._counts))

    @property
    def counts(self) -> tuple[int, ...]:
        """Multiplicities indexed by :attr:`Card.index` (length :data:`N_CARDS`)."""
        return self._counts

    def __iter__(self) -> Iterator[Card]:
        if self._cards is None:
            counts = self._counts
            cards = tuple(compress(ALL_CARDS, counts))  # one copy of each: the usual case
            self._cards = (
                cards if len(cards) == sum(counts) else tuple(chain.from_iterable(map(repeat, ALL_CARDS, counts)))
            )
        return iter(self._cards)

    def __len__(self) -> int:
        return sum(self._counts)

    def __bool__(self) -> bool:
        return any(self._counts)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, Card) and self._counts[card._index] > 0

    def __add__(self, other: Cards) -> Cards:
        return Cards._make(tuple(map(add, self._counts, other._counts)))

    def __sub__(self, other: Cards) -> Cards:
        """Remove ``other``; every card removed must be present (else :class:`CardError`)."""
        out = tuple(map(sub, self._counts, other._counts))
        if min(out) < 0:
            missing = Cards._make(tuple(max(0, -n) for n in out))
            raise CardError(f"cards not present: {missing}")
        return Cards._make(out)

    def __le__(self, other: Cards) -> bool:
        return all(map(le, self._counts, other._counts))

    def __ge__(self, other: Cards) -> bool:
        return other <= self

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Cards) and self._counts == other._counts

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(self._counts)
        return self._hash

    def __str__(self) -> str:
        return " ".join(c.code for c in self)

    @property
    def pretty(self) -> str:
        """The unicode form for terminals."""
        return " ".join(c.pretty for c in self)

    def __repr__(self) -> str:
        return f"Cards.parse({str(self)!r})"

    def check_against(self, deck: Cards, what: str = "cards") -> None:
        """Raise :class:`TooManyCopiesError` if this holds more copies of a card than ``deck``."""
        for card, n in self.items():
            have = deck.count(card)
            if n > have:
                hint = _joker_hint(card, deck) if have == 0 else ""
                raise TooManyCopiesError(
                    f"{what} hold {n} {'copy' if n == 1 else 'copies'} of {card}, but the decks contain {have}{hint}"
                )


def clip(text: str, width: int = 40) -> str:
    """``text`` quoted for an error message, cut to about ``width`` characters.

    >>> clip("8H")
    "'8H'"
    >>> len(clip("x" * 1000)) <= 45
    True
    """
    text = text if len(text) <= width else text[: width - 1] + "…"
    return repr(text)


def _joker_hint(card: Card, deck: Cards) -> str:
    """Why a joker is not in the deck: jokers are off, or this game names its jokers differently."""
    if not card.is_joker:
        return ""
    jokers = sorted({c.code for c in deck if c.is_joker})
    if not jokers:
        return " (jokers are off: set the rule option jokers)"
    return f" (this game's jokers are {' '.join(jokers)})"


def make_deck(decks: int = 1, jokers: Mapping[Joker, int] | None = None) -> Cards:
    """The full deck: ``decks`` copies of the 52 natural cards plus the given jokers.

    >>> len(make_deck(2)), len(make_deck(1, {Joker.RED: 1, Joker.BLACK: 1}))
    (104, 54)
    """
    if not 1 <= decks <= 4:
        raise CardError(f"decks must be 1-4, not {decks}")
    counts = {c: decks for c in NATURAL_CARDS}
    for joker, n in (jokers or {}).items():
        counts[Card(None, None, joker)] = n
    return Cards.from_counts(counts)
