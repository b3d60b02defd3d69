"""The engine's speed shortcuts (issue 14) against the answers they stand for.

Each shortcut must give the answer of the slower question it skips, on
positions from random games under several rule sets (jokers, one to three
decks, each ace option): a card drawn in vain (the engine then asks nothing
else), one card's playable bound, the validator shown only the melds a play
changes.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver.cards import Card, Cards
from solver.manipulation.bound import card_playable, playable_bound
from solver.manipulation.game import ManipulationGame, MDraw, MPlay, _changed
from solver.manipulation.play import Playable
from solver.melds import parse_table, validate_rearrangement
from solver.rules import ManipulationRules

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
