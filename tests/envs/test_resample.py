"""The fast resample (issue 36, item 6): deals judged on the engine game alone, the state replayed
once from the current deal's start."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver.extras import require

pyspiel = require("pyspiel", "openspiel")
import solver.envs.openspiel  # noqa: E402,F401
from solver.envs.openspiel_resample import Judge, _fitting, _hidden, replay  # noqa: E402
from tests.envs.test_openspiel import played  # noqa: E402

JUDGED = [
    "python_shanghai_zsy",
    "python_shanghai_zsy(hands=2)",
    "python_shanghai_contract(turn_limit=15,hands=2)",
    "python_shanghai_manipulation",
    "python_shanghai_manipulation(preset=norwegian)",
    "python_shanghai_manipulation(preset=rummikub)",
]


def _fits(state: Any, player: int, judge: Judge, outcomes: dict[int, int], seen: str) -> bool:
    """The slow check: the deal's engine actions replayed on the engine game, every other player's
    checked for legality (the replay through the env skips the masks and, since the resample's draws
    and passes are made without a listing, no longer finds an illegal draw), and the whole history
    replayed through the env to the same information state."""
    return judge._replayed(outcomes) and _fitting(state, player, outcomes, seen) is not None


@pytest.mark.parametrize("name", JUDGED)
def test_the_judge_accepts_exactly_the_deals_whose_replay_fits(name: str) -> None:
    # the engine-level judge must agree with the slow check it replaces (the whole history replayed
    # through the env, then the player's information state compared) on fresh deals of the hidden
    # slots: random ones, most of which contradict some other player's draw, pass or tribute
    game = pyspiel.load_game(name)
    rng = random.Random(name)
    verdicts = {True: 0, False: 0}
    for steps in (20, 60, 120, 200, 300):
        state = played(game, 7 + steps, steps)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        groups = [g for g in _hidden(state, player) if len(g) >= 2]
        seen = state.information_state_string(player)
        judge = Judge(state, player)
        for _ in range(6):
            outcomes: dict[int, int] = {}
            for group in groups:
                cards = [state.log[k][1] for k in group]
                rng.shuffle(cards)
                outcomes.update(zip(group, cards))
            verdict = judge(outcomes)
            assert verdict == _fits(state, player, judge, outcomes, seen)
            verdicts[verdict] += 1
        for _ in range(6):  # one swap from the true deal (which fits), judged by the checks it touches
            group = rng.choice(groups)
            i, j = rng.sample(group, 2)
            swapped = {k: state.log[k][1] for g in groups for k in g}
            swapped[i], swapped[j] = swapped[j], swapped[i]
            verdict = judge(swapped, (i, j))
            assert verdict == judge(swapped) == _fits(state, player, judge, swapped, seen)
            verdicts[verdict] += 1
    assert verdicts[True] >= 1


@pytest.mark.parametrize("name", ["python_shanghai_zsy(hands=2)", "python_shanghai_manipulation(deal=7,hands=2)"])
def test_the_replay_from_the_deals_start_is_the_replay_from_the_games_start(name: str) -> None:
    # the state kept where the current deal began gives the same state as a replay of the whole game
    game = pyspiel.load_game(name)
    checked = 0
    for steps in (40, 120, 250):
        state = played(game, 3 + steps, steps)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        short: Any = replay(state, player, {})
        kept, state.deal_start = state.deal_start, type(state.deal_start)(None)
        whole: Any = replay(state, player, {})
        state.deal_start = kept
        # the same engine actions (an earlier hand keeps the other players' picks as made, where the
        # whole replay has their index paths: both histories replay, neither is seen by the player)
        assert [str(a) for a in short.turn.game.history] == [str(a) for a in whole.turn.game.history]
        assert str(_again(game, short.history())) == str(short)
        assert str(short) == str(whole) and short.information_state_string(player) == seen_of(state, player)
        assert [seen_of(short, q) for q in range(game.num_players())] == [
            seen_of(whole, q) for q in range(game.num_players())
        ]
        checked += 1
    assert checked >= 2


def _again(game: Any, history: list[int]) -> Any:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def seen_of(state: Any, player: int) -> str:
    """The player's information state string."""
    return str(state.information_state_string(player))
