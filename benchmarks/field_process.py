"""Whole processes over folders of positions, one folder per kind: ``shanghai solve --json`` against the peer's script.

Used by ``python -m benchmarks.bench_manipulation_field --process``. For each
kind the peer can play, ``n`` seeded positions are written as puzzle files
(ours) and as one JSON list of tile indexes (the peer's script, which builds
its rule set once and solves them in a loop). Each command runs once on one
position and once on the whole folder, in turn, ``repeat`` times after a
discarded warm-up round; the warm cost per position is ``(many - one) /
(n - 1)`` (imports, model templates and start-up cancel out). Times are the
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
from typing import TYPE_CHECKING

from solver.puzzles import ManipulationPosition, Puzzle, dumps

if TYPE_CHECKING:
    from benchmarks.bench_manipulation_field import Kind

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


def _run(cmd: Sequence[str], cpu: bool) -> tuple[float, str]:
    """Seconds one command takes (children's CPU or wall) and its standard output."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, check=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (used if cpu else wall), done.stdout


def _fastest(cmds: Sequence[Sequence[str]], repeat: int, cpu: bool) -> tuple[list[float], list[str]]:
    """The fastest time of each command (run in turn, after one discarded round) and its last output."""
    best = [float("inf")] * len(cmds)
    outs = [""] * len(cmds)
    for r in range(repeat + 1):
        for k, cmd in enumerate(cmds):
            seconds, outs[k] = _run(cmd, cpu)
            if r:
                best[k] = min(best[k], seconds)
    return best, outs


def measure_process(kind: Kind, n: int, seed: int, repeat: int, cpu: bool) -> ProcessRow:
    """Warm per-position cost of ``shanghai solve --json`` over a folder of ``n`` positions of ``kind``
    against the peer's script over the same positions."""
    from benchmarks.bench_manipulation_field import _tile

    rules = kind.rules
    positions = kind.positions(n, seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "many"
        folder.mkdir()
        for k, (table, hand) in enumerate(positions):
            text = dumps(Puzzle("manipulation", rules, ManipulationPosition(table, hand)))
            (folder / f"p{k:03d}.toml").write_text(text)
        one = Path(tmp) / "one.toml"
        one.write_text((folder / "p000.toml").read_text())
        tiles = [
            [[_tile(c, rules.ace) for m in table for c in m.cards], [_tile(c, rules.ace) for c in hand]]
            for table, hand in positions
        ]
        (Path(tmp) / "many.json").write_text(json.dumps(tiles))
        (Path(tmp) / "one.json").write_text(json.dumps(tiles[:1]))
        script = Path(tmp) / "peer.py"
        script.write_text(PEER_SCRIPT)
        ours = [sys.executable, "-m", "cli", "solve", "--json"]
        peer = [sys.executable, str(script), str(rules.decks), str(rules.jokers)]
        (one_ours, many_ours, one_peer, many_peer), outs = _fastest(
            [
                [*ours, str(one)],
                [*ours, str(folder)],
                [*peer, str(Path(tmp) / "one.json")],
                [*peer, str(Path(tmp) / "many.json")],
            ],
            repeat,
            cpu,
        )
    counts = [json.loads(line)["cards"] for line in outs[1].splitlines()]
    agree = sum(a == int(b) for a, b in zip(counts, outs[3].split()))
    return ProcessRow(kind.name, n, (many_ours - one_ours) / (n - 1), (many_peer - one_peer) / (n - 1), agree)
