"""The page's languages (docs/web.md, "Languages"): the message catalogues agree with each other
and with the page's code, every server error code and AI reason code has its text, the
catalogues are served, and the AI moves carry their reasons as facts the page translates."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from solver.zsy.combos import KINDS
from web.app import STATUS, rules_metadata
from web.seats import HINT_CODES, REASON_CODES, public_reason, reason_facts

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"
LANGS = ("en", "fi", "de", "nb")
PLURAL_FORMS = {"zero", "one", "two", "few", "many", "other"}
"""The Intl.PluralRules categories (CLDR) a plural message may name."""


def _catalogue(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return data


CATALOGUES = {lang: _catalogue(lang) for lang in LANGS}
EN = CATALOGUES["en"]


def _forms(value: Any) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [value]


def _placeholders(value: Any) -> set[str]:
    return {p for form in _forms(value) for p in re.findall(r"\{(\w+)\}", form)}


def test_every_catalogue_has_the_same_keys() -> None:
    for lang, cat in CATALOGUES.items():
        assert set(cat) == set(EN), (lang, sorted(set(cat) ^ set(EN)))


def test_no_empty_message_and_plurals_well_formed() -> None:
    for lang, cat in CATALOGUES.items():
        for key, value in cat.items():
            if isinstance(value, dict):
                assert "other" in value and set(value) <= PLURAL_FORMS, (lang, key)
                assert {"one", "other"} <= set(value), (lang, key)  # the four languages have both
                assert "n" in _placeholders(value) or key == "play.game_over", (lang, key)
                assert isinstance(EN[key], dict), (lang, key)  # plural in every language or none
            else:
                assert isinstance(value, str), (lang, key)
            assert all(form.strip() for form in _forms(value)), (lang, key)


def test_the_same_placeholders_in_every_language() -> None:
    for key, value in EN.items():
        for lang in LANGS[1:]:
            assert _placeholders(CATALOGUES[lang][key]) == _placeholders(value), (lang, key)


def _keys_in_code() -> set[str]:
    """The catalogue keys the page names literally: t("key"), tn("key"), data-i18n="key"."""
    keys: set[str] = set()
    for path in STATIC.glob("*.js"):
        keys |= set(re.findall(r'\b(?:t|tn|note)\("([a-z_]+\.[a-z_.]+|[a-z_]+)"', path.read_text(encoding="utf-8")))
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    keys |= set(re.findall(r'data-i18n(?:-[a-z-]+)?="([^"]+)"', html))
    return keys - {"hint"}  # note("hint", ...): the hint line is written from play.hint


def test_every_key_the_page_names_is_in_the_catalogue() -> None:
    keys = _keys_in_code()
    assert len(keys) > 150
    assert keys <= set(EN), sorted(keys - set(EN))


def test_every_code_and_rule_has_its_text() -> None:
    """The keys the page builds from the server's data: error codes, AI reason codes, rule
    options and their help, presets, choice values, Zheng Shang You kinds, card names."""
    need = {f"error.{code}" for code in STATUS} | {f"why.{code}" for code in REASON_CODES}
    need |= {f"hint.why.{code}" for code in HINT_CODES if code != "other"}
    need |= {f"verb.{kind}" for kind in KINDS} | {f"suit.{s}" for s in "SHDC"} | {f"rank.{r}" for r in "AKQJ"}
    need |= {"card.RJ", "card.BJ", "card.JK", "error.network", "error.bad_reply", "error.error"}
    for game, meta in rules_metadata().items():
        need |= {f"game.{game}", f"game.short.{game}"} | {f"preset.{p}" for p in meta["presets"]}
        for o in meta["options"]:
            need |= {f"rule.{game}.{o['name']}", f"rule.{game}.{o['name']}.doc"}
            need |= {f"value.{v}" for v in o.get("values", []) if isinstance(v, str)}
            # English shows the rule set's own help text, word for word.
            assert EN[f"rule.{game}.{o['name']}.doc"] == o["doc"], (game, o["name"])
    assert need <= set(EN), sorted(need - set(EN))


def test_the_catalogues_are_served(client: TestClient) -> None:
    for lang in LANGS:
        r = client.get(f"/static/i18n/{lang}.json")
        assert r.status_code == 200 and r.headers["content-type"].startswith("application/json"), lang
        assert r.json() == CATALOGUES[lang]
    for name in ("xx.json", "fi.js", "..%2Fen.json", "EN.json"):
        assert client.get(f"/static/i18n/{name}").status_code == 404, name


def test_ai_moves_carry_their_reasons_as_facts(client: TestClient) -> None:
    """Each AI move of `apply` (and of `new_game`) has `why`: a reason code the page translates,
    the seat's kind, and the move's public numbers; the English `reason` is the same facts."""
    body = {"game": "contract", "players": 3, "seed": 3, "seats": ["human", "greedy", "greedy"]}
    g = client.post("/api/new_game", json=body).json()
    gid, token = g["game_id"], g["tokens"]["0"]
    seen: list[dict[str, Any]] = list(g.get("ai_moves") or [])
    for _ in range(6):
        legal = client.post("/api/legal", json={"game_id": gid, "token": token}).json()["actions"]
        action = next((a for a in legal if a.startswith("discard ")), legal[0])
        r = client.post("/api/apply", json={"game_id": gid, "token": token, "action": action}).json()
        seen += r["ai_moves"]
        if r["terminal"]:
            break
    assert len(seen) >= 4
    for m in seen:
        why = m["why"]
        assert why["code"] in REASON_CODES and why["ai"] == "greedy", m
        assert EN[f"why.{why['code']}"]
        if "left" in why:
            assert isinstance(why["left"], int) and m["reason"].endswith(
                f"{why['left']} card{'s' * (why['left'] != 1)} left in hand"
            )
        if "cards" in why:
            assert why["cards"] in m["reason"], m
    codes = {m["why"]["code"] for m in seen}
    assert "discards" in codes and len(codes) >= 2, codes


def test_reason_facts_and_their_english() -> None:
    before = {"game": "contract", "to_move": 1, "hand_sizes": [5, 10], "discard": "9C"}
    after = {"game": "contract", "to_move": 2, "hand_sizes": [5, 9]}
    assert reason_facts("greedy", "discard 7H", before, after) == {
        "ai": "greedy",
        "code": "discards",
        "cards": "7H",
        "left": 9,
    }
    assert public_reason("greedy", "discard 7H", before, after) == "the greedy player discards 7H; 9 cards left in hand"
    assert reason_facts("solver", "take", before, before) == {"ai": "solver", "code": "takes_discard", "cards": "9C"}
    assert public_reason("solver", "take", before, before) == "the solver player takes 9C from the discard pile"
    shed = {"game": "manipulation", "to_move": 1, "hand_sizes": [5, 7]}
    assert public_reason("random", "play 3H 4H 5H", shed, {"hand_sizes": [5, 4]}) == (
        "the random player plays 3 cards from hand to the table; 4 cards left in hand"
    )
    assert reason_facts("random", "play 3H 4H 5H", shed, {"hand_sizes": [5, 4]})["count"] == 3


def test_hints_carry_their_reasons_as_facts(client: TestClient) -> None:
    """A hint (a game's seat, or a puzzle) has ``why``: a code the page translates and the numbers its
    sentence needs; the numbers are the engine's own (its English reason says the same)."""
    import re

    codes: set[str] = set()
    for game, seats in (
        ("contract", ["human", "greedy", "greedy"]),
        ("zsy", ["human"] + ["greedy"] * 3),
        ("manipulation", ["human"] + ["greedy"] * 3),
    ):
        g = client.post("/api/new_game", json={"game": game, "players": len(seats), "seed": 4, "seats": seats}).json()
        gid, token = g["game_id"], g["tokens"]["0"]
        for _ in range(8):
            h = client.post("/api/hint", json={"game_id": gid, "token": token}).json()
            why = h["why"]
            assert why["code"] in HINT_CODES, h
            codes.add(why["code"])
            if why["code"] != "other":
                assert EN[f"hint.why.{why['code']}"], why
            if why["code"] in ("plays_most", "points_left", "plays_to_go_out"):
                assert str(why["n"]) in re.findall(r"\d+", h["reason"]), h
            r = client.post("/api/apply", json={"game_id": gid, "token": token, "action": h["action"]}).json()
            if r["terminal"]:
                break
    zsy = {"game": "zsy", "position": {"hand": "3H 4H 5H 9S 9D"}}
    h = client.post("/api/hint", json={"puzzle": zsy}).json()
    assert h["why"] == {"code": "plays_to_go_out", "n": 1, "now": 2}, h
    assert {"plays_to_go_out", "plays_most"} <= codes and codes & {"take", "draw", "discard_distance", "points_left"}, (
        codes
    )


def test_every_hint_of_seeded_games_has_a_reason_code() -> None:
    """Every hint the engine gives a seat (the solver player's decision) in seeded games of the three
    games has a reason code the page can write (``hint_facts`` never fails on a decision's facts:
    a won Zheng Shang You endgame's once did, a server error in a live game)."""
    from solver.engine import new_game
    from solver.engine.hints import hint_for_game
    from web.seats import hint_facts

    for name, players in (("zsy", 4), ("manipulation", 3), ("contract", 3)):
        codes: set[str] = set()
        for seed in range(3):
            game = (
                new_game(name, None, players, seed, max_hands=1)
                if name == "zsy"
                else new_game(name, None, players, seed)
            )
            for _ in range(120):
                if game.is_terminal():
                    break
                d = hint_for_game(game)
                why = hint_facts({"action": str(d.action), "reason": d.reason, "facts": d.facts})
                assert why["code"] in HINT_CODES, (name, seed, d)
                codes.add(why["code"])
                game.apply(d.action)
        want = {"zsy": "wins_endgame", "manipulation": "plays_most", "contract": "points_left"}[name]
        assert want in codes, (name, codes)
