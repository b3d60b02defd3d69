"""The RLlib route (the ``rllib`` extra): masked PPO on a local Ray trains and reports its win share.

A separate command, like the soaks (the extra pulls in torch and RLlib, too heavy for the default
run and its 20-minute CI budget)::

    pip install -e '.[rl,rllib]'
    python -m pytest -m slow tests/envs/test_rllib.py
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from solver.extras import require

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def rllib_ppo() -> Any:
    """``examples/rllib_ppo.py`` as a module (the extra checked first: under CI a missing one fails)."""
    require("ray.rllib", "rllib")
    require("torch", "rllib")
    spec = importlib.util.spec_from_file_location("rllib_ppo", ROOT / "examples" / "rllib_ppo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_masked_module_gives_illegal_indexes_no_chance(rllib_ppo: Any) -> None:
    import numpy as np

    env = rllib_ppo.make_env({"game": "zsy", "seed": 4})
    module = rllib_ppo.build_module(env)
    obs, _ = env.reset(seed=4)
    out = rllib_ppo.logits(module, obs)
    mask = obs["action_mask"] > 0
    assert 0 < mask.sum() < len(mask)
    assert out[~mask].max() < -1e30 < out[mask].min()  # minus infinity (RLlib's FLOAT_MIN) outside the mask
    probs = np.exp(out - out.max())
    assert probs[~mask].sum() == 0.0
    assert np.isfinite(rllib_ppo.value(module, obs))


def test_one_ppo_iteration_on_a_local_ray_reports_the_win_share(rllib_ppo: Any) -> None:
    run = subprocess.run(
        [sys.executable, "examples/rllib_ppo.py", "--iterations", "1", "--batch", "128", "--eval-games", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]
    assert [r["iteration"] for r in rows] == [0, 1]
    assert rows[0]["env_steps"] == 0 and rows[1]["env_steps"] >= 128
    assert all(0.0 <= r["vs_random"] <= 1.0 for r in rows)
