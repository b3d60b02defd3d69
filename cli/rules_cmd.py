"""``shanghai rules [GAME]``: every rule option with its values, default and meaning, and the presets.

Everything printed comes from the rule sets' own metadata (:meth:`solver.rules.base.RuleSet.options_info`
and ``PRESETS``), so it cannot drift from what the solver accepts. ``--markdown`` prints the
whole of ``docs/rules.md`` (a test checks that the file is exactly that).
"""

from __future__ import annotations

import json as jsonlib
import sys
from typing import Annotated, Any, Optional

import typer

from cli.common import bad_input, emit_json, out, say
from solver.rules import GAMES

__all__ = ["rules", "rules_data", "markdown"]


def _shown(value: Any) -> str:
    """A default or preset value as it is written in a puzzle file's ``[rules]``."""
    if value is None:
        return "unlimited"
    if isinstance(value, str):
        return value
    return jsonlib.dumps(value)


def rules_data(game: str) -> dict[str, Any]:
    """One game's options and presets as plain data (``shanghai rules --json``)."""
    cls = GAMES[game]
    return {
        "game": game,
        "default_preset": cls.DEFAULT_PRESET,
        "options": [
            {"name": o.name, "values": o.values, "default": o.default, "meaning": o.doc} for o in cls.options_info()
        ],
        "presets": {name: dict(changes) for name, changes in cls.PRESETS.items()},
    }


PAGE_HEAD = """# Rule options

Every game is played under a rule set: a named **preset** plus **options**
that override it. The options are the variants of the rule books in
`../shared/rules/` (where a rule book is silent, [decisions.md](decisions.md)
and the per-game `decisions-*.md` say what was decided and why).

Give them in a puzzle file's `[rules]` table:

```toml
[rules]
preset = "poker_deck"
jokers = 4
```

or on the command line with `--preset NAME` and `--rule KEY=VALUE`
(repeatable; `true`/`false` and integers are read as such) on `shanghai solve`
(inline positions), `play` and `selfplay`, or as the `rules` object of the
engine's `new_game` ([protocol.md](protocol.md)). `shanghai rules [GAME]`
prints the same tables as below from the rule sets themselves: this page
is generated, `shanghai rules --markdown > docs/rules.md` writes it (the prose
lives in `cli/rules_cmd.py`), and a test fails when the file differs. An
unknown option or a bad value is one line naming the option and the values
it takes.

A preset with a fixed player count sets it: `shanghai play zsy --preset teams6`
seats six players, and `selfplay` fills six seats unless `--players` names them.

Engine options (not rules: limits the engine applies to a game) are listed per
game in `solver.engine.ENGINE_OPTIONS` and in [protocol.md](protocol.md).

## The options

"""
"""The prose of docs/rules.md above the tables (the page is ``PAGE_HEAD`` and every game's tables)."""


def page() -> str:
    """The whole of docs/rules.md: ``shanghai rules --markdown`` prints it, and a test compares it with the file."""
    return PAGE_HEAD + "\n".join(markdown(game) for game in GAMES)


def markdown(game: str) -> str:
    """The option and preset tables of one game, as in ``docs/rules.md``."""
    data = rules_data(game)
    lines = [f"### {game}", "", "| option | values | default | meaning |", "|---|---|---|---|"]
    for o in data["options"]:
        values = o["values"].replace("|", "\\|")
        lines.append(f"| `{o['name']}` | {values} | `{_shown(o['default'])}` | {o['meaning']} |")
    lines += ["", "| preset | changes from the defaults |", "|---|---|"]
    for name, changes in data["presets"].items():
        text = ", ".join(f"`{k} = {_shown(v)}`" for k, v in changes.items()) or "(the defaults)"
        lines.append(f"| `{name}` | {text} |")
    return "\n".join(lines) + "\n"


def _print(game: str) -> None:
    data = rules_data(game)
    say(out, (game, "bold"), ("  default preset: " + data["default_preset"], "dim"))
    width = max(len(o["name"]) for o in data["options"])
    for o in data["options"]:
        say(out, "  ", (o["name"].ljust(width), "bold"), f"  {o['values']}  ", (f"[{_shown(o['default'])}]", "green"))
        say(out, "  ", " " * width, "  ", (o["meaning"], "dim"))
    say(out, "  presets:")
    for name, changes in data["presets"].items():
        text = ", ".join(f"{k}={_shown(v)}" for k, v in changes.items()) or "(the defaults)"
        say(out, "    ", (name, "bold"), "  ", text)


def _complete_game(incomplete: str) -> list[str]:
    return [g for g in GAMES if g.startswith(incomplete)]


def rules(
    game: Annotated[
        Optional[str],  # noqa: UP045 - typer needs Optional here
        typer.Argument(
            metavar="[GAME]", help="manipulation, contract or zsy (default: all three).", autocompletion=_complete_game
        ),
    ] = None,
    json: Annotated[bool, typer.Option("--json", help="Machine output: one JSON object per game.")] = False,
    md: Annotated[bool, typer.Option("--markdown", help="The tables of docs/rules.md.")] = False,
) -> None:
    """Every rule option with its values, default and meaning, and the presets.

    Use them in a puzzle file's [rules] table, or as --preset NAME and
    --rule KEY=VALUE on solve, play and selfplay.
    """
    if json and md:
        bad_input("--json and --markdown are two outputs: give one")
    if game is not None and game not in GAMES:
        bad_input(f"unknown game {game[:40]!r} (known: {', '.join(GAMES)})")
    if md:  # written straight to stdout and flushed (a test reads it), the page or one game's tables
        sys.stdout.write(markdown(game) if game else page())
        sys.stdout.flush()
        return
    for name in [game] if game else list(GAMES):
        if json:
            emit_json(rules_data(name))
        else:
            _print(name)
