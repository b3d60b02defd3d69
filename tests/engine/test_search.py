"""Search support: clone() is independent and exact, resample() keeps what a player has seen."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from typing import Any, cast

import pytest

from solver.cards import Cards
from solver.contract.game import ContractGame
from solver.engine import new_game
from solver.engine.base import Game
from solver.engine.players import RandomPlayer
from solver.engine.search import floor_sub

CASES = [
    ("zsy", {}, {"max_hands": 3}),
    ("zsy", {"preset": "pairs"}, {"max_hands": 2}),
    ("contract", {}, {"max_rounds": 2}),
    ("contract", {"preset": "poker_deck"}, {"max_rounds": 1}),
    ("manipulation", {}, {"max_hands": 1}),
    ("manipulation", {"preset": "rummikub"}, {"max_hands": 1}),
]


def _played(name: str, rules: dict[str, Any], options: dict[str, Any], seed: int, steps: int) -> Game:
    game = new_game(name, rules, 4, seed, **options)
    player = RandomPlayer(seed)
    for _ in range(steps):
        if game.is_terminal():
            break
        game.apply(player.choose(game))
    return game


def _finish(game: Game, seed: int, limit: int = 3000) -> list[str]:
    player = RandomPlayer(seed)
    for _ in range(limit):
        if game.is_terminal():
            break
        game.apply(player.choose(game))
    return [str(a) for a in game.history]


@pytest.mark.parametrize(("name", "rules", "options"), CASES)
def test_clone_is_independent_and_goes_on_alike(name: str, rules: dict[str, Any], options: dict[str, Any]) -> None:
    game = _played(name, rules, options, 11, 40)
    before = [game.observation(p) for p in range(4)], list(game.hands), len(game.history)
    copy = game.clone()
    rest_copy = _finish(copy, 5)
    assert ([game.observation(p) for p in range(4)], list(game.hands), len(game.history)) == before
    rest_game = _finish(game, 5)
    assert rest_copy == rest_game  # the same actions, deals and reshuffles: the generator was copied too
    assert copy.scores() == game.scores()


@pytest.mark.parametrize(("name", "rules", "options"), CASES)
def test_resample_keeps_what_the_player_has_seen(name: str, rules: dict[str, Any], options: dict[str, Any]) -> None:
    rng = random.Random(3)
    changed = 0
    for seed in range(4):
        game = _played(name, rules, options, seed, rng.randrange(5, 80))
        if game.is_terminal():
            continue
        for p in range(4):
            known = game.known_cards(p)
            for q in range(4):
                assert known[q] <= game.hands[q]  # what is known is true
            other = game.resample(p, rng)
            assert other.all_cards() == game.rules.deck
            assert other.hands[p] == game.hands[p]
            assert other.observation(p) == game.observation(p)
            for q in range(4):
                assert known[q] <= other.hands[q]
            changed += any(other.hands[q] != game.hands[q] for q in range(4) if q != p)
            if other.current_player() == p:
                assert [str(a) for a in other.legal_actions()] == [str(a) for a in game.legal_actions()]
        _finish(game.resample(game.current_player(), rng), seed, 400)  # every resampled state plays on legally
    assert changed > 0


def test_contract_known_cards_follow_takes_and_discards() -> None:
    seen = 0
    for seed in range(6):
        game = cast(ContractGame, new_game("contract", {}, 4, seed, max_rounds=1))
        player = RandomPlayer(seed)
        while not game.is_terminal() and len(game.history) < 300:
            action = player.choose(game)
            taken = game.pile[-1] if str(action) in ("take", "call") else None
            who = action.player
            before = game.known_cards((who + 1) % 4)[who]
            game.apply(action)
            if game.round > 1:
                break
            after = game.known_cards((who + 1) % 4)[who]
            if taken is not None:
                seen += 1
                assert after == before + Cards([taken])
            assert after <= game.hands[who]
    assert seen > 0


def _zsy_endgame() -> Game:
    """A Zheng Shang You hand near its end: the observer holds 3 cards, the others 2, 1 and 1."""
    game = new_game("zsy", {}, 4, 1)
    deck = list(game.rules.deck)
    hands = [Cards(deck[0:3]), Cards(deck[3:5]), Cards(deck[5:6]), Cards(deck[6:7])]
    game.hands = hands
    game.played = Cards(deck[7:])  # type: ignore[attr-defined]
    return game


def test_resample_distribution_matches_exact_counting() -> None:
    game = _zsy_endgame()
    pool = [c for q in (1, 2, 3) for c in game.hands[q]]
    exact: Counter[tuple[Cards, ...]] = Counter()
    for perm in itertools.permutations(pool):
        exact[(Cards(perm[0:2]), Cards(perm[2:3]), Cards(perm[3:4]))] += 1
    total = sum(exact.values())
    assert len(exact) == 12
    rng = random.Random(7)
    n = 6000
    seen: Counter[tuple[Cards, ...]] = Counter()
    for _ in range(n):
        other = game.resample(0, rng)
        seen[(other.hands[1], other.hands[2], other.hands[3])] += 1
    assert set(seen) == set(exact)
    chi2 = sum((seen[k] - n * v / total) ** 2 / (n * v / total) for k, v in exact.items())
    assert chi2 < 31.26  # chi-square, 11 degrees of freedom, p = 0.001


def test_resample_marginals_with_known_cards_match_exact_counting() -> None:
    # a Contract round in which some player took a discard: the taken card stays, the rest is dealt anew
    for seed in range(20):
        game = new_game("contract", {}, 4, seed, max_rounds=1)
        player = RandomPlayer(seed)
        while not game.is_terminal() and not any(game.known_cards(0)[1:]):
            game.apply(player.choose(game))
        if not game.is_terminal():
            break
    known = game.known_cards(0)
    q = next(k for k in (1, 2, 3) if known[k])
    card = next(iter(known[q]))
    pool = Cards(game._hidden())
    for k in (1, 2, 3):
        pool = pool + (game.hands[k] - known[k])
    need = len(game.hands[q]) - len(known[q])
    expected = known[q].count(card) + need * pool.count(card) / len(pool)  # hypergeometric mean
    rng = random.Random(5)
    n = 3000
    mean = sum(game.resample(0, rng).hands[q].count(card) for _ in range(n)) / n
    sd = (need * pool.count(card) / len(pool)) ** 0.5 + 1e-9
    assert abs(mean - expected) < 4 * sd / n**0.5 + 1e-9
    assert mean >= known[q].count(card)


def test_floor_sub() -> None:
    assert floor_sub(Cards.parse("5S 5S"), Cards.parse("5S 5S 5S")) == Cards()
