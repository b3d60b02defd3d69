"""Zheng Shang You legal moves: perft-style counts and the brute force over all sub-multisets."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Cards
from solver.errors import TooManyCopiesError
from solver.rules import ZsyRules
from solver.zsy import Combo, beats, classify, legal_moves
from tests.oracles.zsy_reference import Key, ref_moves

DECK = list(ZsyRules().deck)
BOMBS = ZsyRules(bombs=True)
DEFAULT = ZsyRules()


def key(c: Combo) -> Key:
    return (c.kind, c.copies, c.length, c.top, c.flush, c.pure)


def as_set(moves: tuple[Combo, ...]) -> set[tuple[tuple[str, ...], Key]]:
    out = {(tuple(sorted(c.code for c in m.cards)), key(m)) for m in moves}
    assert len(out) == len(moves), "a move was generated twice"
    return out


def brute(hand: Cards, to_beat: Combo | None, rules: ZsyRules = DEFAULT) -> set[tuple[tuple[str, ...], Key]]:
    return ref_moves(tuple(hand), key(to_beat) if to_beat else None, rules.bombs)


# (hand, to_beat or None for leads, rules, number of legal moves); each count is also re-derived by brute force
PERFT = [
    ("5S RJ BJ", None, ZsyRules(), 7),
    ("7S 7H 7D 8H 8C 2H RJ 4C", "7C 2S 2D", ZsyRules(), 5),
    ("7S 7H 7D 8H 8C 2H RJ 4C", None, ZsyRules(), 56),
    ("3S 4S 5S 6D 7D 8H 2C", "QS KH AC", ZsyRules(), 1),
    ("6H 8H RJ 9C 10C 6D 7D 8D", "7C 8C 9D", ZsyRules(), 12),
    ("5D 5C 6H 6D 7S 7H 8S 8C 2H BJ", "5S 5H 6S 2C 7D RJ", ZsyRules(), 29),
    ("5D 5C 6H 6D 7S 7H 8S 8C 2H BJ", None, ZsyRules(), 252),
    ("3S 4H 5D 6C 2S 2H RJ BJ", None, ZsyRules(), 130),
    ("3S 4H 5D 6C 2S 2H RJ BJ", "4C", ZsyRules(), 6),
    ("3S 4H 5D 6C 2S 2H RJ BJ", "KS KH", ZsyRules(), 5),
    ("4S 4H 4D 2C 9S 9H BJ", "10S JS QS KS AS", BOMBS, 6),
    ("4S 4H 4D 4C 9S 9H 2C BJ", "8S 8H 8D 8C", BOMBS, 1),
    ("8S 8H 9S 9H 10D 10C 2D RJ BJ 2C", None, ZsyRules(), 494),
    ("2D 2C AS AH RJ BJ", "2S 2H", ZsyRules(), 0),
    ("3S 4H 5D 2C BJ", "RJ", ZsyRules(), 0),
]


@pytest.mark.parametrize(("hand", "to_beat", "rules", "count"), PERFT)
def test_perft_counts(hand: str, to_beat: str | None, rules: ZsyRules, count: int) -> None:
    h = Cards.parse(hand)
    tb = Combo.parse(to_beat, rules) if to_beat else None
    moves = legal_moves(h, tb, rules)
    assert len(moves) == count
    assert as_set(moves) == brute(h, tb, rules)


def test_every_move_is_legal_and_from_the_hand() -> None:
    hand = Cards.parse("3S 4H 5D 6C 7C 2S 2H RJ BJ 9S 9H 9D")
    leads = legal_moves(hand)
    for m in leads:
        assert m.cards <= hand and m in classify(m.cards)
    target = Combo.parse("5S 5C")
    for m in legal_moves(hand, target):
        assert beats(m, target)
    assert sum(1 for m in leads if beats(m, target)) == len(legal_moves(hand, target))


def test_wild_choices_collapse_but_different_cards_do_not() -> None:
    moves = legal_moves(Cards.parse("7S 2H 2D"), Combo.parse("5S 5C"))
    assert [str(m) for m in moves] == ["set:7S 2H", "set:7S 2D", "set:2H 2D"]
    # 5S 6S RJ is one straight (5-6-7), not also 4-5-6
    assert [str(m) for m in legal_moves(Cards.parse("5S 6S RJ"), Combo.parse("3C 4C 5D"))] == ["straight:5S 6S RJ"]


def test_bad_hands() -> None:
    with pytest.raises(TooManyCopiesError, match="2 copies of RJ"):
        legal_moves(Cards.parse("RJ RJ 5S"))


def _random_hand(rng: random.Random) -> list:  # type: ignore[type-arg]
    """A hand dense in wilds and neighbouring ranks, where the interesting combinations live."""
    lo = rng.randint(3, 12)
    width = rng.randint(2, 6)

    def near(c: object) -> bool:
        rank = getattr(c, "rank", None)
        if rank is None or rank == 2:
            return True
        v = 14 if rank == 1 else int(rank)
        return lo <= v <= lo + width

    pool = DECK if rng.random() < 0.2 else [c for c in DECK if near(c)]
    return rng.sample(pool, rng.randint(1, min(9, len(pool))))


def test_generator_agrees_with_brute_force_on_200_random_hands() -> None:
    rng = random.Random(2024)
    checked = 0
    for _ in range(200):
        hand = Cards(_random_hand(rng))
        leads = legal_moves(hand)
        assert as_set(leads) == brute(hand, None)
        for target in rng.sample(leads, min(2, len(leads))):
            for rules in (ZsyRules(), BOMBS):
                assert as_set(legal_moves(hand, target, rules)) == brute(hand, target, rules)
                checked += 1
    assert checked >= 400


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=8, unique=True), st.data())
def test_generator_agrees_with_brute_force_hypothesis(cards: list, data: st.DataObject) -> None:  # type: ignore[type-arg]
    hand = Cards(cards)
    leads = legal_moves(hand)
    assert as_set(leads) == brute(hand, None)
    other = Cards(data.draw(st.lists(st.sampled_from(DECK), min_size=1, max_size=6, unique=True)))
    targets = legal_moves(other)
    target = data.draw(st.sampled_from(targets))
    assert as_set(legal_moves(hand, target)) == brute(hand, target)
