"""Ray for self-play: the extra's client is there, and no cluster at ``auto`` is one line, exit 2."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

from solver.extras import require

require("ray", "ray")


def test_the_ray_extra_has_the_client() -> None:
    require("grpc", "ray")  # what ray:// needs (ray[client])
    text = (Path(__file__).parents[2] / "pyproject.toml").read_text()
    assert 'ray = ["ray[client]' in text


def test_no_cluster_at_auto_is_one_line_and_exit_2() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    run = subprocess.run(
        [sys.executable, "-m", "cli", "selfplay", "zsy", "--games", "2", "--ray", "auto"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=Path(__file__).parents[2],
    )
    assert run.returncode == 2
    lines = [line for line in run.stderr.splitlines() if line.strip()]
    assert len(lines) == 1
    assert lines[0].startswith("error: no Ray cluster at 'auto': start one (ray start --head) or use --ray local; ")
    assert "RAY_AUTH_TOKEN" in lines[0]  # what a cluster with token authentication needs


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for(port: int, head: subprocess.Popen[bytes], seconds: float = 120.0) -> None:
    """Until the head's client server listens on ``port`` (the head takes some 20 s to start)."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end and head.poll() is None:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise AssertionError("the Ray head did not start")


def _wait_ready(ray_bin: str, gcs: int, env: dict[str, str], seconds: float = 180.0) -> None:
    """Until ``ray status`` answers on the head's GCS: a loaded machine opens the client port well before
    the head can serve a client, and a client turned away then reads as no cluster at all."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        r = subprocess.run([ray_bin, "status", f"--address=127.0.0.1:{gcs}"], capture_output=True, env=env, timeout=120)
        if r.returncode == 0:
            return
        time.sleep(1.0)
    raise AssertionError("the Ray head did not become ready")


def test_a_client_joins_a_head_with_token_authentication() -> None:
    """Issue 36: a head that authenticates by token (as a default ``ray start --head`` does when a token
    is found) and ``RAY_AUTH_TOKEN`` in the client's environment, ``RAY_AUTH_MODE`` unset: the games run.
    Before, the client sent no token and the command said there was no Ray cluster."""
    token = uuid.uuid4().hex
    base = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    with tempfile.TemporaryDirectory(prefix="rayt", dir="/tmp") as tmp:
        gcs, client = _free_port(), _free_port()
        ray_bin = str(Path(sys.executable).parent / "ray")
        head = subprocess.Popen(
            [
                ray_bin,
                "start",
                "--head",
                "--block",
                f"--port={gcs}",
                f"--ray-client-server-port={client}",
                "--include-dashboard=false",
                "--num-cpus=1",
                f"--temp-dir={tmp}",
                "--disable-usage-stats",
            ],
            env={**base, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # the head's processes, ended as one group below
        )
        try:
            _wait_for(client, head)
            _wait_ready(ray_bin, gcs, {**base, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token})
            # A head just started on a loaded machine may turn the first client away while it starts the
            # client's server (some 40 s at load 3): up to three tries. Without the token every try fails.
            for _ in range(3):
                run = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "cli",
                        "selfplay",
                        "zsy",
                        "--games",
                        "2",
                        "--ray",
                        f"ray://127.0.0.1:{client}",
                    ],
                    capture_output=True,
                    text=True,
                    env={**base, "RAY_AUTH_TOKEN": token},
                    timeout=240,
                    cwd=Path(__file__).parents[2],
                )
                if run.returncode == 0:
                    break
        finally:
            os.killpg(head.pid, signal.SIGTERM)
            try:
                head.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(head.pid, signal.SIGKILL)
    assert run.returncode == 0, run.stderr
    assert "zsy: 2 games" in run.stdout
