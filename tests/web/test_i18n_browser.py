"""The page in each of its languages, in the real browser (docs/web.md, "Languages"): no English
text left when another language is chosen (entry, an answer, a game in play), the switch works
and is kept, the browser's language is followed, and axe-core is clean in Finnish."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

from solver.extras import require
from tests.web.axe import assert_clean
from tests.web.pages import open_page as _open
from tests.web.pages import solve as _solve

expect = require("playwright.sync_api", "web").expect

CATALOGUES = {
    lang: json.loads(
        (Path(__file__).resolve().parents[2] / "web" / "static" / "i18n" / f"{lang}.json").read_text("utf-8")
    )
    for lang in ("en", "fi", "de", "nb")
}

SHOTS = Path(os.environ["SHANGHAI_SCREENSHOTS"]) if os.environ.get("SHANGHAI_SCREENSHOTS") else None
"""Where the screenshot tests write the README's pictures (as tests/web/test_browser.py)."""

ALLOWED = {"API", "shanghai", "English", "suomi", "Deutsch", "norsk bokmål", "Manipulation", "Zheng Shang You"}
"""Texts shown the same in every language: names (the brand, the games, the languages in the
switch, in their own language) and the link to the API reference."""

MANIPULATION = "/manipulation?lang={lang}#preset=norwegian&table=3H+4H+5H+6H+|+3C+4C+5C+6C&hand=6S+KD"

# Every visible text node, and the aria-label, placeholder and title of every visible element.
_VISIBLE_TEXTS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const p = n.parentElement;
    const text = n.textContent.replace(/\\s+/g, ' ').trim();
    if (!text || !p || p.closest('svg, script, style, [lang="en"]')) continue;
    if (p.checkVisibility({ visibilityProperty: true }) || p.closest('option')) out.push(text);
  }
  for (const e of document.querySelectorAll('[aria-label], [placeholder], [title]')) {
    if (!e.checkVisibility() && !e.closest('#picker, #position')) continue;
    for (const a of ['aria-label', 'placeholder', 'title']) if (e.getAttribute(a)) out.push(e.getAttribute(a).trim());
  }
  return out;
}"""


def _pattern(template: str) -> re.Pattern[str]:
    """An English message as a pattern matching it with any parameters filled in."""
    parts = re.split(r"\{\w+\}", template.strip())
    return re.compile("^" + ".+?".join(re.escape(p) for p in parts) + "$")


def _english_left(texts: list[str], lang: str) -> list[str]:
    """The texts that are an English message (or a literal part of one) of a key whose message
    differs in ``lang``."""
    other = CATALOGUES[lang]
    found = []
    for key, value in CATALOGUES["en"].items():
        forms = list(value.values()) if isinstance(value, dict) else [value]
        theirs = list(other[key].values()) if isinstance(other[key], dict) else [other[key]]
        for form in forms:
            if form in theirs:
                continue  # the same words in both languages ("{n}: {contract}", "Zheng Shang You")
            pattern = _pattern(form)
            pieces = [p.strip() for p in re.split(r"\{\w+\}", form) if len(re.sub(r"[^A-Za-z]", "", p)) >= 3]
            for text in texts:
                if text in ALLOWED:
                    continue
                if pattern.match(text) or (len(pieces) > 1 and text in pieces):
                    found.append(f"{key}: {text!r}")
    return sorted(set(found))


def _check(page: Any, lang: str, state: str) -> int:
    """The English messages left visible (none but on the English page); in Finnish, axe-core
    clean too (it checks <html lang> as well)."""
    assert page.evaluate("document.documentElement.lang") == lang, state
    if lang == "fi":
        assert_clean(page, f"fi, {state}")
    # On the English page, the English messages that differ in Finnish: the check must find them.
    left = _english_left(page.evaluate(_VISIBLE_TEXTS), "fi" if lang == "en" else lang)
    if lang == "en":
        return len(left)
    assert not left, f"{lang}, {state}: English left: {left}"
    return 0


@pytest.mark.parametrize("lang", ["en", "fi", "de", "nb"])
def test_no_english_left(browser: Any, live_server: str, lang: str, tmp_path: Path) -> None:
    """Entry, an answer and a Contract game in play (the AI moves logged): in Finnish, German and
    Norwegian no English message is visible; in English the same check finds them (it can fail).
    In Finnish each state is axe-clean, and the answer is the README's Finnish picture
    (SHANGHAI_SCREENSHOTS=docs/img)."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    page.set_default_timeout(20000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = live_server
    _open(page, MANIPULATION.format(lang=lang))
    page.click("#rules summary")
    english = _check(page, lang, "entry")
    _solve(page)
    if lang == "fi":
        page.click("#rules summary")  # closed again: the picture shows the position and the answer
        page.evaluate("window.scrollTo(0, 0)")
        page.wait_for_timeout(200)
        out = (SHOTS or tmp_path) / "web-desktop-fi.png"
        out.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(out))
        assert out.stat().st_size > 10_000
    page.click("#step-btn")
    english += _check(page, lang, "answer")
    page.locator(".zone[data-kind='hand'] input").fill("6S XX")
    page.wait_for_selector(".zone[data-kind='hand'] .error")
    english += _check(page, lang, "inline error")
    _open(page, f"/contract?lang={lang}")
    page.evaluate("() => { document.body.dataset.playSeed = '3'; }")
    page.click("#mode-play")
    page.select_option("#play-ai", "greedy")
    page.select_option("#play-players", "3")
    page.click("#new-game")
    page.locator("#play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
    page.locator("#actions button").first.click()  # a move: the AI seats answer, logged with reasons
    page.locator("#log li[data-player='1']").first.wait_for(timeout=60000)
    page.locator("#play-actions:not([hidden]) #actions button").first.wait_for(timeout=60000)
    page.locator("#my-hand .card").first.click()
    english += _check(page, lang, "a game in play")
    assert page.locator("#log li .reason").count() >= 1
    # The round's contract in words of this language ("kierros 1/7: sarja suora").
    words = page.inner_text("#game-info").split(":")[1].split()
    assert {CATALOGUES[lang]["meld.set"], CATALOGUES[lang]["meld.run"]} & set(words), words
    if lang == "en":
        assert english >= 30  # the check sees the English page's messages
    context.close()
    assert not errors, errors


def test_the_switch_is_kept_and_the_browser_language_followed(browser: Any, live_server: str) -> None:
    context = browser.new_context(locale="de-DE")
    page = context.new_page()
    page.base = live_server
    _open(page, "/zsy#hand=3H+6H+6D+4S+5S+7S+8S+KD+RJ&beat=4H+4C")
    assert page.evaluate("document.documentElement.lang") == "de"  # navigator.languages
    assert page.inner_text("#solve-btn") == "Lösen"
    _solve(page)
    assert "Antworten" in page.inner_text("#answer-head")
    page.select_option("#lang", "fi")
    expect(page.locator("html")).to_have_attribute("lang", "fi")
    # Everything drawn again: the static page, the position, the answer, the card names.
    assert page.inner_text("#solve-btn") == "Ratkaise"
    assert "vastaus" in page.inner_text("#answer-head")
    assert page.get_attribute("#picker .chip[data-card='KS']", "aria-label").startswith(
        "K 0/1, kuningas, pata, käytetty"
    )
    assert page.get_attribute(".zone[data-kind='hand'] .card[data-card='KD']", "aria-label") == "kuningas, ruutu"
    url = page.url
    assert "lang=fi" in url and "hand=" in url  # a link keeps the language and the position
    _open(page, "/contract")  # no ?lang: the choice kept in localStorage
    assert page.evaluate("document.documentElement.lang") == "fi"
    assert page.inner_text("#mode-play") == "Pelaa tekoälyä vastaan"
    _open(page, "/contract?lang=nb")  # a link's language first
    assert page.inner_text("#solve-btn") == "Løs"
    # A link written by the page (Copy link, the games' navigation) keeps ?lang=.
    page.click("nav.games a[data-game='zsy']")
    page.wait_for_selector("body[data-ready='1']")
    assert "lang=nb" in page.url and page.evaluate("document.documentElement.lang") == "nb"
    context.close()


def test_longer_words_stay_in_320_px(browser: Any, live_server: str) -> None:
    """Finnish names the presets at length ("viimeinen kierros tavallinen"): their selects shrink,
    the page does not scroll sideways at 320 px (rules open, or the play controls)."""
    context = browser.new_context(viewport={"width": 320, "height": 700})
    page = context.new_page()
    page.base = live_server
    _open(page, "/contract?lang=fi")
    page.locator("#rules summary").click()
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320, "rules open"
    page.click("#mode-play")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 320, "play controls"
    context.close()
