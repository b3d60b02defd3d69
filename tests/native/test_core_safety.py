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


# --- straight into the compiled modules: every entry point of the stubs, hostile arguments -----------


@pytest.mark.parametrize("name", native.CORES)
def test_every_stub_entry_point_has_a_recorded_call(name: str) -> None:
    """The direct fuzz starts from a recorded call of each function and method the stub declares."""
    from benchmarks.core_hostile import record, stub_entries

    require_core(name)
    seen = record()
    assert stub_entries(name) and all(seen.get(entry) for entry in stub_entries(name))


@pytest.mark.parametrize("name", native.CORES)
def test_hostile_calls_answer_or_refuse_with_value_or_type_errors(name: str) -> None:
    """Seeded hostile calls (wrong lengths, huge counts, wrong types, bad callbacks): no other error,
    and no call that runs for ever (the contract core's did before its caps; the two tests below pin
    each fix)."""
    from benchmarks.core_hostile import hostile_call, record

    require_core(name)
    templates = [t for key, ts in record().items() if key.startswith(name + ".") for t in ts]
    kinds = {hostile_call(templates[k % len(templates)], RandomSource(k)) for k in range(1500)}
    assert kinds <= {"ok", "ValueError", "TypeError"} and "ok" in kinds


def test_a_callback_is_read_by_its_truth() -> None:
    """``expired`` answering a non-bool is read as Python reads it (it raised a pybind11 cast error)."""
    require_core("zsy")
    zsy = native.core("zsy")
    assert zsy is not None
    assert zsy.fewest(0b1_000_001, 0, 0, 5, lambda: "", 1000)[0] in (0, 1)
    assert zsy.fewest(0b1_000_001, 0, 0, 5, lambda: "yes", 1000)[0] in (0, 1, 2)
    with pytest.raises(TypeError):
        zsy.fewest(0b1_000_001, 0, 0, 5, None, 1000)


def test_contract_core_refuses_what_would_run_for_ever() -> None:
    """Huge counts and long combinations are refused with a ValueError (they hung the process)."""
    from solver.contract.native import MAX_MELDS, check_counts, contract_core
    from solver.errors import CardError

    require_core("contract")
    mod = native.core("contract")
    assert mod is not None
    run = (True, 4, 3, 0, (9, 10, 11, 12))
    zero = [0] * 52
    with pytest.raises(ValueError, match="at most 8 shapes"):
        mod.price_combo([run] * 9, zero, zero, 0, 0)
    with pytest.raises(ValueError, match=r"0\.\.64"):
        mod.combo_cost([run], zero, zero, 2**31 - 1, 0)
    with pytest.raises(ValueError, match=r"0\.\.64"):
        mod.hand_lay_down([*zero, 2**31 - 1], [52], [(True, 4)], [False], "low", "fewer", False, True)
    search = mod.Search(zero, zero, 0, 0, [(True, 4)], [False], "low", "fewer", False, False, None)
    with pytest.raises(ValueError, match="one shape a requirement"):
        search.price_moved([(0, 0)] * 2, 0, 1)
    with pytest.raises(CardError):
        check_counts([65, *zero[1:]], zero, 0, 0)
    assert contract_core(MAX_MELDS) is mod and contract_core(MAX_MELDS + 1) is None


def test_manipulation_core_refuses_a_target_past_any_hand() -> None:
    """A target of -2**31 overflowed ``target - left`` (UBSan in the sanitizer build): refused now."""
    require_core("manipulation")
    mod = native.core("manipulation")
    assert mod is not None
    zero = [0] * 52
    for target in (-(2**31), 2**31 - 1):
        with pytest.raises(ValueError, match="target out of range"):
            mod.natural_program(zero, zero, 0, 100, target)
        with pytest.raises(ValueError, match="target out of range"):
            mod.natural_best([], 100, target)
    assert mod.natural_program(zero, zero, 0, 100, 1 << 20)[0] == 0
