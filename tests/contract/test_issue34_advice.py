"""Issue 34, "advice a player doubts", in Contract Shanghai: no wild discarded while a natural card
does as well (the reason says which wild is kept), and the call decision in a player's words."""

from __future__ import annotations

import random

import pytest

from solver.cards import Card, Cards
from solver.contract import best_discards, best_lay_down, call_decision, plan_after_draw
from solver.contract.actions import CDiscard
from solver.contract.advice import turn_decision
from solver.contract.players import solver_decision
from solver.contract.tactics import tactical_action
from solver.melds import Meld, TableMeld
from solver.rules import ContractRules
from tests.contract.test_engine_contract import scripted

US = ContractRules.preset("us")
ISSUE_HAND = Cards.parse("7S 2C 2S 9D 9H 9C KD QD 4C 5H 6S")  # the issue's example, round 1 of the us preset


def _ties(ranked: tuple[tuple[Card, int], ...], rules: ContractRules) -> bool:
    """True when a wild and a natural card both keep the contract as close as the best discard."""
    best = ranked[0][1]
    return any(c in rules.wilds and d == best for c, d in ranked) and any(
        c not in rules.wilds and d == best for c, d in ranked
    )


def test_the_issues_hand_discards_a_natural_and_says_which_wilds_it_keeps() -> None:
    ranked = best_discards(ISSUE_HAND, US, 1)
    assert _ties(ranked, US)  # the position of the issue: 2S, 2C and the naturals all leave 1 card missing
    assert ranked[0][0] not in US.wilds
    after = plan_after_draw(ISSUE_HAND, (), US, 1)
    assert after.discard is not None and after.discard not in US.wilds
    assert "the wilds 2S 2C are kept" in after.reason
    decision = turn_decision(ISSUE_HAND, (), US, 1, discard=None)  # the hint and solve's turn
    assert decision.action == f"discard {after.discard}" and "kept" in decision.reason


@pytest.mark.parametrize("preset", sorted(ContractRules.PRESETS))
def test_no_wild_is_discarded_while_a_natural_does_as_well(preset: str) -> None:
    """Seeded hands with two to four wilds, every preset: the plan's discard is a wild only when
    every natural card's discard leaves the contract further away (and the reason says so)."""
    rules = ContractRules.preset(preset)
    deck = list(rules.deck)
    wilds = [c for c in deck if c in rules.wilds]
    naturals = [c for c in deck if c not in rules.wilds]
    rng = random.Random(34)
    checked = 0
    for _ in range(12):
        round_ = rng.randint(1, 6)
        hand = Cards(rng.sample(wilds, rng.randint(2, 4)) + rng.sample(naturals, 8))
        if best_lay_down(hand, rules, round_) is not None:
            continue
        ranked = dict(best_discards(hand, rules, round_))
        after = plan_after_draw(hand, (), rules, round_)
        assert after.discard is not None and after.distance == ranked[after.discard] == min(ranked.values())
        if after.discard in rules.wilds:
            assert all(d > after.distance for c, d in ranked.items() if c not in rules.wilds)
            assert "every natural" in after.reason or "any natural" in after.reason
        checked += 1
    assert checked >= 6


def test_a_tie_in_the_us_preset_later_in_the_game() -> None:
    hand = Cards.parse("2S 3H JH 5D 5D 7D JD QD 2C 2C 6C 10C")  # round 3, run + run: the wilds tie
    ranked = best_discards(hand, US, 3)
    assert _ties(ranked, US) and ranked[0][0] not in US.wilds
    assert plan_after_draw(hand, (), US, 3).discard not in US.wilds


def test_the_search_default_sheds_a_natural_before_a_wild_that_cannot_go_down() -> None:
    # laid down, us rules (fewer wilds than naturals): 2S cannot join JS JD 2C, 3C fits nothing;
    # every discard is ranked equal, and the wild (25 points) used to go first
    game = scripted(
        ["2S 3C", "KD QD", "4S 4D"],
        table=[("JS JD 2C", 1)],
        laid=[True, True, False],
        phase="play",
        rules=US,
    )
    assert tactical_action(game) == CDiscard(0, Card.parse("3C"))


def test_a_laid_down_player_is_told_why_there_is_no_call_in_a_players_words() -> None:
    table = [TableMeld(Meld.parse("QH QD QC"), 0), TableMeld(Meld.parse("5H 6H 7H 8H"), 0)]
    call = call_decision(
        Cards.parse("3C 9D"), table, ContractRules(), 1, discard=Card.parse("QS"), player=0, laid_down=True
    )
    assert not call.call
    assert "replace itself" not in call.reason
    assert "already laid down" in call.reason and "QS" in call.reason and "penalty card" in call.reason
    assert "two cards" in call.reason and "no discard" in call.reason


def test_the_solver_players_no_call_when_laid_down_has_no_distance_to_misread() -> None:
    """The hint of a laid-down player asked to call: the reason in a player's words, and no distance
    facts (the web page would write them as 'with the card the contract would be 0 cards away')."""
    game = scripted(
        ["3C 9D", "5H 9C", "KD QD"],
        stock="10H 7D JC",
        pile="QS",
        table=[("QH QD QC", 1), ("5H 6H 7H 8H", 1)],
        laid=[False, True, False],
    )
    game.apply(game.parse_action("decline"))
    assert game.to_move == 1 and game.phase == "call"
    decision = solver_decision(game)
    assert str(decision.action) == "nocall"
    assert decision.reason.startswith("no call: already laid down: a call puts QS and a penalty card")
    assert "distance" not in decision.facts and "distance_call" not in decision.facts
