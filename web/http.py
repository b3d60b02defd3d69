"""The HTTP layer's own parts: error answers, the guard middleware (hosts, sizes, headers),
HEAD, caching headers for static files, and the error responses of the OpenAPI document."""

from __future__ import annotations

import hashlib
import logging
import math
import re
from collections.abc import Sequence
from typing import Any

from solver.extras import missing

try:
    from fastapi import Request
    from fastapi.responses import JSONResponse, Response
    from starlette.types import ASGIApp, Message, Receive, Scope, Send
except ImportError as _exc:  # one line naming the extra, not the raw import error
    raise missing(_exc, "web") from None

__all__ = [
    "STATUS",
    "CSP",
    "LOCAL_HOSTS",
    "error",
    "crashed",
    "json_depth",
    "Guard",
    "Head",
    "cached",
    "document_errors",
]

_log = logging.getLogger("shanghai.web")

STATUS: dict[str, int] = {
    "forbidden": 403,
    "rate_limited": 429,
    "parse_error": 400,
    "invalid_request": 400,
    "missing_field": 400,
    "bad_value": 400,
    "bad_input": 422,
    "illegal_action": 422,
    "unknown_command": 404,
    "unknown_game": 404,
    "not_found": 404,
    "method_not_allowed": 405,
    "game_over": 409,
    "stale": 409,
    "too_large": 413,
    "busy": 503,
    "timeout": 504,
    "internal_error": 500,
}
"""HTTP status of each error code (the protocol's codes, and the few the web adds)."""

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The Content-Security-Policy of every response: same-origin scripts and styles only."""

_HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
}


def error(code: str, message: str, retry_after: float | None = None) -> JSONResponse:
    """An error response: the protocol's error object with the code's HTTP status
    (and ``Retry-After``, in whole seconds, when the client should come back later)."""
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    return JSONResponse(
        {"error": {"code": code, "message": message}}, status_code=STATUS.get(code, 400), headers=headers
    )


def crashed(exc: BaseException) -> JSONResponse:
    """The answer to a request the server failed on: 500 ``internal_error`` naming the kind of
    failure only (an exception's text may hold the server's paths or data). The failure is logged."""
    _log.error("a request failed", exc_info=exc)
    return error("internal_error", f"the server failed on this request ({type(exc).__name__})")


# --- middleware ---------------------------------------------------------------------------------


_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
_BRACKETS = bytes(range(256)).translate(None, b"[]{}")


def json_depth(body: bytes) -> int:
    """How deeply ``body`` (JSON text, or anything) nests ``[`` and ``{`` outside strings."""
    if b"[" not in body and b"{" not in body:
        return 0
    brackets = _STRING.sub(b"", body).translate(None, _BRACKETS)
    depth = deepest = 0
    for byte in brackets:
        if byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
"""Host names always served (DNS rebinding cannot make another site's page one of these)."""


class Guard:
    """ASGI middleware: the Host header checked (localhost's names and the allowed ones: a page
    elsewhere cannot drive the API through DNS rebinding), security headers on every response,
    caps on request bodies' size and nesting (checked before anything parses them: a deep body
    never reaches a recursive parser, validator or pickler)."""

    def __init__(self, app: ASGIApp, max_body: int, max_depth: int = 32, hosts: Sequence[str] = ()) -> None:
        self.app = app
        self.max_body = max_body
        self.max_depth = max_depth
        self.hosts = frozenset(h.lower() for h in (*LOCAL_HOSTS, *hosts))

    def _host_ok(self, scope: Scope) -> str | None:
        """The Host header's name if it is not one served here (None: it is)."""
        host = ""
        for name, value in scope.get("headers", []):
            if name == b"host":
                host = value.decode("latin-1").strip().lower()
                break
        name = (
            host[1:].split("]", 1)[0]
            if host.startswith("[")
            else host.rsplit(":", 1)[0]
            if host.count(":") == 1
            else host
        )
        return None if name in self.hosts else host

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        bad_host = self._host_ok(scope)

        async def send_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.lower().encode(), v.encode()) for k, v in _HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        if bad_host is not None:
            text = f"host {bad_host[:60]!r} is not served here (shanghai serve --allowed-host NAME adds one)"
            await error("invalid_request", text)(scope, receive, send_headers)
            return
        read = await self._read_body(scope, receive)
        if read is None:
            return
        body, too_large = read
        if too_large:
            response = error("too_large", f"the request body is over {self.max_body} bytes")
            await response(scope, receive, send_headers)
            return
        if json_depth(body) > self.max_depth:
            response = error("bad_value", f"the request nests deeper than {self.max_depth} levels")
            await response(scope, receive, send_headers)
            return
        await self._forward(scope, receive, body, send_headers)

    async def _read_body(self, scope: Scope, receive: Receive) -> tuple[bytes, bool] | None:
        """The request body and whether it is over ``max_body`` (read no further once it is, nor at all
        when ``content-length`` says so); None if the client disconnected."""
        body = b""
        more = True
        too_large = False
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    too_large = int(value) > self.max_body
                except ValueError:
                    too_large = True
        while more and not too_large:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            body += message.get("body", b"")
            more = message.get("more_body", False)
            too_large = len(body) > self.max_body
        return body, too_large

    async def _forward(self, scope: Scope, receive: Receive, body: bytes, send: Send) -> None:
        """Run the app on the body already read; a crash before the response started is answered here."""
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        started = False

        async def send_tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, replay, send_tracked)
        except Exception as exc:  # answered here, the connection stays usable (never a reset)
            if started:
                raise
            await crashed(exc)(scope, receive, send)


class Head:
    """ASGI middleware: ``HEAD`` answered as ``GET`` without the body (same status and headers)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return

        async def headers_only(message: Message) -> None:
            if message["type"] == "http.response.body":
                if message.get("more_body", False):
                    return
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        await self.app({**scope, "method": "GET"}, receive, headers_only)


def cached(request: Request, content: str | bytes, media_type: str, max_age: int) -> Response:
    """``content`` with a (weak: it may be sent compressed) ETag and ``Cache-Control``; 304 Not
    Modified when the client's ``If-None-Match`` names it."""
    data = content.encode() if isinstance(content, str) else content
    tag = 'W/"' + hashlib.sha256(data).hexdigest()[:24] + '"'
    control = f"public, max-age={max_age}, must-revalidate" if max_age else "no-cache"
    headers = {"ETag": tag, "Cache-Control": control}
    asked = request.headers.get("if-none-match", "")
    if tag in [t.strip() for t in asked.split(",")] or asked.strip() == "*":
        return Response(status_code=304, headers=headers)
    return Response(data, media_type=media_type, headers=headers)


_CODES = {status: sorted(c for c, s in STATUS.items() if s == status) for status in set(STATUS.values())}
_ERROR_SCHEMA = {
    "type": "object",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {
        "error": {
            "type": "object",
            "required": ["code", "message"],
            "additionalProperties": False,
            "properties": {"code": {"type": "string", "enum": sorted(STATUS)}, "message": {"type": "string"}},
        }
    },
}
_GAME = (403, 404, 409, 422, 429, 503)
_ROUTE_ERRORS: dict[str, tuple[int, ...]] = {
    "/api/solve": (422, 429, 503, 504),
    "/api/hint": (403, 404, 409, 422, 429, 503, 504),
    "/api/new_game": (422, 429, 503),
    "/api/load_record": (422, 429, 503),
    "/api/health": (503,),
    "/api/rules": (),
}


def document_errors(schema: dict[str, Any]) -> dict[str, Any]:
    """The OpenAPI document with every error status each operation answers, each with the
    real error body (``{"error": {"code", "message"}}``) and ``Retry-After`` where it comes."""
    schema.setdefault("components", {}).setdefault("schemas", {})["Error"] = _ERROR_SCHEMA
    for name in ("HTTPValidationError", "ValidationError"):
        schema["components"]["schemas"].pop(name, None)
    ref = {"$ref": "#/components/schemas/Error"}
    for path, ops in schema.get("paths", {}).items():
        for method, op in ops.items():
            statuses = {400, 500, *_ROUTE_ERRORS.get(path, _GAME if path.startswith("/api/") else (422,))}
            if method != "get":
                statuses.add(413)
            if path in ("/api/deck", "/api/check", "/api/toml", "/api/from_toml"):
                statuses = {400, 413, 422, 500}
            responses = op.setdefault("responses", {})
            responses.pop("422", None)
            for status in sorted(statuses):
                entry: dict[str, Any] = {
                    "description": "error: " + ", ".join(_CODES[status]),
                    "content": {"application/json": {"schema": ref}},
                }
                if status in (429, 503):
                    entry["headers"] = {
                        "Retry-After": {"description": "seconds to wait", "schema": {"type": "integer"}}
                    }
                responses[str(status)] = entry
    return schema
