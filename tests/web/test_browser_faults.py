"""The page's faults of issue 27, each a browser test that fails without its fix (docs/web.md lists them)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from solver.extras import require
from tests.web.pages import cards as _cards
from tests.web.pages import open_page as _open
from tests.web.pages import solve as _solve

expect = require("playwright.sync_api", "web").expect

ROOT = Path(__file__).resolve().parents[2]


def _cli(path: Path) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-m", "cli", "solve", "--json", str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
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


def test_a_position_error_is_named_not_undefined(page: Any) -> None:
    """An error of the whole position (no zone of its own) is the message shown on Solve."""
    _open(page, "/manipulation#preset=norwegian&table=6S+6H+6C&hand=6S+KD")
    page.click("#solve-btn")
    text = page.locator("#solve-error").inner_text()
    assert "undefined" not in text
    assert "2 copies of 6S" in text


def test_the_address_follows_a_rule_change(page: Any) -> None:
    """The link in the address bar holds the rules chosen, not the ones of the last card tap."""
    _open(page, "/manipulation#hand=6S+KD")
    page.click("#rules summary")
    page.select_option("#preset", "norwegian")
    expect(page.locator("#rules-summary")).to_have_text(re.compile("^norwegian"))
    expect(page).to_have_url(re.compile("preset=norwegian"))
    page.locator("#rules-body input[name='decks']").fill("2")
    page.locator("#rules-body input[name='decks']").dispatch_event("change")
    expect(page).to_have_url(re.compile("o.decks=2"))
    assert "hand=6S+KD" in page.url


def test_another_link_in_the_same_tab_drops_the_old_answer(page: Any) -> None:
    _open(page, "/manipulation#preset=norwegian&table=3H+4H+5H+6H+|+3C+4C+5C+6C&hand=6S+KD")
    _solve(page)
    assert "Play 1 card" in page.inner_text("#answer-head")
    page.goto(page.base + "/manipulation#preset=norwegian&table=3H+4H+5H&hand=9C+KD")
    expect(page.locator(".zone[data-kind='hand'] input")).to_have_value("9C KD")
    assert page.locator("#answer-head").count() == 0
    _solve(page)
    assert "No card can be played" in page.inner_text("#answer-head")


def test_download_keeps_the_title_and_answer(page: Any) -> None:
    """An uploaded puzzle downloaded again keeps its title and [answer]; its title is shown."""
    path = ROOT / "puzzles" / "manipulation" / "hard-1deck-both-1.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    _open(page, "/manipulation")
    page.set_input_files("#upload", str(path))
    expect(page.locator("#share-note")).to_have_text("Puzzle loaded.")
    assert page.locator("#puzzle-title").inner_text() == data["title"]
    assert data["title"] in page.title()
    with page.expect_download() as download:
        page.click("#download-btn")
    back = tomllib.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert back["title"] == data["title"]
    assert back["answer"] == data["answer"]
    assert back["position"] == data["position"]
    # A changed position keeps the title but not an answer that no longer applies.
    page.click(".zone[data-kind='hand'] .card >> nth=0")
    with page.expect_download() as download:
        page.click("#download-btn")
    back = tomllib.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert back["title"] == data["title"] and "answer" not in back


def test_player_counts_follow_the_preset(page: Any) -> None:
    """Play offers only the player counts the chosen preset allows."""
    _open(page, "/zsy")
    page.click("#mode-play")
    counts = page.locator("#play-players option")
    expect(counts).to_have_text([str(n) for n in range(4, 9)])
    page.select_option("#play-preset", "pairs")
    expect(counts).to_have_text(["4"])
    page.select_option("#play-preset", "teams6")
    expect(counts).to_have_text(["6"])
    _open(page, "/manipulation")
    page.click("#mode-play")
    page.select_option("#play-preset", "norwegian")
    expect(page.locator("#play-players option")).to_have_text([str(n) for n in range(2, 6)])


def test_meld_numbers_count_from_one_everywhere(page: Any) -> None:
    """Table melds are numbered from 1 in the answer, the play table and the action buttons
    (the action texts count from 0: `layoff 1 10S` lays off on the second meld)."""
    _open(page, "/contract")
    texts = page.evaluate(
        """async () => {
        const { actionEl } = await import('/static/cards.js');
        return ['layoff 1 10S', 'swap 0 10C 2S 1', 'swap 2 5S 1=6S'].map((a) => actionEl(a).textContent.replace(/\\s+/g, ' ').trim());
    }"""
    )
    assert texts[0] == "layoff meld 2"
    assert texts[1] == "swap meld 1 meld 2"
    assert texts[2] == "swap meld 3 meld 2 as 6S"
    path = ROOT / "puzzles" / "contract" / "layoff-swap-chain.toml"
    page.set_input_files("#upload", str(path))
    expect(page.locator("#share-note")).to_have_text("Puzzle loaded.")
    _solve(page)
    cli = _cli(path)
    tags = page.locator("#contract-facts .meld-row .tag").all_inner_texts()
    assert [t.split(" · ")[0] for t in tags] == [str(i + 1) for i in range(len(cli["layoff"]["table"]))]
    for s in cli.get("swaps") or []:
        assert f"in meld {s['meld'] + 1}; " in page.inner_text("#contract-facts")


def test_zsy_answers_show_plays_left_and_wild_roles(page: Any) -> None:
    _open(page, "/zsy#hand=3H+6H+6D+4S+5S+7S+8S+KD+RJ&beat=4H+4C")
    _solve(page)
    replies = page.locator("#replies .reply")
    first = replies.first
    assert "then 2 plays to go out" in first.inner_text()
    joker = page.locator("#replies .reply .card[data-card='RJ']").first
    assert re.fullmatch(r"red joker as (6|K|8|7|5)", str(joker.get_attribute("aria-label")))
    assert joker.locator(".role").count() == 1


def test_card_fans_stay_in_their_panel(browser: Any, live_server: str) -> None:
    """At 320 px a long Zheng Shang You split wraps inside the answer panel."""
    context = browser.new_context(viewport={"width": 320, "height": 700})
    page = context.new_page()
    hand = "3H+4H+5H+6H+7H+8H+9H+10H+JH+QH+KH+AH+3S+4S+5S+6S+7S+8S+9S+10S"
    page.goto(live_server + f"/zsy#o.min_players=2&hand={hand}")  # 20 cards: a two-player deal
    page.wait_for_selector("body[data-ready='1']")
    page.click("#solve-btn")
    page.wait_for_selector("#answer-head", timeout=30000)
    panel = page.locator("#answer").bounding_box()
    assert panel is not None
    right = panel["x"] + panel["width"]
    edges = page.locator("#answer .card").evaluate_all("els => els.map(e => e.getBoundingClientRect().right)")
    assert edges and max(edges) <= right + 0.5
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320
    context.close()
