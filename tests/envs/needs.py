"""Optional extras in tests: skipped on a developer's machine without them, a failure under CI."""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest


def need(module: str, extra: str) -> Any:
    """Import ``module``; when it is missing, fail under CI (``CI`` set) and skip elsewhere."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is missing under CI: .ci/run must install the [{extra}] extra", pytrace=False)
        pytest.skip(f"{module} not installed (pip install -e '.[{extra}]')", allow_module_level=True)
