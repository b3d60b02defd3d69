"""Built-in players as opponents: the AEC env with opponents, the single-agent Gymnasium env and its vector."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from solver.extras import require

require("pettingzoo", "rl")
import numpy as np  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from solver.envs import aec_env  # noqa: E402
from solver.envs.single import gym_env, vector_env  # noqa: E402
from solver.errors import IllegalActionError  # noqa: E402

OPTIONS: dict[str, dict[str, Any]] = {
    "zsy": {"max_hands": 1},
    "contract": {"max_rounds": 1},
    "manipulation": {"max_hands": 1},
}


@pytest.mark.parametrize("game", ["zsy", "contract", "manipulation"])
def test_aec_env_with_opponents_passes_the_api_test_and_seats_only_agents(game: str) -> None:
    env = aec_env(game, seed=2, opponents=["solver", "greedy", "greedy"], legal_moves=True, **OPTIONS[game])
    assert env.possible_agents == ["player_0"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=40)
    env.reset(seed=4)
    steps = 0
    for agent in env.agent_iter(max_iter=3000):
        obs, _reward, done, cut, info = env.last()
        assert agent == "player_0"
        if done or cut:
            env.step(None)
            continue
        legal = list(np.flatnonzero(obs["action_mask"]))
        assert info["legal_moves"] == [env.turn.codec.name(i) for i in legal]
        assert env.turn.game.current_player() == 0
        env.step(int(legal[0]))
        steps += 1
    assert env.turn.game.is_terminal() and steps > 0
    seats = {a.player for a in env.turn.game.history if hasattr(a, "player")}
    assert seats >= {1, 2, 3}  # the built-in players moved in the game


def test_two_agents_and_bad_opponents() -> None:
    env = aec_env("zsy", seed=1, opponents=[None, "random", None, "greedy"], max_hands=1)
    assert env.possible_agents == ["player_0", "player_2"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env, num_cycles=30)
    with pytest.raises(IllegalActionError):
        aec_env("zsy", opponents=["random", "nobody", "random"])
    with pytest.raises(IllegalActionError):
        aec_env("zsy", opponents=["random", "random"])
    with pytest.raises(IllegalActionError):
        aec_env("zsy", opponents=["random"] * 4)


@pytest.mark.parametrize("game", ["zsy", "contract", "manipulation"])
def test_gym_env_plays_whole_games_against_built_in_players(game: str) -> None:
    # (Gymnasium's check_env steps random indexes of the space: most are illegal here, as masked)
    env = gym_env(game, ["greedy", "random", "random"], seat=1, **OPTIONS[game])
    rng = np.random.default_rng(0)
    total = 0.0
    for episode in range(2):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            assert info["legal_moves"] and (info["action_mask"] == obs["action_mask"]).all()
            assert env.observation_space.contains(obs)
            obs, reward, done, _cut, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            total += reward
        assert len(info["returns"]) == 4 and reward == info["returns"][1]
    with pytest.raises(IllegalActionError):
        env.step(0)


def test_vector_env_steps_several_games() -> None:
    envs = vector_env("zsy", 3, ["random", "random", "random"], max_hands=1)
    obs, _info = envs.reset(seed=5)
    assert obs["observation"].shape == (3, 1346) and obs["action_mask"].shape == (3, 170)
    ended = 0
    for _ in range(600):
        actions = [int(np.flatnonzero(m)[0]) if m.any() else 0 for m in obs["action_mask"]]
        obs, _reward, term, _cut, _info = envs.step(np.array(actions))
        ended += int(term.sum())
    assert ended >= 3
    envs.close()
