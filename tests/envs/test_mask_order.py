"""Manipulation legal sets (the engine's listed actions and the env's masks) do not depend on time,
load or what ran before in the process.

The reported fault: ``tests/envs/test_reachable.py`` failed at
``[manipulation-rummikub-greedy]`` with ``play AS AH AD | 10C JC QC | 4S 4H 4C | 7S 7D 7C |
10S 10H 10D 10C: build not in the mask`` on the loaded machine and passed when run alone. The
cause: the engine game asked the questions behind its legal set (can the player play, how many
cards a play must hold, the opening) with its 2 s ``time_limit``; a CP-SAT solve that ran out of
time answered "cannot play", so two games in the same position (the record's and the env's)
listed different actions. Running out of time is simulated here as CP-SAT answers at its limit
(status unknown) on a machine too loaded to finish; a question with no time limit is solved.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.soak_reachable import soak
from solver.engine import new_game
from solver.engine.players import make_player
from solver.envs.actions import Turn
from solver.errors import Status

ROOT = Path(__file__).resolve().parents[2]


def _starve(monkeypatch: pytest.MonkeyPatch, every: int = 1) -> None:
    """Every ``every``-th CP-SAT solve with a finite time limit runs out of time (status unknown, no
    solution): 1, a machine too loaded to finish any; 2, one whose load comes and goes."""
    import solver.manipulation.least_change as least_change
    import solver.manipulation.model as model

    real = model.run_model
    timed = [0]

    def timed_out(proto: Any, time_limit: float, **kw: Any) -> Any:
        if math.isfinite(time_limit):
            timed[0] += 1
            if timed[0] % every == 0:
                return model.Response(Status.UNKNOWN, (), 0, 0)
        return real(proto, time_limit, **kw)

    monkeypatch.setattr(model, "run_model", timed_out)
    monkeypatch.setattr(least_change, "run_model", timed_out)


def listings(preset: str, seed: int, record: list[str] | None = None) -> tuple[list[str], list[Any]]:
    """A one-hand game of ``preset`` (greedy players, or ``record`` replayed): the actions taken, and
    at each position the engine's legal actions and a fresh turn's mask (as index lists)."""
    name, _, jokers = preset.partition("_")
    rules = {"preset": name, "jokers": 2} if jokers else {"preset": name}
    game: Any = new_game("manipulation", rules, 4, seed, max_hands=1)
    chooser = make_player("greedy", seed)
    taken: list[str] = []
    seen: list[Any] = []
    while not game.is_terminal() and (record is None or len(taken) < len(record)):
        seen.append(([str(a) for a in game.legal_actions()], Turn(game).legal()))
        action = chooser.choose(game) if record is None else game.parse_action(record[len(taken)])
        game.apply(action)
        taken.append(str(action))
    return taken, seen


@pytest.mark.parametrize("preset", ["rummikub", "german_jokers", "norwegian_jokers"])
def test_the_legal_set_is_the_same_when_every_timed_question_runs_out(
    preset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # jokers in play: the exact stages leave questions to CP-SAT (without jokers none reaches it)
    record, want = listings(preset, 1)
    assert any(a.startswith("play") for legal, _ in want for a in legal)  # positions with plays to list
    _starve(monkeypatch)
    assert listings(preset, 1, record) == (record, want)


def test_the_reported_row_replays_when_every_timed_question_runs_out(monkeypatch: pytest.MonkeyPatch) -> None:
    # the failing row of tests/envs/test_reachable.py: the greedy players' records, replayed through
    # the env step by step (the mask asked at each), and 25 listed actions a sampled position
    _starve(monkeypatch, every=2)  # the record's game and the env's then ask with different luck
    row = soak("manipulation", "rummikub", "greedy", states=30, seeds=1, hands=1, share=0.3, most=25)
    assert row.positions >= 5 and row.replayed > 10


def test_the_listings_after_other_games_are_those_of_a_fresh_process() -> None:
    # the module memos (solver.manipulation.simple's growths and hand melds, play's stage-3 memo,
    # the lru caches, the CP-SAT templates) warm from other rule sets' games, then the reported
    # game: its listings and masks equal those of a process that asks nothing before
    for preset in ("german", "norwegian"):
        listings(preset, 1)
    soak("manipulation", "german", "solver", states=10, seeds=1, hands=1, share=0.3, most=25)
    here = listings("rummikub", 0)
    code = "import json; from tests.envs.test_mask_order import listings as f; print(json.dumps(f('rummikub', 0)))"
    fresh = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert json.loads(fresh) == json.loads(json.dumps(here))
