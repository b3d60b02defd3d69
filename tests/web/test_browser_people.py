"""Two people at one game through the page (issue 37's must-show): two browser contexts play a whole
Zheng Shang You game against each other through an invite link, against real Redis and two server
processes; each sees only its own hand and the other's moves live (Server-Sent Events fed by Redis
pub/sub across the workers); a reload in the middle resumes the game."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from solver.extras import require
from tests.web.pages import cards

from .test_redis import Server, _db

require("playwright.sync_api", "web")


@pytest.fixture(scope="module")
def two_workers(redis_url: str) -> Iterator[str]:
    s = Server(2, _db(redis_url, 11))
    yield s.url
    s.stop()


def _context(browser: Any, base: str, errors: list[str]) -> Any:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    pg = context.new_page()
    pg.set_default_timeout(20000)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.base = base
    return pg


def _ready(pg: Any) -> None:
    pg.wait_for_selector("body[data-ready='1']", timeout=30000)


def _seat_token(pg: Any) -> tuple[str, str]:
    kept = pg.evaluate("() => JSON.parse(localStorage.getItem('shanghai-games'))[0]")
    return str(kept["game_id"]), str(kept["token"])


def _hand_of(base: str, gid: str, token: str) -> list[str]:
    r = httpx.post(f"{base}/api/observe", json={"game_id": gid, "token": token}, timeout=30)
    assert r.status_code == 200, r.text
    return [str(c) for c in r.json()["hand"]]


def _to_move(pages: list[Any], deadline: float) -> Any | None:
    """The page whose seat is to move (its action buttons shown), or None once both show the end."""
    while time.monotonic() < deadline:
        if all(p.locator("#final").count() for p in pages):
            return None
        for p in pages:
            if p.locator("#play-actions:not([hidden]) #actions button").count():
                return p
        time.sleep(0.1)
    raise AssertionError("neither page came to move: " + " | ".join(p.inner_text("#play-note") for p in pages))


def test_two_people_play_a_whole_zsy_game_through_an_invite(browser: Any, two_workers: str) -> None:
    errors: list[str] = []
    a = _context(browser, two_workers, errors)
    b = _context(browser, two_workers, errors)
    a.goto(two_workers + "/zsy#play")
    _ready(a)
    a.evaluate("() => { document.body.dataset.playOptions = JSON.stringify({ max_hands: 1 }); }")
    a.select_option("#play-humans", "2")
    a.select_option("#play-ai", "greedy")
    a.click("#new-game")
    invite = a.locator("#invites li[data-seat='1'] a")
    invite.wait_for()
    link = str(invite.get_attribute("href"))
    assert "#join=" in link and link.startswith(two_workers + "/zsy")
    b.goto(link)
    _ready(b)
    b.locator("#my-hand .card").first.wait_for()
    assert "join=" not in b.url  # the token leaves the address bar at once
    gid, token_a = _seat_token(a)
    gid_b, token_b = _seat_token(b)
    assert gid_b == gid and token_b != token_a
    # The invite link opened its seat once: its own token no longer acts for seat 1.
    stale = httpx.post(f"{two_workers}/api/observe", json={"game_id": gid, "token": link.rsplit("t=", 1)[1]})
    assert stale.status_code == 403
    moves = 0
    reloaded = False
    deadline = time.monotonic() + 600
    while True:
        mover = _to_move([a, b], deadline)
        if mover is None:
            break
        other = b if mover is a else a
        # Each sees only its own hand: what each page draws is its seat's hand, never the other's.
        mine = sorted(cards(mover.locator("#my-hand .card")))
        seat_token = token_a if mover is a else token_b
        assert mine == sorted(_hand_of(two_workers, gid, seat_token))
        assert mine != sorted(_hand_of(two_workers, gid, token_b if mover is a else token_a))
        seen = other.locator("#log li").count()
        button = mover.locator("#play-actions:not([hidden]) #actions button").first
        action = str(button.get_attribute("data-action"))
        button.click()
        mover.wait_for_selector("body:not([data-busy])")  # its answer in: the AI seats have moved
        # The other page shows the move live, without a request of its own.
        other.wait_for_function(f"() => document.querySelectorAll('#log li').length > {seen}", timeout=20000)
        shown = other.locator("#log li").nth(seen)
        assert shown.get_attribute("data-action") == action
        moves += 1
        if moves == 6 and not reloaded:  # a reload in the middle returns to the exact game
            logged = b.locator("#log li").count()
            hand = sorted(cards(b.locator("#my-hand .card")))
            b.reload()
            _ready(b)
            b.wait_for_function(f"() => document.querySelectorAll('#log li').length >= {logged}")
            assert sorted(cards(b.locator("#my-hand .card"))) == sorted(_hand_of(two_workers, gid, token_b))
            assert not b.locator("#play-view").is_hidden()
            assert hand == sorted(cards(b.locator("#my-hand .card"))) or b.locator("#log li").count() > logged
            reloaded = True
    assert reloaded and moves > 10
    assert a.locator("#final").count() and b.locator("#final").count()
    for p in (a, b):
        assert p.evaluate("() => document.body.dataset.live") in ("stream", "connecting")
    state = httpx.post(f"{two_workers}/api/observe", json={"game_id": gid}).json()
    assert state["terminal"] and isinstance(state["seed"], int)
    assert not errors, errors
    a.context.close()
    b.context.close()
