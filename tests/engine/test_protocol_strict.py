"""Issue 12, engine protocol: time limits, engine options per game, strict JSON, player checks, pooled solves."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from solver.engine import ENGINE_OPTIONS, SetupError, check_options, new_game, replay
from solver.engine.protocol import EngineServer
from solver.engine.workers import SolvePool
from tests.engine.slow_target import slow_answer

ROOT = Path(__file__).resolve().parents[2]
ZSY_PUZZLE = {"game": "zsy", "position": {"hand": "3H 4H 5H 6H 7H"}}


def ask(server: EngineServer, **req: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(server.handle_line(json.dumps({"id": 1, **req})) or "")
    return reply


def code(reply: dict[str, Any]) -> str | None:
    found: str | None = reply.get("error", {}).get("code")
    return found


@pytest.mark.parametrize("limit", [0, -1, 1e400])
@pytest.mark.parametrize("cmd", ["solve", "hint"])
def test_time_limit_must_be_positive_and_finite(cmd: str, limit: float) -> None:
    line = json.dumps({"id": 1, "cmd": cmd, "puzzle": ZSY_PUZZLE, "time_limit": 0}).replace(
        '"time_limit": 0', f'"time_limit": {limit!r}'
    )
    line = line.replace("inf", "1e400")
    reply = json.loads(EngineServer().handle_line(line) or "")
    assert code(reply) == "bad_value" and "time_limit" in reply["error"]["message"]


def test_ai_move_time_limit_checked() -> None:
    server = EngineServer()
    gid = ask(server, cmd="new_game", game="manipulation", players=3)["result"]["game_id"]
    assert code(ask(server, cmd="ai_move", game_id=gid, time_limit=0)) == "bad_value"


@pytest.mark.parametrize(
    ("game", "options", "needle"),
    [
        ("zsy", {"time_limit": 1}, "unknown zsy engine option 'time_limit' (known: max_hands, shown)"),
        ("contract", {"turn_limit": "x"}, "'turn_limit' must be an integer"),
        ("manipulation", {"max_hands": 0}, "'max_hands' must be between 1 and"),
        ("contract", {"time_limit": -1}, "'time_limit' must be between"),
        ("manipulation", {"max_rounds": 1}, "known: max_hands, time_limit"),
    ],
)
def test_engine_options_checked_at_new_game(game: str, options: dict[str, Any], needle: str) -> None:
    reply = ask(EngineServer(), cmd="new_game", game=game, options=options)
    assert code(reply) == "bad_value" and needle in reply["error"]["message"], reply
    with pytest.raises(SetupError, match="engine option"):
        new_game(game, options=options)


def test_every_game_has_an_option_schema() -> None:
    assert set(ENGINE_OPTIONS) == {"manipulation", "contract", "zsy"}
    assert check_options("contract", {"turn_limit": 50, "time_limit": 1}) == {"turn_limit": 50, "time_limit": 1.0}


def test_protocol_doc_lists_every_engine_option() -> None:
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `(manipulation|contract|zsy)` \| `(\w+)` \|", doc, flags=re.M))
    assert rows == {(game, name) for game, schema in ENGINE_OPTIONS.items() for name in schema}


def test_accepted_options_go_into_the_record_and_replay() -> None:
    server = EngineServer()
    opts = {"max_rounds": 1, "turn_limit": 40, "time_limit": 0.5}
    gid = ask(server, cmd="new_game", game="contract", players=3, options=opts)["result"]["game_id"]
    ask(server, cmd="ai_move", game_id=gid, ai="greedy", apply=True)
    record = ask(server, cmd="record", game_id=gid)["result"]
    assert record["options"] == opts
    from solver.engine import load_record

    again = replay(load_record(json.dumps(record)))
    assert again.time_limit == 0.5 and again.turn_limit == 40  # type: ignore[attr-defined]


@pytest.mark.parametrize(("game", "players"), [("zsy", 1), ("zsy", 9), ("contract", 2), ("manipulation", 99)])
def test_player_count_out_of_range_is_bad_value(game: str, players: int) -> None:
    reply = ask(EngineServer(), cmd="new_game", game=game, players=players)
    assert code(reply) == "bad_value" and "players" in reply["error"]["message"]


def test_legal_for_a_player_who_does_not_exist() -> None:
    server = EngineServer()
    gid = ask(server, cmd="new_game", game="zsy")["result"]["game_id"]
    assert code(ask(server, cmd="legal", game_id=gid, player=7)) == "bad_value"
    assert code(ask(server, cmd="legal", game_id=gid, player=-1)) == "bad_value"
    assert ask(server, cmd="legal", game_id=gid, player=2)["result"]["actions"] == []  # exists, not to move


@pytest.mark.parametrize("line", ['{"id": NaN, "cmd": "quit"}', '{"id": Infinity, "cmd": "x"}', '{"id": 1e400}'])
def test_strict_json_never_echoes_nan(line: str) -> None:
    reply = EngineServer().handle_line(line) or ""
    assert not reply.startswith(('{"id": NaN', '{"id": Infinity'))
    data = json.loads(reply, parse_constant=lambda c: pytest.fail(f"non-JSON constant {c}"))
    assert data["id"] is None and code(data) in ("parse_error", "invalid_request")


# --- solves in worker processes ---------------------------------------------------------


def _serve(lines: list[str], **kwargs: Any) -> list[tuple[float, dict[str, Any]]]:
    """Run ``serve`` over ``lines``; each reply with the time it was written."""
    replies: list[tuple[float, dict[str, Any]]] = []
    start = time.perf_counter()

    class Out(io.StringIO):
        def write(self, text: str) -> int:
            for part in text.splitlines():
                replies.append((time.perf_counter() - start, json.loads(part)))
            return len(text)

    EngineServer().serve(io.StringIO("".join(line + "\n" for line in lines)), Out(), **kwargs)
    return replies


def test_a_long_solve_does_not_block_other_games() -> None:
    lines = [
        json.dumps({"id": "slow", "cmd": "solve", "puzzle": ZSY_PUZZLE, "sleep": 3}),
        json.dumps({"id": "new", "cmd": "new_game", "game": "zsy"}),
        json.dumps({"id": "legal", "cmd": "legal", "game_id": "g1"}),
    ]
    replies = _serve(lines, target=slow_answer)
    order = [r["id"] for _, r in replies]
    assert order == ["new", "legal", "slow"], order
    at = {r["id"]: t for t, r in replies}
    assert at["legal"] < 1.0 <= at["slow"]


def test_a_solve_past_its_hard_limit_is_stopped() -> None:
    written: list[str] = []
    # x's hard limit is 0.5 s; y's is generous, as its clock may run while a new worker starts (slow under load)
    pool = SolvePool(written.append, workers=1, target=slow_answer, limit=lambda t: 0.5 if t < 1 else 15.0)
    pool.submit("x", {"id": "x", "sleep": 30}, 0.1)
    pool.submit("y", {"id": "y", "sleep": 0}, 5.0)  # a new worker answers after the kill
    start = time.perf_counter()
    pool.close()
    assert time.perf_counter() - start < 20
    replies = {r["id"]: r for r in map(json.loads, written)}
    assert replies["x"]["error"]["code"] == "timeout"
    assert replies["y"]["result"] == {"slept": 0}


def test_pooled_replies_are_real_answers_with_matching_ids() -> None:
    lines = [json.dumps({"id": i, "cmd": "solve", "puzzle": ZSY_PUZZLE, "time_limit": 5}) for i in range(3)]
    lines.append(json.dumps({"id": "q", "cmd": "quit"}))
    replies = [r for _, r in _serve(lines)]
    assert [r["id"] for r in replies][-1] == "q"  # quit answers after every pending solve
    assert sorted(r["id"] for r in replies[:-1]) == [0, 1, 2]
    assert all(r["result"]["fewest_plays"] == 1 for r in replies[:-1])


def test_the_engine_subprocess_answers_a_game_while_solving() -> None:
    slow = {"game": "manipulation", "position": {"table": [], "hand": " ".join(["3H 4H 5H 6H 7H 8H 9H 10H"] * 2)}}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
    )
    assert proc.stdin is not None and proc.stdout is not None
    out: list[dict[str, Any]] = []
    reader = threading.Thread(target=lambda: out.extend(json.loads(line) for line in proc.stdout or []))
    reader.start()
    proc.stdin.write(json.dumps({"id": 1, "cmd": "solve", "puzzle": slow, "time_limit": 5}) + "\n")
    proc.stdin.write(json.dumps({"id": 2, "cmd": "new_game", "game": "zsy"}) + "\n")
    proc.stdin.flush()
    proc.stdin.close()
    reader.join(timeout=60)
    proc.wait(timeout=10)
    assert [r["id"] for r in out] == [2, 1] and "result" in out[1]
