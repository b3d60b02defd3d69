"""The engine's lead tables (``LeadTable``) against the generators they replace.

A table keeps every lead of a hand; replies are a filter of it, and so are
the leads of the hand less the cards played. Both must give exactly what
:func:`legal_moves` gives, in the same order (the order of
``legal_actions()`` is part of the engine's pinned behaviour).
"""

from __future__ import annotations

import random

import pytest

from solver.cards import Cards
from solver.engine import new_game
from solver.rules import ZsyRules
from solver.zsy import Combo, legal_moves
from solver.zsy.game import ZPass, ZPlay, ZsyGame
from solver.zsy.moves import LeadTable

DECK = list(ZsyRules().deck)


def same(a: Combo) -> Combo:
    return a


def random_to_beat(rng: random.Random, hand: Cards) -> Combo:
    """A combination to beat: a random lead of a random other hand (every shape turns up)."""
    other = Cards(rng.sample([c for c in DECK if c not in hand], rng.randint(1, 12)))
    return rng.choice(legal_moves(other))


@pytest.mark.parametrize("bombs", [False, True])
def test_table_matches_the_generators_on_random_hands(bombs: bool) -> None:
    """Leads, replies and the leads of smaller hands, in order, on 150 random hands."""
    rules = ZsyRules(bombs=bombs)
    rng = random.Random(14 + bombs)
    replies_seen = 0
    for _ in range(150):
        hand = Cards(rng.sample(DECK, rng.randint(1, 14)))
        table = LeadTable.build(hand, same)
        assert table.items == legal_moves(hand, None, rules)
        while hand:
            for _ in range(3):
                to_beat = random_to_beat(rng, hand)
                replies = table.replies(to_beat, rules)
                assert tuple(replies) == legal_moves(hand, to_beat, rules), (str(hand), str(to_beat))
                replies_seen += len(replies)
            played = rng.choice(table.items).cards
            hand = hand - played
            table = table.without(played, hand)
            assert table.hand == hand
            assert table.items == legal_moves(hand, None, rules), str(hand)
    assert replies_seen > 500  # the checks above compared real replies, not only empty lists


def generated_actions(game: ZsyGame) -> list[object]:
    """The legal actions of the trick phase as the generators alone make them."""
    p = game.to_move
    out: list[object] = [ZPlay(p, m) for m in legal_moves(game.hands[p], game.trick, game.rules)]
    if game.trick is not None:
        out.append(ZPass(p))
    return out


@pytest.mark.parametrize(
    ("rules", "players", "seed"),
    [(None, 4, 1), ({"bombs": True}, 4, 2), ({"preset": "pairs"}, 4, 3), ({"bombs": True}, 5, 4)],
)
def test_engine_actions_match_the_generators_in_random_games(
    rules: dict[str, object] | None, players: int, seed: int
) -> None:
    """Over whole random games (tribute included), every trick-phase action list is the generators' list."""
    game = new_game("zsy", rules, players, seed, {"max_hands": 5})
    assert isinstance(game, ZsyGame)
    rng = random.Random(seed)
    checked = tables = 0
    while not game.is_terminal():
        actions = game.legal_actions()
        if game.phase == "trick":
            assert actions == generated_actions(game)
            checked += 1
            tables += game._table(game.to_move) is not None
        game.apply(rng.choice(actions))
    assert checked > 400 and tables > checked // 2  # the tables served most of the positions
