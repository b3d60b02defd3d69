"""What every browser test does to the page: open it, solve, read the cards shown."""

from __future__ import annotations

from typing import Any

PHONE = {"width": 390, "height": 844}
"""The phone the page's tests use (390x844, touch): the ``phone`` fixture's viewport."""


def open_page(page: Any, path: str) -> None:
    """Go to ``path`` on the test server and wait until the page says it is ready."""
    page.goto(page.base + path)
    page.wait_for_selector("body[data-ready='1']", timeout=20000)


def solve(page: Any) -> None:
    """Press Solve and wait for the answer."""
    page.click("#solve-btn")
    page.wait_for_selector("#answer-head", timeout=30000)


def cards(locator: Any) -> list[str]:
    """The card codes of the cards under ``locator``, in order."""
    return [str(c) for c in locator.evaluate_all("els => els.map(e => e.dataset.card)")]
