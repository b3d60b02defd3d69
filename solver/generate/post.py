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
from collections.abc import Sequence
from html import escape
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlencode

from solver.errors import ShanghaiError
from solver.extras import require
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle

__all__ = ["FORMATS", "Format", "post", "page_link", "answer_words", "daily", "daily_choice", "book", "BookError"]

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


def book(puzzles: Sequence[Puzzle], out: Path, *, title: str = "Shanghai puzzles", time_limit: float = 10.0) -> int:
    """Write a PDF book: a title page, one page a puzzle (its picture), then the answers (pictures and words).

    Returns the number of pages.
    """
    if not puzzles:
        raise BookError("no puzzles to put in a book")
    FPDF = require("fpdf", "book").FPDF  # MissingExtra (one line naming the extra) without it
    import io

    from solver.picture import puzzle_svg, svg_to_png

    pdf: Any = FPDF(format="A4")
    pdf.set_auto_page_break(auto=True, margin=15)
    pdf.set_creation_date(dt.datetime(2000, 1, 1, tzinfo=dt.UTC))  # the same puzzles make the same file
    pdf.add_page()
    pdf.set_font("helvetica", "B", 28)
    pdf.cell(0, 40, _latin(title), new_x="LMARGIN", new_y="NEXT", align="C")
    pdf.set_font("helvetica", "", 14)
    pdf.cell(0, 10, f"{len(puzzles)} puzzles, then their answers", new_x="LMARGIN", new_y="NEXT", align="C")
    for n, puzzle in enumerate(puzzles, 1):
        _picture_page(pdf, f"Puzzle {n}", io.BytesIO(svg_to_png(puzzle_svg(puzzle))))
    for n, puzzle in enumerate(puzzles, 1):
        picture = io.BytesIO(svg_to_png(puzzle_svg(puzzle, answer=True, time_limit=time_limit)))
        _picture_page(pdf, f"Answer {n}", picture)
    pdf.output(str(out))
    return int(pdf.pages_count)


def _latin(text: str) -> str:
    """Text for the PDF's built-in font (Latin-1): other characters become '?'."""
    return text.replace("—", "-").replace("·", "-").encode("latin-1", "replace").decode("latin-1")


def _picture_page(pdf: Any, heading: str, png: Any) -> None:
    pdf.add_page()
    pdf.set_font("helvetica", "B", 16)
    pdf.cell(0, 10, heading, new_x="LMARGIN", new_y="NEXT")
    pdf.image(png, w=pdf.epw, keep_aspect_ratio=True, h=pdf.eph - 15)
