"""Zheng Shang You combinations: every rule-book example, the settled readings, notation, classify."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Cards
from solver.errors import ComboError, ShanghaiError, TooManyCopiesError
from solver.rules import ZsyRules
from solver.zsy import KINDS, Combo, beats, classify, combo_from_position
from tests.oracles.zsy_reference import ref_beats, ref_classify

DECK = list(ZsyRules().deck)


def combo(text: str) -> Combo:
    return Combo.parse(text)


def kinds(text: str) -> list[str]:
    return [c.kind for c in classify(Cards.parse(text))]


def key(c: Combo) -> tuple[str, int, int, int, bool, bool]:
    return (c.kind, c.copies, c.length, c.top, c.flush, c.pure)


# --- sets -----------------------------------------------------------------------------------


def test_sets_7_2_2_below_7_7_7_below_8_8_rj() -> None:
    low, mid, high = combo("7S 2H 2D"), combo("7S 7H 7D"), combo("8S 8H RJ")
    assert (low.kind, low.top, low.pure) == ("set", 7, False)
    assert beats(mid, low) and beats(high, mid) and beats(high, low)
    assert not beats(low, mid) and not beats(mid, high) and not beats(low, high)


def test_impure_sets_of_one_rank_are_equal() -> None:
    sets = [combo(t) for t in ("9S 2S 2H", "9S 2S RJ", "9S 9H 2S", "9S 9H BJ")]
    assert len({key(s) for s in sets}) == 1
    for a in sets:
        for b in sets:
            assert not beats(a, b)
    assert all(beats(combo("9S 9H 9D"), s) for s in sets)


def test_set_needs_a_natural_and_same_size() -> None:
    assert kinds("RJ BJ") == []
    assert kinds("2S 2H") == ["set"] and combo("2S 2H").top == 15 and combo("2S 2H").pure
    assert not beats(combo("8S 8H 8D"), combo("7S 7H"))
    assert kinds("7S 8S") == []
    assert kinds("7S 7H 7D 7C 2S 2H 2D 2C RJ BJ") == ["set"]  # the ten-card set


def test_settled_sets_of_twos_with_jokers_are_impure() -> None:
    assert not combo("2S RJ").pure and not combo("2S 2H BJ").pure
    assert beats(combo("2S 2H"), combo("2D RJ"))
    assert beats(combo("2S 2H 2D"), combo("2C RJ BJ"))
    assert beats(combo("2S 2H"), combo("AS AH")) and beats(combo("AS 2H"), combo("KS KH"))


def test_singles_in_zsy_order() -> None:
    order = ["3S", "4S", "10S", "JS", "QS", "KS", "AS", "2S", "BJ", "RJ"]
    for low, high in itertools.pairwise(order):
        assert beats(combo(high), combo(low)) and not beats(combo(low), combo(high))
    assert not beats(combo("7S"), combo("7H"))


# --- straights ------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["2S 3H 4D", "5S 6H 2D 8C", "KS AH 2D", "QS KH AD 2C"])
def test_twos_never_in_straights(text: str) -> None:
    assert "straight" not in kinds(text)


def test_no_wrap_and_limits() -> None:
    assert kinds("KS AH 3D") == [] and kinds("5S 6H") == []
    assert combo("3S 4H 5D 6C 7S 8H 9D 10C JS QH KD AC").length == 12


def test_flush_beats_mixed() -> None:
    flush, mixed = combo("3S 4S 5S"), combo("QS KH AC")
    assert flush.flush and not mixed.flush
    assert beats(flush, mixed) and not beats(mixed, flush)
    assert beats(combo("4S 5S 6S"), flush)


def test_joker_takes_the_suit_needed() -> None:
    hj = combo("6H RJ 8H")
    assert hj.flush and hj.top == 8 and not hj.pure
    assert beats(hj, combo("7C 8C 9D"))
    assert beats(combo("6D 7D 8D"), hj) and not beats(hj, combo("6D 7D 8D"))


def test_joker_at_an_end_takes_the_highest_value() -> None:
    assert combo("JS QH RJ").top == 13
    assert combo("KS AH RJ").top == 14  # the joker can only go below
    assert combo("straight:5S RJ BJ").top == 7
    assert combo("3S 5H RJ BJ").top == 6  # one joker fills 4, the other goes on top: 3-6


def test_same_length_only() -> None:
    assert not beats(combo("8S 9H 10D JC"), combo("3S 4H 5D"))


# --- parallel straights --------------------------------------------------------------------


@pytest.mark.parametrize("text", ["6S 6H 6D 7S 7H 7D", "7S 7H 8S 8H 8D 9S 9H", "7S 7H 2S 2H 9S 9H"])
def test_invalid_parallels(text: str) -> None:
    assert "parallel" not in kinds(text)


def test_parallel_rulebook_chain() -> None:
    low, pure, high = combo("5S 5H 6S 2C 7D RJ"), combo("5S 5H 6S 6H 7S 7H"), combo("6S RJ 7D 2C 8S 8H")
    assert (low.kind, low.copies, low.length, low.top, low.pure) == ("parallel", 2, 3, 7, False)
    assert beats(pure, low) and beats(high, pure) and beats(high, low)
    assert not beats(low, pure) and not beats(pure, high)
    assert combo("parallel:8S 8H 8D 9S 9H 9D 10S 10H 10D").copies == 3


def test_settled_parallel_wild_ranks_and_no_flush() -> None:
    assert combo("5S 5H 6S 6H 2C RJ").top == 7
    rj_bj = combo("5S 5H 6S 6H RJ BJ")
    assert rj_bj.kind == "parallel" and rj_bj.top == 7
    assert "parallel" not in kinds("5S 5H 6S 6H 2C 2D")
    assert not combo("5H 5D 6H 6D 7H 7D").flush  # two hearts straights in parallel: no flush class
    assert not beats(combo("5H 5C 6H 6C 7H 7C"), combo("5S 5D 6S 6D 7S 7D"))


def test_parallel_needs_same_copies_and_length() -> None:
    assert not beats(combo("8S 8H 8D 9S 9H 9D 10S 10H 10D"), combo("5S 5H 6S 6H 7S 7H"))
    assert not beats(combo("8S 8H 9S 9H 10S 10H JS JH"), combo("5S 5H 6S 6H 7S 7H"))


# --- declared kinds, bombs ------------------------------------------------------------------


def test_several_kinds_are_declared() -> None:
    assert kinds("5S RJ BJ") == ["set", "straight"]
    with pytest.raises(ComboError, match="ambiguous: set or straight"):
        combo("5S RJ BJ")
    as_set, as_straight = combo("set:5S RJ BJ"), combo("straight:5S RJ BJ")
    assert as_set.top == 5 and as_straight.top == 7
    assert not beats(as_set, as_straight) and not beats(as_straight, as_set)
    twelve = Cards.parse("5S 5H 6S 6H 7S 7H 2S 2H 2D 2C RJ BJ")
    assert [(c.copies, c.length) for c in classify(twelve)] == [(3, 4), (4, 3)]
    assert combo("parallel-4x3:" + str(twelve)).copies == 4


def test_bombs_option() -> None:
    bombs = ZsyRules(bombs=True)
    bomb, straight = combo("4S 4H 4D 4C"), combo("10S JS QS KS AS")
    assert not beats(bomb, straight)
    assert beats(bomb, straight, bombs) and beats(combo("4S 4H 2D RJ"), combo("BJ"), bombs)
    assert not beats(straight, bomb, bombs)
    assert beats(combo("5S 5H 5D 5C"), bomb, bombs) and not beats(bomb, combo("5S 5H 5D 5C"), bombs)
    assert not beats(combo("5S 5H 5D 5C 2S"), bomb, bombs)  # a five-card set is no bomb


# --- notation and errors --------------------------------------------------------------------


def test_notation_round_trip_and_repr() -> None:
    c = combo("set:7S 2H 2D")
    assert str(c) == "set:7S 2H 2D" and repr(c) == "Combo.parse('set:7S 2H 2D')"
    assert Combo.parse(str(c)) == c and eval(repr(c)) == c
    assert str(combo("RJ 6H 8H")) == "straight:6H 8H RJ"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=9, unique=True))
def test_classify_agrees_with_the_reference_and_round_trips(cards: list) -> None:  # type: ignore[type-arg]
    found = classify(Cards(cards))
    assert {key(c) for c in found} == ref_classify(tuple(cards))
    assert len({key(c) for c in found}) == len(found)
    for c in found:
        assert c.cards == Cards(cards) and c.size == len(cards)
        assert Combo.parse(str(c)) == c
        assert c.kind in KINDS


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=7, unique=True),
    st.lists(st.sampled_from(DECK), min_size=1, max_size=7, unique=True),
    st.booleans(),
)
def test_beats_agrees_with_the_reference(a: list, b: list, bombs: bool) -> None:  # type: ignore[type-arg]
    rules = ZsyRules(bombs=bombs)
    for x in classify(Cards(a)):
        for y in classify(Cards(b)):
            assert beats(x, y, rules) == ref_beats(key(x), key(y), bombs)
            assert not (beats(x, y, rules) and beats(y, x, rules))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("7S 8H", "7S 8H is not a legal combination"),
        ("set:5S 6S 7S", "5S 6S 7S is not a legal set"),
        ("pair:5S 5H", "unknown combination kind 'pair'"),
        ("parallel-2:5S 5H", "bad parallel shape"),
        ("RJ RJ", "2 copies of RJ"),
        ("5X", "malformed card"),
    ],
)
def test_parse_errors(text: str, message: str) -> None:
    with pytest.raises(ShanghaiError, match=message):
        combo(text)


def test_combo_from_position() -> None:
    assert combo_from_position(Cards.parse("5S RJ BJ"), "set").kind == "set"
    with pytest.raises(ComboError, match="give to_beat_kind"):
        combo_from_position(Cards.parse("5S RJ BJ"), None)
    with pytest.raises(ComboError, match="not a legal parallel"):
        combo_from_position(Cards.parse("5S RJ BJ"), "parallel")
    with pytest.raises(TooManyCopiesError):
        classify(Cards.parse("JK 5S"))
