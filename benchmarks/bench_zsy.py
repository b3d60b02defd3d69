"""Zheng Shang You benchmark: legal moves and fewest plays, with peers in the same run.

    python -m benchmarks.bench_zsy               # default sizes (about a minute)
    python -m benchmarks.bench_zsy --hands 100   # more random deals per fewest-plays row
    python -m benchmarks.bench_zsy --passes 300  # only: how often the solver player passes holding 14 cards

Rows (targets from issue 5):

- legal replies for a fixed 14-card hand with both jokers and two 2s, one
  row per kind of combination to beat (target: median < 1 ms); peer: brute
  force, ``classify`` + ``beats`` on every sub-multiset of the right size;
- every lead from that hand (target < 10 ms); peer: ``classify`` on all
  2^14 sub-multisets;
- fewest plays for random 14-card deals (target < 20 ms) and 27-card deals
  (the two-player deal, measured); peer: the CP-SAT model
  :func:`tests.oracles.zsy_cpsat.fewest_plays_cpsat` on the same hands.

One process, one core; medians (and the worst case) of per-call times.
Other work on the machine makes timings noisy: compare rows within a run.
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from itertools import combinations
from typing import Any, cast

from rich.console import Console
from rich.table import Table

from solver.cards import Cards
from solver.rules import ZsyRules
from solver.zsy import Combo, beats, classify, fewest_plays, legal_moves
from tests.oracles.zsy_cpsat import fewest_plays_cpsat

HAND = Cards.parse("RJ BJ 2S 2H 3C 4D 5S 6H 6C 7D 9S 9H JC KD")
REPLIES = ["7S", "8S 8H", "8S 8H 8C", "5C 6C 7D 8S 9H", "4S 4H 5S 5H 6S 6H"]


def brute_moves(hand: Cards, to_beat: Combo | None, rules: ZsyRules) -> list[Combo]:
    """The peer: classify every sub-multiset (of the to_beat's size) and keep what beats it."""
    cards = list(hand)
    sizes = range(1, len(cards) + 1) if to_beat is None else [to_beat.size]
    out: list[Combo] = []
    for k in sizes:
        for sub in combinations(cards, k):
            for c in classify(Cards(sub), rules):
                if to_beat is None or beats(c, to_beat, rules):
                    out.append(c)
    return out


def timed(fn: Callable[[], Any], repeat: int) -> tuple[list[float], Any]:
    times: list[float] = []
    result: Any = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return times, result


def ms(x: float) -> str:
    return f"{x * 1000:.3f}" if x < 0.01 else f"{x * 1000:.1f}"


def count_passes(games: int, seed: int) -> None:
    """The solver player against three greedy (seats rotate as in selfplay): its passes while holding 14 cards."""
    from solver.engine import new_game
    from solver.engine.players import make_players
    from solver.zsy.game import ZPass, ZPlay, ZsyGame
    from solver.zsy.players import solver_decision

    kinds = ["solver", "greedy", "greedy", "greedy"]
    decisions = passes = forced = never = hands = 0
    for i in range(games):
        seats = kinds[i % 4 :] + kinds[: i % 4]
        me = seats.index("solver")
        game = cast(ZsyGame, new_game("zsy", players=4, seed=seed + i))
        players = make_players(seats, seed + i)
        played, hand_number = False, game.hand_number
        while not game.is_terminal():
            p = game.current_player()
            action = players[p].choose(game)
            if p == me and isinstance(action, (ZPass, ZPlay)):
                played |= isinstance(action, ZPlay)
                if len(game.hands[p]) == 14:
                    decisions += 1
                    passes += isinstance(action, ZPass)
                    forced += isinstance(action, ZPass) and "no combination" in solver_decision(game).reason
            game.apply(action)
            if game.hand_number != hand_number or game.is_terminal():
                hands, never = hands + 1, never + (not played)
                played, hand_number = False, game.hand_number
    print(
        f"{games} games (seed {seed}), {hands} hands: holding 14 cards the solver decided {decisions} times and"
        f" passed {passes} ({passes / max(1, decisions):.1%}; {passes - forced} by choice, {forced} with no reply);"
        f" hands it ended without playing a card: {never}"
    )


def main() -> None:
    """Run the rows and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=40, help="random deals per fewest-plays row")
    parser.add_argument("--repeat", type=int, default=50, help="repeats per move-generation row")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--passes", type=int, metavar="GAMES", help="only count the solver's passes (seed 7)")
    args = parser.parse_args()
    if args.passes:
        count_passes(args.passes, 7)
        return
    rules = ZsyRules()
    console = Console()
    if not console.is_terminal:
        console = Console(width=170)
    table = Table(title=f"Zheng Shang You ({platform.processor() or platform.machine()}, 1 process, times in ms)")
    for col in ("question", "case", "n", "result", "median", "worst", "target", "met", "peer", "peer median", "agree"):
        table.add_column(col, justify="left" if col in ("question", "case", "target", "peer") else "right")
    move_rows(table, rules, args.repeat)
    fewest_rows(table, rules, args.hands, args.seed)
    console.print(table)
    console.print(
        "[dim]peers: brute force = classify+beats on every sub-multiset; CP-SAT = tests/oracles/zsy_cpsat.py[/]"
    )


def row(
    table: Table, question: str, case: str, times: list[float], result: str, target: float | None, **peer: Any
) -> None:
    """One row of the table: the median and worst of ``times`` against ``target``, and the peer's figures."""
    med = statistics.median(times)
    met = "" if target is None else ("yes" if med < target else "NO")
    table.add_row(
        question,
        case,
        str(len(times)),
        result,
        ms(med),
        ms(max(times)),
        "" if target is None else f"< {ms(target)}",
        met,
        peer.get("name", ""),
        ms(peer["median"]) if "median" in peer else "",
        peer.get("agree", ""),
    )


def move_rows(table: Table, rules: ZsyRules, repeat: int) -> None:
    """The legal-replies rows (one per combination to beat) and the all-leads row, against brute force."""
    for text in REPLIES:
        target = Combo.parse(text, rules)
        times, moves = timed(partial(legal_moves, HAND, target, rules), repeat)
        ptimes, pmoves = timed(partial(brute_moves, HAND, target, rules), max(3, repeat // 10))
        agree = "yes" if set(moves) == set(pmoves) and len(moves) == len(pmoves) else "NO"
        row(
            table,
            "legal replies",
            f"{target.describe()}",
            times,
            f"{len(moves)} moves",
            0.001,
            name="brute force",
            median=statistics.median(ptimes),
            agree=agree,
        )
    times, leads = timed(lambda: legal_moves(HAND, None, rules), repeat)
    ptimes, pleads = timed(lambda: brute_moves(HAND, None, rules), 3)
    agree = "yes" if set(leads) == set(pleads) and len(leads) == len(pleads) else "NO"
    row(
        table,
        "all leads",
        "14 cards, 2 jokers, two 2s",
        times,
        f"{len(leads)} moves",
        0.010,
        name="brute force",
        median=statistics.median(ptimes),
        agree=agree,
    )


def fewest_rows(table: Table, rules: ZsyRules, n_hands: int, seed: int) -> None:
    """The fewest-plays rows (random 14- and 27-card deals), against the CP-SAT model."""
    deck = list(rules.deck)
    for size, target_s in ((14, 0.020), (27, None)):
        rng = random.Random(seed + size)
        hands = [Cards(rng.sample(deck, size)) for _ in range(n_hands)]
        if size == 14:
            hands[0] = HAND
        times, ctimes, agree = [], [], True
        counts: list[int] = []
        for hand in hands:
            t, split = timed(partial(fewest_plays, hand, rules), 1)
            c, (count, status) = timed(partial(fewest_plays_cpsat, hand, rules), 1)
            times += t
            ctimes += c
            counts.append(split.count)
            agree &= split.count == count and split.status == "optimal" and status == "optimal"
        row(
            table,
            "fewest plays",
            f"random {size}-card deals",
            times,
            f"{min(counts)}-{max(counts)} plays",
            target_s,
            name="CP-SAT model",
            median=statistics.median(ctimes),
            agree="yes" if agree else "NO",
        )


if __name__ == "__main__":
    main()
