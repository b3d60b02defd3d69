"""Any hand size respects the time limit and stays in bounded memory (issue 12).

A dense hand has millions of leads (1.4 million for 34 cards) and the
fewest-plays search can spend seconds in one state: every stage of
:func:`solver.answers.solve_puzzle` runs under the time limit, lists at most
``ZSY_LISTED`` moves (counting the rest while time remains) and answers
``feasible`` when the time ran out. Wall times are checked loosely (under
ten times the limit: the machine is shared), memory with ``tracemalloc`` in
the library and the child's peak resident size for the CLI.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import time
import tracemalloc
from itertools import islice
from pathlib import Path

from solver.answers import ZSY_LISTED, SolveOptions, solve_puzzle
from solver.cards import Cards
from solver.errors import Status
from solver.puzzles import Puzzle, ZsyPosition
from solver.rules import ZsyRules
from solver.zsy import Combo, classify, fewest_plays, iter_moves, legal_moves, plays_after

ROOT = Path(__file__).resolve().parents[2]
RULES = ZsyRules()
DECK = RULES.deck
MB = 1 << 20


def _split_is_valid(hand: Cards, plays: tuple[Combo, ...]) -> None:
    """An independent check: the plays use exactly the hand's cards and each is a legal combination."""
    used = Cards(c for p in plays for c in p.cards)
    assert used == hand
    for p in plays:
        assert p in classify(p.cards, RULES)


def test_fewest_plays_of_the_whole_deck_is_quick_and_valid() -> None:
    start = time.perf_counter()
    tracemalloc.start()
    try:
        split = fewest_plays(DECK, time_limit=1.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - start < 10.0
    assert peak < 500 * MB
    _split_is_valid(DECK, split.plays)
    assert split.count == 2  # 4x12 parallel straights 3-A, and 2S 2H 2D 2C BJ RJ as a set of 2s
    assert split.status in (Status.OPTIMAL, Status.FEASIBLE)


def test_a_short_limit_gives_a_valid_feasible_split() -> None:
    """40 random cards with 0.05 s: the search cannot finish; the split is still valid and no worse than one set a rank."""
    hand = Cards(random.Random(40).sample(list(DECK), 40))
    start = time.perf_counter()
    split = fewest_plays(hand, time_limit=0.05)
    assert time.perf_counter() - start < 1.5  # the greedy bound, then the deadline checks
    _split_is_valid(hand, split.plays)
    ranks = {c.code[:-1] for c in hand if not c.is_joker and c.code[:-1] != "2"}
    assert split.count <= len(ranks)


def test_plays_after_on_a_dense_hand_respects_the_limit() -> None:
    moves = list(islice(iter_moves(DECK), ZSY_LISTED))
    start = time.perf_counter()
    counts, status = plays_after(DECK, moves, time_limit=0.3)
    assert time.perf_counter() - start < 3.0
    assert len(counts) == len(moves)
    assert status is Status.FEASIBLE or all(c >= 1 for c in counts)


def test_iter_moves_is_lazy_and_agrees_with_legal_moves() -> None:
    start = time.perf_counter()
    first = list(islice(iter_moves(DECK), 100))
    assert time.perf_counter() - start < 1.0  # the 54-card hand has far more leads than could be listed
    assert len(first) == 100
    hand = Cards(random.Random(3).sample(list(DECK), 14))
    assert tuple(iter_moves(hand)) == legal_moves(hand)


def test_solve_puzzle_on_54_cards_within_the_limit() -> None:
    puzzle = Puzzle("zsy", RULES, ZsyPosition(DECK))
    start = time.perf_counter()
    tracemalloc.start()
    try:
        answer = solve_puzzle(puzzle, SolveOptions(time_limit=1.0))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - start < 10.0
    assert peak < 500 * MB
    data = answer.data
    assert data["status"] == "feasible" and not data["move_count_exact"]
    assert data["move_count"] >= len(data["moves"]) > 0
    assert len(data["moves"]) <= ZSY_LISTED + data["fewest_plays"]
    # the split's plays are listed, and one of them is ranked first (it leaves the fewest plays possible)
    first = answer.result["ranked"][0]
    assert first[1] == data["fewest_plays"] - 1


def test_cli_solve_the_largest_deal_json_within_the_limit() -> None:
    # the CLI takes the positions a game reaches: at most 27 cards (54 between two players); the library
    # answers any hand (the 54 cards above)
    whole = subprocess.run(
        [sys.executable, "-m", "cli", "solve", "--game", "zsy", "--hand", " ".join(c.code for c in DECK)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert whole.returncode == 2 and "hand holds 54 cards" in whole.stderr and "Traceback" not in whole.stderr
    hand = " ".join(c.code for c in random.Random(27).sample(list(DECK), 27))
    script = (
        "import resource, subprocess, sys, time\n"
        "t = time.perf_counter()\n"
        f"r = subprocess.run([sys.executable, '-m', 'cli', 'solve', '--game', 'zsy', '--rule', 'min_players=2',"
        f" '--hand', {hand!r}, '--time-limit', '1', '--json'], capture_output=True, text=True, timeout=10)\n"
        "sys.stdout.write(r.stdout)\n"
        "sys.stderr.write(f'{r.returncode} {time.perf_counter() - t} "
        "{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}')\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=60)
    code, wall, rss_kb = result.stderr.split()[-3:]
    assert code == "0", result.stderr
    assert float(wall) < 10.0
    assert int(rss_kb) * 1024 < 500 * MB
    data = json.loads(result.stdout)
    assert data["status"] in ("optimal", "feasible") and data["move_count"] >= len(data["moves"]) > 0
    assert data["fewest_plays"] >= 2 and sum(len(p) for p in data["split"]) == 27
