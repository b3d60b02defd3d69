"""The README's examples run: the console example prints what the README shows."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def test_console_example_output_matches() -> None:
    block = re.search(r"```console\n\$ (shanghai .*?)\n(.*?)```", README, flags=re.S)
    assert block is not None
    command, expected = block.group(1), block.group(2)
    args = shlex.split(command)[1:]
    r = subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == expected.strip()


def test_library_example_runs() -> None:
    block = re.search(r"```python\n(from solver import .*?)```", README, flags=re.S)
    assert block is not None
    r = subprocess.run([sys.executable, "-c", block.group(1)], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("optimal 6S")


def test_two_commands_are_there() -> None:
    commands = re.findall(r"```sh\n(.*?)\n```", README, flags=re.S)
    assert commands[0].startswith("python3 -m venv .venv") and "shanghai solve puzzles --check" in commands[0]
    assert commands[1] == ".venv/bin/python -m pytest"
    ci = (ROOT / ".ci" / "run").read_text()
    assert "-m pytest" in ci
