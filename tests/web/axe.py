"""axe-core (from the npm registry, pinned in tests/web/node/package.json) run in the real page.

``.ci/run`` installs it (``npm ci --prefix tests/web/node``). Without it the accessibility
tests skip, unless ``SHANGHAI_REQUIRE_BROWSER=1`` makes that a failure."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

AXE = Path(__file__).resolve().parent / "node" / "node_modules" / "axe-core" / "axe.min.js"
"""The axe-core script the tests inject (not served by the app: the page never loads it)."""

RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


def _source() -> str:
    if not AXE.exists():
        reason = f"axe-core is not installed at {AXE} (npm ci --prefix tests/web/node)"
        if os.environ.get("SHANGHAI_REQUIRE_BROWSER"):
            pytest.fail(f"accessibility tests are required here (SHANGHAI_REQUIRE_BROWSER is set): {reason}")
        pytest.skip(reason)
    return AXE.read_text(encoding="utf-8")


def violations(page: Any) -> list[str]:
    """axe's WCAG 2.1 A/AA (and best-practice) violations of the page as it is now, one line each."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.evaluate(_source() + "\n;true")  # evaluated by the driver: the page's CSP does not apply
    found: list[dict[str, Any]] = page.evaluate(
        """async (tags) => (await axe.run(document, { runOnly: { type: 'tag', values: tags } })).violations
            .map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + n.failureSummary.split('\\n').slice(1, 2).join('')) }))""",
        RULES,
    )
    return [f"{v['id']} ({v['help']}): {'; '.join(v['nodes'])}" for v in found]


def assert_clean(page: Any, state: str) -> None:
    """No axe violation in this state of the page."""
    found = violations(page)
    assert not found, f"{state}: " + "\n".join(found)
