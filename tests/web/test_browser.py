"""The page in a real browser (headless Chromium): enter positions by tapping and typing,
solve, read the answer from the page, play a whole game, take screenshots."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from solver.extras import require
from tests.web.pages import cards as _cards
from tests.web.pages import open_page as _open
from tests.web.pages import solve as _solve

expect = require("playwright.sync_api", "web").expect

ROOT = Path(__file__).resolve().parents[2]
SHOTS = Path(os.environ.get("SHANGHAI_SCREENSHOTS", "")) if os.environ.get("SHANGHAI_SCREENSHOTS") else None


def _cli_json(*args: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "cli", "solve", "--json", *args], capture_output=True, text=True, check=True, cwd=ROOT
    )
    data: dict[str, Any] = json.loads(out.stdout.splitlines()[0])
    return data


def test_tap_cards_and_solve_manipulation(page: Any) -> None:
    """The README's example, entered by tapping cards, gives the answer `shanghai solve --json` gives."""
    _open(page, "/manipulation")
    page.click("#rules summary")
    page.select_option("#preset", "norwegian")
    expect(page.locator("#rules-summary")).to_have_text(re.compile("^norwegian"))
    # The hand is the active zone: tap 6S and KD.
    page.click("#picker .chip[data-card='6S']")
    page.click("#picker .chip[data-card='KD']")
    # Meld 1: tap the zone, then its cards.
    page.click(".zone[data-kind='meld'] .label")
    for code in ("3H", "4H", "5H", "6H"):
        page.click(f"#picker .chip[data-card='{code}']")
    page.click("#add-meld")
    for code in ("3C", "4C", "5C", "6C"):
        page.click(f"#picker .chip[data-card='{code}']")
    # Deck limits: one deck in the Norwegian preset, so 6H is used up.
    assert page.locator("#picker .chip[data-card='6H']").is_disabled()
    assert "1/1" in page.locator("#picker .chip[data-card='6H']").inner_text()
    _solve(page)
    assert "Play 1 card" in page.inner_text("#answer-head")
    cli = _cli_json("--table", "3H 4H 5H 6H | 3C 4C 5C 6C", "--hand", "6S KD", "--preset", "norwegian")
    rows = page.locator("#new-table .meld-row")
    shown = [_cards(rows.nth(i).locator(".card")) for i in range(rows.count())]
    assert shown[: len(cli["table"])] == cli["table"]
    assert shown[-1] == cli["hand"]
    assert _cards(page.locator("#new-table .card.played")) == cli["played"]
    assert sorted(_cards(page.locator("#new-table .card.moved"))) == ["6C", "6H"]
    assert page.locator("#steps li").all_inner_texts() == [m["text"] for m in cli["moves"]]
    # The steps one by one, from the old table.
    for _ in cli["moves"]:
        page.click("#step-btn")
    page.wait_for_timeout(500)
    assert page.locator("#steps li.current").inner_text() == cli["moves"][-1]["text"]
    # The position lives in the URL: reloading it gives the same position.
    url = page.url
    assert "preset=norwegian" in url and "hand=6S+KD" in url
    _open(page, url.removeprefix(page.base))
    assert page.input_value(".zone[data-kind='hand'] input") == "6S KD"


def _readme_positions() -> list[list[str]]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return [shlex.split(m)[2:] for m in re.findall(r"^\$ (shanghai solve --table .*)$", readme, flags=re.M)]


@pytest.mark.parametrize("args", _readme_positions())
def test_readme_positions_typed_in(page: Any, args: list[str]) -> None:
    """Every README example position, typed into the page, gives the answer of `shanghai solve --json`."""
    opts = dict(zip(args[::2], args[1::2]))
    _open(page, "/manipulation")
    if "--preset" in opts:
        page.click("#rules summary")
        page.select_option("#preset", opts["--preset"])
        expect(page.locator("#rules-summary")).to_have_text(re.compile("^" + opts["--preset"]))
    page.fill(".zone[data-kind='hand'] input", opts["--hand"])
    melds = [m.strip() for m in opts["--table"].split("|")]
    for i, meld in enumerate(melds):
        if i:
            page.click("#add-meld")
        page.locator(".zone[data-kind='meld'] input").nth(i).fill(meld)
    page.wait_for_timeout(400)
    _solve(page)
    cli = _cli_json(*args)
    rows = page.locator("#new-table .meld-row")
    shown = [_cards(rows.nth(i).locator(".card")) for i in range(rows.count())]
    assert shown[: len(cli["table"])] == cli["table"]
    assert _cards(page.locator("#new-table .card.played")) == cli["played"]
    assert page.locator("#steps li").all_inner_texts() == [m["text"] for m in cli["moves"]]


def test_bad_notation_shows_inline_error(page: Any) -> None:
    _open(page, "/manipulation")
    box = page.locator(".zone[data-kind='hand'] input")
    box.fill("6S XX")
    page.wait_for_selector(".zone[data-kind='hand'] .error", timeout=5000)
    text = page.inner_text(".zone[data-kind='hand'] .error")
    assert "malformed card 'XX'" in text and "position.hand" in text
    assert box.get_attribute("aria-invalid") == "true"
    box.fill("6S 7S")
    page.locator(".zone[data-kind='hand'] .error").wait_for(state="detached", timeout=5000)


def test_contract_typed_position(page: Any) -> None:
    # player 1 has laid down round 1's contract (two sets): a legal position (the one legality check);
    # a deal of 7 (rule option deal): the typed 7-card hand is one a game gives (before the draw)
    _open(page, "/contract#preset=us&o.deal=7&round=1&table=1:8S+8H+8D+|+1:JS+JH+JD")
    page.fill(".zone[data-kind='hand'] input", "5H 5D 5S 7C 7D 9H KS")
    page.fill(".zone[data-kind='discard'] input", "7H")
    page.wait_for_timeout(400)
    _solve(page)
    assert page.inner_text("#can-lay-down") == "no"
    assert "1 card short" in page.inner_text("#distance")
    page.wait_for_selector("#advice")


def test_contract_puzzle_upload_matches_cli(page: Any) -> None:
    """A puzzle file uploaded through the page gives what `shanghai solve --json` gives."""
    path = ROOT / "puzzles" / "contract" / "r1-set-and-run.toml"
    _open(page, "/contract")
    page.set_input_files("#upload", str(path))
    expect(page.locator("#share-note")).to_have_text("Puzzle loaded.")
    _solve(page)
    cli = _cli_json(str(path))
    assert page.inner_text("#can-lay-down") == ("yes" if cli["can_lay_down"] else "no")
    if cli["lay_down"]:
        rows = page.locator("#lay-down .meld-row")
        assert [_cards(rows.nth(i).locator(".card")) for i in range(rows.count())] == [
            [t.split("=")[0] for t in m] for m in cli["lay_down"]
        ]


def test_zsy_replies(page: Any) -> None:
    _open(page, "/zsy#hand=3H+6H+6D+4S+5S+7S+8S+KD&beat=4H+4C")
    _solve(page)
    head = page.inner_text("#answer-head")
    assert "beat it" in head
    assert page.locator("#replies .reply").count() >= 1
    assert page.locator("#split .reply").count() >= 1


@pytest.mark.parametrize(("name", "width", "height"), [("phone", 390, 844), ("desktop", 1366, 768)])
def test_screenshots(browser: Any, live_server: str, tmp_path: Path, name: str, width: int, height: int) -> None:
    """The page at phone and desktop sizes (SHANGHAI_SCREENSHOTS=docs/img writes the README's pictures)."""
    context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=1)
    page = context.new_page()
    page.goto(live_server + "/manipulation#preset=norwegian&table=3H+4H+5H+6H+|+3C+4C+5C+6C&hand=6S+KD")
    page.wait_for_selector("body[data-ready='1']")
    page.click("#solve-btn")
    page.wait_for_selector("#answer-head")
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(200)
    out = (SHOTS or tmp_path) / f"web-{name}.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out))
    assert out.stat().st_size > 10_000
    # One column at phone width: the answer is below the position, not beside it.
    pos = page.locator("#position").bounding_box()
    ans = page.locator("#answer").bounding_box()
    assert pos is not None and ans is not None
    assert (ans["y"] > pos["y"] + pos["height"]) == (width < 760)
    if width < 760:
        # The answer, where the page puts it after Solve.
        page.locator("#answer").scroll_into_view_if_needed()
        page.evaluate("() => document.querySelector('#answer').scrollIntoView({ block: 'start' })")
        page.wait_for_timeout(200)
        shot = (SHOTS or tmp_path) / "web-phone-answer.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
    context.close()


def test_screenshot_contract_mid_round(browser: Any, live_server: str, tmp_path: Path) -> None:
    """A Contract game on a phone, mid-round: the table's melds, the hand sorted by rank, the hint."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, has_touch=True)
    page = context.new_page()
    page.goto(live_server + "/contract")
    page.wait_for_selector("body[data-ready='1']")
    page.evaluate("() => { document.body.dataset.playSeed = '2'; }")
    page.click("#mode-play")
    page.select_option("#play-ai", "greedy")
    page.select_option("#play-players", "3")
    page.click("#new-game")
    for _ in range(60):
        page.locator("#play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
        if page.locator("#play-table .meld-row").count() >= 3:
            break
        page.click("#hint-btn")
        page.locator("#actions button.hinted").click()
        page.wait_for_timeout(100)
    page.locator("#play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
    page.click("#hint-btn")
    page.locator("#actions button.hinted").wait_for()
    page.evaluate("() => document.querySelector('#board').scrollIntoView({ block: 'start' })")
    page.wait_for_timeout(200)
    out = (SHOTS or tmp_path) / "web-phone-contract.png"
    out.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(out))
    assert out.stat().st_size > 10_000
    assert page.locator("#play-table .meld-row").count() >= 1
    context.close()
