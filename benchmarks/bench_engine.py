"""Engine benchmark: games per second by player kind, actions per second against RLCard, env overhead, clone().

    python -m benchmarks.bench_engine            # the default sizes
    python -m benchmarks.bench_engine --games 50 # more games per row
    python -m benchmarks.bench_engine --ray      # also Ray self-play, 2 workers against 1

Tables: (1) games per second, below; (2) actions per second with random
players, one loop for all (apply a random legal action until the game
ends, games until ``--seconds`` pass), next to RLCard's gin rummy env
measured in the same run (the ``bench`` extra); targets: at least RLCard
in every game, twice it in Zheng Shang You and Contract Shanghai; (3) the
PettingZoo env's step overhead (the ``rl`` extra): the same seeded random
game through the env (its action indexes found beforehand, untimed; an
observation and a mask per step, as an agent sees it) against the raw
engine (a random player choosing, the engine applying); target at most 30% slower; (4)
``clone()`` of a mid-game state against ``copy.deepcopy``; target < 20 us;
(5) with ``--ray``: self-play games per second on a local Ray, 2 workers
against 1 (Ray's start not counted); target 1.7x; (6) env against env, like
for like (``--env-vs-env`` alone): our PettingZoo env of each game and
RLCard's envs for gin rummy and doudizhu, all stepped with random legal
actions (ours drawn from the action mask after reading ``env.last()``,
RLCard's from the state's ``legal_actions``: each env builds the next
observation and legal set every step), whole games, reset when one ends;
env steps per second of thread CPU time (steadier than the wall clock on a
shared machine), the median of ``--runs`` runs of ``--seconds / 2`` each,
the envs taking turns within each run so that a change in the machine's
load falls on all of them.

Rows: each game with four ``random`` players (the targets: Contract Shanghai
7 rounds >= 20 games/s, Manipulation Shanghai >= 20, Zheng Shang You one
hand >= 200), four ``greedy`` players for comparison in the same run, and a
full Contract Shanghai game with four ``solver`` players (target < 2 s).
One process, one core; medians of per-game times and games per second.
"""

from __future__ import annotations

import argparse
import copy
import platform
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from solver.engine import new_game
from solver.engine.players import RandomPlayer
from solver.engine.selfplay import play_one

ROWS: list[tuple[str, str, dict[str, Any], list[str], float, str]] = [
    ("zsy", "one hand", {"max_hands": 1}, ["random"] * 4, 200.0, ">= 200 games/s"),
    ("zsy", "one hand", {"max_hands": 1}, ["greedy"] * 4, 0.0, ""),
    ("manipulation", "one hand", {"max_hands": 1}, ["random"] * 4, 20.0, ">= 20 games/s"),
    ("manipulation", "one hand", {"max_hands": 1}, ["greedy"] * 4, 0.0, ""),
    ("contract", "7 rounds", {}, ["random"] * 4, 20.0, ">= 20 games/s"),
    ("contract", "7 rounds", {}, ["greedy"] * 4, 0.0, ""),
    ("contract", "7 rounds", {}, ["solver"] * 4, 0.5, "< 2 s per game"),
]


def main() -> None:
    """Run the rows and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per row (solver rows: a quarter)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per row of the actions/s table")
    parser.add_argument("--ray", action="store_true", help="also measure Ray self-play, 2 workers against 1")
    parser.add_argument("--only-new", action="store_true", help="skip the games/s table")
    parser.add_argument("--ray-only", action="store_true", help="only the Ray table")
    parser.add_argument("--env-only", action="store_true", help="only the env overhead table")
    parser.add_argument("--env-vs-env", action="store_true", help="only the env against env table (6)")
    parser.add_argument("--runs", type=int, default=5, help="runs of the env against env table (its median)")
    parser.add_argument(
        "--cpu",
        type=int,
        default=0,
        metavar="N",
        help="time the env table in thread CPU time, best of N passes a seed (steadier on a shared machine)",
    )
    args = parser.parse_args()
    console = Console(width=120)
    console.print("[dim]the machine is shared: compare ratios within one run, not absolute rates[/]")
    if args.ray_only:
        _ray_table(console)
        return
    if args.env_vs_env:
        _env_vs_env_table(console, args.seconds / 2, args.runs)
        return
    if args.env_only:
        for game in ("zsy", "contract", "manipulation"):  # every game's engine loaded, as in the whole run
            new_game(game, None, 4, 0).legal_actions()
        _env_table(console, args.cpu)
        return
    if not args.only_new:
        _games_table(console, args)
    _actions_table(console, args.seconds)
    _env_table(console, args.cpu)
    _clone_table(console)
    _env_vs_env_table(console, args.seconds / 2, args.runs)
    if args.ray:
        _ray_table(console)


def _games_table(console: Console, args: Any) -> None:
    table = Table(title=f"engine speed ({platform.processor() or platform.machine()}, 1 process)")
    for col in ("game", "unit", "players", "games", "median s/game", "games/s", "mean actions", "target", "met"):
        table.add_column(col, justify="left" if col in ("game", "unit", "players", "target") else "right")
    for game, unit, options, kinds, target, label in ROWS:
        n = max(2, args.games // 4) if kinds[0] == "solver" else args.games
        times: list[float] = []
        actions: list[int] = []
        start = time.perf_counter()
        for i in range(n):
            r = play_one(game, {}, kinds, args.seed + i, options)
            if r.error:
                console.print(f"[red]error:[/] {r.error}")
                continue
            times.append(r.seconds)
            actions.append(r.actions)
        wall = time.perf_counter() - start
        rate = n / wall
        median = statistics.median(times) if times else float("nan")
        if kinds[0] == "solver":
            met = "yes" if median < 2.0 else "no"
        elif target:
            met = "yes" if rate >= target else "no"
        else:
            met = ""
        table.add_row(
            game,
            unit,
            kinds[0],
            str(n),
            f"{median:.4f}",
            f"{rate:.1f}",
            f"{statistics.mean(actions):.0f}" if actions else "-",
            label,
            met,
        )
        console.print(f"[dim]{game} {kinds[0]}: {rate:.1f} games/s[/]")
    console.print(table)


def _engine_rate(game: str, seconds: float, clock: Callable[[], float] = time.perf_counter) -> tuple[float, int]:
    """Random legal actions per second (of ``clock``) over whole games, and games played."""
    rng = random.Random(1)
    actions = games = 0
    start = clock()
    while clock() - start < seconds:
        g = new_game(game, None, 4, games)
        while not g.is_terminal():
            g.apply(rng.choice(g.legal_actions()))
            actions += 1
        games += 1
    return actions / (clock() - start), games


def _rlcard_rate(seconds: float) -> tuple[float, int] | None:
    try:
        import rlcard
    except ImportError:
        return None
    env = rlcard.make("gin-rummy", config={"seed": 1})
    rng = random.Random(1)
    actions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            state, _ = env.step(rng.choice(list(state["legal_actions"].keys())))
            actions += 1
        games += 1
    return actions / (time.perf_counter() - start), games


def _actions_table(console: Console, seconds: float) -> None:
    ref = _rlcard_rate(seconds)
    table = Table(title="actions/s, random players, whole games, 1 process")
    for col in ("game", "actions/s", "games", "x RLCard gin rummy", "target", "met"):
        table.add_column(col, justify="left" if col in ("game", "target") else "right")
    if ref is None:
        console.print("[yellow]rlcard is not installed (pip install -e '.[bench]'): no reference row[/]")
    else:
        table.add_row("RLCard gin rummy", f"{ref[0]:,.0f}", str(ref[1]), "1.00", "", "")
    for game in ("zsy", "contract", "manipulation"):
        rate, games = _engine_rate(game, seconds)
        want = 1.0 if game == "manipulation" else 2.0
        ratio = rate / ref[0] if ref else float("nan")
        met = "" if ref is None else ("yes" if ratio >= want else "no")
        table.add_row(game, f"{rate:,.0f}", str(games), f"{ratio:.2f}", f">= {want:.0f}x", met)
        console.print(f"[dim]{game}: {rate:,.0f} actions/s[/]")
    console.print(table)


def _env_times(game: str, options: dict[str, Any], seed: int, best_of: int = 0) -> tuple[float, float, int] | None:
    """Seconds for one seeded random game raw, and the same game through the PettingZoo env: one
    pass each in wall time, or with ``best_of`` the fastest of that many in thread CPU time."""
    try:
        from solver.envs import aec_env
    except ImportError:
        return None
    _, chosen = _raw_game(game, options, seed)  # untimed: warms every cache the timed runs share
    # the env's action indexes for the same game, found untimed (reading the engine's action texts
    # back and encoding them is the harness's work, not the env's)
    env = aec_env(game, seed=seed, **options)
    env.reset(seed=seed)
    codec = env.unwrapped.turn.codec
    indexes: list[int] = []
    for action in chosen:
        game_now = env.unwrapped.turn.game
        for index in codec.encode(game_now, game_now.parse_action(str(action))):
            indexes.append(index)
            env.step(index)
    clock = time.thread_time if best_of else time.perf_counter
    raw = min(_raw_game(game, options, seed, clock)[0] for _ in range(max(best_of, 1)))
    env_s = min(_env_pass(game, options, seed, indexes, clock) for _ in range(max(best_of, 1)))
    return raw, env_s, len(chosen)


def _env_pass(game: str, options: dict[str, Any], seed: int, indexes: list[int], clock: Any) -> float:
    """Seconds (by ``clock``) for the env to play the seeded game's indexes, reading each step's observation."""
    from solver.envs import aec_env

    env = aec_env(game, seed=seed, **options)
    env.reset(seed=seed)
    start = clock()
    for index in indexes:
        env.last()  # the observation and mask an agent reads
        env.step(index)
    return float(clock() - start)


def _raw_game(game: str, options: dict[str, Any], seed: int, clock: Any = time.perf_counter) -> tuple[float, list[Any]]:
    """Seconds (by ``clock``) for one seeded game of random players in the raw engine, and the actions chosen."""
    ref = new_game(game, None, 4, seed, **options)
    player = RandomPlayer(seed)
    chosen = []
    start = clock()
    while not ref.is_terminal():
        action = player.choose(ref)
        ref.apply(action)
        chosen.append(action)
    return float(clock() - start), chosen


def _env_table(console: Console, best_of: int = 0) -> None:
    how = f"thread CPU time, best of {best_of}" if best_of else "wall time, one pass"
    table = Table(title=f"PettingZoo env step overhead (same seeded random game; {how})")
    for col in ("game", "engine actions", "raw s", "env s", "env / raw", "target", "met"):
        table.add_column(col, justify="left" if col in ("game", "target") else "right")
    for game, options, seeds in (
        ("zsy", {"max_hands": 1}, 20),
        ("contract", {"max_rounds": 1}, 3),
        ("manipulation", {"max_hands": 1}, 6),
    ):
        runs = [_env_times(game, options, seed, best_of) for seed in range(seeds)]
        if runs[0] is None:
            console.print("[yellow]pettingzoo is not installed (pip install -e '.[rl]'): no env rows[/]")
            return
        raw = sum(r[0] for r in runs if r)
        env = sum(r[1] for r in runs if r)
        n = sum(r[2] for r in runs if r)
        ratio = env / raw
        table.add_row(
            game, str(n), f"{raw:.3f}", f"{env:.3f}", f"{ratio:.2f}", "<= 1.30", "yes" if ratio <= 1.3 else "no"
        )
    console.print(table)


ENV_OPTIONS: dict[str, dict[str, Any]] = {
    "zsy": {"max_hands": 1},
    "contract": {"max_rounds": 1},
    "manipulation": {"max_hands": 1},
}
"""Our envs' games in the env against env table: one hand (Contract: one round) a game."""


def _our_env_steps(game: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Env steps, games and thread CPU seconds of our PettingZoo env with random legal actions for about ``seconds``."""
    import numpy as np

    from solver.envs import aec_env

    rng = np.random.default_rng(seed)
    env = aec_env(game, seed=seed, **ENV_OPTIONS[game])
    env.reset(seed=seed)
    steps = games = 0
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            games += 1
            env.reset()
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    return steps, games, time.thread_time() - start


def _rlcard_env_steps(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Env steps, games and thread CPU seconds of RLCard's env ``name`` with random legal actions for about ``seconds``."""
    import rlcard

    env = rlcard.make(name, config={"seed": seed})
    rng = random.Random(seed)
    steps = games = 0
    state, _ = env.reset()
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        if env.is_over():
            games += 1
            state, _ = env.reset()
            continue
        state, _ = env.step(rng.choice(list(state["legal_actions"])))
        steps += 1
    return steps, games, time.thread_time() - start


def _env_vs_env_table(console: Console, seconds: float, runs: int) -> None:
    try:
        import rlcard  # noqa: F401

        from solver.envs import aec_env  # noqa: F401
    except ImportError:
        console.print("[yellow]rlcard or pettingzoo is not installed (pip install -e '.[bench,rl]'): no env rows[/]")
        return
    envs: list[tuple[str, Any]] = [
        ("RLCard gin-rummy", lambda s, r: _rlcard_env_steps("gin-rummy", s, r)),
        ("RLCard doudizhu", lambda s, r: _rlcard_env_steps("doudizhu", s, r)),
        *((f"PettingZoo {g}", lambda s, r, g=g: _our_env_steps(g, s, r)) for g in ENV_OPTIONS),
    ]
    for _, run in envs:  # untimed: imports and first-use caches
        run(0.2, 0)
    rates: dict[str, list[float]] = {name: [] for name, _ in envs}
    games: dict[str, int] = dict.fromkeys(rates, 0)
    for r in range(runs):  # the envs take turns within each run
        for name, run in envs:
            steps, done, wall = run(seconds, 1 + r)
            rates[name].append(steps / wall)
            games[name] += done
    gin = statistics.median(rates["RLCard gin-rummy"])
    ddz = statistics.median(rates["RLCard doudizhu"])
    title = f"env against env: random legal actions, env steps per CPU second, median of {runs} runs of {seconds:g} s"
    table = Table(title=title)
    for col in ("env", "median steps/s", "min", "max", "games", "x gin-rummy", "x doudizhu"):
        table.add_column(col, justify="left" if col == "env" else "right")
    for name, _ in envs:
        median = statistics.median(rates[name])
        table.add_row(
            name,
            f"{median:,.0f}",
            f"{min(rates[name]):,.0f}",
            f"{max(rates[name]):,.0f}",
            str(games[name]),
            f"{median / gin:.2f}",
            f"{median / ddz:.2f}",
        )
    console.print(table)


def _clone_table(console: Console) -> None:
    table = Table(title="clone() of a mid-game state (after 60 random actions), median of 200")
    for col in ("game", "clone us", "deepcopy us", "deepcopy / clone", "target", "met"):
        table.add_column(col, justify="left" if col in ("game", "target") else "right")
    for game in ("zsy", "contract", "manipulation"):
        g = new_game(game, None, 4, 5)
        player = RandomPlayer(5)
        for _ in range(60):
            g.apply(player.choose(g))
        g.legal_actions()
        fast = _median_us(g.clone)
        slow = _median_us(lambda g=g: copy.deepcopy(g), 50)
        table.add_row(game, f"{fast:.1f}", f"{slow:.0f}", f"{slow / fast:.0f}", "< 20 us", "yes" if fast < 20 else "no")
    console.print(table)


def _median_us(fn: Any, n: int = 200) -> float:
    times = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def _ray_table(console: Console) -> None:
    try:
        import ray
    except ImportError:
        console.print("[yellow]ray is not installed (pip install -e '.[ray]'): no Ray rows[/]")
        return
    from solver.engine.selfplay import selfplay

    table = Table(title="Ray self-play, contract 1 round, 4 greedy players (Ray start not counted)")
    for col in ("workers", "games", "games/s", "x 1 worker", "target", "met"):
        table.add_column(col, justify="right")
    base = 0.0
    for workers in (1, 2):
        ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        # warm every worker (one game a task, so each worker imports the solver before the clock starts)
        selfplay("contract", 16, ["greedy"] * 4, seed=1, workers=workers, ray="local", options={"max_rounds": 1})
        stats = selfplay(
            "contract", 240, ["greedy"] * 4, seed=10, workers=workers, ray="local", options={"max_rounds": 1}
        )
        ray.shutdown()
        rate = stats.games / stats.wall
        base = base or rate
        met = "yes" if rate / base >= 1.7 else "no"
        table.add_row(
            str(workers),
            str(stats.games),
            f"{rate:.2f}",
            f"{rate / base:.2f}",
            "" if workers == 1 else ">= 1.7x",
            "" if workers == 1 else met,
        )
    console.print(table)


if __name__ == "__main__":
    main()
