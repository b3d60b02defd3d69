"""The README's pictures of the page, made again by one command:

    python -m tests.web.pictures [--out docs/img]

It runs the browser tests that take them (headless Chromium against a live
server, as the tests do) with ``SHANGHAI_SCREENSHOTS`` set to ``--out``, so a
picture is written only by a test that passes, and lists what it wrote.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

PICTURES = {
    "web-phone.png": "tests/web/test_browser.py::test_screenshots[phone-390-844]",
    "web-phone-answer.png": "tests/web/test_browser.py::test_screenshots[phone-390-844]",
    "web-desktop.png": "tests/web/test_browser.py::test_screenshots[desktop-1366-768]",
    "web-phone-contract.png": "tests/web/test_browser.py::test_screenshot_contract_mid_round",
    "web-desktop-fi.png": "tests/web/test_i18n_browser.py::test_no_english_left[fi]",
}
"""Each picture the README shows, and the test that takes it."""


def main(argv: list[str] | None = None) -> int:
    """Take the pictures; the exit code is pytest's (0: every picture written)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/img", help="the folder the pictures are written to")
    args = parser.parse_args(argv)
    out = Path(args.out).resolve()
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    tests = sorted(set(PICTURES.values()))
    env = {**os.environ, "SHANGHAI_SCREENSHOTS": str(out), "SHANGHAI_REQUIRE_BROWSER": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests], env=env, check=False
    )
    for name in PICTURES:
        path = out / name
        fresh = path.exists() and path.stat().st_mtime >= started
        print(f"{'written' if fresh else 'NOT written'}: {path}", file=sys.stderr)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main())
