"""The house: the files of ``solver``, ``cli``, ``web`` and ``benchmarks`` import one way.

The graph (``benchmarks/house_graph.py``) counts every import, the lazy ones
inside functions included; a circle of files that import each other fails
the test, named file by file with the imports that close it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.house_graph import REPO, circles, describe, import_graph, picture, with_picture


def test_no_import_circles() -> None:
    graph = import_graph()
    found = [describe(graph, circle) for circle in circles(graph)]
    assert not found, "import circles of files:\n" + "\n".join(found)


def test_architecture_picture_matches_the_code() -> None:
    doc = (REPO / "docs" / "architecture.md").read_text(encoding="utf-8")
    expected = with_picture(doc, picture(import_graph()))
    assert doc == expected, (
        "docs/architecture.md is stale: python -m benchmarks.house_graph --write docs/architecture.md"
    )


def _tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_graph_counts_lazy_relative_and_submodule_imports(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.low import value\n",
            "pkg/low.py": "value = 1\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/mid.py": "def f() -> None:\n    from ..high import g\n",
            "pkg/sub/side.py": "from . import mid\nimport pkg.low\nimport os\n",
            "pkg/high.py": "from pkg import low, value\nfrom pkg.sub import side\ndef g() -> None: ...\n",
        },
    )
    graph = import_graph(tmp_path, ("pkg",))
    assert set(graph.edges) == {
        ("pkg", "pkg.low"),
        ("pkg.sub.mid", "pkg.high"),  # lazy and relative (two levels up)
        ("pkg.sub.side", "pkg.sub.mid"),  # "from . import mid": the submodule's file
        ("pkg.sub.side", "pkg.low"),
        ("pkg.high", "pkg.low"),  # a submodule named in "from pkg import"
        ("pkg.high", "pkg"),  # a name of the package's __init__
        ("pkg.high", "pkg.sub.side"),
    }
    assert circles(graph) == [["pkg.high", "pkg.sub.mid", "pkg.sub.side"]]
    assert describe(graph, circles(graph)[0]).startswith("pkg/high.py, pkg/sub/mid.py, pkg/sub/side.py (")


def test_picture_folds_files_to_folders(tmp_path: Path) -> None:
    _tree(
        tmp_path,
        {
            "app/__init__.py": "",
            "app/main.py": "from lib.core import x\nfrom app import helper\n",
            "app/helper.py": "",
            "lib/__init__.py": "",
            "lib/core.py": "x = 1\n",
            "lib/sub/__init__.py": "",
            "lib/sub/deep.py": "def f() -> None:\n    from lib import core\n",
            "lib/alone/__init__.py": "",
        },
    )
    graph = import_graph(tmp_path, ("app", "lib"))
    assert picture(graph).splitlines() == [
        "```mermaid",
        "flowchart LR",
        '    app["app"]',
        '    lib["lib"]',
        '    lib_alone["lib/alone"]',
        '    lib_sub["lib/sub"]',
        "    app --> lib",
        "    lib_sub --> lib",
        "```",
    ]
    marked = "intro\n<!-- house-graph: begin (python -m benchmarks.house_graph --write docs/architecture.md) -->\nold\n"
    marked += "<!-- house-graph: end -->\nafter\n"
    assert with_picture(marked, "NEW") == marked.replace("\nold\n", "\nNEW\n")
    with pytest.raises(ValueError, match="markers"):
        with_picture("no markers here", "NEW")
