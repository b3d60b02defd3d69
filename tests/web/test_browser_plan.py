"""The Contract whole-turn plan on the page (the answer's `turn`, docs/json.md): the steps in
order, how the turn ends, the plan's own lay-down when it is not the best lay-down alone, the
discard of a round-7 hand played all at once; and, in a Zheng Shang You endgame, the list of
leads for your hand alone named as such. In every language, axe-clean."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from solver.answers import solve_puzzle
from solver.extras import require
from solver.generate.post import page_link
from solver.puzzles import from_data, load
from tests.web.axe import assert_clean
from tests.web.pages import cards as _cards
from tests.web.pages import open_page as _open
from tests.web.pages import solve as _solve
from tests.web.test_i18n_browser import _VISIBLE_TEXTS, CATALOGUES, _english_left

expect = require("playwright.sync_api", "web").expect

ROOT = Path(__file__).resolve().parents[2]
LAYDOWN = ROOT / "puzzles" / "contract" / "laydown-fives-not-kings.toml"
"""The best lay-down alone keeps the kings; the whole turn lays down the fives and lays the kings off: out."""
WHOLE = ROOT / "puzzles" / "contract" / "round7-whole-which-discard.toml"
"""Round 7, all at once: discarding QH lets the rest go down."""
LEAD = ROOT / "puzzles" / "zsy" / "lead-flush-trap.toml"
EN = CATALOGUES["en"]

_CARD = re.compile(r"^(10|[2-9AJQK])[SHDC](=\S+)?$|^(RJ|BJ|JK)(=\S+)?$")


def _open_puzzle(page: Any, path: Path, lang: str | None = None) -> dict[str, Any]:
    """Open the puzzle's link (as `shanghai post` writes it), solve it; the library's answer."""
    puzzle = load(path)
    link = page_link(puzzle, page.base)[len(page.base) :]
    if lang:
        link = link.replace("#", f"?lang={lang}#", 1)
    page.goto("about:blank")  # a fresh page: another position's link differs only after the '#'
    _open(page, link)
    _solve(page)
    return solve_puzzle(puzzle).data


def _shown_steps(page: Any) -> list[tuple[str | None, list[str]]]:
    """The plan's steps as the page shows them: each step's action and its cards drawn."""
    steps = page.locator("#plan-steps li")
    return [
        (steps.nth(i).get_attribute("data-action"), _cards(steps.nth(i).locator(".card"))) for i in range(steps.count())
    ]


def _want_steps(actions: list[str]) -> list[tuple[str | None, list[str]]]:
    return [(a, [w.split("=")[0] for w in a.split() if _CARD.match(w)]) for a in actions]


def test_the_laydown_example_shows_the_plan_and_its_other_melds(page: Any) -> None:
    """The lay-down puzzle: the best lay-down alone (the kings) and its 'go out: no', said to be that
    lay-down's; then the plan: its steps (lay down the fives and the run, lay the kings off), that it
    goes out, and its lay-down drawn, named as other melds than the best lay-down alone."""
    want = _open_puzzle(page, LAYDOWN)
    turn = want["turn"]
    rows = page.locator("#lay-down .meld-row")
    assert [_cards(rows.nth(i).locator(".card")) for i in range(rows.count())] == want["lay_down"]
    expect(page.locator("#can-go-out")).to_have_text(EN["no"])
    expect(page.locator("#contract-facts")).to_contain_text(EN["contract.go_out_see_plan"])
    expect(page.locator("#turn-plan h3")).to_have_text(EN["contract.turn_plan"])
    assert turn["actions"] == ["laydown 5S 5H 5D | 6C 7C 8C 9C", "layoff 0 KC KD KH"]
    assert _shown_steps(page) == _want_steps(turn["actions"])
    expect(page.locator("#plan-end")).to_have_text(EN["contract.plan_goes_out"])
    expect(page.locator("#plan-other-melds")).to_have_text(EN["contract.plan_other_melds"])
    plan = page.locator("#plan-lay-down .meld-row")
    assert [_cards(plan.nth(i).locator(".card")) for i in range(plan.count())] == [
        ["5S", "5H", "5D"],
        ["6C", "7C", "8C", "9C"],
    ]
    assert page.locator("#whole-discards").count() == 0  # not a whole-hand round
    assert_clean(page, "the lay-down example's plan")


def test_the_round7_whole_example_shows_the_discard_and_the_plan(page: Any) -> None:
    """Round 7 played all at once: the discard that lets the rest go down (QH) is a fact; the plan lays
    down the best lay-down itself (no second lay-down drawn) and discards QH: out."""
    want = _open_puzzle(page, WHOLE)
    assert want["whole_discards"] == ["QH"] and load(WHOLE).answer["discard"] == "QH"
    assert _cards(page.locator("#whole-discards .card")) == ["QH"]
    expect(page.locator("#contract-facts")).to_contain_text(EN["contract.whole_discards"])
    turn = want["turn"]
    assert turn["actions"][-1] == "discard QH"
    assert _shown_steps(page) == _want_steps(turn["actions"])
    expect(page.locator("#plan-end")).to_have_text(EN["contract.plan_goes_out"])
    assert page.locator("#plan-lay-down").count() == 0 and page.locator("#plan-other-melds").count() == 0
    expect(page.locator("#contract-facts")).not_to_contain_text(EN["contract.go_out_see_plan"])
    assert_clean(page, "the round-7 whole example's plan")


def test_a_whole_hand_that_cannot_go_down_has_no_discard_and_a_plan_with_points(page: Any) -> None:
    """A round-7 hand that cannot go down: the discard fact says none, the plan discards and leaves points."""
    hand = "2H 4S 6D 8C 10H QS AD 3C 5H 7S 9D JC KH"
    want = solve_puzzle(from_data({"game": "contract", "position": {"round": 7, "hand": hand}})).data
    assert want["whole_discards"] == [] and want["turn"]["can_go_out"] is False
    _open(page, "/contract#round=7&hand=" + hand.replace(" ", "+"))
    _solve(page)
    expect(page.locator("#whole-discards")).to_have_text(EN["contract.none"])
    assert _shown_steps(page) == _want_steps(want["turn"]["actions"])
    n = want["turn"]["points_left"]
    expect(page.locator("#plan-end")).to_have_text(EN["contract.plan_points_left"]["other"].replace("{n}", str(n)))
    assert page.locator("#plan-lay-down").count() == 0


@pytest.mark.parametrize("lang", ["fi", "de", "nb"])
def test_the_plan_in_every_language(page: Any, lang: str) -> None:
    """The plan's texts in Finnish, German and Norwegian: no English message left, axe-clean."""
    _open_puzzle(page, LAYDOWN, lang)
    ours = CATALOGUES[lang]
    expect(page.locator("#turn-plan h3")).to_have_text(ours["contract.turn_plan"])
    expect(page.locator("#plan-other-melds")).to_have_text(ours["contract.plan_other_melds"])
    left = _english_left(page.evaluate(_VISIBLE_TEXTS), lang)
    assert not left, left
    _open_puzzle(page, WHOLE, lang)
    expect(page.locator("#contract-facts")).to_contain_text(ours["contract.whole_discards"])
    left = _english_left(page.evaluate(_VISIBLE_TEXTS), lang)
    assert not left, left
    assert_clean(page, f"{lang}: the round-7 whole example's plan")


def test_the_endgame_names_the_fewest_plays_list_as_your_hand_alone(page: Any) -> None:
    """Below a two-player endgame's winning lead, the leads by fewest plays are named as ranked for your
    hand alone (they ignore the opponent); a lead without an opponent keeps the plain heading."""
    puzzle = load(LEAD)
    _open(page, page_link(puzzle, page.base)[len(page.base) :])
    _solve(page)
    expect(page.locator("#replies-head")).to_have_text(EN["zsy.leads_own_hand"])
    _open(page, "/zsy#hand=5H+6H+7H+8D+5C")
    _solve(page)
    expect(page.locator("#replies-head")).to_have_text(EN["zsy.leads_best"])
