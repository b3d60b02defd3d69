"""``shanghai hint``, ``play``, ``selfplay`` and ``engine`` from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from solver.engine import new_game
from solver.engine.players import make_players

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=300
    )


def test_hint_for_a_puzzle() -> None:
    r = run("hint", "--json", "puzzles/manipulation/norwegian-six-of-spades.toml")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["action"].startswith("play ") and "6S" in data["action"] and data["facts"]["played"] == ["6S"]
    human = run("hint", "puzzles/manipulation/norwegian-six-of-spades.toml")
    assert "why:" in human.stdout


def test_hint_for_a_game_record(tmp_path: Path) -> None:
    game = new_game("zsy", players=4, seed=4)
    players = make_players(["greedy"] * 4, 4)
    for _ in range(7):
        game.apply(players[game.current_player()].choose(game))
    path = tmp_path / "game.json"
    path.write_text(game.record().to_json())
    r = run("hint", "--json", str(path))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["player"] == game.current_player()
    assert data["action"] in {str(a) for a in game.legal_actions()}


def test_hint_bad_input(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"game": "zsy", "num_players": 4, "seed": 1, "actions": ["play single:ZZ"]}')
    r = run("hint", str(bad))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.stderr
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    r2 = run("hint", str(broken))
    assert r2.returncode == 2 and "not valid JSON" in r2.stderr


def test_play_repeats_the_prompt_on_bad_input_and_saves_the_record(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    r = run(
        "play", "zsy", "--opponents", "greedy", "--seed", "3", "--save", str(record), stdin="foo\n999\nhint\n0\nquit\n"
    )
    assert r.returncode == 0, r.stderr
    assert "unknown action 'foo'" in r.stderr and "no action number 999" in r.stderr
    assert "hint:" in r.stdout and "your hand:" in r.stdout
    saved = json.loads(record.read_text())
    assert saved["game"] == "zsy" and len(saved["actions"]) >= 1


def test_selfplay_json_and_bad_player() -> None:
    r = run(
        "selfplay",
        "zsy",
        "--games",
        "8",
        "--players",
        "random,greedy,random,solver",
        "--hands",
        "1",
        "--check",
        "--json",
    )
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["games"] == 8 and data["errors"] == 0
    assert set(data["players"]) == {"random", "greedy", "solver"}
    lo, hi = data["players"]["solver"]["ci95"]
    assert 0 <= lo <= data["players"]["solver"]["win_rate"] <= hi <= 1
    bad = run("selfplay", "zsy", "--players", "random,wizard")
    assert bad.returncode == 2 and "unknown player 'wizard'" in bad.stderr


def test_engine_command_answers_lines() -> None:
    lines = (
        '{"id": 1, "cmd": "new_game", "game": "zsy"}\nnonsense\n{"id": 2, "cmd": "quit"}\n{"id": 3, "cmd": "legal"}\n'
    )
    r = run("engine", stdin=lines)
    replies = [json.loads(x) for x in r.stdout.splitlines()]
    assert r.returncode == 0 and len(replies) == 3  # nothing is answered after quit
    assert replies[0]["result"]["game_id"] == "g1" and replies[1]["error"]["code"] == "parse_error"
    assert replies[2]["result"] == {"bye": True}


def test_zsy_hint_is_the_best_move_solve_lists() -> None:
    puzzle = "puzzles/zsy/bomb-on-bomb.toml"
    hint = json.loads(run("hint", "--json", puzzle).stdout)
    solved = json.loads(run("solve", "--json", puzzle).stdout)
    best = solved["moves"][0]
    assert hint["action"] == f"play {best['kind']}:{' '.join(best['cards'])}"
