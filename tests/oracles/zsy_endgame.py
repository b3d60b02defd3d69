"""An independent two-player Zheng Shang You endgame for the tests: plain recursive minimax.

It shares no code with :mod:`solver.zsy.endgame` nor with the move generator:
the moves are every sub-multiset of the hand classified by brute force
(:func:`tests.oracles.zsy_reference.ref_moves`, the rule book's comparison),
and the game is the rule book's two-player trick written out: beat the
combination on the table or pass; after a pass the player who played last
leads anew; a lead cannot be passed; whoever empties their hand first wins.
Exponential and only for tiny hands.
"""

from __future__ import annotations

from functools import cache

from solver.cards import Card
from tests.oracles.zsy_reference import Key, ref_moves

Move = tuple[tuple[str, ...], Key]


def _without(hand: tuple[str, ...], cards: tuple[str, ...]) -> tuple[str, ...]:
    rest = list(hand)
    for code in cards:
        rest.remove(code)
    return tuple(rest)


@cache
def _moves(hand: tuple[str, ...], to_beat: Key | None, bombs: bool) -> list[Move]:
    return sorted(ref_moves(tuple(Card.parse(c) for c in hand), to_beat, bombs))


@cache
def ref_wins(mover: tuple[str, ...], other: tuple[str, ...], to_beat: Key | None, bombs: bool = False) -> bool:
    """Whether the player to move (``mover``, sorted card codes) goes out first against ``other``."""
    outcomes = []
    for cards, key in _moves(mover, to_beat, bombs):
        rest = _without(mover, cards)
        outcomes.append(not rest or not ref_wins(other, rest, key, bombs))
    if to_beat is not None:
        outcomes.append(not ref_wins(other, mover, None, bombs))
    return any(outcomes)


def ref_winning_leads(hand: list[Card], opponent: list[Card], bombs: bool = False) -> set[Move]:
    """Every lead (cards, combination) from ``hand`` that wins against every defence of ``opponent``."""
    mine = tuple(sorted(c.code for c in hand))
    theirs = tuple(sorted(c.code for c in opponent))
    out = set()
    for cards, key in _moves(mine, None, bombs):
        rest = _without(mine, cards)
        if not rest or not ref_wins(theirs, rest, key, bombs):
            out.add((cards, key))
    return out
