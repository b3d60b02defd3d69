"""Issue 25, budgets: every time limit and search size checked in one place (solver.budget), and a time
limit too short for any answer is a per-item ``timeout``, never an internal error."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from solver.budget import MAX_SECONDS, MAX_SIMULATIONS, BudgetError, parse_seconds, seconds, simulations
from solver.engine import SetupError, check_options
from solver.engine.players import make_player
from solver.engine.protocol import EngineServer
from solver.errors import IllegalActionError, SolverTimeout
from tests.cli.test_issue12 import cli, one_error

ROOT = Path(__file__).resolve().parents[2]
ZSY_PUZZLE = {"game": "zsy", "position": {"hand": "3H 4H 5H 6H 7H"}}


def ask(server: EngineServer, line: str) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(server.handle_line(line) or "")
    return reply


@pytest.mark.parametrize("value", [0, -1.0, math.inf, -math.inf, math.nan, 1e9, 1e308, MAX_SECONDS * 1.0001, True, "1"])
def test_seconds_refuses_what_is_not_a_budget(value: Any) -> None:
    with pytest.raises(BudgetError, match=r"from 0\.001 to 3600"):
        seconds(value)


def test_seconds_and_simulations_accept_their_range() -> None:
    assert seconds(0.001) == 0.001 and seconds(MAX_SECONDS) == MAX_SECONDS and seconds(2) == 2.0
    assert simulations(1) == 1 and simulations(MAX_SIMULATIONS) == MAX_SIMULATIONS
    for bad in (0, MAX_SIMULATIONS + 1, 10**9, 2.0, True):
        with pytest.raises(BudgetError, match="simulations"):
            simulations(bad)
    with pytest.raises(BudgetError, match="not 'soon'"):
        parse_seconds("soon")


@pytest.mark.parametrize("kind", ["ismcts:infs", "ismcts:1e9s", "ismcts:nans", "ismcts:-1s", "ismcts:1000000000"])
def test_ismcts_budgets_are_refused_not_run(kind: str) -> None:
    """``ismcts:infs`` and ``ismcts:1e9s`` searched for ever; ``ismcts:nans`` was accepted."""
    with pytest.raises(IllegalActionError, match="ismcts budget must be"):
        make_player(kind)


@pytest.mark.parametrize("budget", ["infs", "1e9s", "nans"])
def test_selfplay_with_an_unbounded_ismcts_budget_is_one_line_exit_2(budget: str) -> None:
    players = f"ismcts:{budget},greedy,greedy,greedy"
    rc, _, err = cli("selfplay", "zsy", "--games", "1", "--hands", "1", "--players", players)
    one_error(rc, err, "ismcts budget must be")


@pytest.mark.parametrize("limit", ["1e9", "3601", "inf", "nan", "0"])
def test_cli_time_limit_is_refused_past_an_hour(limit: str) -> None:
    """Decided: refused (exit 2, one line), not silently capped."""
    rc, _, err = cli("solve", "--time-limit", limit, "--game", "zsy", "--hand", "3H")
    one_error(rc, err, "from 0.001 to 3600")


@pytest.mark.parametrize("limit", ["1e308", "3601", "1e400"])
@pytest.mark.parametrize("cmd", ["solve", "hint"])
def test_protocol_time_limit_above_an_hour_is_bad_value(cmd: str, limit: str) -> None:
    line = json.dumps({"id": 1, "cmd": cmd, "puzzle": ZSY_PUZZLE, "time_limit": 0}).replace(
        '"time_limit": 0', f'"time_limit": {limit}'
    )
    reply = ask(EngineServer(), line)
    assert reply["error"]["code"] == "bad_value" and "3600" in reply["error"]["message"], reply


def test_protocol_ai_move_time_limit_is_checked_too() -> None:
    server = EngineServer()
    ask(server, json.dumps({"id": 1, "cmd": "new_game", "game": "zsy", "seed": 1}))
    reply = ask(server, '{"id": 2, "cmd": "ai_move", "game_id": "g1", "time_limit": 1e308}')
    assert reply["error"]["code"] == "bad_value", reply


def test_engine_option_time_limit_uses_the_same_bounds() -> None:
    with pytest.raises(SetupError, match=r"between 0\.001 and 3600"):
        check_options("contract", {"time_limit": 1e9})


def test_protocol_solver_timeout_is_the_timeout_code(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time limit too short for any answer: the protocol's ``timeout``, not ``internal_error``."""
    import solver.answers

    def too_slow(*_: Any, **__: Any) -> Any:
        raise SolverTimeout("CP-SAT found no answer within the time limit")

    monkeypatch.setattr(solver.answers, "solve_puzzle", too_slow)
    reply = ask(EngineServer(), json.dumps({"id": 7, "cmd": "solve", "puzzle": ZSY_PUZZLE, "time_limit": 0.01}))
    assert reply["id"] == 7 and reply["error"]["code"] == "timeout", reply


def test_cli_solver_timeout_is_a_result_and_the_batch_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    import cli.main as main_module

    real = main_module._solve_one
    calls: list[str] = []

    def first_times_out(puzzle: Any, opts: Any) -> Any:
        calls.append(puzzle.name)
        if len(calls) == 1:
            raise SolverTimeout("CP-SAT found no answer within the time limit")
        return real(puzzle, opts)

    monkeypatch.setattr(main_module, "_solve_one", first_times_out)
    rc, out, err = cli("solve", "--json", "--check", str(ROOT / "puzzles" / "zsy"))
    rows = [json.loads(line) for line in out.splitlines()]
    assert rc == 1 and "internal error" not in err, err
    assert len(rows) == len(calls) == len(list((ROOT / "puzzles" / "zsy").glob("*.toml")))
    assert rows[0]["status"] == "timeout" and "check" not in rows[0] and "--time-limit" in rows[0]["error"]
    assert all(r["check"] == "ok" for r in rows[1:])


def test_solve_contract_folder_with_a_hundredth_of_a_second_prints_a_result_per_file() -> None:
    """The issue's command, end to end: no internal error, one result per file."""
    files = sorted((ROOT / "puzzles" / "contract").glob("*.toml"))
    r = subprocess.run(
        [sys.executable, "-m", "cli", "solve", "--json", str(ROOT / "puzzles" / "contract"), "--time-limit", "0.01"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert r.returncode in (0, 1) and "internal error" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [row["puzzle"] for row in rows] == [str(f) for f in files]


def test_hint_timeout_is_one_line_exit_1(monkeypatch: pytest.MonkeyPatch) -> None:
    import solver.engine.hints

    def too_slow(*_: Any, **__: Any) -> Any:
        raise SolverTimeout("CP-SAT found no answer within the time limit")

    monkeypatch.setattr(solver.engine.hints, "hint_for_puzzle", too_slow)
    path = sorted((ROOT / "puzzles" / "zsy").glob("*.toml"))[0]
    rc, _, err = cli("hint", str(path), "--time-limit", "0.01")
    one_error(rc, err, "timeout", want=1)
    assert "internal error" not in err
