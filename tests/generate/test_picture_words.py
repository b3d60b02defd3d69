"""The answer pictures' words and order: Zheng Shang You wilds at their rank, why that discard, footers that fit."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, cast

import pytest

from solver.cards import Cards
from solver.contract import distance_to_contract
from solver.picture import FOOTER_CHARS, _combo_group, answer_notes, footer_lines, puzzle_svg
from solver.puzzles import ContractPosition, iter_puzzle_paths, load
from solver.rules import ZsyRules
from solver.svg import wrap
from solver.zsy import Combo

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "puzzles" / "generated"


@pytest.mark.parametrize(
    ("text", "drawn"),
    [
        ("parallel:BJ RJ 6H 6D 8H 8D", "6H 6D BJ=7 RJ=7 8H 8D"),  # pair by pair: the jokers make the sevens
        ("parallel:RJ 6H 6D 7S 8H 8D", "6H 6D 7S RJ=7 8H 8D"),
        ("straight:3H 4H RJ 6H 7H", "3H 4H RJ=5 6H 7H"),  # the gap filled in place
        ("straight:3H RJ BJ 6C", "3H BJ=4 RJ=5 6C"),
        ("set:5H 5D 2S", "5H 5D 2S=5"),
    ],
)
def test_zsy_wilds_are_drawn_at_their_rank(text: str, drawn: str) -> None:
    group = _combo_group(Combo.parse(text, ZsyRules()))
    items = cast(list[tuple[Any, Any, Any, Any]], group)
    shown = " ".join(f"{card}" + (f"={role}" if role else "") for card, _, _, role in items)
    assert shown == drawn


def test_the_discard_answer_says_why_that_card() -> None:
    paths = [p for p in iter_puzzle_paths(GENERATED / "contract") if "discard" in p.name][:3]
    assert paths
    for path in paths:
        puzzle = load(path)
        pos = puzzle.position
        assert isinstance(pos, ContractPosition)
        notes = answer_notes(puzzle)
        assert not any("(s)" in n for n in notes), notes
        why = next(n for n in notes if n.startswith("Why: after each discard, "))
        seen = set()
        for part in why.removeprefix("Why: after each discard, ").rstrip(".").split("; "):
            cards, away = part.split(": ")
            missing = int(re.fullmatch(r"(\d+) cards? away", away)[1])  # type: ignore[index]
            for code in cards.split():
                seen.add(code)
                after = distance_to_contract(pos.hand - Cards.parse(code), puzzle.rules, pos.round, method="cp-sat")  # type: ignore[arg-type]
                assert after.missing == missing, (path.name, code)
        assert seen == {c.code for c in pos.hand.distinct()}  # every candidate, each with its distance
        assert notes[0].startswith(f"Answer: discard {puzzle.meta['solution']};")


def test_a_whole_hand_answer_names_the_discard_once() -> None:
    puzzle = load(ROOT / "puzzles" / "on-request" / "contract" / "easy-whole-01.toml")
    card = puzzle.meta["solution"]
    assert sum(note.count(card) for note in answer_notes(puzzle)) == 1


def test_footers_fit_without_a_lone_fragment() -> None:
    for path in [*iter_puzzle_paths(GENERATED), *iter_puzzle_paths(ROOT / "puzzles" / "contract")]:
        puzzle = load(path)
        lines = footer_lines(puzzle)
        assert " · ".join(lines) == " · ".join(lines).strip() and all(len(line) <= FOOTER_CHARS for line in lines)
        assert all(len(wrap(line, 560 - 16, 11)) == 1 for line in lines)  # the narrowest picture holds each line
    svg = puzzle_svg(load(GENERATED / "contract" / "expert-discard-01.toml"))
    footer = re.findall(r'<text class="footer"[^>]*>([^<]*)</text>', svg)
    assert footer[-1] == "difficulty: expert (score 15.0)" and not any(f.startswith("(score") for f in footer)
