"""Whole processes over folders of positions, one folder per kind: ``shanghai solve --json`` against the peer's script.

Used by ``python -m benchmarks.bench_manipulation_field --process``. For each
kind the peer can play, ``2n`` seeded positions are written as puzzle files
(ours) and as JSON lists of tile indexes (the peer's script, which builds
its rule set once and solves them in a loop). Each command runs on a folder
of the first ``n`` positions and on one of all ``2n``, in turn, ``repeat``
times after a discarded warm-up round; the warm cost per position is
``(all - first) / n``: start-up, imports and every first-use cost (ours
imports networkx and builds a model template only when a position first
needs CP-SAT) are paid in both runs and cancel out. Times are the
children's CPU time (user + system, from ``resource``) or wall time, the
fastest run of each command: other work on a shared machine only adds time.
Ours answers with least change (the default answer); the peer answers the
plain count.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from benchmarks.field_kinds import Kind, peer_tile
from solver.puzzles import ManipulationPosition, Puzzle, dumps

ROOT = Path(__file__).resolve().parent.parent

PEER_SCRIPT = """
import json, sys
from rummikub_solver import RuleSet
decks, jokers, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
rs = RuleSet(numbers=13, repeats=decks, colours=4, jokers=jokers, min_len=3, min_initial_value=1)
tiles = rs.tiles
for table, rack in json.load(open(path)):
    state = rs.new_game()
    state.add_table(*(tiles[t] for t in table))
    state.add_rack(*(tiles[t] for t in rack))
    state.initial = False
    sol = rs.solve(state)
    print(len(sol.tiles) if sol else 0)
"""


@dataclass(frozen=True, slots=True)
class ProcessRow:
    """Warm seconds per position as whole processes, ours (least change) and the peer's; equal counts."""

    kind: str
    positions: int
    ours: float
    peer: float
    agree: int


def _run(cmd: Sequence[str], cpu: bool) -> tuple[float, subprocess.CompletedProcess[str]]:
    """Seconds one command takes (children's CPU or wall) and what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (used if cpu else wall), done


def process_times(
    cmds: Sequence[Sequence[str]], repeat: int = 5, *, cpu: bool = False
) -> tuple[list[float], list[subprocess.CompletedProcess[str]]]:
    """The fastest time of each whole process, the commands run in turn ``repeat`` times after one
    discarded warm-up round (disk caches), and each one's last output. The minimum, not the median:
    other work on the machine only ever adds time."""
    best = [float("inf")] * len(cmds)
    done: list[subprocess.CompletedProcess[str]] = [subprocess.CompletedProcess([], 0)] * len(cmds)
    for r in range(repeat + 1):
        for k, cmd in enumerate(cmds):
            seconds, done[k] = _run(cmd, cpu)
            if r:
                best[k] = min(best[k], seconds)
    return best, done


def measure_process(kind: Kind, n: int, seed: int, repeat: int, cpu: bool) -> ProcessRow:
    """Warm per-position cost of ``shanghai solve --json`` over a folder of positions of ``kind``
    against the peer's script over the same positions: ``n`` more positions after ``n``."""
    rules = kind.rules
    positions = kind.positions(2 * n, seed)
    with tempfile.TemporaryDirectory() as tmp:
        first, every = Path(tmp) / "first", Path(tmp) / "all"
        first.mkdir()
        every.mkdir()
        for k, (table, hand) in enumerate(positions):
            text = dumps(Puzzle("manipulation", rules, ManipulationPosition(table, hand)))
            (every / f"p{k:03d}.toml").write_text(text)
            if k < n:
                (first / f"p{k:03d}.toml").write_text(text)
        tiles = [
            [[peer_tile(c, rules.ace) for m in table for c in m.cards], [peer_tile(c, rules.ace) for c in hand]]
            for table, hand in positions
        ]
        (Path(tmp) / "all.json").write_text(json.dumps(tiles))
        (Path(tmp) / "first.json").write_text(json.dumps(tiles[:n]))
        script = Path(tmp) / "peer.py"
        script.write_text(PEER_SCRIPT)
        ours = [sys.executable, "-m", "cli", "solve", "--json"]
        peer = [sys.executable, str(script), str(rules.decks), str(rules.jokers)]
        (first_ours, all_ours, first_peer, all_peer), done = process_times(
            [
                [*ours, str(first)],
                [*ours, str(every)],
                [*peer, str(Path(tmp) / "first.json")],
                [*peer, str(Path(tmp) / "all.json")],
            ],
            repeat,
            cpu=cpu,
        )
    counts = [json.loads(line)["cards"] for line in done[1].stdout.splitlines()]
    agree = sum(a == int(b) for a, b in zip(counts, done[3].stdout.split()))
    return ProcessRow(kind.name, 2 * n, (all_ours - first_ours) / n, (all_peer - first_peer) / n, agree)
