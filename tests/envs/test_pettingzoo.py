"""The PettingZoo environments: PettingZoo's own API and seed tests for every game and preset,
and games through the env that equal the engine's."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

from solver.engine import new_game
from solver.engine.players import RandomPlayer
from solver.envs.actions import Turn
from solver.extras import require

require("pettingzoo", "rl")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from solver.envs import aec_env  # noqa: E402

PRESETS = (
    [("zsy", p) for p in ("individual", "pairs", "teams6")]
    + [("contract", p) for p in ("finnish", "us", "poker_deck", "jokers_and_twos", "no_wild_swap", "last_round_normal")]
    + [("manipulation", p) for p in ("german", "norwegian", "rummikub")]
)


def _make(game: str, preset: str, seed: int = 1) -> Any:
    players = 6 if preset == "teams6" else 4
    options = {"max_rounds": 1} if game == "contract" else {"max_hands": 1}
    return aec_env(game, rules={"preset": preset}, players=players, seed=seed, **options)


@pytest.mark.parametrize(("game", "preset"), PRESETS)
def test_api_and_seed(game: str, preset: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo warns about Dict observations, as for its own card games
        api_test(_make(game, preset), num_cycles=60)
        seed_test(lambda: _make(game, preset), num_cycles=20)


def _random_env_game(game: str, seed: int, limit: int) -> tuple[list[str], list[float]]:
    env = aec_env(game, seed=seed, **({"max_rounds": 1} if game == "contract" else {"max_hands": 1}))
    env.reset(seed=seed)
    rng = random.Random(seed)
    total = dict.fromkeys(env.agents, 0.0)
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, done, cut, _ = env.last()
        total[agent] += reward
        if done or cut or step >= limit:
            break
        env.step(rng.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
    return [str(a) for a in env.unwrapped.turn.game.history], list(total.values())


@pytest.mark.parametrize(
    ("game", "seed", "options"),
    [
        ("zsy", 9, {"max_hands": 2}),
        ("contract", 9, {"max_rounds": 1}),
        ("contract", 1, {"max_rounds": 2, "turn_limit": 120}),
        ("manipulation", 4, {"max_hands": 1}),
    ],
)
def test_env_game_equals_engine_game(game: str, seed: int, options: dict[str, int]) -> None:
    # the engine's random player's choices, encoded and stepped through the env, give the same game
    env = aec_env(game, seed=seed, **options)
    env.reset(seed=seed)
    ref = new_game(game, None, 4, seed, options=options)
    player = RandomPlayer(seed)
    codec = env.unwrapped.turn.codec
    rewards = dict.fromkeys(env.agents, 0.0)
    while not ref.is_terminal() and len(ref.history) < 2000:
        action = player.choose(ref)
        for index in codec.encode(ref, action):
            assert env.agent_selection == f"player_{ref.current_player()}"
            obs, *_ = env.last()
            assert obs["action_mask"][index] == 1
            env.step(index)
        ref.apply(action)
        assert [str(a) for a in env.unwrapped.turn.game.history] == [str(a) for a in ref.history]
    assert ref.is_terminal()
    for agent in env.agents:
        rewards[agent] = env._cumulative_rewards[agent]
    assert list(rewards.values()) == ref.returns()
    assert all(env.terminations.values())


def test_masks_are_exact_for_zsy() -> None:
    # every masked-in index can be applied; every masked-out one is refused
    turn = Turn(new_game("zsy", None, 4, 2, max_hands=1))
    rng = random.Random(2)
    for _ in range(60):
        legal = set(turn.legal())
        for index in rng.sample(range(turn.codec.size), 20):
            copy = turn.clone()
            if index in legal:
                copy.apply(index)
            else:
                with pytest.raises(Exception, match="not legal"):
                    copy.apply(index)
        turn.apply(rng.choice(sorted(legal)))


def test_rewards_per_hand() -> None:
    env = aec_env("zsy", seed=3, reward="hand", max_hands=2)
    env.reset(seed=3)
    rng = random.Random(3)
    got = dict.fromkeys(env.agents, 0.0)
    for agent in env.agent_iter(5000):
        obs, reward, done, cut, _ = env.last()
        got[agent] += reward
        if done or cut:
            env.step(None)
            continue
        env.step(rng.choice([i for i, m in enumerate(obs["action_mask"]) if m]))
    assert list(got.values()) == [float(s) for s in env.unwrapped.turn.game.scores()]


def test_random_env_games_are_deterministic() -> None:
    assert _random_env_game("zsy", 5, 400) == _random_env_game("zsy", 5, 400)


@pytest.mark.parametrize("game", ["zsy", "contract", "manipulation"])
def test_observation_array_equals_feature_list(game: str) -> None:
    # the env keeps each agent's observation up to date part by part; it must hold exactly
    # features(), as float32, for every agent (the one to act and the others) along a seeded game
    # of the engine's random players (their lay-downs, lay-offs and plays change the table melds)
    import numpy as np

    from solver.envs.features import features

    options: dict[str, Any] = {"max_rounds": 2} if game == "contract" else {"max_hands": 2}
    env = aec_env(game, seed=3, **options)
    env.reset(seed=3)
    ref = new_game(game, None, 4, 3, **options)
    player = RandomPlayer(3)
    tables = set()
    step = 0
    while not ref.is_terminal() and len(ref.history) < 1500:
        for index in env.turn.codec.encode(ref, player.choose(ref)):
            # every agent every few steps (the buffers then catch up on several changes at once)
            for agent in env.agents if step % 3 == 0 else [env.agent_selection]:
                obs = env.observe(agent)["observation"]
                want = np.asarray(features(env.turn, env.possible_agents.index(agent)), dtype=np.float32)
                assert obs.dtype == np.float32
                assert np.array_equal(obs, want)
            mask = env.observe(env.agent_selection)["action_mask"]
            assert sorted(np.flatnonzero(mask).tolist()) == env.turn.legal()
            env.step(index)
            step += 1
        ref = env.turn.game
        tables.add(str(getattr(ref, "table", ())))
    assert game == "zsy" or len(tables) > 3
