"""Files and output at the edges (issue 25): one line and exit 2 for every file error, never a traceback.

Every case runs the real console entry point in a subprocess: bad files in a
batch, nesting too deep, a byte order mark, outputs that cannot be written,
a stdout that is full or closed, typed ``[answer]`` values, ``play --save``
and ``--load``, the puzzle stream on stdin, ``hint`` on the wrong kind of
file, and ``--quiet``.
"""

from __future__ import annotations

import json
import os
import pty
import select
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from solver.engine import load_record

ROOT = Path(__file__).resolve().parents[2]
PUZZLE = ROOT / "puzzles" / "manipulation" / "hard-1deck-both-1.toml"
GOOD = """game = "manipulation"
[position]
table = ["3H 4H 5H 6H", "3C 4C 5C 6C"]
hand = "6S KD"
"""
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def run(*args: str, stdin: str | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", *args], input=stdin, capture_output=True, text=True, cwd=cwd, env=ENV, timeout=300
    )


def one_line_error(result: subprocess.CompletedProcess[str], needle: str, code: int = 2) -> None:
    """Exit ``code`` and exactly one line on stderr, an ``error:`` containing ``needle``."""
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.returncode == code, (result.returncode, result.stderr[-2000:])
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr[-2000:]


# --- files: one line each, the other files kept ----------------------------------------------------------------


def test_deep_toml_is_one_line_and_the_good_file_is_still_checked(tmp_path: Path) -> None:
    (tmp_path / "bad.toml").write_text("a = " + "[" * 100_000 + "\n")
    (tmp_path / "good.toml").write_text(GOOD)
    result = run("check", str(tmp_path / "bad.toml"), str(tmp_path / "good.toml"), "--json")
    one_line_error(result, "bad.toml: not valid TOML: arrays or tables nested too deeply")
    rows = {Path(d["puzzle"]).name: d for d in map(json.loads, result.stdout.splitlines())}
    assert rows["good.toml"]["valid"] is True and rows["bad.toml"]["valid"] is False


def test_deep_json_on_stdin_is_one_line() -> None:
    result = run("solve", "-", stdin="[" * 100_000 + "\n")
    assert result.returncode == 2 and "Traceback" not in result.stderr
    result = run("solve", "-", stdin='{"game": ' + "[" * 100_000 + "\n")
    one_line_error(result, "not valid JSON: arrays or objects nested too deeply")


def test_deep_json_record_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "deep.json").write_text('{"game": ' + "[" * 100_000)
    one_line_error(run("play", "zsy", "--load", str(tmp_path / "deep.json")), "nested too deeply")


def test_utf8_bom_is_accepted(tmp_path: Path) -> None:
    (tmp_path / "bom.toml").write_bytes(b"\xef\xbb\xbf" + GOOD.encode())
    assert run("check", str(tmp_path / "bom.toml")).returncode == 0
    result = run("solve", "-", "--json", stdin="\ufeff" + GOOD)
    assert result.returncode == 0 and json.loads(result.stdout)["played"] == ["6S"]


def test_render_to_a_folder_named_png(tmp_path: Path) -> None:
    (tmp_path / "pic.png").mkdir()
    one_line_error(run("render", str(PUZZLE), "-o", str(tmp_path / "pic.png")), "pic.png: cannot write: is a folder")


def test_render_into_proc() -> None:
    one_line_error(run("render", str(PUZZLE), "-o", "/proc/x.svg"), "/proc/x.svg: cannot write")


def test_generate_into_proc_says_so_before_the_work() -> None:
    start = time.monotonic()
    one_line_error(run("generate", "zsy", "--count", "50", "-o", "/proc/nope"), "/proc/nope: cannot make the folder")
    assert time.monotonic() - start < 60


@pytest.mark.parametrize("args", [("solve", str(PUZZLE)), ("solve", "--json", str(PUZZLE)), ("check", str(PUZZLE))])
def test_stdout_full_is_one_line(args: tuple[str, ...]) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "cli", *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=ROOT, env=ENV
        )
    one_line_error(result, "cannot write the output: No space left on device")


@pytest.mark.parametrize("json_flag", [["--json"], []])
def test_broken_pipe_exits_quietly(json_flag: list[str]) -> None:
    """``shanghai solve puzzles --json | head -1``: exit 141 (128 + SIGPIPE), nothing on stderr."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "solve", "puzzles", *json_flag],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env=ENV,
    )
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline()
    proc.stdout.close()  # what head does after its line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=300) == 141, err
    assert err == ""


# --- [answer] types ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("answer", "needle"),
    [
        ('played = "five"', "answer.played: expected an integer, got 'five'"),
        ("played = -1", "answer.played: must be 0 or more"),
        ("cards = 3", "answer.cards: expected a string"),
        ('cards = "6S XX"', "answer.cards: malformed card"),
    ],
)
def test_answer_types_are_bad_input(tmp_path: Path, answer: str, needle: str) -> None:
    (tmp_path / "p.toml").write_text(GOOD + "[answer]\n" + answer + "\n")
    one_line_error(run("check", str(tmp_path / "p.toml")), needle)
    result = run("solve", "--check", str(tmp_path / "p.toml"))
    assert result.returncode == 2 and needle in result.stderr and "mismatch:" not in result.stderr


def test_contract_and_zsy_answer_types(tmp_path: Path) -> None:
    contract = tmp_path / "c.toml"
    contract.write_text(
        'game = "contract"\n[position]\nround = 1\nhand = "5H 5D 5S 6C 7C 8C 9C KD QH 4D 3S JH"\n[answer]\ncan_go_out = "yes"\n'
    )
    one_line_error(run("check", str(contract)), "answer.can_go_out: expected true or false")
    zsy = tmp_path / "z.toml"
    zsy.write_text('game = "zsy"\n[position]\nhand = "3S"\n[answer]\nfewest_plays = true\n')
    one_line_error(run("check", str(zsy)), "answer.fewest_plays: expected an integer")


# --- play --save and --load --------------------------------------------------------------------------------------


def play(*args: str, stdin: str = "quit\n", cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return run("play", "zsy", "--opponents", "greedy", *args, stdin=stdin, cwd=cwd)


def test_save_refuses_a_symlink_unless_forced(tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    assert play("--save", str(target)).returncode == 0
    link = tmp_path / "link.json"
    link.symlink_to(target)
    one_line_error(play("--save", str(link)), "is a symbolic link; --force writes through it")
    assert link.is_symlink()
    result = play("--save", str(link), "--force", "--seed", "5")
    assert result.returncode == 0 and link.is_symlink()  # written through: still a link
    assert load_record(target.read_text()).seed == 5


def test_save_refuses_a_device_even_forced(tmp_path: Path) -> None:
    """A FIFO, and as root a character device node like /dev/full, made in tmp_path: never the real
    /dev/full, which the old code (as root) replaced with a plain file."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    nodes = [(fifo, "is a FIFO", stat.S_ISFIFO)]
    if os.geteuid() == 0:
        device = tmp_path / "full"
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
        nodes.append((device, "is a character device", stat.S_ISCHR))
    for node, needle, kind in nodes:
        for extra in ((), ("--force",)):
            one_line_error(play("--save", str(node), *extra), f"{node}: {needle}")
            assert kind(os.lstat(node).st_mode)


def test_save_refuses_a_file_that_is_not_a_record_unless_forced(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    one_line_error(play("--save", str(notes)), "exists and is not a game record; --force replaces it")
    assert notes.read_text() == "my notes\n"
    inode = notes.stat().st_ino
    assert play("--save", str(notes), "--force").returncode == 0
    assert load_record(notes.read_text()).game == "zsy"
    assert notes.stat().st_ino == inode  # rewritten in place: only a record file is renamed over


def test_save_over_a_record_goes_through_a_temporary_file(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert play("--save", str(record)).returncode == 0
    inode = record.stat().st_ino
    mine = tmp_path / "game.json.tmp"  # a file of the user's where a fixed temporary name would go
    mine.write_text("keep me\n")
    assert play("--save", str(record), "--seed", "2").returncode == 0
    assert record.stat().st_ino != inode and load_record(record.read_text()).seed == 2
    assert mine.read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json", "game.json.tmp"]  # no temporary file left


def test_save_into_a_folder_is_refused(tmp_path: Path) -> None:
    one_line_error(play("--save", str(tmp_path)), "is a folder")


def test_load_resumes_a_saved_game(tmp_path: Path) -> None:
    first = tmp_path / "first.json"
    assert play("--save", str(first), "--seed", "3", stdin="0\n0\nquit\n").returncode == 0
    saved = load_record(first.read_text())
    assert len(saved.actions) >= 2
    second = tmp_path / "second.json"
    result = play("--load", str(first), "--save", str(second), stdin="0\nquit\n")
    assert result.returncode == 0, result.stderr
    resumed = load_record(second.read_text())
    assert resumed.seed == 3 and resumed.actions[: len(saved.actions)] == saved.actions
    assert len(resumed.actions) > len(saved.actions) and resumed.players == saved.players


def test_load_checks_the_game_and_the_options(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    assert play("--save", str(record)).returncode == 0
    one_line_error(run("play", "contract", "--load", str(record)), "the record is a zsy game, not contract")
    one_line_error(play("--load", str(record), "--players", "5"), "--load resumes a record with its own players")
    one_line_error(play("--load", str(tmp_path / "none.json")), "none.json: cannot read")


# --- the puzzle stream on stdin ----------------------------------------------------------------------------------


def test_generate_piped_into_solve() -> None:
    """``shanghai generate zsy --count 3 | shanghai solve -``: three answers."""
    made = run("generate", "zsy", "--count", "3", "--seed", "4")
    assert made.returncode == 0 and made.stdout.count("\n---\n") == 2
    result = run("solve", "-", "--json", "--check", stdin=made.stdout)
    assert result.returncode == 0, result.stderr
    rows = [json.loads(line) for line in result.stdout.splitlines()]
    assert [r["puzzle"] for r in rows] == ["<stdin>:1", "<stdin>:2", "<stdin>:3"]
    assert all(r["check"] == "ok" for r in rows)


def test_json_lines_piped_into_solve_keep_the_good_ones() -> None:
    made = run("generate", "contract", "--count", "2", "--json")
    lines = made.stdout.splitlines()
    stream = "\n".join([lines[0], '{"game": "bridge"}', lines[1]]) + "\n"
    result = run("solve", "-", "--json", "--check", stdin=stream)
    assert result.returncode == 2
    assert [json.loads(line)["puzzle"] for line in result.stdout.splitlines()] == ["<stdin>:1", "<stdin>:3"]
    assert "<stdin>:2: game: unknown game 'bridge'" in result.stderr


def test_one_puzzle_on_stdin_is_still_named_stdin() -> None:
    result = run("check", "-", "--json", stdin=GOOD)
    assert result.returncode == 0 and json.loads(result.stdout)["puzzle"] == "<stdin>"


# --- hint on the wrong kind of file ------------------------------------------------------------------------------


def test_hint_on_a_json_puzzle_names_solve(tmp_path: Path) -> None:
    made = run("generate", "zsy", "--count", "1", "--json")
    (tmp_path / "p.json").write_text(made.stdout)
    one_line_error(run("hint", str(tmp_path / "p.json")), f"`shanghai solve - < {tmp_path / 'p.json'}`")


def test_hint_on_a_record_named_toml_names_play_load(tmp_path: Path) -> None:
    record = tmp_path / "game.toml"
    (tmp_path / "game.json").write_text("")
    assert play("--save", str(tmp_path / "game.json"), "--force").returncode == 0
    record.write_text((tmp_path / "game.json").read_text())
    one_line_error(run("hint", str(record)), f"`shanghai play zsy --load {record}`")


# --- --quiet -----------------------------------------------------------------------------------------------------


def _stderr_on_a_terminal(*args: str) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal (where progress bars show): the exit code and what it printed there."""
    primary, secondary = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=secondary,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env={**ENV, "COLUMNS": "100"},
    )
    os.close(secondary)
    chunks: list[bytes] = []
    while True:
        ready, _, _ = select.select([primary], [], [], 0.2)
        if ready:
            try:
                data = os.read(primary, 65536)
            except OSError:  # the command exited and closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    code = proc.wait(timeout=300)
    os.close(primary)
    return code, b"".join(chunks).decode("utf-8", "replace")


@pytest.mark.parametrize(
    ("args", "bar"),
    [
        (("selfplay", "zsy", "--games", "40", "--hands", "1", "--players", "random,random,random,random"), "self-play"),
        (("generate", "zsy", "--count", "3"), "generating"),
    ],
)
def test_quiet_silences_progress(args: tuple[str, ...], bar: str) -> None:
    code, shown = _stderr_on_a_terminal(*args)
    assert code == 0 and bar in shown  # the bar shows on a terminal
    code, shown = _stderr_on_a_terminal(*args, "--quiet")
    assert code == 0 and bar not in shown, shown


def test_docs_table_names_tests_that_exist() -> None:
    """docs/cli.md's section names a test for every row, and each test is there."""
    import re

    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    section = text.split("## Signals, files and output", 1)[1].split("\n## ", 1)[0]
    sources = {
        name: (ROOT / "tests" / "cli" / name).read_text(encoding="utf-8")
        for name in ("test_issue25_signals.py", "test_issue25_files.py")
    }
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| command")]
    assert len(rows) >= 30
    for row in rows:
        name = re.findall(r"`(test_\w+)`", row.rsplit("|", 2)[-2])
        assert len(name) == 1, row
        assert any(f"def {name[0]}(" in source for source in sources.values()), name[0]
