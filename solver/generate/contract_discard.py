"""Contract "which card to discard?" puzzles in hands a game deals: 13 cards after the draw.

A player who has not laid down holds the deal and the drawn card
(:mod:`solver.contract.handsize`): 13 cards by default. The round's contract
takes at most 11 of them (round 5: a set and two runs), so after any discard
at least one card is spare and the distance alone never singles out one
card. The question is therefore the one a player asks: which discard keeps
the contract closest **and** sheds the most points? The order is the
solver's own (:func:`solver.contract.best_discards`, then
:func:`solver.contract.discard_order`: the fewest cards missing, a natural
before a wild, the most points); the puzzle is kept only when its first
card is strictly ahead of every other on distance, wildness and points (no
tie left to card order), and the CP-SAT distance model confirms the
distance.

The hand is built, not dealt at random: the contract's melds one or two
cards short, cards that touch them (a rank's other copies, a run's
neighbours: the decoys a glance keeps or throws), and random cards up to
the hand's size, every card from what the decks hold.
"""

from __future__ import annotations

import random

from solver.cards import Card, Cards, Rank
from solver.contract import best_discards, best_lay_down, discard_order, distance_to_contract
from solver.errors import MeldError, ShanghaiError
from solver.generate.contract_deal import _SUITS, _meld
from solver.generate.contract_looks import useful
from solver.generate.difficulty import SOLVE_SECONDS, Level, measure
from solver.generate.ladder import fewest_decoys, place
from solver.generate.players import contract_turn
from solver.legality import position_problem
from solver.puzzles import ContractPosition, Puzzle
from solver.rules import ContractRules
from solver.rules.contract import min_length

__all__ = ["discard_puzzle", "discard_hand", "useful", "strict_first"]

HAND = 13
"""The hand of a discard puzzle before the deal's size is known: the deal and the drawn card."""


def _near(rng: random.Random, cards: list[Card]) -> Card:
    """A card touching one of ``cards``: another copy of its rank, or a suit neighbour."""
    base = rng.choice([c for c in cards if c.rank is not None and c.suit is not None])
    assert base.rank is not None and base.suit is not None
    if rng.random() < 0.5:
        return Card(base.rank, rng.choice(_SUITS))
    rank = int(base.rank) + rng.choice((-1, 1))
    rank = 13 if rank < 1 else 1 if rank > 13 else rank
    return Card(Rank(rank), base.suit)


def discard_hand(rng: random.Random, rules: ContractRules, round_: int, size: int) -> Cards | None:
    """``size`` cards: the contract one or two cards short, cards touching it, random cards; None when
    the decks cannot hold them or the contract does not fit."""
    cards: list[Card] = []
    for req in rules.contract(round_):
        cards += _meld(rng, rules, req.kind, min_length(req, rules))
    if len(cards) >= size:
        return None
    rng.shuffle(cards)
    cards = cards[rng.choice((1, 1, 2)) :]
    touching = rng.randint(0, size - len(cards))
    cards += [_near(rng, cards) for _ in range(touching)]
    cards += [Card(Rank(rng.randint(1, 13)), rng.choice(_SUITS)) for _ in range(size - len(cards))]
    hand = Cards(cards)
    try:
        hand.check_against(rules.deck, "hand")
    except ShanghaiError:
        return None
    return hand


def strict_first(ranked: tuple[tuple[Card, int], ...], rules: ContractRules) -> bool:
    """Whether the first discard is ahead of every other on distance, then wildness and points
    (not on card order alone)."""
    if len(ranked) < 2 or ranked[0][1] >= 90:
        return False
    top, d0 = ranked[0]
    key = (d0, *discard_order(top, rules)[:2])
    return all((d, *discard_order(c, rules)[:2]) > key for c, d in ranked[1:])


def discard_puzzle(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
    """One attempt at a discard puzzle of ``level`` in a hand after the draw (the deal and one card)."""
    round_ = rng.randint(1, rules.rounds - 1)
    hand = discard_hand(rng, rules, round_, rules.deal + 1)
    if hand is None:
        return None
    pos = ContractPosition(round_, hand, drawn=True)
    try:
        if position_problem(pos, rules) is not None:
            return None
        if best_lay_down(hand, rules, round_, time_limit=SOLVE_SECONDS) is not None:
            return None
        ranked = best_discards(hand, rules, round_, time_limit=SOLVE_SECONDS)
    except ShanghaiError:
        return None
    if not strict_first(ranked, rules):
        return None
    answer, after = ranked[0]
    _, greedy = contract_turn("greedy", rules, pos)
    feats = {
        "cards": after,
        "greedy_shortfall": 0 if greedy == answer else 1,
        # decoys: the answer looks useful (it touches another card), and each other discard as close
        "decoys": int(useful(hand, answer)) + sum(1 for _, d in ranked[1:] if d <= after + 1),
        "melds": len(rules.contract(round_)),
        "wilds": sum(1 for c in hand if c in rules.wilds),
    }
    if feats["decoys"] < fewest_decoys("contract", level, "discard"):
        return None
    _confirm(hand, answer, after, rules, round_)
    now = distance_to_contract(hand, rules, round_, time_limit=SOLVE_SECONDS, options=False)
    contract = rules.contract_text(round_)
    return place(
        Puzzle(
            "contract",
            rules,
            pos,
            f"Which card to discard? (round {round_}: {contract})",
            {"can_lay_down": False, "distance": now.missing},
            meta={
                "kind": "discard",
                **measure("contract", feats, level).as_dict(),
                "solution": str(answer),
                "distance_after": after,
            },
        ),
        level,
    )


def _confirm(hand: Cards, answer: Card, after: int, rules: ContractRules, round_: int) -> None:
    """Raise :class:`MeldError` unless the CP-SAT distance model agrees with the discard search."""
    check = distance_to_contract(
        hand - Cards([answer]), rules, round_, time_limit=SOLVE_SECONDS, options=False, method="cp-sat"
    )
    if check.missing != after:  # pragma: no cover - two models agree
        raise MeldError("the CP-SAT distance disagrees with the discard search")
