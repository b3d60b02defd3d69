"""Doctest collection: the adapters for optional extras are skipped where the extra is missing (never under CI)."""

from __future__ import annotations

import importlib.util
import os

collect_ignore = [
    name
    for name, module in (("pettingzoo.py", "pettingzoo"), ("openspiel.py", "pyspiel"))
    if importlib.util.find_spec(module) is None and not os.environ.get("CI")
]
