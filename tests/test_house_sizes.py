"""The house's size limits (issue 41): no module over 600 lines, no function over 60.

Every ``.py`` file of ``solver``, ``cli``, ``web`` and ``benchmarks`` is
measured. A module's size is its number of lines. A function's size is its
body: from its first statement after the docstring to its last line, blank
lines and comments inside included. The ``def`` line, the signature and the
decorators do not count, so a typer command's long signature of options
(one ``typer.Option`` a line) costs nothing; neither does the docstring.
Methods and nested functions are measured too, and a nested function's lines
also count in the function around it (a closure is part of its body).

A module or function over its limit fails the test unless it is listed in
:data:`ALLOWED_MODULES` or :data:`ALLOWED_FUNCTIONS` with the reason it may
be long (a real reason, such as a generated table; never "not split yet").
An entry that no longer exists or is no longer over the limit fails too, so
the lists only ever shrink to what is true.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("solver", "cli", "web", "benchmarks")
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60

ALLOWED_MODULES: dict[str, str] = {}
"""Modules allowed over :data:`MAX_MODULE_LINES`: path (from the repository root) -> the reason."""

ALLOWED_FUNCTIONS: dict[tuple[str, str], str] = {}
"""Functions allowed over :data:`MAX_FUNCTION_LINES`: (path, qualified name) -> the reason."""


def body_lines(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The lines of ``node``'s body, from its first statement after the docstring to its end (0 if none)."""
    body = node.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
        body = body[1:]
    if not body:
        return 0
    end = node.end_lineno if node.end_lineno is not None else body[-1].lineno
    return end - body[0].lineno + 1


def functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function of ``tree`` (methods and nested functions included) with its qualified name."""
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            name = f"{prefix}{child.name}"
            yield name, child
            yield from functions(child, f"{name}.<locals>.")
        elif isinstance(child, ast.ClassDef):
            yield from functions(child, f"{prefix}{child.name}.")
        else:
            yield from functions(child, prefix)


def modules() -> list[Path]:
    """The measured files: every ``.py`` file of :data:`PACKAGES`."""
    return sorted(p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "__pycache__" not in p.parts)


def measure() -> tuple[dict[str, int], dict[tuple[str, str], tuple[int, int]]]:
    """Each module's lines, and each function's body lines with its line number, keyed as the allowlists."""
    sizes: dict[str, int] = {}
    funcs: dict[tuple[str, str], tuple[int, int]] = {}
    for path in modules():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8")
        sizes[rel] = len(text.splitlines())
        for name, node in functions(ast.parse(text, filename=rel)):
            funcs[(rel, name)] = (body_lines(node), node.lineno)
    return sizes, funcs


def test_no_module_over_600_lines() -> None:
    sizes, _ = measure()
    over = [f"{path}: {n} lines" for path, n in sizes.items() if n > MAX_MODULE_LINES and path not in ALLOWED_MODULES]
    assert not over, f"modules over {MAX_MODULE_LINES} lines (split them along their seams):\n" + "\n".join(over)


def test_no_function_over_60_lines() -> None:
    _, funcs = measure()
    over = [
        f"{path}:{line} {name}: {n} lines"
        for (path, name), (n, line) in funcs.items()
        if n > MAX_FUNCTION_LINES and (path, name) not in ALLOWED_FUNCTIONS
    ]
    assert not over, f"functions over {MAX_FUNCTION_LINES} lines (split them into named steps):\n" + "\n".join(over)


def test_allowlists_are_true() -> None:
    """Every allowed entry has a reason, exists and is still over its limit."""
    sizes, funcs = measure()
    stale = [f"{p}: {sizes.get(p, 'gone')}" for p in ALLOWED_MODULES if sizes.get(p, 0) <= MAX_MODULE_LINES]
    stale += [
        f"{p} {n}: {funcs.get((p, n), ('gone',))[0]}"
        for p, n in ALLOWED_FUNCTIONS
        if funcs.get((p, n), (0,))[0] <= MAX_FUNCTION_LINES
    ]
    empty = [str(k) for k, why in [*ALLOWED_MODULES.items(), *ALLOWED_FUNCTIONS.items()] if not why.strip()]
    assert not stale, "allowlist entries no longer over the limit (remove them):\n" + "\n".join(stale)
    assert not empty, f"allowlist entries without a reason: {empty}"


SAMPLE = '''
import typer

@app.command()
def command(
    a: int = typer.Option(1, help="one"),
    b: int = typer.Option(2, help="two"),
) -> None:
    """A docstring
    on two lines."""
    x = 1

    # a comment
    y = 2


class K:
    async def method(self) -> int:
        def inner() -> int:
            return 1
        return inner()

def doc_only() -> None:
    """Nothing but a docstring."""

def no_doc() -> None:
    pass
'''


@pytest.mark.parametrize(
    ("name", "lines"),
    [("command", 4), ("K.method", 3), ("K.method.<locals>.inner", 1), ("doc_only", 0), ("no_doc", 1)],
)
def test_body_lines_counts_from_the_first_statement_after_the_docstring(name: str, lines: int) -> None:
    """The signature, decorators and docstring do not count; blank lines, comments and closures do."""
    found = {n: body_lines(node) for n, node in functions(ast.parse(SAMPLE))}
    assert found[name] == lines


def test_every_package_is_measured() -> None:
    """The walk finds files in each package (a renamed folder would otherwise pass unmeasured)."""
    found = {p.relative_to(ROOT).parts[0] for p in modules()}
    assert found == set(PACKAGES)
