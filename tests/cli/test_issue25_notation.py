"""Issue 25, notation: the Zheng Shang You ``kind:cards`` notation wherever a combination is typed (``--to-beat``,
a puzzle file's ``to_beat``, the protocol's puzzles), ``--to-beat-kind`` for ambiguous ones, and the parser and
printer round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import Cards
from solver.engine.protocol import EngineServer
from solver.puzzles import ZsyPosition, from_data, loads, position_dict
from solver.rules import ZsyRules
from solver.zsy import Combo, classify, combo_from_position
from tests.cli.test_issue12 import cli, one_error

DECK = list(ZsyRules().deck)


def solve_json(*args: str) -> dict[str, Any]:
    rc, out, err = cli("solve", "--json", "--game", "zsy", *args)
    assert rc == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_to_beat_takes_the_readme_notation() -> None:
    """``--to-beat "set:5S RJ BJ"`` was "malformed card"."""
    data = solve_json("--hand", "6S 6H 6D 9S", "--to-beat", "set:5S RJ BJ")
    assert data["to_beat"] == {"cards": ["5S", "BJ", "RJ"], "kind": "set"}
    assert [m["cards"] for m in data["moves"]] == [["6S", "6H", "6D"]]


def test_to_beat_kind_settles_an_ambiguous_combination() -> None:
    data = solve_json("--hand", "6S 7S 8S 9D", "--to-beat", "5S RJ BJ", "--to-beat-kind", "straight")
    assert data["to_beat"] == {"cards": ["5S", "BJ", "RJ"], "kind": "straight"}
    assert [m["cards"] for m in data["moves"]] == [["6S", "7S", "8S"]]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--to-beat", "5S RJ BJ"], "ambiguous: set or straight"),
        (["--to-beat", "sett:5S RJ BJ"], "unknown combination kind 'sett'"),
        (["--to-beat", "set:5S RJ BJ", "--to-beat-kind", "straight"], "says 'straight' but to_beat says set"),
        (["--to-beat", "5S RJ BJ", "--to-beat-kind", "pair"], "must be one of single, set, straight, parallel"),
        (["--to-beat-kind", "set"], "--to-beat-kind says the kind of --to-beat, which is missing"),
        (["--to-beat", "set:5D 6D"], "5D 6D is not a legal set"),
    ],
)
def test_bad_combinations_are_one_line_exit_2(args: list[str], needle: str) -> None:
    rc, _, err = cli("solve", "--game", "zsy", "--hand", "6S 7S", *args)
    one_error(rc, err, needle)


def test_to_beat_kind_applies_only_to_zsy() -> None:
    rc, _, err = cli("solve", "--hand", "6S 7S", "--to-beat-kind", "set")
    one_error(rc, err, "--to-beat-kind does not apply to manipulation")


def test_puzzle_files_and_the_protocol_take_the_notation() -> None:
    text = 'game = "zsy"\n[position]\nhand = "6S 7S 8D 9S"\nto_beat = "straight:5S RJ BJ"\n'
    pos = loads(text, "notation.toml").position
    assert isinstance(pos, ZsyPosition) and pos.to_beat == Cards.parse("5S RJ BJ") and pos.to_beat_kind == "straight"
    server = EngineServer()
    puzzle = {"game": "zsy", "position": {"hand": "6S 6H 6D", "to_beat": "set:5S RJ BJ"}}
    reply = json.loads(server.handle_line(json.dumps({"id": 1, "cmd": "solve", "puzzle": puzzle})) or "")
    assert reply["result"]["to_beat"]["kind"] == "set", reply


def test_ambiguous_parallel_shapes_are_written_with_their_shape() -> None:
    text = "5S 5H 6S 6H 7S 7H 2S 2H 2D 2C BJ RJ"
    cards = Cards.parse(text)
    shapes = {c.label for c in classify(cards)}
    assert shapes == {"parallel-3x4", "parallel-4x3"}
    for label in shapes:
        data = solve_json("--hand", "QS", "--to-beat", f"{label}:{text}")
        assert data["to_beat"]["kind"] == "parallel"
        pos = from_data({"game": "zsy", "position": {"hand": "QS", "to_beat": f"{label}:{text}"}}, "p")
        assert isinstance(pos.position, ZsyPosition)
        assert combo_from_position(cards, pos.position.to_beat_kind).label == label


@settings(max_examples=120, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True), st.booleans())
def test_printer_and_parser_round_trip(cards: list, split: bool) -> None:  # type: ignore[type-arg]
    """Every combination printed as ``kind:cards`` parses back to itself: as a ``Combo``, as a puzzle's
    ``to_beat`` (or its cards with ``to_beat_kind``), and through the position's printer again."""
    for combo in classify(Cards(cards)):
        text = str(combo)
        assert Combo.parse(text) == combo
        label, _, body = text.partition(":")
        position = {"to_beat": body, "to_beat_kind": label} if split else {"to_beat": text}
        parsed = from_data({"game": "zsy", "position": {"hand": "", **position}}, "p").position
        assert isinstance(parsed, ZsyPosition) and parsed.to_beat is not None
        assert combo_from_position(parsed.to_beat, parsed.to_beat_kind) == combo
        again = from_data({"game": "zsy", "position": position_dict(parsed)}, "p").position
        assert again == parsed
