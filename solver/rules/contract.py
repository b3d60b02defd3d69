"""Contract Shanghai rules (``../shared/rules/contract.md``).

Contracts are data: a tuple of rounds, each a tuple of :class:`Requirement`.
In a puzzle file, ``contracts`` is ``"finnish"``, ``"us"`` or a list of
rounds written like ``"set run:5"`` (a meld kind, optionally ``:min_len``).

>>> r = ContractRules()
>>> r.contract(1)
(Requirement('set', 3), Requirement('run', 4))
>>> ContractRules.from_dict({"contracts": ["set:4 set", "run run"]}).rounds
2
>>> ContractRules.preset("poker_deck").wild_cards
'jokers'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar, Literal

from solver.cards import Card, Cards, Joker, Rank, Suit, make_deck
from solver.errors import RulesError
from solver.rules.base import Ace, MeldSpec, RuleSet, WildLimit, check_value, option

__all__ = ["ContractRules", "Requirement", "CONTRACT_LISTS", "min_length"]

MeldKind = Literal["set", "run"]


@dataclass(frozen=True, slots=True)
class Requirement:
    """One meld of a contract: its kind and minimum length."""

    kind: MeldKind
    min_len: int

    def __str__(self) -> str:
        default = 3 if self.kind == "set" else 4
        return self.kind if self.min_len == default else f"{self.kind}:{self.min_len}"

    def __repr__(self) -> str:
        return f"Requirement({self.kind!r}, {self.min_len})"

    @staticmethod
    def parse(text: str) -> Requirement:
        """Parse ``set``, ``run``, ``set:4``, ``run:5``."""
        kind, _, length = text.strip().lower().partition(":")
        if kind not in ("set", "run"):
            raise RulesError(f"contract meld must be 'set' or 'run', not {text!r}")
        default = 3 if kind == "set" else 4
        try:
            n = int(length) if length else default
        except ValueError:
            raise RulesError(f"bad contract meld length in {text!r}") from None
        if not default <= n <= 13:
            raise RulesError(f"contract {kind} length must be {default}-13, not {n}")
        return Requirement(kind, n)  # type: ignore[arg-type]


Contract = tuple[Requirement, ...]


def _contracts(*rounds: str) -> tuple[Contract, ...]:
    return tuple(tuple(Requirement.parse(t) for t in r.split()) for r in rounds)


CONTRACT_LISTS: dict[str, tuple[Contract, ...]] = {
    "finnish": _contracts("set run", "set set", "run run", "set set run", "set run run", "set set set", "run run run"),
    "us": _contracts("set set", "set run", "run run", "set set set", "set set run", "set run run", "run run run"),
}

BLACK_TWOS = frozenset({Card(Rank.TWO, Suit.SPADES), Card(Rank.TWO, Suit.CLUBS)})
JOKER = Card(None, None, Joker.PLAIN)
JOKERS_ONLY = frozenset({JOKER})
TWOS_AND_JOKERS = BLACK_TWOS | JOKERS_ONLY


@dataclass(frozen=True, slots=True)
class ContractRules(RuleSet):
    """Every option of Contract Shanghai, defaults from the ``finnish`` preset."""

    GAME: ClassVar[str] = "contract"
    DEFAULT_PRESET: ClassVar[str] = "finnish"
    PRESETS: ClassVar = {
        "finnish": {},
        "us": {"contracts": "us", "wild_limit": "fewer"},
        "poker_deck": {"wild_cards": "jokers", "jokers": 6},
        "jokers_and_twos": {"wild_cards": "jokers_and_twos", "jokers": 6},
        "no_wild_swap": {"wild_swap": False},
        "last_round_normal": {"last_round_all_at_once": False},
    }

    contracts: tuple[Contract, ...] = option(
        CONTRACT_LISTS["finnish"],
        doc="the contract of each round",
        values="finnish | us | a list of rounds like 'set run:5'",
    )
    decks: int = option(2, 1, 4, "number of 52-card decks")
    jokers: int = option(0, 0, 8, "jokers (JK) in the deck")
    wild_cards: Literal["black_twos", "jokers", "jokers_and_twos"] = option(
        "black_twos", doc="which cards are wild (jokers in the deck always are)"
    )
    wild_limit: WildLimit = option(
        "any", doc="wilds per meld vs naturals: any (at least one natural), at most as many (half), fewer"
    )
    distinct_set_ranks: bool = option(False, doc="the sets of one contract must differ in rank")
    ace: Ace = option("both", doc="ace low or high in runs (never wrap-around)")
    set_min: int = option(3, 3, 13, "shortest set")
    run_min: int = option(4, 3, 13, "shortest run")
    deal: int = option(12, 5, 20, "cards dealt (the first player gets one more)")
    min_players: int = option(3, 2, 8, "fewest players")
    max_players: int = option(6, 2, 8, "most players")
    max_calls: int | None = option(None, 0, 100, "Shanghai calls per player per round (none = unlimited)")
    layoff_same_turn: bool = option(True, doc="lay off in the turn of laying down")
    wild_swap: bool = option(True, doc="swap a natural card for a wild in an opponent's meld")
    wild_swap_own: bool = option(False, doc="also swap wilds out of one's own melds")
    last_round_all_at_once: bool = option(True, doc="in the last round, lay down and go out in one turn")
    no_progress: Literal["net", "discard"] = option(
        "net",
        doc="once nobody draws, a whole round of turns ends the round when the cards in hands do not fall "
        "(net) or when nobody discards (discard)",
    )
    face_points: Literal["ten", "value"] = option("ten", doc="J, Q, K score 10 each or 11, 12, 13")
    ace_points: Literal[15, 14] = option(15, doc="points for an ace")
    wild_two_points: Literal[25, 20, 50] = option(25, doc="points for a wild black two")
    joker_points: int = option(25, 0, 100, "points for a joker")

    def __post_init__(self) -> None:
        if self.wild_cards != "black_twos" and self.jokers == 0:
            raise RulesError(f"contract rule option wild_cards={self.wild_cards!r} needs jokers > 0")
        if self.min_players > self.max_players:
            raise RulesError("contract rule option 'min_players' exceeds 'max_players'")
        if not self.contracts:
            raise RulesError("contract rule option 'contracts' needs at least one round")

    @classmethod
    def _convert(cls, key: str, value: Any, hint: Any, meta: Mapping[str, Any]) -> Any:
        if key != "contracts":
            return check_value(f"contract rule option {key!r}", value, hint, meta)
        if isinstance(value, tuple):
            return value
        if isinstance(value, str):
            if value not in CONTRACT_LISTS:
                raise RulesError(f"unknown contract list {value!r} (known: {', '.join(CONTRACT_LISTS)})")
            return CONTRACT_LISTS[value]
        if isinstance(value, list) and value and all(isinstance(r, str) for r in value):
            return tuple(tuple(Requirement.parse(t) for t in r.split()) for r in value)
        raise RulesError("contract rule option 'contracts' must be 'finnish', 'us' or a list of rounds like 'set run'")

    def to_dict(self) -> dict[str, Any]:
        """Every option as plain data; ``contracts`` by name where it is a named list."""
        out = RuleSet.to_dict(self)
        names = [n for n, c in CONTRACT_LISTS.items() if c == self.contracts]
        out["contracts"] = names[0] if names else [" ".join(map(str, r)) for r in self.contracts]
        return out

    @property
    def rounds(self) -> int:
        """How many rounds (contracts) a game has."""
        return len(self.contracts)

    def contract(self, round_: int) -> Contract:
        """The contract of round ``round_`` (1-based); ``RulesError`` if out of range."""
        if not 1 <= round_ <= self.rounds:
            raise RulesError(f"round must be 1-{self.rounds}, not {round_}")
        return self.contracts[round_ - 1]

    def contract_text(self, round_: int) -> str:
        """The contract of round ``round_`` as players name it: ``set + run``."""
        return " + ".join(map(str, self.contract(round_)))

    @property
    def deck(self) -> Cards:
        """All cards in play: ``decks`` x 52 plus ``jokers`` plain jokers."""
        return make_deck(self.decks, {Joker.PLAIN: self.jokers} if self.jokers else None)

    @property
    def wilds(self) -> frozenset[Card]:
        """The cards that are always wild: per ``wild_cards``, and every joker in the deck.

        A joker has no rank and suit, so it can only play as a wild: jokers
        added to the default rules (``jokers = 2``, black twos wild) are wild
        alongside the twos (docs/decisions-contract.md).

        >>> sorted(map(str, ContractRules(jokers=2).wilds)), sorted(map(str, ContractRules().wilds))
        (['2C', '2S', 'JK'], ['2C', '2S'])
        """
        if self.wild_cards == "jokers":
            return JOKERS_ONLY
        if self.wild_cards == "jokers_and_twos" or self.jokers:
            return TWOS_AND_JOKERS
        return BLACK_TWOS

    @property
    def meld_spec(self) -> MeldSpec:
        """Sets of ``set_min``+ (suits may repeat), runs of ``run_min``+, wilds per ``wild_limit``
        (built once per combination of those options: the engine asks for it on every move)."""
        return _meld_spec(self.set_min, self.run_min, self.ace, self.wilds, self.wild_limit)

    def points(self, card: Card) -> int:
        """What ``card`` scores when left in hand at the end of a round."""
        if card.rank is None:
            return self.joker_points
        if card in self.wilds:
            return self.wild_two_points
        if card.rank == Rank.ACE:
            return self.ace_points
        if card.rank >= Rank.JACK:
            return 10 if self.face_points == "ten" else int(card.rank)
        return int(card.rank)


@cache
def _meld_spec(set_min: int, run_min: int, ace: Ace, wilds: frozenset[Card], wild_limit: WildLimit) -> MeldSpec:
    return MeldSpec(
        set_min=set_min,
        set_max=None,
        set_distinct_suits=False,
        run_min=run_min,
        run_max=13,
        ace=ace,
        wilds=wilds,
        wild_limit=wild_limit,
    )


def min_length(req: Requirement, rules: ContractRules) -> int:
    """The shortest meld that meets ``req`` under ``rules``: the larger of its own and the rules' minimum.

    >>> min_length(Requirement("run", 4), ContractRules(run_min=5)), min_length(Requirement("set", 4), ContractRules())
    (5, 4)
    """
    return max(req.min_len, rules.set_min if req.kind == "set" else rules.run_min)
