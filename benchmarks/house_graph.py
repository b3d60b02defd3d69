"""The import graph of the project's files, read from the source with ``ast``.

Every ``import`` and ``from ... import`` counts, the lazy ones inside
functions included; relative imports are resolved; ``from pkg import name``
where ``name`` is a submodule counts as importing that submodule's file; a
package's ``__init__.py`` is a file of its own.  Only edges between the
project's own files (the packages in :data:`ROOTS`) are kept.

``tests/test_house.py`` fails on each circle of files (:func:`circles`);
``docs/architecture.md`` carries the graph folded to folders (:func:`picture`,
a mermaid block between :data:`BEGIN` and :data:`END`), rewritten by::

    python -m benchmarks.house_graph --write docs/architecture.md

and checked by the same test file. ``python -m benchmarks.house_graph`` alone
prints the circles (if any) and the picture.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath

import networkx as nx

ROOTS: tuple[str, ...] = ("solver", "cli", "web", "benchmarks")
"""The top-level packages whose files make up the graph."""

REPO = Path(__file__).resolve().parent.parent
"""The repository's root (the folder holding the packages in :data:`ROOTS`)."""


BEGIN = "<!-- house-graph: begin (python -m benchmarks.house_graph --write docs/architecture.md) -->"
"""The line before the generated picture in ``docs/architecture.md``."""

END = "<!-- house-graph: end -->"
"""The line after the generated picture."""


def module_files(root: Path = REPO, roots: Iterable[str] = ROOTS) -> dict[str, Path]:
    """Map each module name (``solver.envs.turn``, ``solver.envs``) to its file."""
    found: dict[str, Path] = {}
    for top in roots:
        for path in sorted((root / top).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


def _package(module: str, path: Path) -> str:
    """The package a module's relative imports start from."""
    if path.name == "__init__.py":
        return module
    return module.rpartition(".")[0]


def _resolve(module: str, path: Path, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` names."""
    if node.level == 0:
        return node.module or ""
    base = _package(module, path).split(".")
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The project module a dotted name lives in (the longest known prefix)."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def _targets(module: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The project modules one file imports."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                owner = _owner(alias.name, modules)
                if owner is not None:
                    yield owner
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, path, node)
            for alias in node.names:
                owner = _owner(f"{source}.{alias.name}", modules)
                if owner is not None:
                    yield owner


def import_graph(root: Path = REPO, roots: Iterable[str] = ROOTS) -> nx.DiGraph:
    """The directed graph of files (by module name): an edge for each import."""
    modules = module_files(root, roots)
    graph = nx.DiGraph()
    for module, path in modules.items():
        graph.add_node(module, path=path.relative_to(root).as_posix())
        for target in _targets(module, path, modules):
            if target != module:
                graph.add_edge(module, target)
    return graph


def circles(graph: nx.DiGraph) -> list[list[str]]:
    """Each circle of files (a strongly connected component of more than one), sorted."""
    found = [sorted(component) for component in nx.strongly_connected_components(graph) if len(component) > 1]
    return sorted(found)


def describe(graph: nx.DiGraph, circle: list[str]) -> str:
    """One line naming a circle's files and the edges that close it."""
    members = set(circle)
    files = ", ".join(graph.nodes[module]["path"] for module in circle)
    edges = "; ".join(
        f"{source} -> {target}" for source in circle for target in sorted(graph.successors(source)) if target in members
    )
    return f"{files} ({edges})"


def folder(graph: nx.DiGraph, module: str) -> str:
    """The folder a module's file lies in (``solver/engine`` for ``solver.engine.players`` and ``solver.engine``)."""
    return str(PurePosixPath(graph.nodes[module]["path"]).parent)


def folded(graph: nx.DiGraph) -> nx.DiGraph:
    """The graph of folders: an edge from one folder to another when a file of the first imports one of the second."""
    out = nx.DiGraph()
    out.add_nodes_from(folder(graph, module) for module in graph.nodes)
    out.add_edges_from((folder(graph, a), folder(graph, b)) for a, b in graph.edges)
    out.remove_edges_from(list(nx.selfloop_edges(out)))
    return out


def picture(graph: nx.DiGraph) -> str:
    """The folded graph as a mermaid block, each arrow from an importing folder to the imported one, sorted."""
    folders = folded(graph)

    def node(name: str) -> str:
        return name.replace("/", "_")

    lines = ["```mermaid", "flowchart LR"]
    lines += [f'    {node(name)}["{name}"]' for name in sorted(folders.nodes)]
    lines += [f"    {node(a)} --> {node(b)}" for a, b in sorted(folders.edges)]
    return "\n".join([*lines, "```"])


def with_picture(text: str, block: str) -> str:
    """``text`` with the lines between :data:`BEGIN` and :data:`END` replaced by ``block``."""
    head, begin, rest = text.partition(BEGIN + "\n")
    _, end, tail = rest.partition(END)
    if not begin or not end:
        raise ValueError(f"the markers {BEGIN!r} and {END!r} are not both in the text")
    return f"{head}{BEGIN}\n{block}\n{END}{tail}"


def main(argv: list[str] | None = None) -> int:
    """Print the circles of files and the picture, or write the picture into a doc; exit 1 on a circle."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.house_graph", description=__doc__)
    parser.add_argument("--write", type=Path, metavar="DOC", help="rewrite the picture between the markers in DOC")
    args = parser.parse_args(argv)
    graph = import_graph()
    found = circles(graph)
    for circle in found:
        print(f"circle: {describe(graph, circle)}", file=sys.stderr)
    print(f"{graph.number_of_nodes()} files, {graph.number_of_edges()} imports, {len(found)} circles", file=sys.stderr)
    block = picture(graph)
    if args.write is None:
        print(block)
    else:
        try:
            args.write.write_text(with_picture(args.write.read_text(encoding="utf-8"), block), encoding="utf-8")
        except (OSError, ValueError) as exc:
            print(f"house_graph: {exc}", file=sys.stderr)
            return 2
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
