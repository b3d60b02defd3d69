"""The engine's speed shortcuts (issue 14) against the answers they stand for.

Each shortcut must give the answer of the slower question it skips, on
positions from random games under several rule sets (jokers, one to three
decks, each ace option): a card drawn in vain (the engine then asks nothing
else), one card's playable bound, the validator shown only the melds a play
changes; and the dynamic program's answers (its tables, not only its counts)
as the program gave them before it was rewritten for speed.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Card, Cards
from solver.manipulation.bound import card_playable, playable_bound
from solver.manipulation.game import ManipulationGame, MDraw, MPlay, _changed
from solver.manipulation.natural import natural_play
from solver.manipulation.play import Playable
from solver.manipulation.simple import _hand_melds, _may_meld, hand_melds
from solver.melds import parse_table, validate_rearrangement
from solver.rules import ManipulationRules
from tests.strategies import multisets

RULE_SETS: dict[str, dict[str, Any]] = {
    "german": {},
    "norwegian": {"preset": "norwegian"},
    "one deck, ace high": {"decks": 1, "ace": "high", "must_play": "one"},
    "ace both": {"ace": "both"},
    "three decks": {"decks": 3},
    "jokers": {"jokers": 2},
    "rummikub": {"preset": "rummikub"},
}


def on_table(game: ManipulationGame) -> Cards:
    return Cards(c for m in game.table for c in m.cards)


def random_games(rules: dict[str, Any], seeds: range, max_hands: int = 2) -> Any:
    """Every position (before its action is chosen) of seeded random games."""
    for seed in seeds:
        game = ManipulationGame(ManipulationRules.from_dict(rules), 4, seed, max_hands=max_hands)
        rng = random.Random(seed)
        while not game.is_terminal():
            yield game
            game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_a_card_drawn_in_vain_leaves_the_player_unable_to_play(name: str) -> None:
    """Where the engine answers "cannot play" from the drawn card alone, the solver's question
    (bound, greedy play, dynamic program, CP-SAT) answers the same; and it does answer often."""
    shortcut = draws = 0
    for game in random_games(RULE_SETS[name], range(3)):
        p = game.to_move
        if game.phase != "drawn" or not game.opened[p]:
            continue
        draws += 1
        if game._drew_in_vain(p):
            shortcut += 1
            fresh = Playable(game.table, game.hands[p], game.rules, time_limit=30)
            assert not fresh.at_least(1), (name, [str(m) for m in game.table], str(game.hands[p]))
            assert not any(isinstance(a, MPlay) for a in game.legal_actions())
    if RULE_SETS[name].get("must_play") != "never" and name != "rummikub":
        assert shortcut >= 20 and draws > shortcut, (shortcut, draws)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_one_cards_bound_is_the_bound_of_the_whole_hand(name: str) -> None:
    rules = ManipulationRules.from_dict(RULE_SETS[name])
    checked = 0
    for game in random_games(RULE_SETS[name], range(2), max_hands=1):
        table = on_table(game)
        for hand in game.hands:
            bound = playable_bound(table, hand, rules)
            for card in hand.distinct():
                if card.is_joker:
                    continue
                assert card_playable(table, hand, card, rules) == (card in bound)
                checked += 1
    assert checked >= 500


def test_card_playable_takes_a_natural_hand_card() -> None:
    rules = ManipulationRules()
    with pytest.raises(ValueError, match="not a natural card in the hand"):
        card_playable(Cards(), Cards.parse("5H"), Card.parse("6H"), rules)


@pytest.mark.parametrize("name", ["german", "jokers", "three decks"])
def test_listed_plays_pass_the_whole_validator(name: str) -> None:
    """Listed plays are checked on the melds they change only; the validator on the whole
    tables agrees (same cards played, no error)."""
    rules = ManipulationRules.from_dict(RULE_SETS[name])
    plays = 0
    for game in random_games(RULE_SETS[name], range(2), max_hands=1):
        for action in game.legal_actions():
            if isinstance(action, MPlay):
                played = validate_rearrangement(game.table, game.hands[action.player], action.table, rules.meld_spec)
                assert len(played) == game.cards_played(action.table) >= 1
                plays += 1
    assert plays >= 50


def test_changed_melds_keep_multiplicity() -> None:
    a, b, c = parse_table("5H 6H 7H | 9S 9H 9D | 2C 3C 4C")
    assert _changed((a, b, c), (a, c)) == ([b], [])
    assert _changed((a, a), (a,)) == ([a], [])
    assert _changed((a,), (a, a)) == ([], [a])  # the same meld object twice is still checked once more


def test_a_play_repeating_a_meld_object_is_refused() -> None:
    """A table that repeats an old meld object (cards invented) fails even though that object
    is an old, valid meld."""
    game = ManipulationGame(ManipulationRules(), 3, 0)
    game.table = parse_table("5H 6H 7H")
    game.hands[0] = Cards.parse("5H 6H 8H KC")
    game.to_move = 0
    game.clear_caches()
    assert not game.is_legal(MPlay(0, (game.table[0], game.table[0])))
    game.hands[0] = Cards.parse("5H 6H 7H KC")  # now the second 5H 6H 7H comes from the hand
    game.clear_caches()
    assert game.is_legal(MPlay(0, (game.table[0], game.table[0])))
    assert not any(isinstance(a, MDraw) for a in game.legal_actions())


# --- the dynamic program's own answers, pinned ---------------------------------------------------

PROGRAM_RULES: list[dict[str, Any]] = [
    {},
    {"preset": "norwegian"},
    {"decks": 1, "ace": "high", "must_play": "one"},
    {"decks": 3},
]
PROGRAM_HASH = "3f38549e315878a4"  # computed on the program before issue 14's rewrite (commit 48ef848)


def test_the_program_finds_the_same_tables_as_before() -> None:
    """The engine lists the program's own table, so its path is pinned, not only its card count: the
    int state, the per-stage option look-up and the single build of the stages keep every answer
    (played cards, table, giving up past the budget) on positions of seeded random games."""
    digest = hashlib.sha256()
    answers = {"none": 0, "played": 0, "nothing": 0}
    for n, (data, seed) in enumerate((d, s) for d in PROGRAM_RULES for s in (30, 31)):
        rules = ManipulationRules.from_dict(data)
        game = ManipulationGame(rules, 4, seed, max_hands=1)
        rng = random.Random(n)
        while not game.is_terminal():
            hand = game.hands[game.to_move]
            for budget in (20_000, 2_000):
                found = natural_play(game.table, hand, rules, budget=budget)
                answers["none" if found is None else "played" if found.played else "nothing"] += 1
                text = "none" if found is None else str(found.played) + "|" + " | ".join(map(str, found.table))
                digest.update(text.encode() + b"\n")
            game.apply(rng.choice(game.legal_actions()))
    assert min(answers.values()) >= 5, answers  # every kind of answer is covered
    assert digest.hexdigest()[:16] == PROGRAM_HASH


# --- a hand that makes no meld ----------------------------------------------------------------------


@settings(max_examples=400, deadline=None)
@given(st.data(), st.sampled_from(["low", "high", "both"]), st.integers(0, 2))
def test_a_hand_makes_a_meld_exactly_when_the_melds_are_listed(data: st.DataObject, ace: str, jokers: int) -> None:
    """The count check that skips listing a hand's melds says "none" exactly when the listing finds
    none (three suits of a rank; three rank positions in a row, the ace where ``ace`` puts it)."""
    rules = ManipulationRules(ace=ace, jokers=jokers)  # type: ignore[arg-type]
    hand = data.draw(multisets(deck=rules.deck, max_size=16))
    listed = tuple(_hand_melds(hand, rules))
    assert _may_meld(hand.counts, ace) == bool(listed)
    assert hand_melds(hand, rules) == listed


@pytest.mark.parametrize(
    ("ace", "text", "melds"),
    [
        ("low", "QS KS AS", False),
        ("high", "QS KS AS", True),
        ("both", "QS KS AS", True),
        ("both", "AS 2S 3S", True),
        ("high", "AS 2S 3S", False),
        ("low", "5H 5D 5C", True),
        ("low", "5H 5H 5C", False),
        ("low", "4H 5H 7H 8H", False),
    ],
)
def test_a_hand_makes_a_meld_at_the_edges(ace: str, text: str, melds: bool) -> None:
    """The ace's ends and two copies of one suit (not a set), checked by hand."""
    assert _may_meld(Cards.parse(text).counts, ace) == melds
