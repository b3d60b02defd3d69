"""Bounded input (issue 34): every puzzle file, record and stream is read with a cap, files only
when regular, and a cap on the puzzles of a stream.

Each case runs the real console entry point in a subprocess, bounded by a timeout: before the
fix ``check /dev/zero`` and an endless stdin grew until the kernel killed them, and a FIFO with
no writer blocked for ever (here: the timeout). How fast they stop is measured by
``python -m benchmarks.bench_inputs``, not here; what they use in memory is checked here
(the largest resident size of the child, from ``wait4``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from solver.inputs import InputError, Limits, limits, read_file

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = ROOT / "puzzles" / "zsy" / "bomb-on-bomb.toml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
for _name in ("SHANGHAI_MAX_BYTES", "SHANGHAI_MAX_STDIN_BYTES", "SHANGHAI_MAX_PUZZLES", "SHANGHAI_MAX_RECORD_BYTES"):
    ENV.pop(_name, None)
BOUND = 60.0
"""Seconds a case may take on a loaded machine before it counts as hanging (the target is 2 s:
benchmarks/bench_inputs.py)."""
MEMORY = 200 * 1024
"""Kilobytes of resident memory a refused input may use at most (the issue's 200 MB)."""


def run(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**ENV, **(env or {})},
        timeout=BOUND,
        stdin=None if stdin is not None else subprocess.DEVNULL,
    )


def one_line_error(result: subprocess.CompletedProcess[str], needle: str) -> None:
    """Exit 2 and exactly one line on stderr, an ``error:`` containing ``needle``."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == 2, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr[-2000:]


LAUNCHER = """
import os, subprocess, sys
child = subprocess.Popen([sys.executable, "-m", "cli", *sys.argv[1:]], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(child.pid, 0)
print(usage.ru_maxrss)
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs ``shanghai ARGS`` and prints its largest resident size (``wait4``). The launcher is a small
process: a child's ``ru_maxrss`` counts the memory of the process it was forked from, which for
pytest itself may be over 200 MB."""


def measured(args: list[str], stdin: int | None = None) -> tuple[int, str, int]:
    """Run ``shanghai ARGS`` (stdin from the file descriptor ``stdin``): exit code, stderr and the
    command's largest resident size in KB. A command still running after :data:`BOUND` is killed
    (its whole session) and the test fails."""
    proc = subprocess.Popen(
        [sys.executable, "-c", LAUNCHER, *args],
        stdin=stdin if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
        start_new_session=True,
    )
    try:
        rss, stderr = proc.communicate(timeout=BOUND)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"shanghai {' '.join(args)} still ran after {BOUND} s")
    return proc.returncode, stderr.decode("utf-8", "replace"), int(rss.decode().strip() or 0)


def test_check_dev_zero_is_refused_before_a_byte_is_read() -> None:
    code, stderr, rss = measured(["check", "/dev/zero"])
    assert code == 2, stderr
    assert stderr.strip() == "error: /dev/zero: is a character device; a puzzle file is read only from a regular file"
    assert rss < MEMORY, rss


@pytest.mark.skipif(shutil.which("yes") is None, reason="needs the yes command")
def test_an_endless_stdin_is_cut_at_the_cap_of_a_puzzle() -> None:
    """``yes 'hand = "5H"' | shanghai solve -``: one line naming the cap, exit 2, little memory."""
    yes = subprocess.Popen(["yes", 'hand = "5H"'], stdout=subprocess.PIPE)
    assert yes.stdout is not None
    try:
        code, stderr, rss = measured(["solve", "-"], stdin=yes.stdout.fileno())
    finally:
        yes.stdout.close()
        yes.kill()
        yes.wait()
    assert code == 2
    assert stderr.strip() == "error: <stdin>: larger than 1 MiB, the cap of a puzzle (SHANGHAI_MAX_BYTES raises it)"
    assert rss < MEMORY, rss


def test_dev_zero_on_stdin_is_cut_at_the_cap_of_a_line(tmp_path: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        code, stderr, rss = measured(["check", "-"], stdin=zero.fileno())
    assert code == 2
    assert "error: <stdin>: line 1: larger than 1 MiB, the cap of a puzzle" in stderr, stderr
    assert rss < MEMORY, rss


@pytest.mark.parametrize(
    "args",
    [
        ("check", "{fifo}.toml"),
        ("solve", "{fifo}.toml"),
        ("render", "{fifo}.toml", "-o", "{tmp}/p.svg"),
        ("hint", "{fifo}.toml"),
        ("hint", "{fifo}.json"),
        ("play", "zsy", "--load", "{fifo}.json"),
    ],
)
def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path: Path, args: tuple[str, ...]) -> None:
    """Before: each of these blocked for ever in ``open`` (the timeout fails it)."""
    fifo = tmp_path / "pipe"
    for suffix in (".toml", ".json"):
        os.mkfifo(str(fifo) + suffix)
    argv = [a.format(fifo=fifo, tmp=tmp_path) for a in args]
    one_line_error(run(*argv), f"pipe{Path(argv[-1] if args[0] != 'render' else argv[1]).suffix}: is a FIFO")


def test_a_device_or_a_folder_named_as_a_file_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "dir.json").mkdir()
    one_line_error(run("hint", "/dev/null"), "/dev/null: is a character device; a puzzle file is read only")
    one_line_error(run("play", "zsy", "--load", "/dev/zero"), "/dev/zero: is a character device; a game record")
    one_line_error(run("hint", str(tmp_path / "dir.json")), "dir.json: is a folder")
    one_line_error(run("play", "zsy", "--load", str(tmp_path / "dir.json")), "dir.json: is a folder")


def test_a_puzzle_file_past_the_cap_is_refused_and_the_cap_is_raised(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text(PUZZLE.read_text() + "# padding\n" * 200)
    one_line_error(run("check", str(big), env={"SHANGHAI_MAX_BYTES": "1024"}), "larger than 1 KiB")
    assert run("check", str(big)).returncode == 0
    assert run("check", str(big), env={"SHANGHAI_MAX_BYTES": "1_000_000"}).returncode == 0
    one_line_error(run("check", str(big), env={"SHANGHAI_MAX_BYTES": "lots"}), "SHANGHAI_MAX_BYTES must be")


def test_a_stream_has_a_cap_on_its_puzzles_and_its_bytes() -> None:
    three = "\n---\n".join([PUZZLE.read_text()] * 3)
    result = run("check", "-", "--json", stdin=three, env={"SHANGHAI_MAX_PUZZLES": "2"})
    assert result.returncode == 2
    assert result.stdout.count('"valid": true') == 2  # the two before the cap are still checked
    assert "<stdin>: more than 2 puzzles, the cap of a stream (SHANGHAI_MAX_PUZZLES raises it)" in result.stderr
    assert run("check", "-", stdin=three).returncode == 0
    result = run("check", "-", stdin=three, env={"SHANGHAI_MAX_STDIN_BYTES": str(len(three) - 10)})
    assert result.returncode == 2 and "the cap of stdin (SHANGHAI_MAX_STDIN_BYTES raises it)" in result.stderr


def test_a_record_past_its_cap_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    made = subprocess.run(
        [sys.executable, "-m", "cli", "play", "zsy", "--save", str(record)],
        input="quit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=BOUND,
    )
    assert made.returncode == 0, made.stderr
    result = run("play", "zsy", "--load", str(record), env={"SHANGHAI_MAX_RECORD_BYTES": "100"})
    one_line_error(result, "larger than 100 bytes, the cap of a game record (SHANGHAI_MAX_RECORD_BYTES raises it)")


def test_read_file_refuses_what_is_not_a_regular_file_or_too_large(tmp_path: Path) -> None:
    text = tmp_path / "p.toml"
    text.write_bytes(b"\xef\xbb\xbfgame = 1\n")
    assert read_file(text, 100, "a puzzle", "X") == "game = 1\n"
    with pytest.raises(InputError, match=r"larger than 8 bytes, the cap of a puzzle \(X raises it\)"):
        read_file(text, 8, "a puzzle", "X")
    fifo = tmp_path / "f.toml"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="is a FIFO"):
        read_file(fifo, 100, "a puzzle", "X")  # at once: opened without blocking, looked at, closed
    with pytest.raises(InputError, match="is a folder"):
        read_file(tmp_path, 100, "a puzzle", "X")
    assert limits({}) == Limits()
    with pytest.raises(InputError, match="SHANGHAI_MAX_STDIN_BYTES must be a whole number of bytes"):
        limits({"SHANGHAI_MAX_STDIN_BYTES": "0"})
