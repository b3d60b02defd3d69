"""OpenSpiel's own game-theory algorithms on the small variants (issue 36): ``cfr``,
``outcome_sampling_mccfr`` and ``exploitability`` run to completion over the whole tree, and the
exploitability of the average policy falls over the iterations."""

from __future__ import annotations

import itertools

import pytest

from solver.errors import IllegalActionError
from solver.extras import require

pyspiel = require("pyspiel", "openspiel")
import solver.envs.openspiel  # noqa: E402,F401

TINY = "python_shanghai_zsy(players=2,min_players=2,ranks=3,suits=1,jokers=0,random_seed=0)"
"""Zheng Shang You with the 3S 4S 5S, two players, the seed fixed: the deal (six orders) is the chance."""


def test_the_small_variant_deals_its_small_deck_by_chance_alone() -> None:
    game = pyspiel.load_game(TINY)
    assert game.num_players() == 2
    state = game.new_initial_state()
    for _ in range(4):  # the seed bytes: one outcome each
        assert state.chance_outcomes() == [(0, 1.0)]
        state.apply_action(0)
    assert [a for a, _ in state.chance_outcomes()] == [2, 3, 4]  # 3S 4S 5S, the deck's three cards
    with pytest.raises(IllegalActionError):
        game.new_initial_state().apply_action(7)  # a seed byte other than 0


def test_cfr_exploitability_falls() -> None:
    from open_spiel.python.algorithms import cfr, exploitability

    game = pyspiel.load_game(TINY)
    solver = cfr.CFRSolver(game)
    seen = []
    for i in range(8):
        solver.evaluate_and_update_policy()
        if i + 1 in (1, 2, 4, 8):
            seen.append(exploitability.exploitability(game, solver.average_policy()))
    assert all(b < a for a, b in itertools.pairwise(seen)), seen
    assert seen[-1] < seen[0] / 4


def test_outcome_sampling_mccfr_runs_and_its_exploitability_falls() -> None:
    import numpy as np
    from open_spiel.python.algorithms import exploitability, outcome_sampling_mccfr

    np.random.seed(7)  # OpenSpiel's sampler draws from numpy's global generator
    game = pyspiel.load_game(TINY)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    first = None
    for _ in range(4):
        for _ in range(100):
            solver.iteration()
        value = exploitability.exploitability(game, solver.average_policy())
        first = value if first is None else first
    assert value < first


def test_random_seed_must_be_one_or_zero() -> None:
    from solver.errors import RulesError

    with pytest.raises(RulesError, match="random_seed must be 1"):
        pyspiel.load_game("python_shanghai_zsy(random_seed=2)")
