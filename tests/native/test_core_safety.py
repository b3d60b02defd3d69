"""The compiled core's safety harness: native == pure over every entry point, typed errors, flat RSS.

The harness (:mod:`benchmarks.core_entries`) is generic over the three games'
public functions; the tests on a compiled module skip (fail under CI) where
it is not built. The harness itself is tested here with a stand-in module, so
that a harness that stopped comparing, or let a crash through, fails now.
"""

from __future__ import annotations

import types
from typing import Any

import pytest

from benchmarks.core_entries import ENTRIES, Crash, Entry, RandomSource, differ, outcome
from benchmarks.fuzz_core import run_random
from benchmarks.rss_core import measure
from solver import native
from solver.errors import TooManyCopiesError
from tests.native.conftest import require_core


def _no_args(src: Any) -> tuple[Any, ...]:
    return ()


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> str:
    """A stand-in compiled module for zsy (the native path then differs from inside ``pure()``)."""
    if native.core("zsy") is None:
        if native._forced_pure:
            pytest.skip("SHANGHAI_PURE=1: no native path to stand in for")
        monkeypatch.setitem(native._loaded, "zsy", types.ModuleType("solver.native._zsy"))
    return "zsy"


def test_a_disagreement_is_reported(stand_in: str) -> None:
    entry = Entry("which path", stand_in, _no_args, lambda: native.core(stand_in) is not None)
    problem = differ(entry, ())
    assert problem is not None and "native ('ok', True) != pure ('ok', False)" in problem


def test_equal_answers_are_no_disagreement(stand_in: str) -> None:
    assert differ(Entry("same", stand_in, _no_args, lambda: 42), ()) is None


def test_a_crash_is_not_an_answer() -> None:
    def boom() -> None:
        raise RuntimeError("native abort")

    with pytest.raises(Crash, match="RuntimeError: native abort"):
        differ(Entry("boom", "zsy", _no_args, boom), ())


def test_typed_errors_are_outcomes_compared_by_type_and_message(stand_in: str) -> None:
    def refuse() -> None:
        raise TooManyCopiesError("3 copies of 7S; the decks hold 2")

    entry = Entry("refuse", stand_in, _no_args, refuse)
    assert outcome(entry, ()) == ("error", "TooManyCopiesError: 3 copies of 7S; the decks hold 2")
    assert differ(entry, ()) is None


def test_every_compiled_module_has_entry_points() -> None:
    assert {e.core for e in ENTRIES} == set(native.CORES)


def test_every_entry_point_runs_on_the_pure_path_with_typed_errors_only() -> None:
    """The input makers and calls themselves: no crash on the oracle's side (bad inputs give typed errors)."""
    seen: set[str] = set()
    for entry in ENTRIES:
        for seed in range(4 if entry.cheap else 1):
            with native.pure():
                seen.add(outcome(entry, entry.args(RandomSource(seed)))[0])
    assert seen <= {"ok", "error", "timeout"} and "ok" in seen


def test_the_input_makers_give_bad_input_sometimes() -> None:
    """Some drawn inputs are refused with a typed error (checked before anything crosses)."""
    entry = next(e for e in ENTRIES if e.name == "zsy.fewest_plays")
    with native.pure():
        kinds = {outcome(entry, entry.args(RandomSource(seed)))[0] for seed in range(60)}
    assert kinds == {"ok", "error"}


@pytest.mark.parametrize("name", native.CORES)
def test_native_equals_pure_on_random_inputs(name: str) -> None:
    require_core(name)
    entries = [e for e in ENTRIES if e.core == name]
    counts = run_random(entries, 15, seed=3)
    assert sum(counts.values()) >= 15 * len(entries) - counts["not an input"]


@pytest.mark.parametrize("name", native.CORES)
def test_rss_is_flat_over_many_native_calls(name: str) -> None:
    require_core(name)
    for entry in ENTRIES:
        if entry.core == name and entry.cheap:
            growth = measure(entry, 20_000, 32, seed=5)
            assert growth.path == "native"
            assert growth.growth_mb < 4.0, growth


def test_the_rss_check_sees_a_leak() -> None:
    """A stand-in entry point that keeps 4 KB a call: the measure must see it (so flat means flat)."""
    kept: list[bytearray] = []

    def leak() -> int:
        kept.append(bytearray(4096))
        return len(kept)

    growth = measure(Entry("leak", "zsy", _no_args, leak), 4_000, 1, seed=0)
    assert growth.growth_mb > 10
