"""The games registered with OpenSpiel: its random-simulation test, and its ISMCTS bot playing a game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.envs.needs import need

pyspiel = need("pyspiel", "openspiel")
import solver.envs.openspiel  # noqa: E402,F401

GAMES = [
    "python_shanghai_zsy",
    "python_shanghai_zsy(preset=pairs)",
    "python_shanghai_contract(turn_limit=40)",
    "python_shanghai_contract(preset=poker_deck,turn_limit=40,players=3)",
    "python_shanghai_manipulation(preset=norwegian)",
]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def test_manipulation_default_rules_load() -> None:
    game = pyspiel.load_game("python_shanghai_manipulation")
    state = game.new_initial_state()
    state.apply_action(5)
    assert state.current_player() == 1
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_shanghai_contract(turn_limit=40)")
    state = game.new_initial_state()
    state.apply_action(11)
    rng = random.Random(1)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    sampler: Any = rng.random
    other = state.resample_from_infostate(p, sampler)
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.legal_actions() == state.legal_actions()
    assert any(other.information_state_string(q) != state.information_state_string(q) for q in range(4) if q != p)


def test_ismcts_bot_plays_a_game() -> None:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_shanghai_zsy(players=4)")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2, random_state=rng)
    state = game.new_initial_state()
    state.apply_action(2)
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            moves += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(int(action))
    assert moves > 0
    assert abs(sum(state.returns()) - 1.0) < 1e-9
