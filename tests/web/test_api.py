"""The HTTP API: the engine protocol's commands and error codes, limits and headers."""

from __future__ import annotations

import asyncio
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from cli.main import app as cli_app
from solver.answers import solve_puzzle
from solver.engine.protocol import EngineServer
from solver.puzzles import from_data
from web.app import CSP, STATUS
from web.engine import Limits, WebEngine

from .conftest import run_async

SIX = {
    "game": "manipulation",
    "rules": {"preset": "norwegian"},
    "position": {"table": ["3H 4H 5H 6H", "3C 4C 5C 6C"], "hand": "6S KD"},
}


def _error(response: Any, code: str) -> str:
    assert response.status_code == STATUS[code], response.text
    body = response.json()
    assert set(body) == {"error"} and body["error"]["code"] == code, body
    return str(body["error"]["message"])


def test_solve_is_the_engine_answer(client: TestClient) -> None:
    r = client.post("/api/solve", json={"puzzle": SIX})
    assert r.status_code == 200
    got = r.json()
    engine = EngineServer().handle({"cmd": "solve", "puzzle": SIX})["result"]
    drop = {"seconds"}
    assert {k: v for k, v in got.items() if k not in drop} == {k: v for k, v in engine.items() if k not in drop}
    assert got["played"] == ["6S"] and got["moves"][-1]["text"] == "play 6S to [6S 6H 6C]"


@pytest.mark.parametrize(
    "puzzle",
    [
        {"game": "contract", "position": {"round": 1, "hand": "5H 5D 5S 6C 7C 8C 2S KD QH 3D 9S 9H AC"}},
        {"game": "zsy", "position": {"hand": "3H 6H 6D 4S 5S 7S 8S KD", "to_beat": "4H 4C"}},
    ],
)
def test_solve_other_games(client: TestClient, puzzle: dict[str, Any]) -> None:
    r = client.post("/api/solve", json={"puzzle": puzzle, "time_limit": 5})
    assert r.status_code == 200, r.text
    assert r.json()["game"] == puzzle["game"]
    want = solve_puzzle(from_data(puzzle)).data
    assert {k: v for k, v in r.json().items() if k not in ("seconds", "game")} == want


PLANS = Path(__file__).resolve().parents[2] / "puzzles" / "contract"


@pytest.mark.parametrize(
    ("name", "actions", "plan_lay_down"),
    [
        (
            "laydown-fives-not-kings.toml",
            ["laydown 5S 5H 5D | 6C 7C 8C 9C", "layoff 0 KC KD KH"],
            [["5S", "5H", "5D"], ["6C", "7C", "8C", "9C"]],
        ),
        (
            "round7-whole-which-discard.toml",
            ["laydown 9S 10S JS QS | JD QD KD AD | JC QC 2C=KC AC", "discard QH"],
            [["9S", "10S", "JS", "QS"], ["JD", "QD", "KD", "AD"], ["JC", "QC", "2C=KC", "AC"]],
        ),
    ],
)
def test_solve_gives_the_contract_turn_plan_as_the_cli_does(
    client: TestClient, name: str, actions: list[str], plan_lay_down: list[list[str]]
) -> None:
    """The whole-turn plan (`turn`) is in the library's answer: the engine's `solve` and the web's
    `POST /api/solve` give the one `shanghai solve --json` prints, and the rest of the answer too."""
    path = PLANS / name
    puzzle = tomllib.loads(path.read_text(encoding="utf-8"))
    printed = CliRunner().invoke(cli_app, ["solve", "--json", str(path)])
    assert printed.exit_code == 0, printed.output
    cli = json.loads(printed.stdout.splitlines()[0])
    engine = EngineServer().handle({"cmd": "solve", "puzzle": puzzle})["result"]
    r = client.post("/api/solve", json={"puzzle": puzzle})
    assert r.status_code == 200, r.text
    web = r.json()
    assert engine["turn"] == cli["turn"] and web["turn"] == cli["turn"]
    assert cli["turn"]["actions"] == actions and cli["turn"]["lay_down"] == plan_lay_down
    assert cli["turn"]["can_go_out"] is True and cli["turn"]["points_left"] == 0
    drop = {"seconds", "puzzle", "check"}  # `check`: the file's [answer] compared (the CLI's --check)
    assert {k: v for k, v in web.items() if k not in drop} == {k: v for k, v in engine.items() if k not in drop}
    assert {k: v for k, v in engine.items() if k not in drop} == {k: v for k, v in cli.items() if k not in drop}
    assert engine["check"] == "ok" and web["check"] == "ok"


def test_solve_a_contract_position_with_an_empty_hand(client: TestClient) -> None:
    """No card in hand: no game gives a player who has not laid down an empty hand (issue 38), so the
    page gets the reason in one message, not a server error."""
    for round_ in (1, 7):
        r = client.post("/api/solve", json={"puzzle": {"game": "contract", "position": {"round": round_, "hand": []}}})
        assert r.status_code == 422, r.text
        assert "hand holds 0 cards, but a player who has not laid down holds 12" in r.json()["error"]["message"]


LEAD = {"game": "zsy", "position": {"hand": "5H 6H 7H 8D 5C", "opponent": "10S JH QD KC"}}
"""A two-player endgame (puzzles/zsy/lead-flush-trap.toml): the pair 5H 5C is the one winning lead."""


def test_solve_a_lead_position(client: TestClient) -> None:
    """A Zheng Shang You position with the opponent's hand: the answer has the endgame (the winning
    leads and the line), as `shanghai solve --json` gives it; the hint is the winning lead."""
    r = client.post("/api/solve", json={"puzzle": LEAD, "time_limit": 5})
    assert r.status_code == 200, r.text
    got = r.json()
    want = solve_puzzle(from_data(LEAD)).data
    assert {k: v for k, v in got.items() if k not in ("seconds", "game")} == want
    endgame = got["endgame"]
    assert endgame["opponent"] == ["10S", "JH", "QD", "KC"]
    assert endgame["winning"] == [{"cards": ["5H", "5C"], "kind": "set"}] and endgame["lead_count"] == 11
    assert endgame["line"][0] == {"side": "you", "cards": ["5H", "5C"], "kind": "set"}
    assert {"side": "opponent", "cards": None, "kind": None} in endgame["line"]
    h = client.post("/api/hint", json={"puzzle": LEAD}).json()
    assert h["action"] == "play set:5H 5C" and h["why"] == {"code": "wins_endgame", "n": 1}, h
    checked = client.post("/api/check", json={"puzzle": LEAD}).json()
    assert checked["position"]["opponent"].split() == ["10S", "JH", "QD", "KC"]
    text = client.post("/api/toml", json={"puzzle": LEAD}).json()["toml"]
    assert 'opponent = "10S JH QD KC"' in text
    assert client.post("/api/from_toml", json={"toml": text}).json()["puzzle"]["position"] == checked["position"]


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ({"hand": "3S 4D", "opponent": "6H XX"}, "position.opponent: malformed card 'XX'"),
        ({"hand": "3S 4D", "opponent": "6H", "to_beat": "4S"}, "give no to_beat with opponent"),
        ({"hand": "3S 4D", "opponent": ""}, "position.opponent: empty"),
        ({"hand": "3S 4D", "opponent": 5}, "position.opponent: expected a string of card codes"),
        ({"hand": "4H 5D", "opponent": "4H"}, "hand and opponent together hold 2 copies of 4H"),
        ({"hand": "", "opponent": "6H"}, "position.hand"),
    ],
)
def test_a_bad_lead_position_is_one_line(client: TestClient, position: dict[str, Any], message: str) -> None:
    """A bad opponent's hand is a 422 ``bad_input`` naming it in one line, never a 500."""
    for cmd in ("solve", "check", "hint"):
        got = _error(client.post(f"/api/{cmd}", json={"puzzle": {"game": "zsy", "position": position}}), "bad_input")
        assert message in got and "\n" not in got, (cmd, got)


def test_hint_of_a_puzzle(client: TestClient) -> None:
    r = client.post("/api/hint", json={"puzzle": SIX})
    assert r.status_code == 200
    assert r.json()["action"].startswith("play ")
    _error(client.post("/api/hint", json={}), "missing_field")


def test_hint_of_a_puzzle_where_nothing_can_be_played(client: TestClient) -> None:
    """The hint "draw" (no card of the hand can be played; its facts say ``played: 0``) is an answer,
    not a 500."""
    nothing = {"game": "manipulation", "position": {"table": ["3H 4H 5H"], "hand": "9S KD"}}
    r = client.post("/api/hint", json={"puzzle": nothing})
    assert r.status_code == 200, r.text
    assert r.json()["action"] == "draw" and r.json()["why"] == {"code": "other"}


def test_errors_carry_protocol_codes(client: TestClient) -> None:
    assert "malformed card 'XX'" in _error(
        client.post("/api/solve", json={"puzzle": {"game": "manipulation", "position": {"hand": "XX"}}}), "bad_input"
    )
    _error(client.post("/api/solve", content=b"{bad", headers={"content-type": "application/json"}), "parse_error")
    _error(client.post("/api/solve", json=[1, 2]), "invalid_request")
    _error(client.post("/api/solve", json={}), "missing_field")
    _error(client.post("/api/solve", json={"puzzle": SIX, "objective": "fun"}), "bad_value")
    _error(client.post("/api/solve", json={"puzzle": SIX, "time_limit": 1000}), "bad_value")
    _error(client.post("/api/solve", json={"puzzle": SIX, "colour": 1}), "bad_value")
    _error(client.post("/api/new_game", json={"game": "zsy", "players": "four"}), "bad_value")
    _error(client.post("/api/new_game", json={"game": "zsy", "rules": {"bombs": "yes"}}), "bad_input")
    _error(client.post("/api/legal", json={"game_id": "nope"}), "unknown_game")
    _error(client.post("/api/fly", json={}), "not_found")
    _error(client.get("/api/solve"), "method_not_allowed")
    _error(client.get("/static/../../etc/passwd"), "not_found")
    _error(client.get("/static/secret.py"), "not_found")


def test_request_size_is_capped(client: TestClient) -> None:
    big = {"puzzle": {**SIX, "title": "x" * 100_000}}
    _error(client.post("/api/solve", json=big), "too_large")


def test_security_headers(client: TestClient) -> None:
    for path in ("/manipulation", "/api/health", "/docs"):
        r = client.get(path)
        assert r.status_code == 200
        assert r.headers["content-security-policy"] == CSP
        assert r.headers["x-content-type-options"] == "nosniff"
    page = client.get("/contract").text
    assert '<script type="module" src="/static/main.js"' in page and "http://" not in page.replace(
        "http://www.w3.org", ""
    )
    assert page.count('<symbol id="card-') == 55


def test_openapi_and_docs(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for cmd in ("solve", "hint", "new_game", "legal", "apply", "observe", "ai_move"):
        assert f"/api/{cmd}" in schema["paths"]
    assert "POST /api/ai_move" in client.get("/docs").text


def test_rules_and_deck(client: TestClient) -> None:
    meta = client.get("/api/rules").json()
    assert set(meta) == {"manipulation", "contract", "zsy"}
    assert "norwegian" in meta["manipulation"]["presets"]
    decks = next(o for o in meta["manipulation"]["options"] if o["name"] == "decks")
    assert decks["kind"] == "int" and decks["lo"] == 1
    r = client.post("/api/deck", json={"game": "manipulation", "rules": {"preset": "rummikub"}}).json()
    assert r["deck"]["JK"] == 2 and r["deck"]["7H"] == 2
    assert len(client.post("/api/deck", json={"game": "contract"}).json()["contracts"]) == 7


def test_check_and_toml_round_trip(client: TestClient) -> None:
    r = client.post(
        "/api/check", json={"puzzle": {"game": "manipulation", "position": {"table": ["3h 4h 5h"], "hand": "th"}}}
    )
    assert r.json()["position"] == {"table": ["3H 4H 5H"], "hand": "10H"}
    text = client.post("/api/toml", json={"puzzle": SIX}).json()["toml"]
    back = client.post("/api/from_toml", json={"toml": text}).json()["puzzle"]
    assert back["position"] == SIX["position"]
    assert "not valid TOML" in _error(client.post("/api/from_toml", json={"toml": "game = ["}), "bad_input")


def test_a_game_through_the_api(client: TestClient) -> None:
    seats = ["human", "greedy", "greedy", "greedy"]
    r = client.post(
        "/api/new_game", json={"game": "zsy", "players": 4, "seed": 3, "options": {"max_hands": 1}, "seats": seats}
    )
    assert r.status_code == 200
    new = r.json()
    gid, token = new["game_id"], new["tokens"]["0"]
    assert len(gid) >= 16  # a random token, not g1
    assert new["seats"] == seats and set(new["tokens"]) == {"0"} and "seed" not in new
    mine = {"game_id": gid, "token": token}
    legal = client.post("/api/legal", json=mine).json()["actions"]
    assert legal and "illegal_action" in client.post("/api/apply", json={**mine, "action": "pass"}).text
    assert client.post("/api/hint", json=mine).json()["action"] in legal
    for _ in range(400):
        legal = client.post("/api/legal", json=mine).json()["actions"]
        status = client.post("/api/apply", json={**mine, "action": legal[-1]}).json()
        assert all(m["player"] != 0 for m in status["ai_moves"])
        if status["terminal"]:
            break
    assert status["terminal"] and status["state"]["seed"] == 3
    _error(client.post("/api/hint", json=mine), "game_over")
    record = client.post("/api/record", json={"game_id": gid}).json()
    assert record["seed"] == 3 and record["actions"] and len(record["actions"]) == status["actions"]
    # A record loads into a new game at the same point.
    loaded = client.post("/api/load_record", json={"record": record}).json()
    assert loaded["actions"] == len(record["actions"]) and set(loaded["tokens"]) == {"0"}
    again = client.post("/api/observe", json={"game_id": loaded["game_id"], "token": loaded["tokens"]["0"]}).json()
    assert again["terminal"] and again["actions"] == len(record["actions"])
    bad = {**record, "actions": [*record["actions"][:2], "play single:ZZ"]}
    assert "record action 3" in _error(client.post("/api/load_record", json={"record": bad}), "bad_input")
    assert client.post("/api/close", json=mine).json() == {"closed": gid}
    # The finished game's record outlives the game.
    assert client.post("/api/record", json={"game_id": gid}).json() == record


def test_games_expire_and_kept_records_stay() -> None:
    engine = WebEngine(Limits(workers=0, game_ttl=0.5, record_ttl=60))

    async def run() -> None:
        kept = await engine.new_game({"game": "zsy", "seed": 1}, ["human", "random", "random", "random"])
        dropped = await engine.new_game({"game": "zsy", "seed": 2}, ["human", "random", "random", "random"])
        await engine.game(kept["game_id"], {"cmd": "keep", "token": kept["tokens"]["0"]})
        assert engine.count() == 2
        await asyncio.sleep(0.7)
        assert engine.count() == 0  # neither is running; the kept one is still there
        state = await engine.game(kept["game_id"], {"cmd": "observe", "token": kept["tokens"]["0"]})
        assert state["to_move"] == 0 and len(state["hand"]) == 14
        with pytest.raises(Exception, match="no game"):
            await engine.game(dropped["game_id"], {"cmd": "observe"})

    try:
        run_async(run)
    finally:
        engine.stop()


def test_bodies_are_json_objects_not_files(client: TestClient) -> None:
    """No endpoint takes a path: puzzles and records travel in the request."""
    schema = json.dumps(client.get("/openapi.json").json())
    assert '"path"' not in schema.replace('"paths"', "")


def test_a_worker_past_its_time_is_replaced() -> None:
    """The time limit is enforced: the worker is killed, a fresh one takes its place."""
    engine = WebEngine(Limits(workers=1))

    async def run() -> None:
        engine.start()
        assert engine._pool is not None
        first = engine._pool.workers[0]
        with pytest.raises(TimeoutError):
            await engine._pool.run({"cmd": "solve", "puzzle": SIX, "time_limit": 5}, timeout=0.0005)
        assert not first.proc.is_alive()
        answer = await engine.stateless({"cmd": "solve", "puzzle": SIX})
        assert answer["played"] == ["6S"]

    try:
        run_async(run)
    finally:
        engine.stop()


def test_sequential_solves_stay_on_the_warm_worker() -> None:
    """Idle workers are a stack: one request at a time goes to the worker that answered last
    (warm caches); requests at once (of two clients: each has a share of one) still spread over every worker."""
    engine = WebEngine(Limits(workers=2))
    used: list[int] = []

    async def run() -> None:
        engine.start()
        assert engine._pool is not None
        for k, worker in enumerate(engine._pool.workers):
            send = worker.conn.send_bytes

            def record(obj: Any, k: int = k, send: Any = send) -> None:
                used.append(k)
                send(obj)

            worker.conn.send_bytes = record
        for _ in range(4):
            answer = await engine.stateless({"cmd": "solve", "puzzle": SIX})
            assert answer["played"] == ["6S"]
        assert len(used) == 4 and len(set(used)) == 1, used
        used.clear()
        answers = await asyncio.gather(*(engine.stateless({"cmd": "solve", "puzzle": SIX}, c) for c in "ab"))
        assert [a["played"] for a in answers] == [["6S"], ["6S"]]
        assert sorted(used) == [0, 1]

    try:
        run_async(run)
    finally:
        engine.stop()


def test_a_games_endgame_hint_has_its_reason(client: TestClient) -> None:
    """A seat's hint in a two-player Zheng Shang You endgame (the solver player's winning move) is
    answered with its reason, as a puzzle's is: ``wins_endgame`` and the number of winning moves,
    the moves named in the facts (a count there once broke the hint with a server error)."""
    seen = 0
    for seed in range(20):
        g = client.post(
            "/api/new_game", json={"game": "zsy", "players": 4, "seed": seed, "seats": ["human"] + ["solver"] * 3}
        ).json()
        gid, token = g["game_id"], g["tokens"]["0"]
        for _ in range(40):
            r = client.post("/api/hint", json={"game_id": gid, "token": token})
            assert r.status_code == 200, r.text
            h = r.json()
            if "winning" in h["facts"]:
                winning = h["facts"]["winning"]
                assert h["why"] == {"code": "wins_endgame", "n": len(winning)}, h
                assert h["action"] in (w if w == "pass" else f"play {w}" for w in winning), h
                seen += 1
            applied = client.post("/api/apply", json={"game_id": gid, "token": token, "action": h["action"]})
            if applied.json()["terminal"]:
                break
        if seen >= 3:
            break
    assert seen >= 3, seen
