"""Seats and tokens (docs/web.md, "Seats"): nothing hidden leaks to a client without the seat's token."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from solver.engine.protocol import EngineServer
from web.app import STATUS

CARD = re.compile(r"\b(?:10|[2-9JQKA])[SHDC]\b|\bJK\b|\bRJ\b|\bBJ\b")


def _code(response: Any) -> str:
    body = response.json()
    assert response.status_code == STATUS[body["error"]["code"]], response.text
    return str(body["error"]["code"])


def _game(client: TestClient, game: str = "zsy", seats: list[str] | None = None, **more: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "players": 4, "seed": 7, **more}
    if body["seed"] is None:
        del body["seed"]
    if seats is not None:
        body["seats"] = seats
    r = client.post("/api/new_game", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_without_a_token_only_the_public_view(client: TestClient) -> None:
    g = _game(client, seats=["human", "greedy", "greedy", "greedy"])
    gid, token = g["game_id"], g["tokens"]["0"]
    assert "seed" not in g and g["seats"] == ["human", "greedy", "greedy", "greedy"]
    public = client.post("/api/observe", json={"game_id": gid}).json()
    assert "hand" not in public and public["player"] is None and public["hand_sizes"] == [14, 14, 13, 13]
    assert "seed" not in public
    for player in range(4):  # naming a player does not help
        assert client.post("/api/observe", json={"game_id": gid, "player": player}).json() == public
    mine = client.post("/api/observe", json={"game_id": gid, "token": token}).json()
    assert isinstance(mine["hand"], list) and len(mine["hand"]) == 14 and mine["player"] == 0
    # The seat's own hand, never another's, whatever 'player' says.
    assert _code(client.post("/api/observe", json={"game_id": gid, "token": token, "player": 1})) == "forbidden"
    assert _code(client.post("/api/legal", json={"game_id": gid, "token": token, "player": 1})) == "forbidden"


def test_acting_needs_the_seats_token(client: TestClient) -> None:
    g = _game(client, seats=["human", "greedy", "greedy", "greedy"])
    gid, token = g["game_id"], g["tokens"]["0"]
    other = _game(client)["tokens"]["0"]
    for cmd, extra in [("legal", {}), ("apply", {"action": "pass"}), ("hint", {}), ("ai_move", {}), ("close", {})]:
        assert _code(client.post(f"/api/{cmd}", json={"game_id": gid, **extra})) == "forbidden", cmd
        wrong = client.post(f"/api/{cmd}", json={"game_id": gid, "token": other, **extra})
        assert _code(wrong) == "forbidden", cmd
    # AI seats move only on the server's schedule, even for a seat's holder.
    r = client.post("/api/ai_move", json={"game_id": gid, "token": token, "apply": True})
    assert _code(r) == "forbidden"
    hint = client.post("/api/ai_move", json={"game_id": gid, "token": token, "ai": "greedy"}).json()
    assert hint["player"] == 0 and "terminal" not in hint
    assert client.post("/api/observe", json={"game_id": gid}).json()["actions"] == 0
    # The record (with the seed) only once the game has ended.
    assert _code(client.post("/api/record", json={"game_id": gid, "token": token})) == "forbidden"


def test_two_humans_each_see_their_own_hand(client: TestClient) -> None:
    g = _game(client, seats=["human", "greedy", "human", "greedy"], options={"max_hands": 1}, seed=None)
    gid = g["game_id"]
    assert set(g["tokens"]) == {"0", "2"} and g["tokens"]["0"] != g["tokens"]["2"]
    t0, t2 = g["tokens"]["0"], g["tokens"]["2"]
    h0 = client.post("/api/observe", json={"game_id": gid, "token": t0}).json()["hand"]
    h2 = client.post("/api/observe", json={"game_id": gid, "token": t2}).json()["hand"]
    assert h0 != h2 and len(h0) == 14 and len(h2) == 13
    assert client.post("/api/legal", json={"game_id": gid, "token": t2}).json()["actions"] == []
    assert _code(client.post("/api/apply", json={"game_id": gid, "token": t2, "action": "pass"})) == "illegal_action"
    first = client.post("/api/legal", json={"game_id": gid, "token": t0}).json()["actions"][0]
    r = client.post("/api/apply", json={"game_id": gid, "token": t0, "action": first}).json()
    assert [m["player"] for m in r["ai_moves"]] == [1] and r["to_move"] == 2 and r["state"]["player"] == 0


def test_new_game_seats_are_checked(client: TestClient) -> None:
    for seats in (["human"], ["human", "greedy", "greedy", "wizard"], ["greedy"] * 4, "human"):
        r = client.post("/api/new_game", json={"game": "zsy", "players": 4, "seats": seats})
        assert _code(r) == "bad_value", seats


def _shown(move: dict[str, Any]) -> set[str]:
    return {c for meld in move["table"] for c in meld} | {move["discard"]} | set(CARD.findall(move["action"]))


def test_ai_reasons_name_only_public_facts(client: TestClient) -> None:
    """The solver's own reasons name cards in its hand ("with AC the contract is 2 card(s) away");
    what the web shows of an AI's move names only the move and the public table."""
    g = _game(client, "contract", players=3, seed=11)
    gid, token = g["game_id"], g["tokens"]["0"]
    moves = list(g["ai_moves"])
    public: set[str] = set()  # every card shown in public so far: the table, discards, the moves made
    for m in g["ai_moves"]:
        m["public"] = public = public | _shown(m)
    for _ in range(12):
        legal = client.post("/api/legal", json={"game_id": gid, "token": token}).json()["actions"]
        r = client.post("/api/apply", json={"game_id": gid, "token": token, "action": legal[0]}).json()
        public |= set(CARD.findall(legal[0]))
        for m in r["ai_moves"]:
            m["public"] = public = public | _shown(m)
        moves += r["ai_moves"]
        if r["terminal"]:
            break
    assert len(moves) > 10
    # Replay the same moves in the engine: its private reasons for the same positions do name hidden cards.
    server = EngineServer()
    seen_private = []
    for m in moves:
        for card in CARD.findall(m["reason"]):
            assert card in m["public"], m
        assert "away" not in m["reason"] and "in hand" not in m["reason"].replace("left in hand", ""), m
    record_moves = client.post("/api/observe", json={"game_id": gid}).json()
    assert "hand" not in record_moves
    server.handle({"cmd": "new_game", "game": "contract", "players": 3, "seed": 11, "options": {"time_limit": 2.5}})
    for m in moves[:6]:
        while True:
            obs = server.handle({"cmd": "observe", "game_id": "g1"})["result"]
            if obs["to_move"] == m["player"]:
                break
            legal = server.handle({"cmd": "legal", "game_id": "g1"})["result"]["actions"]
            server.handle({"cmd": "apply", "game_id": "g1", "action": legal[0]})
        private = server.handle({"cmd": "ai_move", "game_id": "g1", "ai": "solver", "apply": True})["result"]
        seen_private.append(private["reason"])
    assert any("away" in r or "in hand" in r for r in seen_private), seen_private


def test_an_apply_sent_twice_is_applied_once(client: TestClient) -> None:
    """A second click or a retried request names the move count it was chosen on (``expect``): once
    the game has moved on it is ``stale`` and nothing is applied, even when the action (a pass) is
    legal again after the AI seats' moves."""
    g = _game(client, seats=["human", "greedy", "greedy", "greedy"])
    gid, token = g["game_id"], g["tokens"]["0"]
    for _ in range(40):
        state = client.post("/api/observe", json={"game_id": gid, "token": token}).json()
        legal = client.post("/api/legal", json={"game_id": gid, "token": token}).json()["actions"]
        if "pass" in legal:
            break
        client.post("/api/apply", json={"game_id": gid, "token": token, "action": legal[0], "expect": state["actions"]})
    else:
        raise AssertionError("seat 0 never could pass")
    send = {"game_id": gid, "token": token, "action": "pass", "expect": state["actions"]}
    first = client.post("/api/apply", json=send)
    assert first.status_code == 200, first.text
    after = client.post("/api/observe", json={"game_id": gid, "token": token}).json()
    assert after["actions"] > state["actions"] + 1  # the AI seats moved after the pass
    assert _code(client.post("/api/apply", json=send)) == "stale"
    assert client.post("/api/observe", json={"game_id": gid, "token": token}).json()["actions"] == after["actions"]
    # Without 'expect' an apply is taken on the game as it is now (the protocol's own behaviour).
    legal = client.post("/api/legal", json={"game_id": gid, "token": token}).json()["actions"]
    assert client.post("/api/apply", json={"game_id": gid, "token": token, "action": legal[0]}).status_code == 200


def test_two_humans_no_client_knows_the_deal(client: TestClient) -> None:
    """With two or more human seats the server draws the seed: a client's seed (which would let its
    sender replay the deal and read the other seat's hand) is refused, in new_game and load_record,
    and the seed is shown only once the game has ended; then the record replays the game exactly."""
    two = ["human", "greedy", "human", "greedy"]
    r = client.post("/api/new_game", json={"game": "zsy", "players": 4, "seats": two, "seed": 12345})
    assert _code(r) == "bad_value" and "dealt by the server" in r.json()["error"]["message"]
    # One human seat may still fix the deal (a game to replay).
    one = ["human", "greedy", "greedy", "greedy"]
    assert _game(client, seats=one, seed=12345)["tokens"].keys() == {"0"}
    g = _game(client, seats=two, seed=None, options={"max_hands": 1})
    gid, tokens = g["game_id"], g["tokens"]
    assert "seed" not in g and set(tokens) == {"0", "2"}
    other = _game(client, seats=two, seed=None, options={"max_hands": 1})
    hands = [client.post("/api/observe", json={"game_id": x["game_id"], "token": x["tokens"]["0"]}).json()["hand"]
             for x in (g, other)]  # fmt: skip
    assert hands[0] != hands[1]  # drawn afresh for each game
    for _ in range(400):
        public = client.post("/api/observe", json={"game_id": gid}).json()
        if public["terminal"]:
            break
        assert "seed" not in public
        token = tokens[str(public["to_move"])]
        assert "seed" not in client.post("/api/observe", json={"game_id": gid, "token": token}).json()
        legal = client.post("/api/legal", json={"game_id": gid, "token": token}).json()["actions"]
        r = client.post("/api/apply", json={"game_id": gid, "token": token, "action": legal[0]})
        assert r.status_code == 200, r.text
    else:
        raise AssertionError("the game did not end")
    seed = public["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**63
    record = client.post("/api/record", json={"game_id": gid, "token": tokens["0"]}).json()
    assert record["seed"] == seed
    server = EngineServer()  # the record replays the same game: the revealed seed is the deal's
    server.handle({"cmd": "new_game", "game": "zsy", "players": 4, "seed": seed, "options": {"max_hands": 1}})
    for action in record["actions"]:
        assert "error" not in server.handle({"cmd": "apply", "game_id": "g1", "action": action}), action
    assert server.handle({"cmd": "observe", "game_id": "g1"})["result"]["scores"] == public["scores"]
    # A record's deal is known to whoever sends it: it is replayed with one human seat only.
    r = client.post("/api/load_record", json={"record": record, "seats": two})
    assert _code(r) == "bad_value"
    assert client.post("/api/load_record", json={"record": record, "seats": one}).status_code == 200
