"""``POST /api/review`` (issue 40, the page's part) and the rounds' results in the moves' log.

The review is the library's (``solver.engine.review.review_game``, what ``shanghai review`` runs):
the answer equals the library's own review of the same record, fits docs/json.md's ``web_review``
block, and each mistake's position is the one the reviewed seat decided in (its hand holds the
cards it played there). A move that ends a round carries ``round_end``, whose points add up to
the game's scores.
"""

from __future__ import annotations

from typing import Any

from solver.engine import load_record
from solver.engine.review import review_game
from tests.cli.test_json_shape import SCHEMAS, problems


def _finished(client: Any, game: str, seed: int, options: dict[str, Any]) -> tuple[str, str]:
    """A game of a human (always its last legal action: a poor player) and three greedy AIs, played to the end."""
    r = client.post(
        "/api/new_game",
        json={
            "game": game,
            "players": 4,
            "seats": ["human", "greedy", "greedy", "greedy"],
            "seed": seed,
            "options": options,
        },
    ).json()
    gid, token = r["game_id"], r["tokens"]["0"]
    for _ in range(600):
        legal = client.post("/api/legal", json={"game_id": gid, "token": token}).json()["actions"]
        answer = client.post("/api/apply", json={"game_id": gid, "token": token, "action": legal[-1]}).json()
        if answer["terminal"]:
            return gid, token
    raise AssertionError("the game did not end")


def _without_seconds(review: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in review.items() if k not in ("seconds", "positions", "file", "puzzles")}


def test_a_finished_game_is_reviewed_by_the_library(client: Any) -> None:
    gid, token = _finished(client, "zsy", 3, {"max_hands": 1})
    answer = client.post("/api/review", json={"game_id": gid, "token": token, "time_limit": 1})
    assert answer.status_code == 200, answer.text
    review = answer.json()
    assert not problems(review, SCHEMAS["web_review"]), problems(review, SCHEMAS["web_review"])[:5]
    record = client.post("/api/record", json={"game_id": gid}).json()
    import json

    own = review_game(load_record(json.dumps(record)), 0, time_limit=1).to_json()
    assert _without_seconds(review) == _without_seconds(own)
    assert review["seat"] == 0 and review["mistakes"] and review["total_loss"] > 0
    assert [p["index"] for p in review["positions"]] == review["mistakes"]
    moves = {m["index"]: m for m in review["moves"]}
    for position in review["positions"]:
        taken = moves[position["index"]]["taken"]  # "play single:5H" or "pass"
        played = taken.split(":", 1)[1].split() if ":" in taken else []
        assert set(played) <= set(position["hand"]), (taken, position["hand"])


def test_a_record_is_reviewed_for_any_seat(client: Any) -> None:
    gid, _ = _finished(client, "zsy", 4, {"max_hands": 1})
    record = client.post("/api/record", json={"game_id": gid}).json()
    answer = client.post("/api/review", json={"record": record, "seat": 2}).json()
    assert answer["seat"] == 2
    import json

    own = review_game(load_record(json.dumps(record)), 2, time_limit=1).to_json()
    assert _without_seconds(answer) == _without_seconds(own)


def test_review_refuses_what_it_cannot_review(client: Any) -> None:
    r = client.post("/api/new_game", json={"game": "zsy", "players": 4, "seed": 1}).json()
    running = client.post("/api/review", json={"game_id": r["game_id"], "token": r["tokens"]["0"]})
    assert running.status_code == 403 and running.json()["error"]["code"] == "forbidden"  # the deal is secret
    neither = client.post("/api/review", json={})
    assert neither.status_code == 400 and neither.json()["error"]["code"] == "bad_value"
    record = {
        "game": "zsy",
        "rules": {},
        "num_players": 4,
        "seed": 1,
        "players": [],
        "options": {},
        "actions": ["bogus"],
    }
    bad = client.post("/api/review", json={"record": record})
    assert bad.status_code == 422 and "bogus" in bad.json()["error"]["message"]
    seat = client.post("/api/review", json={"record": {**record, "actions": []}, "seat": 9})
    assert seat.status_code == 422 and seat.json()["error"]["code"] == "bad_input"
    slow = client.post("/api/review", json={"record": record, "time_limit": 100})
    assert slow.status_code == 400 and slow.json()["error"]["code"] == "bad_value"


def test_moves_that_end_a_round_carry_its_result(client: Any) -> None:
    for game, options in (
        ("contract", {"max_rounds": 2}),
        ("zsy", {"max_hands": 2}),
        ("manipulation", {"max_hands": 2}),
    ):
        gid, token = _finished(client, game, 5, options)
        moves = client.post("/api/moves", json={"game_id": gid}).json()["moves"]
        ends = [m["round_end"] for m in moves if "round_end" in m]
        scores = client.post("/api/observe", json={"game_id": gid, "token": token}).json()["scores"]
        assert [e["round"] for e in ends] == [1, 2], (game, ends)
        assert [sum(e["points"][p] for e in ends) for p in range(4)] == scores, (game, ends, scores)
        assert ends[-1]["scores"] == scores
        assert moves.index(next(m for m in moves if "round_end" in m)) < len(moves) - 1  # the first round ends mid-log
