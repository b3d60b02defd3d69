"""Whole games against AI players in the browser, by taps alone, through the seat API.

Every turn the player asks for the hint, the hint marks exactly one button, and that
button is tapped. The games are whole: Zheng Shang You to its target score, Contract
all seven rounds (each round bounded by the engine's `turn_limit`, so the test's time is
bounded whatever the deal); the page takes such engine options and rules from
`document.body.dataset.playOptions` / `playRules` (JSON), as a test or an embedding page sets them."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import pytest

from solver.extras import require
from tests.web.axe import assert_clean
from tests.web.pages import open_page as _open

require("playwright.sync_api", "web")

SEED = os.environ.get("SHANGHAI_PLAY_SEED", "2")
"""The Contract deal of the test: one where a lay-down, a lay-off and a discard with other actions all come up."""


def _play_by_hints(page: Any, turns: int, stop_at_end: bool = True) -> dict[str, int]:
    """Tap Hint, check it marks one button, tap that button; until the game ends."""
    seen = {"turns": 0}
    for _ in range(turns):
        page.locator("#final, #play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
        if page.locator("#final").count():
            return seen
        page.click("#hint-btn")
        hinted = page.locator("#actions button.hinted")
        try:
            hinted.first.wait_for(timeout=30000)
        except Exception:
            actions = page.locator("#actions button").evaluate_all("els => els.map(e => e.dataset.action)")
            pytest.fail("no button hinted: " + page.inner_text("#play-note") + " | legal: " + repr(actions))
        assert hinted.count() == 1, page.inner_text("#play-note")
        hinted.click()
        seen["turns"] += 1
        page.locator("#final, #play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
        try:
            page.wait_for_function(
                "() => !document.querySelector('#play-actions:not([hidden]) #actions button.hinted')"
            )
        except Exception:
            pytest.fail("after the hinted move: " + page.inner_text("#play-note") + " | " + page.inner_text("#log"))
    if stop_at_end:
        pytest.fail(f"the game did not end in {turns} turns")
    return seen


def test_whole_zsy_game_by_taps(page: Any) -> None:
    """Zheng Shang You against three greedy players to the target score (5 here, 11 by default)."""
    _open(page, "/zsy")
    page.evaluate("() => { document.body.dataset.playRules = JSON.stringify({ target: 5 }); }")
    page.click("#mode-play")
    page.select_option("#play-ai", "greedy")
    start = time.monotonic()
    page.click("#new-game")
    seen = _play_by_hints(page, 1500)
    final = page.locator("#final")
    assert final.count() == 1
    assert_clean(page, "zsy, the game over")
    scores = [int(s) for s in page.locator("#board .seat .score").all_inner_texts()]
    assert max(scores) >= 5
    assert page.locator("#log li").count() > seen["turns"]
    with page.expect_download() as download:
        page.click("#record-btn")
    record = json.loads(Path(download.value.path()).read_text())
    assert record["game"] == "zsy" and record["actions"]
    print(f"zsy: {seen['turns']} turns in {time.monotonic() - start:.1f} s")


def _my_moves(page: Any) -> list[str]:
    return [
        str(a) for a in page.locator("#log li[data-player='0']").evaluate_all("els => els.map(e => e.dataset.action)")
    ]


def _tap_card(page: Any, code: str) -> None:
    page.locator(f"#my-hand .card[data-card='{code}']:not(.selected)").first.click()


def _taps(page: Any, done: set[str]) -> bool:
    """The first time each is possible: a lay-down built by tapping its melds, a lay-off by a card
    then a meld, a discard that waits for its confirmation and is undone. True when it moved."""
    legal = [str(a) for a in page.locator("#actions button").evaluate_all("els => els.map(e => e.dataset.action)")]
    moves = len(_my_moves(page))
    discard = next((a for a in legal if a.startswith("discard ")), None)
    if discard and len(legal) > sum(a.startswith("discard ") for a in legal) and "confirm" not in done:
        _tap_card(page, discard.split()[1])
        page.locator(f"#selection button[data-action='{discard}']").wait_for()
        assert len(_my_moves(page)) == moves  # not sent before its confirmation
        page.click("#undo-btn")
        assert page.locator("#my-hand .card.selected").count() == 0
        done.add("confirm")
    lay = next((a for a in legal if a.startswith("laydown ")), None)
    if lay and "laydown" not in done:
        for meld in lay.removeprefix("laydown ").split(" | "):
            for code in meld.split():
                _tap_card(page, code.split("=")[0])
            page.click("#add-meld-btn")
        page.click("#laydown-btn")
        page.wait_for_function(f"() => document.querySelectorAll(\"#log li[data-player='0']\").length > {moves}")
        assert _my_moves(page)[-1] == re.sub(r"=\S+", "", lay)  # the melds as tapped (wilds' roles left to the engine)
        done.add("laydown")
        return True
    layoff = next((a for a in legal if a.startswith("layoff ")), None)
    if layoff and "layoff" not in done:
        _, meld, code = layoff.split()
        _tap_card(page, code.split("=")[0])
        page.click(f"[data-meld-target='{meld}']")
        page.wait_for_function(f"() => document.querySelectorAll(\"#log li[data-player='0']\").length > {moves}")
        assert _my_moves(page)[-1].startswith(f"layoff {meld} {code.split('=')[0]}")
        done.add("layoff")
        return True
    return False


def test_whole_contract_game_by_taps(page: Any) -> None:
    """Contract against two greedy players, all seven rounds, with the running score."""
    _open(page, "/contract")
    page.evaluate(
        "() => { document.body.dataset.playOptions = JSON.stringify({ turn_limit: 10 }); document.body.dataset.playSeed = '"
        + SEED
        + "'; }"
    )
    page.click("#mode-play")
    page.select_option("#play-ai", "greedy")
    page.select_option("#play-players", "3")
    start = time.monotonic()
    page.click("#new-game")
    rounds: set[str] = set()
    done: set[str] = set()
    seen = {"turns": 0}
    for _ in range(2000):
        page.locator("#final, #play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
        if page.locator("#final").count():
            break
        if not rounds:
            assert_clean(page, "contract, the first turn")
        rounds.add(page.inner_text("#game-info").split(":")[0])
        if _taps(page, done):
            continue
        seen["turns"] += _play_by_hints(page, 1, stop_at_end=False)["turns"]
    assert page.locator("#final").count() == 1
    assert_clean(page, "contract, the game over")
    # A deal without a lay-off for the player: further deals, each only until one comes up.
    for seed in ("3", "4", "5", "6", "7"):
        if "layoff" in done:
            break
        page.evaluate("(s) => { document.body.dataset.playSeed = s; }", seed)
        page.click("#new-game")
        page.locator("#final").wait_for(state="detached", timeout=60000)
        for _ in range(150):
            page.locator("#final, #play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
            if page.locator("#final").count() or "layoff" in done:
                break
            if not _taps(page, done):
                _play_by_hints(page, 1, stop_at_end=False)
    assert done == {"laydown", "layoff", "confirm"}, done
    assert {f"round {n} of 7" for n in range(1, 8)} <= rounds, rounds
    print(f"contract: {seen['turns']} turns in {time.monotonic() - start:.1f} s")


def test_manipulation_hints_mark_their_button(page: Any) -> None:
    """Ten Manipulation turns (the issue counted 5 of 16 hints marking no button): each hint
    marks exactly one button, and each AI play is logged as the cards it put down."""
    _open(page, "/manipulation")
    page.evaluate("() => { document.body.dataset.playSeed = '3'; }")
    page.click("#mode-play")
    page.select_option("#play-ai", "greedy")
    page.select_option("#play-players", "3")
    page.click("#new-game")
    seen = _play_by_hints(page, 10, stop_at_end=False)
    assert seen["turns"] >= 1
    plays = page.locator("#log li:not([data-player='0'])[data-action^='play ']")
    for i in range(plays.count()):
        assert plays.nth(i).inner_text().split("\n")[0].count("|") == 0  # not the whole table
