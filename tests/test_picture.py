"""Puzzle pictures: the position and the solution drawn with the web page's cards."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from solver.answers import solve_puzzle
from solver.picture import puzzle_svg, svg_to_png
from solver.puzzles import ContractPosition, ManipulationPosition, iter_puzzle_paths, load

ROOT = Path(__file__).resolve().parents[1]
SIX = ROOT / "puzzles" / "manipulation" / "norwegian-six-of-spades.toml"


def _cards(svg: str) -> list[str]:
    return re.findall(r'data-card="([^"]+)"', svg)


def test_position_shows_every_card_once() -> None:
    for path in iter_puzzle_paths(ROOT / "puzzles")[::7]:
        puzzle = load(path)
        pos = puzzle.position
        expected = len(pos.hand)
        if isinstance(pos, ManipulationPosition):
            expected += sum(len(m) for m in pos.table)
        elif isinstance(pos, ContractPosition):
            expected += sum(len(t.meld) for t in pos.table)
        elif pos.to_beat is not None:
            expected += len(pos.to_beat)
        assert len(_cards(puzzle_svg(puzzle))) == expected, path


def test_manipulation_answer_marks_played_and_moved_cards() -> None:
    puzzle = load(SIX)
    play = solve_puzzle(puzzle).result["play"]
    svg = puzzle_svg(puzzle, answer=True)
    moved = sum(len(m.cards) for m in play.moves if m.source is not None)
    assert svg.count('class="mark-played"') == len(play.played) == 1
    assert svg.count('class="mark-moved"') == moved == 2
    assert "3. play 6S to [6S 6H 6C]" in svg


def test_every_bundled_answer_draws() -> None:
    for game in ("manipulation", "contract", "zsy"):
        path = iter_puzzle_paths(ROOT / "puzzles" / game)[0]
        svg = puzzle_svg(load(path), answer=True)
        assert svg.startswith("<svg") and svg.endswith("</svg>")


def test_png_is_a_png() -> None:
    data = svg_to_png(puzzle_svg(load(SIX)))
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 1000


def test_render_cli(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "six.png"
    result = runner.invoke(app, ["render", str(SIX), "-o", str(out), "--answer"])
    assert result.exit_code == 0, result.output
    assert out.read_bytes()[:4] == b"\x89PNG"
    bad = runner.invoke(app, ["render", str(SIX), "-o", str(tmp_path / "six.gif")])
    assert bad.exit_code == 2 and "must end in .svg or .png" in bad.output
    missing = runner.invoke(app, ["render", str(SIX), "-o", str(tmp_path / "no" / "six.svg")])
    assert missing.exit_code == 2 and "no such folder" in missing.output
