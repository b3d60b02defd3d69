"""The compiled core's tests: each compares a native entry point with the pure-Python oracle.

Where the core was not built (no C++ compiler) they skip with that reason; in CI
(``CI`` set) the core must be there, so a missing module fails instead.
"""

from __future__ import annotations

import os
from types import ModuleType

import pytest

from solver import native


def require_core(name: str) -> ModuleType:
    """The compiled module ``name``, or a skip (a failure under CI) when it is not built."""
    module = native.core(name)
    if module is None:
        why = f"the compiled core solver.native._{name} is not built (no C++ compiler, or SHANGHAI_PURE=1)"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return module


@pytest.fixture
def manipulation_core() -> ModuleType:
    """The compiled Manipulation core."""
    return require_core("manipulation")


@pytest.fixture
def zsy_core() -> ModuleType:
    """The compiled Zheng Shang You core."""
    return require_core("zsy")


@pytest.fixture
def contract_core() -> ModuleType:
    """The compiled Contract core."""
    return require_core("contract")
