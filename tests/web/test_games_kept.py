"""Games that survive the browser and games between people (issue 37): the quota counts live games
only and names them, the public moves, invite links claimed once, leaving and handing an absent
seat to an AI, the "your games" list."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from web.app import STATUS, create_app
from web.engine import Limits

TWO = ["human", "greedy", "human", "greedy"]


@pytest.fixture(scope="module")
def quick() -> Iterator[TestClient]:
    """An app whose games stop counting after 0.5 s idle and whose seats are absent after 0.5 s."""
    limits = Limits(workers=0, games_per_client=2, live_ttl=0.5, absent_after=0.5)
    with TestClient(create_app(limits), base_url="http://localhost", raise_server_exceptions=False) as c:
        yield c


def _ok(r: Any) -> dict[str, Any]:
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _error(r: Any, code: str) -> str:
    body = r.json()
    assert body["error"]["code"] == code and r.status_code == STATUS[code], r.text
    return str(body["error"]["message"])


def _new(c: TestClient, seats: list[str] | None = None, **more: Any) -> dict[str, Any]:
    return _ok(
        c.post("/api/new_game", json={"game": "zsy", "seats": seats or ["human", "greedy", "greedy", "greedy"], **more})
    )


def test_only_live_games_count_and_a_full_quota_names_them(quick: TestClient) -> None:
    """An abandoned game stops counting after ``live_ttl`` (its link still works); a full quota names
    the games to close and says when the first stops counting, never "try again shortly"."""
    a, b = _new(quick), _new(quick)
    r = quick.post("/api/new_game", json={"game": "zsy"})
    message = _error(r, "rate_limited")
    assert a["game_id"] in message and b["game_id"] in message and "close one" in message
    assert 1 <= int(r.headers["Retry-After"]) <= 1  # when the first stops counting, not a minute
    time.sleep(0.7)  # both abandoned: they no longer count, and both still resume
    state = _ok(quick.post("/api/observe", json={"game_id": a["game_id"], "token": a["tokens"]["0"]}))
    assert len(state["hand"]) == 14  # used again: a counts again
    c = _new(quick)
    message = _error(quick.post("/api/new_game", json={"game": "zsy"}), "rate_limited")
    assert a["game_id"] in message and c["game_id"] in message and b["game_id"] not in message
    # Closing one makes room at once.
    assert _ok(quick.post("/api/close", json={"game_id": c["game_id"], "token": c["tokens"]["0"]}))["closed"]
    _new(quick)


def test_invites_moves_leave_and_absent_seats(quick: TestClient) -> None:
    time.sleep(0.6)  # the other test's games no longer count
    g = _new(quick, TWO)
    gid, mine, invite = g["game_id"], g["tokens"]["0"], g["tokens"]["2"]
    # The invite link's token claims seat 2 once: a fresh token for the guest, the link's is dead.
    claimed = _ok(quick.post("/api/claim", json={"game_id": gid, "token": invite}))
    guest = claimed["token"]
    assert claimed["seat"] == 2 and guest != invite
    _error(quick.post("/api/claim", json={"game_id": gid, "token": invite}), "forbidden")
    _error(quick.post("/api/observe", json={"game_id": gid, "token": invite}), "forbidden")
    assert len(_ok(quick.post("/api/observe", json={"game_id": gid, "token": guest}))["hand"]) == 13
    # The moves are public: a stream or a poll reads them without a token.
    legal = _ok(quick.post("/api/legal", json={"game_id": gid, "token": mine}))["actions"]
    _ok(quick.post("/api/apply", json={"game_id": gid, "token": mine, "action": legal[0]}))
    moves = _ok(quick.post("/api/moves", json={"game_id": gid}))
    assert moves["start"] == 0 and moves["to_move"] == 2 and moves["actions"] == 2
    assert [m["player"] for m in moves["moves"]] == [0, 1] and moves["moves"][0]["action"] == legal[0]
    assert "reason" in moves["moves"][1] and all("hand" not in m for m in moves["moves"])
    assert _ok(quick.post("/api/moves", json={"game_id": gid, "start": 1}))["moves"] == moves["moves"][1:]
    # "Your games": where each is, for its seat; a wrong token's game is gone.
    listed = _ok(quick.post("/api/games", json={"games": [
        {"game_id": gid, "token": mine}, {"game_id": gid, "token": guest}, {"game_id": gid, "token": invite},
        {"game_id": "nope", "token": mine}]}))["games"]  # fmt: skip
    assert [x.get("seat") for x in listed] == [0, 2, None, None]
    assert [x.get("your_turn") for x in listed[:2]] == [False, True] and listed[2]["gone"] and listed[3]["gone"]
    # Seat 2 to move: handed to an AI by seat 0 only once it has been absent a while.
    _error(quick.post("/api/hand_over", json={"game_id": gid, "token": mine, "seat": 2}), "forbidden")
    _error(quick.post("/api/hand_over", json={"game_id": gid, "token": mine, "seat": 1}), "bad_value")
    time.sleep(0.6)
    _ok(quick.post("/api/hand_over", json={"game_id": gid, "token": mine, "seat": 2, "ai": "greedy"}))
    state = _ok(quick.post("/api/observe", json={"game_id": gid, "token": mine}))
    assert state["seats"] == ["human", "greedy", "greedy", "greedy"] and state["to_move"] == 0
    _error(quick.post("/api/observe", json={"game_id": gid, "token": guest}), "forbidden")
    # Leaving: the last human leaves, the game is closed.
    assert _ok(quick.post("/api/leave", json={"game_id": gid, "token": mine}))["closed"] is True
    _error(quick.post("/api/observe", json={"game_id": gid}), "unknown_game")


def test_closing_a_game_with_another_human_leaves_it(quick: TestClient) -> None:
    time.sleep(0.6)
    g = _new(quick, TWO)
    gid, mine, other = g["game_id"], g["tokens"]["0"], g["tokens"]["2"]
    assert _ok(quick.post("/api/close", json={"game_id": gid, "token": other})) == {"closed": gid}
    state = _ok(quick.post("/api/observe", json={"game_id": gid, "token": mine}))
    assert state["seats"] == ["human", "greedy", "greedy", "greedy"] and not state["terminal"]
