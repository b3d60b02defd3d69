"""Random play of the OpenSpiel Contract game ends its round the rule book's way (issue 36 item 2).

Random players call discards until every card is in a hand and the stock and pile are empty; then the
no-progress ending (rule option ``no_progress``, default ``net``: docs/decisions-contract.md decision 29)
ends the round within a few turns. Before, a discard taken back counted as progress, and every random
hand ran to the 1,000-turn guard.
"""

from __future__ import annotations

import random
from typing import Any

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


def _equal_draws_after_a_call(seed: int) -> tuple[object, int] | None:
    """A random OpenSpiel Contract game's first position right after a call whose penalty card and the
    draw after it were two equal cards (two decks) going to two players, the caller seated before the
    player in turn: (state, the caller)."""
    from solver.contract.game import CCall

    rng = random.Random(seed)
    state = pyspiel.load_game("python_shanghai_contract").new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        game = state.turn.game
        before, actions = list(game.stock), len(game.history)
        state.apply_action(rng.choice(state.legal_actions()))
        game = state.turn.game
        if len(game.history) > actions and isinstance(game.history[-1], CCall) and not state.is_chance_node():
            popped = before[len(game.stock) :]
            caller = game.history[-1].player
            if len(popped) == 2 and popped[0] == popped[1] and not game.reshuffles and caller < game.in_turn:
                return state, caller  # (a caller seated after the drawer was matched right before)
    return None


def test_a_callers_penalty_card_stays_seen_when_the_next_draw_is_an_equal_card() -> None:
    """The caller draws the penalty card first (the stock's top), then the player in turn draws: with
    two equal cards the caller's is the top slot. Before, the cards were matched to slots in seat
    order, the caller could get the deeper slot, and a resample dealt the caller's own penalty card anew
    (its information state changed: 'got 4S KD' became 'got 8H KD'; the resample then fell back to its
    Markov chain)."""
    from solver.envs import openspiel_resample

    found = next(f for f in (_equal_draws_after_a_call(seed) for seed in range(40)) if f is not None)
    state, caller = found
    seen = state.information_state_string(caller)  # type: ignore[attr-defined]
    outcome = {k: a for k, (_, a) in enumerate(state.log)}  # type: ignore[attr-defined]
    rng = random.Random(0)
    for _ in range(6):
        new: dict[int, int] = {}
        for group in openspiel_resample._hidden(state, caller):  # type: ignore[arg-type]
            cards = [outcome[k] for k in group]
            rng.shuffle(cards)
            new.update(zip(group, cards))
        again: Any = openspiel_resample.replay(state, caller, new)  # type: ignore[type-var]
        assert again.information_state_string(caller) == seen
