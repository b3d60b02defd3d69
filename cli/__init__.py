"""The ``shanghai`` command: a thin typer shell over the :mod:`solver` library.

The console script runs :func:`start`, which answers ``--version`` alone at
once and hands everything else to :func:`cli.main.main` (the typer app).
"""

from __future__ import annotations

import sys

from cli.version import version_text

__all__ = ["start", "version_text"]


def start(args: list[str] | None = None) -> None:
    """Entry point of the ``shanghai`` console script: :func:`cli.main.main`, but ``--version`` at once.

    ``shanghai --version`` alone is answered here without importing typer, rich and
    every command (a cold process in about a third of the time); anything else, or
    a failed write, goes to the typer app, which prints or fails the usual way.
    """
    argv = sys.argv[1:] if args is None else args
    if argv == ["--version"]:
        try:
            sys.stdout.write(version_text() + "\n")
            sys.stdout.flush()
        except (OSError, ValueError):  # a closed or broken stdout: the app's own handling
            pass
        else:
            raise SystemExit(0)
    from cli.main import main

    main(args)
