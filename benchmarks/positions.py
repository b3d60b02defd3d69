"""Random Manipulation Shanghai positions for the benchmark: a valid table plus a hand.

The table is dealt as melds from a shuffled deck (runs of 3-6 and sets of
3-4, jokers standing in now and then), so it is valid by construction; the
hand is drawn from the cards left.
"""

from __future__ import annotations

import random

from solver.cards import Card, Cards, Rank, Suit
from solver.graph.runs import position_rank, run_windows
from solver.melds import Meld
from solver.rules import ManipulationRules

__all__ = ["random_position"]

JOKER = Card.parse("JK")


def random_position(
    rules: ManipulationRules, table_cards: int, hand_cards: int, seed: int, table_jokers: int | None = None
) -> tuple[tuple[Meld, ...], Cards]:
    """A table of about ``table_cards`` cards (valid melds) and a hand of ``hand_cards``."""
    rng = random.Random(seed)
    left = dict(rules.deck.items())
    jokers_left = left.pop(JOKER, 0)
    on_table_jokers = jokers_left // 2 if table_jokers is None else min(table_jokers, jokers_left)
    melds: list[Meld] = []
    size = 0
    windows = [w for w in run_windows(rules.ace, 3, 6)]
    tries = 0
    while size < table_cards and tries < 5000:
        tries += 1
        if rng.random() < 0.55:
            suit = rng.choice(list(Suit))
            window = rng.choice(windows)
            cards = [Card(position_rank(p), suit) for p in window]
        else:
            rank = Rank(rng.randint(1, 13))
            cards = [Card(rank, s) for s in rng.sample(list(Suit), rng.choice((3, 3, 4)))]
        if len(cards) > table_cards - size + 2:
            continue
        need: dict[Card, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        if any(left.get(c, 0) < n for c, n in need.items()):
            continue
        for c in cards:
            left[c] -= 1
        roles: list[Card | None] = [None] * len(cards)
        if on_table_jokers and rng.random() < 0.5:
            k = rng.randrange(len(cards))
            left[cards[k]] += 1
            roles[k] = cards[k]
            cards[k] = JOKER
            on_table_jokers -= 1
            jokers_left -= 1
        melds.append(Meld(tuple(cards), tuple(roles)))
        size += len(cards)
    pool = [c for c, n in left.items() for _ in range(n)] + [JOKER] * jokers_left
    hand = Cards(rng.sample(pool, min(hand_cards, len(pool))))
    return tuple(melds), hand
