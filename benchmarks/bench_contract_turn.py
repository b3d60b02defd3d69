"""Contract Shanghai's whole-turn plan: against the brute force, in self-play, and a rule soak.

    python -m benchmarks.bench_contract_turn positions --count 200       # plan vs brute force, times
    python -m benchmarks.bench_contract_turn paired --games 20 --seed 5000  # new solver vs solver-old
    python -m benchmarks.bench_contract_turn soak --games 100             # rule invariants, every action

Each prints a table of its figures (``--json``: one JSON object instead).

``positions``: random turn positions after the draw (every round, half of
them with wilds on the table; ``tests/oracles/contract_turn.py``), the
points :func:`solver.contract.turn.plan_after_draw` leaves against the
brute force's, and the plan's median and worst time (the brute force is
the peer in the same run). Positions whose brute force would be too slow
(a player who has not laid down with more than 12 cards) are redrawn.

``paired``: every seed played twice, one round each: once with the new
``solver`` in a rotating seat and ``solver-old`` in the others, once with
``solver-old`` in every seat; the seat's gain in wins and in points, with
95% intervals (the luck of the deal cancels).

``soak``: games of ``random`` and ``solver`` players (seeded); on every
action the soak checks the rule invariants: nobody calls back their own
discard, nobody goes out without having laid down, no card created or lost.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import sys
import time
from typing import Any

from rich.console import Console
from rich.progress import track
from rich.table import Table

from solver.contract.game import CCall, CDiscard, CLayDown, ContractGame
from solver.contract.turn import plan_after_draw
from solver.engine import new_game
from solver.engine.players import make_players
from solver.engine.selfplay import check_invariants, play_one
from solver.rules import ContractRules
from tests.oracles.contract_turn import brute_after_draw, random_turn_position


def positions(count: int, seed: int) -> dict[str, Any]:
    """The plan against the brute force on ``count`` random positions."""
    rules = ContractRules()
    rng = random.Random(seed)
    plan_after_draw(
        random_turn_position(random.Random(-1), rules, 1, wilds_on_table=False).hand, (), rules, 1
    )  # warm-up
    times: list[float] = []
    brute_times: list[float] = []
    equal = proven = 0
    rows: dict[tuple[int, bool], list[int]] = {}
    for i in range(count):
        round_ = 1 + i % rules.rounds
        wilds = (i // rules.rounds) % 2 == 0
        pos = random_turn_position(rng, rules, round_, wilds_on_table=wilds)
        while not pos.laid_down and len(pos.hand) > 12:
            pos = random_turn_position(rng, rules, round_, wilds_on_table=wilds)
        t = time.perf_counter()
        after = plan_after_draw(pos.hand, pos.table, rules, round_, laid_down=pos.laid_down)
        times.append(time.perf_counter() - t)
        t = time.perf_counter()
        brute = brute_after_draw(pos.hand, pos.table, rules, round_, laid_down=pos.laid_down)
        brute_times.append(time.perf_counter() - t)
        mine = after.points_left if (pos.laid_down or after.lay_down) else None
        same = mine == brute
        equal += same
        proven += after.status == "optimal"
        row = rows.setdefault((round_, wilds), [0, 0])
        row[0] += 1
        row[1] += same
        if not same:
            print(f"MISMATCH round {round_}: {pos} plan {mine} brute {brute}", file=sys.stderr)
    return {
        "positions": count,
        "equal": equal,
        "proven": proven,
        "median_ms": round(1000 * statistics.median(times), 1),
        "worst_ms": round(1000 * max(times), 1),
        "brute_median_ms": round(1000 * statistics.median(brute_times), 1),
        "brute_worst_ms": round(1000 * max(brute_times), 1),
        "by_round": {f"{r}{'+wilds' if w else ''}": v for (r, w), v in sorted(rows.items())},
    }


def _interval(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n)
    return round(mean, 4), round(mean - half, 4), round(mean + half, 4)


def paired_old(games: int, seed: int, players: int = 4) -> dict[str, Any]:
    """The new ``solver`` in a rotating seat against ``solver-old``, paired with all ``solver-old``."""
    options = {"max_rounds": 1}
    start = time.perf_counter()
    win_diffs: list[float] = []
    point_diffs: list[float] = []
    errors = 0
    for i in track(range(games), description="paired games", console=Console(stderr=True), transient=True):
        seat = i % players
        kinds = ["solver-old"] * players
        kinds[seat] = "solver"
        mine = play_one("contract", {}, kinds, seed + i, options)
        base = play_one("contract", {}, ["solver-old"] * players, seed + i, options)
        errors += bool(mine.error) + bool(base.error)
        x = 1 / len(mine.winners) if seat in mine.winners else 0.0
        y = 1 / len(base.winners) if seat in base.winners else 0.0
        win_diffs.append(x - y)
        point_diffs.append(float(base.scores[seat] - mine.scores[seat]))  # points saved by the new player
    w = _interval(win_diffs)
    p = _interval(point_diffs)
    return {
        "games": games,
        "seed": seed,
        "errors": errors,
        "win_gain": w[0],
        "win_gain_ci95": [w[1], w[2]],
        "points_saved": p[0],
        "points_saved_ci95": [p[1], p[2]],
        "changed_games": sum(1 for d in point_diffs if d),
        "seconds": round(time.perf_counter() - start, 1),
    }


def _check_rules(game: ContractGame, action: Any, discarder: int | None) -> None:
    """The invariants of one action: no self-call, nobody out without having laid down."""
    if isinstance(action, CCall) and action.player == discarder:
        raise AssertionError(f"seed {game.seed}: player {action.player} called back their own discard")


def soak(games: int, seed: int, kinds: list[str], rounds: int, seconds: float | None = None) -> dict[str, Any]:
    """Seeded games, the rule invariants checked on every action (``seconds``: stop starting games then)."""
    start = time.perf_counter()
    actions = outs = played = 0
    for i in track(range(games), description="soak games", console=Console(stderr=True), transient=True):
        if seconds is not None and time.perf_counter() - start > seconds:
            break
        played += 1
        game = new_game("contract", {}, len(kinds), seed + i, max_rounds=rounds)
        assert isinstance(game, ContractGame)
        players = make_players(kinds, seed + i)
        discarder: int | None = None
        while not game.is_terminal():
            p = game.current_player()
            action = players[p].choose(game)
            _check_rules(game, action, discarder)
            laid = list(game.laid_down)
            scored = len(game.round_scores)
            game.apply(action)
            actions += 1
            if isinstance(action, CDiscard):
                discarder = action.player
            if len(game.round_scores) > scored:  # the round ended: whoever scored 0 went out
                discarder = None
                for q, pts in enumerate(game.round_scores[-1]):
                    if pts == 0:
                        outs += 1
                        if not (laid[q] or (q == p and isinstance(action, CLayDown))):
                            raise AssertionError(f"seed {game.seed}: player {q} out without laying down")
            check_invariants(game)
    return {
        "games": played,
        "asked": games,
        "players": kinds,
        "rounds": rounds,
        "actions": actions,
        "outs": outs,
        "seconds": round(time.perf_counter() - start, 1),
    }


def main(argv: list[str] | None = None) -> None:
    """The command line (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    a = sub.add_parser("positions")
    a.add_argument("--count", type=int, default=200)
    a.add_argument("--seed", type=int, default=24)
    b = sub.add_parser("paired")
    b.add_argument("--games", type=int, default=20)
    b.add_argument("--seed", type=int, default=5000)
    c = sub.add_parser("soak")
    c.add_argument("--games", type=int, default=100)
    c.add_argument("--seed", type=int, default=90000)
    c.add_argument("--players", default="random,random,random,random")
    c.add_argument("--rounds", type=int, default=7)
    c.add_argument("--seconds", type=float, default=None, help="stop starting new games after this long")
    for p in (a, b, c):
        p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = ap.parse_args(argv)
    if args.cmd == "positions":
        out = positions(args.count, args.seed)
    elif args.cmd == "paired":
        out = paired_old(args.games, args.seed)
    else:
        out = soak(args.games, args.seed, args.players.split(","), args.rounds, args.seconds)
    if args.json:
        print(json.dumps(out))
        return
    table = Table(title=f"bench_contract_turn {args.cmd} ({platform.machine()}, {os.cpu_count()} cores)")
    table.add_column("figure")
    table.add_column("value", justify="right")
    for key, value in out.items():
        if key == "by_round":
            value = ", ".join(f"{k}: {v[0]}/{v[1]}" for k, v in value.items())
        table.add_row(key, str(value))
    Console().print(table)


if __name__ == "__main__":  # pragma: no cover - a measurement command
    main()
