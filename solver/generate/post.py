"""Ways to post a puzzle: a forum post, the puzzle of the day, a puzzle book.

- :func:`post` writes one puzzle for a forum, with the answer in words behind
  that forum's own spoiler: Reddit ``>!...!<``, Discord ``||...||``,
  BoardGameGeek ``[o]...[/o]``, HTML ``<details>`` (and Markdown with
  ``<details>``, which GitHub and Discourse fold). The title, the question
  picture, and (only when a page address is given: ``--url``) a link that
  opens the position on the solver's web page (the page keeps a position in
  its URL's fragment).
- :func:`daily` is the same puzzle for everyone on a date: the game and the
  level follow the calendar, the seed is the date, and the generator is
  reproducible, so every machine makes the same puzzle.
- :func:`book` writes a PDF (``fpdf2``, the optional ``book`` extra): a
  contents page, the puzzles by game and level, then the answers, each
  naming its puzzle's page; pictures as vector graphics at one scale.

>>> from solver.puzzles import loads
>>> p = loads('game = "manipulation"\\ntitle = "Six"\\n[position]\\ntable = ["3H 4H 5H 6H"]\\nhand = "7H"\\n')
>>> page_link(p, "http://localhost:8000")
'http://localhost:8000/manipulation#table=3H+4H+5H+6H&hand=7H'
>>> print(post(p, "bgg", "six.png", None, ["Answer: play 1 card, 7H"]), end="")
[b]Six[/b]
Manipulation Shanghai
[url=six.png]The position (picture)[/url]
Answer: [o]Answer: play 1 card, 7H[/o]
>>> print(post(p, "reddit", "six.png", None, ["Play 1 card", "7H to the run"]).splitlines()[-2:])
['Answer: >!Play 1 card!<  ', '>!7H to the run!<']
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlencode

from solver.errors import ShanghaiError
from solver.extras import require
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle

__all__ = [
    "FORMATS",
    "Format",
    "post",
    "page_link",
    "answer_words",
    "daily",
    "daily_choice",
    "book",
    "book_order",
    "BookError",
]

Format = Literal["reddit", "discord", "bgg", "html", "markdown"]
FORMATS: tuple[Format, ...] = ("reddit", "discord", "bgg", "html", "markdown")
"""Each forum's post: its own spoiler, link and picture markup."""
SUFFIX = {"reddit": "reddit.md", "discord": "discord.txt", "bgg": "bgg.txt", "html": "html", "markdown": "md"}

DEFAULT_PAGE = "http://127.0.0.1:8000"
"""Where ``shanghai serve`` puts the page by default (a post links it only when ``--url`` names the page)."""


class BookError(ShanghaiError):
    """The puzzle book cannot be written (no puzzles, or the PDF library is not installed)."""


def page_link(puzzle: Puzzle, base: str = DEFAULT_PAGE) -> str:
    """The URL that opens the puzzle's position (and rules) on the web page (``web/static/app.js``)."""
    items: list[tuple[str, str]] = []
    for key, value in sorted(puzzle.rules.changed().items()):
        if isinstance(value, (list, tuple)):
            continue  # a custom contract list has no place in the page's URL
        items.append((f"o.{key}", str(value).lower() if isinstance(value, bool) else str(value)))
    pos = puzzle.position
    if isinstance(pos, ManipulationPosition):
        if pos.table:
            items.append(("table", " | ".join(str(m) for m in pos.table)))
    elif isinstance(pos, ContractPosition):
        items.append(("round", str(pos.round)))
        if pos.table:
            items.append(("table", " | ".join(f"{t.owner}:{t.meld}" for t in pos.table)))
        if pos.laid_down:
            items.append(("laid", "1"))
        if pos.discard is not None:
            items.append(("discard", str(pos.discard)))
    else:
        if pos.to_beat is not None:
            items.append(("beat", str(pos.to_beat)))
        if pos.to_beat_kind is not None:
            items.append(("kind", pos.to_beat_kind))
        if pos.opponent is not None:
            items.append(("opponent", str(pos.opponent)))
    items.append(("hand", str(pos.hand)))
    return f"{base.rstrip('/')}/{puzzle.game}#{urlencode(items)}"


def answer_words(puzzle: Puzzle, time_limit: float = 10.0) -> list[str]:
    """The answer in words, as the answer picture writes it (:mod:`solver.picture`)."""
    from solver.picture import answer_notes

    return answer_notes(puzzle, time_limit)


def _level(puzzle: Puzzle) -> str:
    level = puzzle.meta.get("difficulty")
    from solver.picture import GAME_NAMES

    return GAME_NAMES[puzzle.game] + (f" · {level}" if level else "")


def post(puzzle: Puzzle, fmt: Format, picture: str, page: str | None, answer: Sequence[str]) -> str:
    """The post's text for the forum ``fmt``: ``picture`` is the question picture's address, ``page``
    the web page's (None: no link; a post never links a page on the poster's own machine unasked).

    The answer is only behind the forum's spoiler: Reddit's ``>!...!<`` and
    Discord's ``||...||`` hide a line at a time, BoardGameGeek's ``[o]...[/o]``
    and HTML's ``<details>`` hide the block.
    """
    title = puzzle.title or f"{_level(puzzle)} puzzle"
    link = page_link(puzzle, page) if page else None
    level = _level(puzzle)
    if fmt == "reddit":
        hidden = "  \n".join(f">!{a}!<" for a in answer)
        opened = f"[Open the position on the solver page]({link})\n\n" if link else ""
        return f"**{title}**  \n{level}\n\n[The position (picture)]({picture})\n\n{opened}Answer: {hidden}\n"
    if fmt == "discord":
        hidden = "\n".join(f"||{a}||" for a in answer)
        opened = f"Open the position on the solver page: <{link}>\n" if link else ""
        return f"**{title}**\n{level}\n{picture}\n{opened}Answer:\n{hidden}\n"
    if fmt == "bgg":
        body = "\n".join(answer)
        opened = f"[url={link}]Open the position on the solver page[/url]\n" if link else ""
        return f"[b]{title}[/b]\n{level}\n[url={picture}]The position (picture)[/url]\n{opened}Answer: [o]{body}[/o]\n"
    if fmt == "markdown":
        lines = "  \n".join(answer)
        opened = f"[Open the position on the solver page]({link})\n\n" if link else ""
        return (
            f"**{title}**  \n{level}\n\n![the position]({picture})\n\n{opened}"
            f"<details><summary>Answer</summary>\n\n{lines}\n\n</details>\n"
        )
    items = "".join(f"<li>{escape(a)}</li>" for a in answer)
    opened = f'<p><a href="{escape(link)}">Open the position on the solver page</a></p>\n' if link else ""
    return (
        f'<article class="shanghai-puzzle"><h2>{escape(title)}</h2><p>{escape(level)}</p>\n'
        f'<img src="{escape(picture)}" alt="{escape(title)}">\n{opened}'
        f"<details><summary>Answer</summary><ul>{items}</ul></details></article>\n"
    )


# --- the puzzle of the day ----------------------------------------------------------------

WEEK_LEVELS = ("easy", "easy", "medium", "medium", "hard", "hard", "expert")
"""The level of each weekday, Monday first: the week gets harder."""


def daily_choice(date: dt.date, game: str | None = None, level: str | None = None) -> tuple[str, str, int]:
    """The game (by day, in turn), level (by weekday) and seed (``YYYYMMDD``) of a date's puzzle."""
    from solver.generate import GAMES

    return (
        game or GAMES[date.toordinal() % len(GAMES)],
        level or WEEK_LEVELS[date.weekday()],
        int(date.strftime("%Y%m%d")),
    )


def daily(date: dt.date, game: str | None = None, level: str | None = None, question: str | None = None) -> Puzzle:
    """The puzzle of ``date``: the same for everyone (the generator is reproducible from its seed).
    ``question`` asks one kind (a Contract ``laydown``, a Zheng Shang You ``lead``, ...: one with a
    rung at the level, as ``generate --question``); by default the level's first question."""
    from solver.generate import generate

    game_, level_, seed = daily_choice(date, game, level)
    puzzle = generate(game_, level_, 1, seed, question=question)[0]
    title = f"Puzzle of {date.isoformat()}: {puzzle.title}"
    meta = {**puzzle.meta, "date": date.isoformat(), "seed": seed}
    return Puzzle(puzzle.game, puzzle.rules, puzzle.position, title, dict(puzzle.answer), "", meta)


# --- the puzzle book ----------------------------------------------------------------------

BOOK_MARGIN = 15.0
"""The page margins (mm); the footer sits in the bottom one."""
_HEADING_H = 12.0
_TOC_LINE_H = 7.0


def book_order(puzzles: Sequence[Puzzle]) -> list[Puzzle]:
    """The puzzles as the book prints them: by game (:data:`~solver.generate.GAMES`' order), then by
    level (easy to expert, unrated last), each group in the order given."""
    from solver.generate import GAMES, LEVELS

    def key(puzzle: Puzzle) -> tuple[int, int]:
        level = puzzle.meta.get("difficulty")
        return GAMES.index(puzzle.game), LEVELS.index(level) if level in LEVELS else len(LEVELS)

    return sorted(puzzles, key=key)


def _level_name(puzzle: Puzzle) -> str:
    level = puzzle.meta.get("difficulty")
    return str(level).capitalize() if level else "Unrated"


def _svg_size(svg: str) -> tuple[float, float]:
    """A picture's width and height in its own units (its ``viewBox``)."""
    head = svg[: svg.index(">")]
    box = head.split('viewBox="', 1)[1].split('"', 1)[0].split()
    return float(box[2]), float(box[3])


def _paper(svg: str) -> bytes:
    """The picture for the printed page: white paper, no tinted background (and fpdf2 reads no
    ``100%`` sizes)."""
    return svg.replace('<rect width="100%" height="100%" fill="#f4f1ea"/>', "", 1).encode()


def book(puzzles: Sequence[Puzzle], out: Path, *, title: str = "Shanghai puzzles", time_limit: float = 10.0) -> int:
    """Write a PDF book: a title page with the contents, the puzzles by game and level (one a page),
    then the answers, each naming its puzzle's page. Returns the number of pages.

    The contents list each game, each level in it and each puzzle with its
    page (fpdf2's outline: the PDF reader's bookmarks too); every page but
    the first has its number in the footer. Pictures are vector graphics
    (the SVG of :mod:`solver.picture`, drawn by fpdf2), all at one scale:
    the largest that fits the widest and the tallest picture of the book.
    """
    if not puzzles:
        raise BookError("no puzzles to put in a book")
    FPDF = require("fpdf", "book").FPDF  # MissingExtra (one line naming the extra) without it
    from solver.picture import GAME_NAMES, puzzle_svg

    ordered = book_order(puzzles)
    questions = [puzzle_svg(p) for p in ordered]
    answers = [puzzle_svg(p, answer=True, time_limit=time_limit) for p in ordered]
    pdf: Any = FPDF(format="A4")
    pdf.set_margins(BOOK_MARGIN, BOOK_MARGIN, BOOK_MARGIN)
    pdf.set_auto_page_break(auto=True, margin=BOOK_MARGIN)
    pdf.set_creation_date(dt.datetime(2000, 1, 1, tzinfo=dt.UTC))  # the same puzzles make the same file
    sizes = [_svg_size(s) for s in questions + answers]
    room = pdf.eph - _HEADING_H - 4
    scale = min(pdf.epw / max(w for w, _ in sizes), room / max(h for _, h in sizes))  # mm a picture unit

    def footer() -> None:
        if pdf.page_no() > 1:
            pdf.set_y(-BOOK_MARGIN + 4)
            pdf.set_font("helvetica", "", 9)
            pdf.cell(0, 5, f"{pdf.page_no()}", align="C")

    pdf.footer = footer  # fpdf2 calls self.footer() as each page closes
    pdf.add_page()
    pdf.set_font("helvetica", "B", 28)
    pdf.cell(0, 20, _latin(title), new_x="LMARGIN", new_y="NEXT", align="C")
    pdf.set_font("helvetica", "", 13)
    pdf.cell(0, 8, f"{len(ordered)} puzzles, then their answers", new_x="LMARGIN", new_y="NEXT", align="C")
    pdf.ln(4)
    entries = 1 + sum(1 for _ in _groups(ordered)) + len({p.game for p in ordered}) + len(ordered)
    first = int((pdf.eph - pdf.get_y() - 12) // _TOC_LINE_H)  # contents lines under the title
    per_page = int((pdf.eph - 12) // _TOC_LINE_H)
    pages = 1 + max(0, -(-(entries - first) // per_page))
    pdf.insert_toc_placeholder(_contents, pages=pages)
    page_of: list[int] = []
    game, level = "", ""
    for n, (puzzle, svg) in enumerate(zip(ordered, questions, strict=True), 1):
        if n > 1:  # the placeholder's page break opened the first puzzle's page
            pdf.add_page()
        if puzzle.game != game:
            game, level = puzzle.game, ""
            pdf.start_section(GAME_NAMES[game], level=0)
        if _level_name(puzzle) != level:
            level = _level_name(puzzle)
            pdf.start_section(level, level=1)
        heading = f"Puzzle {n}: {puzzle.title}" if puzzle.title else f"Puzzle {n}"
        pdf.start_section(_latin(heading), level=2)
        page_of.append(pdf.page_no())
        _picture(pdf, f"Puzzle {n}", f"{GAME_NAMES[puzzle.game]} - {level.lower()}", svg, scale)
    for n, svg in enumerate(answers, 1):
        pdf.add_page()
        if n == 1:
            pdf.start_section("Answers", level=0)
        _picture(pdf, f"Answer {n}", f"puzzle {n}, page {page_of[n - 1]}", svg, scale)
    pdf.output(str(out))
    return int(pdf.pages_count)


def _groups(puzzles: Sequence[Puzzle]) -> set[tuple[str, str]]:
    return {(p.game, _level_name(p)) for p in puzzles}


def _contents(pdf: Any, outline: Sequence[Any]) -> None:
    """The contents: each section (game, level, puzzle, the answers) with its page, indented by level."""
    pdf.set_x(pdf.l_margin)
    pdf.set_font("helvetica", "B", 16)
    pdf.cell(0, 10, "Contents", new_x="LMARGIN", new_y="NEXT")
    for section in outline:
        pdf.set_font("helvetica", "B" if section.level < 2 else "", 12 if section.level == 0 else 11)
        indent = 8.0 * section.level
        pdf.set_x(pdf.l_margin + indent)
        room = pdf.epw - indent - 15
        name = section.name
        while pdf.get_string_width(name) > room - 2 and len(name) > 4:
            name = name[:-5].rstrip() + "..."
        pdf.cell(room, _TOC_LINE_H, name)
        pdf.cell(15, _TOC_LINE_H, str(section.page_number), align="R", new_x="LMARGIN", new_y="NEXT")


def _latin(text: str) -> str:
    """Text for the PDF's built-in font (Latin-1): other characters become '?'."""
    return text.replace("—", "-").replace("·", "-").encode("latin-1", "replace").decode("latin-1")


def _picture(pdf: Any, heading: str, note: str, svg: str, scale: float) -> None:
    """A heading, a small note beside it, and the picture at the book's scale."""
    pdf.set_font("helvetica", "B", 16)
    pdf.cell(pdf.get_string_width(heading) + 4, _HEADING_H, heading)
    pdf.set_font("helvetica", "", 11)
    pdf.cell(0, _HEADING_H, _latin(note), new_x="LMARGIN", new_y="NEXT")
    width, _ = _svg_size(svg)
    pdf.image(io.BytesIO(_paper(svg)), w=width * scale)
