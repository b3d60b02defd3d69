"""Hostile calls straight into the compiled modules: every native entry point, no Python checks between.

The public API checks every input before it crosses (:mod:`benchmarks.core_entries`
fuzzes that side). This module goes around those checks: it calls each
function and method of ``solver.native._<core>`` (the names of the typed stubs
``solver/native/_<core>.pyi``, :func:`stub_entries`) with arguments that are
realistic or hostile. Wrong lengths, negative and huge counts, ints past 64
bits, wrong types, callbacks that raise or answer a non-bool.

The realistic arguments are recorded: :func:`record` runs the public entry
points with the compiled modules wrapped (:class:`_Recorder`), and keeps the
arguments of each native call as a template. :func:`hostile_call` takes a
template, changes one to three of its arguments (:func:`mutate`) and calls the
native function. The call may answer, or refuse with a ``ValueError``
(subclass) or a ``TypeError``. Anything else raises :class:`Crash`. An abort or a
sanitizer report ends the process, and libFuzzer reports the input.
"""

from __future__ import annotations

import ast
import random
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solver import native

__all__ = ["Crash", "Template", "hostile_call", "mutate", "record", "stub_entries"]

_STUBS = Path(native.__file__).parent


def stub_entries(core: str) -> tuple[str, ...]:
    """Every function and method of ``solver.native._<core>``, from its typed stub: ``core.fn`` and
    ``core.Class.method`` (the constructor as ``core.Class``; properties left out: they take no input)."""
    tree = ast.parse((_STUBS / f"_{core}.pyi").read_text())
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            names.append(f"{core}.{node.name}")
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and not item.decorator_list:
                    name = "" if item.name == "__init__" else "." + item.name
                    names.append(f"{core}.{node.name}{name}")
    return tuple(names)


@dataclass(frozen=True, slots=True)
class Template:
    """The arguments of one recorded native call; for a method, its object's constructor arguments too."""

    name: str
    args: tuple[Any, ...]
    ctor: tuple[Any, ...] = ()


class Crash(Exception):
    """A native call raised something other than a ValueError (subclass) or a TypeError."""


class _Recorder:
    """A stand-in for a compiled module (or one of its objects): calls go through, arguments are kept."""

    def __init__(self, real: Any, prefix: str, seen: dict[str, list[Template]], ctor: tuple[Any, ...] = ()) -> None:
        self._real, self._prefix, self._seen, self._ctor = real, prefix, seen, ctor

    def __getattr__(self, attr: str) -> Any:
        value = getattr(self._real, attr)
        if not callable(value):
            return value
        name = f"{self._prefix}.{attr}"

        def call(*args: Any) -> Any:
            self._seen.setdefault(name, []).append(Template(name, args, self._ctor))
            out = value(*args)
            if isinstance(value, type):  # a class of the module: its methods are recorded too
                return _Recorder(out, name, self._seen, args)
            return out

        return call


def record(per_entry: int = 6, seed: int = 11) -> dict[str, list[Template]]:
    """Run each public entry point ``per_entry`` times on the native path; the native calls' arguments."""
    from benchmarks.core_entries import ENTRIES, RandomSource, outcome
    from solver.errors import ShanghaiError

    seen: dict[str, list[Template]] = {}
    saved = dict(native._loaded)
    try:
        for core in native.CORES:
            mod = native.core(core)
            if mod is not None:
                native._loaded[core] = _Recorder(mod, core, seen)  # type: ignore[assignment]
        for k, entry in enumerate(ENTRIES):
            for j in range(per_entry):
                with suppress(ShanghaiError):
                    outcome(entry, entry.args(RandomSource(seed * 7919 + k * 1000 + j)))
    finally:
        native._loaded.clear()
        native._loaded.update(saved)
    _derive(seen)
    return seen


def _derive(seen: dict[str, list[Template]]) -> None:
    """Templates for the entry points the public calls reach rarely or never, made from recorded ones:
    ``natural_best`` (the tests' entry) from ``natural_program``'s counts, ``combo_cost`` from
    ``price_combo`` (the same arguments), a Search's ``candidates`` and ``price_moved`` from its
    constructor's arguments."""
    from solver.manipulation import natural_states

    for t in seen.get("manipulation.natural_program", [])[:20]:
        tc, bc, ace, budget, target = t.args
        stages = natural_states._stages(tc, bc, ("low", "high", "both")[ace])
        seen.setdefault("manipulation.natural_best", []).append(
            Template("manipulation.natural_best", (stages, budget, target))
        )
    for t in seen.get("contract.price_combo", []):
        seen.setdefault("contract.combo_cost", []).append(Template("contract.combo_cost", t.args))
    for t in seen.get("contract.Search", []):
        n = len(t.args[4])
        seen.setdefault("contract.Search.candidates", []).append(Template("contract.Search.candidates", (), t.args))
        combo = [(k, 0) for k in range(n)]
        for card, to_hand in ((0, 1), (51, -1), (-1, 1), (-1, -1)):
            name = "contract.Search.price_moved"
            seen.setdefault(name, []).append(Template(name, (combo, card, to_hand), t.args))


# --- hostile values -------------------------------------------------------------------------------

_INTS = (
    0,
    1,
    -1,
    2,
    4,
    5,
    13,
    52,
    55,
    64,
    255,
    -(2**31),
    2**31 - 1,
    2**31,
    2**32,
    2**36,
    2**62,
    2**63 - 1,
    2**63,
    -(2**63),
    2**64,
    10**30,
)
_ODD: tuple[Any, ...] = (None, "x", "", 1.5, float("nan"), b"\x00", (), [], {}, object(), [None], ["x"], [1.5])


class _Hostile(ValueError):
    """What a hostile callback raises: it must come back to the caller (as itself)."""


def _callbacks(src: Any) -> Any:
    def raises(*_: Any) -> Any:
        raise _Hostile("a callback raised")

    choices: tuple[Callable[..., Any], ...] = (
        raises,
        lambda *_: True,
        lambda *_: False,
        lambda *_: "yes",
        lambda *_: None,
        lambda *_: 2**70,
    )
    return choices[src.below(len(choices))]


def _hostile(value: Any, src: Any, depth: int = 0) -> Any:
    """A value in place of ``value``: of its kind but out of range, or of another kind."""
    roll = src.below(8)
    if roll == 0:
        return _ODD[src.below(len(_ODD))]
    if roll == 1:
        return _callbacks(src)
    if isinstance(value, bool):
        return not value if roll < 4 else _INTS[src.below(len(_INTS))]
    if isinstance(value, int):
        return _INTS[src.below(len(_INTS))]
    if isinstance(value, str):
        return ("low", "high", "both", "fewer", "half", "any", "", "LOW", "x" * 300)[src.below(9)]
    if isinstance(value, (list, tuple, bytes)):
        return _hostile_sequence(value, src, depth)
    if isinstance(value, type):
        return (ValueError, KeyError, _Hostile, int)[src.below(4)]
    return _callbacks(src) if callable(value) else None


def _hostile_sequence(value: Sequence[Any], src: Any, depth: int) -> Any:
    items = list(value)
    roll = src.below(5)
    if roll == 0 and items:  # shorter
        del items[src.below(len(items)) :]
    elif roll == 1:  # longer
        items += [items[-1] if items else 0] * (1 + src.below(70))
    elif items and depth < 3:  # one item hostile (a nested one in turn)
        k = src.below(len(items))
        items[k] = _hostile(items[k], src, depth + 1)
    else:
        items = [_INTS[src.below(len(_INTS))] for _ in range(src.below(60))]
    return tuple(items) if isinstance(value, tuple) and src.below(2) else items


def mutate(args: tuple[Any, ...], src: Any) -> tuple[Any, ...]:
    """``args`` with one to three of them hostile (sometimes none: the recorded call itself)."""
    out = list(args)
    if out:
        for _ in range(src.below(4)):
            k = src.below(len(out))
            out[k] = _hostile(out[k], src)
    return tuple(out)


def _resolve(name: str) -> tuple[Any, str | None]:
    """The compiled callable of ``name`` (``core.fn`` or ``core.Class``), and the method name if any."""
    core, *rest = name.split(".")
    mod = native.core(core)
    if mod is None:
        raise LookupError(f"solver.native._{core} is not built")
    obj = getattr(mod, rest[0])
    return obj, rest[1] if len(rest) > 1 else None


def hostile_call(template: Template, src: Any) -> str:
    """Call ``template``'s native entry point with mutated arguments: ``ok``, ``ValueError`` or ``TypeError``.

    Anything else raises :class:`Crash`. For a method, the object is built from the
    recorded constructor arguments first (or, one time in four, from mutated ones)."""
    fn, method = _resolve(template.name)
    args = mutate(template.args, src)
    try:
        if method is not None:
            ctor = mutate(template.ctor, src) if src.below(4) == 0 else template.ctor
            obj = fn(*ctor)
            fn = getattr(obj, method)
        fn(*args)
        if method is not None and src.below(2):
            _ = obj.complete if hasattr(obj, "complete") else None
    except (ValueError, TypeError) as exc:  # _Hostile is a ValueError: a callback's error came back
        return type(exc).__name__ if type(exc) in (ValueError, TypeError) else "ValueError"
    except Exception as exc:
        raise Crash(f"{template.name}{_clip(args)}: {type(exc).__name__}: {exc}") from exc
    return "ok"


def _clip(value: Any, most: int = 400) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


def demo(seed: int = 0, calls: int = 200) -> dict[str, int]:
    """``calls`` hostile calls over every recorded template (a quick check by hand)."""
    templates = [t for ts in record().values() for t in ts]
    rng = random.Random(seed)
    counts: dict[str, int] = {}

    class _Src:
        def below(self, n: int) -> int:
            return rng.randrange(n)

    for _ in range(calls):
        kind = hostile_call(templates[rng.randrange(len(templates))], _Src())
        counts[kind] = counts.get(kind, 0) + 1
    return counts
