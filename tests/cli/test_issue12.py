"""Issue 12, the command line: markup in user text, records saved as games go, bad records, odd terminals,
inline positions, options where they do not apply, ``shanghai rules``, ``play`` output, hints, messages."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.engine_cmds import SHOWN_ACTIONS
from cli.main import main
from solver.engine import new_game
from solver.rules import GAMES

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

GOOD = """game = "manipulation"
[position]
table = ["3H 4H 5H 6H", "3C 4C 5C 6C"]
hand = "6S KD"
"""


def cli(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
    """``shanghai ARGS`` in this process through the real entry point: exit code, stdout, stderr."""
    with runner.isolation(input=stdin) as (out, err, *_):
        try:
            main(list(args))
            rc = 0
        except SystemExit as exc:
            rc = int(exc.code or 0)
        return rc, out.getvalue().decode(), err.getvalue().decode()


def run(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        input=stdin,
        env={**os.environ, **(env or {})},
        encoding="latin-1" if env and env.get("PYTHONIOENCODING") == "latin-1" else None,
    )


def one_error(rc: int, err: str, needle: str, want: int = 2) -> None:
    assert rc == want, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], err
    assert "Traceback" not in err


# --- markup ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "--hand", "[/]"], "malformed card '[/]'"),
        (["solve", "--hand", "8H", "--rule", "[/]=1"], "unknown manipulation rule option '[/]'"),
        (["solve", "--hand", "[bold]8H"], "[bold]8H"),
        (["solve", "--hand", ":smile: [red]x"], "malformed card ':smile:'"),
    ],
)
def test_user_text_is_never_markup(args: list[str], needle: str) -> None:
    rc, _, err = cli(*args)
    one_error(rc, err, needle)


def test_markup_in_a_title_and_a_file_name(tmp_path: Path) -> None:
    path = tmp_path / "puzzle [v2].toml"
    path.write_text('title = "[/] [bold]x"\n' + GOOD)
    for command in ("check", "solve"):
        rc, out, err = cli(command, str(path))
        assert rc == 0, err
        assert "puzzle [v2].toml" in out and "[/] [bold]x" in out
    bad = tmp_path / "bad [v3].toml"
    bad.write_text(GOOD.replace("6S KD", "6S [/]"))
    rc, _, err = cli("check", str(bad))
    one_error(rc, err, "bad [v3].toml")


def test_markup_at_the_play_prompt() -> None:
    rc, _out, err = cli("play", "zsy", "--seed", "1", stdin="[/]\n[bold]\nquit\n")
    assert rc == 0 and "Traceback" not in err
    assert "[/]" in err and "[bold]" in err


def test_help_shows_text_as_written() -> None:
    rc, out, _ = cli("solve", "--help")
    assert rc == 0
    assert "[answer]" in out and "<bool>" not in out and "``" not in out
    assert "<cards|value>" in out and "<manipulation|contract|zsy>" in out and "teams6|us>" in out
    for command in ("play", "hint", "selfplay", "check", "rules"):
        rc, out, _ = cli(command, "--help")
        assert rc == 0 and "<bool>" not in out and "``" not in out, command


# --- play --save -----------------------------------------------------------------------------------


def test_play_save_to_a_missing_folder_fails_first(tmp_path: Path) -> None:
    rc, out, err = cli("play", "zsy", "--save", str(tmp_path / "nope" / "game.json"), stdin="0\n")
    one_error(rc, err, "does not exist")
    assert "your move" not in out


def test_play_saves_after_every_action(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that crashes mid-way keeps its record up to the last action (one line, exit 1)."""
    from solver.engine import players

    made = players.make_player
    calls = {"n": 0}

    class Crashing:
        name = "crash"

        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def choose(self, game: Any) -> Any:
            calls["n"] += 1
            if calls["n"] > 5:
                raise AssertionError("boom")
            return self.inner.choose(game)

    monkeypatch.setattr(players, "make_player", lambda kind, seed=0: Crashing(made(kind, seed)))
    save = tmp_path / "game.json"
    rc, _, err = cli("play", "zsy", "--opponents", "greedy", "--save", str(save), stdin="0\n" * 50)
    one_error(rc, err, "boom", want=1)
    record = json.loads(save.read_text())
    assert len(record["actions"]) >= 5
    from solver.engine import load_record, replay

    assert len(replay(load_record(save.read_text())).history) == len(record["actions"])


# --- bad records, odd terminals ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "needle"),
    [
        ({"max_hands": "x"}, "'max_hands' must be an integer"),
        ({"flavour": 1}, "unknown zsy engine option 'flavour' (known: max_hands, shown)"),
        ({"time_limit": 1}, "unknown zsy engine option 'time_limit'"),
    ],
)
def test_hint_on_a_record_with_bad_options(tmp_path: Path, options: dict[str, Any], needle: str) -> None:
    record = json.loads(new_game("zsy").record().to_json())
    record["options"] = options
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    rc, _, err = cli("hint", str(path))
    one_error(rc, err, needle)


@pytest.mark.parametrize(
    ("edit", "needle"), [({"num_players": "x"}, "num_players: expected int"), ({"actions": "x"}, "actions")]
)
def test_hint_on_a_malformed_record(tmp_path: Path, edit: dict[str, Any], needle: str) -> None:
    record = {**json.loads(new_game("zsy").record().to_json()), **edit}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    rc, _, err = cli("hint", str(path))
    one_error(rc, err, needle)


def test_a_latin1_terminal_gets_ascii_suits(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text('title = "♠ spades"\n' + GOOD, encoding="utf-8")
    env = {"PYTHONIOENCODING": "latin-1"}
    for args in (["check", str(tmp_path / "a.toml")], ["solve", str(tmp_path / "a.toml")], ["rules", "zsy"]):
        result = run(*args, env=env)
        assert result.returncode == 0, result.stderr
        assert "Traceback" not in result.stderr
    result = run("solve", "--hand", "6S KD", "--table", "3H 4H 5H 6H | 3C 4C 5C 6C", env=env)
    assert "6S" in result.stdout and "3H 4H 5H" in result.stdout
    result = run("solve", "--game", "zsy", "--hand", "3H 3S", "--json", env=env)
    assert json.loads(result.stdout)["fewest_plays"] == 1


# --- inline positions, stdin, options where they do not apply ---------------------------------------------


def test_inline_contract_and_zsy_positions() -> None:
    rc, out, err = cli(
        "solve", "--json", "--game", "contract", "--hand", "5H 5D 5S 6S 7S 8S 9S KD", "--rule", "deal=8", "--round", "1"
    )
    assert rc == 0, err
    data = json.loads(out)
    assert data["can_lay_down"] is True and data["round"] == 1
    rc, out, err = cli(
        "solve",
        "--json",
        "--game",
        "contract",
        "--hand",
        "10C",
        "--laid-down",
        "--table",
        "10D 10H 10S | 4C 4D 4H",
        "--round",
        "2",
    )
    assert rc == 0, err
    assert json.loads(out)["layoff"]["played"] == ["10C"]
    rc, out, err = cli("solve", "--json", "--game", "zsy", "--hand", "3H 4S 5D 9C", "--to-beat", "4C")
    assert rc == 0, err
    data = json.loads(out)
    assert data["to_beat"] == {"cards": ["4C"], "kind": "single"}
    assert [m["cards"] for m in data["moves"]] == [["9C"], ["5D"]]


def test_solve_reads_a_puzzle_from_stdin() -> None:
    rc, out, err = cli("solve", "--json", "-", stdin=GOOD)
    assert rc == 0, err
    assert json.loads(out)["played"] == ["6S"]
    rc, _, err = cli("solve", "-", stdin="game = 1\n")
    one_error(rc, err, "<stdin>")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "puzzles/zsy", "--preset", "us"], "--preset applies to an inline position"),
        (["solve", "puzzles/zsy", "--rule", "bombs=true"], "--rule applies to an inline position"),
        (["solve", "puzzles/zsy", "--game", "zsy"], "--game applies to an inline position"),
        (["solve", "puzzles/zsy", "--objective", "value"], "--objective does not apply to zsy"),
        (["solve", "puzzles/contract", "--all"], "--all does not apply to contract"),
        (["solve", "--game", "zsy", "--hand", "3H", "--round", "2"], "--round does not apply to zsy"),
        (["solve", "--hand", "3H", "--to-beat", "3C"], "--to-beat does not apply to manipulation"),
        (["solve", "--game", "zsy", "--hand", "3H", "--table", "4H 5H 6H"], "--table does not apply to zsy"),
        (["solve", "--hand", "3H", "--check"], "an inline position has none"),
    ],
)
def test_options_where_they_do_not_apply(args: list[str], needle: str) -> None:
    rc, _, err = cli(*args)
    one_error(rc, err, needle)


# --- shanghai rules ------------------------------------------------------------------------------------


def test_rules_lists_every_option_and_preset() -> None:
    for game, cls in GAMES.items():
        rc, out, _ = cli("rules", game)
        assert rc == 0
        for info in cls.options_info():
            assert info.name in out and info.doc in out and info.values in out
        for preset in cls.PRESETS:
            assert preset in out
    rc, _, err = cli("rules", "bridge")
    one_error(rc, err, "unknown game")


def test_unknown_rule_option_names_the_valid_ones() -> None:
    rc, _, err = cli("solve", "--game", "zsy", "--hand", "3H", "--rule", "bomb=true")
    one_error(rc, err, "(known: preset, bombs, jokers, max_players, min_players, ranks, suits, target, teams)")


def test_docs_rules_md_is_what_the_code_prints() -> None:
    """docs/rules.md is generated: it must equal ``shanghai rules --markdown`` (issue 25: the old check
    captured "" and so could not fail)."""
    doc = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    rc, out, _ = cli("rules", "--markdown")
    assert rc == 0 and out.count("\n") > 50, out
    assert out == doc, "docs/rules.md is stale: run shanghai rules --markdown > docs/rules.md"
    for game in GAMES:
        rc, out, _ = cli("rules", game, "--markdown")
        assert rc == 0 and f"### {game}\n" in out and out in doc


def test_preset_teams6_sets_six_players() -> None:
    rc, out, err = cli("play", "zsy", "--preset", "teams6", stdin="quit\n")
    assert rc == 0, err
    assert "p5:" in out
    rc, out, err = cli("selfplay", "zsy", "--preset", "teams6", "--games", "1", "--hands", "1", "--json")
    assert rc == 0, err
    assert json.loads(out)["players"]["greedy"]["seats"] == 5


# --- play output ---------------------------------------------------------------------------------------


def test_play_groups_actions_echoes_moves_and_reports_hands() -> None:
    rc, out, err = cli("play", "zsy", "--opponents", "random", "--seed", "3", stdin="?\n" + "0\n" * 80 + "quit\n")
    assert rc == 0, err
    first_turn = out.split("your move>")[0]
    listed = re.findall(r"^\s+\d+  play|^\s+\d+  pass", first_turn, flags=re.M)
    assert len(listed) == SHOWN_ACTIONS and "type ? to list them all" in first_turn
    assert re.search(r"\d+ legal actions, all plays", first_turn)
    after_question = out.split("your move>")[1]
    assert len(re.findall(r"^\s+\d+  play", after_question, flags=re.M)) > SHOWN_ACTIONS  # ? lists every action
    assert re.search(r"you: play single:\w+\n", out) and re.search(r"^player 1: ", out, flags=re.M)
    assert "hand over: finished in order: p" in out and "scores" in out


@pytest.mark.parametrize("game", ["contract", "manipulation"])
def test_play_reports_who_went_out(game: str) -> None:
    rc, out, err = cli("play", game, "-n", "3", "--opponents", "greedy", stdin="0\n" * 400 + "quit\n")
    assert rc == 0, err
    assert "hand over: went out: " in out


# --- hints -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["manipulation", "contract", "zsy"])
def test_hints_are_actions_the_engine_reads(game: str) -> None:
    """Every bundled puzzle's hint parses as an engine action of its game (``play`` accepts the same text)."""
    from solver.engine.hints import hint_for_puzzle
    from solver.puzzles import iter_puzzle_paths, load

    engine = new_game(game, players=3 if game != "zsy" else 4)
    for path in iter_puzzle_paths(ROOT / "puzzles" / game)[:25]:
        decision = hint_for_puzzle(load(path), 5.0)
        engine.parse_action(str(decision.action))  # raises IllegalActionError on a malformed text form
        for action in decision.facts.get("actions", []):
            engine.parse_action(action)


def test_a_layoff_hint_is_played_by_the_engine_as_written() -> None:
    from solver.engine.hints import hint_for_puzzle
    from solver.puzzles import load

    d = hint_for_puzzle(load(ROOT / "puzzles/contract/source-swap-ten-for-wild-two.toml"), 5.0)
    assert d.action == "swap 0 10C 2S 1" and d.facts["actions"] == ["swap 0 10C 2S 1", "layoff 1 4S"]


# --- README and messages -----------------------------------------------------------------------------------


def test_readme_says_what_takes_json_and_what_exit_1_means() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`shanghai play GAME` | no `--json`" in readme and "`shanghai solve PATH...` | json" in readme
    assert "docs/json.md" in readme
    assert re.search(r"1.{0,20}no solution.{0,80}--check", readme, flags=re.S)


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["solve", "--hand", "X" * 500], "…"),
        (["solve", "--hand", "8H", "--rule", "decks=true"], "must be an integer, not true"),
        (["solve", "--game", "zsy", "--hand", "3H", "--rule", "bombs=1"], "must be true or false, not 1"),
        (["solve", "--hand", "JK 3H"], "set the rule option jokers"),
        (["selfplay", "zsy", "--hands", "0"], "--hands"),
        (["solve", "--hand", "8H", "--time-limit", "0"], "--time-limit"),
    ],
)
def test_messages(args: list[str], needle: str) -> None:
    rc, _, err = cli(*args)
    one_error(rc, err, needle)
    assert len(err) < 300 and "True" not in err


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "a.toml"
    path.write_bytes(b"game = '\xff'\n")
    rc, _, err = cli("check", str(path))
    one_error(rc, err, "not UTF-8 text")
    assert "UnicodeDecodeError" not in err


def test_plurals(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD + "[answer]\nplayed = 1\n")
    rc, _, err = cli("solve", "--check", str(tmp_path / "a.toml"))
    assert rc == 0 and "checked 1 answer: 1 ok" in err
    rc, out, _ = cli("solve", "--game", "zsy", "--hand", "3H")
    assert "1 legal lead," in out and "0 plays left" in out
    rc, out, _ = cli("solve", "--game", "zsy", "--hand", "3H 5C")
    assert "1 play left" in out


def test_check_without_an_answer_says_so_and_exits_1(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    rc, out, err = cli("solve", "--check", str(tmp_path / "a.toml"))
    assert rc == 1 and "no [answer] to check against" in err
    rc, out, err = cli("solve", "--check", "--json", str(tmp_path / "a.toml"))
    assert rc == 1 and json.loads(out)["check"] == "no_answer"
