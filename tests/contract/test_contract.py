"""Contract Shanghai: the source's examples, puzzles through the referee, the graph layer, the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.cards import Card, Cards
from solver.contract import (
    UNREACHABLE,
    best_lay_down,
    best_layoff,
    can_go_down_whole,
    distance_to_contract,
)
from solver.contract.brute import exhaustive_distance, exhaustive_lay_down, exhaustive_layoff
from solver.contract.referee import check_lay_down, check_layoff
from solver.contract.wilds import resolve_wilds, run_shapes, swap_matching, wild_role_options
from solver.errors import MeldError, RulesError, TooManyCopiesError
from solver.melds import Meld, TableMeld
from solver.puzzles import ContractPosition, Puzzle, iter_puzzle_paths, load
from solver.rules import ContractRules
from solver.stated import stated_problem

ROOT = Path(__file__).resolve().parents[2]
RULES = ContractRules()


def H(text: str) -> Cards:
    return Cards.parse(text)


def T(*melds: tuple[str, int]) -> list[TableMeld]:
    return [TableMeld(Meld.parse(m), owner) for m, owner in melds]


# ---------------------------------------------------------------- the source's examples


def test_source_fives_onto_555_and_ten_of_spades_onto_6789() -> None:
    table = T(("5H 5D 5S", 1), ("6S 7S 8S 9S", 1))
    hand = H("5C 5C 10S KD")
    lay = best_layoff(hand, table, RULES)
    assert lay.played == H("5C 5C 10S") and lay.hand == H("KD") and lay.can_go_out
    assert str(lay.table[0].meld) == "5H 5D 5S 5C 5C" and str(lay.table[1].meld) == "6S 7S 8S 9S 10S"
    assert check_layoff(table, hand, lay.table, RULES, 0) == lay.played


def test_source_swap_ten_for_wild_two_freed_two_played_at_once() -> None:
    table = T(("10D 10H 2S", 1), ("6S 7S 8S 9S", 2))
    hand = H("10C 4S")
    lay = best_layoff(hand, table, RULES, objective="cards")
    assert lay.played == hand and not lay.hand and lay.can_go_out
    (swap,) = lay.swaps
    assert (swap.card, swap.meld, swap.wild, swap.to) == (Card.parse("10C"), 0, Card.parse("2S"), 1)
    assert str(lay.table[1].meld) == "4S 2S=5S 6S 7S 8S 9S"
    assert check_layoff(table, hand, lay.table, RULES, 0) == hand
    # the freed two never goes to the hand: the table's wilds are all still on the table
    assert sum(1 for t in lay.table for c in t.meld.cards if c in RULES.wilds) == 1


def test_swap_is_only_for_opponents_melds_unless_wild_swap_own() -> None:
    table = T(("10D 10H 2S", 0), ("6S 7S 8S 9S", 1))
    hand = H("10C 4S")
    assert best_layoff(hand, table, RULES).played == H("10C")
    own = ContractRules(wild_swap_own=True)
    assert best_layoff(hand, table, own).played == hand
    off = ContractRules.preset("no_wild_swap")
    assert best_layoff(hand, T(("10D 10H 2S", 1), ("6S 7S 8S 9S", 1)), off).played == H("10C")


def test_source_round7_rejects_a_hand_that_cannot_go_down_whole() -> None:
    hand = H("3H 4H 5H 6H 8S 9S 10S JS 4C 5C 6C 7C 9D KD")
    assert best_lay_down(hand, RULES, 7) is None
    assert can_go_down_whole(hand, RULES, 7) is None
    assert exhaustive_lay_down(hand, RULES, 7, max_left=1) is None
    # the contract itself can be made; with last_round_normal it may be laid down
    assert best_lay_down(hand, ContractRules.preset("last_round_normal"), 7) is not None
    whole = can_go_down_whole(hand - H("9D"), RULES, 7)
    assert whole is not None and whole.hand == H("KD")
    assert can_go_down_whole(hand - H("9D"), RULES, 7, discard=False) is None
    assert can_go_down_whole(hand - H("9D KD"), RULES, 7, discard=False) is not None


def test_black_two_is_wild_in_its_own_suit_run() -> None:
    down = best_lay_down(H("AC 2C 3C 4C JD QD KD AD"), RULES, 3)
    assert down is not None
    assert "AC 2C=2C 3C 4C" in [str(m) for m in down.melds]


def test_lay_down_leaves_fewest_points_and_writes_roles() -> None:
    hand = H("5H 5D 5S 6C 7C 8C 2S KD")
    down = best_lay_down(hand, RULES, 1)
    assert down is not None and down.points_left == 10 and down.hand == H("KD")
    assert all(r is not None for m in down.melds for c, r in zip(m.cards, m.roles) if c in RULES.wilds)
    assert check_lay_down(hand, down.melds, RULES, 1) == 10


def test_distance_counts_only_cards_that_can_still_come() -> None:
    hand = H("5H 5D 5S 6C 7C 8C KD")
    d = distance_to_contract(hand, RULES, 1)
    assert d.missing == 1 and set(d.options.distinct()) == set(H("5C 9C 2S 2C").distinct())
    assert d.options.count(Card.parse("9C")) == 2
    seen = H("9C 9C 5C 5C")
    d2 = distance_to_contract(hand, RULES, 1, seen=seen)
    assert d2.missing == 1 and set(d2.options.distinct()) == set(H("2S 2C").distinct())
    gone = H("9C 9C 5C 5C 2S 2S 2C 2C")
    assert distance_to_contract(hand, RULES, 1, seen=gone).missing == 3  # 6C 7C 8C is dead: 10D-KD
    assert distance_to_contract(H("5H"), RULES, 1, seen=RULES.deck - H("5H")).missing == UNREACHABLE


# ---------------------------------------------------------------- graph layer


def test_ambiguous_end_wild_roles() -> None:
    spec = RULES.meld_spec
    meld = Meld.parse("5H 6H 7H 2S")
    assert wild_role_options(meld, spec) == (frozenset(H("4H 8H").distinct()),)
    assert str(resolve_wilds(meld, spec)) == "5H 6H 7H 2S=8H"
    assert str(resolve_wilds(meld, spec, prefer="low")) == "5H 6H 7H 2S=4H"
    assert swap_matching(meld, H("4H"), spec) == {3: Card.parse("4H")}
    assert swap_matching(Meld.parse("5H 6H 7H 2S=8H"), H("4H"), spec) == {}


def test_lone_ace_reads_low_or_high() -> None:
    rules = ContractRules(wild_limit="any")
    shapes = run_shapes(Meld.parse("AH 2S 2C 2S"), rules.meld_spec)
    assert {s.naturals for s in shapes} == {(1,), (14,)}
    # a meld valid as both kinds is a set unless its roles make it a run (docs/decisions-contract.md)
    lay = best_layoff(H("10H 5H AD"), T(("AH 2S 2C 2S", 1)), rules, objective="cards")
    assert lay.played == H("AD")
    check_layoff(T(("AH 2S 2C 2S", 1)), H("10H 5H AD"), lay.table, rules, 0)


def test_layoff_both_ends_and_ambiguous_end_wild() -> None:
    table = T(("5H 6H 7H 2S", 1))
    lay = best_layoff(H("4H 8H"), table, RULES)
    assert lay.played == H("4H 8H") and not lay.swaps
    check_layoff(table, H("4H 8H"), lay.table, RULES, 0)


# ---------------------------------------------------------------- referee catches bad answers


def test_referee_rejects() -> None:
    table = T(("10D 10H 2S", 1), ("6S 7S 8S 9S", 1))
    with pytest.raises(MeldError, match="cards invented"):
        check_layoff(table, H("4S"), T(("10D 10H 2S", 1), ("5S 6S 7S 8S 9S", 1)), RULES, 0)
    with pytest.raises(MeldError, match="table cards lost"):
        check_layoff(table, H("10C"), T(("10D 10H 10C", 1), ("6S 7S 8S 9S", 1)), RULES, 0)
    with pytest.raises(MeldError, match="own melds"):
        own = T(("10D 10H 2S", 0), ("6S 7S 8S 9S", 1))
        check_layoff(own, H("10C"), T(("10D 10H 10C", 0), ("6S 7S 8S 9S 2S=10S", 1)), RULES, 0)
    with pytest.raises(MeldError, match="without a natural"):
        four = T(("10D 10H 10S 2S", 1), ("6S 7S 8S 9S", 1))
        check_layoff(four, H("4S"), T(("10D 10H 10S", 1), ("4S 2S=5S 6S 7S 8S 9S", 1)), RULES, 0)
    with pytest.raises(MeldError, match="do not make the contract"):
        check_lay_down(H("5H 5D 5S 6S 6H 6D"), [Meld.parse("5H 5D 5S"), Meld.parse("6S 6H 6D")], RULES, 1)
    with pytest.raises(MeldError, match="not in the hand"):
        check_lay_down(H("5H 5D"), [Meld.parse("5H 5D 5S"), Meld.parse("6S 7S 8S 9S")], RULES, 1)


def test_api_bad_input() -> None:
    with pytest.raises(RulesError, match="round must be 1-7"):
        best_lay_down(H("5H"), RULES, 8)
    with pytest.raises(TooManyCopiesError):
        best_lay_down(H("5H 5H 5H"), RULES, 1)
    with pytest.raises(MeldError, match="table meld 0"):
        best_layoff(H("5H"), T(("5H 6H 8H 9H", 1)), RULES)
    with pytest.raises(TooManyCopiesError):
        distance_to_contract(H("5H"), RULES, 1, seen=H("5H 5H"))


# ---------------------------------------------------------------- puzzles


PUZZLES = iter_puzzle_paths(ROOT / "puzzles" / "contract")


def test_enough_puzzles_every_round_and_preset() -> None:
    puzzles = [load(p) for p in PUZZLES]
    assert len(puzzles) >= 30
    rounds = {p.position.round for p in puzzles if isinstance(p.position, ContractPosition)}
    assert rounds == set(range(1, 8))
    rules = [p.rules for p in puzzles]
    for name in ("finnish", "us", "poker_deck", "jokers_and_twos"):
        preset = ContractRules.preset(name)
        assert any(
            r.contracts == preset.contracts and r.wild_cards == preset.wild_cards  # type: ignore[union-attr]
            for r in rules
        ), name
    assert all(p.answer for p in puzzles)


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.stem)
def test_puzzle_answers_through_the_referee(path: Path) -> None:
    puzzle = load(path)
    pos, rules = puzzle.position, puzzle.rules
    assert isinstance(pos, ContractPosition) and isinstance(rules, ContractRules)
    answer = puzzle.answer
    whole = pos.round == rules.rounds and rules.last_round_all_at_once
    if puzzle.meta.get("kind") in ("outway", "twonear"):
        _check_depth(puzzle)
        return
    if not pos.laid_down:
        down = best_lay_down(pos.hand, rules, pos.round)
        assert (down is not None) == answer["can_lay_down"]
        if down is not None:
            left = check_lay_down(pos.hand, down.melds, rules, pos.round, max_left=1 if whole else None)
            assert left == down.points_left == answer["points_left"]
        if len(pos.hand) <= 14:
            brute = exhaustive_lay_down(pos.hand, rules, pos.round, max_left=1 if whole else None)
            assert (brute is None) == (down is None)
            if brute is not None:
                assert brute.points_left == answer["points_left"]
        seen = Cards(c for t in pos.table for c in t.meld.cards) + pos.dead
        seen = seen + (Cards([pos.discard]) if pos.discard else Cards())
        dist = distance_to_contract(pos.hand, rules, pos.round, seen=seen)
        assert dist.missing == answer["distance"]
        if dist.missing:
            check_lay_down(pos.hand + dist.completion, dist.melds, rules, pos.round)
    else:
        lay = best_layoff(pos.hand, pos.table, rules, objective="cards")
        assert check_layoff(pos.table, pos.hand, lay.table, rules, 0) == lay.played
        assert (len(lay.played), lay.points, len(lay.swaps), lay.can_go_out) == (
            answer["layoff"],
            answer["layoff_points"],
            answer["swaps"],
            answer["can_go_out"],
        )
        brute_lay = exhaustive_layoff(pos.hand, pos.table, rules, objective="cards")
        assert (brute_lay.primary, brute_lay.secondary, brute_lay.swaps) == (
            len(lay.played),
            lay.points,
            len(lay.swaps),
        )


def _check_depth(puzzle: Puzzle) -> None:
    """A question with depth (decisions-contract 33-34): its stated answer by the independent oracle
    (``outway``: the one discard that goes out) or by the distance and each discard's outs recounted."""
    from tests.generate.test_depth import oracle_goes_down, oracle_out_discards

    pos, rules = puzzle.position, puzzle.rules
    assert isinstance(pos, ContractPosition) and isinstance(rules, ContractRules)
    assert stated_problem(puzzle, {}) is None
    if puzzle.meta["kind"] == "outway":
        assert puzzle.answer["can_lay_down"] and puzzle.answer["plan_points_left"] == 0
        assert oracle_out_discards(pos, rules) == [puzzle.meta["solution"]]
        return
    assert not oracle_goes_down(pos.hand, rules, pos.round)
    assert distance_to_contract(pos.hand, rules, pos.round).missing == puzzle.answer["distance"]


# ---------------------------------------------------------------- CLI


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_cli_check_all_contract_puzzles() -> None:
    result = run("solve", "--check", "--json", "puzzles/contract")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(x) for x in result.stdout.splitlines()]
    assert len(lines) == len(PUZZLES) and all(x["check"] == "ok" for x in lines)
    keys = {"can_lay_down", "lay_down", "points_left", "distance", "missing", "layoff", "swaps", "can_go_out"}
    assert all(keys | {"status", "seconds"} <= set(x) for x in lines)


def test_cli_human_output_pretty() -> None:
    result = run("solve", "puzzles/contract/source-swap-ten-for-wild-two.toml")
    assert result.returncode == 0
    assert "10♣" in result.stdout and "swap" in result.stdout


GOOD = """game = "contract"
[position]
round = 2
hand = "10C 4S"
table = [{ cards = "10D 10H 2S", owner = 1 }, { cards = "6S 7S 8S 9S", owner = 2 }]
laid_down = true
"""


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (("10D 10H 2S", "5H 6H 7H 2S=KC"), "invalid meld 5H 6H 7H 2S=KC"),
        (("10D 10H 2S", "5H 6H 8H 9H"), "invalid meld 5H 6H 8H 9H"),
        (("10D 10H 2S", "5H 6H 7H 10H=8H"), "10H is not wild"),
        (("round = 2", "round = 8"), "round must be 1-7, not 8"),
        (('hand = "10C 4S"', 'hand = "10D 10D 4S"'), "3 copies of 10D, but the decks contain 2"),
    ],
)
def test_cli_bad_input_exits_2_with_one_line(tmp_path: Path, edit: tuple[str, str], needle: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace(*edit))
    result = run("solve", str(bad))
    assert result.returncode == 2, result.stdout + result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0] and "bad.toml" in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


def test_exhaustive_distance_small() -> None:
    hand = H("5H 5D 6C 7C 8C")
    pool = H("5S 9C KD 2S")
    brute = exhaustive_distance(hand, pool, RULES, 1)
    assert brute is not None and brute.missing == 2
    d = distance_to_contract(hand, RULES, 1, seen=RULES.deck - hand - pool)
    assert d.missing == 2 and set(d.options.distinct()) == brute.outs
