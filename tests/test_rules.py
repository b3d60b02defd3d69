"""Rule sets as data: defaults from the rule book, presets, dict round trips, bad options."""

from __future__ import annotations

from typing import Any

import pytest

from solver.errors import RulesError
from solver.rules import GAMES, ContractRules, ManipulationRules, ZsyRules, rules_for


def test_defaults_follow_the_rule_book() -> None:
    m = ManipulationRules()
    assert (m.decks, m.ace, m.jokers, m.deal, m.initial_meld, m.target) == (2, "low", 0, 10, 0, 50)
    assert (m.must_play, m.draw_rule) == ("more_than_one", "until_playable")
    c = ContractRules()
    assert (c.wild_limit, c.distinct_set_ranks, c.max_calls) == ("any", False, None)
    assert ContractRules.preset("us").wild_limit == "fewer"
    assert (c.layoff_same_turn, c.wild_swap, c.wild_swap_own, c.last_round_all_at_once) == (True, True, False, True)
    assert (c.face_points, c.ace_points, c.wild_two_points) == ("ten", 15, 25)
    assert [str(r) for r in c.contract(4)] == ["set", "set", "run"]
    z = ZsyRules()
    assert (z.bombs, z.target) == (False, 11)


@pytest.mark.parametrize(
    ("game", "preset", "expect"),
    [
        ("manipulation", "german", {"decks": 2, "ace": "low", "must_play": "more_than_one"}),
        ("manipulation", "norwegian", {"decks": 1, "ace": "both", "must_play": "one", "draw_rule": "one"}),
        ("manipulation", "rummikub", {"jokers": 2, "deal": 14, "initial_meld": 30, "must_play": "never"}),
        ("contract", "us", {"contracts": "us"}),
        ("contract", "poker_deck", {"wild_cards": "jokers", "jokers": 6}),
        ("contract", "jokers_and_twos", {"wild_cards": "jokers_and_twos", "jokers": 6}),
        ("contract", "no_wild_swap", {"wild_swap": False}),
        ("contract", "last_round_normal", {"last_round_all_at_once": False}),
        ("zsy", "pairs", {"teams": "pairs"}),
        ("zsy", "teams6", {"teams": "teams6", "target": 50}),
    ],
)
def test_presets(game: str, preset: str, expect: dict[str, Any]) -> None:
    rules = rules_for(game, {"preset": preset})
    data = rules.to_dict()
    for key, value in expect.items():
        assert data[key] == value


@pytest.mark.parametrize("game", list(GAMES))
def test_every_preset_round_trips(game: str) -> None:
    cls = GAMES[game]
    for name in cls.PRESETS:
        rules = cls.preset(name)
        assert cls.from_dict(rules.to_dict()) == rules
        assert cls.from_dict(rules.changed()) == rules


@pytest.mark.parametrize(
    ("game", "data", "message"),
    [
        ("manipulation", {"colour": "red"}, "unknown manipulation rule option 'colour'"),
        ("manipulation", {"ace": "middle"}, "'ace' must be one of"),
        ("manipulation", {"decks": 5}, "'decks' must be between 1 and 4"),
        ("manipulation", {"decks": "two"}, "'decks' must be an integer"),
        ("manipulation", {"preset": "klingon"}, "unknown manipulation preset 'klingon'"),
        ("contract", {"wild_limit": "lots"}, "'wild_limit' must be one of"),
        ("contract", {"contracts": ["set flush"]}, "contract meld must be 'set' or 'run'"),
        ("contract", {"contracts": "klingon"}, "unknown contract list"),
        ("contract", {"wild_cards": "jokers"}, "needs jokers > 0"),
        ("contract", {"layoff_same_turn": "yes"}, "must be true or false"),
        ("zsy", {"bombs": 1}, "must be true or false"),
        ("poker", {}, "unknown game 'poker'"),
    ],
)
def test_bad_options_are_rejected(game: str, data: dict[str, Any], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_for(game, data)


def test_custom_contracts() -> None:
    rules = ContractRules.from_dict({"contracts": ["set:4 run:5", "run"]})
    assert rules.rounds == 2
    assert [(r.kind, r.min_len) for r in rules.contract(1)] == [("set", 4), ("run", 5)]
    with pytest.raises(RulesError, match="round must be 1-2"):
        rules.contract(3)


def test_wilds_per_preset() -> None:
    assert {str(c) for c in ContractRules().wilds} == {"2S", "2C"}
    assert {str(c) for c in ContractRules.preset("poker_deck").wilds} == {"JK"}
    assert {str(c) for c in ContractRules.preset("jokers_and_twos").wilds} == {"2S", "2C", "JK"}
    assert len(ContractRules.preset("poker_deck").deck) == 110


def test_contract_points() -> None:
    from solver.cards import Card

    r = ContractRules()
    pts = {c: r.points(Card.parse(c)) for c in ["5H", "KD", "AS", "2S", "2H"]}
    assert pts == {"5H": 5, "KD": 10, "AS": 15, "2S": 25, "2H": 2}
    r2 = ContractRules.from_dict({"face_points": "value", "ace_points": 14, "wild_two_points": 50})
    assert [r2.points(Card.parse(c)) for c in ["KD", "AS", "2C"]] == [13, 14, 50]
    assert ContractRules.preset("poker_deck").points(Card.parse("2S")) == 2
