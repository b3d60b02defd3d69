"""The FastAPI app: the page for each game, and the HTTP API under it.

The API mirrors the engine protocol (``docs/protocol.md``): ``POST
/api/<cmd>`` takes the protocol request's fields as a JSON body (without
``cmd`` and ``id``) and answers with the protocol's ``result`` object, or
with ``{"error": {"code", "message"}}`` and a 4xx status carrying the same
error codes. Every request goes through
:meth:`solver.engine.protocol.EngineServer.handle`, the engine behind
``shanghai engine`` too. Nothing here reads or writes server files: pages
and scripts are package data, puzzles and records travel in requests.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from functools import cache
from importlib import resources
from typing import Any, Literal

from solver.extras import missing

try:
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.openapi.utils import get_openapi
    from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response, StreamingResponse
    from pydantic import BaseModel, Field
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.middleware.gzip import GZipMiddleware
except ImportError as _exc:  # one line naming the extra, not the raw import error
    raise missing(_exc, "web") from None

from solver import __version__
from solver.engine import GAME_NAMES
from web.engine import EngineError, Limits, WebEngine
from web.http import CSP, STATUS, Guard, Head, cached, crashed, document_errors, error, json_depth
from web.models import Body as _Body
from web.models import GameName
from web.puzzle_routes import puzzle_routes, rules_metadata
from web.review import review_routes
from web.seats import HUMAN, deal_seed, hint_facts

__all__ = ["create_app", "STATUS", "CSP", "json_depth", "rules_metadata"]

# --- request models ------------------------------------------------------------------------


class SolveRequest(_Body):
    """``solve``: a puzzle position given inline."""

    puzzle: dict[str, Any] = Field(
        description="The tables of a puzzle file: game, rules, position (and optionally title, answer).",
        examples=[
            {
                "game": "manipulation",
                "rules": {"preset": "norwegian"},
                "position": {"table": ["3H 4H 5H 6H", "3C 4C 5C 6C"], "hand": "6S KD"},
            }
        ],
    )
    time_limit: float | None = Field(None, description="Seconds per solver stage (capped by the server).")
    objective: Literal["cards", "value"] = "cards"
    all: bool = Field(False, description="Manipulation: list every distinct best set of hand cards.")


TOKEN = Field(None, max_length=128, description="The seat's token (new_game gives one per human seat).")


class HintRequest(_Body):
    """``hint``: the best action in a game (``game_id``, with the seat's ``token``) or in a puzzle
    position (``puzzle``)."""

    game_id: str | None = Field(None, max_length=64)
    puzzle: dict[str, Any] | None = None
    time_limit: float | None = None
    token: str | None = TOKEN


class NewGameRequest(_Body):
    """``new_game``: a seeded game (the server draws the seed when none is given, and always when two
    or more seats are human)."""

    game: GameName
    rules: dict[str, Any] = Field(default_factory=dict, description="A preset and rule options.")
    players: int = Field(4, ge=2, le=8)
    seed: int | None = Field(
        None,
        ge=0,
        le=2**63 - 1,
        description="The deal (drawn by the server when absent); refused with two or more human seats.",
    )
    options: dict[str, Any] = Field(
        default_factory=dict, description="Engine options: max_hands, max_rounds, turn_limit, time_limit."
    )
    seats: list[str] | None = Field(
        None,
        max_length=8,
        description="Who plays each seat: 'human' or an AI kind (random, greedy, solver, ...). "
        "Default: a human, then 'solver' in every other seat.",
    )


class GameRequest(_Body):
    """A command about one game (``token``: the seat it is for)."""

    game_id: str = Field(max_length=64)
    token: str | None = TOKEN


class PlayerRequest(GameRequest):
    """``legal`` / ``observe``: optionally for one player."""

    player: int | None = Field(None, ge=0, le=16)


class ApplyRequest(GameRequest):
    """``apply``: an action in its text form (``play set:7S 7H``, ``discard 7H``, ``draw``...)."""

    action: str = Field(max_length=4000)
    player: int | None = Field(None, ge=0, le=16)
    expect: int | None = Field(
        None,
        ge=0,
        le=1_000_000,
        description="The state's 'actions' count the action was chosen on: if the game has moved on since "
        "(a second click, a retried request, another tab), the answer is 'stale' (409) and nothing is applied.",
    )


class AiMoveRequest(GameRequest):
    """``ai_move``: what an AI player would do (and do it when ``apply``)."""

    ai: Literal["random", "greedy", "solver"] = "solver"
    time_limit: float | None = None
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    apply: bool = False


class MovesRequest(_Body):
    """``moves``: the moves made from ``start`` on (public), and the game's public status."""

    game_id: str = Field(max_length=64)
    start: int = Field(0, ge=0, le=1_000_000, description="The number of the first move wanted (0: all).")


class HandOverRequest(GameRequest):
    """``hand_over``: another human seat, to move for a while, handed to an AI player."""

    seat: int = Field(ge=0, le=16)
    ai: Literal["random", "greedy", "solver"] = "greedy"


class LeaveRequest(GameRequest):
    """``leave``: the token's seat handed to an AI player (the others play on)."""

    ai: Literal["random", "greedy", "solver"] = "greedy"


class SeatRef(_Body):
    """A game and the token of one of its seats."""

    game_id: str = Field(max_length=64)
    token: str = Field(max_length=128)


class GamesRequest(_Body):
    """``games``: the games of a "your games" list (what the page keeps in the browser)."""

    games: list[SeatRef] = Field(max_length=50)


class RecordRequest(_Body):
    """``load_record``: a game record as ``record`` returns it (what ``shanghai hint`` reads)."""

    record: dict[str, Any]
    seats: list[str] | None = Field(None, max_length=8, description="As for new_game.")


def _seats(seats: list[str] | None, players: int) -> list[str]:
    from web.seats import check_seats

    try:
        return check_seats(seats, players)
    except ValueError as exc:
        raise EngineError("bad_value", str(exc)) from None


def _client(request: Request) -> str:
    """Who is asking, for quotas: the connection's address."""
    return request.client.host if request.client is not None else "unknown"


def _fields(model: BaseModel) -> dict[str, Any]:
    return {k: v for k, v in model.model_dump(exclude_unset=True).items() if v is not None}


# --- pages --------------------------------------------------------------------------------------


def _static(name: str) -> str:
    return resources.files("web").joinpath("static", name).read_text(encoding="utf-8")


def _has_static(name: str) -> bool:
    """Whether ``name`` is a static file (a name the file system refuses, too long say, is not)."""
    try:
        return resources.files("web").joinpath("static", name).is_file()
    except (OSError, ValueError):
        return False


@cache
def _page(game: str) -> str:
    from solver.svg import deck_sprite

    return (
        _static("index.html")
        .replace("{{game}}", html.escape(game))
        .replace("{{version}}", html.escape(__version__))
        .replace("{{sprite}}", deck_sprite())
    )


@cache
def _sprite() -> str:
    from solver.svg import deck_sprite

    return deck_sprite()


_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
"""The static files served: the page's ES modules (``*.js``) and its style sheet, by suffix."""


def _api_docs(schema: dict[str, Any]) -> str:
    """The API reference as one static HTML page, rendered from the OpenAPI schema."""
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8><meta name=viewport content='width=device-width'>",
        "<title>shanghai API</title><link rel=stylesheet href='/static/app.css'>",
        "<body class=docs><main><h1>shanghai HTTP API</h1>",
        "<p>The engine protocol over HTTP (<a href='/openapi.json'>OpenAPI schema</a>). Each command is "
        "<code>POST /api/&lt;cmd&gt;</code> with the protocol request's fields as a JSON object; the answer is "
        'the protocol\'s <code>result</code>, or <code>{"error": {"code", "message"}}</code> with a 4xx status.</p>',
    ]
    comps = schema.get("components", {}).get("schemas", {})
    for path, ops in schema.get("paths", {}).items():
        for method, op in ops.items():
            parts.append(f"<section><h2><code>{method.upper()} {html.escape(path)}</code></h2>")
            parts.append(f"<p>{html.escape(op.get('description') or op.get('summary', ''))}</p>")
            body = op.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema", {})
            ref = body.get("$ref", "").rsplit("/", 1)[-1]
            if ref in comps:
                rows = []
                required = set(comps[ref].get("required", []))
                for name, prop in comps[ref].get("properties", {}).items():
                    kind = prop.get("type") or " | ".join(
                        str(x.get("type", x.get("$ref", "").rsplit("/", 1)[-1])) for x in prop.get("anyOf", [])
                    )
                    if "enum" in prop:
                        kind = " | ".join(map(json.dumps, prop["enum"]))
                    rows.append(
                        f"<tr><td><code>{html.escape(name)}</code>{' (required)' if name in required else ''}</td>"
                        f"<td>{html.escape(str(kind))}</td><td>{html.escape(prop.get('description', ''))}</td></tr>"
                    )
                parts.append("<table><tr><th>field</th><th>type</th><th>meaning</th></tr>" + "".join(rows) + "</table>")
            parts.append("</section>")
    parts.append("</main></body></html>")
    return "".join(parts)


# --- live updates ---------------------------------------------------------------------------


async def _event_stream(engine: WebEngine, game_id: str, request: Request, after: int) -> Response:
    """The stream of ``GET /api/events?game_id=<id>`` (see there): an event whenever the game changes (woken
    by :class:`web.events.Hub`), a comment line every 15 s otherwise; it ends with the game."""
    if len(game_id) > 64:
        raise EngineError("unknown_game", "no such game")
    last = request.headers.get("last-event-id", "")
    start = int(last) if last.isdigit() and len(last) < 8 else max(0, min(after, 1_000_000))
    if len(engine.hub) >= engine.limits.max_streams:
        raise EngineError("busy", "too many live streams; the page polls instead", retry_after=5)
    first = await engine.moves(game_id, start)  # an unknown game is a 404 here, not a stream

    async def stream() -> AsyncIterator[bytes]:
        nonlocal start
        data: dict[str, Any] | None = first
        sent: tuple[Any, ...] | None = None
        yield b"retry: 2000\n\n"
        async with engine.hub.waiter(game_id) as changed:
            while True:
                if data is not None:
                    key = (data["actions"], data["to_move"], tuple(data["seats"]), data["terminal"])
                    if key != sent or data["moves"]:
                        start = data["start"] + len(data["moves"])
                        text = json.dumps(data, separators=(",", ":"))
                        yield f"id: {start}\nevent: moves\ndata: {text}\n\n".encode()
                        sent = key
                    if data["terminal"] and not data["moves"]:
                        return
                try:
                    await asyncio.wait_for(changed.wait(), 15.0)
                except TimeoutError:
                    yield b": waiting\n\n"
                if await request.is_disconnected():
                    return
                changed.clear()
                try:
                    data = await engine.moves(game_id, start)
                except EngineError as exc:
                    if exc.code != "busy":  # the store away: try again on the next wake
                        yield f"event: gone\ndata: {json.dumps({'code': exc.code})}\n\n".encode()
                        return
                    data = None

    headers = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


# --- the app --------------------------------------------------------------------------------------


def create_app(limits: Limits | None = None, store: str | None = None, allowed_hosts: Sequence[str] = ()) -> FastAPI:
    """The web app: pages, static files and the API, with its own :class:`WebEngine`
    (games in ``store``: None for this process's memory, or ``redis://host:port/db``), answering
    requests for localhost's names and ``allowed_hosts``."""
    limits = limits or Limits()
    engine = WebEngine(limits, store)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.get_running_loop().run_in_executor(None, engine.start)
        try:
            yield
        finally:
            engine.stop()

    app = FastAPI(
        title="shanghai",
        version=__version__,
        description="Solve and play the Shanghai card games: the engine protocol over HTTP.",
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.engine = engine

    _error_handlers(app)
    _protocol_routes(app, engine)
    _game_routes(app, engine)
    puzzle_routes(app)
    review_routes(app, engine)
    _page_routes(app)
    app.add_middleware(Guard, max_body=limits.max_body, max_depth=limits.max_depth, hosts=allowed_hosts)
    app.add_middleware(GZipMiddleware, minimum_size=800)
    app.add_middleware(Head)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = document_errors(
                get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            )
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _error_handlers(app: FastAPI) -> None:
    """Every error as a JSON object naming the problem, never a traceback."""

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = exc.errors()
        first = problems[0] if problems else {"type": "", "loc": (), "msg": "invalid request"}
        loc = [str(x) for x in first.get("loc", ()) if x != "body"]
        where = ".".join(loc)
        kind = first.get("type", "")
        if kind == "json_invalid":
            return error("parse_error", f"not valid JSON: {first.get('msg', '')}")
        if kind == "missing":
            return error("missing_field", f"missing field {where!r}" if where else "missing request body")
        if kind == "extra_forbidden":
            return error("bad_value", f"unknown field {where!r}")
        if not where:
            return error("invalid_request", "a request is a JSON object")
        return error("bad_value", f"field {where!r}: {first.get('msg', 'invalid')}")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed", 413: "too_large"}.get(exc.status_code, "invalid_request")
        response = error(code, str(exc.detail))
        response.headers.update(exc.headers or {})  # a 405's Allow
        return response

    @app.exception_handler(EngineError)
    async def engine_error(request: Request, exc: EngineError) -> JSONResponse:
        return error(exc.code, exc.message, exc.retry_after)

    @app.exception_handler(Exception)
    async def crash(request: Request, exc: Exception) -> JSONResponse:
        return crashed(exc)

    # --- the protocol's commands ---


_GAME_COMMANDS: tuple[tuple[str, type[GameRequest], str], ...] = (
    ("legal", PlayerRequest, "The legal actions (text forms) of the token's seat (none if not to move)."),
    (
        "apply",
        ApplyRequest,
        "Apply an action for the token's seat; the AI seats then move until a human seat is to move "
        "(their moves in 'ai_moves'), and 'state' is the seat's view after them.",
    ),
    (
        "observe",
        PlayerRequest,
        "What the token's seat sees, and the status; without a token, the public view (no hand).",
    ),
    ("ai_move", AiMoveRequest, "What an AI player would do for the token's seat (a hint; 'apply' is forbidden)."),
    ("record", GameRequest, "The game record (replays exactly), once the game has ended."),
    ("keep", GameRequest, "Keep this game (and its record) for a day instead of an hour idle."),
    (
        "close",
        GameRequest,
        "Forget a game (needs a seat's token; a finished game's record stays); with other human seats, "
        "leave it instead.",
    ),
    (
        "claim",
        GameRequest,
        "Open an invite: the seat's token is replaced by a fresh one, answered here (the link's token "
        "no longer acts for the seat).",
    ),
    ("leave", LeaveRequest, "Hand the token's seat to an AI player; the other seats play on."),
    (
        "hand_over",
        HandOverRequest,
        "Hand another human seat to an AI player, once it has been to move for a while (absent).",
    ),
)
"""The game commands of the protocol (name, request model, the endpoint's doc), in the API docs' order."""


def _protocol_routes(app: FastAPI, engine: WebEngine) -> None:
    """The engine protocol's commands over HTTP (one engine behind both)."""
    _stateless_routes(app, engine)
    for cmd, model, doc in _GAME_COMMANDS:
        _game_command(app, engine, cmd, model, doc)
    _watch_routes(app, engine)


def _stateless_routes(app: FastAPI, engine: WebEngine) -> None:
    """``solve``, ``hint`` (of a game or a puzzle) and ``new_game``."""

    @app.post("/api/solve", tags=["protocol"])
    async def solve(body: SolveRequest, request: Request) -> dict[str, Any]:
        """Solve a position: what ``shanghai solve --json`` prints for it."""
        return await engine.stateless({"cmd": "solve", **_fields(body)}, _client(request))

    @app.post("/api/hint", tags=["protocol"])
    async def hint(body: HintRequest, request: Request) -> dict[str, Any]:
        """The best action and why, for the seat to move in a game (its ``token`` needed) or in a puzzle."""
        if (body.game_id is None) == (body.puzzle is None):
            raise EngineError("missing_field", "give exactly one of 'game_id' and 'puzzle'")
        if body.game_id is not None:
            answer = await engine.game(body.game_id, {"cmd": "hint", "token": body.token}, _client(request))
        else:
            fields = _fields(body)
            fields.pop("token", None)
            answer = await engine.stateless({"cmd": "hint", **fields}, _client(request))
        return {**answer, "why": hint_facts(answer)}

    @app.post("/api/new_game", tags=["protocol"])
    async def new_game(body: NewGameRequest, request: Request) -> dict[str, Any]:
        """Start a game: its ``game_id``, ``seats``, a ``token`` for each human seat, and the AI seats'
        moves before the first human turn (``ai_moves``). The seed is not shown until the game ends; with
        two or more human seats the server draws it and refuses one from the client."""
        fields = _fields(body)
        seats = _seats(body.seats, body.players)
        try:
            fields["seed"] = deal_seed(seats, body.seed)
        except ValueError as exc:
            raise EngineError("bad_value", str(exc)) from None
        return await engine.new_game({"cmd": "new_game", **fields}, seats, _client(request))


def _game_command(app: FastAPI, engine: WebEngine, cmd: str, model: type[GameRequest], doc: str) -> None:
    """One game command's endpoint ``POST /api/<cmd>``: its body ``model``, its doc ``doc``."""

    async def endpoint(body: Any, request: Request) -> dict[str, Any]:
        fields = _fields(body)
        return await engine.game(fields.pop("game_id"), {"cmd": cmd, **fields}, _client(request))

    endpoint.__annotations__ = {"body": model, "request": Request, "return": dict[str, Any]}
    endpoint.__doc__ = doc
    endpoint.__name__ = cmd
    app.post(f"/api/{cmd}", tags=["protocol"], name=cmd)(endpoint)


def _watch_routes(app: FastAPI, engine: WebEngine) -> None:
    """Following games: ``moves`` (polling), ``games`` (a "your games" list), ``events`` (Server-Sent Events)."""

    @app.post("/api/moves", tags=["games"])
    async def moves(body: MovesRequest) -> dict[str, Any]:
        """The moves made from ``start`` on (they are public once made) and the public status: the
        polling form of ``GET /api/events?game_id=<id>``."""
        return await engine.moves(body.game_id, body.start)

    @app.post("/api/games", tags=["games"])
    async def games(body: GamesRequest) -> dict[str, Any]:
        """Where each game of a "your games" list is (``gone``: expired, closed or not the token's)."""
        return {"games": await engine.summaries([(g.game_id, g.token) for g in body.games])}

    @app.get("/api/events", tags=["games"])
    async def events(game_id: str, request: Request, after: int = 0) -> Response:
        """The game's moves as they are made: Server-Sent Events (``event: moves``, the ``moves``
        answer as data, ``id``: the moves made so far), from move ``after`` (or ``Last-Event-ID``)."""
        return await _event_stream(engine, game_id, request, after)

    # --- web additions ---


def _game_routes(app: FastAPI, engine: WebEngine) -> None:
    """Games kept for later, records loaded back, and the server's health."""

    @app.post("/api/load_record", tags=["games"])
    async def load_record(body: RecordRequest, request: Request) -> dict[str, Any]:
        """Replay a game record into a new game (seats and tokens as for ``new_game``)."""
        players = body.record.get("num_players", 4)
        seats = _seats(body.seats, players if isinstance(players, int) and not isinstance(players, bool) else 4)
        if seats.count(HUMAN) >= 2:  # whoever sends a record knows its deal
            raise EngineError(
                "bad_value", "a record is replayed with one human seat: its deal is known to whoever sends it"
            )
        return await engine.load_record(body.record, seats, _client(request))

    @app.get("/api/health", tags=["games"])
    async def health() -> dict[str, Any]:
        """Liveness, how many games are running (in the store: every process's) and which server process answered."""
        from web.store import StoreError

        try:
            games = engine.count()
        except StoreError as exc:
            raise EngineError("busy", str(exc), retry_after=5) from None
        return {"ok": True, "version": __version__, "games": games, "process": os.getpid()}

    # --- pages ---


def _page_routes(app: FastAPI) -> None:
    """The pages and their static files (package data)."""

    @app.get("/", include_in_schema=False)
    async def root() -> Response:
        return RedirectResponse("/manipulation")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(_api_docs(app.openapi()))

    for game in GAME_NAMES:

        def page(game: str = game) -> Callable[[Request], Awaitable[Response]]:
            async def endpoint(request: Request) -> Response:
                return cached(request, _page(game), "text/html; charset=utf-8", 0)

            return endpoint

        app.get(f"/{game}", include_in_schema=False)(page())

    @app.get("/static/i18n/{name}", include_in_schema=False)
    async def catalogue(name: str, request: Request) -> Response:
        if not re.fullmatch(r"[a-z]{2,3}\.json", name) or not _has_static("i18n/" + name):
            raise EngineError("not_found", f"no catalogue {name!r}")
        return cached(request, _static("i18n/" + name), "application/json; charset=utf-8", 300)

    @app.get("/static/{name}", include_in_schema=False)
    async def static(name: str, request: Request) -> Response:
        if name == "cards.svg":  # the card sprite (also inlined in each page)
            return cached(request, _sprite(), "image/svg+xml", 3600)
        suffix = name[name.rfind(".") :] if "." in name else ""
        if suffix not in _TYPES or not re.fullmatch(r"[a-z0-9_-]{1,64}\.[a-z]{1,4}", name) or not _has_static(name):
            raise EngineError("not_found", f"no file {name[:64]!r}")
        return cached(request, _static(name), _TYPES[suffix], 300)
