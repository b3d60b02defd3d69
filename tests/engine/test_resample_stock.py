"""resample() keeps a reshuffled Contract stock public: its cards came from the discard pile in
everyone's view, so a resampled stock holds only those cards (less the observer's own draws)."""

from __future__ import annotations

import random
from typing import Any

from solver.cards import Cards
from solver.engine import new_game
from solver.engine.players import RandomPlayer
from solver.engine.search import floor_sub


def _reshuffled_positions(count: int) -> list[Any]:
    """Seeded Contract positions after a reshuffle with cards still in the stock and draws from it
    by at least two players (so hidden cards of the reshuffled pile sit in several hands)."""
    found: list[Any] = []
    for seed in range(200):
        game: Any = new_game("contract", None, 4, seed, max_rounds=1)
        player = RandomPlayer(seed)
        while not game.is_terminal():
            game.apply(player.choose(game))
            if game.reshuffled_cards is not None and game.stock and len({q for q, _ in game.drawn_since}) >= 2:
                found.append(game)
                break
        if len(found) == count:
            return found
    raise AssertionError(f"only {len(found)} seeded games reshuffled")


def test_a_resampled_stock_holds_only_the_reshuffled_cards() -> None:
    # 16 positions x 4 observers x 5 resamples: every resampled stock is made of the reshuffled pile's
    # cards less the observer's own draws from it; the observer's hand, every hand's size, the
    # stock's size and the game's cards are kept; and the hidden cards are really dealt anew
    moved = 0
    for game in _reshuffled_positions(16):
        for p in range(4):
            mine = Cards(c for q, c in game.drawn_since if q == p)
            source = floor_sub(game.reshuffled_cards, mine)
            assert Cards(game.stock) <= source  # the engine's own stock: the claim holds for the real deal
            for k in range(5):
                new = game.resample(p, random.Random(k))
                assert Cards(new.stock) <= source, (p, k)
                assert new.hands[p] is game.hands[p]
                assert [len(h) for h in new.hands] == [len(h) for h in game.hands]
                assert len(new.stock) == len(game.stock) and new.all_cards() == game.all_cards()
                moved += any(new.hands[q] != game.hands[q] for q in range(4) if q != p)
    assert moved > 200  # of 320: the opponents' hidden cards are resampled, not kept
