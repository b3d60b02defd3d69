"""Compatibility (issue 36): the OpenSpiel game objects pickle, and Gymnasium's ``check_env`` passes on the
single-agent env through its masked wrapper."""

from __future__ import annotations

import pickle
import random
import warnings

import pytest

from solver.extras import require

pyspiel = require("pyspiel", "openspiel")
gymnasium = require("gymnasium", "rl")
import solver.envs.openspiel  # noqa: E402,F401
from solver.envs.single import gym_env, masked  # noqa: E402
from solver.errors import IllegalActionError  # noqa: E402

NAMES = [
    "python_shanghai_zsy",
    "python_shanghai_zsy(preset=teams6)",
    "python_shanghai_contract(preset=us,turn_limit=40)",
    "python_shanghai_manipulation(preset=norwegian)",
]


@pytest.mark.parametrize("text", NAMES)
def test_game_objects_pickle(text: str) -> None:
    # as OpenSpiel's own Python games do: the copy has the same parameters and plays the same game
    game = pyspiel.load_game(text)
    copy = pickle.loads(pickle.dumps(game))
    assert type(copy) is type(game) and copy.get_parameters() == game.get_parameters()
    assert copy.information_state_tensor_size() == game.information_state_tensor_size()
    rng = random.Random(text)
    state, other = game.new_initial_state(), copy.new_initial_state()
    for _ in range(150):
        if state.is_terminal():
            break
        if state.is_chance_node():
            action = rng.choice([a for a, _ in state.chance_outcomes()])
        else:
            assert other.legal_actions() == state.legal_actions()
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        other.apply_action(action)
    assert other.history() == state.history()
    assert other.information_state_string(0) == state.information_state_string(0)


@pytest.mark.parametrize(
    ("game", "options"), [("zsy", {}), ("contract", {"max_rounds": 1}), ("manipulation", {"max_hands": 1})]
)
def test_gymnasium_check_env_passes_with_the_masked_wrapper(game: str, options: dict[str, int]) -> None:
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on a wrapped env and on render modes without a spec
        check_env(masked(gym_env(game, ["random"] * 3, **options)))
        with pytest.raises(IllegalActionError):  # the bare env refuses check_env's sampled illegal indexes
            check_env(gym_env(game, ["random"] * 3, **options))


def test_the_masked_wrapper_plays_legal_indexes_as_they_are() -> None:
    env = masked(gym_env("zsy", ["random"] * 3))
    obs, _ = env.reset(seed=4)
    bare = gym_env("zsy", ["random"] * 3)
    bare_obs, _ = bare.reset(seed=4)
    rng = random.Random(0)
    for _ in range(40):
        legal = obs["action_mask"].nonzero()[0]
        assert env.action_space.sample() in legal
        action = int(rng.choice(legal))
        obs, _, done, _, _ = env.step(action)
        bare_obs, _, bare_done, _, _ = bare.step(action)
        assert (obs["observation"] == bare_obs["observation"]).all() and done == bare_done
        if done:
            break
    # an illegal index stands for a legal one (the k-th, k the index modulo their count)
    legal = obs["action_mask"].nonzero()[0]
    illegal = next(i for i in range(len(obs["action_mask"])) if not obs["action_mask"][i])
    obs, *_ = env.step(illegal)
    bare_obs, *_ = bare.step(int(legal[illegal % len(legal)]))
    assert (obs["observation"] == bare_obs["observation"]).all()
