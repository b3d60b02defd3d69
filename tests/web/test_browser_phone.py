"""The page on a phone (390x844, touch) and at 320 px: docked picker, answer in view, one Solve,
rule help on tap, the four-colour deck, hands sorted by rank."""

from __future__ import annotations

from typing import Any

import pytest

from solver.extras import require
from tests.web.pages import PHONE
from tests.web.pages import open_page as _open

expect = require("playwright.sync_api", "web").expect

from tests.web.axe import assert_clean  # noqa: E402


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return dict(box)


def test_five_melds_by_taps_zone_and_picker_both_in_view(phone: Any) -> None:
    """Tapping a five-meld position: after every tap the zone being filled and the docked picker
    are both in the viewport, the zone above the picker; the test never scrolls the page."""
    _open(phone, "/manipulation")
    melds = ["3H 4H 5H", "7C 8C 9C", "JS JH JD", "2D 3D 4D", "QC QD QS"]
    taps = [("hand", c) for c in ("6S", "KD", "9H")]
    for i, meld in enumerate(melds):
        taps += [(f"meld{i}", c) for c in meld.split()]
    zone = "hand"
    for where, code in taps:
        if where != zone:
            zone = where
            phone.tap("#picker-next" if where == "meld0" else "#picker-new-meld")
        phone.tap(f"#picker .chip[data-card='{code}']")
        z = _box(phone, ".zone.active")
        p = _box(phone, "#picker")
        assert z["y"] >= 0 and z["y"] + z["height"] <= p["y"] + 1, (where, code, z, p)
        assert p["y"] + p["height"] <= PHONE["height"] + 1
    values = phone.locator(".zone[data-kind='meld'] input").evaluate_all("els => els.map(e => e.value)")
    assert values == melds
    phone.tap("#solve-btn")
    phone.wait_for_selector("#answer-head", timeout=30000)
    phone.wait_for_timeout(100)
    head = _box(phone, "#answer-head")
    assert head["y"] >= 0 and head["y"] + head["height"] <= PHONE["height"]
    assert_clean(phone, "phone, five melds solved")


@pytest.mark.parametrize("path", ["/manipulation", "/contract", "/zsy", "/contract#play"])
def test_no_horizontal_overflow_at_320(browser: Any, live_server: str, path: str) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 700}, has_touch=True)
    page = context.new_page()
    page.goto(live_server + path)
    page.wait_for_selector("body[data-ready='1']")
    page.locator("#rules summary").click() if path != "/contract#play" else None
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    context.close()


def test_one_solve_control_and_rule_help_on_tap(phone: Any) -> None:
    _open(phone, "/manipulation")
    solve = phone.get_by_role("button", name="Solve", exact=True)
    assert solve.count() == 1
    phone.tap("#rules summary")
    help_text = phone.locator("#help-decks")
    assert help_text.is_hidden()
    phone.tap("button[aria-controls='help-decks']")
    expect(help_text).to_be_visible()
    assert help_text.inner_text().strip()
    assert phone.get_attribute("button[aria-controls='help-decks']", "aria-expanded") == "true"


RED, BLUE, GREEN, INK = (200, 16, 46), (11, 92, 173), (27, 122, 53), (27, 27, 31)


def _drawn(page: Any, selector: str) -> dict[tuple[int, int, int], int]:
    """How many pixels of each suit colour the card drawn at ``selector`` shows (a screenshot:
    what is on the screen, not what the sprite says)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(page.locator(selector).first.screenshot())).convert("RGB")
    out = dict.fromkeys((RED, BLUE, GREEN, INK), 0)
    width, height = image.size
    for pixel in (image.getpixel((x, y)) for x in range(width) for y in range(height)):
        for colour in out:
            if isinstance(pixel, tuple) and sum(abs(a - b) for a, b in zip(pixel, colour, strict=True)) < 60:
                out[colour] += 1
    return out


def test_four_colour_deck(phone: Any) -> None:
    """The switch recolours the cards drawn (read from the screen: diamonds blue, clubs green), also
    those drawn before it was set, and leaves the page's text dark on light (it made the body white)."""
    _open(phone, "/manipulation#hand=7D+7C")
    diamond, club = "#position .card[data-card='7D']", "#position .card[data-card='7C']"
    before = _drawn(phone, diamond), _drawn(phone, club)
    assert before[0][RED] > 50 and before[0][BLUE] == 0 and before[1][INK] > 50 and before[1][GREEN] == 0
    phone.tap("#four-colour")
    after = _drawn(phone, diamond), _drawn(phone, club)
    assert after[0][BLUE] > 50 and after[0][RED] == 0, after
    assert after[1][GREEN] > 50 and after[1][INK] < before[1][INK] // 4, after
    text = "() => getComputedStyle(document.querySelector('#answer p')).color"
    assert phone.evaluate(text) not in ("rgb(255, 255, 255)",)
    assert phone.evaluate("() => getComputedStyle(document.body).color") != "rgb(255, 255, 255)"
    _open(phone, "/contract#hand=9D")  # the choice is kept, and cards drawn afresh use it
    drawn = _drawn(phone, "#position .card[data-card='9D']")
    assert drawn[BLUE] > 50 and drawn[RED] == 0
    assert_clean(phone, "four-colour deck")


def test_hand_sorted_by_rank_or_suit(phone: Any) -> None:
    _open(phone, "/zsy")
    phone.tap("#mode-play")
    phone.select_option("#play-ai", "greedy")
    phone.tap("#new-game")
    phone.wait_for_selector("#my-hand .card")
    order = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"]
    suits = ["S", "H", "C", "D"]

    def rank(c: str) -> int:
        return order.index(c if c in ("BJ", "RJ") else c[:-1])

    def suit(c: str) -> int:
        return 4 if c in ("BJ", "RJ") else suits.index(c[-1])

    hand = [str(c) for c in phone.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")]
    assert hand == sorted(hand, key=lambda c: (rank(c), suit(c)))
    phone.select_option("#play-sort", "suit")
    hand = [str(c) for c in phone.locator("#my-hand .card").evaluate_all("els => els.map(e => e.dataset.card)")]
    assert hand == sorted(hand, key=lambda c: (suit(c) if c not in ("BJ", "RJ") else 9, rank(c)))
