"""Build the optional compiled core (C++, pybind11) beside the pure-Python package.

Everything else about the package is in ``pyproject.toml``. The core is
optional: with no C++ compiler (or ``SHANGHAI_PURE=1`` at install time) the
install still succeeds and the library runs in pure Python (see
``solver/native/__init__.py``, the one place that decides, and
``docs/decisions.md``).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
SOURCES = HERE / "solver" / "native" / "src"
# One extension per game: solver/native/src/<name>.cpp -> solver.native._<name>, with the further
# sources of EXTRA_SOURCES compiled into the same extension
CORES = ("manipulation", "zsy", "contract")
EXTRA_SOURCES = {"manipulation": ("manipulation_engine.cpp",)}


class OptionalBuildExt(build_ext):
    """build_ext that warns and goes on when a core cannot be compiled (no compiler, a failed build)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any failure means: stay pure
            self._skip("the compiled core", exc)

    def build_extension(self, ext) -> None:  # type: ignore[no-untyped-def]
        try:
            super().build_extension(ext)
        except Exception as exc:
            self._skip(ext.name, exc)

    @staticmethod
    def _skip(what: str, exc: BaseException) -> None:
        print(f"shanghai: {what} not built ({exc}); the pure-Python code is used", file=sys.stderr)


def _extensions() -> list[object]:
    if os.environ.get("SHANGHAI_PURE", "") not in ("", "0"):
        return []
    try:
        from pybind11.setup_helpers import Pybind11Extension
    except ImportError:  # pybind11 is a build requirement; without it, stay pure
        return []
    flags = ["-O2", "-fvisibility=hidden"]
    extra = os.environ.get("SHANGHAI_NATIVE_CFLAGS", "").split()  # e.g. the sanitizer build
    out: list[object] = []
    for name in CORES:
        source = SOURCES / f"{name}.cpp"
        if source.exists():
            out.append(
                Pybind11Extension(
                    f"solver.native._{name}",
                    [str(source.relative_to(HERE))]
                    + [str((SOURCES / extra).relative_to(HERE)) for extra in EXTRA_SOURCES.get(name, ())],
                    include_dirs=[str(SOURCES.relative_to(HERE))],
                    cxx_std=17,
                    extra_compile_args=flags + extra,
                    extra_link_args=extra,
                )
            )
    return out


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
