"""The page's faults of issue 27, each a browser test that fails without its fix (docs/web.md lists them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

expect = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed").expect

ROOT = Path(__file__).resolve().parents[2]


def _open(page: Any, path: str) -> None:
    page.goto(page.base + path)
    page.wait_for_selector("body[data-ready='1']", timeout=20000)


def _solve(page: Any) -> None:
    page.click("#solve-btn")
    page.wait_for_selector("#answer-head", timeout=30000)


def _cards(locator: Any) -> list[str]:
    return [str(c) for c in locator.evaluate_all("els => els.map(e => e.dataset.card)")]


def _cli(path: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "cli", "solve", "--json", str(path)], capture_output=True, text=True, check=True, cwd=ROOT
    )
    data: dict[str, Any] = json.loads(out.stdout.splitlines()[0])
    return data


@pytest.mark.parametrize("name", ["hard-1deck-both-1", "hard-1deck-low-2", "hard-4deck-jokers-2"])
def test_step_replay_ends_on_the_answer(page: Any, name: str) -> None:
    """Stepping through every move ends on the answer's table (the page followed moves by content
    and split `9D 10D JD` into `9D 10D` and `JD`; now it follows their `from`/`to` indices)."""
    path = ROOT / "puzzles" / "manipulation" / f"{name}.toml"
    cli = _cli(path)
    _open(page, "/manipulation")
    page.set_input_files("#upload", str(path))
    expect(page.locator("#share-note")).to_have_text("Puzzle loaded.")
    _solve(page)
    for _ in cli["moves"]:
        page.click("#step-btn")
    rows = page.locator("#new-table .meld-row[data-meld]")
    shown = sorted(sorted(_cards(rows.nth(i).locator(".card"))) for i in range(rows.count()))
    assert shown == sorted(sorted(c.split("=")[0] for c in m) for m in cli["table"])
    assert sorted(_cards(page.locator("#new-table .meld-row[data-hand] .card"))) == sorted(cli["hand"])
