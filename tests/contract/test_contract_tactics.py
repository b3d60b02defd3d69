"""The tactics for going out first (the search player's default in Contract Shanghai)."""

from __future__ import annotations

from solver.cards import Card, Cards
from solver.contract.actions import CCall, CDiscard, CNoCall
from solver.contract.api import best_discards
from solver.contract.game import ContractGame
from solver.contract.players import solver_decision
from solver.contract.tactics import fits_table, keep_score, outs_after, tactical_action
from solver.engine import new_game
from solver.engine.candidates import CONTRACT_KINDS
from solver.engine.ismcts import IsmctsPlayer
from solver.engine.players import SolverPlayer
from solver.rules import ContractRules
from tests.contract.test_engine_contract import scripted


def test_after_the_lay_down_the_card_one_away_from_a_run_is_kept() -> None:
    # 10H waits for 9H to extend 5H-8H; 3C can never be laid off: the solver sheds the ten (more points)
    game = scripted(
        ["10H 3C", "KD QD", "4S 4D"],
        table=[("5H 6H 7H 8H", 0), ("JS JD JC", 0)],
        laid=[True, False, False],
        phase="play",
    )
    assert solver_decision(game).action == CDiscard(0, Card.parse("10H"))
    assert keep_score(game, Card.parse("10H")) > keep_score(game, Card.parse("3C"))
    assert tactical_action(game) == CDiscard(0, Card.parse("3C"))


def test_a_seen_card_cannot_make_a_card_fit() -> None:
    # both nines of hearts are in the pile: 10H will never fit the run
    game = scripted(
        ["10H 3C", "KD QD", "4S 4D"],
        pile="9H 9H",
        table=[("5H 6H 7H 8H", 0), ("JS JD JC", 0)],
        laid=[True, False, False],
        phase="play",
    )
    assert keep_score(game, Card.parse("10H"))[1] == 0 and keep_score(game, Card.parse("3C"))[1] == 0
    assert tactical_action(game) == CDiscard(0, Card.parse("10H"))  # then the solver's order: the most points


def test_unseen_copies_are_counted_for_the_decks_in_play() -> None:
    # both nines of hearts seen: none unseen with two decks, one with three
    table = [("5H 6H 7H 8H", 0), ("JS JD JC", 0)]
    for decks, unseen in ((2, 0), (3, 1)):
        game = scripted(
            ["10H 3C", "KD QD", "4S 4D"],
            pile="9H 9H",
            table=table,
            laid=[True, False, False],
            phase="play",
            rules=ContractRules(decks=decks),
        )
        assert keep_score(game, Card.parse("10H"))[1] == unseen


def test_before_the_lay_down_a_card_that_fits_the_table_is_kept() -> None:
    # 9D and 4C both leave the contract one card away; 9D fits the opponent's nines, so 4C goes
    hand = "5S 5H 5D 6H 7H 8H 9D 4C"
    game = scripted([hand, "KD QD", "4S 4D"], table=[("9S 9H 9C", 1), ("JS QS KS AS", 1)], laid=[False, True, False])
    game.phase = "play"
    assert fits_table(game, Card.parse("9D")) and not fits_table(game, Card.parse("4C"))
    assert solver_decision(game).action == CDiscard(0, Card.parse("9D"))
    assert tactical_action(game) == CDiscard(0, Card.parse("4C"))


def test_a_discard_that_brings_the_contract_closer_is_not_traded_for_a_table_fit() -> None:
    # discarding 6H would take the run a card further away: only the cards tied with the solver's choice compete
    game = scripted(
        ["5S 5H 5D 6H 7H 8H 4C", "KD QD", "4S 4D"],
        table=[("6S 6D 6C", 1), ("JS QS KS AS", 1)],
        laid=[False, True, False],
    )
    game.phase = "play"
    assert fits_table(game, Card.parse("6H"))
    assert tactical_action(game) == CDiscard(0, Card.parse("4C"))


def test_before_the_lay_down_the_discard_leaving_the_most_outs_is_made() -> None:
    # set made; two runs started: 10C JC waits for 8C 9C QC KC, 6H 7H only for 4H 5H (both 8H and 9H
    # are in the pile): discarding any of the four keeps the contract two cards away. The solver sheds
    # a ten-point club; the tactics a heart, keeping the clubs' outs (8 and the 4 black twos) over the
    # hearts' (4H 4H 5H, the 4 wilds, and 5S 5D 5C 5C: a run 4H-7H with the hand's 5H, a new set of fives)
    game = scripted(["5S 5H 5D 10C JC 6H 7H", "KD QD", "4S 4D"], pile="8H 8H 9H 9H")
    game.phase = "play"
    assert outs_after(game, Card.parse("7H")) == 12 and outs_after(game, Card.parse("10C")) == 11
    assert solver_decision(game).action.card in Cards.parse("10C JC")
    assert tactical_action(game) == CDiscard(0, Card.parse("7H"))


def _first_call(seed: int) -> ContractGame:
    """A seeded solver game played until the solver would call "Shanghai!" (the game at that point)."""
    game = new_game("contract", None, 4, seed, max_rounds=1)
    assert isinstance(game, ContractGame)
    solver = SolverPlayer()
    while not game.is_terminal():
        action = solver.choose(game)
        if isinstance(action, CCall):
            return game
        game.apply(action)
    raise AssertionError(f"no call in seed {seed}")


def test_no_shanghai_call() -> None:
    game = _first_call(2)
    assert isinstance(solver_decision(game).action, CCall)
    assert isinstance(tactical_action(game), CNoCall)
    # the search player leaves the offer to its default, unsearched
    decision = IsmctsPlayer(seed=1, budget=20, width=4).decide(game)
    assert isinstance(decision.action, CNoCall) and decision.facts["simulations"] == 0


def test_the_search_default_is_the_tactical_choice() -> None:
    """The search's candidate 0 is the tactical choice: kept unsearched by default
    (``SEARCHED``: no kind measured a gain) on every turn, and kept by a search of every kind
    on the first turn of each kind of action (a search is a second or two: one of each kind)."""
    game = new_game("contract", None, 4, 3, max_rounds=1)
    assert isinstance(game, ContractGame)
    solver = SolverPlayer()
    searched: set[type] = set()
    for _ in range(80):
        if game.is_terminal():
            break
        tactical = tactical_action(game)
        kept = IsmctsPlayer(seed=2, budget=10).decide(game)
        assert kept.action == tactical and kept.facts["simulations"] == 0
        if type(tactical) not in searched:
            searching = frozenset(CONTRACT_KINDS)  # short rollouts: a search is a second or two
            decision = IsmctsPlayer(seed=2, budget=10, width=4, depth=4, search=searching).decide(game)
            if decision.facts["simulations"] and decision.facts["default"]:
                assert decision.action == tactical
                searched.add(type(tactical))
        game.apply(solver.choose(game))
    assert {kind.__name__ for kind in searched} >= {"CDiscard", "CLayDown", "CLayOff", "CSwap"}, searched


def test_the_rounds_first_discard_is_the_discard_reasoning_not_a_fallback() -> None:
    # the first player's opening discard (13 cards, no draw, no melding) has no whole-turn plan: it is
    # the documented discard reasoning (distance first), not the greedy rule "out of time"
    game = scripted(["5S 5H 5D 6C 7C 8C 9C KD KH 3S QH 4D AC", "KC QC", "4S 4D"], phase="first_discard")
    decision = solver_decision(game)
    assert "greedy" not in decision.reason and "time limit" not in decision.reason, decision.reason
    assert isinstance(decision.action, CDiscard) and decision.action in game.legal_actions()
    ranked = dict(best_discards(game.hands[0], game.rules, 1))
    assert ranked[decision.action.card] == min(ranked.values())
    assert decision.action.card not in Cards.parse("5S 5H 5D KD KH")  # keeps its melds' cards
