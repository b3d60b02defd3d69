"""Contract Shanghai's engine actions and their text form (what ``play`` and the protocol accept).

Every action has a paired printer (``str``) and parser (:func:`parse_action`):

>>> a = parse_action("swap 0 10C 2S 1", 2)
>>> a, str(a) == "swap 0 10C 2S 1"
(CSwap(player=2, swap=Swap(card=Card.parse('10C'), meld=0, wild=Card.parse('2S'), to=1), role=None), True)
>>> str(parse_action("layoff 1 9S", 0)), str(parse_action("decline", 0))
('layoff 1 9S', 'decline')

A wild swap is the lay-off's own :class:`~solver.contract.layoff.Swap` (the
natural from hand, the meld, the wild it frees, the meld that wild goes to)
with the player and an optional written role for the freed wild.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from solver.cards import Card
from solver.contract.layoff import Swap
from solver.engine.base import SimpleAction
from solver.errors import IllegalActionError, ShanghaiError
from solver.melds import Meld, format_table, parse_table

__all__ = [
    "CCall",
    "CDecline",
    "CDiscard",
    "CLayDown",
    "CLayOff",
    "CNoCall",
    "CSwap",
    "CTake",
    "ContractAction",
    "parse_action",
]


@dataclass(frozen=True, slots=True)
class CDiscard:
    """Discard a card (ends the turn; at a round's start, the first player's opening discard)."""

    player: int
    card: Card

    def __str__(self) -> str:
        return f"discard {self.card}"


@dataclass(frozen=True, slots=True)
class CTake(SimpleAction):
    """Take the top discard (the player in turn)."""

    WORD: ClassVar[str] = "take"


@dataclass(frozen=True, slots=True)
class CDecline(SimpleAction):
    """Decline the top discard; the others may call for it, then the player draws from the stock."""

    WORD: ClassVar[str] = "decline"


@dataclass(frozen=True, slots=True)
class CCall(SimpleAction):
    """Call "Shanghai!": take the declined discard and a penalty card."""

    WORD: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class CNoCall(SimpleAction):
    """Let the declined discard go."""

    WORD: ClassVar[str] = "nocall"


@dataclass(frozen=True, slots=True)
class CLayDown:
    """Lay down the round's contract: exactly its melds, wild roles written or chosen."""

    player: int
    melds: tuple[Meld, ...]

    def __str__(self) -> str:
        return f"laydown {format_table(self.melds)}"


@dataclass(frozen=True, slots=True)
class CLayOff:
    """Add cards from hand to table meld ``target`` (a wild may carry its role)."""

    player: int
    target: int
    cards: Meld

    def __str__(self) -> str:
        return f"layoff {self.target} {self.cards}"


@dataclass(frozen=True, slots=True)
class CSwap:
    """A wild swap: ``swap.card`` from hand takes the place of ``swap.wild`` in meld ``swap.meld``;
    the freed wild goes at once onto meld ``swap.to`` (with the written role ``role``, if given)."""

    player: int
    swap: Swap
    role: Card | None = None

    @property
    def target(self) -> int:
        """The meld the wild leaves."""
        return self.swap.meld

    @property
    def card(self) -> Card:
        """The natural card from hand."""
        return self.swap.card

    @property
    def dest(self) -> int:
        """The meld the freed wild goes to."""
        return self.swap.to

    def __str__(self) -> str:
        role = f"={self.role}" if self.role is not None else ""
        s = self.swap
        return f"swap {s.meld} {s.card} {s.wild} {s.to}{role}"


ContractAction = CDiscard | CTake | CDecline | CCall | CNoCall | CLayDown | CLayOff | CSwap
"""Any Contract Shanghai action."""

WildFinder = Callable[[int, Card], Card | None]
"""For a swap written without its wild: the wild in meld ``target`` that ``card`` may replace (or None)."""

_SIMPLE: dict[str, type[CTake | CDecline | CCall | CNoCall]] = {
    "take": CTake,
    "decline": CDecline,
    "call": CCall,
    "nocall": CNoCall,
}


def _parse_swap(rest: str, player: int, find_wild: WildFinder | None) -> CSwap:
    """``N CARD [WILD] M[=ROLE]``: without WILD, the wild ``find_wild`` names."""
    parts = rest.split()
    if len(parts) not in (3, 4):
        raise ValueError("a swap is 'swap N CARD WILD M' (WILD may be left out)")
    target, card = int(parts[0]), Card.parse(parts[1])
    dest_i, _, role = parts[-1].partition("=")
    if len(parts) == 4:
        wild: Card | None = Card.parse(parts[2])
    else:
        wild = find_wild(target, card) if find_wild is not None else None
        if wild is None:
            raise ValueError(f"no wild in meld {target} that {card} can replace")
    assert wild is not None
    return CSwap(player, Swap(card, target, wild, int(dest_i)), Card.parse(role) if role else None)


def parse_action(text: str, player: int, find_wild: WildFinder | None = None) -> ContractAction:
    """The action of ``player`` written as ``text`` (the inverse of ``str``); :class:`IllegalActionError`
    names a bad one. ``find_wild`` fills in the wild of a swap written without it."""
    word, _, rest = text.strip().partition(" ")
    word = word.lower()
    try:
        if word in _SIMPLE:
            return _SIMPLE[word](player)
        if word == "discard":
            return CDiscard(player, Card.parse(rest))
        if word == "laydown":
            return CLayDown(player, parse_table(rest))
        if word == "layoff":
            target, _, cards = rest.strip().partition(" ")
            return CLayOff(player, int(target), Meld.parse(cards))
        if word == "swap":
            return _parse_swap(rest, player, find_wild)
    except (ShanghaiError, ValueError) as exc:
        raise IllegalActionError(f"bad action {text!r}: {exc}") from None
    raise IllegalActionError(
        f"unknown action {text!r} (take, decline, call, nocall, discard CARD, laydown MELDS, layoff N CARDS,"
        " swap N CARD [WILD] M)"
    )
