"""One mechanism for the tests that need an optional extra (``pyproject.toml``'s extras).

A test module, a doctest module or a test whose import or run meets a missing
extra (:class:`solver.extras.MissingExtra`, or a ``ModuleNotFoundError`` for a
module an extra brings: :func:`solver.extras.as_missing`) is skipped, with the
extra to install as its reason. So the README's test command passes on the
README's install (``.[test]``), and says what it skipped.

``--extras-skipped FILE`` (or ``SHANGHAI_EXTRAS_SKIPPED=FILE``) writes the node ids
so skipped, one a line: ``.ci/run`` installs the extras and runs exactly those
(no test twice). With
``SHANGHAI_REQUIRE_EXTRAS=1`` nothing is skipped for an extra: a missing one
fails the test (``.ci/run`` sets it for that second run).
"""

from __future__ import annotations

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest

from solver.extras import MissingExtra, as_missing

REQUIRED = os.environ.get("SHANGHAI_REQUIRE_EXTRAS", "") not in ("", "0")
MARK = "needs an extra: "
_skipped: list[str] = []


def pytest_addoption(parser: pytest.Parser) -> None:
    """``--extras-skipped FILE``."""
    parser.addoption(
        "--extras-skipped",
        metavar="FILE",
        help="write the node ids skipped for a missing extra to FILE (one a line; .ci/run runs them next)",
    )


def _skip_for(exc: BaseException) -> None:
    """Skip (with the extra as the reason) when ``exc`` comes from a missing extra; else return."""
    cause: BaseException | None = getattr(exc, "cause", None) or exc  # a conftest's import failure keeps it there
    found: MissingExtra | None = as_missing(cause) or as_missing(exc)
    if found is not None and not REQUIRED:
        pytest.skip(MARK + str(found))


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
    """A module (tests or doctests) whose import meets a missing extra is skipped, not an error."""
    collect = collector.collect

    def guarded() -> list[Any]:
        try:
            return list(collect())
        except Exception as exc:
            _skip_for(exc)
            raise

    collector.collect = guarded  # type: ignore[method-assign]
    return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    """A fixture that meets a missing extra skips its test."""
    try:
        return (yield)
    except Exception as exc:
        _skip_for(exc)
        raise


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    """A test that meets a missing extra as it runs (a lazy import) is skipped."""
    try:
        return (yield)
    except Exception as exc:
        _skip_for(exc)
        raise


def _record(report: pytest.CollectReport | pytest.TestReport) -> None:
    if report.skipped and isinstance(report.longrepr, tuple) and MARK in str(report.longrepr[2]):
        _skipped.append(report.nodeid)


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """Note a module skipped for an extra."""
    _record(report)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """Note a test skipped for an extra."""
    _record(report)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Write ``--extras-skipped``."""
    target = session.config.getoption("--extras-skipped") or os.environ.get("SHANGHAI_EXTRAS_SKIPPED")
    if target:
        Path(target).write_text("".join(f"{nodeid}\n" for nodeid in dict.fromkeys(_skipped)))
