"""How long ``resample_from_infostate`` takes on the OpenSpiel games (docs/envs.md's table).

Run from the repository root (the ``openspiel`` extra)::

    python -m benchmarks.resample_times "python_shanghai_zsy(hands=2)" "python_shanghai_contract(turn_limit=60)"

Per game: how often a resample dealt cards anew, and its median, 95th
percentile and slowest times over random positions of every depth, and how
many resamples the exact sampler drew and how many the chain
(:mod:`solver.envs.openspiel_resample`).
"""

from __future__ import annotations

import math
import random
import sys

import solver.envs.openspiel  # noqa: F401  (registers the games)


def measure(names: list[str], states: int = 40) -> None:
    """Print, per game, how often a resample dealt cards anew, its median, 95th percentile and
    slowest times over ``states`` random positions of every depth (docs/envs.md)."""
    import statistics
    import time

    import pyspiel

    from solver.envs.openspiel_resample import COUNTS as counts  # resamples drawn exactly / by the chain

    for name in names:
        game = pyspiel.load_game(name)
        rng = random.Random(1)
        times: list[float] = []
        depths: list[int] = []
        anew = later = 0
        for _ in range(states):
            state = game.new_initial_state()
            for _ in range(rng.choice((60, 120, 250, 500, 1000, 2000))):  # random steps, chance ones included
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal() or state.is_chance_node():
                continue
            assert state.turn is not None
            later += state.turn.game._epoch() > 1
            depths.append(len(state.history()))
            start = time.perf_counter()
            new = state.resample_from_infostate(state.current_player(), rng.random)
            times.append(time.perf_counter() - start)
            anew += new.history() != state.history()
        times.sort()
        p95 = times[min(len(times) - 1, math.ceil(0.95 * len(times)) - 1)]
        print(
            f"| `{name}` | {len(times)} ({later} in a later hand), {min(depths)}-{max(depths)} steps | {anew} "
            f"| {statistics.median(times) * 1000:.0f} ms | {p95 * 1000:.0f} ms | {times[-1] * 1000:.0f} ms "
            f"| {counts['exact']} / {counts['chain']} |"
        )
        counts.clear()


if __name__ == "__main__":
    measure(sys.argv[1:] or ["python_shanghai_zsy(hands=2)", "python_shanghai_contract(turn_limit=60)"])
