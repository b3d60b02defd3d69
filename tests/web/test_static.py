"""The page's static files: every ES module the page imports is served, nothing else is."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


def test_every_imported_module_is_served(client: TestClient) -> None:
    """Each `import ... from "./x.js"` of each module resolves to a served JavaScript file."""
    seen = set()
    todo = ["main.js"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        r = client.get(f"/static/{name}")
        assert r.status_code == 200, name
        assert r.headers["content-type"].startswith("text/javascript")
        todo += re.findall(r'from "\./([\w-]+\.js)"', r.text)
    assert seen == {p.name for p in STATIC.glob("*.js")}


def test_unknown_static_names_are_not_found(client: TestClient) -> None:
    for name in ("nope.js", "index.html", "..%2Fapp.py", "main.py"):
        assert client.get(f"/static/{name}").status_code == 404, name


def test_a_name_too_long_for_the_file_system_is_not_found(client: TestClient, live_server: str) -> None:
    """``/static/`` + 300 ``a`` + ``.js`` is a clean 404 (it was a 500 naming the server's path,
    "File name too long", and the connection was reset), and the connection serves the next request."""
    import http.client
    import json
    from urllib.parse import urlsplit

    for name in ("a" * 300 + ".js", "a" * 5000 + ".css", "a" * 65 + ".js"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 404 and r.json()["error"]["code"] == "not_found", r.text[:200]
        assert "/" not in r.json()["error"]["message"] and len(r.text) < 200
    url = urlsplit(live_server)
    conn = http.client.HTTPConnection(url.hostname or "", url.port, timeout=10)
    try:
        for path in ("/static/" + "a" * 300 + ".js", "/static/main.js", "/static/" + "b" * 300 + ".js"):
            conn.request("GET", path)
            response = conn.getresponse()
            body = response.read()
            assert response.status == (200 if path.endswith("main.js") else 404), (path[:40], body[:200])
            if response.status == 404:
                assert json.loads(body)["error"]["code"] == "not_found"
    finally:
        conn.close()


def test_a_failure_names_no_detail_and_keeps_the_connection() -> None:
    """A request the server fails on answers 500 ``internal_error`` with the kind of failure only
    (never the exception's text, which may hold paths), and the connection serves the next request."""
    from web.app import create_app
    from web.engine import Limits

    app = create_app(Limits(workers=0))

    @app.get("/boom")
    async def boom() -> None:
        raise OSError(36, "File name too long", "/srv/secret/web/static/x")

    with TestClient(app, base_url="http://localhost", raise_server_exceptions=False) as c:
        r = c.get("/boom")
        assert r.status_code == 500 and r.json()["error"]["code"] == "internal_error"
        assert "secret" not in r.text and "too long" not in r.text and "OSError" in r.text
        assert c.get("/static/main.js").status_code == 200
