"""Hypothesis strategies for cards, multisets and rule sets, shared by the tests."""

from __future__ import annotations

from hypothesis import strategies as st

from solver.cards import ALL_CARDS, NATURAL_CARDS, Card, Cards
from solver.rules import ContractRules, ManipulationRules

cards = st.sampled_from(ALL_CARDS)
natural_cards = st.sampled_from(NATURAL_CARDS)


@st.composite
def multisets(draw: st.DrawFn, deck: Cards | None = None, max_size: int = 20) -> Cards:
    """A multiset of cards, within ``deck`` when given."""
    if deck is None:
        return Cards(draw(st.lists(cards, max_size=max_size)))
    pool = list(deck)
    idx = draw(st.lists(st.integers(0, len(pool) - 1), unique=True, max_size=min(max_size, len(pool))))
    return Cards(pool[i] for i in idx)


def card_text(card: Card) -> st.SearchStrategy[str]:
    """Every accepted spelling of ``card`` (10/T, ASCII/unicode suits, any case)."""
    if card.is_joker:
        return st.sampled_from([card.code, card.code.lower()])
    assert card.rank is not None and card.suit is not None
    ranks = [card.rank.symbol] + (["T"] if card.rank == 10 else [])
    suits = [card.suit.value, card.suit.pretty]
    return st.builds(
        lambda r, s, low: (r + s).lower() if low else r + s,
        st.sampled_from(ranks),
        st.sampled_from(suits),
        st.booleans(),
    )


manipulation_rules = st.builds(
    ManipulationRules,
    decks=st.integers(1, 4),
    ace=st.sampled_from(["low", "high", "both"]),
    jokers=st.integers(0, 4),
)

contract_rules = (
    st.sampled_from(list(ContractRules.PRESETS))
    .map(ContractRules.preset)
    .flatmap(
        lambda r: st.builds(
            lambda wl, dsr: ContractRules.from_dict({**r.to_dict(), "wild_limit": wl, "distinct_set_ranks": dsr}),
            st.sampled_from(["fewer", "half", "any"]),
            st.booleans(),
        )
    )
)
