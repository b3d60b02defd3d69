"""The PettingZoo env's random rollout: seconds per 2,000 steps, each with the observation and mask an agent sees.

    python -m benchmarks.bench_env_steps              # 2,000 steps a game, median of 5 runs
    python -m benchmarks.bench_env_steps --steps 500 --runs 3

One process, one core; CPU time of the process (the machine may be shared). A step is ``env.last()`` (the observation and the
mask), a random legal index from the mask, ``env.step``; games are reset
(next seed) when they end. The action choice uses its own seeded generator,
so runs are the same sequence of steps.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from typing import Any

from solver.envs import aec_env

GAMES: tuple[tuple[str, dict[str, int]], ...] = (
    ("zsy", {}),
    ("contract", {"max_rounds": 2}),
    ("manipulation", {"max_hands": 2}),
)


def rollout(game: str, options: dict[str, Any], steps: int, seed: int) -> float:
    """CPU seconds of this process for ``steps`` env steps of random play (observation and mask included):
    CPU time, not wall time, so other processes on a shared machine change it less."""
    env = aec_env(game, seed=seed, **options)
    env.reset(seed=seed)
    rng = random.Random(seed)
    start = time.process_time()
    for _ in range(steps):
        obs, _, done, cut, _ = env.last()
        if done or cut:
            env.reset()
            continue
        legal = obs["action_mask"].nonzero()[0]
        env.step(int(legal[rng.randrange(len(legal))]))
    return time.process_time() - start


def main() -> None:
    """Print a line per game: the median seconds per run and the steps per second."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"# {platform.processor() or platform.machine()}, Python {platform.python_version()}, one core")
    for game, options in GAMES:
        rollout(game, options, 50, args.seed)  # warm-up: imports and caches
        times = [rollout(game, options, args.steps, args.seed) for _ in range(args.runs)]
        med = statistics.median(times)
        print(
            f"{game:13} {args.steps} steps: median {med:.3f} CPU s ({args.steps / med:,.0f} steps/s) of {args.runs} runs"
        )


if __name__ == "__main__":
    main()
