"""Module-level request handlers for the worker-pool tests (workers are spawned, so these must import)."""

from __future__ import annotations

import json
import time
from typing import Any


def slow_answer(request: dict[str, Any]) -> str:
    """Answer after ``request["sleep"]`` seconds with the request's id."""
    time.sleep(float(request.get("sleep", 0)))
    return json.dumps({"id": request.get("id"), "result": {"slept": request.get("sleep", 0)}})
