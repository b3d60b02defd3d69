"""Contract Shanghai: the rule book's changes and the crashes of issue 12, one test each.

* jokers added to the default rules (``jokers = 2`` with black twos): solve,
  hint, engine and self-play (a joker is always wild);
* a wild swap in a set takes any natural of the set's rank, never a wild;
* ``wild_limit`` is ``any`` by default, ``fewer`` in the ``us`` preset;
* with the stock and the pile both empty nobody draws and the pile is not
  shuffled again;
* what ``legal_actions`` folds, and that the rest is reachable.
"""

from __future__ import annotations

import pytest

from solver.cards import Card, Cards
from solver.contract import best_lay_down, best_layoff, distance_to_contract
from solver.contract.game import CLayDown, CLayOff, ContractGame, CSwap
from solver.contract.referee import check_lay_down, check_layoff
from solver.engine import new_game
from solver.engine.hints import hint_for_game, hint_for_puzzle
from solver.engine.selfplay import play_one, selfplay
from solver.errors import IllegalActionError, SolverTimeout
from solver.melds import Meld, TableMeld
from solver.puzzles import loads
from solver.ranks import JOKER
from solver.rules import ContractRules
from tests.contract.test_engine_contract import do, phase, scripted

JOKERS = ContractRules(jokers=2)  # the default rules (black twos wild) with two jokers added


def H(text: str) -> Cards:
    return Cards.parse(text)


# ---------------------------------------------------------------- jokers added to the default rules


def test_jokers_added_to_black_twos_are_wild() -> None:
    assert JOKERS.wilds == frozenset({JOKER, Card.parse("2S"), Card.parse("2C")})
    assert ContractRules().wilds == frozenset({Card.parse("2S"), Card.parse("2C")})  # no jokers, none wild


@pytest.mark.parametrize("text", ["8H 8C 8D JK 5S 6S 7S 8S", "7D 8H JD 9D 2S 8H 8C 2S JK"])
def test_solve_with_jokers_added(text: str) -> None:
    hand = H(text)
    down = best_lay_down(hand, JOKERS, 1)
    if down is not None:
        assert check_lay_down(hand, down.melds, JOKERS, 1) == down.points_left
    d = distance_to_contract(hand, JOKERS, 1)
    assert (d.missing == 0) == (down is not None)
    cp = distance_to_contract(hand, JOKERS, 1, method="cp-sat")
    assert cp.missing == d.missing
    table = [TableMeld(Meld.parse("5H 6H 7H 8H"), 1)]
    lay = best_layoff(H("JK 9H"), table, JOKERS)
    assert check_layoff(table, H("JK 9H"), lay.table, JOKERS) == lay.played == H("JK 9H")


def test_hint_with_jokers_added() -> None:
    puzzle = loads(
        'game = "contract"\n[rules]\njokers = 2\ndeal = 8\n[position]\nround = 1\nhand = "8H 8C 8D JK 5S 6S 7S 8S"\n'
    )
    assert hint_for_puzzle(puzzle, time_limit=5).action.startswith("laydown")


def test_engine_and_selfplay_with_jokers_added() -> None:
    for seed in (2, 5):
        result = play_one(
            "contract", {"jokers": 2}, ["solver", "random", "greedy"], seed, {"max_rounds": 1}, check=True
        )
        assert not result.error, result.error
    stats = selfplay("contract", 3, ["random"] * 4, rules={"jokers": 2}, options={"max_rounds": 2}, check=True)
    assert not stats.errors
    game = new_game("contract", {"jokers": 2}, 3, 2)
    assert isinstance(game, ContractGame)
    hint_for_game(game)  # the solver player decides in a game with jokers


# ---------------------------------------------------------------- wild swaps


def test_any_natural_of_the_set_rank_swaps_its_wild() -> None:
    # the source: any ten replaces the black two in 10D 10H 2S (its written role names another suit)
    table = [("10D 10H 2S=10D", 1), ("6S 7S 8S 9S", 1)]
    game = scripted(["10S 3C KC", "9H", "5D"], table=table, laid=[True, True, False], phase="play")
    swaps = [a for a in game.legal_actions() if isinstance(a, CSwap)]
    assert {(a.card, a.swap.wild) for a in swaps} == {(Card.parse("10S"), Card.parse("2S"))}
    do(game, "swap 0 10S 1")
    assert game.table[0].meld.multiset == H("10D 10H 10S")
    assert game.table[1].meld.multiset == H("6S 7S 8S 9S 2S")


def test_the_solver_players_planned_swap_is_legal() -> None:
    table = [("10D 10H 2S=10D", 1), ("6S 7S 8S 9S", 1)]
    game = scripted(["10S 4S", "9H", "5D"], table=table, laid=[True, True, False], phase="play")
    plan = best_layoff(game.hands[0], game.table, game.rules, player=0)
    assert plan.swaps and plan.can_go_out
    assert game.is_legal(CSwap(0, plan.swaps[0]))
    decision = hint_for_game(game)
    assert isinstance(decision.action, CSwap) and decision.action.swap == plan.swaps[0]


def test_a_wild_is_never_swapped_for_a_wild() -> None:
    # the 2C in this run is a wild standing for the two of clubs: another 2C (wild too) may not free it
    table = [("AC 2C=2C 3C 4C", 1), ("6S 7S 8S 9S", 1)]
    game = scripted(["2C 4H", "9H", "5D"], table=table, laid=[True, True, False], phase="play")
    assert not [a for a in game.legal_actions() if isinstance(a, CSwap)]
    with pytest.raises(IllegalActionError):
        do(game, "swap 0 2C 2C 1")
    sets = scripted(["2C 4H", "9H", "5D"], table=[("10D 10H 2S=10D", 1), ("6S 7S 8S 9S", 1)], laid=[True, True, False])
    sets.phase = "play"
    with pytest.raises(IllegalActionError):
        do(sets, "swap 0 2C 2S 1")


# ---------------------------------------------------------------- the wild limit


def test_wild_limit_default_any_us_fewer() -> None:
    assert ContractRules().wild_limit == "any"
    assert ContractRules.preset("us").wild_limit == "fewer"
    hand = H("5H 2S 2C 6C 7C 8C 9C")  # a set of one natural and two wilds
    down = best_lay_down(hand, ContractRules(), 1)
    assert down is not None and check_lay_down(hand, down.melds, ContractRules(), 1) == 0
    assert best_lay_down(hand, ContractRules(wild_limit="fewer"), 1) is None


# ---------------------------------------------------------------- stock and pile both empty


def test_no_draw_once_stock_and_pile_are_empty() -> None:
    game = scripted(["9C 5H 7D", "KD QD", "3S 4S"], phase="play")  # no stock, no pile
    do(game, "discard 9C")
    assert game.to_move == 1 and phase(game) == "offer"
    do(game, "decline", "nocall")  # player 0 discarded the 9C: only player 2 may call it
    # the declined 9C is not shuffled back into a stock: player 1 draws nothing and plays
    assert game.to_move == 1 and phase(game) == "play"
    assert game.hands[1] == H("KD QD") and game.pile == [Card.parse("9C")] and not game.stock
    do(game, "discard KD")  # hands shrink until someone goes out
    assert game.hands[1] == H("QD") and game.to_move == 2


# ---------------------------------------------------------------- legal actions: what is folded


def test_folded_choices_are_reachable() -> None:
    # one lay-down is listed; any other legal one is accepted
    game = scripted(["5H 5S 5D 5C 6C 7C 8C 9C KD", "3S", "4S"], phase="play")
    listed = [a for a in game.legal_actions() if isinstance(a, CLayDown)]
    assert len(listed) == 1
    other = game.parse_action("laydown 5H 5S 5D | 6C 7C 8C 9C")
    longer = game.parse_action("laydown 5H 5S 5D 5C | 6C 7C 8C 9C")
    assert sum(other == a or longer == a for a in listed) <= 1
    assert game.is_legal(other) and game.is_legal(longer)
    # lay-offs are listed one card at a time, a wild without a role and at the run's other end (decision
    # 30: two tables); other roles, or several cards, are reachable
    table = [("5H 6H 7H 8H", 1)]
    lay = scripted(["2S 3H 4H KD", "9H", "5D"], table=table, laid=[True, True, False], phase="play")
    singles = [a for a in lay.legal_actions() if isinstance(a, CLayOff)]
    assert sorted(str(a) for a in singles) == ["layoff 0 2S", "layoff 0 2S=4H", "layoff 0 4H"]
    assert lay.is_legal(lay.parse_action("layoff 0 2S=4H"))
    assert lay.is_legal(lay.parse_action("layoff 0 3H 4H"))
    assert lay.is_legal(lay.parse_action("layoff 0 3H 2S=4H"))
    # a swap is listed with the freed wild's role left open; a role is reachable too
    table2 = [("10D 10H 2S=10D", 1), ("6S 7S 8S 9S", 1)]
    swap = scripted(["10S 4H", "9H", "5D"], table=table2, laid=[True, True, False], phase="play")
    listed_swaps = [a for a in swap.legal_actions() if isinstance(a, CSwap)]
    assert listed_swaps and all(a.role is None for a in listed_swaps)
    assert swap.is_legal(swap.parse_action("swap 0 10S 2S 1=5S"))


# ---------------------------------------------------------------- a solver time-out never stops a game


def test_lay_down_not_found_in_time_is_not_listed(monkeypatch: pytest.MonkeyPatch) -> None:
    def too_slow(*args: object, **kwargs: object) -> None:
        raise SolverTimeout("CP-SAT found no answer within the time limit")

    game = scripted(["5H 6H 7H 8H 9C 10C JC QC 2S 3S 4S 5S KD", "3D", "4D"], round_=7, phase="play")
    monkeypatch.setattr("solver.contract.game.best_lay_down", too_slow)
    assert not [a for a in game.legal_actions() if isinstance(a, CLayDown)]
    assert game.is_legal(game.parse_action("laydown 5H 6H 7H 8H | 9C 10C JC QC | 2S 3S 4S 5S"))


def test_solver_player_falls_back_to_greedy_on_a_time_out(monkeypatch: pytest.MonkeyPatch) -> None:
    def too_slow(*args: object, **kwargs: object) -> None:
        raise SolverTimeout("the discard search did not finish within the time limit")

    game = scripted(["5H 9C KD 3S", "3D", "4D"], phase="play")
    monkeypatch.setattr("solver.contract.players.best_discards", too_slow)
    monkeypatch.setattr("solver.contract.turn.best_discards", too_slow)  # the whole-turn plan's discard
    decision = hint_for_game(game)
    assert game.is_legal(decision.action) and "greedy" in decision.reason
