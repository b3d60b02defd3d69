"""Manipulation legal sets do not depend on time or load: every solver question behind the env's
masks (the engine's listed plays and what a play must hold, the codec's ``play`` shortcut) is
asked with no time limit, so CP-SAT proves each answer however slow the machine is."""

from __future__ import annotations

import math
from typing import Any

import pytest

from solver.extras import require

require("pettingzoo", "rl")


def test_every_solver_question_behind_the_masks_has_no_time_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.manipulation.model as model
    from benchmarks.bench_env_steps import rollout
    from solver.cpsat import solve_proto as solve

    limits: list[float] = []

    def recorded(proto: Any, params: Any) -> Any:
        limits.append(params.max_time_in_seconds)
        return solve(proto, params)

    monkeypatch.setattr(model, "solve_proto", recorded)
    # random steps through the env, a mask at each (jokers: CP-SAT is asked)
    rollout("manipulation", {"rules": {"preset": "rummikub"}, "max_hands": 1}, 400, 1)
    assert limits and all(t == math.inf for t in limits), sorted(set(limits))


def test_a_time_limit_given_to_the_env_is_kept() -> None:
    from solver.envs import aec_env

    assert aec_env("manipulation", seed=1).turn.game.time_limit == math.inf
    assert aec_env("manipulation", seed=1, time_limit=1.0).turn.game.time_limit == 1.0
    assert aec_env("zsy", seed=1).turn.game.time_limit == 1.0  # the other games ask no such question


def test_the_openspiel_manipulation_game_asks_with_no_time_limit_either() -> None:
    import pyspiel

    import solver.envs.openspiel  # noqa: F401  (registers the games)

    state = pyspiel.load_game("python_shanghai_manipulation").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.turn.game.time_limit == math.inf
    state = pyspiel.load_game("python_shanghai_zsy").new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.turn.game.time_limit == 1.0
