"""The JSON-lines engine: documented examples, fuzzing, the client, games through the pipe."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.engine.client import Client, EngineError
from solver.engine.protocol import COMMANDS, EngineServer

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
SESSIONS = re.findall(r"```session\n(.*?)```", DOC, flags=re.S)


def subset(expected: Any, actual: Any) -> bool:
    """True if every key of ``expected`` is in ``actual`` with a matching value (recursively)."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and subset(v, actual[k]) for k, v in expected.items())
    return bool(expected == actual)


def test_the_doc_has_sessions() -> None:
    assert len(SESSIONS) >= 4
    documented = set(re.findall(r"^\| `(\w+)` \|", DOC, flags=re.M))
    assert set(COMMANDS) <= documented


@pytest.mark.parametrize("session", SESSIONS, ids=[f"session{i}" for i in range(len(SESSIONS))])
def test_documented_sessions(session: str) -> None:
    server = EngineServer()
    reply = None
    for line in session.strip().splitlines():
        if line.startswith("> "):
            reply = server.handle_line(line[2:])
        else:
            assert line.startswith("< ") and reply is not None
            expected = json.loads(line[2:])
            assert subset(expected, json.loads(reply)), (line, reply)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=8,
)
fields = st.sampled_from(
    [
        "game",
        "game_id",
        "action",
        "player",
        "players",
        "seed",
        "rules",
        "options",
        "ai",
        "puzzle",
        "apply",
        "time_limit",
    ]
)
field_values = st.one_of(
    json_values,
    st.sampled_from(["zsy", "g1", "g2", "pass", "play single:3C", "draw", "random", "greedy", "manipulation"]),
    st.integers(-2, 9),
)
requests = st.fixed_dictionaries(
    {"cmd": st.sampled_from([*COMMANDS, "nope", ""])},
    optional={"id": st.one_of(st.integers(), st.text(max_size=5), st.none(), st.lists(st.integers(), max_size=2))},
).flatmap(lambda base: st.dictionaries(fields, field_values, max_size=4).map(lambda extra: {**extra, **base}))
lines = st.one_of(
    st.text(max_size=40),
    json_values.map(json.dumps),
    requests.map(json.dumps),
    requests.map(lambda r: json.dumps(r)[:-1]),
)

FUZZ_SERVER = EngineServer()


@settings(max_examples=1000, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(lines, min_size=10, max_size=10))
def test_fuzzed_lines_never_kill_the_engine(batch: list[str]) -> None:
    server = FUZZ_SERVER
    server.done = False
    for line in batch:
        if "\n" in line or ("quit" in line and '"cmd": "quit"' in line):
            continue
        reply = server.handle_line(line)
        if reply is None:
            assert not line.strip()
            continue
        data = json.loads(reply)
        assert set(data) <= {"id", "result", "error"} and ("result" in data) != ("error" in data)
        if "error" in data:
            assert data["error"]["code"] != "internal_error", (line, data)
    ok = json.loads(server.handle_line('{"id": "ok", "cmd": "new_game", "game": "zsy", "seed": 1}') or "")
    assert ok["id"] == "ok" and ok["result"]["game"] == "zsy"


def test_client_in_process_and_errors() -> None:
    with Client(in_process=True) as engine:
        gid = engine.new_game("zsy", players=4, seed=3, options={"max_hands": 1})
        with pytest.raises(EngineError) as info:
            engine.apply(gid, "pass")
        assert info.value.code == "illegal_action"
        moves = engine.legal(gid)
        status = engine.apply(gid, moves[0])
        assert status.to_move == 1 and status.actions == 1
        hint = engine.hint(gid)
        assert hint.player == 1 and hint.reason
        with pytest.raises(EngineError) as info2:
            engine.legal("g99")
        assert info2.value.code == "unknown_game"
        record = engine.record(gid)
        assert record.actions == (moves[0],)


GAMES = [
    ("zsy", 4, {"max_hands": 2}),
    ("manipulation", 3, {"max_hands": 1}),
    ("contract", 3, {"max_rounds": 1}),
]


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_a_game_through_the_pipe_equals_the_game_in_process(game: str, players: int, options: dict[str, Any]) -> None:
    from solver.engine import replay
    from solver.engine.selfplay import play_one

    seed = 21
    with Client() as engine:  # a real `python -m cli engine` subprocess
        gid = engine.new_game(game, players=players, seed=seed, options=options)
        assert engine.send_line("not json").startswith('{"id": null, "error"')  # bad input does not kill it
        while True:
            move = engine.ai_move(gid, "greedy", apply=True)
            assert move.status is not None
            if move.status.terminal:
                break
        record = engine.record(gid)
        final = move.status
    local = play_one(game, {}, ["greedy"] * players, seed, options)
    assert not local.error
    assert final.scores == local.scores and final.actions == local.actions
    again = replay(record)
    assert tuple(again.scores()) == local.scores and again.is_terminal()
