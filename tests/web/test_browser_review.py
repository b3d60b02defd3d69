"""The game review on the page (issue 40): a Review button at a game's end and for a loaded record,
the loss of each decision as a graph, the biggest mistakes stepped through on the table; the numbers
are the library's review of the same record (``solver.engine.review``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from solver.engine import load_record
from solver.engine.review import review_game
from solver.extras import require
from tests.web.axe import assert_clean
from tests.web.pages import open_page as _open

require("playwright.sync_api", "web")


def _new_zsy(page: Any) -> None:
    page.evaluate(
        "() => { document.body.dataset.playSeed = '3'; document.body.dataset.playOptions = JSON.stringify({ max_hands: 1 });"
        " document.body.dataset.playRules = JSON.stringify({ target: 99 }); }"
    )
    page.click("#mode-play")
    page.select_option("#play-ai", "greedy")
    page.click("#new-game")


def _play_badly(page: Any) -> None:
    """Each turn the last action listed (a pass where one is allowed: a poor player), to the end."""
    for _ in range(400):
        page.locator("#final, #play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
        if page.locator("#final").count():
            return
        moves = page.locator("#log li").count()
        page.locator("#actions button").last.click()
        page.wait_for_function(
            f"() => document.querySelectorAll('#log li').length > {moves} || document.querySelector('#final')"
        )
    pytest.fail("the game did not end")


def _review(page: Any) -> dict[str, Any]:
    with page.expect_response("**/api/review", timeout=60000) as answer:
        page.click("#review-btn")
    page.locator("#review-summary").wait_for(timeout=60000)
    data: dict[str, Any] = answer.value.json()
    return data


def _cards(page: Any, selector: str) -> list[str]:
    return [str(c) for c in page.locator(selector).evaluate_all("els => els.map(e => e.dataset.card)")]


def test_review_at_the_end_and_its_mistakes_on_the_table(page: Any, tmp_path: Path) -> None:
    _open(page, "/zsy")
    assert page.locator("#review-btn").is_disabled()
    _new_zsy(page)
    assert page.locator("#review-btn").is_disabled()  # the deal is secret until the end
    _play_badly(page)
    with page.expect_download() as download:
        page.click("#record-btn")
    record = Path(download.value.path()).read_text()
    data = _review(page)
    own = review_game(load_record(record), 0, time_limit=1.0).to_json()
    for key in ("total_loss", "accuracy", "mistakes", "decisions"):
        assert data[key] == own[key], key
    assert data["mistakes"], "a poor player makes mistakes"
    summary = page.inner_text("#review-summary")
    assert summary.startswith(f"{own['decisions']} decisions judged, total loss {own['total_loss']:g} play")
    bars = page.locator("#review-graph rect")
    assert bars.count() == len(own["moves"])
    assert page.locator("#review-graph rect.lost").count() == sum(1 for m in own["moves"] if m["loss"] > 0)
    assert page.get_attribute("#review-graph", "role") == "img"
    moves = {m["index"]: m for m in own["moves"]}
    positions = {p["index"]: p for p in data["positions"]}
    for k, index in enumerate(data["mistakes"]):
        assert page.inner_text("#review-step") == f"Mistake {k + 1} of {len(data['mistakes'])}"
        assert page.get_attribute("#review-graph rect.current", "data-index") == str(index)
        assert page.inner_text("#review-mistake .loss").startswith(f"{moves[index]['loss']:g} play")
        hand = _cards(page, "#review-hand .card")
        assert sorted(hand) == sorted(positions[index]["hand"])
        taken = moves[index]["taken"]
        played = taken.split(":", 1)[1].split() if ":" in taken else []
        assert _cards(page, "#review-mistake .taken .card") == played and set(played) <= set(hand)
        best = moves[index]["best"]
        framed = _cards(page, "#review-hand .card.played")
        assert sorted(framed) == sorted(best.split(":", 1)[1].split() if ":" in best else [])
        if k == 0:
            assert page.locator("#review-prev").is_disabled()
            assert_clean(page, "the review")
        if k < len(data["mistakes"]) - 1:
            page.click("#review-next")
    assert page.locator("#review-next").is_disabled()
    # A record loaded and not finished is reviewed as loaded (the part played).
    part = json.loads(record)
    part["actions"] = part["actions"][: len(part["actions"]) // 2]
    path = tmp_path / "part.json"
    path.write_text(json.dumps(part))
    page.set_input_files("#record-upload", str(path))
    page.locator("#play-actions:not([hidden]) #actions button, #final").first.wait_for(timeout=60000)
    assert page.locator("#review").is_hidden()
    assert page.locator("#review-btn").is_enabled()
    data = _review(page)
    own = review_game(load_record(json.dumps(part)), 0, time_limit=1.0).to_json()
    assert (data["decisions"], data["total_loss"]) == (own["decisions"], own["total_loss"])
    assert len(own["moves"]) < len(moves)


def test_review_in_finnish(page: Any) -> None:
    """The review's texts in the page's language (no English message visible)."""
    page.goto(page.base + "/zsy?lang=fi")
    page.wait_for_selector("body[data-ready='1']", timeout=20000)
    _new_zsy(page)
    _play_badly(page)
    _review(page)
    text = page.inner_text("#review")
    assert text.startswith("Pelin analyysi") and "päätöstä arvioitu" in text and "Virhe 1/" in text, text
    for english in ("decisions judged", "Mistake", "You played", "Best", "Loss", "Your hand"):
        assert english not in text, english
