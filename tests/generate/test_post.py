"""Ways to post: a post in three formats, the puzzle of the day, a puzzle book."""

from __future__ import annotations

import datetime as dt
import json
from html import escape
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

from typer.testing import CliRunner

from cli.main import app
from solver.extras import require
from solver.generate.post import FORMATS, daily, daily_choice, page_link, post
from solver.puzzles import ContractPosition, dumps, load

ROOT = Path(__file__).resolve().parents[2]
REPLY = ROOT / "puzzles" / "generated" / "zsy" / "hard-reply-02.toml"
LAYOFF = ROOT / "puzzles" / "contract" / "poker-layoff-joker-swap.toml"
SMALL = ROOT / "puzzles" / "manipulation" / "small-1deck-both-1.toml"
runner = CliRunner()


def test_the_link_holds_the_position_as_the_page_reads_it() -> None:
    puzzle = load(LAYOFF)
    link = urlsplit(page_link(puzzle, "https://example.org/shanghai/"))
    assert link.path == "/shanghai/contract"
    fields = dict(parse_qsl(link.fragment))
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    assert fields["hand"] == str(pos.hand) and fields["round"] == str(pos.round) and fields["laid"] == "1"
    assert fields["table"].split(" | ")[0] == f"{pos.table[0].owner}:{pos.table[0].meld}"
    assert fields["o.wild_cards"] == "jokers" and fields["o.jokers"] == "6"


def test_each_forum_has_its_own_spoiler_and_no_local_link_unasked() -> None:
    puzzle = load(REPLY)
    words = ["Answer: reply set:7H 7D, then out in 3 plays", "Why: it keeps the jokers"]
    texts = {f: post(puzzle, f, "q.png", None, words) for f in FORMATS}
    assert texts["reddit"].endswith(
        ">!Answer: reply set:7H 7D, then out in 3 plays!<  \n>!Why: it keeps the jokers!<\n"
    )
    assert texts["discord"].endswith("||Answer: reply set:7H 7D, then out in 3 plays||\n||Why: it keeps the jokers||\n")
    assert "Answer: [o]Answer: reply set:7H 7D" in texts["bgg"] and texts["bgg"].endswith("[/o]\n")
    assert "[spoiler" not in texts["bgg"] and "<details>" not in texts["reddit"] + texts["discord"]
    assert "<details><summary>Answer</summary><ul><li>Answer: reply" in texts["html"]
    assert "<details><summary>Answer</summary>" in texts["markdown"]
    for text in texts.values():  # the answer only behind the spoiler; no link to this machine
        head = text.split("Answer</summary>")[0].split("[o]")[0].split(">!")[0].split("||")[0]
        assert "7H 7D" not in head
        assert "127.0.0.1" not in text and "solver page" not in text
    link = page_link(puzzle, "https://example.org/s")
    linked = {f: post(puzzle, f, "q.png", "https://example.org/s", words) for f in FORMATS}
    assert f"]({link})" in linked["reddit"] and f"<{link}>" in linked["discord"] and f"[url={link}]" in linked["bgg"]
    assert f'href="{escape(link)}"' in linked["html"] and f"]({link})" in linked["markdown"]


def test_post_cli_writes_the_picture_and_a_post_for_each_forum(tmp_path: Path) -> None:
    folder = tmp_path / "new" / "posts"  # -o makes the folder
    result = runner.invoke(app, ["post", str(REPLY), "-o", str(folder), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert (folder / "hard-reply-02.png").read_bytes()[:4] == b"\x89PNG"
    assert sorted(p.name.split(".", 1)[1] for p in folder.iterdir()) == [
        "bgg.txt",
        "discord.txt",
        "html",
        "md",
        "png",
        "reddit.md",
    ]
    solution = load(REPLY).meta["solution"]
    assert data["answer"][0].startswith("Answer: reply ") and solution.split()[0] in data["answer"][0]
    md = runner.invoke(app, ["post", str(REPLY), "-o", str(folder), "--format", "reddit", "--url", "https://x.org"])
    assert md.exit_code == 0 and ">!Answer: reply" in md.stdout and "https://x.org/zsy#" in md.stdout
    bad = runner.invoke(app, ["post", str(REPLY), "-o", str(folder), "--format", "pdf"])
    assert bad.exit_code == 2 and "--format must be one of" in bad.output
    (tmp_path / "file").write_text("x")
    clash = runner.invoke(app, ["post", str(REPLY), "-o", str(tmp_path / "file")])
    assert clash.exit_code == 2 and "is a file, not a folder" in clash.output


def test_the_puzzle_of_the_day_is_the_same_for_everyone_and_changes_by_day() -> None:
    day = dt.date(2026, 12, 7)  # a Monday: easy
    assert daily_choice(day)[1:] == ("easy", 20261207)
    assert daily_choice(day + dt.timedelta(days=6))[1] == "expert"
    games = {daily_choice(day + dt.timedelta(days=k))[0] for k in range(3)}
    assert games == {"manipulation", "contract", "zsy"}
    a, b = daily(day, game="zsy"), daily(day, game="zsy")
    assert dumps(a) == dumps(b) and a.title.startswith("Puzzle of 2026-12-07: ")
    assert dumps(daily(day + dt.timedelta(days=7), game="zsy")) != dumps(a)


def test_daily_cli(tmp_path: Path) -> None:
    result = runner.invoke(app, ["daily", "--date", "2026-12-07", "--game", "zsy", "-o", str(tmp_path / "d.toml")])
    assert result.exit_code == 0, result.output
    assert load(tmp_path / "d.toml").meta["date"] == "2026-12-07"
    bad = runner.invoke(app, ["daily", "--date", "12/07/2026"])
    assert bad.exit_code == 2 and "YYYY-MM-DD" in bad.output


def test_book_writes_a_pdf_puzzles_then_answers(tmp_path: Path) -> None:
    require("fpdf", "book")  # the book extra: without it this test skips (the root conftest)
    files = [str(REPLY), str(LAYOFF)]
    result = runner.invoke(app, ["book", *files, "-o", str(tmp_path / "book.pdf"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["puzzles"] == 2 and data["pages"] == 1 + 2 + 2
    pdf = (tmp_path / "book.pdf").read_bytes()
    assert pdf[:5] == b"%PDF-"
    bad = runner.invoke(app, ["book", *files, "-o", str(tmp_path / "book.txt")])
    assert bad.exit_code == 2 and "must end in .pdf" in bad.output


def test_the_puzzle_of_the_day_of_one_question(tmp_path: Path) -> None:
    # a day's puzzle of the kinds asked only on request: a Zheng Shang You lead, a Contract lay-down
    day = dt.date(2026, 12, 7)  # a Monday: easy
    lead = daily(day, game="zsy", question="lead")
    assert lead.meta["kind"] == "lead" and dumps(lead) == dumps(daily(day, game="zsy", question="lead"))
    assert dumps(lead) != dumps(daily(day, game="zsy"))
    wednesday = ["daily", "--date", "2026-12-09", "--game", "contract"]  # medium
    result = runner.invoke(app, [*wednesday, "--question", "laydown", "-o", str(tmp_path / "d.toml")])
    assert result.exit_code == 0, result.output
    assert load(tmp_path / "d.toml").meta["kind"] == "laydown"
    bad = runner.invoke(app, ["daily", "--date", "2026-12-07", "--game", "contract", "--question", "laydown"])
    assert bad.exit_code == 2 and "no easy contract 'laydown' puzzles" in bad.output, bad.output
    bad = runner.invoke(app, ["daily", "--date", "2026-12-07", "--game", "zsy", "--question", "nope"])
    assert bad.exit_code == 2 and "unknown question 'nope'" in bad.output, bad.output


def test_the_book_has_contents_sections_page_numbers_and_vector_pictures(tmp_path: Path) -> None:
    require("fpdf", "book")  # the book extra: without it this test skips (the root conftest)
    pdfium = require("pypdfium2", "book")
    mixed = [REPLY, LAYOFF, ROOT / "puzzles" / "contract" / "r1-one-short.toml", SMALL]  # the games mixed
    out = tmp_path / "book.pdf"
    result = runner.invoke(app, ["book", *map(str, mixed), "-o", str(out), "--json"])
    assert result.exit_code == 0, result.output
    doc = pdfium.PdfDocument(str(out))
    pages = [doc[i].get_textpage().get_text_range().replace("\r\n", "\n").splitlines() for i in range(len(doc))]
    assert len(pages) == json.loads(result.stdout)["pages"] == 1 + 4 + 4
    contents = pages[0]
    assert contents[:3] == ["Shanghai puzzles", "4 puzzles, then their answers", "Contents"]
    entries = [line.rsplit(" ", 1) for line in contents[3:]]
    names = [name for name, _ in entries]
    # by game (Manipulation, Contract, Zheng Shang You), then level
    assert names.index("Manipulation Shanghai") < names.index("Contract Shanghai") < names.index("Zheng Shang You")
    assert names[names.index("Zheng Shang You") + 1] == "Hard" and names[-1] == "Answers"
    puzzle_pages = {}
    for name, page in entries:  # each entry's page holds it, and its footer prints that number
        text = pages[int(page) - 1]
        assert text[-1] == page, (name, page, text[-1])
        if name.startswith("Puzzle "):
            number = name.split(":")[0]
            assert text[0].startswith(f"{number} "), (name, text[0])
            puzzle_pages[number.split()[1]] = page
    assert list(puzzle_pages) == ["1", "2", "3", "4"] and pages[0][-1] != "1"  # no number on the title page
    answers = int(entries[-1][1])
    for n in range(1, 5):  # each answer names its puzzle's page
        assert pages[answers - 2 + n][0] == f"Answer {n} puzzle {n}, page {puzzle_pages[str(n)]}"
    assert pages[int(puzzle_pages["4"]) - 1][0] == "Puzzle 4 Zheng Shang You - hard"
    assert b"/Subtype /Image" not in out.read_bytes()  # the pictures are vector graphics, not images
    for i in range(2):  # the first pages as PNG: the contents, then a picture drawn in colour
        image = doc[i].render(scale=1).to_pil().convert("RGB")
        png = tmp_path / f"page{i + 1}.png"
        image.save(png)
        assert png.read_bytes()[:4] == b"\x89PNG"
        colours = {colour for _, colour in image.getcolors(maxcolors=1 << 24)}
        assert (0, 0, 0) in colours or min(sum(c) for c in colours) < 100  # dark text is drawn
        if i == 1:
            assert any(r > 150 and g < 80 and b < 80 for r, g, b in colours)  # a red card's ink
