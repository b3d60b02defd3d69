"""Every command's ``--json`` output against the shapes documented in docs/json.md.

The doc's ``schema`` blocks are a JSON Schema subset; the small validator here
reads it strictly: an object may hold only the documented keys unless the
schema says ``additionalProperties``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.extras import require

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "json.md").read_text(encoding="utf-8")
SCHEMAS: dict[str, Any] = {
    name: json.loads(body) for name, body in re.findall(r"```schema ([\w.]+)\n(.*?)```", DOC, flags=re.S)
}
DEFS: dict[str, Any] = SCHEMAS.pop("definitions")
runner = CliRunner()

_TYPES: dict[str, Any] = {
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
    "array": list,
    "object": dict,
}


def _is(value: Any, kind: str) -> bool:
    if kind in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _TYPES[kind])


def problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Why ``value`` does not fit ``schema`` (empty when it fits)."""
    if "$ref" in schema:
        return problems(value, DEFS[schema["$ref"]], where)
    out: list[str] = []
    if "enum" in schema and value not in schema["enum"]:
        return [f"{where}: {value!r} not in {schema['enum']}"]
    kinds = schema.get("type")
    if kinds is not None:
        kinds = [kinds] if isinstance(kinds, str) else kinds
        if not any(_is(value, k) for k in kinds):
            return [f"{where}: {value!r} is not {kinds}"]
    if value is None:
        return out
    if "pattern" in schema and not re.search(schema["pattern"], value):
        out.append(f"{where}: {value!r} does not match {schema['pattern']}")
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            out += problems(item, schema["items"], f"{where}[{i}]")
    if isinstance(value, dict) and ("properties" in schema or "additionalProperties" in schema):
        props = schema.get("properties", {})
        out += [f"{where}: missing {k!r}" for k in schema.get("required", []) if k not in value]
        extra = schema.get("additionalProperties", False)
        for k, v in value.items():
            if k in props:
                out += problems(v, props[k], f"{where}.{k}")
            elif extra is False:
                out.append(f"{where}: undocumented key {k!r}")
            elif isinstance(extra, dict):
                out += problems(v, extra, f"{where}.{k}")
    return out


def lines_of(args: list[str], expect: tuple[int, ...] = (0,)) -> list[dict[str, Any]]:
    result = runner.invoke(app, args)
    assert result.exit_code in expect, (args, result.output)
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def fits(data: dict[str, Any], name: str) -> None:
    found = problems(data, SCHEMAS[name])
    assert not found, (name, found[:5])


def test_the_doc_has_a_schema_per_shape() -> None:
    assert {"solve.manipulation", "solve.contract", "solve.zsy", "check.valid", "check.invalid", "hint"} <= set(SCHEMAS)


def test_the_validator_can_fail() -> None:
    good = lines_of(["solve", "--json", "--hand", "6S KD", "--table", "3H 4H 5H 6H | 3C 4C 5C 6C"])[0]
    fits(good, "solve.manipulation")
    assert problems({**good, "played": "6S"}, SCHEMAS["solve.manipulation"])  # cards as a string: refused
    assert problems({**good, "surprise": 1}, SCHEMAS["solve.manipulation"])  # an undocumented key
    assert problems({**good, "moves": ["move 6H"]}, SCHEMAS["solve.manipulation"])  # moves as prose


@pytest.mark.parametrize("game", ["manipulation", "contract", "zsy"])
def test_solve_every_bundled_puzzle(game: str) -> None:
    rows = lines_of(["solve", "--json", "--check", "--time-limit", "5", str(ROOT / "puzzles" / game)])
    assert len(rows) >= 10
    for row in rows:
        fits(row, f"solve.{game}")


def test_solve_inline_positions_of_every_game() -> None:
    fits(lines_of(["solve", "--json", "--all", "--hand", "8H 9C", "--table", "5H 6H 7H"])[0], "solve.manipulation")
    deal = ["--rule", "deal=8"]  # an 8-card hand is one a game of that deal gives (before the draw)
    contract = ["solve", "--json", "--game", "contract", "--hand", "5H 5D 5S 6S 7S 8S 9S KD", *deal, "--round", "1"]
    fits(lines_of(contract)[0], "solve.contract")
    laid = ["solve", "--json", "--game", "contract", "--hand", "5S KD", "--laid-down"]  # 13 less the contract's 7
    fits(lines_of([*laid, "--table", "JC JD JH | 6H 7H 8H 9H"])[0], "solve.contract")
    fits(lines_of(["solve", "--json", "--game", "zsy", "--hand", "3H 4S 5D", "--to-beat", "3C"])[0], "solve.zsy")


def test_check_valid_and_invalid(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("game = 'zsy'\n[position]\nhand = '3H [/]'\n")
    rows = lines_of(["check", "--json", str(ROOT / "puzzles"), str(tmp_path)], expect=(2,))
    invalid = [r for r in rows if not r["valid"]]
    assert len(invalid) == 1 and "[/]" in invalid[0]["error"]
    for row in rows:
        fits(row, "check.valid" if row["valid"] else "check.invalid")


def test_hint_selfplay_rules(tmp_path: Path) -> None:
    for game in ("manipulation", "zsy"):
        path = sorted((ROOT / "puzzles" / game).glob("*.toml"))[0]
        fits(lines_of(["hint", "--json", str(path)])[0], "hint")
    fits(lines_of(["hint", "--json", str(ROOT / "puzzles/contract/source-swap-ten-for-wild-two.toml")])[0], "hint")
    fits(lines_of(["selfplay", "zsy", "--games", "2", "--hands", "1", "--json"])[0], "selfplay")
    for row in lines_of(["rules", "--json"]):
        fits(row, "rules")


# --- issue 25: every command with --json has its shapes here, and generate, render and timeouts fit them ------


def _json_commands() -> dict[str, Any]:
    import typer.main

    group = typer.main.get_command(app)
    return {
        name: cmd
        for name, cmd in group.commands.items()  # type: ignore[attr-defined]
        if any("--json" in getattr(p, "opts", ()) for p in cmd.params)
    }


def test_every_command_with_json_has_its_shapes_documented() -> None:
    rows = dict(re.findall(r"^\| `shanghai (\w+)` \| yes \| (.*) \|$", DOC, flags=re.M))
    commands = _json_commands()
    assert set(commands) == set(rows), (sorted(commands), sorted(rows))
    for name, shapes in rows.items():
        named = re.findall(r"`([\w.]+)`", shapes)
        assert named and all(shape in SCHEMAS for shape in named), (name, named)


@pytest.mark.parametrize("game", ["manipulation", "contract", "zsy"])
def test_generate_fits_its_shape_and_hand_is_a_list(game: str, tmp_path: Path) -> None:
    rows = lines_of(["generate", game, "--difficulty", "easy", "--count", "2", "--seed", "3", "--json"])
    assert len(rows) == 2
    for row in rows:
        fits(row, "generate")
        assert isinstance(row["position"]["hand"], list)
    written = lines_of(["generate", game, "--difficulty", "easy", "--count", "1", "-o", str(tmp_path), "--json"])[0]
    fits(written, "generate")
    assert Path(written["file"]).is_file()


def test_render_fits_its_shape(tmp_path: Path) -> None:
    path = sorted((ROOT / "puzzles" / "zsy").glob("*.toml"))[0]
    fits(lines_of(["render", str(path), "-o", str(tmp_path / "p.svg"), "--json"])[0], "render")


def test_post_daily_and_book_fit_their_shapes(tmp_path: Path) -> None:
    require("fpdf", "book")  # the book extra: without it this test skips (the root conftest)
    path = sorted((ROOT / "puzzles" / "zsy").glob("*.toml"))[0]
    posted = lines_of(["post", str(path), "-o", str(tmp_path), "--json"])[0]
    fits(posted, "post")
    assert all(Path(f).is_file() for f in posted["written"])
    day = lines_of(["daily", "--date", "2026-12-01", "--game", "zsy", "--difficulty", "easy", "--json"])[0]
    fits(day, "daily")
    assert isinstance(day["position"]["hand"], list)
    book = lines_of(["book", str(path), "-o", str(tmp_path / "b.pdf"), "--json"])[0]
    fits(book, "book")
    assert book["puzzles"] == 1 and (tmp_path / "b.pdf").is_file()


def test_a_timed_out_solve_fits_its_shape(monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.main as main_module
    from solver.errors import SolverTimeout

    def too_slow(*_: Any) -> Any:
        raise SolverTimeout("CP-SAT found no answer within the time limit")

    monkeypatch.setattr(main_module, "_solve_one", too_slow)
    rows = lines_of(["solve", "--json", "--check", str(ROOT / "puzzles" / "zsy")], expect=(1,))
    assert rows
    for row in rows:
        fits(row, "solve.timeout")


def test_a_lead_endgame_fits_its_shape_and_the_shape_can_fail() -> None:
    row = lines_of(["solve", "--json", str(ROOT / "puzzles" / "zsy" / "lead-endgame.toml")])[0]
    fits(row, "solve.zsy")
    assert row["endgame"]["winning"] == [{"cards": ["3S", "4H", "5D"], "kind": "straight"}]
    assert {"side": "opponent", "cards": None, "kind": None} in row["endgame"]["line"]
    row["endgame"]["line"][0]["side"] = "dealer"
    assert problems(row, SCHEMAS["solve.zsy"])
    gen = lines_of(["generate", "zsy", "--question", "lead", "--difficulty", "easy", "--count", "1", "--json", "-q"])
    fits(gen[0], "generate")
    assert gen[0]["position"]["opponent"] and gen[0]["meta"]["kind"] == "lead"


# --- issue 40: shanghai review --json ----------------------------------------------------------------


@pytest.mark.parametrize("game", ["manipulation", "contract", "zsy"])
def test_review_fits_its_shape_and_the_shape_can_fail(game: str, tmp_path: Path) -> None:
    from solver.engine import new_game
    from solver.engine.base import play_game
    from solver.engine.players import make_players

    kinds = ["random", "greedy", "solver", "random"]
    options = {"max_rounds": 1} if game == "contract" else {"max_hands": 1}
    g = play_game(new_game(game, {}, 4, 3, options=options), make_players(kinds, 3))
    path = tmp_path / "game.json"
    path.write_text(g.record(kinds).to_json())
    row = lines_of(["review", "--json", "--time-limit", "1", str(path), "--mistakes", str(tmp_path / "m")])[0]
    fits(row, "review")
    assert row["moves"] and problems({**row, "moves": [{**row["moves"][0], "loss": "1"}]}, SCHEMAS["review"])
    assert problems({**row, "surprise": 1}, SCHEMAS["review"])
