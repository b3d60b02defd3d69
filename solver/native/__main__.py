"""``python -m solver.native``: say which paths run (``--expect native|pure`` exits 1 when not so)."""

from __future__ import annotations

import sys

from solver.native import backend, describe


def main(argv: list[str]) -> int:
    """Print :func:`describe`; with ``--expect KIND``, 1 unless :func:`backend` is KIND."""
    print(describe())
    if len(argv) == 2 and argv[0] == "--expect":
        return 0 if backend() == argv[1] else 1
    return 0 if not argv else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
