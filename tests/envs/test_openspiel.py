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
    "python_shanghai_zsy(preset=teams6)",
    "python_shanghai_contract(turn_limit=40)",
    "python_shanghai_contract(preset=poker_deck,turn_limit=40,players=3)",
    "python_shanghai_manipulation(preset=norwegian)",
]


def _dealt(game: Any, seed: int) -> Any:
    """A state after the deal from ``seed`` (its four byte outcomes)."""
    state = game.new_initial_state()
    for byte in seed.to_bytes(4, "little"):
        assert state.is_chance_node()
        state.apply_action(byte)
    return state


@pytest.mark.parametrize("name", ["python_shanghai_zsy", "python_shanghai_contract", "python_shanghai_manipulation"])
def test_ten_thousand_deals_give_ten_thousand_first_hands(name: str) -> None:
    # the deal is 2^32 seeds, four chance nodes of 256 bytes: no first hand names its deal
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
    assert game.max_chance_outcomes() == 256
    rng = random.Random(name)
    hands = set()
    for _ in range(10_000 if name == "python_shanghai_zsy" else 2_000):
        hands.add(str(_dealt(game, rng.getrandbits(32)).turn.game.hands[0]))
    assert len(hands) == (10_000 if name == "python_shanghai_zsy" else 2_000)


@pytest.mark.parametrize("name", ["python_shanghai_zsy", "python_shanghai_contract", "python_shanghai_manipulation"])
def test_states_serialize_and_pickle_after_legal_actions(name: str) -> None:
    import pickle

    game = pyspiel.load_game(name)
    state = _dealt(game, 123_456_789)
    rng = random.Random(2)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    copy = pickle.loads(pickle.dumps(state.turn.game))  # a game ships to a worker once legal_actions() ran
    assert [str(a) for a in copy.legal_actions()] == [str(a) for a in state.turn.game.legal_actions()]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_manipulation_default_rules_load() -> None:
    game = pyspiel.load_game("python_shanghai_manipulation")
    state = _dealt(game, 5)
    assert state.current_player() == 1
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_shanghai_contract(turn_limit=40)")
    state = _dealt(game, 11)
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
    state = _dealt(game, 2)
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


def test_players_default_to_the_presets_count() -> None:
    assert pyspiel.load_game("python_shanghai_zsy(preset=teams6)").num_players() == 6
    assert pyspiel.load_game("python_shanghai_zsy").num_players() == 4
    assert pyspiel.load_game("python_shanghai_contract(players=3)").num_players() == 3
