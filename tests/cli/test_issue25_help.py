"""Issue 25: typer's shell completion is on, and ``--help`` lists every choice a command accepts (games, player
kinds and their budget forms, presets, objectives, levels), read from the registries so it cannot fall behind."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cli.inline import PRESET_NAMES
from solver.engine import GAME_NAMES
from solver.engine.ismcts import ROLLOUTS
from solver.engine.players import PLAYER_KINDS
from solver.generate import LEVELS
from tests.cli.test_issue12 import cli

ROOT = Path(__file__).resolve().parents[2]


def help_of(*command: str) -> str:
    rc, out, err = cli(*command, "--help")
    assert rc == 0, err
    return " ".join(out.split())  # the words, whatever the wrapping


def test_completion_is_installed() -> None:
    text = help_of()
    assert "--install-completion" in text and "--show-completion" in text


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        ("shanghai so", {"solve"}),
        ("shanghai selfplay z", {"zsy"}),
        ("shanghai selfplay zsy --players greedy,ism", {"greedy,ismcts", "greedy,ismcts:200", "greedy,ismcts:0.5s"}),
        ("shanghai generate zsy --difficulty e", {"easy", "expert"}),
        ("shanghai generate zsy --preset te", {"teams6"}),
        ("shanghai solve --objective ", {"cards", "value"}),
    ],
)
def test_the_shell_completes_commands_and_choices(words: str, expected: set[str]) -> None:
    env = {**os.environ, "_SHANGHAI_COMPLETE": "complete_bash", "COMP_WORDS": words}
    env["COMP_CWORD"] = str(len(words.split()) - (0 if words.endswith(" ") else 1))
    r = subprocess.run([sys.executable, "-m", "cli"], capture_output=True, text=True, cwd=ROOT, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert set(r.stdout.split()) == expected, r.stdout


@pytest.mark.parametrize("command", [["play"], ["selfplay"], ["generate"], ["rules"]])
def test_help_lists_every_game(command: list[str]) -> None:
    text = help_of(*command)
    assert all(game in text for game in GAME_NAMES), text


@pytest.mark.parametrize("command", [["solve"], ["play"], ["selfplay"], ["generate"]])
def test_help_lists_every_preset(command: list[str]) -> None:
    text = help_of(*command)
    assert all(preset in text for preset in PRESET_NAMES), text


@pytest.mark.parametrize(
    ("command", "option"), [(["play"], "--opponents"), (["selfplay"], "--players"), (["hint"], "--player")]
)
def test_help_lists_every_player_kind(command: list[str], option: str) -> None:
    text = help_of(*command)
    described = text.split(option, 1)[1].split(" --", 1)[0]
    assert all(kind in described for kind in PLAYER_KINDS), described
    if option != "--opponents":  # play's opponents are the plain kinds (ismcts with its default budget)
        assert "ismcts:BUDGET[:ROLLOUT]" in described and all(r in described for r in ROLLOUTS), described


def test_help_lists_objectives_and_levels() -> None:
    assert "cards|value" in help_of("solve")
    text = help_of("generate")
    assert all(level in text for level in LEVELS)
