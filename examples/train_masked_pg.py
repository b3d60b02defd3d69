"""Train a masked policy-gradient agent (REINFORCE with a baseline) on the CPU; print its learning curve.

    pip install -e '.[rl,train]'       # the rl extra and torch (CPU)
    nice python examples/train_masked_pg.py --game zsy --minutes 4 --eval-every 1

The agent sits in seat 0 of :func:`solver.envs.single.gym_env` against three
``random`` players (the training opponents, ``--opponents``); every
``--eval-every`` minutes of training CPU time it plays ``--eval-games`` games
against three ``random`` and against three ``greedy`` players (its most
likely legal action each step) and prints one row: minutes of CPU, games
trained, its win share against each. ``--json`` prints the rows as JSON lines.
The policy is a small MLP over the observation whose logits outside the
action mask are set to minus infinity, so it only ever picks legal indexes.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numpy as np
import torch
from torch import nn

from solver.envs.single import gym_env

OPTIONS: dict[str, dict[str, Any]] = {
    "zsy": {"max_hands": 1},
    "contract": {"max_rounds": 1},
    "manipulation": {"max_hands": 1},
}


class Policy(nn.Module):
    """Observation -> logits over the action space (masked by the caller)."""

    def __init__(self, n_obs: int, n_actions: int, hidden: int = 128) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(n_obs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, n_actions)
        )

    def forward(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        logits = self.net(obs)
        return logits.masked_fill(mask == 0, -1e9)


def _tensors(obs: dict[str, Any]) -> tuple[torch.Tensor, torch.Tensor]:
    x = torch.as_tensor(np.sign(obs["observation"]) * np.log1p(np.abs(obs["observation"])), dtype=torch.float32)
    return x, torch.as_tensor(obs["action_mask"], dtype=torch.int8)


def episode(env: Any, policy: Policy, seed: int, greedy: bool) -> tuple[float, list[torch.Tensor], list[torch.Tensor]]:
    """One game: the agent's final reward, and the log-probabilities and entropies of its steps."""
    obs, _ = env.reset(seed=seed)
    logps: list[torch.Tensor] = []
    ents: list[torch.Tensor] = []
    done, reward = False, 0.0
    while not done:
        x, m = _tensors(obs)
        logits = policy(x, m)
        if greedy:
            with torch.no_grad():
                action = int(logits.argmax())
        else:
            dist = torch.distributions.Categorical(logits=logits)
            a = dist.sample()
            logps.append(dist.log_prob(a))
            ents.append(dist.entropy())
            action = int(a)
        obs, reward, done, _, _ = env.step(action)
    return float(reward), logps, ents


def evaluate(game: str, policy: Policy, opponents: str, games: int, seed: int) -> float:
    env = gym_env(game, [opponents] * 3, **OPTIONS[game])
    with torch.no_grad():
        return sum(episode(env, policy, seed + k, greedy=True)[0] for k in range(games)) / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="zsy", choices=sorted(OPTIONS))
    ap.add_argument("--minutes", type=float, default=4.0, help="training CPU minutes (evaluation not counted)")
    ap.add_argument("--eval-every", type=float, default=1.0)
    ap.add_argument("--eval-games", type=int, default=40)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    env = gym_env(args.game, [args.opponents] * 3, **OPTIONS[args.game])
    n_obs = env.observation_space["observation"].shape[0]
    policy = Policy(n_obs, int(env.action_space.n))
    opt = torch.optim.Adam(policy.parameters(), lr=args.lr)
    baseline, trained, cpu = 0.25, 0, 0.0
    rows = []

    def report() -> None:
        row = {
            "game": args.game,
            "cpu_minutes": round(cpu / 60, 2),
            "games": trained,
            "vs_random": evaluate(args.game, policy, "random", args.eval_games, 10**6),
            "vs_greedy": evaluate(args.game, policy, "greedy", args.eval_games, 2 * 10**6),
        }
        rows.append(row)
        print(
            json.dumps(row)
            if args.json
            else f"{row['cpu_minutes']:6.2f} min  {trained:6d} games  vs random {row['vs_random']:.2f}  vs greedy {row['vs_greedy']:.2f}",
            flush=True,
        )

    report()
    next_eval = args.eval_every * 60
    while cpu < args.minutes * 60:
        start = time.process_time()
        reward, logps, ents = episode(env, policy, args.seed * 10**7 + trained, greedy=False)
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        loss = -advantage * torch.stack(logps).sum() - 0.01 * torch.stack(ents).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        trained += 1
        cpu += time.process_time() - start
        if cpu >= next_eval:
            report()
            next_eval += args.eval_every * 60


if __name__ == "__main__":
    main()
