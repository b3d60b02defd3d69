"""One inline Manipulation solve imports only what it needs (issue 35: <= 300 ms cold as a whole process).

The time itself is a benchmark (``python -m benchmarks.bench_core``, the whole-process table); this test
keeps the heavy modules such a solve has no use for out of its process: numpy, networkx, pandas, the
web app, the PettingZoo/OpenSpiel envs, the generator's progress bars and self-play's tables, pydantic (typer's option coercion, see
``cli.fastparams``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

NOT_NEEDED = (
    "numpy",
    "networkx",
    "pandas",
    "fastapi",
    "uvicorn",
    "web",
    "solver.envs",
    "pettingzoo",
    "pyspiel",
    "rich.progress",
    "rich.table",
    "pydantic",
)
"""Modules an inline Manipulation solve must not import (nor any of their submodules)."""

PROBE = """
import json, sys
import cli
try:
    cli.start(["solve", "--table", "3H 4H 5H 6H | 3C 4C 5C 6C", "--hand", "6S KD", "--preset", "norwegian"])
except SystemExit as exc:
    code = exc.code
print(json.dumps({"exit": code, "modules": sorted(sys.modules)}))
"""


def _loaded(pure: bool) -> tuple[int, list[str], str]:
    env = dict(os.environ)
    env.pop("SHANGHAI_PURE", None)
    if pure:
        env["SHANGHAI_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    *shown, last = done.stdout.splitlines()
    report = json.loads(last)
    return report["exit"], report["modules"], "\n".join(shown)


@pytest.mark.parametrize("pure", [False, True], ids=["native", "pure"])
def test_an_inline_solve_imports_no_heavy_module_it_does_not_need(pure: bool) -> None:
    code, modules, shown = _loaded(pure)
    assert code == 0 and "optimal: play 1 card" in shown, shown
    heavy = sorted(m for m in modules if any(m == x or m.startswith(x + ".") for x in NOT_NEEDED))
    assert heavy == [], heavy
