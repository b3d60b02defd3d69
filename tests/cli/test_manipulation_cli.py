"""``shanghai solve`` for Manipulation Shanghai: output, --json, --all, --check, bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

GOOD = """game = "manipulation"
[rules]
preset = "norwegian"
[position]
table = ["3H 4H 5H 6H", "3C 4C 5C 6C"]
hand = "6S KD"
[answer]
played = 1
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The real entry point in a subprocess (``python -m cli``)."""
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_bundled_puzzles_check_exit_0() -> None:
    result = run("solve", "puzzles/manipulation", "--check", "--json")
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) >= 31 and all(d["check"] == "ok" for d in lines)


def test_json_keys(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    result = runner.invoke(app, ["solve", "--json", str(tmp_path / "a.toml")])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    for key in ("puzzle", "game", "status", "played", "table", "hand", "moves", "kept_melds", "moved_cards", "seconds"):
        assert key in data
    assert data["status"] == "optimal" and data["played"] == ["6S"] and data["hand"] == ["KD"]
    assert data["table"] == [["3H", "4H", "5H"], ["3C", "4C", "5C"], ["6S", "6H", "6C"]]
    assert data["moves"][0] == {
        "cards": ["6H"],
        "from": 0,
        "from_meld": ["3H", "4H", "5H", "6H"],
        "to": 2,
        "to_meld": ["6S", "6H", "6C"],
        "text": "move 6H from [3H 4H 5H 6H] to [6S 6H 6C]",
    }
    assert (data["kept_melds"], data["moved_cards"]) == (0, 2)


def test_human_output_pretty(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    result = runner.invoke(app, ["solve", str(tmp_path / "a.toml")])
    assert result.exit_code == 0
    out = result.stdout
    assert "3♥ 4♥ 5♥ 6♥" in out and "6♠ 6♥ 6♣" in out and "optimal" in out and "move 6♥" in out


def test_inline_position_and_all() -> None:
    result = runner.invoke(app, ["solve", "--table", "5H 6H 7H | 9S 9H 9D", "--hand", "8H 9C KD", "--json", "--all"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["played"] == ["8H", "9C"] and data["kept_melds"] == 2 and data["moved_cards"] == 0
    assert data["distinct_plays"] == [["8H", "9C"]]


def test_value_objective() -> None:
    result = runner.invoke(
        app, ["solve", "--table", "5H 6H 7H | QS QH QD", "--hand", "3H 4H QC KC", "--objective", "value", "--json"]
    )
    data = json.loads(result.stdout)
    assert data["value"] == 19 and data["played"] == ["3H", "4H", "QC"]


def test_check_mismatch_exits_1(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD.replace("played = 1", "played = 2\ndistinct_plays = 3"))
    result = run("solve", "--check", str(tmp_path / "a.toml"))
    assert result.returncode == 1
    assert "played 1 card, the answer says 2" in result.stderr and "1 distinct best play," in result.stderr


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (("6S KD", "6S KX"), "malformed card 'KX'"),
        (('"3H 4H 5H 6H"', '"3H 4H 5H 7H"'), "invalid meld 3H 4H 5H 7H"),
        (("6S KD", "6S 6H KD"), "2 copies of 6H, but the decks contain 1"),
        (('preset = "norwegian"', 'preset = "norwegian"\nflavour = 1'), "unknown manipulation rule option 'flavour'"),
    ],
)
def test_solve_bad_input_exits_2_with_one_line(tmp_path: Path, edit: tuple[str, str], needle: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace(*edit))
    result = run("solve", str(bad))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0] and "bad.toml" in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


def test_unreadable_file_exits_2() -> None:
    result = run("solve", "no/such/puzzle.toml")
    assert result.returncode == 2 and "cannot read" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_inline_bad_input_exits_2() -> None:
    result = run("solve", "--table", "5H 6H 8H", "--hand", "8H")
    assert result.returncode == 2 and "invalid meld 5H 6H 8H" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_folder_with_one_bad_file_solves_the_rest(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "b.toml").write_text(GOOD.replace("6S KD", "6S 1Z"))
    (tmp_path / "c.toml").write_text(GOOD.replace("6S KD", "KD"))
    result = run("solve", "--json", str(tmp_path))
    assert result.returncode == 2
    solved = [json.loads(line) for line in result.stdout.splitlines()]
    assert [Path(d["puzzle"]).name for d in solved] == ["a.toml", "c.toml"]
    assert solved[1]["status"] == "infeasible"
    assert "b.toml" in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_plain_output_is_what_rich_markup_prints(tmp_path: Path) -> None:
    """Piped output (no colours) is written directly; it equals rich's rendering of the same markup."""
    import io

    from rich.console import Console

    from cli.common import cards_markup, cards_parts, meld_markup, meld_parts, print_lines
    from solver.cards import Cards
    from solver.melds import Meld

    meld = Meld.parse("5H JK=6H 7H 8H")
    hand = Cards.parse("KS 2H 3H JK 7C")
    for color in (None, "truecolor"):
        fast, slow = io.StringIO(), io.StringIO()
        for buf, lines in (
            (fast, [[("  new    ", ""), *meld_parts(meld)], [("  hand   ", ""), *cards_parts(hand)]]),
            (slow, None),
        ):
            console = Console(file=buf, highlight=False, soft_wrap=True, color_system=color, force_terminal=bool(color))
            if lines is None:
                console.print(f"  new    {meld_markup(meld)}\n  hand   {cards_markup(hand)}")
            else:
                print_lines(console, lines)
        if color is None:
            assert fast.getvalue() == slow.getvalue() == "  new    5♥ JK=6♥ 7♥ 8♥\n  hand   K♠ 2♥ 3♥ 7♣ JK\n"
        else:  # same text, coloured (neighbours in one colour share one span)
            assert "\x1b[31m7♥ 8♥\x1b[0m" in fast.getvalue() and "\x1b[1;35mJK" in fast.getvalue()
            strip = __import__("re").compile(r"\x1b\[[0-9;]*m")
            assert strip.sub("", fast.getvalue()) == strip.sub("", slow.getvalue())
    assert cards_parts(Cards()) == [("-", "dim")]
    (tmp_path / "a.toml").write_text(GOOD)
    result = runner.invoke(app, ["solve", str(tmp_path / "a.toml"), "--all"])
    assert "1 distinct best play:" in result.stdout and "0 of 2 melds kept" in result.stdout


def test_rule_sets_are_shared_but_bad_values_still_fail(tmp_path: Path) -> None:
    """Puzzle files remember rule sets by value and type: ``jokers = true`` is still an error."""
    from solver.errors import PuzzleError
    from solver.puzzles import loads

    good = GOOD.replace('preset = "norwegian"', 'preset = "norwegian"\njokers = 1')
    a, b = loads(good), loads(good)
    assert a.rules is b.rules and a.rules.jokers == 1
    with pytest.raises(PuzzleError, match="jokers"):
        loads(GOOD.replace('preset = "norwegian"', 'preset = "norwegian"\njokers = true'))
