"""Issue 34: ZSY replies and leads that leave as many plays prefer the one that keeps wilds and is
harder to beat (fewest wild cards spent, pure before impure, fewest jokers): the documented tie-break."""

from __future__ import annotations

import random

from solver.answers import SolveOptions, solve_puzzle
from solver.cards import Cards
from solver.engine.hints import hint_for_puzzle
from solver.puzzles import from_data
from solver.zsy import Combo, best_reply, is_wild, legal_moves, plays_after

DECK = Cards.parse(
    " ".join(f"{r}{s}" for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2") for s in "SHDC")
    + " RJ BJ"
)


def _wilds(combo: Combo) -> int:
    return sum(1 for c in combo.cards if is_wild(c))


def _jokers(combo: Combo) -> int:
    return sum(1 for c in combo.cards if c.rank is None)


def test_the_issues_reply_is_the_pure_set_of_twos() -> None:
    hand, to_beat = Cards.parse("2S 2H 2D RJ 5C"), Combo.parse("AS AH")
    reply = best_reply(hand, to_beat)
    assert reply.combo is not None and reply.combo.pure and _jokers(reply.combo) == 0
    assert {str(c) for c in reply.combo.cards} <= {"2S", "2H", "2D"}
    puzzle = from_data({"game": "zsy", "position": {"hand": "2S 2H 2D RJ 5C", "to_beat": "AS AH"}})
    answer = solve_puzzle(puzzle, SolveOptions())  # `shanghai solve`, the protocol and the web page
    assert answer.data["reply"]["cards"] == [str(c) for c in reply.combo.cards]
    assert str(answer.result["ranked"][0][0]) == str(reply.combo)
    assert hint_for_puzzle(puzzle).action == f"play {reply.combo}"


def test_ties_keep_wilds_then_purity_then_jokers_on_seeded_hands() -> None:
    """Replies and leads from seeded hands rich in 2s and jokers: among the moves that leave the
    fewest plays, the best spends the fewest wild cards, is pure if any such move is, then spends
    the fewest jokers."""
    rng = random.Random(34)
    cards = list(DECK)
    wilds = [c for c in cards if is_wild(c)]
    compared = {True: 0, False: 0}  # ties compared, for leads and for replies
    for i in range(40):
        hand = Cards(rng.sample(wilds, 3) + rng.sample([c for c in cards if not is_wild(c)], 4))
        to_beat = None
        if i % 2:
            rank = rng.choice(["3", "5", "8", "J", "A"])
            to_beat = Combo.parse(f"{rank}S {rank}H")
        moves = legal_moves(hand, to_beat)
        if not moves:
            continue
        left, _ = plays_after(hand, moves)
        best_after = min(left)
        tied = [m for m, n in zip(moves, left) if n == best_after]
        reply = best_reply(hand, to_beat, can_pass=False)
        assert reply.combo is not None and reply.after == best_after
        fewest = min(_wilds(m) for m in tied)
        assert _wilds(reply.combo) == fewest
        tied = [m for m in tied if _wilds(m) == fewest]
        if any(m.pure for m in tied):
            assert reply.combo.pure
        tied = [m for m in tied if m.pure == reply.combo.pure]
        assert _jokers(reply.combo) == min(_jokers(m) for m in tied)
        compared[to_beat is None] += len(tied) > 1
    assert min(compared.values()) >= 5, compared
