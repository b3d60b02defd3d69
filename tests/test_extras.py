"""The optional extras: every optional module fails on import with one line naming its extra, and
the root conftest skips (and lists) exactly the tests that need a missing extra."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from solver.extras import EXTRAS, extra_for

ROOT = Path(__file__).resolve().parents[1]
pytest_plugins = ["pytester"]

# Run in a fresh interpreter with every extra's modules blocked, as on the README's install.
_BLOCKED = """
import importlib.abc, json, sys
BLOCK = set(json.loads(sys.argv[1]))
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCK:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, Block())
try:
    __import__(sys.argv[2])
except BaseException as exc:
    print(type(exc).__name__ + ": " + str(exc))
else:
    print("imported")
"""


def _optional_modules() -> list[str]:
    """The library's modules (solver, web, cli) that import an extra's module at their top level."""
    out = []
    for path in sorted([*ROOT.glob("solver/**/*.py"), *ROOT.glob("web/**/*.py"), *ROOT.glob("cli/**/*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import) and node.col_offset <= 4
            for alias in node.names
        ]
        names += [
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and node.col_offset <= 4 and node.level == 0
        ]
        top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom | ast.Try)]
        flat = [n for t in top_level for n in ([t] if not isinstance(t, ast.Try) else t.body)]
        tops = [a.name for n in flat if isinstance(n, ast.Import) for a in n.names]
        tops += [n.module for n in flat if isinstance(n, ast.ImportFrom) and n.module and n.level == 0]
        if any(extra_for(name) and extra_for(name) != "dev" for name in tops) and names:
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            out.append(module.removesuffix(".__init__"))
    return out


OPTIONAL = _optional_modules()


def test_the_scan_finds_the_adapters() -> None:
    assert {"solver.envs.single", "solver.envs.pettingzoo", "solver.envs.openspiel", "web.app", "web.http"} <= set(
        OPTIONAL
    ), OPTIONAL


@pytest.mark.parametrize("module", OPTIONAL)
def test_an_optional_module_without_its_extra_is_one_line_naming_it(module: str) -> None:
    blocked = sorted({name for names in EXTRAS.values() for name in names if name not in ("pybind11",)})
    r = subprocess.run(
        [sys.executable, "-c", _BLOCKED, json.dumps(blocked), module],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    line = r.stdout.strip()
    assert line.startswith("MissingExtra: ") and "\n" not in line, (module, r.stdout, r.stderr)
    assert "is missing: pip install 'shanghai[" in line


def test_every_extra_of_the_project_is_known() -> None:
    import tomllib

    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"])
    assert set(EXTRAS) <= extras and extras - set(EXTRAS) <= {"test", "rllib"}, extras ^ set(EXTRAS)


def test_the_conftest_skips_and_lists_what_needs_an_extra(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester.makeconftest((ROOT / "conftest.py").read_text(encoding="utf-8"))
    pytester.makepyfile(
        test_module="import fpdf\n\ndef test_a():\n    pass\n",
        test_lazy=(
            "from solver.extras import require\n\n"
            "def test_needs_book():\n    require('fpdf.not_here', 'book')\n\n"
            "def test_plain():\n    assert 1 + 1 == 2\n\n"
            "def test_a_real_import_error():\n    import not_an_extra_module  # noqa: F401\n"
        ),
    )
    listed = pytester.path / "skipped.txt"
    monkeypatch.delenv("SHANGHAI_REQUIRE_EXTRAS", raising=False)
    monkeypatch.setitem(sys.modules, "fpdf", None)  # not installed, as on the README's install
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider", "-rs", "--extras-skipped", str(listed))
    result.assert_outcomes(passed=1, skipped=2, failed=1)  # an import error of a non-extra still fails
    assert "needs an extra: fpdf is missing: pip install 'shanghai[book]'" in result.stdout.str()
    assert sorted(listed.read_text().split()) == ["test_lazy.py::test_needs_book", "test_module.py"]
    monkeypatch.setenv("SHANGHAI_REQUIRE_EXTRAS", "1")  # .ci/run's second run: a missing extra fails
    required = pytester.runpytest_inprocess("-p", "no:cacheprovider", "test_lazy.py")
    required.assert_outcomes(passed=1, failed=2)
