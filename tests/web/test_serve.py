"""``shanghai serve``: the warning off localhost, the missing extra, the page card drawings."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.svg import card_svg, deck_sprite, rows_svg


def test_host_warning(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import uvicorn

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append(kw))
    from web.serve import serve

    serve("0.0.0.0", 8123, workers=0)
    assert "warning: serving on 0.0.0.0" in capsys.readouterr().err
    assert calls[0]["host"] == "0.0.0.0" and calls[0]["port"] == 8123
    serve(workers=0)
    assert "warning" not in capsys.readouterr().err and calls[1]["host"] == "127.0.0.1"


def test_serve_without_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "fastapi", None)
    r = CliRunner().invoke(app, ["serve"])
    assert r.exit_code == 2
    assert "pip install -e '.[web]'" in r.output


def test_card_drawings() -> None:
    sprite = deck_sprite()
    assert sprite.count("<symbol") == 55 + 4 and "style=" not in sprite  # no inline styles (CSP)
    assert 'fill="#c8102e"' in card_svg("QH") and 'fill="#c8102e"' not in card_svg("QS")
    assert rows_svg([["3H", "4H", "5H"]]).count("data-card=") == 3


def _serve(args: list[str], monkeypatch: pytest.MonkeyPatch) -> tuple[int, str, list[Any]]:
    import uvicorn

    calls: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    r = CliRunner().invoke(app, ["serve", *args])
    return r.exit_code, r.output, calls


def test_a_busy_port_is_one_line_before_serving(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        code, output, calls = _serve(["--port", str(port)], monkeypatch)
    assert code == 2 and not calls
    assert output.strip().splitlines() == [f"error: port {port} on 127.0.0.1 is in use; choose another with --port"]
    assert "serving on" not in output


def test_several_workers_need_a_shared_store(monkeypatch: pytest.MonkeyPatch) -> None:
    code, output, calls = _serve(["--workers", "2"], monkeypatch)
    assert code == 2 and not calls and "--workers 2 needs a shared store" in output
    code, output, calls = _serve(["--store", "postgres://x"], monkeypatch)
    assert code == 2 and not calls and "unknown store" in output
    code, output, calls = _serve(["--store", "redis://127.0.0.1:1/0"], monkeypatch)  # nothing listens on port 1
    assert code == 2 and not calls and "not answering" in output and len(output.strip().splitlines()) == 1


def test_workers_get_their_settings(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    from web.serve import app_from_env

    monkeypatch.setenv("SHANGHAI_WEB_CONFIG", "{}")  # serve sets it for the workers; put back after
    code, output, calls = _serve(
        ["--workers", "3", "--solvers", "0", "--store", redis_url, "--allowed-host", "games.example"], monkeypatch
    )
    assert code == 0, output
    target, kw = calls[0]
    assert target == "web.serve:app_from_env" and kw["workers"] == 3 and kw["factory"]
    built = app_from_env()
    assert built.state.engine.limits.workers == 0 and type(built.state.engine.store).__name__ == "RedisStore"
