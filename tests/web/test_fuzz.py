"""Fuzz the HTTP API: 2,000 random and malformed requests, never a 500, and the
server still answers a valid request afterwards."""

from __future__ import annotations

import json
import random
import time
from typing import Any

from fastapi.testclient import TestClient

ENDPOINTS = [
    "solve", "hint", "new_game", "legal", "apply", "observe", "ai_move", "record", "close", "keep",
    "load_record", "deck", "check", "toml", "from_toml", "rules", "health", "quit", "", "solve/x",
]  # fmt: skip
CARDS = ["3H", "4H", "5H", "6H", "7H", "6S", "KD", "2S", "RJ", "BJ", "JK", "XX", "10C", "1H", "", "=", "2S=8H", "♠"]
SIX = {
    "game": "manipulation",
    "rules": {"preset": "norwegian"},
    "position": {"table": ["3H 4H 5H 6H", "3C 4C 5C 6C"], "hand": "6S KD"},
}


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(10 if depth < 3 else 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, -1, 1, 3, 2**63, -(2**70), 10**400 if rng.random() < 0.1 else 7])
    if kind == 3:
        return rng.choice([0.5, -3.2, 1e308, 1e-9, 5.0])
    if kind in (4, 5):
        return " ".join(rng.choice(CARDS) for _ in range(rng.randrange(6))) + rng.choice(["", "|", " | ", "\x00", "é"])
    if kind in (6, 7):
        return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["game", "rules", "position", "puzzle", "table", "hand", "round", "preset", "game_id", "action",
            "time_limit", "players", "seed", "options", "record", "toml", "player", "apply", "ai", "to_beat"]  # fmt: skip
    return {rng.choice(keys): _value(rng, depth + 1) for _ in range(rng.randrange(5))}


def _mutant(rng: random.Random, game_ids: list[str]) -> Any:
    """A plausible request with one thing wrong (or nothing wrong)."""
    base: dict[str, Any] = rng.choice(
        [
            {"puzzle": json.loads(json.dumps(SIX)), "time_limit": 0.2},
            {"puzzle": {"game": "zsy", "position": {"hand": "3H 3D 4S", "to_beat": "4H"}}, "time_limit": 0.2},
            {"puzzle": {"game": "contract", "position": {"round": 1, "hand": "5H 5D 5S 6C 7C 8C"}}, "time_limit": 0.2},
            {"game": rng.choice(["zsy", "contract", "manipulation", "golf"]), "players": rng.randrange(0, 10)},
            {"game_id": rng.choice([*game_ids, "g1", "", "x" * 80]), "action": rng.choice(["pass", "draw", "play"])},
            {"record": {"game": "zsy", "num_players": 4, "seed": 1, "actions": ["pass"]}},
        ]
    )
    for _ in range(rng.choice([0, 0, 1, 1, 2])):
        target = base
        if isinstance(base.get("puzzle"), dict) and rng.random() < 0.7:
            target = base["puzzle"]
            if isinstance(target.get("position"), dict) and rng.random() < 0.6:
                target = target["position"]
        key = rng.choice([*list(target), "extra"])
        if rng.random() < 0.3:
            target.pop(key, None)
        else:
            target[key] = _value(rng)
    return base


def test_fuzz_2000_requests(client: TestClient) -> None:
    rng = random.Random(13)
    game_ids = [
        client.post("/api/new_game", json={"game": "zsy", "seed": 1, "options": {"max_hands": 1}}).json()["game_id"]
    ]
    statuses: dict[int, int] = {}
    start = time.monotonic()
    for i in range(2000):
        path = "/api/" + rng.choice(ENDPOINTS)
        roll = rng.random()
        headers = {"content-type": rng.choice(["application/json", "application/json", "text/plain", "x/y"])}
        if roll < 0.1:
            body = bytes(rng.randrange(256) for _ in range(rng.randrange(40)))
        elif roll < 0.15:
            body = b"[" * rng.choice([10, 2000, 30000]) + b"]" * rng.randrange(3)
        elif roll < 0.5:
            body = json.dumps(_value(rng)).encode()
        else:
            request = _mutant(rng, game_ids)
            body = json.dumps(request).encode()
            if rng.random() < 0.8:  # mostly to the command the request is for
                cmd = "solve" if "puzzle" in request else "load_record" if "record" in request else None
                cmd = cmd or ("apply" if "action" in request else "new_game")
                path, headers = "/api/" + cmd, {"content-type": "application/json"}
        method = rng.choice(["POST"] * 12 + ["GET", "PUT", "DELETE"])
        r = client.request(method, path, content=body, headers=headers)
        statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
        assert r.status_code < 500, (i, path, body[:200], r.text[:300])
        data = r.json()
        if r.status_code >= 400:
            assert set(data) == {"error"} and {"code", "message"} <= set(data["error"]), data
            assert "Traceback" not in r.text
        if r.status_code == 200 and "game_id" in data and path.endswith("new_game"):
            game_ids.append(data["game_id"])
        assert time.monotonic() - start < 240, "the fuzz run is too slow"
    assert sum(v for k, v in statuses.items() if k >= 400) > 1000
    assert statuses.get(200, 0) > 100
    ok = client.post("/api/solve", json={"puzzle": SIX})
    assert ok.status_code == 200 and ok.json()["played"] == ["6S"]
