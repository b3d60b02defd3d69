"""The clairvoyant measure of ``benchmarks.clairvoyant``: exact play-outs, never worse than the solver.

The play-outs are exact only if a cloned game has the same future as the
game itself (the stock's order, the hands) and the ``solver`` player is
deterministic; then the clairvoyant seat, which keeps the solver's choice
unless another candidate does better, never does worse than the same seat
played by ``solver`` on the same deal.
"""

from __future__ import annotations

from typing import Any

from benchmarks.clairvoyant import _candidates, one_game, play_out
from solver.cards import Cards
from solver.engine import new_game
from solver.engine.players import SolverPlayer
from solver.manipulation.game import MPlay


def _first_choice(seed: int, holdback: bool) -> tuple[Any, int, list[Any]]:
    """A seeded one-hand game played by solvers up to the clairvoyant seat's first decision with
    more than one candidate (or None), the seat, and the candidates."""
    seat = seed % 4
    game: Any = new_game("manipulation", None, 4, seed, max_hands=1)
    solver = SolverPlayer()
    while not game.is_terminal():
        if game.current_player() == seat:
            candidates = _candidates(game, holdback)
            if len(candidates) > 1:
                return game, seat, candidates
        game.apply(solver.choose(game))
    return None, seat, []


def test_a_play_out_is_the_game_itself_played_on() -> None:
    # each candidate's play-out (on a copy) ends as the game itself ends when that candidate is
    # played and everybody goes on as solver: the same cards left in every hand
    checked = 0
    for seed in range(100, 106):
        game, _, candidates = _first_choice(seed, holdback=False)
        if game is None:
            continue
        for action in candidates:
            predicted = play_out(game, action).scores()
            game_on: Any = new_game("manipulation", None, 4, seed, max_hands=1)
            for done in game.history:
                game_on.apply(done)
            game_on.apply(action)
            solver = SolverPlayer()
            while not game_on.is_terminal():
                game_on.apply(solver.choose(game_on))
            assert game_on.scores() == predicted, (seed, str(action))
            checked += 1
    assert checked >= 4


def test_the_clairvoyant_seat_never_does_worse_than_the_solver_on_the_same_deal() -> None:
    results = [one_game(seed, holdback=False) for seed in range(100, 104)]
    assert all(mine >= base for mine, base in results)


def test_hold_backs_are_the_best_play_without_one_of_its_cards() -> None:
    game, _, candidates = _first_choice(104, holdback=True)
    on_table = Cards(c for m in game.table for c in m.cards)
    played = [Cards(c for m in a.table for c in m.cards) - on_table for a in candidates if isinstance(a, MPlay)]
    most = len(played[0])  # the solver's choice: the most cards
    assert all(game.is_legal(a) for a in candidates)
    assert any(len(cards) == most - 1 and cards <= played[0] for cards in played[1:])
