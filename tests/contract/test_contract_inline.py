"""Inline Contract positions that say everything a file can: table owners and custom contract lists."""

from __future__ import annotations

import pytest

from cli.inline import Inline, parse_rule_overrides
from solver.errors import PuzzleError
from solver.puzzles import ContractPosition
from solver.rules import ContractRules


def test_table_owners_inline() -> None:
    # round 1 (set + run): each owner's melds are that contract (the one legality check, issue 28)
    table = "p1: 5S 6S 7S 8S | p1: KS KH KD | p0: 9H 9D 9C | p0: 3C 4C 5C 6C"
    puzzle = Inline("contract", hand="9S QD", table=table, laid_down=True).puzzle({})
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    assert [(str(t.meld), t.owner) for t in pos.table] == [
        ("5S 6S 7S 8S", 1),
        ("KS KH KD", 1),
        ("9H 9D 9C", 0),
        ("3C 4C 5C 6C", 0),
    ]
    plain = Inline("contract", hand="9S QD", table="9H 9D 9C | 3C 4C 5C 6C", laid_down=True).puzzle({}).position
    assert isinstance(plain, ContractPosition) and {t.owner for t in plain.table} == {0}


@pytest.mark.parametrize(
    ("table", "game", "needle"),
    [("px: 5S 6S 7S 8S", "contract", "written p0, p1"), ("p1: 5S 6S 7S", "manipulation", "contract only")],
)
def test_bad_owners_are_one_clear_line(table: str, game: str, needle: str) -> None:
    with pytest.raises(PuzzleError, match=needle):
        Inline(game, hand="9S", table=table).puzzle({})


def test_custom_contracts_inline() -> None:
    rules = parse_rule_overrides(None, ["contracts=set:4 set; run run"])
    assert rules == {"contracts": ["set:4 set", "run run"]}
    puzzle = Inline("contract", hand="5H 5D 5S 5C 6C 6D 6S", round=1).puzzle({**rules, "deal": 7})
    assert isinstance(puzzle.rules, ContractRules)
    assert [str(r) for r in puzzle.rules.contract(1)] == ["set:4", "set"]
    assert parse_rule_overrides(None, ["contracts=us"]) == {"contracts": "us"}
    assert parse_rule_overrides(None, ["contracts=set run"]) == {"contracts": ["set run"]}
    with pytest.raises(PuzzleError, match="empty round"):
        parse_rule_overrides(None, ["contracts=set run;;run run"])
