"""The Manipulation engine's per-position memos (issue 35): an answer is kept only while its position stands.

``can_play`` keeps its last answer per player and count while the table, the hand and ``opened`` are
the very same; ``verify`` accepts a listed draw or pass without asking again. A hand or table set
by hand (a puzzle, a test) is a new position: the memos must not answer it from the old one.
"""

from __future__ import annotations

import pytest

from solver.cards import Card, Cards
from solver.errors import IllegalActionError
from solver.manipulation.game import ManipulationGame, MDraw, MPass
from solver.melds import parse_table
from solver.rules import ManipulationRules


def _game(hand: str, table: str = "", stock: str = "AD") -> ManipulationGame:
    game = ManipulationGame(ManipulationRules(), 3, seed=0)
    game.hands = [Cards.parse(hand), Cards.parse("2C"), Cards.parse("3D")]
    game.table = parse_table(table) if table else ()
    game.stock = [Card.parse(c) for c in stock.split()]
    game.to_move = 0
    game.opened = [True, True, True]
    return game


def test_can_play_follows_a_hand_set_by_hand() -> None:
    game = _game("8H KC", table="5H 6H 7H")
    assert game.can_play() and game.can_play(1)
    game.hands[0] = Cards.parse("KC QD")  # nothing fits: a new hand object, a new position
    assert not game.can_play()
    game.hands[0] = Cards.parse("8H 9H KC")
    assert game.can_play(2) and not game.can_play(3)


def test_can_play_follows_a_table_and_opened_set_by_hand() -> None:
    game = _game("8H KC", table="5H 6H 7H")
    assert game.can_play()
    game.opened[0] = False  # the same table and hand, not opened: a first play needs a meld of the hand
    assert not game.can_play()
    game.opened[0] = True
    assert game.can_play()
    game.table = parse_table("2S 3S 4S")
    assert not game.can_play()


def test_a_listed_draw_is_accepted_and_an_unlisted_one_refused() -> None:
    game = _game("KC QD", table="5H 6H 7H")
    assert MDraw(0) in game.legal_actions()
    game.apply(MDraw(0))
    game = _game("8H KC", table="5H 6H 7H")
    assert MDraw(0) not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="must play"):
        game.apply(MDraw(0))
    with pytest.raises(IllegalActionError, match="must play"):
        game.apply(MPass(0))
    game = _game("KC QD", table="5H 6H 7H", stock="")
    assert game.legal_actions() == [MPass(0)]
    game.apply(MPass(0))
