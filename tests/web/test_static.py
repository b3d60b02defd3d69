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
