"""``shanghai serve``: run the web app with uvicorn."""

from __future__ import annotations

import sys
import threading
import webbrowser

from web.engine import Limits

__all__ = ["serve"]


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False, workers: int = 2) -> None:
    """Serve the page and the API on ``host:port`` until interrupted."""
    import uvicorn

    from web.app import create_app

    if host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"warning: serving on {host}: anyone who can reach this machine can use the solver; "
            "there is no login. Use 127.0.0.1 unless you mean it.",
            file=sys.stderr,
        )
    url = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    print(f"shanghai: serving on {url} (Ctrl-C stops)", file=sys.stderr)
    if open_browser:
        threading.Timer(1.5, webbrowser.open, args=(url,)).start()
    app = create_app(Limits(workers=workers))
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
