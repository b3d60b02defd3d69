"""``--preset`` and ``--rule`` as a ``[rules]`` table, for every command that takes them.

Below :mod:`cli.main`, :mod:`cli.engine_cmds` and :mod:`cli.generate_cmds`, which all import it.
"""

from __future__ import annotations

from typing import Any

from cli.common import bad_input
from cli.inline import parse_rule_overrides
from solver.errors import ShanghaiError

__all__ = ["rule_overrides"]


def rule_overrides(preset: str | None, rules: list[str]) -> dict[str, Any]:
    """``--preset``/``--rule`` as a ``[rules]`` table; bad input exits 2."""
    try:
        return parse_rule_overrides(preset, rules)
    except ShanghaiError as exc:
        bad_input(str(exc))
