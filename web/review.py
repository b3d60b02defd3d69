"""``POST /api/review``: a game review on the page (issue 40; docs/review.md, docs/json.md
``web_review``). The review is the library's (:func:`solver.engine.review.review_game`, what
``shanghai review`` runs), computed in a solver worker (:mod:`web.reviewing`) within the client's
share of the workers and a bound on the whole review (:data:`REVIEW_TIMEOUT`)."""

from __future__ import annotations

from typing import Any

from solver.extras import missing

try:
    from fastapi import FastAPI, Request
    from pydantic import Field
except ImportError as _exc:  # one line naming the extra, not the raw import error
    raise missing(_exc, "web") from None

from web.engine import EngineError, WebEngine
from web.models import Body

__all__ = ["REVIEW_TIMEOUT", "DECISION_TIME_LIMIT", "ReviewRequest", "review_routes"]

REVIEW_TIMEOUT = 60.0
"""Seconds a whole review may take (beyond it: 504 ``timeout``, and the worker is replaced)."""

DECISION_TIME_LIMIT = 1.0
"""The default seconds for each solver question at each decision (``time_limit``)."""


class ReviewRequest(Body):
    """``review``: a finished game of this server (``game_id``, and a seat's ``token`` to review that
    seat) or a game ``record`` (as ``record`` returns it); ``seat`` overrides the seat reviewed."""

    game_id: str | None = Field(None, max_length=64)
    token: str | None = Field(None, max_length=128, description="A seat's token: the seat reviewed.")
    record: dict[str, Any] | None = None
    seat: int | None = Field(
        None, ge=0, le=16, description="The seat reviewed (default: the token's, else the record's human seat)."
    )
    time_limit: float | None = Field(
        None, description=f"Seconds for each solver question at each decision (default {DECISION_TIME_LIMIT:g})."
    )


async def _record_and_seat(engine: WebEngine, body: ReviewRequest, client: str) -> tuple[dict[str, Any], int | None]:
    """The record reviewed and the seat (None: the record's human seat)."""
    if (body.game_id is None) == (body.record is None):
        raise EngineError("bad_value", "give either 'game_id' (a finished game) or 'record'")
    if body.record is not None:
        return body.record, body.seat
    gid = str(body.game_id)
    record = await engine.game(gid, {"cmd": "record"}, client)
    seat = body.seat
    if seat is None and body.token is not None:
        seat = (await engine.game(gid, {"cmd": "observe", "token": body.token}, client)).get("player")
    return record, seat


def review_routes(app: FastAPI, engine: WebEngine) -> None:
    """Add ``POST /api/review`` to ``app``."""

    @app.post("/api/review", tags=["games"])
    async def review(body: ReviewRequest, request: Request) -> dict[str, Any]:
        """Every decision of one seat of a finished game scored against the solver (the loss per move,
        per round and for the game, the accuracy, the three biggest mistakes and their positions)."""
        client = request.client.host if request.client is not None else "unknown"
        record, seat = await _record_and_seat(engine, body, client)
        limit = DECISION_TIME_LIMIT if body.time_limit is None else body.time_limit
        task = {"cmd": "review", "record": record, "seat": seat, "time_limit": limit}
        return await engine.stateless(task, client, timeout=REVIEW_TIMEOUT)
