"""Manipulation Shanghai puzzles: "play N cards", where the best play needs a rearrangement.

A candidate is a random valid table (runs and sets dealt from the decks)
and a hand from the cards left. It becomes a puzzle when, in order of cost:

1. the solver's best play is proven (``optimal``, least change ``optimal``)
   and plays two cards or more;
2. the engine's ``greedy`` player and the no-rearrangement greedy rule play fewer cards;
3. it holds the level's decoys and stands on one of the level's rungs
   (:mod:`solver.generate.ladder`: which models of a human solver miss it);
4. ``all_best_plays`` finds exactly one best set of hand cards (unique);
5. the referee (:func:`solver.melds.validate_rearrangement`) confirms the
   new table plays exactly those cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from solver.cards import Card, Cards, Rank, Suit
from solver.errors import MeldError
from solver.generate.difficulty import SOLVE_SECONDS, Difficulty, Level, measure
from solver.generate.ladder import fewest_decoys, place
from solver.generate.players import manipulation_played
from solver.generate.shallow import shallow_depth, shallow_play
from solver.manipulation import Play, all_best_plays, best_play, can_play
from solver.melds import Meld, meld_kind, validate_rearrangement
from solver.puzzles import ManipulationPosition, Puzzle
from solver.rules import ManipulationRules

__all__ = ["SIZES", "Sizes", "random_position", "candidate", "features", "count_decoys"]

JOKER = Card.parse("JK")
_SUITS = tuple(Suit)


@dataclass(frozen=True, slots=True)
class Sizes:
    """How big a level's positions are: table cards and hand cards (inclusive ranges)."""

    table: tuple[int, int]
    hand: tuple[int, int]


SIZES: dict[Level, Sizes] = {
    "easy": Sizes((9, 13), (4, 5)),
    "medium": Sizes((12, 18), (5, 6)),
    "hard": Sizes((16, 24), (6, 7)),
    "expert": Sizes((22, 32), (7, 9)),
}
"""Position sizes per level (bigger positions reach the higher scores more often)."""


def _rank_at(position: int) -> Rank:
    return Rank(1 if position == 14 else position)


def _random_meld(rng: random.Random, rules: ManipulationRules) -> list[Card]:
    if rng.random() < 0.55:
        suit = rng.choice(_SUITS)
        length = rng.choice((3, 3, 4, 4, 5, 6, 7))
        low = 2 if rules.ace == "high" else 1
        high = 13 if rules.ace == "low" else 14
        start = rng.randint(low, high - length + 1)
        return [Card(_rank_at(p), suit) for p in range(start, start + length)]
    rank = Rank(rng.randint(1, 13))
    return [Card(rank, s) for s in rng.sample(_SUITS, rng.choice((3, 3, 4)))]


def random_position(
    rng: random.Random, rules: ManipulationRules, table_cards: int, hand_cards: int
) -> tuple[tuple[Meld, ...], Cards]:
    """A valid table of about ``table_cards`` cards and a hand of ``hand_cards`` natural cards.

    With jokers in the rules, a table meld now and then holds one (its role
    written); the hand never does (a joker in hand rarely leaves one best set).
    """
    left = dict(rules.deck.items())
    jokers = left.pop(JOKER, 0)
    melds: list[Meld] = []
    size = 0
    for _ in range(2000):
        if size >= table_cards:
            break
        cards = _random_meld(rng, rules)
        if size + len(cards) > table_cards + 2:
            continue
        need = Cards(cards)
        if any(left.get(c, 0) < n for c, n in need.items()):
            continue
        roles: list[Card | None] = [None] * len(cards)
        if jokers and rng.random() < 0.3:
            k = rng.randrange(len(cards))
            roles[k] = cards[k]
            cards[k] = JOKER
            jokers -= 1
            need = Cards(cards) - Cards([JOKER])
        meld = Meld(tuple(cards), tuple(roles))
        try:
            meld_kind(meld, rules.meld_spec)
        except MeldError:
            continue
        for c, n in need.items():
            left[c] -= n
        melds.append(meld)
        size += len(cards)
    pool = [c for c, n in sorted(left.items(), key=lambda t: t[0].index) for _ in range(n)]
    hand = Cards(rng.sample(pool, min(hand_cards, len(pool))))
    return tuple(melds), hand


def count_decoys(table: tuple[Meld, ...], hand: Cards, play: Play, rules: ManipulationRules) -> int:
    """Hand cards playable on their own (a meld takes them as it stands) that the best play leaves."""
    return sum(
        1
        for c in hand.distinct()
        if c not in play.played and can_play(table, Cards([c]), rules, time_limit=SOLVE_SECONDS)
    )


def features(
    table: tuple[Meld, ...], hand: Cards, play: Play, greedy: int, rules: ManipulationRules, decoys: int | None = None
) -> dict[str, int]:
    """The difficulty features of a position and its (unique) best play (``decoys`` when counted already)."""
    if decoys is None:
        decoys = count_decoys(table, hand, play, rules)
    return {
        "moved_cards": play.moved_cards,
        "melds_broken": len(table) - play.kept_melds,
        "greedy_shortfall": play.cards - greedy,
        "moves": len(play.moves),
        "decoys": decoys,
        "shallow_depth": shallow_depth(table, hand, play.played, rules),
    }


def candidate(rng: random.Random, rules: ManipulationRules, level: Level, question: str | None = None) -> Puzzle | None:
    """One attempt at a puzzle of ``level`` (None when the random position does not qualify); the only
    question is ``play``."""
    sizes = SIZES[level]
    table, hand = random_position(rng, rules, rng.randint(*sizes.table), rng.randint(*sizes.hand))
    play = best_play(table, hand, rules, time_limit=SOLVE_SECONDS)
    if play.status != "optimal" or play.least_change != "optimal" or play.cards < 2:
        return None
    greedy = len(manipulation_played("greedy", table, hand, rules))
    if greedy >= play.cards or len(shallow_play(table, hand, rules, 0)) >= play.cards:
        return None
    decoys = count_decoys(table, hand, play, rules)
    if decoys < fewest_decoys("manipulation", level, "play"):
        return None
    difficulty: Difficulty = measure("manipulation", features(table, hand, play, greedy, rules, decoys), level)
    n = play.cards
    whole = " (all of them)" if n == len(hand) else ""
    puzzle = place(
        Puzzle(
            "manipulation",
            rules,
            ManipulationPosition(table, hand),
            f"Play {n} of your {len(hand)} cards{whole}",
            {"played": n, "cards": str(play.played), "distinct_plays": 1},
            meta={
                "kind": "play",
                **difficulty.as_dict(),
                "solution": [m.text for m in play.moves],
                "new_table": [str(m) for m in play.table],
            },
        ),
        level,
    )
    if puzzle is None:
        return None
    if all_best_plays(table, hand, rules, time_limit=SOLVE_SECONDS, limit=2) != (play.played,):
        return None
    if validate_rearrangement(table, hand, play.table, rules.meld_spec) != play.played:  # pragma: no cover
        raise MeldError("the referee disagrees with the solver's play")
    return puzzle
