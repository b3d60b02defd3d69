"""Every choice a command offers, for ``--help`` and for shell completion, from the registries themselves.

The games, presets, player kinds and difficulty levels are read from where the library keeps them
(:data:`solver.engine.GAME_NAMES`, the rule sets' ``PRESETS``, :data:`solver.engine.players.PLAYER_KINDS`,
:data:`solver.generate.LEVELS`), so ``--help`` cannot list fewer than the commands accept;
``tests/cli/test_issue25_help.py`` checks every command's help against them.
"""

from __future__ import annotations

from solver.budget import MAX_SIMULATIONS
from solver.engine import GAME_NAMES
from solver.engine.players import PLAYER_KINDS
from solver.generate import LEVELS

__all__ = [
    "GAME_HELP",
    "PLAYER_HELP",
    "OPPONENT_HELP",
    "LEVEL_HELP",
    "QUESTION_HELP",
    "words",
    "complete_game",
    "complete_player",
    "complete_players",
    "complete_level",
    "complete_preset",
]
QUESTION_HELP = (
    "Ask only this kind: play; layoff, discard, laydown, whole (round 7 all at once), outway (go out "
    "only one way), twonear (round 7: the discard with the most outs); out, reply, lead (Zheng Shang "
    "You endgames). laydown, whole, outway, twonear and lead are asked only when named."
)


def words(names: tuple[str, ...] | list[str]) -> str:
    """``a, b or c``."""
    return ", ".join(names[:-1]) + " or " + names[-1] if len(names) > 1 else "".join(names)


_KINDS = tuple(PLAYER_KINDS)
_ROLLOUTS = tuple(k for k in _KINDS if k != "ismcts")  # the kinds a search may play out with

GAME_HELP = words(GAME_NAMES) + "."
OPPONENT_HELP = (
    f"AI kind of the other seats: {words(_KINDS)}, or ismcts:BUDGET[:ROLLOUT] with BUDGET simulations "
    f"(1-{MAX_SIMULATIONS}, e.g. 200) or seconds (0.001-3600, e.g. 0.5s)."
)
PLAYER_HELP = (
    f"{words(_KINDS)}, or ismcts:BUDGET[:ROLLOUT] with BUDGET simulations (1-{MAX_SIMULATIONS}, e.g. 200) "
    f"or seconds (0.001-3600, e.g. 0.5s) and ROLLOUT {words(_ROLLOUTS)}"
)
LEVEL_HELP = words(LEVELS) + "."


def _starting(names: tuple[str, ...] | list[str], incomplete: str) -> list[str]:
    return [n for n in names if n.startswith(incomplete)]


def complete_game(incomplete: str) -> list[str]:
    """Shell completion of a game."""
    return _starting(GAME_NAMES, incomplete)


def complete_player(incomplete: str) -> list[str]:
    """Shell completion of one player kind (``ismcts:`` offers its budget forms)."""
    return _starting([*_KINDS, "ismcts:200", "ismcts:0.5s"], incomplete)


def complete_players(incomplete: str) -> list[str]:
    """Shell completion of ``--players a,b,c``: the last kind of the list."""
    head, comma, last = incomplete.rpartition(",")
    return [head + comma + kind for kind in complete_player(last)]


def complete_level(incomplete: str) -> list[str]:
    """Shell completion of a difficulty level."""
    return _starting(LEVELS, incomplete)


def complete_preset(incomplete: str) -> list[str]:
    """Shell completion of a preset (every game's)."""
    from cli.inline import PRESET_NAMES

    return _starting(PRESET_NAMES, incomplete)
