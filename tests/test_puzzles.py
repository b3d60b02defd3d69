"""Puzzle files: loading, writing, round trips, and errors that name file and key."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.cards import Card, Cards
from solver.errors import PuzzleError
from solver.puzzles import ContractPosition, ZsyPosition, dump, dumps, iter_puzzle_paths, load, loads

ROOT = Path(__file__).resolve().parent.parent

MANIP = """
game = "manipulation"
title = "t"
[rules]
preset = "norwegian"
[position]
table = ["3H 4H 5H 6H", "3C 4C 5C 6C"]
hand = "6S KD"
[answer]
played = 1
"""

CONTRACT = """
game = "contract"
[rules]
preset = "us"
wild_limit = "half"
[position]
round = 2
hand = "5H 5D 9S 2C"
table = ["6S 7S 8S 9S", { cards = "10D 10H 2S=10C", owner = 2 }, "QC QD QH", { cards = "4D 5D 6D 7D", owner = 2 }]
laid_down = true
discard = "KD"
dead = "3H 3H"
[answer]
can_lay_down = false
"""

ZSY = """
game = "zsy"
[position]
hand = "3H 4H 5H 6H 2S"
to_beat = "5S RJ BJ"
to_beat_kind = "straight"
"""


def test_load_manipulation() -> None:
    p = loads(MANIP, "x.toml")
    assert p.game == "manipulation" and p.title == "t" and p.answer == {"played": 1}
    assert p.rules.decks == 1  # type: ignore[union-attr]
    assert p.position.hand == Cards.parse("6S KD")


def test_load_contract_and_zsy() -> None:
    c = loads(CONTRACT)
    assert isinstance(c.position, ContractPosition)
    assert c.position.table[1].owner == 2 and str(c.position.table[1].meld) == "10D 10H 2S=10C"
    assert c.position.discard == Card.parse("KD") and c.position.laid_down
    z = loads(ZSY)
    assert isinstance(z.position, ZsyPosition) and z.position.to_beat_kind == "straight"


@pytest.mark.parametrize("text", [MANIP, CONTRACT, ZSY])
def test_round_trip(text: str, tmp_path: Path) -> None:
    p = loads(text)
    assert loads(dumps(p)) == p
    dump(p, tmp_path / "p.toml")
    assert load(tmp_path / "p.toml") == p


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("6S KD", "6S KX"), r"position\.hand: malformed card 'KX'"),
        (('"3H 4H 5H 6H"', '"3H 4H 6H"'), r"position\.table\[0\]: invalid meld 3H 4H 6H"),
        (("6S KD", "6S 6H KD"), "2 copies of 6H, but the decks contain 1"),
        (('game = "manipulation"', 'game = "poker"'), "game: unknown game 'poker'"),
        (("played = 1", "played = 1\nbest = 2"), r"answer\.best: unknown key"),
        (('preset = "norwegian"', 'preset = "norwegian"\nace = "sideways"'), "rules: .*'ace' must be one of"),
        (("[position]", "[position]\nplayer = 1"), r"position\.player: unknown key"),
        (("hand =", "hand = 3 #"), r"position\.hand: expected a string"),
        (("table = [", "table = ["), None),
        (('title = "t"', 'title = "t'), "not valid TOML"),
    ],
)
def test_errors_name_file_and_key(edit: tuple[str, str], message: str | None) -> None:
    text = MANIP.replace(*edit)
    if message is None:
        loads(text, "bad.toml")
        return
    with pytest.raises(PuzzleError, match=message) as info:
        loads(text, "bad.toml")
    assert str(info.value).startswith("bad.toml: ")
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("round = 2", "round = 8"), "round must be 1-7"),
        (('"10D 10H 2S=10C"', '"10D 10H 2S=9C"'), "invalid meld"),
        (('dead = "3H 3H"', 'dead = "3H 3H 3H"'), "3 copies of 3H"),
        (("owner = 2", "owner = -1"), "owner: must be 0 or more"),
    ],
)
def test_contract_errors(edit: tuple[str, str], message: str) -> None:
    with pytest.raises(PuzzleError, match=message):
        loads(CONTRACT.replace(*edit), "c.toml")


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(PuzzleError, match="cannot read"):
        load(tmp_path / "missing.toml")
    (tmp_path / "bin.toml").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(PuzzleError, match=r"bin\.toml"):
        load(tmp_path / "bin.toml")


def test_bundled_puzzles_all_load() -> None:
    paths = iter_puzzle_paths(ROOT / "puzzles")
    assert paths
    for path in paths:
        load(path)
