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
            expected += sum(len(t.meld) for t in pos.table) + (pos.discard is not None)
        else:  # Zheng Shang You: the combination to beat, or a lead endgame's known opponent hand
            expected += len(pos.to_beat or ()) + len(pos.opponent or ())
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


# --- pictures to post: each fault of issue 28 -------------------------------------------------

from solver.puzzles import loads  # noqa: E402
from solver.svg import wrap  # noqa: E402


def _items(svg: str) -> list[tuple[str, str]]:
    """Every drawn card in order: its code and what is drawn on it (frames, badges, role tags)."""
    chunks = svg.split('<g transform="translate(')[1:]
    return [(re.search(r'data-card="([^"]+)"', c).group(1), c) for c in chunks]  # type: ignore[union-attr]


def _texts(svg: str, cls: str) -> list[str]:
    return re.findall(rf'class="{cls}"[^>]*>([^<]*)<', svg)


LAYOFF_TWIN = """
game = "contract"
[position]
round = 1
hand = "JD KS"
table = ["JD JC JH", "3S 4S 5S 6S", { cards = "8H 8C 8D", owner = 1 }, { cards = "3C 4C 5C 2S=6C", owner = 1 }]
laid_down = true
"""


def test_contract_answer_frames_the_laid_off_card_not_its_twin() -> None:
    svg = puzzle_svg(loads(LAYOFF_TWIN), answer=True)
    answer = svg[svg.index(">lay off<") :]
    jds = [("mark-played" in body) for code, body in _items(answer) if code == "JD"]
    assert jds == [False, True]  # the first JD was on the table; the one laid off sits after JC JH
    assert "Answer: lay off JD" in svg and "Then discard KS to go out." in svg


def test_contract_melds_drawn_in_table_order_numbered_as_the_words() -> None:
    svg = puzzle_svg(loads(LAYOFF_TWIN), answer=True)
    captions = _texts(svg, "caption")
    assert captions[:4] == ["meld 0 · yours", "meld 1 · yours", "meld 2 · player 1", "meld 3 · player 1"]
    swap = puzzle_svg(load(ROOT / "puzzles" / "contract" / "source-swap-ten-for-wild-two.toml"), answer=True)
    assert "swap 10C for 2S in meld 0" in swap and _texts(swap, "caption")[0] == "meld 0 · player 1"


def test_discard_answer_names_the_card() -> None:
    path = next(p for p in iter_puzzle_paths(ROOT / "puzzles" / "generated" / "contract") if "discard" in p.name)
    puzzle = load(path)
    svg = puzzle_svg(puzzle, answer=True)
    assert f"Answer: discard {puzzle.meta['solution']}" in svg
    framed = [code for code, body in _items(svg[svg.index(">discard<") :]) if "mark-played" in body]
    assert framed == [puzzle.meta["solution"]]


def test_zsy_reply_answer_draws_the_reply_then_the_plays() -> None:
    pair = puzzle_svg(load(ROOT / "puzzles" / "zsy" / "fourteen-cards-reply-pair.toml"), answer=True)
    assert "Answer: pass (every reply leaves 4 plays, more than 3)" in pair and ">reply<" in pair
    reply = puzzle_svg(load(ROOT / "puzzles" / "zsy" / "rulebook-sets.toml"), answer=True)
    assert "Answer: reply set:7S 7H 7D, then out in 2 plays" in reply
    assert ">then<" in reply and ">fewest plays<" not in reply


def test_long_titles_wrap_within_the_picture() -> None:
    puzzle = load(ROOT / "puzzles" / "contract" / "source-fives-and-ten-of-spades.toml")
    svg = puzzle_svg(puzzle)
    width = float(re.search(r'width="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    lines = _texts(svg, "title")
    assert len(lines) >= 2 and " ".join(lines) == puzzle.title
    assert all(len(line) * 0.56 * 20 <= width - 16 for line in lines)
    assert wrap("a b", 1000, 20) == ["a b"]


def test_the_round_is_not_repeated_in_the_title() -> None:
    path = next(p for p in iter_puzzle_paths(ROOT / "puzzles" / "generated" / "contract") if "discard" in p.name)
    svg = puzzle_svg(load(path))
    assert " ".join(_texts(svg, "title")).count("round") <= 1
    assert "round" in " ".join(_texts(svg, "footer"))


def test_wild_and_joker_roles_are_drawn() -> None:
    svg = puzzle_svg(loads(LAYOFF_TWIN))
    assert 'data-role="6C"' in svg  # 3C 4C 5C 2S=6C
    joker = puzzle_svg(load(ROOT / "puzzles" / "zsy" / "parallel-wild-rank.toml"), answer=True)
    assert 'class="role"' in joker
    manip = next(p for p in iter_puzzle_paths(ROOT / "puzzles" / "manipulation") if "joker" in p.name)
    assert 'class="role"' in puzzle_svg(load(manip), answer=True)


def test_parallel_straights_are_drawn_by_rank() -> None:
    from solver.cards import Card
    from solver.zsy import zsy_value

    svg = puzzle_svg(load(ROOT / "puzzles" / "zsy" / "parallel-rulebook.toml"), answer=True)
    answer = svg[svg.index(">reply<") :]
    codes = [code for code, body in _items(answer) if "mark-played" in body]
    values = [zsy_value(Card.parse(c)) for c in codes]
    assert len(values) == 6 and values == sorted(values)


def test_rules_and_difficulty_are_printed_small() -> None:
    path = iter_puzzle_paths(ROOT / "puzzles" / "generated" / "manipulation")[0]
    puzzle = load(path)
    foot = " ".join(_texts(puzzle_svg(puzzle), "footer"))
    assert "Manipulation Shanghai" in foot and "rules:" in foot and f"difficulty: {puzzle.meta['difficulty']}" in foot
    preset = " ".join(_texts(puzzle_svg(load(ROOT / "puzzles" / "contract" / "poker-r1-jokers.toml")), "footer"))
    assert "wild_cards jokers" in preset
