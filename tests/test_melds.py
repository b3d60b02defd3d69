"""The independent validator against every meld example of ../shared/rules/."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from solver.cards import Card, Cards, Rank, Suit
from solver.errors import MeldError
from solver.melds import Meld, meld_kind, meld_kinds, parse_table, resolve_roles, validate_rearrangement
from solver.rules import ContractRules, ManipulationRules

LOW = ManipulationRules(ace="low").meld_spec
HIGH = ManipulationRules(ace="high").meld_spec
BOTH = ManipulationRules(ace="both").meld_spec
JOKERS = ManipulationRules(jokers=2).meld_spec
CONTRACT = ContractRules(wild_limit="fewer").meld_spec  # the "us" limit: these tests are about it


def kinds(text: str, spec: object) -> tuple[str, ...]:
    return meld_kinds(Meld.parse(text), spec)  # type: ignore[arg-type]


# --- Manipulation Shanghai (manipulation.md) -------------------------------------


@pytest.mark.parametrize(
    ("meld", "valid"),
    [
        ("7H 7S 7D", True),  # set of 3, different suits
        ("7H 7S 7D 7C", True),  # set of 4
        ("7H 7H 7D", False),  # never two identical cards in a set
        ("7H 7S", False),  # too short
        ("3C 3H 3D", True),  # the Norwegian example set
    ],
)
def test_manipulation_sets(meld: str, valid: bool) -> None:
    assert ("set" in kinds(meld, LOW)) is valid


def test_manipulation_set_of_five_is_impossible_even_with_two_decks() -> None:
    assert kinds("7H 7S 7D 7C 7H", LOW) == ()


@pytest.mark.parametrize(
    ("meld", "spec", "valid"),
    [
        ("3H 4H 5H", LOW, True),
        ("3H 4H", LOW, False),  # runs are 3+
        ("3H 4H 6H", LOW, False),  # not consecutive
        ("3H 4S 5H", LOW, False),  # mixed suits
        ("AH 2H 3H", LOW, True),  # ace low
        ("QH KH AH", LOW, False),
        ("AH 2H 3H", HIGH, False),  # ace high
        ("QH KH AH", HIGH, True),
        ("AH KH QH", BOTH, True),  # the Norwegian example: A-K-Q of hearts
        ("AH 2H 3H", BOTH, True),
        ("KH AH 2H", BOTH, False),  # never wrap around
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", LOW, True),  # 13 cards
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", BOTH, True),
    ],
)
def test_manipulation_runs(meld: str, spec: object, valid: bool) -> None:
    assert ("run" in kinds(meld, spec)) is valid


def test_run_never_holds_a_rank_twice() -> None:
    full = "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"
    assert kinds(full + " AH", BOTH) == ()
    assert kinds("5H 6H 6H 7H", LOW) == ()


def test_manipulation_jokers_anywhere() -> None:
    assert kinds("5H JK 7H", JOKERS) == ("run",)
    assert kinds("5H JK JK", JOKERS) == ("set", "run")
    assert kinds("5H 5D JK", JOKERS) == ("set",)
    assert kinds("JK JK JK", JOKERS) == ()  # every meld needs a natural card
    assert kinds("5H JK 7H", LOW) == ()  # no jokers in this rule set: JK is not wild


def test_norwegian_six_of_spades() -> None:
    spec = ManipulationRules.preset("norwegian").meld_spec
    old = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
    new = parse_table("3H 4H 5H | 3C 4C 5C | 6H 6C 6S")
    assert validate_rearrangement(old, Cards.parse("6S KD"), new, spec) == Cards.parse("6S")


def test_rearrangement_rejects_lost_and_invented_cards() -> None:
    old = parse_table("3H 4H 5H 6H")
    with pytest.raises(MeldError, match="table cards lost: 6H"):
        validate_rearrangement(old, Cards.parse("6S"), parse_table("3H 4H 5H"), LOW)
    with pytest.raises(MeldError, match="cards invented"):
        validate_rearrangement(old, Cards.parse("6S"), parse_table("3H 4H 5H 6H 7H"), LOW)
    with pytest.raises(MeldError, match="invalid meld"):
        validate_rearrangement(old, Cards.parse("6S"), parse_table("3H 4H 5H | 6H 6S"), LOW)
    same = validate_rearrangement(old, Cards.parse("6S"), old, LOW)
    assert same == Cards()


# --- Contract Shanghai (contract.md) --------------------------------------------


@pytest.mark.parametrize(
    ("meld", "kind"),
    [
        ("5H 5S 5D", "set"),  # the source's 5-5-5
        ("5H 5H 5D", "set"),  # suits may repeat
        ("5H 5S 5D 5C 5H 5S", "set"),  # sets are 3 or more
        ("6S 7S 8S 9S", "run"),  # the source's spade 6-7-8-9
        ("6S 7S 8S 9S 10S", "run"),  # ...with the ten laid off
        ("10D 10H 2S", "set"),  # the source's wild swap example
        ("AC 2C 3C 4C", "run"),  # the 2C is a wild standing for the two of clubs
        ("2H 3H 4H 5H", "run"),  # red twos are ordinary
        ("JD QD KD AD", "run"),  # ace high
        ("AD 2D 3D 4D", "run"),  # ace low
    ],
)
def test_contract_valid_melds(meld: str, kind: str) -> None:
    assert meld_kind(Meld.parse(meld), CONTRACT) == kind


@pytest.mark.parametrize(
    "meld",
    [
        "5H 6H 7H",  # runs are 4+
        "5H 5S",  # sets are 3+
        "QD KD AD 2D",  # no wrap-around
        "KD AD 2S 3D",  # ...not even with a wild
        "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD",  # at most one ace
        "2S 2C 5H",  # wild_limit fewer: 2 wilds, 1 natural
        "2S 5H 5D 2C",  # 2 wilds, 2 naturals: not fewer
    ],
)
def test_contract_invalid_melds(meld: str) -> None:
    with pytest.raises(MeldError):
        meld_kind(Meld.parse(meld), CONTRACT)


@pytest.mark.parametrize(
    ("meld", "fewer", "half", "any_"),
    [
        ("5H 5D 2S", True, True, True),
        ("5H 5D 2S 2C", False, True, True),
        ("5H 2S 2C", False, False, True),
        ("5H 6H 2S 2C", False, True, True),
        ("5H 2C 2S JK", False, False, False),  # JK is not wild (nor natural in a set of 5s) by default
    ],
)
def test_wild_limits(meld: str, fewer: bool, half: bool, any_: bool) -> None:
    for limit, expect in (("fewer", fewer), ("half", half), ("any", any_)):
        spec = ContractRules(wild_limit=limit).meld_spec  # type: ignore[arg-type]
        assert bool(meld_kinds(Meld.parse(meld), spec)) is expect, limit


def test_black_two_is_never_natural() -> None:
    # 2S 2S 2C would be a set of twos if black twos were natural; they are wilds
    assert meld_kinds(Meld.parse("2S 2S 2C"), ContractRules(wild_limit="any").meld_spec) == ()
    assert meld_kinds(Meld.parse("2H 2D 2S"), CONTRACT) == ("set",)


def test_poker_deck_twos_are_ordinary() -> None:
    spec = ContractRules.preset("poker_deck").meld_spec
    assert meld_kind(Meld.parse("2S 2C 2S"), spec) == "set"
    assert meld_kind(Meld.parse("9H JK JH QH"), spec) == "run"
    with pytest.raises(MeldError):
        meld_kind(Meld.parse("9H 2S JH QH"), spec)
    both = ContractRules.preset("jokers_and_twos").meld_spec
    assert meld_kind(Meld.parse("9H 2S JH QH"), both) == "run"


def test_wild_roles() -> None:
    assert resolve_roles(Meld.parse("5H 6H 7H 2S=4H"), CONTRACT) == (
        "run",
        tuple(map(Card.parse, ["5H", "6H", "7H", "4H"])),
    )
    assert resolve_roles(Meld.parse("5H 6H 7H 2S"), CONTRACT)[1][-1] == Card(Rank.EIGHT, Suit.HEARTS)
    assert resolve_roles(Meld.parse("10D 10H 2S"), CONTRACT)[0] == "set"
    for impossible in ("5H 6H 7H 2S=9H", "5H 6H 7H 2S=8D", "10D 10H 2S=9S", "5H 6H 7H 8H=9H"):
        with pytest.raises(MeldError):
            meld_kind(Meld.parse(impossible), CONTRACT)


def test_meld_notation_round_trip() -> None:
    for text in ("5H 6H 7H 2S=8H", "10D 10H 2S", "AC 2C=2C 3C 4C"):
        assert str(Meld.parse(text)) == text
        assert Meld.parse(str(Meld.parse(text))) == Meld.parse(text)


# --- property: the validator agrees with a direct definition on natural runs -----


@given(
    st.sampled_from([Suit.HEARTS, Suit.CLUBS]),
    st.integers(1, 14),
    st.integers(1, 14),
    st.sampled_from(["low", "high", "both"]),
    st.randoms(use_true_random=False),
)
def test_natural_runs_match_definition(suit: Suit, start: int, length: int, ace: str, rnd: object) -> None:
    """A window of positions (14 = high ace) is a run iff the ace option allows its span."""
    positions = [p for p in range(start, start + length) if p <= 14]
    cards = [Card(Rank(1 if p == 14 else p), suit) for p in positions]
    rnd.shuffle(cards)  # type: ignore[attr-defined]
    ranks = [1 if p == 14 else p for p in positions]
    expect = False
    for ace_at in {"low": (1,), "high": (14,), "both": (1, 14)}[ace]:
        pos = sorted(ace_at if r == 1 else r for r in ranks)
        expect |= 3 <= len(pos) <= 13 and pos == list(range(pos[0], pos[0] + len(pos)))
    spec = ManipulationRules(ace=ace).meld_spec  # type: ignore[arg-type]
    assert ("run" in meld_kinds(Meld.of(cards), spec)) is expect
