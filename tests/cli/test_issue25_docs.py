"""Issue 25, docs that cannot drift and the wording: hands as lists in ``observe``, the one-line message for a
missing extra (docs/envs.md), and the plural slips ("634 mores", "1 distinct best plays", "play 0 cards")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from solver.engine.protocol import EngineServer
from solver.extras import MissingExtra
from tests.cli.test_issue12 import cli, one_error

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("game", ["manipulation", "contract", "zsy"])
def test_observe_gives_the_hand_as_a_list_of_card_codes(game: str) -> None:
    server = EngineServer()
    server.handle_line(json.dumps({"id": 1, "cmd": "new_game", "game": game, "seed": 2}))
    reply = json.loads(server.handle_line('{"id": 2, "cmd": "observe", "game_id": "g1", "player": 1}') or "")
    hand = reply["result"]["hand"]
    assert isinstance(hand, list) and hand and all(isinstance(c, str) and " " not in c for c in hand), hand
    assert hand == [c.code for c in server.games["g1"].hands[1]]


@pytest.mark.parametrize("game", ["manipulation", "contract", "zsy"])
def test_play_still_shows_the_hand(game: str) -> None:
    rc, out, err = cli("play", game, "--seed", "2", stdin="quit\n")
    assert rc == 0, err
    assert "your hand: " in out and "[" not in out.split("your hand: ")[1].splitlines()[0]


def test_the_cli_turns_a_missing_extra_into_one_line_exit_2(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.engine.selfplay

    def needs_an_extra(*_: Any, **__: Any) -> Any:
        raise MissingExtra("pyspiel is missing: pip install 'shanghai[openspiel]'")

    monkeypatch.setattr(solver.engine.selfplay, "selfplay", needs_an_extra)
    rc, _, err = cli("selfplay", "zsy", "--games", "1")
    one_error(rc, err, "pip install 'shanghai[openspiel]'")


def test_play_says_how_many_more_actions_in_plain_words() -> None:
    rc, out, err = cli("play", "zsy", "--seed", "3", stdin="quit\n")
    assert rc == 0, err
    more = re.search(r"\.\.\. (\d+) (\w+): type \? to list them all", out)
    assert more is not None and more.group(2) == "more", out


def test_one_distinct_best_play_is_singular() -> None:
    rc, out, err = cli("solve", "--all", "--hand", "6S KD", "--table", "3H 4H 5H 6H | 3C 4C 5C 6C")
    assert rc == 0, err
    assert "  1 distinct best play:" in out and "plays:" not in out


def test_no_card_to_play_says_so_once() -> None:
    rc, out, err = cli("solve", "--hand", "KD", "--table", "3H 4H 5H")
    assert rc == 0, err
    verdict = next(line for line in out.splitlines() if "no card can be played" in line)
    assert verdict.strip() == "no card can be played", verdict
    assert "play 0 cards" not in out
