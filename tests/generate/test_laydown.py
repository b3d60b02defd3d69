"""Contract lay-down puzzles: the whole-turn plan in `solve`'s `turn`, the stated lay-down replayed
by the referees (tampered solutions fail), and the generator's unique answers against the brute force."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.cards import Cards
from solver.generate import GenerateError, generate
from solver.generate.calibrate import misses
from solver.generate.contract import grouping, lay_down_ends, unique_lay_down
from solver.generate.players import contract_lay_down
from solver.generate.post import DEFAULT_PAGE, answer_words, post
from solver.melds import Meld, TableMeld
from solver.picture import answer_notes, puzzle_svg
from solver.puzzles import ContractPosition, Puzzle, load
from solver.rules import ContractRules
from tests.generate.test_stated import mismatch, tampered
from tests.oracles.contract_turn import brute_after_draw, brute_lay_down_ends, random_turn_position

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "puzzles" / "contract" / "laydown-fives-not-kings.toml"
runner = CliRunner()


def test_solve_answers_with_the_plan_in_turn() -> None:
    result = runner.invoke(app, ["solve", "--json", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.splitlines()[0])
    # the best lay-down alone keeps the kings out of hand (fewest points left) ...
    assert sorted(" ".join(m) for m in data["lay_down"]) == ["6C 7C 8C 9C", "KH KD KC"]
    assert data["can_go_out"] is False
    # ... the whole turn lays down the fives and lays the kings off onto the opponent's set: out
    turn = data["turn"]
    assert sorted(" ".join(m) for m in turn["lay_down"]) == ["5S 5H 5D", "6C 7C 8C 9C"]
    assert sorted(turn["laid_off"]) == ["KC", "KD", "KH"]
    assert turn["points_left"] == 0 and turn["can_go_out"] is True and turn["discard"] is None
    text = runner.invoke(app, ["solve", str(EXAMPLE)]).stdout
    assert "the plan lays down other melds" in text and "plan     goes out" in text
    # the answer's "go out: no" is said to be that lay-down's, not the turn's
    assert "go out   no  optimal  (after that lay-down and lay-off; see the plan)" in text


def test_the_hint_gives_the_plan_in_its_facts() -> None:
    result = runner.invoke(app, ["hint", "--json", str(EXAMPLE)])
    assert result.exit_code == 0, result.output
    hint = json.loads(result.stdout.splitlines()[0])
    assert hint["action"] == "laydown 5S 5H 5D | 6C 7C 8C 9C"
    plan = hint["facts"]["plan"]
    assert plan["lay_down"] == [["5S", "5H", "5D"], ["6C", "7C", "8C", "9C"]] and plan["can_go_out"] is True


def test_the_bundled_laydown_checks() -> None:
    puzzle = load(EXAMPLE)
    assert puzzle.meta["kind"] == "laydown"
    assert mismatch(puzzle) is None
    result = runner.invoke(app, ["solve", "--check", str(EXAMPLE)])
    assert result.exit_code == 0, result.output


def test_a_wrong_grouping_fails() -> None:
    puzzle = load(EXAMPLE)
    naive = tampered(
        puzzle,
        solution=["KH KD KC", "6C 7C 8C 9C"],
        new_table=["KS KC KD", "9S 10S JS QS", "KH KD KC", "6C 7C 8C 9C"],
        discard="5S",
    )
    problem = mismatch(naive)
    assert problem is not None
    assert "leaves 10 points, the best turn 0" in problem and "is not the plan's" in problem


def test_an_invalid_meld_fails() -> None:
    puzzle = load(EXAMPLE)
    problem = mismatch(tampered(puzzle, solution=["5S 5H 5D", "6C 7C 8C KH"]))
    assert problem is not None and "do not make the contract" in problem


def test_a_layoff_that_does_not_fit_fails() -> None:
    puzzle = load(EXAMPLE)
    bad = ["KS KC KD KH KD", "9S 10S JS QS KC", "5S 5H 5D", "6C 7C 8C 9C"]
    problem = mismatch(tampered(puzzle, new_table=bad))
    assert problem is not None and "after the lay-off, invalid meld 9S 10S JS QS KC" in problem


def test_a_wrong_discard_or_table_fails() -> None:
    puzzle = _generated(1, level="hard")[0]
    assert mismatch(puzzle) is None
    assert "is not one card left in hand" in (mismatch(tampered(puzzle, discard="JK")) or "")
    short = tampered(puzzle, new_table=puzzle.meta["new_table"][:-1])
    assert "the table after the lay-down" in (mismatch(short) or "")
    # the swaps undone: the stated table no longer holds the aces the swaps put in
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    before = [str(t.meld) for t in pos.table] + puzzle.meta["solution"]
    best = puzzle.answer["plan_points_left"]
    problem = mismatch(tampered(puzzle, new_table=before))
    assert problem is not None and f"points, the best turn {best}" in problem


def test_a_wrong_plan_answer_fails() -> None:
    puzzle = load(EXAMPLE)
    wrong = Puzzle(puzzle.game, puzzle.rules, puzzle.position, puzzle.title, {"plan_points_left": 5}, "", puzzle.meta)
    problem = mismatch(wrong)
    assert problem is not None and "plan_points_left: expected 5, got 0" in problem


# ------------------------------------------------------------------ the generator against the brute force


def _generated(count: int = 3, seed: int = 5, level: str = "medium") -> list[Puzzle]:
    return generate("contract", level, count, seed, question="laydown")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_generated_laydowns_are_unique_by_the_brute_force(level: str) -> None:
    for puzzle in _generated(3 if level == "medium" else 2, level=level):
        pos = puzzle.position
        assert isinstance(pos, ContractPosition) and isinstance(puzzle.rules, ContractRules)
        assert puzzle.meta["kind"] == "laydown" and puzzle.meta["difficulty"] == level
        assert not any(c in puzzle.rules.wilds for c in pos.hand)
        ends = brute_lay_down_ends(pos.hand, pos.table, puzzle.rules, pos.round)
        best = min(ends.values())
        answer = grouping([Meld.parse(m) for m in puzzle.meta["solution"]])
        # the stated grouping is the only one reaching the best end of the turn
        assert [g for g, v in ends.items() if v == best] == [answer]
        assert best == puzzle.answer["plan_points_left"]
        assert brute_after_draw(pos.hand, pos.table, puzzle.rules, pos.round) == best
        # strictly better than the naive order: the best lay-down alone, then the lay-off
        naive = grouping([Meld.parse(m) for m in puzzle.meta["naive_lay_down"]])
        assert ends[naive] == puzzle.meta["naive_points_left"] > best
        # the greedy player lays down its first grouping: it misses; the solver finds it
        assert "greedy" in puzzle.meta["features"]["missed_by"]
        assert "solver" not in puzzle.meta["features"]["missed_by"]
        assert mismatch(puzzle) is None


def test_lay_down_ends_equal_the_brute_force_on_small_positions() -> None:
    rules = ContractRules()
    compared = 0
    for seed in range(150):
        pos = random_turn_position(random.Random(seed), rules, 1 + seed % 3, wilds_on_table=True)
        if pos.laid_down or any(c in rules.wilds for c in pos.hand) or len(pos.hand) > 11:
            continue
        ends = lay_down_ends(pos.hand, pos.table, rules, pos.round)
        assert ends is not None
        brute = brute_lay_down_ends(pos.hand, pos.table, rules, pos.round)
        assert sorted((v, g) for g, v in brute.items()) == ends
        compared += bool(ends)
    assert compared >= 20


def test_a_hand_with_a_wild_is_turned_down() -> None:
    rules = ContractRules()
    # the proof lays melds down with open wild roles, and an open end wild can move on the lay-off
    # (7D 8D 9D 2C takes 10D, then QD with the 2C as JD), which a written role forbids
    hand = Cards.parse("7S 8S 9S 10S 7D 8D 9D 10D QD 2C 6C")
    table = (TableMeld(Meld.parse("9S 2S=9C 9H"), 1),)
    mine = dict((g, v) for v, g in lay_down_ends(hand, table, rules, 3) or [])
    brute = brute_lay_down_ends(hand, table, rules, 3)
    assert mine[("7D 8D 9D 2C", "7S 8S 9S 10S")] == 0 < brute[("7D 8D 9D 2C", "7S 8S 9S 10S")]
    # so a hand with a wild makes no puzzle, though its groupings have one best
    kings = (TableMeld(Meld.parse("KS KC KD"), 1),)
    wild = Cards.parse("5H 5D 5S 6C 7C 8C 2S KH KD KC")
    ends = lay_down_ends(wild, kings, rules, 1)
    assert ends is not None and ends[0][0] < ends[1][0]
    assert unique_lay_down(wild, kings, rules, 1) is None


def test_unique_lay_down_turns_down_a_tie() -> None:
    rules = ContractRules()
    # two fives sets of equal worth: laying down either leaves the same; no unique answer
    hand = Cards.parse("5H 5D 5S 5C 6C 7C 8C 9C KH KD KC")
    table = (TableMeld(Meld.parse("KS KC KD"), 1),)
    assert unique_lay_down(hand, table, rules, 1) is None
    plan = unique_lay_down(Cards.parse("5H 5D 5S 6C 7C 8C 9C KH KD KC"), table, rules, 1)
    assert plan is not None and grouping(plan.lay_down) == ("5S 5H 5D", "6C 7C 8C 9C") and plan.goes_out


def test_generate_question_laydown_only_at_its_rungs() -> None:
    # (the messages' wording aside: main words them its own way)
    with pytest.raises(GenerateError, match=r"easy.*'laydown'"):
        generate("contract", "easy", 1, 0, question="laydown")
    with pytest.raises(GenerateError, match=r"unknown.*'lay'"):
        generate("contract", "medium", 1, 0, question="lay")
    result = runner.invoke(app, ["generate", "contract", "--question", "laydown", "--difficulty", "easy", "-q"])
    assert result.exit_code == 2


# ------------------------------------------------------------------ the picture and the post


def test_the_answer_picture_names_the_plan_and_the_naive_order() -> None:
    puzzle = load(EXAMPLE)
    notes = answer_notes(puzzle)
    assert notes[0] == "Answer: lay down 5S 5H 5D | 6C 7C 8C 9C"
    assert notes[1] == "then lay off KH KD KC (30 points)" and "Out: nothing stays in hand." in notes
    assert notes[-1].startswith("Not KH KD KC | 6C 7C 8C 9C") and "10 points stay" in notes[-1]
    svg = puzzle_svg(puzzle, answer=True)
    assert svg.count('class="mark-played"') == 3  # the three kings laid off onto the opponent's set
    assert "lay down" in svg and "lay off" in svg
    question = puzzle_svg(puzzle)
    assert "Answer" not in question and 'class="mark-played"' not in question


def test_the_post_hides_the_plan_behind_the_spoiler() -> None:
    puzzle = load(EXAMPLE)
    text = post(puzzle, "markdown", "q.png", DEFAULT_PAGE, answer_words(puzzle))
    head, spoiler = text.split("<details>")
    assert "5S 5H 5D" not in head and "Answer: lay down 5S 5H 5D | 6C 7C 8C 9C" in spoiler
    assert "round=1" in head


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_each_model_answers_the_laydown(level: str) -> None:
    puzzle = _generated(1, level=level)[0]
    pos = puzzle.position
    assert isinstance(pos, ContractPosition) and isinstance(puzzle.rules, ContractRules)
    answer = grouping([Meld.parse(m) for m in puzzle.meta["solution"]])
    # the greedy player lays down the first grouping the game lists; the others plan the whole turn (at
    # hard, the plan without wild swaps misses: its lay-off needs them)
    swaps = level == "hard"
    assert swaps == bool(puzzle.meta["swaps"])
    # the player who looks once lays down the best lay-down alone: the naive order the puzzle beats
    assert misses(puzzle) == {"greedy": True, "no-swap": swaps, "glance": False, "one-look": True, "solver": False}
    assert grouping(contract_lay_down("greedy", puzzle.rules, pos)) != answer
    assert grouping(contract_lay_down("solver", puzzle.rules, pos)) == answer


def test_the_planning_models_miss_without_the_target() -> None:
    puzzle = load(EXAMPLE)
    pos = puzzle.position
    assert isinstance(pos, ContractPosition) and isinstance(puzzle.rules, ContractRules)
    assert grouping(contract_lay_down("solver", puzzle.rules, pos)) == ("5S 5H 5D", "6C 7C 8C 9C")
    # the greedy player and the player who looks once (the best lay-down alone) miss; the planners find it
    assert {m for m, miss in misses(puzzle).items() if miss and m not in ("greedy", "one-look")} == set()
    # without the opponent's kings the plan is the best lay-down alone (the kings): the planning models miss
    far = ContractPosition(1, pos.hand, (TableMeld(Meld.parse("9S 10S JS QS"), 1),))
    alone = Puzzle(puzzle.game, puzzle.rules, far, puzzle.title, {}, "", puzzle.meta)
    missed = misses(alone)
    assert missed["no-swap"] and missed["glance"] and missed["solver"]
