"""docs/web.md's curl examples are real: each request is sent to the app and its answer compared with the
one the page shows (issue 25: the page showed moves as strings; they are objects)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

DOC = (Path(__file__).resolve().parents[2] / "docs" / "web.md").read_text(encoding="utf-8")
CURL = re.compile(r"^\$ curl -s localhost:8000(/\S+) -H 'content-type: application/json' -d '(.*)'\n(.*)$", re.M)


def _same(shown: Any, got: Any) -> bool:
    """Equal, but for wall times (``seconds``), which differ from run to run."""
    if isinstance(shown, dict) and isinstance(got, dict):
        keys = set(shown) | set(got)
        return all(k == "seconds" or (k in shown and k in got and _same(shown[k], got[k])) for k in keys)
    return bool(shown == got)


def test_every_curl_example_shows_the_real_answer(client: TestClient) -> None:
    examples = CURL.findall(DOC)
    assert len(examples) >= 2, "docs/web.md lost its curl examples"
    for path, body, answer in examples:
        got = client.post(path, json=json.loads(body)).json()
        assert _same(json.loads(answer), got), (
            f"docs/web.md shows for {path}:\n{answer}\nthe app answers:\n{json.dumps(got)}"
        )
