"""Random play of the OpenSpiel Contract game ends its round the rule book's way (issue 36 item 2).

Random players call discards until every card is in a hand and the stock and pile are empty; then the
no-progress ending (rule option ``no_progress``, default ``net``: docs/decisions-contract.md decision 29)
ends the round within a few turns. Before, a discard taken back counted as progress, and every random
hand ran to the 1,000-turn guard.
"""

from __future__ import annotations

import random

import pytest

from solver.contract.game import ContractGame

pyspiel = pytest.importorskip("pyspiel")
import solver.envs.openspiel  # noqa: E402,F401  (registers the games)


def _play(name: str, seed: int) -> ContractGame:
    """The engine game at the end of a random OpenSpiel game of ``name``."""
    rng = random.Random(seed)
    state = pyspiel.load_game(name).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert state.turn is not None and isinstance(state.turn.game, ContractGame)
    return state.turn.game


@pytest.mark.parametrize("seed", range(3))
def test_a_random_contract_hand_ends_when_nobody_draws_and_the_hands_stop_shrinking(seed: int) -> None:
    game = _play("python_shanghai_contract", seed)
    assert game.exhausted  # (random players do not go out)
    assert game.turns < 200  # (the guard is 1,000 turns)


def test_the_older_reading_still_runs_to_the_guard() -> None:
    game = _play("python_shanghai_contract(no_progress=discard,turn_limit=300)", 0)
    assert game.turns == 300
