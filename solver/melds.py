"""Melds (sets and runs) and the independent validator for both rummy games.

This module is the referee: plain Python that shares no code with the CP-SAT
models, so every solver answer can be checked against it.

A meld is written as its cards; a wild may carry its role, the card it stands
for, after ``=``::

    >>> from solver.rules import ContractRules, ManipulationRules
    >>> m = Meld.parse("5H 6H 7H 2S=8H")
    >>> str(m), m.wild_roles()
    ('5H 6H 7H 2S=8H', (Card.parse('8H'),))
    >>> meld_kind(m, ContractRules().meld_spec)
    'run'
    >>> meld_kind(Meld.parse("QH KH AH"), ManipulationRules(ace="both").meld_spec)
    'run'
    >>> meld_kind(Meld.parse("KH AH 2H"), ManipulationRules(ace="both").meld_spec)
    Traceback (most recent call last):
    ...
    solver.errors.MeldError: invalid meld KH AH 2H: not a set (mixed ranks); not a run (ranks not in a row)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from solver.cards import Card, Cards, Rank, Suit, clip
from solver.errors import CardError, MeldError
from solver.rules.base import MeldSpec

__all__ = [
    "Meld",
    "MeldKind",
    "meld_kind",
    "meld_effect",
    "meld_kinds",
    "resolve_roles",
    "parse_table",
    "format_table",
    "validate_table",
    "TableMeld",
    "validate_rearrangement",
    "rank_positions",
]

MeldKind = Literal["set", "run"]


@dataclass(frozen=True, slots=True)
class Meld:
    """Cards on the table forming one set or run, with optional wild roles.

    ``roles[i]`` is the card that ``cards[i]`` stands for, or None (a natural
    card, or a wild whose role is left to the solver).
    """

    cards: tuple[Card, ...]
    roles: tuple[Card | None, ...] = ()

    def __post_init__(self) -> None:
        if not self.roles:
            object.__setattr__(self, "roles", (None,) * len(self.cards))
        if len(self.roles) != len(self.cards):
            raise MeldError("a meld needs one role slot per card")
        for role in self.roles:
            if role is not None and role.is_joker:
                raise MeldError(f"a wild cannot stand for a joker ({role})")

    @staticmethod
    def parse(text: str | Iterable[str]) -> Meld:
        """Parse ``"5H 6H 7H 2S=8H"`` (or a list of such tokens)."""
        tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
        if not tokens:
            raise MeldError("empty meld")
        cards: list[Card] = []
        roles: list[Card | None] = []
        for token in tokens:
            code, eq, role = token.partition("=")
            cards.append(Card.parse(code))
            if eq:
                try:
                    roles.append(Card.parse(role))
                except CardError:
                    raise CardError(f"malformed wild role {clip(token)}") from None
            else:
                roles.append(None)
        return Meld(tuple(cards), tuple(roles))

    @staticmethod
    def of(cards: Iterable[Card]) -> Meld:
        """A meld of these cards with no roles given."""
        return Meld(tuple(cards))

    @property
    def multiset(self) -> Cards:
        """The meld's cards as a multiset."""
        return Cards(self.cards)

    def wild_roles(self) -> tuple[Card, ...]:
        """The roles that are given, in order."""
        return tuple(r for r in self.roles if r is not None)

    def __len__(self) -> int:
        return len(self.cards)

    def __str__(self) -> str:
        return " ".join(c.code + (f"={r.code}" if r is not None else "") for c, r in zip(self.cards, self.roles))

    @property
    def pretty(self) -> str:
        """Unicode form for terminals."""
        return " ".join(c.pretty + (f"={r.pretty}" if r is not None else "") for c, r in zip(self.cards, self.roles))

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"


def rank_positions(rank: Rank, ace: str) -> tuple[int, ...]:
    """Positions a rank can take in a run: 1..13, the ace 1 (low), 14 (high) or both."""
    if rank != Rank.ACE:
        return (int(rank),)
    return {"low": (1,), "high": (14,), "both": (1, 14)}[ace]


def _run_window(positions: Sequence[tuple[int, ...]], length: int, ace: str) -> list[int] | None:
    """Pick one position per fixed card so all are distinct and fit a window of ``length``.

    Returns the chosen positions (same order), or None.
    """
    lo_bound = 2 if ace == "high" else 1
    hi_bound = 13 if ace == "low" else 14
    best: list[int] | None = None

    def rec(i: int, chosen: list[int]) -> bool:
        nonlocal best
        if i == len(positions):
            lo, hi = min(chosen, default=lo_bound), max(chosen, default=lo_bound)
            if len(set(chosen)) != len(chosen) or hi - lo + 1 > length:
                return False
            # the window [start, start+length-1] must hold lo..hi and stay in bounds
            if max(lo_bound, hi - length + 1) <= min(lo, hi_bound - length + 1):
                best = list(chosen)
                return True
            return False
        return any(rec(i + 1, [*chosen, p]) for p in positions[i])

    rec(0, [])
    return best


def _check_run(meld: Meld, spec: MeldSpec) -> str | None:
    """None if ``meld`` is a valid run, else the reason it is not."""
    n = len(meld.cards)
    if not spec.run_min <= n <= spec.run_max:
        return f"a run has {spec.run_min}-{spec.run_max} cards, not {n}"
    fixed: list[Card] = []
    wilds = 0
    for card, role in zip(meld.cards, meld.roles):
        if spec.is_wild(card):
            wilds += 1
            if role is not None:
                fixed.append(role)
        else:
            if role is not None:
                return f"{card} is not wild and cannot take a role"
            fixed.append(card)
    naturals = n - wilds
    if naturals == 0:
        return "a meld needs a natural card"
    if wilds > spec.wilds_allowed(naturals):
        return f"too many wilds ({wilds}) for {naturals} natural cards ({spec.wild_limit})"
    suits = {c.suit for c in fixed}
    if len(suits) > 1:
        return "mixed suits"
    ranks = [c.rank for c in fixed]
    if len(set(ranks)) != len(ranks):
        return "a rank appears twice"
    assert all(r is not None for r in ranks)
    window = _run_window([rank_positions(r, spec.ace) for r in ranks if r is not None], n, spec.ace)
    if window is None:
        other_end = spec.ace != "both" and Rank.ACE in ranks  # a run if the ace ranked at its other end?
        both = [rank_positions(r, "both") for r in ranks if r is not None]
        if other_end and _run_window(both, n, "both") is not None:
            return f"ranks not in a row: this preset ranks the ace {spec.ace} only"
        return "ranks not in a row"
    return None


def _check_set(meld: Meld, spec: MeldSpec) -> str | None:
    """None if ``meld`` is a valid set, else the reason it is not."""
    n = len(meld.cards)
    top = spec.set_max if spec.set_max is not None else 10**6
    if not spec.set_min <= n <= top:
        most = f"-{spec.set_max}" if spec.set_max is not None else " or more"
        return f"a set has {spec.set_min}{most} cards, not {n}"
    naturals = [c for c in meld.cards if not spec.is_wild(c)]
    wilds = n - len(naturals)
    if not naturals:
        return "a meld needs a natural card"
    if wilds > spec.wilds_allowed(len(naturals)):
        return f"too many wilds ({wilds}) for {len(naturals)} natural cards ({spec.wild_limit})"
    for card, role in zip(meld.cards, meld.roles):
        if role is not None and not spec.is_wild(card):
            return f"{card} is not wild and cannot take a role"
    fixed = naturals + [r for r in meld.roles if r is not None]
    if len({c.rank for c in fixed}) != 1:
        return "mixed ranks"
    if spec.set_distinct_suits:
        suits = [c.suit for c in fixed]
        if len(set(suits)) != len(suits):
            return "two cards of one suit"
        if n > 4:
            return "more cards than suits"
    return None


def meld_kinds(meld: Meld, spec: MeldSpec) -> tuple[MeldKind, ...]:
    """Every kind (``set``, ``run``) that ``meld`` validly is under ``spec``."""
    out: list[MeldKind] = []
    if _check_set(meld, spec) is None:
        out.append("set")
    if _check_run(meld, spec) is None:
        out.append("run")
    return tuple(out)


def meld_kind(meld: Meld, spec: MeldSpec, kind: MeldKind | None = None) -> MeldKind:
    """The kind of a valid meld (a set first where both fit); :class:`MeldError` if invalid.

    With ``kind`` given, the meld must be valid as that kind. Answers are
    remembered per meld and spec (both immutable): a table is checked when
    it is read, when it is solved and when its new table is refereed.
    """
    found, why = _meld_kind(meld, spec, kind)
    if found is None:
        raise MeldError(why)
    return found


@lru_cache(maxsize=8192)
def _meld_kind(meld: Meld, spec: MeldSpec, kind: MeldKind | None) -> tuple[MeldKind | None, str]:
    """:func:`meld_kind`'s answer: the kind, or None and why the meld is invalid."""
    joker = next((c for c in meld.cards if c.is_joker and not spec.is_wild(c)), None)
    if joker is not None:  # a joker that is not wild is no card of any meld
        return None, f"invalid meld {meld}: {joker} is a joker, and jokers are off in this preset"
    why_set = _check_set(meld, spec) if kind in (None, "set") else None
    if kind in (None, "set") and why_set is None:
        return "set", ""
    why_run = _check_run(meld, spec) if kind in (None, "run") else None
    if kind in (None, "run") and why_run is None:
        return "run", ""
    reasons = []
    if kind in (None, "set"):
        reasons.append(f"not a set ({why_set})")
    if kind in (None, "run"):
        reasons.append(f"not a run ({why_run})")
    return None, f"invalid meld {meld}: {'; '.join(reasons)}"


def resolve_roles(meld: Meld, spec: MeldSpec, kind: MeldKind | None = None) -> tuple[MeldKind, tuple[Card, ...]]:
    """The meld's kind and the card every card stands for (a natural stands for itself).

    Wilds without a given role get one: in a run, the missing ranks inside
    the run, then the high end where the run may extend (J-Q-wild is
    J-Q-K), else the low end; in a set, unused suits (or the first natural's
    suit where suits may repeat).
    """
    kind = meld_kind(meld, spec, kind)
    given = [r if r is not None else c for c, r in zip(meld.cards, meld.roles) if not spec.is_wild(c) or r is not None]
    open_slots = sum(1 for c, r in zip(meld.cards, meld.roles) if spec.is_wild(c) and r is None)
    fill: list[Card]
    if kind == "set":
        rank = given[0].rank
        assert rank is not None
        used = {c.suit for c in given}
        suits = [s for s in Suit if s not in used] if spec.set_distinct_suits else []
        fill = [Card(rank, suits[i] if i < len(suits) else given[0].suit) for i in range(open_slots)]
    else:
        suit = given[0].suit
        n = len(meld.cards)
        window = _run_window([rank_positions(c.rank, spec.ace) for c in given if c.rank is not None], n, spec.ace)
        assert window is not None and suit is not None
        lo = min(window)
        start = min(lo, (13 if spec.ace == "low" else 14) - n + 1)
        fill = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + n) if p not in window]
    it = iter(fill)
    out = tuple((next(it) if r is None else r) if spec.is_wild(c) else c for c, r in zip(meld.cards, meld.roles))
    return kind, out


def meld_effect(meld: Meld) -> tuple[tuple[int, int], ...]:
    """A table meld as its effect: its cards with their roles, in card order (the order a meld's
    cards lie in is presentation; a run's follows its ranks). A set's wild stands for its rank: the
    suit of its written role is cosmetic."""
    is_set = len(meld.cards) > 1 and len({(r or c).rank for c, r in zip(meld.cards, meld.roles)}) == 1

    def role(r: Card | None) -> int:
        if r is None:
            return -1
        return 100 + int(r.rank or 0) if is_set else r.index

    return tuple(sorted((c.index, role(r)) for c, r in zip(meld.cards, meld.roles)))


def parse_table(text: str | Iterable[str | Iterable[str]]) -> tuple[Meld, ...]:
    """Parse a table: ``"5H 6H 7H | 9S 9H 9D"`` or a list of meld strings."""
    if isinstance(text, str):
        parts = [p for p in text.split("|") if p.strip()]
    else:
        parts = list(text)  # type: ignore[arg-type]
    return tuple(Meld.parse(p) for p in parts)


def format_table(melds: Iterable[Meld]) -> str:
    """The inverse of :func:`parse_table`."""
    return " | ".join(str(m) for m in melds)


def validate_table(melds: Sequence[Meld], spec: MeldSpec, deck: Cards | None = None) -> None:
    """Every meld valid and (with ``deck``) no more copies than the decks hold."""
    for meld in melds:
        meld_kind(meld, spec)
    if deck is not None:
        Cards(c for m in melds for c in m.cards).check_against(deck, "the table")


def validate_rearrangement(old_table: Sequence[Meld], hand: Cards, new_table: Sequence[Meld], spec: MeldSpec) -> Cards:
    """Referee a Manipulation Shanghai play; returns the hand cards played.

    Every new meld must be valid, and the new table must be the old table
    plus cards from the hand: no table card lost, none invented.

    >>> from solver.rules import ManipulationRules
    >>> spec = ManipulationRules(decks=1, ace="both").meld_spec
    >>> old = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
    >>> new = parse_table("3H 4H 5H | 3C 4C 5C | 6H 6C 6S")
    >>> validate_rearrangement(old, Cards.parse("6S KD"), new, spec)
    Cards.parse('6S')
    """
    for meld in new_table:
        meld_kind(meld, spec)
    return cards_added(Cards(c for m in old_table for c in m.cards), hand, Cards(c for m in new_table for c in m.cards))


def cards_added(old: Cards, hand: Cards, new: Cards) -> Cards:
    """The hand cards a new table adds to an old one: no table card lost, none invented.

    >>> cards_added(Cards.parse("5H 6H 7H"), Cards.parse("8H KD"), Cards.parse("5H 6H 7H 8H"))
    Cards.parse('8H')
    """
    lost = [c for c, n in old.items() if new.count(c) < n]
    if lost:
        raise MeldError(f"table cards lost: {' '.join(map(str, lost))}")
    played = new - old
    if not played <= hand:
        extra = Cards.from_counts({c: n - hand.count(c) for c, n in played.items() if n > hand.count(c)})
        raise MeldError(f"cards invented (neither on the table nor in the hand): {extra}")
    return played


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A Contract Shanghai meld on the table with the player who laid it (0 = to move)."""

    meld: Meld
    owner: int = 0
