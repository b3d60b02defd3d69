"""No client input gets a 500 or restarts a worker: options checked, depth and size capped at parse time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from web.app import STATUS, create_app, json_depth
from web.engine import EngineError, Limits, WebEngine

from .conftest import run_async

SIX = {
    "game": "manipulation",
    "rules": {"preset": "norwegian"},
    "position": {"table": ["3H 4H 5H 6H", "3C 4C 5C 6C"], "hand": "6S KD"},
}


def _deep(n: int) -> dict[str, Any]:
    top: dict[str, Any] = {}
    cur = top
    for _ in range(n):
        cur["x"] = {}
        cur = cur["x"]
    return top


def _deep_request(n: int) -> bytes:
    """A solve request whose puzzle holds an object ``n`` deep (written out: too deep for json.dumps here)."""
    return ('{"puzzle": ' + json.dumps(SIX)[:-1] + ', "title": ' + '{"x": ' * n + "{}" + "}" * n + "}}").encode()


def _code(response: Any) -> str:
    body = response.json()
    assert response.status_code == STATUS[body["error"]["code"]] < 500, response.text
    return str(body["error"]["code"])


@pytest.fixture(scope="module")
def pooled() -> Iterator[TestClient]:
    """The app with one real solver worker process (a client must never restart it)."""
    with TestClient(create_app(Limits(workers=1)), base_url="http://localhost", raise_server_exceptions=False) as c:
        yield c


def test_the_three_500s_are_4xx(pooled: TestClient) -> None:
    r = pooled.post("/api/new_game", json={"game": "contract", "options": {"time_limit": "x"}})
    assert _code(r) == "bad_value" and "time_limit" in r.json()["error"]["message"]
    r = pooled.post(
        "/api/load_record", json={"record": {"game": "zsy", "num_players": 4, "seed": 1, "actions": [], "options": "x"}}
    )
    assert _code(r) == "bad_value" and "'options'" in r.json()["error"]["message"]
    engine = pooled.app.state.engine  # type: ignore[attr-defined]
    pid = engine._pool.workers[0].proc.pid
    for cmd in ("solve", "hint"):
        for _ in range(10):
            r = pooled.post(f"/api/{cmd}", content=_deep_request(950), headers={"content-type": "application/json"})
            assert _code(r) == "bad_value" and "nests deeper" in r.json()["error"]["message"]
    assert [w.proc.pid for w in engine._pool.workers] == [pid]  # no worker was restarted
    ok = pooled.post("/api/solve", json={"puzzle": SIX})
    assert ok.status_code == 200 and ok.json()["played"] == ["6S"]


@pytest.mark.parametrize(
    "cmd, body",
    [
        ("new_game", {"game": "contract", "options": {"time_limit": True}}),
        ("new_game", {"game": "contract", "options": {"time_limit": 1e308}}),
        ("new_game", {"game": "contract", "options": {"max_rounds": -1}}),
        ("new_game", {"game": "zsy", "options": {"bogus": 1}}),
        ("new_game", {"game": "zsy", "options": {"max_hands": "x"}}),
        ("new_game", {"game": "zsy", "rules": {"target": "x"}}),
        ("new_game", {"game": "zsy", "seats": ["human", "x", "y", "z"]}),
        ("load_record", {"record": {"game": "zsy", "num_players": 4, "seed": 1, "actions": [], "rules": "x"}}),
        ("load_record", {"record": {"game": "zsy", "num_players": 4, "seed": -1, "actions": []}}),
        ("load_record", {"record": {"game": "zsy", "num_players": 4.5, "seed": 1, "actions": []}}),
        ("load_record", {"record": {"game": "zsy", "num_players": 4, "seed": 1, "actions": [1]}}),
        (
            "load_record",
            {"record": {"game": "zsy", "num_players": 4, "seed": 1, "actions": [], "options": {"time_limit": "x"}}},
        ),
        (
            "load_record",
            {"record": {"game": "zsy", "num_players": 4, "seed": 1, "actions": [], "options": {"shown": 5}}},
        ),
        ("check", {"puzzle": {**SIX, "rules": _deep(40)}}),
        ("new_game", {"game": "zsy", "rules": _deep(100)}),
        ("solve", {"puzzle": SIX, "time_limit": "x"}),
    ],
)
def test_bad_options_are_4xx(client: TestClient, cmd: str, body: dict[str, Any]) -> None:
    assert _code(client.post(f"/api/{cmd}", json=body)) in ("bad_value", "bad_input", "missing_field")


def test_depth_is_counted_outside_strings() -> None:
    assert json_depth(b'{"a": [1, {"b": "[[[[\\"{{"}]}') == 3
    assert json_depth(b'["\\\\", ["]]]"]]') == 2
    assert json_depth(_deep_request(950)) == 953
    assert json_depth(b"plain") == 0


def test_a_request_that_cannot_be_pickled_never_reaches_a_worker() -> None:
    """Past the HTTP layer's depth cap too (a caller of the engine itself): the worker stays."""
    engine = WebEngine(Limits(workers=1))
    deep = _deep(5000)

    async def run() -> None:
        engine.start()
        assert engine._pool is not None
        pid = engine._pool.workers[0].proc.pid
        for _ in range(20):
            with pytest.raises(EngineError, match="too deep"):
                await engine.stateless({"cmd": "solve", "puzzle": {**SIX, "title": deep}})
        assert [w.proc.pid for w in engine._pool.workers] == [pid]
        assert (await engine.stateless({"cmd": "solve", "puzzle": SIX}))["played"] == ["6S"]

    try:
        run_async(run)
    finally:
        engine.stop()
