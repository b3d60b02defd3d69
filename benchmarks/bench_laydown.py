"""Contract lay-down puzzles: where the constructed candidates go, for a number of seconds.

    python -m benchmarks.bench_laydown                  # 60 s, medium, seed 5
    python -m benchmarks.bench_laydown --seconds 10

Each candidate position (``solver.generate.contract_laydown._laydown_position``; at
hard, ``_laydown_swap_position``) is
counted once: not dealt (a meld's cards gone from the decks, or not legal),
no lay-down, the naive order (the best lay-down alone, then the lay-off) as
good as the whole-turn plan, the plan better but its grouping not the only
best, or unique (a puzzle before the ladder). One process, one core.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from solver.contract import after_lay_down, best_lay_down, plan_after_draw
from solver.generate.contract_laydown import _laydown_position, _laydown_swap_position, unique_lay_down
from solver.generate.difficulty import LEVELS, SOLVE_SECONDS
from solver.rules import ContractRules


def main() -> None:
    """Run the loop and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--level", default="medium", choices=LEVELS)
    args = parser.parse_args()
    rules = ContractRules()
    rng = random.Random(args.seed)
    counts: Counter[str] = Counter()
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        counts["candidates"] += 1
        pos = (_laydown_swap_position if args.level in ("hard", "expert") else _laydown_position)(
            rng, rules, args.level
        )
        if pos is None:
            counts["not dealt or not legal"] += 1
            continue
        down = best_lay_down(pos.hand, rules, pos.round, time_limit=SOLVE_SECONDS)
        if down is None:
            counts["no lay-down"] += 1
            continue
        naive = after_lay_down(pos.hand, down.melds, pos.table, rules, time_limit=SOLVE_SECONDS)
        plan = plan_after_draw(pos.hand, pos.table, rules, pos.round, time_limit=SOLVE_SECONDS)
        if plan.points_left >= naive.points_left:
            counts["naive as good as the plan"] += 1
            continue
        unique = unique_lay_down(pos.hand, pos.table, rules, pos.round) is not None
        counts["plan better, unique" if unique else "plan better, not unique"] += 1
    seconds = time.perf_counter() - start
    print(", ".join(f"{k} {v:,}" for k, v in counts.items()) + f" ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
