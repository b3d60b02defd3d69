"""The ismcts player: legal, seeded choices; budgets; the rank scoring; a game of each kind."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from solver.engine import new_game
from solver.engine.base import Game
from solver.engine.candidates import CONTRACT_KINDS
from solver.engine.ismcts import IsmctsPlayer, parse_kind, values
from solver.engine.players import PLAYER_KINDS, RandomPlayer, make_player, make_players
from solver.engine.selfplay import play_one
from solver.errors import IllegalActionError


@pytest.mark.parametrize(
    ("game", "options"),
    [("zsy", {"max_hands": 1}), ("contract", {"max_rounds": 1, "turn_limit": 30}), ("manipulation", {"max_hands": 1})],
)
def test_a_game_with_ismcts(game: str, options: dict[str, int]) -> None:
    result = play_one(game, {}, ["ismcts:3:random", "greedy", "random", "greedy"], 5, options, check=True)
    assert not result.error
    assert result.winners


def test_choices_are_legal_and_seeded() -> None:
    game = new_game("zsy", None, 4, 8, max_hands=1)
    mover = RandomPlayer(1)
    for _ in range(12):
        a = IsmctsPlayer(seed=3, budget=6, rollout="random").choose(game)
        b = IsmctsPlayer(seed=3, budget=6, rollout="random").choose(game)
        assert str(a) == str(b)
        assert game.is_legal(a)
        game.apply(mover.choose(game))


def test_search_leaves_the_game_alone() -> None:
    game = new_game("contract", None, 4, 2, max_rounds=1)
    before = (list(game.hands), game._hidden(), len(game.history))
    IsmctsPlayer(seed=1, budget=5, rollout="random", width=4).choose(game)
    assert (list(game.hands), game._hidden(), len(game.history)) == before


def test_budget_in_seconds_and_simulations() -> None:
    game = new_game("zsy", None, 4, 3, max_hands=1)
    player = parse_kind("ismcts:7:random", 0)
    player.choose(game)
    assert player.simulations == 7
    timed = parse_kind("ismcts:0.05s", 0)
    assert timed.budget == 0.05
    assert isinstance(make_player("ismcts", 1), IsmctsPlayer)
    assert "ismcts" in PLAYER_KINDS
    assert [p.name for p in make_players(["ismcts:2", "solver"])] == ["ismcts", "solver"]


@pytest.mark.parametrize("kind", ["ismcts:0", "ismcts:abc", "ismcts:5:nobody", "ismcts:1:2:3"])
def test_bad_kinds(kind: str) -> None:
    with pytest.raises(IllegalActionError):
        make_player(kind)


def test_values_rank_players() -> None:
    game = new_game("manipulation", None, 4, 1, max_hands=1)
    scores, epoch = game.scores(), game._epoch()
    game.hands = [game.hands[0], game.hands[1] - game.hands[1], game.hands[2], game.hands[3]]
    got = values(game, scores, epoch)
    assert got[1] == 1.0  # fewest cards held: best
    assert got[0] == got[2] == got[3] == pytest.approx(1 / 3)


class _Timed(IsmctsPlayer):
    """A search whose rollout actions each take ``step`` seconds of a clock of its own (slow deals,
    deterministically); records when each one started."""

    def __init__(self, step: float, **kwargs: Any) -> None:
        super().__init__(clock=self.now, **kwargs)
        self.t = 0.0
        self.step = step
        self.started: list[float] = []
        self.limits: list[tuple[float, float]] = []  # (time, the play-out state's time limit)

    def now(self) -> float:
        return self.t

    def decide(self, game: Game) -> Any:
        self.t = 0.0  # each decision's clock starts at 0
        return super().decide(game)

    def _policy(self, game: Game, seed: int) -> Callable[[Game], Any]:
        choose = super()._policy(game, seed)

        def slow(state: Game) -> Any:
            self.started.append(self.t)
            if hasattr(state, "time_limit"):
                self.limits.append((self.t, state.time_limit))
            self.t += self.step
            return choose(state)

        return slow


@pytest.mark.parametrize("step", [0.0005, 0.001, 0.003, 0.02, 0.2])
def test_a_budget_in_seconds_is_a_deadline_for_the_decision(step: float) -> None:
    """No rollout action starts after the deadline, however long a deal takes against the budget."""
    game = new_game("zsy", None, 4, 3, max_hands=1)
    player = _Timed(step, seed=2, budget=0.05, rollout="random")
    decision = player.decide(game)
    assert game.is_legal(decision.action)
    assert player.started and max(player.started) < 0.05
    if step <= 0.001:  # deals shorter than the budget: several were searched
        assert player.simulations >= 2


def test_the_play_outs_solver_questions_get_the_time_left() -> None:
    """A Contract play-out's solver questions are limited to the decision's time left (one slow
    question cannot carry the decision past its budget), and the game searched keeps its own limit."""
    game: Any = new_game("contract", None, 4, 9201, max_rounds=1)
    solver = RandomPlayer(1)
    player = _Timed(0.002, seed=2, budget=0.05, width=4, search=frozenset(CONTRACT_KINDS))  # searching
    while not player.limits:
        if game.current_player() == 0:
            player.decide(game)
        game.apply(solver.choose(game))
    assert all(limit == pytest.approx(0.05 - t) for t, limit in player.limits)
    assert game.time_limit == 2.0
