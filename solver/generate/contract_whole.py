"""Contract Shanghai whole-hand puzzles: the last round, played all at once.

Whole ("whole", ``last_round_all_at_once``): after the draw the hand (the
deal and the drawn card) goes down only as a whole, and exactly one card (up
to equal copies) is the discard that lets the rest go down
(:func:`solver.contract.whole_discards`, the contract's melds taking every
other card); the melds are checked by the lay-down referee
(:func:`solver.contract.referee.check_lay_down`). The caller
(:func:`solver.generate.contract.candidate`) turns rules that do not play
the last round all at once away before dealing.
"""

from __future__ import annotations

import random

from solver.cards import Card, Cards, Rank
from solver.contract import best_lay_down, can_go_down_whole, whole_discards
from solver.contract.referee import check_lay_down
from solver.errors import ShanghaiError
from solver.generate.contract_deal import _SUITS, _filled_lengths, _meld, _with_wild
from solver.generate.contract_discard import useful
from solver.generate.difficulty import SOLVE_SECONDS, Level, measure
from solver.generate.ladder import fewest_decoys, place
from solver.generate.players import contract_turn
from solver.legality import position_problem
from solver.melds import Meld
from solver.puzzles import ContractPosition, Puzzle
from solver.rules import ContractRules

__all__ = ["whole_candidate"]


def _lone(hand: Cards) -> list[Card]:
    """The hand's cards that touch no other (no card of their rank, nor of the next rank in their suit)."""
    return [c for c in hand.distinct() if not useful(hand, c)]


def _whole_hand(rng: random.Random, rules: ContractRules, round_: int) -> Cards | None:
    """The deal as the round's contract (melds grown past their least length to fill it, a wild now and
    then in a run), and one more card, the draw; None when the contract does not fit the deal."""
    contract = rules.contract(round_)
    lengths = _filled_lengths(rng, rules, round_)
    if lengths is None:
        return None
    cards: list[Card] = []
    for req, n in zip(contract, lengths):
        cards += _with_wild(rng, rules, _meld(rng, rules, req.kind, n)).cards
    if rng.random() < 0.5:  # a draw that looks useful: the rank or a suit neighbour of a dealt card
        near = rng.choice([c for c in cards if c not in rules.wilds and c.rank is not None])
        step = rng.choice((-1, 0, 1))
        rank = int(near.rank or 1) + step
        suit = near.suit if step else rng.choice(_SUITS)
        cards.append(Card(Rank(rank if 1 <= rank <= 13 else 13), suit))
    else:
        cards.append(Card(Rank(rng.randint(1, 13)), rng.choice(_SUITS)))
    rng.shuffle(cards)
    return Cards(cards)


def whole_candidate(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
    """A last-round hand that goes down whole after exactly one discard (up to equal copies)."""
    round_ = rules.rounds
    hand = _whole_hand(rng, rules, round_)
    if hand is None:
        return None
    pos = ContractPosition(round_, hand, drawn=True)
    try:
        if position_problem(pos, rules) is not None:
            return None
        works = whole_discards(hand, rules, round_, time_limit=SOLVE_SECONDS)
    except ShanghaiError:
        return None
    if len(works) != 1:
        return None
    answer = works[0]
    down = can_go_down_whole(hand - Cards([answer]), rules, round_, discard=False, time_limit=SOLVE_SECONDS)
    if down is None or down.status != "optimal":  # pragma: no cover - whole_discards found it
        return None
    best = best_lay_down(hand, rules, round_, time_limit=SOLVE_SECONDS)
    if best is None or best.hand != Cards([answer]):
        return None  # the whole hand goes down with no discard (a wild limit can keep the discard's melds apart)
    _, greedy = contract_turn("greedy", rules, pos)
    lone = _lone(hand)
    feats = {
        "cards": len(hand) - 1,
        "greedy_shortfall": 0 if greedy == answer else 1,
        # decoys: the answer looks useful (it touches another card), and each lone card that is not the answer
        "decoys": int(useful(hand, answer)) + sum(1 for c in lone if c != answer),
        "melds": len(down.melds),
        "wilds": sum(1 for m in down.melds for c in m.cards if c in rules.wilds),  # standing in the melds
    }
    if feats["decoys"] < fewest_decoys("contract", level, "whole"):
        return None
    _confirm_whole(rules, pos, answer, down.melds)
    contract = rules.contract_text(round_)
    return place(
        Puzzle(
            "contract",
            rules,
            pos,
            f"All at once: which discard lets the rest go down? (round {round_}: {contract})",
            {
                "can_lay_down": True,
                "points_left": best.points_left,
                "distance": 0,
                "can_go_out": True,
                "discard": str(answer),
            },
            meta={
                "kind": "whole",
                **measure("contract", feats, level).as_dict(),
                "solution": str(answer),
                "melds": [str(m) for m in down.melds],
            },
        ),
        level,
    )


def _confirm_whole(rules: ContractRules, pos: ContractPosition, answer: Card, melds: tuple[Meld, ...]) -> None:
    """Raise :class:`MeldError` unless the referee takes the melds as the contract of the hand less the discard."""
    check_lay_down(pos.hand - Cards([answer]), melds, rules, pos.round, max_left=0)
