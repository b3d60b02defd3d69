"""The whole-turn plan (:mod:`solver.contract.turn`) against the brute force of ``tests/oracles/contract_turn.py``."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import Card, Cards
from solver.contract.referee import check_lay_down, check_layoff
from solver.contract.turn import best_turn, call_decision, plan_after_draw
from solver.errors import Status
from solver.melds import Meld, TableMeld
from solver.rules import ContractRules
from tests.oracles.contract_turn import brute_after_draw, random_turn_position

RULES = ContractRules()
NO_SWAP = ContractRules.preset("no_wild_swap")


def test_the_issue_round_one_position_starts_with_the_take() -> None:
    hand = Cards.parse("5H 5D 5S 6C 7C 8C 9C KD KH 2S QH 4D")
    plan = best_turn(hand, (), RULES, 1, discard=Card.parse("10C"))
    assert plan.take is True and plan.reason.startswith("take")
    after = plan.after
    assert after is not None and after.lay_down and after.status is Status.OPTIMAL
    taken = hand + Cards.parse("10C")
    left = check_lay_down(taken, after.lay_down, RULES, 1)
    assert after.discard is not None and left - RULES.points(after.discard) == after.points_left
    assert after.points_left == brute_after_draw(taken, (), RULES, 1) == 19


def test_the_issue_wild_in_run_position_is_refused_without_swaps() -> None:
    table = (TableMeld(Meld.parse("5S 6S 2S 8S"), owner=1),)
    hand = Cards.parse("7S KD")
    after = plan_after_draw(hand, table, NO_SWAP, 3, laid_down=True)
    assert after.layoff is None and after.discard == Card.parse("KD") and after.points_left == 7
    written = (TableMeld(Meld.parse("5S 6S 2S=7S 8S"), owner=1),)
    assert brute_after_draw(hand, written, NO_SWAP, 3, laid_down=True) == 7
    swapped = plan_after_draw(hand, table, RULES, 3, laid_down=True)  # with swaps: the 7S goes in, the 2S moves
    assert swapped.layoff is not None and swapped.layoff.swaps and swapped.points_left == 0
    assert brute_after_draw(hand, written, RULES, 3, laid_down=True) == 0


def test_lay_down_then_lay_off_onto_another_players_meld() -> None:
    # the 9H goes onto player 1's nines; holding it back from the lay-down is the better turn
    table = (TableMeld(Meld.parse("9S 9D 9C"), owner=1),)
    hand = Cards.parse("5H 5D 5S 6H 7H 8H 9H KD")
    after = plan_after_draw(hand, table, RULES, 1)
    assert after.lay_down and after.points_left == brute_after_draw(hand, table, RULES, 1)
    if after.layoff is not None:
        full = (*table, *(TableMeld(m, 0) for m in after.lay_down))
        check_layoff(full, hand - Cards(c for m in after.lay_down for c in m.cards), list(after.layoff.table), RULES, 0)


def test_draw_when_the_discard_does_not_help() -> None:
    hand = Cards.parse("5H 5D 5S 6C 7C 8C KD QH 4D 3S JD 10H")
    plan = best_turn(hand, (), RULES, 1, discard=Card.parse("KS"))
    assert plan.take is False and plan.after is None and plan.distance == 1 and plan.outs


@pytest.mark.parametrize("round_", [1, 7])
def test_an_empty_hand_passes(round_: int) -> None:
    """A position with no card in hand (the web API's fuzz sends one): nothing to lay down or discard,
    the plan passes (the discard reasoning has no card to rank)."""
    after = plan_after_draw(Cards(), (), ContractRules(), round_)
    assert after.lay_down == () and after.discard is None and after.points_left == 0
    assert not after.goes_out and after.status is Status.OPTIMAL and after.reason == "holds no card: passes"


def test_call_decision() -> None:
    hand = Cards.parse("5H 5D 6C 7C 8C KD QH 4D 3S JD 10H 9S")
    yes = call_decision(hand, (), RULES, 1, discard=Card.parse("5S"), player=2, laid_down=False)
    assert yes.call and yes.distance_call < yes.distance
    no = call_decision(hand, (), RULES, 1, discard=Card.parse("KC"), player=2, laid_down=False)
    assert not no.call and no.penalty_points > 0
    assert not call_decision(hand, (), RULES, 7, discard=Card.parse("5S"), player=2, laid_down=False).call


@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.integers(0, 10_000), st.sampled_from([1, 2, 3, 4, 5, 7]), st.booleans())
def test_plan_equals_the_brute_force(seed: int, round_: int, wilds: bool) -> None:
    pos = random_turn_position(random.Random(seed), RULES, round_, wilds_on_table=wilds)
    if not pos.laid_down and len(pos.hand) > 12:
        pos = random_turn_position(random.Random(seed + 1), RULES, round_, wilds_on_table=wilds)
    after = plan_after_draw(pos.hand, pos.table, RULES, round_, laid_down=pos.laid_down)
    brute = brute_after_draw(pos.hand, pos.table, RULES, round_, laid_down=pos.laid_down)
    mine = after.points_left if (pos.laid_down or after.lay_down) else None
    assert mine == brute
    assert after.status is Status.OPTIMAL


@pytest.mark.parametrize("rules", [NO_SWAP, ContractRules(layoff_same_turn=False)])
def test_plan_equals_the_brute_force_under_other_rules(rules: ContractRules) -> None:
    for seed in range(6):
        pos = random_turn_position(random.Random(seed), rules, 1 + seed % 3, wilds_on_table=True)
        after = plan_after_draw(pos.hand, pos.table, rules, pos.round, laid_down=pos.laid_down)
        brute = brute_after_draw(pos.hand, pos.table, rules, pos.round, laid_down=pos.laid_down)
        assert (after.points_left if (pos.laid_down or after.lay_down) else None) == brute
