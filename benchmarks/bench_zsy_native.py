"""Zheng Shang You's compiled core against the pure path, in one process: CPU time, medians, both paths in the same run.

    python -m benchmarks.bench_zsy_native

Prints two tables (docs/native.md): each ported public function on fixed seeded
positions, and the whole loops (the engine's random self-play as
bench_engine's ``_engine_rate``, the PettingZoo env as bench_env_steps'
``rollout``, four solver players) next to RLCard's gin-rummy env (the ``bench``
extra), each the median of three runs. CPU time (``time.process_time``), so
that other processes on a shared machine change it less.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from benchmarks.bench_env_steps import rollout
from solver import native
from solver.cards import Cards
from solver.engine import new_game
from solver.rules import ZsyRules
from solver.zsy import fewest_plays, legal_moves, plays_after
from solver.zsy.endgame import winning_moves
from solver.zsy.moves import LeadTable

DECK = list(ZsyRules().deck)


def median_seconds(f: Callable[[], Any], reps: int) -> float:
    """The median CPU seconds of ``reps`` calls of ``f``."""
    times = []
    for _ in range(reps):
        start = time.process_time()
        f()
        times.append(time.process_time() - start)
    return statistics.median(times)


def functions_table() -> None:
    """Each ported public function, pure against native, on the same seeded positions."""
    rng = random.Random(1)
    hands14 = [Cards(rng.sample(DECK, 14)) for _ in range(200)]
    hands20 = [Cards(rng.sample(DECK, 20)) for _ in range(40)]
    ends = []
    for _ in range(40):
        cards = rng.sample(DECK, 12)
        ends.append((Cards(cards[:6]), Cards(cards[6:])))
    leads14 = [list(legal_moves(h)) for h in hands14]
    rows: list[tuple[str, Callable[[], Any]]] = [
        ("legal_moves, leads of 200 hands of 14 cards", lambda: [legal_moves(h) for h in hands14]),
        ("LeadTable.build, 200 hands of 14", lambda: [LeadTable.build(h, lambda m: m) for h in hands14]),
        ("legal_moves, leads of 40 hands of 20", lambda: [legal_moves(h) for h in hands20]),
        ("fewest_plays, 200 hands of 14", lambda: [fewest_plays(h) for h in hands14]),
        ("fewest_plays, 40 hands of 20", lambda: [fewest_plays(h) for h in hands20]),
        ("plays_after every lead, 200 hands of 14", lambda: [plays_after(h, m) for h, m in zip(hands14, leads14)]),
        ("winning_moves, 40 endgames of 6 against 6", lambda: [winning_moves(a, b, None) for a, b in ends]),
    ]
    print("| function (all calls of the row) | pure | native | speed-up |")
    print("|---|---|---|---|")
    for name, f in rows:
        f()  # warm-up
        with native.pure():
            pure = median_seconds(f, 3)
        fast = median_seconds(f, 5)
        print(f"| {name} | {pure * 1000:.1f} ms | {fast * 1000:.1f} ms | {pure / fast:.1f}x |")


def engine_rate(seconds: float) -> float:
    """Random legal actions per CPU second over whole games (bench_engine's loop)."""
    rng = random.Random(1)
    actions = games = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = new_game("zsy", None, 4, games)
        while not game.is_terminal():
            game.apply(rng.choice(game.legal_actions()))
            actions += 1
        games += 1
    return actions / (time.process_time() - start)


def gin_rate(seconds: float) -> float:
    """RLCard's gin-rummy env: random legal steps per CPU second (bench_engine's loop)."""
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": 1})
    rng = random.Random(1)
    actions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
            actions += 1
    return actions / (time.process_time() - start)


def solver_rate(games: int) -> float:
    """Games per CPU second of four solver players, one hand each."""
    from solver.engine.selfplay import play_one

    start = time.process_time()
    for i in range(games):
        play_one("zsy", {}, ["solver"] * 4, 1000 + i, {"max_hands": 1})
    return games / (time.process_time() - start)


def loops_table(runs: int = 3) -> None:
    """The engine, the env and the solver players, pure against native, with gin in the same runs."""
    gin: list[float] = []
    loops: dict[str, tuple[list[float], list[float]]] = {"engine": ([], []), "env": ([], []), "solver": ([], [])}
    rollout("zsy", {}, 50, 1)  # warm-up
    for _ in range(runs):
        gin.append(gin_rate(2.0))
        for path in ("pure", "native"):
            side = 0 if path == "pure" else 1
            with native.pure() if path == "pure" else _Nothing():
                loops["engine"][side].append(engine_rate(2.0))
                loops["env"][side].append(2000 / rollout("zsy", {}, 2000, 1))
                loops["solver"][side].append(solver_rate(6))
    g = statistics.median(gin)
    print(f"\nRLCard gin-rummy env: {g:,.0f} steps/s (median of {runs} runs)")
    print("| whole loop | pure | native |")
    print("|---|---|---|")
    for name, label in (
        ("engine", "engine random self-play, actions/s"),
        ("env", "PettingZoo env, steps/s"),
        ("solver", "four solver players, one hand, games/s"),
    ):
        pure, fast = (statistics.median(x) for x in loops[name])
        if name == "solver":
            print(f"| {label} | {pure:.1f} | {fast:.1f} ({fast / pure:.1f}x) |")
        else:
            print(f"| {label} | {pure:,.0f} ({pure / g:.2f}x gin) | {fast:,.0f} ({fast / g:.2f}x gin) |")


class _Nothing:
    """A context that does nothing (the native side)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


def main() -> None:
    """Print both tables."""
    if native.core("zsy") is None:
        print("the compiled core solver.native._zsy is not built: nothing to compare")
        return
    functions_table()
    loops_table()


if __name__ == "__main__":
    main()
