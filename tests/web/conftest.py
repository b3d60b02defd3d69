"""Fixtures for the web tests: an in-process client, a live server, a headless browser.

Browser tests need the OS's Chromium (``/usr/bin/chromium``) and Playwright for
Python. Without them they are skipped with the reason, unless
``SHANGHAI_REQUIRE_BROWSER=1`` (set by ``.ci/run``) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from solver.extras import MissingExtra, missing, require
from tests.web.pages import PHONE

try:
    from fastapi.testclient import TestClient

    from web.app import create_app
    from web.engine import Limits
except ImportError as exc:  # no web extra: a fixture raises it, and the root conftest skips its tests
    _MISSING: MissingExtra | None = missing(exc, "web")
else:
    _MISSING = None


def _web() -> None:
    if _MISSING is not None:
        raise _MISSING


CHROMIUM = os.environ.get("SHANGHAI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    """The app in process (solves in threads: no worker processes to start)."""
    _web()
    with TestClient(create_app(Limits(workers=0)), base_url="http://localhost", raise_server_exceptions=False) as c:
        yield c


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """A real server on localhost (uvicorn in a thread, one solver worker process)."""
    _web()
    import uvicorn

    port = _free_port()
    config = uvicorn.Config(create_app(Limits(workers=1)), host="127.0.0.1", port=port, log_level="warning")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the web server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def _no_browser(reason: str) -> None:
    if os.environ.get("SHANGHAI_REQUIRE_BROWSER"):
        pytest.fail(f"browser tests are required here (SHANGHAI_REQUIRE_BROWSER is set): {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium from the OS packages, driven by Playwright."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        _no_browser(f"no Chromium at {CHROMIUM} (apt-get install chromium; or set SHANGHAI_CHROMIUM)")
    sync_playwright = require("playwright.sync_api", "web").sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Any, live_server: str) -> Iterator[Any]:
    """A fresh desktop-sized page; JavaScript errors fail the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(15000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on(
        "console",
        lambda m: errors.append(m.text) if m.type == "error" and "Failed to load resource" not in m.text else None,
    )
    pg.base = live_server
    yield pg
    context.close()
    assert not errors, errors


@pytest.fixture
def phone(browser: Any, live_server: str) -> Iterator[Any]:
    """A fresh page on a phone (:data:`tests.web.pages.PHONE`, touch); JavaScript errors fail the test."""
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.base = live_server
    yield page
    context.close()
    assert not errors, errors


# --- Redis and server processes (test_redis.py, test_fair.py) -----------------------------------------


def _no_redis(reason: str) -> None:
    if os.environ.get("SHANGHAI_REQUIRE_REDIS"):
        pytest.fail(f"the Redis tests are required here (SHANGHAI_REQUIRE_REDIS is set): {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A real redis-server of its own on a free localhost port (nothing saved to disk)."""
    import subprocess

    exe = shutil.which("redis-server")
    if exe is None:
        _no_redis("no redis-server (apt-get install redis-server)")
    redis = require("redis", "web")
    port = _free_port()
    proc = subprocess.Popen(
        [str(exe), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
         "--dir", str(tmp_path_factory.mktemp("redis"))],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    url = f"redis://127.0.0.1:{port}/0"
    client = redis.Redis.from_url(url)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.ping()
            break
        except redis.ConnectionError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                pytest.fail("redis-server did not start")
            time.sleep(0.05)
    client.close()
    yield url
    proc.terminate()
    proc.wait(10)


def run_async(main: Any) -> None:
    """``asyncio.run(main())`` in a thread of its own: the browser tests' Playwright keeps an event
    loop running in this thread for the session, where ``asyncio.run`` would refuse to start."""
    import asyncio

    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(main())
        except BaseException as exc:  # handed back to the test
            failure.append(exc)

    t = threading.Thread(target=target)
    t.start()
    t.join()
    if failure:
        raise failure[0]
