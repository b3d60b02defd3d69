"""``shanghai --version`` is answered before the typer app is imported (issue 35: <= 150 ms cold)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

import cli
from cli.main import app

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import sys
import cli
try:
    cli.start(["--version"])
except SystemExit as exc:
    print("exit", exc.code)
print("loaded", sorted(m for m in ("typer", "rich", "cli.main") if m in sys.modules))
"""


def test_version_alone_imports_neither_typer_nor_the_app() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.stdout.splitlines()[1:] == ["exit 0", "loaded []"], done.stdout + done.stderr


def test_the_fast_version_says_what_the_app_says(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.start(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out == CliRunner().invoke(app, ["--version"]).stdout


def test_anything_else_goes_to_the_app() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "cli", "--version", "--bogus"], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode in (0, 2) and "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "cli", "--bogus"], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1


def test_a_closed_stdout_is_not_a_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import os, cli; os.close(1); cli.start(['--version'])"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert "Traceback" not in done.stderr, done.stderr
