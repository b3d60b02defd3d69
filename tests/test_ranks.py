"""The shared rank rules: positions, indexes, the ace's end of a run, wild caps."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from solver.cards import Card, Rank
from solver.ranks import ace_high, card_index, natural_card, position_range, position_rank, positions_of, wild_cap


def test_positions_and_indexes_round_trip() -> None:
    for ace in ("low", "high", "both"):
        lo, hi = position_range(ace)
        for rank in Rank:
            for pos in positions_of(rank, ace):
                assert lo <= pos <= hi
                assert position_rank(pos) == rank
                for suit in range(4):
                    card = natural_card(card_index(suit, pos))
                    assert card.rank == rank and card == Card(rank, card.suit)


@given(st.integers(2, 13), st.integers(1, 13))
def test_ace_takes_the_end_of_a_natural_run(start: int, length: int) -> None:
    """A run of naturals next to the ace: the ace is high after a king, low before a two."""
    top = min(13, start + length - 1)
    others = list(range(start, top + 1))
    if top == 13 and start > 2:
        assert ace_high("both", others)  # ... Q K A
    if start == 2 and top < 13:
        assert not ace_high("both", others)  # A 2 3 ...
    assert ace_high("high", others) and not ace_high("low", others)


def test_ace_rule_examples() -> None:
    assert ace_high("both", [12, 13]) and ace_high("both", [11])
    assert not ace_high("both", [2, 3]) and not ace_high("both", [4])
    assert not ace_high("both", range(2, 13))  # A..Q is the low run
    assert not ace_high("both", [])  # no other rank: low


def test_wild_caps() -> None:
    assert [wild_cap("fewer", n) for n in (3, 4, 5)] == [1, 1, 2]
    assert [wild_cap("half", n) for n in (3, 4, 5)] == [1, 2, 2]
    assert [wild_cap("any", n) for n in (3, 4, 5)] == [2, 3, 4]
