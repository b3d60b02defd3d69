"""A game review for the web app (``POST /api/review``, issue 40): the library's review
(:func:`solver.engine.review.review_game`, what ``shanghai review`` runs), and the position of each
of its biggest mistakes, for the page to show on the table. Runs in a solver worker process
(:mod:`web.engine`); imports nothing of the web app."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["review_request"]


def _position(game: Any, seat: int) -> dict[str, Any]:
    """The seat's view before its decision: its hand and the public cards (what it knew)."""
    obs = game.observation(seat)
    table = obs.get("table") or []
    return {
        "hand": [str(c) for c in obs.get("hand", [])],
        "table": [str(m["cards"]) if isinstance(m, Mapping) else str(m) for m in table],
        "discard": obs.get("discard"),
        "trick": obs.get("trick"),
        "round": obs.get("round", obs.get("hand_number")),
    }


def mistake_positions(record: Any, seat: int, indices: list[int]) -> list[dict[str, Any]]:
    """The position before each record action of ``indices`` (replayed from the record's seed)."""
    from solver.engine import new_game

    wanted = set(indices)
    found: dict[int, dict[str, Any]] = {}
    game = new_game(record.game, record.rules, record.num_players, record.seed, options=record.options)
    for i, text in enumerate(record.actions):
        if i in wanted:
            found[i] = {"index": i, **_position(game, seat)}
            if len(found) == len(wanted):
                break
        game.apply(game.parse_action(text))
    return [found[i] for i in indices if i in found]


def review_request(request: Mapping[str, Any]) -> dict[str, Any]:
    """Answer a review request (``record``, ``seat`` or None, ``time_limit`` per decision) as the
    protocol answers: ``{"result": ...}`` (docs/json.md, ``web_review``) or ``{"error": ...}``."""
    from solver.engine import load_record
    from solver.engine.review import review_game
    from solver.errors import ShanghaiError

    try:
        record = load_record(json.dumps(request["record"]), "record")
        seat = request.get("seat")
        review = review_game(record, seat, time_limit=float(request["time_limit"]))
        out = review.to_json()
        out["positions"] = mistake_positions(record, review.seat, out["mistakes"])
    except ShanghaiError as exc:
        return {"error": {"code": "bad_input", "message": str(exc)}}
    return {"result": out}
