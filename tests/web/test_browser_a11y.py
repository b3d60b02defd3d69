"""Accessibility (WCAG 2.1 AA) in the real browser: axe-core clean on every state visited,
keyboard-only entry and solve with focus kept, cards named, landmarks and an h1."""

from __future__ import annotations

from typing import Any

import pytest

from solver.extras import require
from tests.web.axe import assert_clean
from tests.web.pages import open_page as _open
from tests.web.pages import solve as _solve

expect = require("playwright.sync_api", "web").expect


@pytest.mark.parametrize(
    "path",
    [
        "/manipulation#preset=norwegian&table=3H+4H+5H+6H+|+3C+4C+5C+6C&hand=6S+KD",
        "/contract#preset=us&o.deal=7&round=1&table=1:8S+8H+8D+|+1:JS+JH+JD&hand=5H+5D+5S+7C+7D+9H+KS&discard=7H",
        "/zsy#hand=3H+6H+6D+4S+5S+7S+8S+KD+RJ&beat=4H+4C",
        "/zsy#opponent=10S+JH+QD+KC&hand=5H+6H+7H+8D+5C",  # a two-player endgame: the winning lead, the line
    ],
)
def test_axe_entry_rules_and_answer(page: Any, path: str) -> None:
    _open(page, path)
    assert_clean(page, "entry")
    page.click("#rules summary")
    page.locator("#rules-body button.help").first.click()
    assert_clean(page, "rules open, help shown")
    _solve(page)
    if page.locator("#step-btn").count():
        page.click("#step-btn")
    assert_clean(page, "answer")
    page.locator(".zone[data-kind='hand'] input").fill("6S XX")
    page.wait_for_selector(".zone[data-kind='hand'] .error")
    assert_clean(page, "inline error")


def test_axe_play_and_phone(browser: Any, live_server: str) -> None:
    for viewport in ({"width": 390, "height": 844}, {"width": 1366, "height": 768}):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(live_server + "/contract")
        page.wait_for_selector("body[data-ready='1']")
        page.click("#mode-play")
        assert_clean(page, f"play, before a game ({viewport})")
        page.select_option("#play-ai", "greedy")
        page.click("#new-game")
        page.wait_for_selector("#my-hand .card")
        page.locator("#play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
        page.click("#hint-btn")
        page.locator("#actions button.hinted").wait_for()
        page.locator("#my-hand .card").first.click()
        assert_clean(page, f"play, a card selected, hinted ({viewport})")
        context.close()


def test_landmarks_h1_and_card_names(page: Any) -> None:
    _open(page, "/manipulation#table=3H+4H+5H&hand=KS+RJ")
    assert page.locator("h1").count() == 1
    for role in ("banner", "main", "contentinfo"):
        assert page.get_by_role(role).count() == 1, role
    assert page.get_attribute(".zone[data-kind='hand'] .card[data-card='KS']", "aria-label") == "king of spades"
    assert page.get_attribute("#picker .chip[data-card='KS']", "aria-label").startswith("K 1/2, king of spades, 1 of")


def _tab_to(page: Any, selector: str, limit: int = 300) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement.matches(s)", selector):
            return
    pytest.fail(f"Tab never reached {selector}")


def _arrow_to(page: Any, code: str) -> None:
    """From a picker card to another with the arrow keys (the picker is one Tab stop): along the
    suit's row, then up or down the suits."""
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    suits = ["S", "H", "D", "C"]
    here = str(page.evaluate("() => document.activeElement.dataset.card"))
    for _ in range(abs(suits.index(code[-1]) - suits.index(here[-1]))):
        page.keyboard.press("ArrowDown" if suits.index(code[-1]) > suits.index(here[-1]) else "ArrowUp")
    for _ in range(abs(ranks.index(code[:-1]) - ranks.index(here[:-1]))):
        page.keyboard.press("ArrowRight" if ranks.index(code[:-1]) > ranks.index(here[:-1]) else "ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.card") == code


def test_keyboard_only_entry_and_solve(page: Any) -> None:
    """Tab to the picker (one Tab stop), the arrow keys to a card, Enter on cards (focus stays on
    the card), Tab to Solve, Enter; the upload button is reachable; the focus ring is visible (an
    outline of at least 2 px)."""
    _open(page, "/manipulation#preset=norwegian&table=3H+4H+5H+6H+|+3C+4C+5C+6C")
    _tab_to(page, "#picker .chip")
    _arrow_to(page, "6S")
    page.keyboard.press("Enter")
    # One deck: 6S is used up (disabled), so the focus goes on to the next free card.
    assert page.evaluate("() => document.activeElement.dataset.card") == "7S"
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert ring[0] != "none" and ring[1] >= 2
    _arrow_to(page, "KD")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.dataset.card") in ("AC", "2C")
    expect(page.locator(".zone[data-kind='hand'] input")).to_have_value("6S KD")
    _tab_to(page, "#solve-btn")
    page.keyboard.press("Enter")
    page.wait_for_selector("#answer-head")
    assert "Play 1 card" in page.inner_text("#answer-head")
    _tab_to(page, "#upload-btn")
    _tab_to(page, "#mode-play", 400)
    ring = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement); return [s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor]; }"
    )
    assert ring[0] != "none" and ring[1] >= 2


def test_the_hint_by_keyboard_announced_and_focus_kept_after_each_move(page: Any) -> None:
    """Hint by keyboard: the focus goes to the hinted button, which says it is the hint's choice to
    a screen reader (its accessible description, not only a dashed outline); after each move made
    with Enter the focus stays in the game (it fell to the body after 6 of 15 moves)."""
    _open(page, "/zsy")
    page.click("#mode-play")
    page.select_option("#play-ai", "greedy")
    page.click("#new-game")
    page.wait_for_selector("#actions button")
    for move in range(8):
        page.locator("#play-actions:not([hidden]) #actions button").first.wait_for(timeout=30000)
        page.focus("#hint-btn")
        page.keyboard.press("Enter")
        hinted = page.locator("#actions button.hinted")
        hinted.wait_for(timeout=30000)
        expect(hinted).to_be_focused()
        expect(hinted).to_have_accessible_description("the hint's choice")
        page.keyboard.press("Enter")
        page.wait_for_selector("body:not([data-busy])")
        page.wait_for_function("() => !document.querySelector('#actions button.hinted')")
        if page.locator("#final").count():
            break
        assert page.evaluate("() => document.activeElement !== document.body && document.activeElement !== null"), move
        assert page.evaluate("() => !!document.activeElement.closest('#play-view')"), move
    assert_clean(page, "a game's hinted button")
