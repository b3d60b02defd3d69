"""The engine's speed-ups (issue 35) against the code they replaced: the very same answers.

Each hot function that was restructured for speed is compared with its
former body, kept here as the oracle, on positions of random games (1-4
decks, every ace option, jokers) and on drawn counts: ``playable_bound``
(the per-card capacities inlined) and ``natural_melds._old_first`` (the old
table's keys remembered per table). ``greedy_play`` has its own oracle in
``test_manipulation_canplay.py``; the whole engine's random games are pinned
action by action in ``tests/native/test_manipulation.py``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.manipulation.natural as natural
import solver.manipulation.natural_melds as natural_melds
import solver.manipulation.natural_states as natural_states
from solver.cards import ALL_CARDS, Cards
from solver.engine.players import RandomPlayer
from solver.manipulation.bound import _capacity, _counts_with_none, _joker_partner, playable_bound
from solver.manipulation.game import ManipulationGame, MPlay
from solver.melds import Meld
from solver.ranks import JOKER_INDEX, N_NATURAL
from solver.rules import ManipulationRules
from tests.strategies import manipulation_rules


def former_playable_bound(table: Cards, hand: Cards, rules: ManipulationRules) -> Cards:
    """``playable_bound`` as it was: ``_capacity`` card by card."""
    counts = _counts_with_none((table + hand).counts)
    tc, hc = table.counts, hand.counts
    out = [0] * len(hc)
    for card in hand.distinct():
        i = card.index
        if i < N_NATURAL:
            n = min(hc[i], _capacity(i, counts, rules) - tc[i])
            if n > 0:
                out[i] = n
    if hc[JOKER_INDEX] and any(counts[i] and _joker_partner(i, counts, rules) for i in range(N_NATURAL)):
        out[JOKER_INDEX] = hc[JOKER_INDEX]
    return Cards._make(tuple(out))


def former_old_first(old: Sequence[Meld], melds: Sequence[list[int]]) -> tuple[Meld, ...]:
    """``natural_melds._old_first`` as it was: the old table's keys worked out on every call."""
    waiting: dict[tuple[int, ...], list[int]] = {}
    for j, m in enumerate(melds):
        waiting.setdefault(tuple(sorted(m)), []).append(j)
    first: list[Meld] = []
    taken: set[int] = set()
    home: dict[int, int] = {}
    for k, meld in enumerate(old):
        indexes = [c.index for c in meld.cards]
        for i in indexes:
            if i not in home:
                home[i] = k
        js = waiting.get(tuple(sorted(indexes)))
        if js:
            taken.add(js.pop(0))
            first.append(meld)
    n = len(old)

    def order(m: list[int]) -> tuple[int, int, list[int]]:
        homes = [home.get(i, n) for i in m]
        low = min(homes)
        return low, -homes.count(low), m

    rest = sorted((m for j, m in enumerate(melds) if j not in taken), key=order)
    return (*first, *(Meld(tuple([ALL_CARDS[i] for i in m])) for m in rest))


def game_positions(rules: ManipulationRules, seed: int, moves: int) -> ManipulationGame:
    """A seeded random game part way."""
    game = ManipulationGame(rules, 4, seed, max_hands=1)
    players = [RandomPlayer(seed + p) for p in range(4)]
    for _ in range(moves):
        if game.is_terminal():
            break
        game.apply(players[game.current_player()].choose(game))
    return game


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    manipulation_rules.map(lambda r: ManipulationRules.from_dict({**r.to_dict(), "max_players": 8})),
    st.integers(0, 10_000),
    st.integers(0, 60),
)
def test_playable_bound_is_the_former_bound_on_game_positions(rules: ManipulationRules, seed: int, moves: int) -> None:
    """Every hand (and every hand grown by the stock's next cards) of a random game part way: the
    same bound card for card, copies included."""
    game = game_positions(rules, seed, moves)
    table = Cards(c for m in game.table for c in m.cards)
    for hand in [*game.hands, *(h + Cards(game.stock[-5:]) for h in game.hands)]:
        assert playable_bound(table, hand, rules) == former_playable_bound(table, hand, rules)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(("low", "high", "both")),
    st.integers(1, 4),
    st.integers(0, 4),
    st.lists(st.integers(0, N_NATURAL - 1), max_size=60),
    st.lists(st.integers(0, N_NATURAL), max_size=25),
)
def test_playable_bound_is_the_former_bound_on_drawn_counts(
    ace: Literal["low", "high", "both"], decks: int, jokers: int, table_cards: list[int], hand_cards: list[int]
) -> None:
    """Any counts within the deck (table and hand drawn freely, several copies, jokers): the same
    bound. Index 52 in ``hand_cards`` stands for a joker."""
    rules = ManipulationRules(ace=ace, decks=decks, jokers=jokers, max_players=8)
    tc = [0] * len(ALL_CARDS)
    hc = [0] * len(ALL_CARDS)
    for i in table_cards:
        if tc[i] < decks:
            tc[i] += 1
    for i in hand_cards:
        j = JOKER_INDEX if i == N_NATURAL else i
        if (j == JOKER_INDEX and hc[j] < jokers) or (j < N_NATURAL and tc[j] + hc[j] < decks):
            hc[j] += 1
    table, hand = Cards._make(tuple(tc)), Cards._make(tuple(hc))
    assert playable_bound(table, hand, rules) == former_playable_bound(table, hand, rules)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10_000), st.integers(5, 80), st.sampled_from(("german", "norwegian", "rummikub")))
def test_old_first_is_the_former_order(seed: int, moves: int, preset: str) -> None:
    """The new table's order from a play's melds, twice on one table (the second from the memo):
    the former order, meld for meld, the kept old melds the very same objects."""
    rules = ManipulationRules.preset(preset)
    game = game_positions(rules, seed, moves)
    old = game.table
    table = Cards(c for m in old for c in m.cards)
    rng = random.Random(seed)
    for hand in game.hands:
        for _ in range(2):
            bound = playable_bound(table, hand, rules)
            if any(table.counts[N_NATURAL:]) or any(bound.counts[N_NATURAL:]):
                continue
            try:
                found = natural._program(table.counts, bound.counts, rules.ace, natural.DP_BUDGET, 1)
            except natural_states._OutOfBudget:
                continue
            if found is None:
                continue
            melds = [list(m) for m in found[0]]
            rng.shuffle(melds)  # any order the program might give
            new = natural_melds._old_first(old, [list(m) for m in melds])
            former = former_old_first(old, melds)
            assert new == former
            assert all(a is b for a, b in zip(new, former) if any(b is m for m in old))


def test_a_meld_of_the_same_cards_is_one_shared_meld() -> None:
    """``natural_melds._meld_of``: the meld of those cards in that order (equal to a new one), the very
    same object on a second call, another for another order."""
    first = natural_melds._meld_of([3, 4, 5])
    assert first == Meld(tuple(ALL_CARDS[i] for i in (3, 4, 5)))
    assert natural_melds._meld_of([3, 4, 5]) is first
    assert natural_melds._meld_of([5, 4, 3]) == Meld(tuple(ALL_CARDS[i] for i in (5, 4, 3)))


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    manipulation_rules.map(lambda r: ManipulationRules.from_dict({**r.to_dict(), "max_players": 8})),
    st.integers(0, 10_000),
)
def test_a_play_takes_from_the_hand_what_the_new_table_adds(rules: ManipulationRules, seed: int) -> None:
    """A random game's plays: the hand loses, and the table's cards gain, exactly what the whole
    new table holds beyond the old one."""
    game = ManipulationGame(rules, 4, seed, max_hands=1)
    rng = random.Random(seed)
    plays = 0
    while not game.is_terminal():
        action = rng.choice(game.legal_actions())
        if isinstance(action, MPlay):
            p, old = game.to_move, Cards(c for m in game.table for c in m.cards)
            new = Cards(c for m in action.table for c in m.cards)
            hand = game.hands[p] - (new - old)
            game.apply(action)
            plays += 1
            if game.hand_number == 1 and not game.is_terminal():
                assert game.hands[p] == hand
                assert game._table_cards() == new
        else:
            game.apply(action)
    assert plays
