"""The solver-guided search: paired statistics, when it deviates and stops, the leaf evaluation."""

from __future__ import annotations

import pytest

from solver.cards import Cards
from solver.contract.game import ContractGame
from solver.contract.tactics import tactical_action
from solver.engine import new_game
from solver.engine.evaluate import rank, standing, values
from solver.engine.ismcts import IsmctsPlayer, Paired
from solver.engine.players import SolverPlayer
from solver.zsy.game import ZsyGame


def _paired(rows: list[list[float]]) -> Paired:
    stats = Paired(len(rows[0]))
    for row in rows:
        stats.add(row)
    return stats


def test_paired_keeps_the_default_without_clear_evidence() -> None:
    # the alternative gains 0.02 on average, within much noise
    rows = [[0.5, 0.5 + (0.3 if i % 2 else -0.26)] for i in range(40)]
    stats = _paired(rows)
    lo, hi = stats.bounds(1, 1.64)
    assert lo < 0.02 < hi
    assert not stats.settled(0.02, 1.64)
    assert stats.choice(0.02, 1.64) == 0


def test_paired_deviates_on_a_clear_gain_and_picks_the_best() -> None:
    rows = [[0.0, 0.5, 1.0 if i % 4 else 0.0] for i in range(20)]
    stats = _paired(rows)
    assert stats.gain(2) == pytest.approx(0.75)
    assert stats.choice(0.02, 1.64) == 2
    # one alternative is surely above the margin, the other too: not settled until only one can be chosen
    assert not stats.settled(0.02, 1.64) or stats.bounds(1, 1.64)[1] <= 0.02


def test_paired_settles_when_the_candidates_are_equivalent() -> None:
    stats = Paired(3)
    for i in range(40):
        stats.add([i % 2, i % 2, i % 2])
        if stats.settled(0.02, 1.64):
            break
    assert stats.n < 40  # equal results prove nothing can beat the default
    assert stats.choice(0.02, 1.64) == 0


def test_paired_needs_two_deals() -> None:
    stats = _paired([[0.0, 1.0]])
    assert stats.bounds(1, 1.64) == (float("-inf"), float("inf"))
    assert stats.choice(0.0, 1.64) == 0 and not stats.settled(0.0, 1.64)


def test_the_solver_choice_is_the_default_and_search_is_seeded() -> None:
    game = new_game("zsy", None, 4, 11, max_hands=1)
    solver = SolverPlayer()
    for _ in range(6):
        a = IsmctsPlayer(seed=2, budget=12).decide(game)
        b = IsmctsPlayer(seed=2, budget=12).decide(game)
        assert str(a.action) == str(b.action) and a.reason == b.reason
        assert game.is_legal(a.action)
        if a.facts["simulations"] and a.facts["default"]:
            assert str(a.action) == str(solver.choose(game))
        game.apply(solver.choose(game))


def test_no_budget_on_a_forced_decision() -> None:
    game = new_game("zsy", None, 4, 3, max_hands=1)
    # play until someone must pass (only one legal action)
    solver = SolverPlayer()
    while len(game.legal_actions()) > 1:
        game.apply(solver.choose(game))
    player = IsmctsPlayer(seed=1, budget=50)
    assert player.decide(game).facts["simulations"] == 0
    assert player.simulations == 0


def test_the_search_stops_early_when_the_choice_is_settled() -> None:
    game = new_game("zsy", None, 4, 7, max_hands=1)
    player = IsmctsPlayer(seed=4, budget=400, rollout="random", depth=2)
    counts = []
    solver = SolverPlayer()
    for _ in range(8):
        if len(game.legal_actions()) > 1:
            player.decide(game)
            counts.append(player.simulations)
        game.apply(solver.choose(game))
    assert counts and min(counts) < 400


def test_rank_shares_ties() -> None:
    assert rank([1.0, 1.0, 1.0, 1.0]) == [0.5] * 4
    assert rank([4.0, 3.0, 2.0, 1.0]) == [1.0, 2 / 3, 1 / 3, 0.0]


def test_zsy_standing_counts_plays_not_cards() -> None:
    game = new_game("zsy", None, 4, 1, max_hands=1)
    assert isinstance(game, ZsyGame)
    game.hands[1] = Cards.parse("3S 3H 3D 3C 4S 4H 4D 4C")  # two plays (bombs), eight cards
    game.hands[2] = Cards.parse("3S 5H 7D 9C")  # four plays, four cards
    assert standing(game, 1) < standing(game, 2)
    game.places.append(3)
    assert standing(game, 3) < standing(game, 1)


def test_contract_standing_prefers_the_contract_to_fewer_points() -> None:
    game = new_game("contract", None, 4, 2, max_rounds=1)
    assert isinstance(game, ContractGame)
    scores, epoch = game.scores(), game._epoch()
    got = values(game, scores, epoch)
    assert all(0.0 <= v <= 1.0 for v in got)
    game.laid_down[0] = True
    assert standing(game, 0) < 1000.0 <= min(standing(game, q) for q in (1, 2, 3))
    assert values(game, scores, epoch)[0] == 1.0


def test_racing_drops_a_clearly_worse_alternative_but_keeps_the_default() -> None:
    stats = Paired(3)
    for i in range(10):
        stats.add([0.5, 0.0, 0.5 + (0.25 if i % 2 else -0.25)])
    assert stats.racing(0.02, 1.64, least=8) == [0, 2]
    assert stats.racing(0.02, 1.64, least=20) == [0, 1, 2]  # too few deals to drop anyone yet
    stats.add([1.0, None, 1.0])  # candidate 1 sits out: its figures stand
    assert stats.count == [11, 10, 11] and stats.gain(1) == -0.5


def test_a_raced_search_still_returns_a_candidate() -> None:
    game = new_game("contract", None, 4, 5, max_rounds=1)
    solver = SolverPlayer()
    for _ in range(5):
        decision = IsmctsPlayer(seed=3, budget=10, min_deals=3, width=4).decide(game)
        assert game.is_legal(decision.action)
        game.apply(solver.choose(game))


def test_paired_measure_of_the_solver_against_itself_is_zero() -> None:
    from solver.engine.paired import paired

    result = paired("zsy", 4, "solver", seed=9)
    assert result.gain == 0.0 and result.changed_games == 0
    assert result.win_rate == result.baseline
    other = paired("zsy", 4, "random", seed=9)
    assert other.baseline == result.baseline  # the same seeds, the same seats
    assert other.win_rate == pytest.approx(other.baseline + other.gain)


def test_the_rollout_policy_by_game_unless_named() -> None:
    from solver.engine.ismcts import parse_kind

    contract = new_game("contract", None, 4, 2, max_rounds=1)
    zsy = new_game("zsy", None, 4, 2, max_hands=1)
    default = parse_kind("ismcts:0.2s", 0)
    assert default.rollout is None
    assert type(default._policy(contract, 1).__self__).__name__ == "SolverPlayer"  # type: ignore[attr-defined]
    assert type(default._policy(zsy, 1).__self__).__name__ == "GreedyPlayer"  # type: ignore[attr-defined]
    named = parse_kind("ismcts:0.2s:greedy", 0)
    assert type(named._policy(contract, 1).__self__).__name__ == "GreedyPlayer"  # type: ignore[attr-defined]


def test_a_contract_offer_is_left_to_the_default() -> None:
    game = new_game("contract", None, 4, 2, max_rounds=1)
    assert isinstance(game, ContractGame)
    solver = SolverPlayer()
    player = IsmctsPlayer(seed=1, budget=20, width=4)  # searching (Contract's own width keeps the default anyway)
    offers = 0
    for _ in range(60):
        if game.is_terminal():
            break
        words = {str(a) for a in game.legal_actions()}
        if words & {"take", "call"}:
            offers += 1
            decision = player.decide(game)
            assert decision.action == tactical_action(game)  # the solver's, but no call
            assert decision.facts["simulations"] == 0
        game.apply(solver.choose(game))
    assert offers > 0
