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
