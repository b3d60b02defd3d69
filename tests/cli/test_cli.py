"""The CLI skeleton: --version, check, exit codes, one-line errors, no tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

GOOD = """game = "manipulation"
[position]
table = ["3H 4H 5H 6H", "3C 4C 5C 6C"]
hand = "6S KD"
"""


def run(*args: str) -> subprocess.CompletedProcess[str]:
    """The real console entry point in a subprocess (tracebacks would show here)."""
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)


def test_version() -> None:
    from solver.native import describe

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and result.stdout.strip() == f"shanghai 0.1.0, {describe()}"
    assert describe().startswith(("native", "pure"))


def test_check_prints_pretty_position(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    result = runner.invoke(app, ["check", str(tmp_path / "a.toml")])
    assert result.exit_code == 0
    assert "6♠" in result.stdout and "3♥ 4♥ 5♥ 6♥" in result.stdout


def test_check_json(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    result = runner.invoke(app, ["check", "--json", str(tmp_path)])
    assert result.exit_code == 0
    data = json.loads(result.stdout.strip())
    assert data["valid"] and data["position"]["hand"] == ["6S", "KD"]


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (("6S KD", "6S KX"), "malformed card 'KX'"),
        (('"3H 4H 5H 6H"', '"3H 4H 5H 7H"'), "invalid meld 3H 4H 5H 7H"),
        (("6S KD", "6S 6H 6H KD"), "3 copies of 6H, but the decks contain 2"),
        (("[position]", "[rules]\nflavour = 1\n[position]"), "unknown manipulation rule option 'flavour'"),
        (('game = "manipulation"', 'game = "bridge"'), "unknown game 'bridge'"),
    ],
)
def test_check_bad_input_exits_2_with_one_line(tmp_path: Path, edit: tuple[str, str], needle: str) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(GOOD.replace(*edit))
    result = run("check", str(bad))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert needle in lines[0] and "bad.toml" in lines[0]
    assert "Traceback" not in result.stderr + result.stdout


def test_check_folder_with_one_bad_file_checks_the_rest(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "b.toml").write_text("game = 'manipulation'\n[position]\nhand = '1Z'\n")
    result = run("check", "--json", str(tmp_path))
    assert result.returncode == 2
    good, bad = [json.loads(line) for line in result.stdout.strip().splitlines()]
    assert good["valid"] and not bad["valid"] and "b.toml" in bad["puzzle"] and "1Z" in bad["error"]
    assert "b.toml" in result.stderr and "Traceback" not in result.stderr


def test_unreadable_path_exits_2() -> None:
    result = run("check", "no/such/file.toml")
    assert result.returncode == 2 and "cannot read" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bundled_puzzles_check() -> None:
    result = runner.invoke(app, ["check", str(ROOT / "puzzles")])
    assert result.exit_code == 0, result.output
