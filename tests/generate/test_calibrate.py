"""Models of a human solver (the difficulty's yardstick) and titles that do not give the count away."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from solver.cards import Cards
from solver.generate import generate, plain_title
from solver.generate.calibrate import MODELS, main, misses, shares
from solver.generate.models import _sets_only
from solver.puzzles import iter_puzzle_paths, load

ROOT = Path(__file__).resolve().parents[2]
GEN = ROOT / "puzzles" / "generated"


def test_shallow_search_by_depth() -> None:
    path = next(p for p in iter_puzzle_paths(GEN / "manipulation") if load(p).meta["features"]["shallow_depth"] == 2)
    missed = misses(load(path))
    assert missed["greedy"] and missed["shallow-1"] and not missed["shallow-2"] and not missed["solver"]


def test_a_look_only_at_sets_misses_a_split_with_a_straight() -> None:
    assert _sets_only(Cards.parse("QS QH QD 8H 9D 10H")) == 4
    puzzle = next(
        p
        for p in map(load, iter_puzzle_paths(GEN / "zsy"))
        if p.meta["kind"] == "out" and p.meta["features"]["idea"] == "a straight"
    )
    assert any(s.split(":")[0] in ("straight", "parallel") for s in puzzle.meta["solution"])
    assert misses(puzzle)["glance"] and not misses(puzzle)["solver"]


def test_a_lay_off_without_swaps_misses_a_swap_answer() -> None:
    swap = next(p for p in map(load, iter_puzzle_paths(GEN / "contract")) if p.answer.get("swaps"))
    assert misses(swap)["no-swap"]


def test_shares_count_each_model_per_level() -> None:
    puzzles = [load(p) for p in iter_puzzle_paths(GEN / "zsy")[:4]]
    table = shares(puzzles)
    assert sum(n for n, _ in table.values()) == 4
    for _, share in table.values():
        assert set(share) == set(MODELS["zsy"]) and all(0 <= s <= 1 for s in share.values())


def test_plain_titles_hide_the_count_and_keep_the_puzzles() -> None:
    counted = generate("zsy", "easy", 3, seed=1)
    plain = generate("zsy", "easy", 3, seed=1, titles="plain")
    assert [p.position for p in counted] == [p.position for p in plain]
    for p in plain:
        if p.meta["kind"] == "out":
            assert not re.search(r"\d", p.title)
    layoff = next(p for p in map(load, iter_puzzle_paths(GEN / "contract")) if p.meta["kind"] == "goout")
    assert plain_title(layoff) == plain_title(
        next(p for p in map(load, iter_puzzle_paths(GEN / "contract")) if p.meta["kind"] == "layoff")
    )
    assert str(layoff.answer["layoff"]) not in plain_title(layoff)


def test_fresh_puzzles_saved_give_the_same_tables_read_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["--fresh", "2", "--seed", "3", "--games", "zsy", "--levels", "easy", "--save", str(tmp_path)])
    fresh = capsys.readouterr().out
    saved = sorted(p.name for p in (tmp_path / "zsy").iterdir())
    assert saved == ["easy-out-s3-001.toml", "easy-reply-s3-002.toml"]
    main(["--dir", str(tmp_path)])
    again = capsys.readouterr().out
    assert fresh.split("\n\n")[:3] == again.split("\n\n")[:3]  # all but the timing line
    assert "| zsy | easy | out | 1 |" in again and "| zsy | easy | reply | 1 |" in again


def test_shares_by_kind_split_a_level() -> None:
    puzzles = [load(p) for p in iter_puzzle_paths(GEN / "contract") if "medium" in p.name]
    by_kind = shares(puzzles, by_kind=True)
    kinds = {key[2] for key in by_kind if key[1] == "medium"}
    assert "discard" in kinds and kinds & {"layoff", "goout"}
    assert sum(n for key, (n, _) in by_kind.items()) == len(puzzles) == shares(puzzles)[("contract", "medium")][0]
