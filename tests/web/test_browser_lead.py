"""Zheng Shang You lead positions on the page (a two-player endgame: the last opponent's hand, you
to lead): the opponent's zone, the link `shanghai post` writes, the puzzle file, the answer's
winning leads and line, and its texts in every language."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from solver.answers import solve_puzzle
from solver.extras import require
from solver.generate.post import page_link
from solver.puzzles import ZsyPosition, load
from tests.web.pages import cards as _cards
from tests.web.pages import open_page as _open
from tests.web.pages import solve as _solve
from tests.web.test_i18n_browser import _VISIBLE_TEXTS, CATALOGUES, _english_left

expect = require("playwright.sync_api", "web").expect

ROOT = Path(__file__).resolve().parents[2]
TRAP = ROOT / "puzzles" / "zsy" / "lead-flush-trap.toml"
"""The flush the opponent cannot beat loses; the pair 5H 5C is the one winning lead."""
EN = CATALOGUES["en"]


def _zone(page: Any, kind: str) -> list[str]:
    return _cards(page.locator(f".zone[data-kind='{kind}'] .cards .card"))


def _hash(page: Any) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).fragment)


def _shown_line(page: Any) -> list[dict[str, Any]]:
    """The line as the page shows it: each step's side, cards and kind word (None for a pass)."""
    steps = page.locator("#line li")
    out = []
    for i in range(steps.count()):
        li = steps.nth(i)
        kind = li.locator(".kind")
        out.append(
            {
                "side": li.get_attribute("data-side"),
                "cards": _cards(li.locator(".card")) or None,
                "kind": kind.inner_text() if kind.count() else None,
                "text": li.inner_text(),
            }
        )
    return out


def test_a_posted_lead_opens_as_the_endgame_and_solves(page: Any) -> None:
    """The link `shanghai post` writes for a lead puzzle (post.py `page_link`, `opponent=`) opens
    the hand and the opponent's hand; Solve shows the one winning lead and the line the library
    gives, step by step (who plays what, the passes)."""
    puzzle = load(TRAP)
    link = page_link(puzzle, page.base)
    assert "opponent=" in link
    _open(page, link[len(page.base) :])
    pos = puzzle.position
    assert isinstance(pos, ZsyPosition) and pos.opponent is not None
    assert sorted(_zone(page, "hand")) == sorted(str(pos.hand).split())
    assert sorted(_zone(page, "opponent")) == sorted(str(pos.opponent).split())
    assert _zone(page, "beat") == []
    assert page.locator(".zone[data-kind='opponent'] .label").inner_text() == EN["zone.opponent_hand"]
    _solve(page)
    want = solve_puzzle(puzzle).data["endgame"]
    assert len(want["winning"]) == 1 and want["winning"][0]["cards"] == ["5H", "5C"]
    expect(page.locator("#answer-head")).to_contain_text(f"1 of {want['lead_count']} leads wins")
    assert sorted(_cards(page.locator("#endgame-opponent .card"))) == sorted(want["opponent"])
    winning = page.locator("#winning .reply")
    assert winning.count() == 1
    assert _cards(winning.locator(".card")) == ["5H", "5C"]
    assert winning.locator(".kind").inner_text() == EN["verb.set"]
    shown = _shown_line(page)
    assert [s["side"] for s in shown] == [s["side"] for s in want["line"]]
    assert [s["cards"] for s in shown] == [s["cards"] for s in want["line"]]
    assert [s["kind"] for s in shown] == [EN[f"verb.{s['kind']}"] if s["kind"] else None for s in want["line"]]
    passes = [s for s in shown if s["cards"] is None]
    assert passes and all(EN["endgame.passes"] in s["text"] and EN["endgame.opponent"] in s["text"] for s in passes)
    assert EN["endgame.you"] in shown[0]["text"]
    expect(page.locator("#line-end")).to_have_text(EN["endgame.you_out"])
    # The advice names the winning lead and says why, in the page's words (not the engine's English).
    expect(page.locator("#advice")).to_contain_text("wins however the opponent defends (1 winning lead)")
    assert page.locator("#advice [lang='en']").count() == 0


def test_a_lead_entered_by_taps_is_shared_as_link_and_file(page: Any, tmp_path: Path) -> None:
    """The opponent's zone is filled by tapping cards; the address and the downloaded puzzle file
    carry it (`opponent`), and the file uploaded again fills the zone."""
    _open(page, "/zsy")
    for code in ("3S", "4H", "5D", "7C", "KC"):
        page.click(f"#picker .chip[data-card='{code}']")
    page.click(".zone[data-kind='opponent'] .label")
    expect(page.locator("#picker-target b")).to_have_text(EN["zone.opponent_hand"])
    for code in ("6H", "10H", "AS"):
        page.click(f"#picker .chip[data-card='{code}']")
    assert _zone(page, "opponent") == ["6H", "10H", "AS"]
    # The deck is counted across both hands: AS is used up (one deck).
    assert page.locator("#picker .chip[data-card='AS']").is_disabled()
    assert _hash(page)["opponent"] == ["6H 10H AS"] and _hash(page)["hand"] == ["3S 4H 5D 7C KC"]
    _solve(page)
    assert _cards(page.locator("#winning .reply .card")) == ["3S", "4H", "5D"]
    with page.expect_download() as download:
        page.click("#download-btn")
    saved = Path(download.value.path()).read_text(encoding="utf-8")
    data = tomllib.loads(saved)
    assert sorted(data["position"]["opponent"].split()) == ["10H", "6H", "AS"] and "to_beat" not in data["position"]
    # The link opens the same position in a fresh page; the file uploaded fills the zone again.
    link = page.url
    _open(page, "/zsy")
    assert _zone(page, "opponent") == []
    path = tmp_path / "lead.toml"
    path.write_text(saved, encoding="utf-8")
    page.set_input_files("#upload", str(path))
    expect(page.locator(".zone[data-kind='opponent'] .cards .card")).to_have_count(3)
    assert sorted(_hash(page)["opponent"][0].split()) == ["10H", "6H", "AS"]
    page.goto("about:blank")
    page.goto(link)
    page.wait_for_selector("body[data-ready='1']")
    assert _zone(page, "opponent") == ["6H", "10H", "AS"]


def test_beat_and_opponent_both_filled_is_named(page: Any) -> None:
    """A position is a reply or an endgame lead: with both zones filled the opponent's zone says
    so (in the page's words) and Solve names it; a bad card typed there is shown under it."""
    _open(page, "/zsy#hand=3S+4H+5D&beat=4S&opponent=6H+10H")
    message = page.locator(".zone[data-kind='opponent'] .error")
    expect(message).to_have_text(EN["zone.beat_or_opponent"])
    assert page.locator(".zone[data-kind='opponent'] input").get_attribute("aria-invalid") == "true"
    page.click("#solve-btn")
    expect(page.locator("#solve-error")).to_have_text(f"Fix the position first: {EN['zone.beat_or_opponent']}")
    # Clearing the combination to beat leaves a valid lead position.
    page.locator(".zone[data-kind='beat'] input").fill("")
    expect(message).to_have_count(0)
    page.locator(".zone[data-kind='opponent'] input").fill("6H XX")
    expect(message).to_contain_text("position.opponent: malformed card 'XX'")
    assert page.locator(".zone[data-kind='hand'] .error").count() == 0


def test_no_lead_wins_is_said(page: Any) -> None:
    """When every lead loses the answer says so, with no winning lead and no line."""
    _open(page, "/zsy#hand=3S+4D&opponent=RJ+BJ")
    _solve(page)
    expect(page.locator("#answer-head")).to_contain_text("No lead wins: all 2 leads lose against the best defence")
    expect(page.locator("#no-winning-lead")).to_have_text(EN["endgame.no_lead_wins"])
    assert page.locator("#winning").count() == 0 and page.locator("#line").count() == 0


@pytest.mark.parametrize("lang", ["fi", "de", "nb"])
def test_the_lead_answer_in_every_language(page: Any, lang: str) -> None:
    """The endgame's texts (zone, head, winning leads, line, passes, the advice) in Finnish, German
    and Norwegian: no English message left (as tests/web/test_i18n_browser.py checks the page)."""
    _open(page, f"/zsy?lang={lang}#opponent=10S+JH+QD+KC&hand=5H+6H+7H+8D+5C")
    _solve(page)
    page.wait_for_selector("#line li")
    ours = CATALOGUES[lang]
    assert page.locator(".zone[data-kind='opponent'] .label").inner_text() == ours["zone.opponent_hand"]
    expect(page.locator("#line-end")).to_have_text(ours["endgame.you_out"])
    assert page.locator("#advice [lang='en']").count() == 0
    left = _english_left(page.evaluate(_VISIBLE_TEXTS), lang)
    assert not left, left
    for _ in range(page.locator("#line li").count()):  # the replay to its end: your hand is empty
        page.click("#step-btn")
    expect(page.locator("#line-board [data-hand='you']")).to_contain_text(ours["contract.empty"])
    left = _english_left(page.evaluate(_VISIBLE_TEXTS), lang)
    assert not left, left


def test_the_line_steps_one_play_at_a_time(page: Any) -> None:
    """Step replays the line: after each step both hands are what is left of them once that step's
    cards are played, the step is marked in the list with its cards framed; Again starts over."""
    _open(page, "/zsy#opponent=6H+10H+AS&hand=3S+4H+5D+7C+KC")
    _solve(page)
    line = [(s["side"], s["cards"]) for s in _shown_line(page)]
    assert line[0] == ("you", ["3S", "4H", "5D"]) and ("opponent", None) in line
    hands = {"you": ["3S", "4H", "5D", "7C", "KC"], "opponent": ["6H", "10H", "AS"]}

    def shown_hand(side: str) -> list[str]:
        return sorted(_cards(page.locator(f"#line-board [data-hand='{side}'] .card")))

    assert shown_hand("you") == sorted(hands["you"]) and shown_hand("opponent") == sorted(hands["opponent"])
    for i, (side, played) in enumerate(line):
        page.click("#step-btn")
        for c in played or []:
            hands[side].remove(c)
        assert shown_hand("you") == sorted(hands["you"]), i
        assert shown_hand("opponent") == sorted(hands["opponent"]), i
        current = page.locator("#line li.current")
        assert current.count() == 1 and page.locator("#line li").nth(i).get_attribute("class") == "current"
        assert current.locator(".card.played").count() == len(played or [])
        assert page.locator("#line li.done").count() == i
    assert hands["you"] == [] and hands["opponent"]  # you go out first
    expect(page.locator("#line-board [data-hand='you']")).to_contain_text(EN["contract.empty"])
    expect(page.locator("#step-btn")).to_have_text(EN["answer.step_again"])
    page.click("#step-btn")  # again: the first step of a fresh start
    assert page.locator("#line li").nth(0).get_attribute("class") == "current"
    page.click("#replay-btn")
    assert page.locator("#line li.current, #line li.done").count() == 0
    assert shown_hand("you") == ["3S", "4H", "5D", "7C", "KC"]
