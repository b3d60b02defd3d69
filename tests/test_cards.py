"""Cards and multisets: parsing, printing, exact round trips, deck limits."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import ALL_CARDS, Card, Cards, Joker, Rank, Suit, make_deck
from solver.errors import CardError, TooManyCopiesError
from tests.strategies import card_text, cards, multisets


@pytest.mark.parametrize(
    ("text", "code", "pretty"),
    [
        ("10H", "10H", "10♥"),
        ("TH", "10H", "10♥"),
        ("th", "10H", "10♥"),
        ("10♥", "10H", "10♥"),
        ("qs", "QS", "Q♠"),
        ("A♣", "AC", "A♣"),
        ("RJ", "RJ", "RJ"),
        ("bj", "BJ", "BJ"),
        ("JK", "JK", "JK"),
        (" 7d ", "7D", "7♦"),
    ],
)
def test_parse_spellings(text: str, code: str, pretty: str) -> None:
    card = Card.parse(text)
    assert str(card) == code
    assert card.pretty == pretty


@pytest.mark.parametrize("text", ["", "1H", "11S", "ZZ", "10X", "H10", "J", "RJK", "2", "♥"])
def test_malformed_cards_are_rejected(text: str) -> None:
    with pytest.raises(CardError, match="malformed card"):
        Card.parse(text)


def test_card_fields() -> None:
    assert Card.parse("KD") == Card(Rank.KING, Suit.DIAMONDS)
    assert Card.parse("RJ") == Card(None, None, Joker.RED)
    assert len(set(ALL_CARDS)) == 55
    with pytest.raises(CardError):
        Card(Rank.KING, None)


def test_every_code_names_its_card() -> None:
    """``code`` is looked up by index: each card's code parses back to it, every code is distinct."""
    assert all(Card.parse(c.code) == c for c in ALL_CARDS)
    assert all(Card(c.rank, c.suit, c.joker).code == c.code for c in ALL_CARDS)
    assert len({c.code for c in ALL_CARDS}) == 55
    assert [Card(r, Suit.CLUBS).code for r in (Rank.ACE, Rank.TEN, Rank.KING)] == ["AC", "10C", "KC"]


@given(cards)
def test_card_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card
    assert Card.parse(card.pretty) == card
    assert eval(repr(card)) == card


@given(st.data())
def test_every_spelling_parses_to_the_card(data: st.DataObject) -> None:
    card = data.draw(cards)
    assert Card.parse(data.draw(card_text(card))) == card


@given(multisets())
def test_multiset_round_trip(hand: Cards) -> None:
    assert Cards.parse(str(hand)) == hand
    assert Cards.parse(hand.pretty) == hand
    assert Cards.parse([c.code for c in hand]) == hand
    assert eval(repr(hand)) == hand
    assert len(hand) == len(list(hand))


@given(multisets(), multisets())
def test_multiset_arithmetic(a: Cards, b: Cards) -> None:
    both = a + b
    assert both - b == a
    assert a <= both and b <= both
    assert len(both) == len(a) + len(b)
    for card in set(both):
        assert both.count(card) == a.count(card) + b.count(card)


def test_multiset_is_a_multiset() -> None:
    hand = Cards.parse("7H 7H 8S")
    assert hand.count(Card.parse("7H")) == 2
    assert hand == Cards.parse("8S 7h 7♥")
    assert hash(hand) == hash(Cards.parse("8S 7H 7H"))
    with pytest.raises(CardError, match="not present"):
        hand - Cards.parse("9C")


def test_deck_contents() -> None:
    assert len(make_deck(1)) == 52
    assert len(make_deck(2)) == 104
    assert len(make_deck(4, {Joker.PLAIN: 6})) == 214
    assert make_deck(2).count(Card.parse("7H")) == 2
    with pytest.raises(CardError):
        make_deck(5)


def test_too_many_copies_names_the_card() -> None:
    with pytest.raises(TooManyCopiesError, match="3 copies of 7H"):
        Cards.parse("7H 7H 7H").check_against(make_deck(2))
    with pytest.raises(TooManyCopiesError, match="RJ"):
        Cards.parse("RJ").check_against(make_deck(2))
    Cards.parse("7H 7H").check_against(make_deck(2))
