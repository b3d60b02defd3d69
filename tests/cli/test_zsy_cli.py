"""``shanghai solve`` on Zheng Shang You puzzles: verified answers, JSON keys, bad input exits 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.puzzles import ZsyPosition, iter_puzzle_paths, load
from solver.rules import ZsyRules
from solver.zsy import combo_from_position, legal_moves
from tests.oracles.zsy_cpsat import fewest_plays_cpsat
from tests.oracles.zsy_endgame import ref_winning_leads
from tests.oracles.zsy_reference import ref_fewest, ref_moves

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = iter_puzzle_paths(ROOT / "puzzles" / "zsy")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_at_least_20_puzzles() -> None:
    assert len(PUZZLES) >= 20


@pytest.mark.parametrize("path", PUZZLES, ids=[p.stem for p in PUZZLES])
def test_puzzle_answers_hold_by_independent_checks(path: Path) -> None:
    """Each [answer] is re-derived without the generator or the search: brute force or CP-SAT."""
    puzzle = load(path)
    pos, rules = puzzle.position, puzzle.rules
    assert isinstance(pos, ZsyPosition) and isinstance(rules, ZsyRules)
    answer = puzzle.answer
    assert answer and set(answer) <= {"fewest_plays", "moves", "leads", "winning_leads"}
    hand = tuple(pos.hand)
    small = len(hand) <= 10
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, rules) if pos.to_beat is not None else None
    key = (to_beat.kind, to_beat.copies, to_beat.length, to_beat.top, to_beat.flush, to_beat.pure) if to_beat else None
    if "fewest_plays" in answer:
        expected = ref_fewest(hand) if small else fewest_plays_cpsat(pos.hand)[0]
        assert answer["fewest_plays"] == expected
    if "moves" in answer:
        sizes = None if to_beat is None else [to_beat.size] + ([4] if rules.bombs else [])
        assert small or sizes is not None
        assert answer["moves"] == len(ref_moves(hand, key, rules.bombs, sizes))
        assert answer["moves"] == len(legal_moves(pos.hand, to_beat, rules))
    if "leads" in answer:
        assert small
        assert answer["leads"] == len(ref_moves(hand, None, rules.bombs))
    if "winning_leads" in answer:  # a two-player endgame: the plain minimax over brute-force moves
        assert small and pos.opponent is not None
        assert answer["winning_leads"] == len(ref_winning_leads(list(pos.hand), list(pos.opponent), rules.bombs))


def test_solve_check_all_puzzles() -> None:
    result = run("solve", "--check", "puzzles/zsy")
    assert result.returncode == 0, result.stderr
    assert f"checked {len(PUZZLES)} answers: {len(PUZZLES)} ok" in result.stderr


def test_json_keys() -> None:
    result = run("solve", "--json", "puzzles/zsy/joker-takes-suit.toml")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {"moves", "fewest_plays", "split", "status", "seconds"} <= set(data)
    assert data["status"] == "optimal" and data["fewest_plays"] == 2
    assert all(set(m) == {"cards", "kind", "plays_left"} and m["kind"] == "straight" for m in data["moves"])
    assert len(data["moves"]) == 12
    assert sorted(c for play in data["split"] for c in play) == sorted(
        ["6H", "8H", "RJ", "9C", "10C", "6D", "7D", "8D"]
    )


def test_moves_best_first() -> None:
    result = run("solve", "--json", "puzzles/zsy/rulebook-sets.toml")
    data = json.loads(result.stdout)
    # 7-7-7 leaves 8-8-2-RJ and 4C: two plays; a set of eights leaves more
    assert data["moves"][0] == {"cards": ["7S", "7H", "7D"], "kind": "set", "plays_left": 2}


BAD = [
    ('hand = "3H 4H"\nto_beat = "5S 6C 8S"', "position.to_beat: 5S 6C 8S is not a legal combination"),
    ('hand = "3H RJ RJ"', "2 copies of RJ"),
    ('hand = "3H RJ RJ RJ"', "3 copies of RJ"),
    ('hand = "3H 4H"\nto_beat = "5S RJ BJ"', "ambiguous: set or straight (give to_beat_kind)"),
    ('hand = "3H 4H"\nto_beat = "5S 6S"\nto_beat_kind = "set"', "5S 6S is not a legal set"),
    ('hand = "3H 4H"\nto_beat_kind = "set"', "given without to_beat"),
]


@pytest.mark.parametrize(("position", "needle"), BAD)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, position: str, needle: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f'game = "zsy"\n[position]\n{position}\n')
    result = run("solve", str(path))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
