"""The edges of issue 34: each case a clear behaviour, run through the real console entry point.

Each test failed before its fix (docs/cli.md, "Bounded input and edge cases", names them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from solver.cards import Card, Cards

ROOT = Path(__file__).resolve().parents[2]
ZSY = ROOT / "puzzles" / "zsy" / "bomb-on-bomb.toml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "ascii", "COLUMNS": "200"}


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**ENV, **(env or {})},
        timeout=300,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def one_line_error(result: subprocess.CompletedProcess[str], needle: str) -> None:
    """Exit 2 and exactly one line on stderr, an ``error:`` containing ``needle``."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr[-2000:]


def test_play_takes_an_ismcts_opponent() -> None:
    """``play --opponents ismcts:200``, which completion and docs/cli.md offer, plays (it was refused)."""
    result = run("play", "zsy", "--opponents", "ismcts:2", "--seed", "1", stdin="quit\n")
    assert result.returncode == 0 and "your hand:" in result.stdout, result.stderr
    one_line_error(run("play", "zsy", "--opponents", "ismcts:0", stdin="quit\n"), "player 'ismcts:0'")
    one_line_error(run("play", "zsy", "--opponents", "alien", stdin="quit\n"), "unknown player 'alien'")


def test_post_makes_its_output_folder(tmp_path: Path) -> None:
    """``post ... -o out`` makes ``out`` as ``generate -o`` does (it failed unless it existed)."""
    folder = tmp_path / "new" / "out"
    result = run("post", str(ZSY), "-o", str(folder), "--time-limit", "5")
    assert result.returncode == 0, result.stderr
    assert sorted(p.name.split(".", 1)[1] for p in folder.iterdir()) == [
        "bgg.txt",
        "discord.txt",
        "html",
        "md",
        "png",
        "reddit.md",
    ]


def test_a_suit_typed_on_a_phone_is_the_suit() -> None:
    """``8♥️`` (U+2665 U+FE0F) is the eight of hearts (it was 'malformed')."""
    assert Card.parse("8\u2665\ufe0f") == Card.parse("8H")
    assert Cards.parse("8\u2665\ufe0f 9\u2665\ufe0e") == Cards.parse("8H 9H")
    result = run(
        "solve",
        "--hand",
        "8\u2665\ufe0f 9\u2665\ufe0f",
        "--table",
        "5H 6H 7H",
        "--json",
        env={"PYTHONIOENCODING": "utf-8"},
    )
    assert result.returncode == 0 and json.loads(result.stdout)["played"] == ["8H", "9H"], result.stderr


def test_meld_errors_say_jokers_off_and_the_ace_s_end() -> None:
    one_line_error(
        run("solve", "--hand", "KD", "--table", "5H 6H JK"), "JK is a joker, and jokers are off in this preset"
    )
    one_line_error(
        run("solve", "--hand", "KD", "--table", "QS KS AS", "--rule", "ace=low"),
        "ranks not in a row: this preset ranks the ace low only",
    )
    one_line_error(
        run("solve", "--hand", "KD", "--table", "AS 2S 3S", "--rule", "ace=high"), "this preset ranks the ace high only"
    )
    result = run("solve", "--hand", "KD", "--table", "QS 2S 3S", "--rule", "ace=high")
    assert "ranks not in a row)" in result.stderr  # no ace: nothing about the ace


def test_check_json_output_is_a_stream_solve_reads(tmp_path: Path) -> None:
    """``shanghai check --json P > pz.json; shanghai solve - < pz.json`` (what hint suggests) solves it."""
    checked = run("check", str(ZSY), str(ROOT / "puzzles" / "zsy"), "--json")
    assert checked.returncode == 0
    result = run("solve", "-", "--json", "--check", stdin=checked.stdout)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(rows) == len(checked.stdout.splitlines()) and all(r["check"] == "ok" for r in rows)
    one = checked.stdout.splitlines()[0]
    assert run("solve", "-", stdin=one + "\n").returncode == 0
    bad = json.dumps({"puzzle": "x.toml", "valid": False, "error": "x.toml: game: missing"})
    one_line_error(run("solve", "-", stdin=bad + "\n"), "check --json found no puzzle here: x.toml: game: missing")


def test_hint_checks_the_player_kind_for_a_puzzle_too() -> None:
    one_line_error(run("hint", str(ZSY), "--player", "alien"), "unknown player 'alien'")


def _record(tmp_path: Path, game: str = "zsy") -> Path:
    record = tmp_path / f"{game}.json"
    made = run("play", game, "--save", str(record), stdin="quit\n")
    assert made.returncode == 0, made.stderr
    return record


def test_hand_edited_records_are_refused_naming_the_file(tmp_path: Path) -> None:
    record = _record(tmp_path)
    data = json.loads(record.read_text())
    cases = {
        "you.json": ({**data, "you": 7}, "you.json: 'you': unknown key (known: actions, game,"),
        "kind.json": (
            {**data, "players": ["you", "alien", "solver", "solver"]},
            "kind.json: players[1]: unknown player",
        ),
        "seats.json": ({**data, "players": ["you", "solver"]}, "seats.json: players: 2 seats named for 4 players"),
        "norules.json": ({k: v for k, v in data.items() if k != "rules"}, "norules.json: rules: missing"),
        "action.json": ({**data, "actions": ["play single:9Z"]}, "action.json: record action 1"),
        "setup.json": ({**data, "num_players": 9}, "setup.json: "),
    }
    for name, (edited, needle) in cases.items():
        path = tmp_path / name
        path.write_text(json.dumps(edited))
        one_line_error(run("play", "zsy", "--load", str(path)), needle)
    one_line_error(run("hint", str(tmp_path / "action.json")), "action.json: record action 1")


def test_an_illegal_line_is_not_echoed_whole() -> None:
    result = run("play", "zsy", stdin="play single:" + "x" * 5_000_000 + "\nquit\n")
    assert result.returncode == 0
    illegal = [line for line in result.stderr.splitlines() if line.startswith("illegal:")]
    assert len(illegal) == 1 and len(illegal[0]) <= 220, len(result.stderr)


def test_save_refuses_a_record_of_another_game_unless_forced(tmp_path: Path) -> None:
    record = _record(tmp_path)
    before = record.read_text()
    result = run("play", "contract", "--save", str(record), stdin="quit\n")
    one_line_error(result, f"--save {record}: holds a record of a zsy game, not contract; --force replaces it")
    assert record.read_text() == before
    assert run("play", "contract", "--save", str(record), "--force", stdin="quit\n").returncode == 0
    assert json.loads(record.read_text())["game"] == "contract"
    assert run("play", "contract", "--save", str(record), "--seed", "2", stdin="quit\n").returncode == 0  # same game


def test_stdin_twice_and_empty_sections_say_what_they_are() -> None:
    text = ZSY.read_text()
    one_line_error(run("solve", "-", "-", stdin=text), "'-' (stdin) is given more than once")
    one_line_error(run("solve", "-", stdin="---\n\n---\n"), "<stdin>: no puzzle: the stream is empty")
    one_line_error(run("check", "-", stdin=""), "<stdin>: no puzzle: the stream is empty")
    result = run("check", "-", "--json", stdin=f"---\n{text}\n---\n---\n{text}---\n")
    assert result.returncode == 0, result.stderr
    assert [json.loads(line)["puzzle"] for line in result.stdout.splitlines()] == ["<stdin>:1", "<stdin>:2"]


def test_zsy_hands_print_in_rank_order() -> None:
    """A climbing-game player reads a hand by rank: 4 4 4 4 9 9 2 BJ, not by suit."""
    result = run("check", str(ZSY))
    assert "  hand   4S 4H 4D 4C 9S 9H 2C BJ\n" in result.stdout, result.stdout
    shown = run("solve", "--game", "zsy", "--hand", "2S KH 3D BJ 3C", "--to-beat", "4S")
    assert "  hand   3D 3C KH 2S BJ\n" in shown.stdout, shown.stdout
    played = run("play", "zsy", "--seed", "1", stdin="quit\n")
    hand = played.stdout.split("your hand: ")[1].splitlines()[0].split()
    from solver.zsy.combos import zsy_value

    values = [zsy_value(Card.parse(c)) for c in hand]
    assert values == sorted(values) and len(values) >= 13


def test_legal_action_counts_are_said_in_words() -> None:
    from cli.engine_cmds import action_summary

    assert action_summary({"play": 642}) == ", all plays"
    assert action_summary({"pass": 1}) == ": a pass"
    assert action_summary({"play": 641, "pass": 1}) == ": 641 plays and 1 pass"
    assert action_summary({"play": 3, "pass": 2}) == ": 3 plays and 2 passes"
    shown = run("play", "zsy", "--seed", "1", stdin="quit\n").stdout
    assert " legal actions, all plays" in shown and "play(s)" not in shown


def test_no_arguments_is_usage_on_stderr() -> None:
    result = run()
    assert result.returncode == 2 and result.stdout == "" and "Usage: shanghai" in result.stderr


def test_rules_json_and_markdown_together_is_refused() -> None:
    one_line_error(run("rules", "--json", "--markdown"), "--json and --markdown are two outputs: give one")


def test_generate_help_shows_choices_and_ranges() -> None:
    shown = run("generate", "--help").stdout
    for needle in (
        "--difficulty <easy|medium|hard|expert>",
        "--preset <finnish|german|",
        "--rule KEY=VALUE",
        "--question <play|layoff|discard|laydown|whole|outway|twonear|out|reply|lead>",
        "(1 or more)",
    ):
        assert needle in shown, needle


def test_docs_table_names_tests_that_exist() -> None:
    """docs/cli.md's "Bounded input and edge cases" names a test for every row, and each test is there."""
    import re

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## Bounded input and edge cases", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "test_issue34_" in line]
    assert len(rows) >= 24
    for row in rows:
        found = re.findall(r"`(test_issue34_\w+\.py)::(test_\w+)`", row.rsplit("|", 2)[-2])
        assert len(found) == 1, row
        name, test = found[0]
        assert f"def {test}(" in (ROOT / "tests" / "cli" / name).read_text(encoding="utf-8"), row
