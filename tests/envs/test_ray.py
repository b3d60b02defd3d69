"""Ray for self-play: the extra's client is there, and no cluster at ``auto`` is one line, exit 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from solver.extras import require

require("ray", "ray")


def test_the_ray_extra_has_the_client() -> None:
    require("grpc", "ray")  # what ray:// needs (ray[client])
    text = (Path(__file__).parents[2] / "pyproject.toml").read_text()
    assert 'ray = ["ray[client]' in text


def test_no_cluster_at_auto_is_one_line_and_exit_2() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    run = subprocess.run(
        [sys.executable, "-m", "cli", "selfplay", "zsy", "--games", "2", "--ray", "auto"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=Path(__file__).parents[2],
    )
    assert run.returncode == 2
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert lines == ["error: no Ray cluster at 'auto': start one (ray start --head) or use --ray local"]
