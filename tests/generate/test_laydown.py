"""Contract lay-down puzzles: the whole-turn plan in `solve`'s `turn`, the stated lay-down replayed
by the referees (tampered solutions fail), and the generator's unique answers against the brute force."""

from __future__ import annotations

import copy
import json
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from solver.answers import SolveOptions, solve_puzzle
from solver.puzzles import Puzzle, load

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "puzzles" / "contract" / "laydown-fives-not-kings.toml"
runner = CliRunner()


def tampered(puzzle: Puzzle, **meta: object) -> Puzzle:
    changed = copy.deepcopy(puzzle.meta)
    changed.update(meta)
    return Puzzle(puzzle.game, puzzle.rules, puzzle.position, puzzle.title, dict(puzzle.answer), "", changed)


def mismatch(puzzle: Puzzle) -> str | None:
    return solve_puzzle(puzzle, SolveOptions(time_limit=10.0)).mismatch


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


def test_a_wrong_plan_answer_fails() -> None:
    puzzle = load(EXAMPLE)
    wrong = Puzzle(puzzle.game, puzzle.rules, puzzle.position, puzzle.title, {"plan_points_left": 5}, "", puzzle.meta)
    problem = mismatch(wrong)
    assert problem is not None and "plan_points_left: expected 5, got 0" in problem
