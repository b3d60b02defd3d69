"""Contract's compiled core against its pure-Python oracle, in one process, the same run.

    python -m benchmarks.bench_contract_native            # the default sizes
    python -m benchmarks.bench_contract_native --rounds 7 # more alternations (steadier medians)

Rows: the ported functions on positions recorded from seeded random games
(``hand_lay_down``: every hand the engine asked about; ``search_distance``
and ``discard_distances``: those hands against every card not in them),
microseconds per call; the engine's random self-play (actions/s over whole
games, as ``benchmarks/bench_engine.py`` counts them); the ``solver``
player's decisions per second (two rounds of a seeded game). Native and pure
alternate within each round, so a change in the machine's load falls on both;
each figure is the median over the rounds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from solver import native
from solver.cards import Cards
from solver.contract import game as contract_game
from solver.contract.discards import discard_distances
from solver.contract.search import hand_lay_down, search_distance
from solver.engine import new_game
from solver.engine.selfplay import play_one
from solver.melds import Meld
from solver.rules import ContractRules
from solver.rules.contract import Requirement

Position = tuple[Cards, ContractRules, tuple[Requirement, ...]]


def _recorded(games: int) -> list[Position]:
    """The hands the engine asks ``hand_lay_down`` about in seeded random games."""
    seen: list[Position] = []

    def record(hand: Cards, rules: ContractRules, contract: tuple[Requirement, ...]) -> tuple[Meld, ...] | None:
        seen.append((hand, rules, tuple(contract)))
        return hand_lay_down(hand, rules, contract)

    setattr(contract_game, "hand_lay_down", record)  # noqa: B010 (the engine's name for it, for the recording)
    try:
        rng = random.Random(1)
        for seed in range(games):
            g = new_game("contract", None, 4, seed)
            while not g.is_terminal():
                g.apply(rng.choice(g.legal_actions()))
    finally:
        setattr(contract_game, "hand_lay_down", hand_lay_down)  # noqa: B010
    return seen


def _per_call(fn: Callable[[Position], object], items: list[Position]) -> float:
    start = time.perf_counter()
    for item in items:
        fn(item)
    return (time.perf_counter() - start) / len(items) * 1e6


def _engine_rate(games: int, seed0: int) -> float:
    rng = random.Random(1)
    actions = 0
    start = time.perf_counter()
    for i in range(games):
        g = new_game("contract", None, 4, seed0 + i)
        while not g.is_terminal():
            g.apply(rng.choice(g.legal_actions()))
            actions += 1
    return actions / (time.perf_counter() - start)


def _solver_rate(seed: int) -> float:
    start = time.perf_counter()
    r = play_one("contract", {}, ["solver"] * 4, seed, {"max_rounds": 2})
    return r.actions / (time.perf_counter() - start)


def main() -> None:
    """Print the table: native, pure and their ratio per row."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="native/pure alternations (the medians)")
    parser.add_argument("--games", type=int, default=4, help="random games per engine measurement")
    parser.add_argument("--solver-rounds", type=int, default=1, help="solver-player games per path")
    args = parser.parse_args()
    hands = _recorded(3)
    dist = [(h, r, c) for h, r, c in hands[:: max(1, len(hands) // 150)]]

    def lay(p: Position) -> object:
        return hand_lay_down(*p)

    def distance(p: Position) -> object:
        return search_distance(p[0], p[1].deck - p[0], p[1], p[2], outs=True)

    def discards(p: Position) -> object:
        return discard_distances(p[0], p[1].deck - p[0], p[1], p[2])

    rows: list[tuple[str, str, Callable[[int], float]]] = [
        ("hand_lay_down", "us/call", lambda r: _per_call(lay, hands)),
        ("search_distance (outs)", "us/call", lambda r: _per_call(distance, dist)),
        ("discard_distances", "us/call", lambda r: _per_call(discards, dist)),
        ("engine random self-play", "actions/s", lambda r: _engine_rate(args.games, 100 + r * args.games)),
    ]
    for name, unit, fn in rows:
        fn(0)  # warm the caches of both paths
        with native.pure():
            fn(0)
        nat: list[float] = []
        pur: list[float] = []
        for r in range(args.rounds):
            nat.append(fn(r))
            with native.pure():
                pur.append(fn(r))
        n, p = statistics.median(nat), statistics.median(pur)
        ratio = p / n if unit == "us/call" else n / p
        print(f"{name:26} {unit:10} native {n:10,.1f}  pure {p:10,.1f}  speed-up {ratio:.2f}x")
    nat, pur = [], []
    for r in range(args.solver_rounds):
        nat.append(_solver_rate(1000 + r))
        with native.pure():
            pur.append(_solver_rate(1000 + r))
    n, p = statistics.median(nat), statistics.median(pur)
    print(f"{'solver player self-play':26} {'actions/s':10} native {n:10,.1f}  pure {p:10,.1f}  speed-up {n / p:.2f}x")
    print(f"({len(hands)} recorded hands, {len(dist)} distance positions; {native.describe()})")


if __name__ == "__main__":
    main()
