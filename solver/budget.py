"""The one place every budget is checked: time limits and search sizes, for every front end.

A budget is what a caller gives a question to spend: seconds (``--time-limit``, the protocol's
``time_limit``, the engine option ``time_limit``, an ``ismcts:0.5s`` player) or simulations (an
``ismcts:200`` player). Each is a positive, finite number within a cap; anything else is a
:class:`BudgetError` (a :class:`~solver.errors.ShanghaiError`: bad input, exit 2 in the CLI,
``bad_value`` in the protocol and the web API) whose message names the budget and the range.
Budgets above the cap are refused, not silently cut: a caller who typed ``1e9`` meant something
the engine will not do, and is told so (docs/cli.md, "Budgets").

>>> seconds(0.5)
0.5
>>> seconds(1e9, "--time-limit")
Traceback (most recent call last):
...
solver.budget.BudgetError: --time-limit must be a number of seconds from 0.001 to 3600, not 1e+09
>>> simulations(200)
200
>>> parse_seconds("nan", "ismcts budget")
Traceback (most recent call last):
...
solver.budget.BudgetError: ismcts budget must be a number of seconds from 0.001 to 3600, not nan
"""

from __future__ import annotations

import math
from typing import Any, Final

from solver.errors import ShanghaiError

__all__ = [
    "BudgetError",
    "MIN_SECONDS",
    "MAX_SECONDS",
    "MAX_SIMULATIONS",
    "seconds",
    "parse_seconds",
    "simulations",
]

MIN_SECONDS: Final = 0.001
"""The shortest time limit anyone may ask for (CP-SAT's own floor: :data:`solver.cpsat.MIN_TIME`)."""

MAX_SECONDS: Final = 3600.0
"""The longest time limit anyone may ask for: one hour per question."""

MAX_SIMULATIONS: Final = 100_000
"""The most deals an ``ismcts:N`` player may search for one decision (about an hour at the
measured 20-40 ms a deal on this machine's slowest game)."""


class BudgetError(ShanghaiError):
    """A budget that is not a positive, finite number within its cap."""


def _shown(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)[:40]


def seconds(value: Any, what: str = "time limit") -> float:
    """``value`` as seconds, checked: a real number from :data:`MIN_SECONDS` to :data:`MAX_SECONDS`."""
    number = isinstance(value, (int, float)) and not isinstance(value, bool)
    if not number or not math.isfinite(value) or not MIN_SECONDS <= value <= MAX_SECONDS:
        raise BudgetError(
            f"{what} must be a number of seconds from {MIN_SECONDS:g} to {MAX_SECONDS:g}, not {_shown(value)}"
        )
    return float(value)


def parse_seconds(text: str, what: str = "time limit") -> float:
    """Seconds written as text (``0.5``), checked as :func:`seconds`."""
    try:
        value = float(text)
    except ValueError:
        raise BudgetError(f"{what} must be a number of seconds, not {text[:40]!r}") from None
    return seconds(value, what)


def simulations(value: Any, what: str = "simulations") -> int:
    """``value`` as a number of simulations, checked: an integer from 1 to :data:`MAX_SIMULATIONS`."""
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= MAX_SIMULATIONS:
        raise BudgetError(
            f"{what} must be a whole number of simulations from 1 to {MAX_SIMULATIONS}, not {_shown(value)}"
        )
    return value
