"""Issue 34, "advice a player doubts", as `shanghai solve` prints it: one verdict per position (the
turn plan; the lay-down lines without the discard on offer say so), and the wild kept."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


def _solve(*args: str) -> str:
    result = runner.invoke(app, ["solve", "--game", "contract", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_discard_on_offer_gives_one_verdict_round_7() -> None:
    """Round 7 with JS on offer: the hand alone cannot go out, the plan with JS does; the lines for
    the hand alone say they are without the discard, and nothing else contradicts the plan."""
    # a deal of 11 (rule option deal): the hand before the draw is one a game gives
    out = _solve("--rule", "deal=11", "--round", "7", "--hand", "3H 4H 5H 6H 7C 8C 9C 10C 8S 9S 10S", "--discard", "JS")
    lines = [line.strip() for line in out.splitlines()]
    go_out = next(line for line in lines if line.startswith("go out"))
    assert go_out.startswith("go out   no") and go_out.endswith("(without the discard)")
    assert "see the plan" not in out
    assert any(line.startswith("cannot lay down") and line.endswith("(without the discard)") for line in lines)
    assert "other melds than the best lay-down alone" not in out  # there is no lay-down alone to differ from
    assert "the plan, with the discard taken, lays down:" in out
    assert any(line.startswith("plan") and "goes out" in line for line in lines)


def test_a_discard_on_offer_with_a_lay_down_either_way() -> None:
    out = _solve("--rule", "deal=10", "--round", "1", "--hand", "5H 5D 5C 6C 7C 8C 9C KD QH 4D", "--discard", "5S")
    lines = [line.strip() for line in out.splitlines()]
    assert any(line.startswith("can lay down") and "(without the discard)" in line for line in lines)
    assert any(line.startswith("lay off") and line.endswith("(without the discard)") for line in lines)
    assert "the plan, with the discard taken, lays down:" in out
    assert "other melds than the best lay-down alone" not in out
    assert "without the discard" not in _solve(
        "--rule", "deal=10", "--round", "1", "--hand", "5H 5D 5C 6C 7C 8C 9C KD QH 4D"
    )


def test_the_json_says_which_hand_the_lay_down_keys_are_for() -> None:
    base = [
        "solve",
        "--json",
        "--game",
        "contract",
        "--rule",
        "deal=9",
        "--round",
        "1",
        "--hand",
        "5H 5D 6C 7C 8C 9C KD QH 4D",
    ]
    offered = json.loads(runner.invoke(app, [*base, "--discard", "5S"]).output)
    assert offered["without_discard"] is True and offered["can_lay_down"] is False
    assert offered["turn"]["action"] == "take" and offered["turn"]["lay_down"]
    assert json.loads(runner.invoke(app, base).output)["without_discard"] is False


def test_the_issues_hand_discards_a_natural_and_says_why() -> None:
    out = _solve("--preset", "us", "--rule", "deal=11", "--round", "1", "--hand", "7S 2C 2S 9D 9H 9C KD QD 4C 5H 6S")
    steps = [line.strip() for line in out.splitlines() if line.strip().startswith("1. ")]
    assert steps and steps[0] not in ("1. discard 2S", "1. discard 2C")
    assert "the wilds 2S 2C are kept" in out


def test_the_docs_table_names_tests_that_exist() -> None:
    """docs/cli.md's "Advice a player can trust": every row names its tests, and each test is there."""
    root = Path(__file__).resolve().parents[2]
    text = (root / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## Advice a player can trust", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| case")]
    assert len(rows) >= 10
    for row in rows:
        refs = re.findall(r"`(tests/[\w/]+\.py)::(test_\w+)`", row.rsplit("|", 2)[-2])
        assert refs, row
        for path, name in refs:
            assert f"def {name}(" in (root / path).read_text(encoding="utf-8"), (path, name)
