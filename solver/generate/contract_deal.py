"""Dealing for Contract Shanghai puzzles: random melds (a wild now and then standing in a run), cards
drawn from what the decks still hold, and the hand size a constructed position needs.

Shared by the lay-off (:mod:`solver.generate.contract_layoff`), whole-hand
(:mod:`solver.generate.contract_whole`) and lay-down
(:mod:`solver.generate.contract_laydown`) puzzles; the names stay private to
the ``solver.generate.contract*`` modules.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from solver.cards import Card, Cards, Rank, Suit
from solver.melds import Meld
from solver.rules import ContractRules
from solver.rules.contract import min_length

__all__: list[str] = []

_SUITS = tuple(Suit)


def _wild(rng: random.Random, rules: ContractRules) -> Card:
    return rng.choice(sorted(rules.wilds, key=lambda c: c.index))


def _meld(rng: random.Random, rules: ContractRules, kind: str, length: int) -> list[Card]:
    """A natural meld of ``kind`` (no two: twos may be wild); a run may end with the ace."""
    if kind == "set":
        rank = Rank(rng.choice([r for r in range(1, 14) if r != 2]))
        suits = [rng.choice(_SUITS) for _ in range(length)]
        return [Card(rank, s) for s in suits]
    suit = rng.choice(_SUITS)
    start = rng.randint(3, 14 - length + 1)
    return [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)]


def _with_wild(rng: random.Random, rules: ContractRules, cards: list[Card]) -> Meld:
    """A meld of ``cards``; in a run, one card (not at an end) is now and then replaced by a wild
    standing for it (its role written, so a natural from hand can swap it out)."""
    roles: list[Card | None] = [None] * len(cards)
    is_run = len({c.rank for c in cards}) > 1
    if is_run and rules.wilds and rng.random() < 0.6:
        k = rng.randrange(1, len(cards) - 1)
        roles[k] = cards[k]
        cards = [*cards[:k], _wild(rng, rules), *cards[k + 1 :]]
    return Meld(tuple(cards), tuple(roles))


def _copies(rank: int, rules: ContractRules) -> list[Card]:
    """Every copy of a rank in the decks (a card once per deck)."""
    return [Card(Rank(rank), suit) for suit in _SUITS for _ in range(rules.decks)]


def _sample_meld(rng: random.Random, copies: list[Card], length: int) -> Meld:
    return Meld.of(rng.sample(copies, length))


def _random_meld(rng: random.Random, rules: ContractRules, kind: str, length: int, wild: bool) -> Meld:
    cards = _meld(rng, rules, kind, length)
    return _with_wild(rng, rules, cards) if wild else Meld.of(cards)


def _deck_cards(rules: ContractRules) -> Cards:
    return Cards(rules.deck)


def _deal(stock: list[Cards], make: Callable[[], Meld], tries: int = 12) -> Meld | None:
    """A group of cards ``make`` draws that the decks still hold (``stock[0]``, which loses them),
    drawn again up to ``tries`` times; None when none fit."""
    for _ in range(tries):
        meld = make()
        cards = Cards(meld.cards)
        if cards and cards <= stock[0]:
            stock[0] = stock[0] - cards
            return meld
    return None


def _natural(rng: random.Random, rules: ContractRules) -> Card:
    """A random natural card that is not wild."""
    while True:
        card = Card(Rank(rng.randint(1, 13)), rng.choice(_SUITS))
        if card not in rules.wilds:
            return card


def _filled_lengths(rng: random.Random, rules: ContractRules, round_: int) -> list[int] | None:
    """The round's contract melds' lengths grown at random past their least until they hold the deal;
    None when the contract does not fit the deal."""
    lengths = [min_length(req, rules) for req in rules.contract(round_)]
    if sum(lengths) > rules.deal:
        return None
    while sum(lengths) < rules.deal:
        lengths[rng.randrange(len(lengths))] += 1
    return lengths


def _to_hand_size(rules: ContractRules, planted: int) -> tuple[int, int]:
    """The fewest calls whose hand after the draw holds ``planted`` cards, and the random cards that fill
    it up to that size (a player who has not laid down holds the deal, the draw and two a call)."""
    calls = max(0, -(-(planted - rules.deal - 1) // 2))
    return calls, rules.deal + 1 + 2 * calls - planted


def _same(meld: Meld) -> Meld:
    return meld
