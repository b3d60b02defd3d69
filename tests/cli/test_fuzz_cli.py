"""Fuzzing the command line: random card strings, tables, rule overrides, TOML bodies, markup characters.

Whatever comes in, ``shanghai`` exits 0, 1 or 2; a failure is one line on
stderr; never a traceback, never an internal error; within the time limit.
Most runs go through the real entry point in this process (fast); a few
through a subprocess. The example counts are bounded so the file runs in
well under a minute on a loaded machine.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cli.main import main
from solver.rules import GAMES

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()
SECONDS = 20.0  # per run, with --time-limit 1: generous for a loaded two-core machine

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "T"]
CODES = [r + s for r in RANKS for s in "SHDC"] + ["RJ", "BJ", "JK", "2S=8H", "JK=5C"]
NASTY = "[]/\\:=|♠♥ \t'\"{}#-_xyzé0"
OPTIONS = sorted({f for cls in GAMES.values() for f in cls.describe()} | {"preset", "[/]", ""})
PRESETS = sorted({p for cls in GAMES.values() for p in cls.PRESETS})

nasty_tokens = st.text(alphabet=NASTY + "AKQJ10SHDC", min_size=1, max_size=6)
tokens = st.integers(0, 9).flatmap(lambda i: nasty_tokens if i == 0 else st.sampled_from(CODES[:52]))
hands = st.lists(tokens, min_size=1, max_size=7, unique=True).map(" ".join)
SYMBOLS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
sets = st.tuples(st.sampled_from(SYMBOLS), st.lists(st.sampled_from("SHDC"), min_size=3, max_size=4, unique=True)).map(
    lambda t: " ".join(t[0] + s for s in t[1])
)
runs = st.tuples(st.sampled_from("SHDC"), st.integers(0, 9), st.integers(3, 5)).map(
    lambda t: " ".join(SYMBOLS[i] + t[0] for i in range(t[1], min(t[1] + t[2], 13)))
)
melds = st.one_of(sets, runs, st.lists(st.sampled_from(CODES), min_size=1, max_size=4).map(" ".join))
tables = st.lists(melds, min_size=1, max_size=3).map(" | ".join)
values = st.one_of(
    st.sampled_from(["true", "false", "0", "1", "2", "6", "99", "-1", "any", "us", "jokers", "teams6", "[/]"]),
    st.text(alphabet=NASTY, max_size=5),
)
rules = st.integers(0, 3).flatmap(
    lambda i: st.just([]) if i else st.lists(st.tuples(st.sampled_from(OPTIONS), values).map("=".join), max_size=2)
)
games = st.sampled_from(["manipulation", "contract", "zsy"])


@st.composite
def inline_args(draw: st.DrawFn) -> list[str]:
    game = draw(games)
    args = ["solve", "--time-limit", "1", "--game", game, "--hand", draw(hands)]
    if game != "zsy" and draw(st.booleans()):
        args += ["--table", draw(tables)]
    for rule in draw(rules):
        args += ["--rule", rule]
    if draw(st.integers(0, 3)) == 0:
        args += ["--preset", draw(st.sampled_from([*PRESETS, "[/]"]))]
    if game == "contract":
        args += ["--round", str(draw(st.integers(0, 8) | st.integers(1, 7) | st.integers(1, 7)))]
        if draw(st.booleans()):
            args.append("--laid-down")
    if game == "zsy" and draw(st.booleans()):
        args += ["--to-beat", draw(hands)]
    if draw(st.booleans()):
        args.append("--json")
    return args


scalars: Any = st.one_of(st.booleans(), st.integers(-2, 9), st.text(alphabet=NASTY + "3HKS", max_size=8), hands)


@st.composite
def toml_bodies(draw: st.DrawFn) -> str:
    if draw(st.integers(0, 5)) == 0:
        return draw(st.text(alphabet=NASTY + '=[]\n"abc', max_size=60))
    odd = draw(st.integers(0, 3)) == 0  # one body in four has wrongly typed values
    game = draw(st.one_of(games, scalars) if odd else games)
    position: dict[str, Any] = {"hand": draw(st.one_of(hands, scalars) if odd else hands)}
    if game != "zsy" and draw(st.booleans()):
        position["table"] = draw(st.lists(st.one_of(tables, scalars) if odd else tables, max_size=3))
    if game == "contract" or odd:
        position["round"] = draw(st.one_of(st.integers(0, 8), scalars) if odd else st.integers(1, 7))
    if game == "zsy" and draw(st.booleans()):
        position["to_beat"] = draw(hands)
    data: dict[str, Any] = {"game": game, "position": position}
    if draw(st.booleans()):
        data["title"] = draw(st.text(alphabet=NASTY, max_size=12))
    if draw(st.integers(0, 3)) == 0:
        data["rules"] = dict(draw(st.lists(st.tuples(st.sampled_from(OPTIONS), scalars), max_size=2)))
    if draw(st.booleans()):
        data["answer"] = {draw(st.sampled_from(["played", "moves", "fewest_plays", "x"])): draw(scalars)}
    return tomli_w.dumps(data)


def invoke(args: list[str], stdin: str | None = None) -> tuple[int, str, str]:
    with runner.isolation(input=stdin) as (out, err, *_):
        try:
            main(args)
            rc = 0
        except SystemExit as exc:
            rc = int(exc.code or 0) if not isinstance(exc.code, str) else 2
        return rc, out.getvalue().decode(), err.getvalue().decode()


def sane(args: list[str], rc: int, err: str, seconds: float) -> None:
    assert rc in (0, 1, 2), (args, rc, err)
    assert "Traceback" not in err and "internal error" not in err, (args, err)
    if rc != 0:
        assert len(err.strip().splitlines()) == 1, (args, err)
    assert seconds < SECONDS, (args, seconds)


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)


@FUZZ
@given(inline_args())
def test_inline_positions(args: list[str]) -> None:
    start = time.perf_counter()
    rc, _, err = invoke(args)
    sane(args, rc, err, time.perf_counter() - start)


@FUZZ
@given(toml_bodies(), st.sampled_from(["check", "solve", "hint", "check --json", "solve -"]))
def test_puzzle_files(body: str, command: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p [v2].toml"
        path.write_text(body, encoding="utf-8")
        words = command.split()
        args = [*words, "--time-limit", "1"] if words[0] != "check" else words
        stdin = None
        if args[-1] == "-" or "-" in words:
            stdin = body
        else:
            args.append(str(path))
        start = time.perf_counter()
        rc, _, err = invoke(args, stdin)
        sane(args, rc, err, time.perf_counter() - start)


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    st.lists(
        st.one_of(st.sampled_from(["rules", "play", "selfplay", "hint", "--json", "-n", "0", "zsy"]), tokens),
        max_size=4,
    )
)
def test_any_words(words: list[str]) -> None:
    args = [w for w in words if w not in ("play", "selfplay")] or ["rules"]
    rc, _, err = invoke(args, stdin="quit\n")
    sane(args, rc, err, 0.0)


def test_a_few_real_processes(tmp_path: Path) -> None:
    """The console entry point in a subprocess: the same promises with real stdout/stderr and a latin-1 one."""
    (tmp_path / "t.toml").write_text('game = "zsy"\ntitle = "[/]♠"\n[position]\nhand = "3H [b]"\n')
    cases = [
        (["solve", "--hand", "[/]", "--rule", "[/]=1"], {}),
        (["check", str(tmp_path / "t.toml")], {}),
        (["solve", "--game", "contract", "--hand", "JK 5H", "--round", "1"], {"PYTHONIOENCODING": "latin-1"}),
        (["rules", "[/]"], {"PYTHONIOENCODING": "latin-1"}),
    ]
    for args, env in cases:
        result = subprocess.run(
            [sys.executable, "-m", "cli", *args],
            capture_output=True,
            cwd=ROOT,
            timeout=120,
            env={**os.environ, **env},
        )
        err = result.stderr.decode("utf-8", "replace")
        assert result.returncode == 2, (args, err)
        sane(args, result.returncode, err, 0.0)
