"""Fewest plays: the exact search against exhaustive partitions, the CP-SAT model, and the splits."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Cards
from solver.errors import TooManyCopiesError
from solver.rules import ZsyRules
from solver.zsy import Combo, Split, classify, fewest_plays, plays_after
from tests.oracles.zsy_cpsat import fewest_plays_cpsat
from tests.oracles.zsy_reference import ref_classify, ref_fewest

DECK = list(ZsyRules().deck)


def check_split(hand: Cards, split: Split) -> None:
    """The independent check: the plays use exactly the hand and each is a legal combination."""
    assert split.count == len(split.plays)
    assert sum((p.cards for p in split.plays), Cards()) == hand
    for play in split.plays:
        assert ref_classify(tuple(play.cards)), f"{play} is not a combination"
        assert play in classify(play.cards)


@pytest.mark.parametrize(
    ("hand", "count"),
    [
        ("", 0),
        ("RJ", 1),
        ("RJ BJ", 2),  # jokers alone are not a set
        ("RJ BJ 2S", 1),  # an impure set of 2s
        ("3S 3H KD RJ BJ", 2),
        ("5S 5H 6S 2C 7D RJ", 1),
        ("5S 5H 6S 6H RJ BJ", 1),  # wilds at the end: 5-6-7 twice
        ("5S 5H 6S 6H 2C 2D", 2),  # a rank of two 2s is not allowed
        ("3S 4H 5D 6C 2S 2H RJ BJ", 1),  # 3-4-5-6 twice, one wild per rank
        ("3S 4H 4D 5S 5C 6H 6D 7S", 2),
        ("8S 8H 9S 9H 10D 10C 2D RJ BJ 2C", 1),
        ("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S RJ BJ", 2),  # the 12-straight and a set of 2s with jokers
    ],
)
def test_known_counts(hand: str, count: int) -> None:
    h = Cards.parse(hand)
    split = fewest_plays(h)
    assert split.count == count and split.status == "optimal"
    check_split(h, split)
    if len(h) <= 10:
        assert ref_fewest(tuple(h)) == count


def _dense_hand(rng: random.Random, size: int) -> list:  # type: ignore[type-arg]
    lo, width = rng.randint(3, 12), rng.randint(2, 6)

    def near(c: object) -> bool:
        rank = getattr(c, "rank", None)
        if rank is None or rank == 2:
            return True
        v = 14 if rank == 1 else int(rank)
        return lo <= v <= lo + width

    pool = DECK if rng.random() < 0.25 else [c for c in DECK if near(c)]
    return rng.sample(pool, min(size, len(pool)))


def test_agrees_with_exhaustive_search_up_to_10_cards() -> None:
    rng = random.Random(7)
    for _ in range(120):
        hand = Cards(_dense_hand(rng, rng.randint(1, 10)))
        split = fewest_plays(hand)
        assert split.count == ref_fewest(tuple(hand)), str(hand)
        check_split(hand, split)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=0, max_size=9, unique=True))
def test_agrees_with_exhaustive_search_hypothesis(cards: list) -> None:  # type: ignore[type-arg]
    hand = Cards(cards)
    split = fewest_plays(hand)
    assert split.count == ref_fewest(tuple(cards))
    check_split(hand, split)


def test_agrees_with_the_cpsat_model_on_bigger_hands() -> None:
    rng = random.Random(3)
    for size in (14, 14, 14, 14, 14, 18, 27):
        hand = Cards(_dense_hand(rng, size))
        split = fewest_plays(hand)
        check_split(hand, split)
        assert (split.count, "optimal") == fewest_plays_cpsat(hand, time_limit=60.0), str(hand)  # a loaded machine


def test_time_limit_gives_a_valid_feasible_split() -> None:
    hand = Cards.parse("AS 2S 8S 9S 10S KS AH 8H 9H 10H JH KH AD 2D 8D 10D JD QD KD AC 2C 8C JC QC KC RJ BJ")
    split = fewest_plays(hand, time_limit=0.0)
    assert split.status == "feasible"
    check_split(hand, split)
    best = fewest_plays(hand)
    assert best.status == "optimal" and best.count <= split.count


def test_plays_after() -> None:
    hand = Cards.parse("3S 4H 5D 6C 2S 2H RJ BJ 9S 9H KD")
    moves = [Combo.parse("3S 4H 5D"), Combo.parse("9S 9H"), Combo.parse("set:9S RJ BJ"), Combo.parse("KD")]
    counts, status = plays_after(hand, moves)
    assert status == "optimal"
    assert counts == tuple(fewest_plays(hand - m.cards).count for m in moves)


def test_bad_hand() -> None:
    with pytest.raises(TooManyCopiesError, match="2 copies of RJ"):
        fewest_plays(Cards.parse("RJ RJ 3S"))
