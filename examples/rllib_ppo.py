"""Train a masked PPO policy with RLlib on a local Ray; print its win share against ``random`` players.

    pip install -e '.[rl,rllib]'        # Ray's RLlib and torch (CPU)
    nice python examples/rllib_ppo.py --game zsy --iterations 10 --eval-games 100

The agent sits in seat 0 of :func:`solver.envs.single.gym_env` against three
``random`` players (``--opponents``), one hand a game. RLlib's PPO (the new
API stack: an ``RLModule`` and ``EnvRunner``) trains it on a local Ray with
``num_cpus=2`` (no cluster; sampling and learning in this process:
``num_env_runners=0``, ``num_learners=0``). Its module is RLlib's default PPO
network whose logits outside the env's action mask are minus infinity
(:class:`MaskedPPOModule`), so it never picks an illegal index. Before
training and after every ``--eval-every`` iterations it plays ``--eval-games``
games against three ``random`` players (its most likely legal index each
step) and prints one row: iteration, env steps sampled, seconds, win share.
``--json`` prints the rows as JSON lines. A seat's fair share is 0.25.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import gymnasium
import numpy as np

from solver.envs.single import gym_env, masked_argmax

OPTIONS: dict[str, dict[str, Any]] = {
    "zsy": {"max_hands": 1},
    "contract": {"max_rounds": 1},
    "manipulation": {"max_hands": 1},
}


class RllibObs(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The env's observation as RLlib's masked modules read it: ``observations`` (features scaled by
    ``sign(x) log(1 + |x|)``, float32) and ``action_mask`` (float32)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        n_obs = env.observation_space["observation"].shape
        n_act = env.observation_space["action_mask"].shape
        self.observation_space = gymnasium.spaces.Dict(
            {
                "observations": gymnasium.spaces.Box(-np.inf, np.inf, n_obs, np.float32),
                "action_mask": gymnasium.spaces.Box(0.0, 1.0, n_act, np.float32),
            }
        )

    def observation(self, observation: dict[str, Any]) -> dict[str, Any]:
        x = observation["observation"]
        return {
            "observations": (np.sign(x) * np.log1p(np.abs(x))).astype(np.float32),
            "action_mask": observation["action_mask"].astype(np.float32),
        }


def make_env(config: dict[str, Any]) -> RllibObs:
    """The env RLlib samples from (``config``: ``game``, ``opponents``, ``seed``)."""
    game = config.get("game", "zsy")
    opponents = config.get("opponents", ["random"] * 3)
    return RllibObs(gym_env(game, opponents, seed=config.get("seed", 0), **OPTIONS[game]))


def masked_module() -> Any:
    """:class:`MaskedPPOModule`, defined on first use (RLlib is imported only here and in :func:`train`)."""
    from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
    from ray.rllib.core.columns import Columns
    from ray.rllib.utils.torch_utils import FLOAT_MIN
    from torch import clamp, log

    def split(batch: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
        obs = batch[Columns.OBS]
        if not isinstance(obs, dict):  # already split (the learner's value pass)
            return batch.get("action_mask"), batch
        rest = dict(batch)
        rest[Columns.OBS] = obs["observations"]
        rest["action_mask"] = obs["action_mask"]
        return obs["action_mask"], rest

    class MaskedPPOModule(DefaultPPOTorchRLModule):
        """RLlib's default PPO module over ``observations``; logits outside ``action_mask`` are minus infinity."""

        def __init__(self, *, observation_space: Any = None, **kwargs: Any) -> None:
            self.observation_space_with_mask = observation_space
            super().__init__(observation_space=observation_space["observations"], **kwargs)  # type: ignore[no-untyped-call]

        def setup(self) -> None:
            super().setup()  # type: ignore[no-untyped-call]  # the networks are built for the observations alone
            self.observation_space = self.observation_space_with_mask

        def _masked(self, out: dict[str, Any], mask: Any) -> dict[str, Any]:
            out[Columns.ACTION_DIST_INPUTS] = out[Columns.ACTION_DIST_INPUTS] + clamp(log(mask), min=FLOAT_MIN)
            return out

        def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, rest = split(batch)
            return self._masked(super()._forward(rest, **kwargs), mask)

        def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
            mask, rest = split(batch)
            return self._masked(super()._forward_train(rest, **kwargs), mask)

        def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> Any:
            if embeddings is None:
                batch = split(batch)[1]
            return super().compute_values(batch, embeddings)

    return MaskedPPOModule


def build_module(env: Any) -> Any:
    """A fresh (untrained) :class:`MaskedPPOModule` for ``env``'s spaces, as RLlib builds it."""
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    spec = RLModuleSpec(
        module_class=masked_module(),
        observation_space=env.observation_space,
        action_space=env.action_space,
        model_config={},
    )
    return spec.build()


def _batch(obs: dict[str, Any]) -> dict[str, Any]:
    import torch
    from ray.rllib.core.columns import Columns

    return {Columns.OBS: {key: torch.as_tensor(v)[None] for key, v in obs.items()}}


def logits(module: Any, obs: dict[str, Any]) -> Any:
    """The module's action logits (masked) for one observation of :class:`RllibObs`, as a numpy array."""
    import torch
    from ray.rllib.core.columns import Columns

    with torch.no_grad():
        return module.forward_inference(_batch(obs))[Columns.ACTION_DIST_INPUTS][0].numpy()


def value(module: Any, obs: dict[str, Any]) -> float:
    """The module's value estimate for one observation of :class:`RllibObs`."""
    import torch

    with torch.no_grad():
        return float(module.compute_values(_batch(obs))[0])


def evaluate(module: Any, game: str, opponents: str, games: int, seed: int) -> float:
    """The module's win share in ``games`` games against three ``opponents`` (its most likely legal index)."""
    env = make_env({"game": game, "opponents": [opponents] * 3, "seed": seed})
    total = 0.0
    for k in range(games):
        obs, _ = env.reset(seed=seed + k)
        done, reward = False, 0.0
        while not done:
            obs, r, done, _, _ = env.step(masked_argmax(logits(module, obs), obs["action_mask"]))
            reward = float(r)
        total += reward
    return total / games


def train(
    game: str = "zsy",
    iterations: int = 10,
    batch: int = 4000,
    eval_every: int = 5,
    eval_games: int = 100,
    opponents: str = "random",
    seed: int = 0,
    lr: float = 3e-4,
    report: Any = None,
) -> list[dict[str, Any]]:
    """Train on a local Ray (``num_cpus=2``); the evaluation rows, each also passed to ``report`` as it is made."""
    import ray
    import torch
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.tune.registry import register_env

    torch.set_num_threads(1)  # two shared cores
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    try:
        register_env("shanghai", make_env)
        config = (
            PPOConfig()  # type: ignore[no-untyped-call]
            .environment("shanghai", env_config={"game": game, "opponents": [opponents] * 3, "seed": seed})
            .framework("torch")
            .env_runners(num_env_runners=0, rollout_fragment_length="auto")
            .learners(num_learners=0)
            .training(train_batch_size_per_learner=batch, minibatch_size=min(256, batch), num_epochs=4, lr=lr)
            .rl_module(rl_module_spec=RLModuleSpec(module_class=masked_module()))
            .debugging(seed=seed)
        )
        algo = config.build_algo()
        rows: list[dict[str, Any]] = []
        start, steps = time.perf_counter(), 0

        def row(iteration: int) -> dict[str, Any]:
            share = evaluate(algo.get_module(), game, "random", eval_games, 10**6)
            out = {
                "game": game,
                "iteration": iteration,
                "env_steps": steps,
                "seconds": round(time.perf_counter() - start, 1),
                "vs_random": share,
            }
            rows.append(out)
            if report is not None:
                report(out)
            return out

        row(0)
        for i in range(1, iterations + 1):
            result = algo.train()  # type: ignore[no-untyped-call]
            steps = int(result.get("env_runners", {}).get("num_env_steps_sampled_lifetime", steps + batch))
            if i % eval_every == 0 or i == iterations:
                row(i)
        algo.stop()  # type: ignore[no-untyped-call]
        return rows
    finally:
        ray.shutdown()


def _text(row: dict[str, Any]) -> str:
    return f"iteration {row['iteration']:3d}  {row['env_steps']:7d} env steps  {row['seconds']:7.1f} s  vs random {row['vs_random']:.2f}"


def main() -> None:
    """Parse the arguments, train and print the rows."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="zsy", choices=sorted(OPTIONS))
    ap.add_argument("--iterations", type=int, default=10, help="PPO training iterations")
    ap.add_argument("--batch", type=int, default=4000, help="env steps sampled an iteration")
    ap.add_argument("--eval-every", type=int, default=5, help="iterations between evaluations")
    ap.add_argument("--eval-games", type=int, default=100)
    ap.add_argument("--opponents", default="random", help="the training opponents")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    show = json.dumps if args.json else _text
    train(
        args.game,
        args.iterations,
        args.batch,
        args.eval_every,
        args.eval_games,
        args.opponents,
        args.seed,
        args.lr,
        report=lambda row: print(show(row), flush=True),
    )


if __name__ == "__main__":
    main()
