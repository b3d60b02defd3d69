"""The engine's hint and the ``solver`` player answer from the whole-turn plan, always with a listed action."""

from __future__ import annotations

import random
from functools import cache

from solver.contract.game import CLayDown, ContractGame
from solver.engine.hints import hint_for_game
from solver.rules import ContractRules
from tests.oracles.contract_turn import random_turn_position


@cache
def _random_states(count: int) -> list[ContractGame]:
    """Games played at random for a random number of actions (every phase, laid down or not)."""
    states: list[ContractGame] = []
    for seed in range(count):
        rng = random.Random(seed)
        rules = ContractRules() if seed % 3 else ContractRules.preset("no_wild_swap")
        game = ContractGame(rules, 3 + seed % 2, seed=seed, max_rounds=2)
        steps = rng.randint(0, 160)
        for _ in range(steps):
            if game.is_terminal():
                break
            legal = game.legal_actions()
            melds = [a for a in legal if isinstance(a, CLayDown)]
            game.apply(melds[0] if melds and rng.random() < 0.7 else rng.choice(legal))
        if not game.is_terminal():
            states.append(game)
    return states


def test_the_hint_is_always_a_listed_legal_action() -> None:
    states = _random_states(30)
    assert len(states) > 20
    phases = set()
    for game in states:
        phases.add(game.phase)
        legal = game.legal_actions()
        hint = hint_for_game(game)
        assert hint.action in legal, (game.seed, str(hint.action), [str(a) for a in legal])
        assert str(hint.action) in [str(a) for a in legal]
        assert hint.reason
    assert {"offer", "play"} <= phases


def test_the_listed_lay_down_is_the_plans() -> None:
    rules = ContractRules()
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        pos = random_turn_position(rng, rules, 1 + seed % 6, wilds_on_table=seed % 2 == 0)
        if pos.laid_down:
            continue
        game = ContractGame(rules, 3, seed=seed)
        game.round, game.phase = pos.round, "play"
        game.in_turn = game.to_move = 0
        game.hands[0] = pos.hand
        game.table = [t for t in pos.table if t.owner != 0]
        game.clear_caches()
        plan = game.turn_plan()
        downs = [a for a in game.legal_actions() if isinstance(a, CLayDown)]
        assert plan is not None and bool(downs) == bool(plan.lay_down)
        if downs:
            assert downs[0].melds == plan.lay_down and hint_for_game(game).action is downs[0]
            checked += 1
    assert checked >= 3
