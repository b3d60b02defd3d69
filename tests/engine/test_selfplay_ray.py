"""Self-play on Ray (the ``ray`` extra): the same statistics as local workers, and the CLI's ``--ray``,
``hint --player ismcts`` and ``ismcts:BUDGET`` players."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from solver.engine import new_game
from solver.engine.players import make_players
from solver.engine.selfplay import SelfplayStats, selfplay
from solver.extras import require

ROOT = Path(__file__).resolve().parents[2]


def _same(stats: SelfplayStats) -> dict[str, Any]:
    return {k: v for k, v in stats.summary().items() if k not in ("games_per_second", "seconds")}


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_ray_two_workers_equal_local_workers() -> None:
    require("ray", "ray")
    kinds = ["random", "greedy", "random", "greedy"]
    local = selfplay("zsy", 24, kinds, seed=7, workers=1, options={"max_hands": 1})
    seen: list[int] = []
    on_ray = selfplay(
        "zsy",
        24,
        kinds,
        seed=7,
        workers=2,
        ray="local",
        options={"max_hands": 1},
        progress=lambda r: seen.append(r.seed),
    )
    assert _same(on_ray) == _same(local)
    assert sorted(seen) == list(range(7, 31))
    import ray

    assert not ray.is_initialized()  # the local Ray it started is stopped


def test_cli_hint_with_ismcts(tmp_path: Path) -> None:
    game = new_game("zsy", None, 4, 5, max_hands=1)
    players = make_players(["random"] * 4, 5)
    for _ in range(6):
        game.apply(players[game.current_player()].choose(game))
    path = tmp_path / "g.json"
    path.write_text(game.record().to_json(), encoding="utf-8")
    r = run("hint", "--json", "--player", "ismcts:4", str(path))
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert game.is_legal(game.parse_action(data["action"]))
    assert data["facts"]["simulations"] >= 1 or data["reason"] == "the only legal action"


def test_cli_selfplay_players_with_a_budget_and_bad_ones() -> None:
    r = run(
        "selfplay", "zsy", "--games", "2", "--hands", "1", "--players", "ismcts:2:random,greedy,greedy,greedy", "--json"
    )
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["players"]["ismcts:2:random"]["seats"] == 2
    bad = run("selfplay", "zsy", "--games", "2", "--players", "ismcts:zero,greedy,greedy,greedy")
    assert bad.returncode == 2 and "bad ismcts budget 'zero'" in bad.stderr and "Traceback" not in bad.stderr
