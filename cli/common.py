"""What every command shares: consoles, pretty cards, JSON lines, exit codes.

Exit codes: 0 ok, 1 no solution or a domain failure (``--check`` mismatch),
2 bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import importlib
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.text import Text

from cli.fastparams import install as install_light_coercion
from solver.answers import SolveOptions
from solver.cards import Card, Cards
from solver.melds import Meld

__all__ = [
    "EXIT_OK",
    "EXIT_FAIL",
    "EXIT_BAD_INPUT",
    "out",
    "err",
    "card_markup",
    "card_text",
    "unicode_ok",
    "line",
    "say",
    "error",
    "one_line",
    "plural",
    "seconds_option",
    "Piece",
    "cards_markup",
    "meld_markup",
    "emit_json",
    "bad_input",
    "Part",
    "card_parts",
    "cards_parts",
    "meld_parts",
    "print_lines",
    "Outcome",
    "SolveOptions",
]


def _click() -> Any:
    """The click typer runs on: the copy newer typer carries, else click itself (typer before 0.2x).

    The copy comes first: click may be installed beside it (uvicorn needs it) and
    its exception classes are then not the ones typer raises.
    """
    try:
        return importlib.import_module("typer._click")
    except ImportError:  # pragma: no cover - depends on the typer version
        return importlib.import_module("click")


click: Any = _click()
"""click, for its exception classes (usage errors are printed as one line by :func:`cli.main.main`)."""

install_light_coercion()  # typer's option coercion with no pydantic where a value needs none (issue 35)

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_BAD_INPUT = 2

out = Console(highlight=False, soft_wrap=True, emoji=False)
err = Console(stderr=True, highlight=False, soft_wrap=True, emoji=False)

_SUIT_SYMBOLS = "♠♥♦♣…→"
_ENCODABLE: dict[str, bool] = {}


def unicode_ok(stream: Any = None) -> bool:
    """True if ``stream`` (stdout by default) can print the suit symbols; else cards print as ASCII codes."""
    encoding = getattr(stream if stream is not None else sys.stdout, "encoding", None) or "ascii"
    ok = _ENCODABLE.get(encoding)
    if ok is None:
        try:
            _SUIT_SYMBOLS.encode(encoding)
            ok = True
        except (UnicodeEncodeError, LookupError):
            ok = False
        _ENCODABLE[encoding] = ok
    return ok


def card_text(card: Card) -> str:
    """A card for the terminal: ``10♥`` where the terminal can print suits, ``10H`` where it cannot."""
    return card.pretty if unicode_ok() else card.code


def card_markup(card: Card) -> str:
    """Rich markup for one card: red suits in red, jokers in magenta (card text holds no markup)."""
    text, style = card_parts(card)
    return f"[{style}]{text}[/]"


def cards_markup(cards: Cards | Iterable[Card]) -> str:
    """Rich markup for several cards, space separated (``-`` when there are none)."""
    text = " ".join(card_markup(c) for c in cards)
    return text or "[dim]-[/]"


def meld_markup(meld: Meld) -> str:
    """Rich markup for a meld; a wild's role follows it in dim text."""
    parts = []
    for card, role in zip(meld.cards, meld.roles):
        parts.append(card_markup(card) + (f"[dim]={card_text(role)}[/]" if role is not None else ""))
    return " ".join(parts)


Part = tuple[str, str]
"""A piece of a printed line: its text and a rich style (``""`` for none)."""

_CARD_PARTS: dict[tuple[Card, bool], Part] = {}


def card_parts(card: Card) -> Part:
    """One card as a styled part: red suits in red, jokers in magenta, the rest bold."""
    pretty = unicode_ok()
    part = _CARD_PARTS.get((card, pretty))
    if part is None:
        style = "bold magenta" if card.is_joker else "red" if card.suit is not None and card.suit.is_red else "bold"
        part = _CARD_PARTS[card, pretty] = (card.pretty if pretty else card.code, style)
    return part


def _append(out: list[Part], part: Part) -> None:
    """Add a space-separated part; neighbours in one style share one part (fewer spans)."""
    if out and out[-1][1] == part[1]:
        out[-1] = (out[-1][0] + " " + part[0], part[1])
    else:
        if out:
            out.append((" ", ""))
        out.append(part)


def cards_parts(cards: Cards | Iterable[Card]) -> list[Part]:
    """Several cards as styled parts (a dim ``-`` when there are none), as :func:`cards_markup`."""
    out: list[Part] = []
    for card in cards:
        _append(out, card_parts(card))
    return out or [("-", "dim")]


def meld_parts(meld: Meld) -> list[Part]:
    """A meld as styled parts; a wild's role follows it in dim text, as :func:`meld_markup`."""
    out: list[Part] = []
    for card, role in zip(meld.cards, meld.roles):
        _append(out, card_parts(card))
        if role is not None:
            out.append(("=" + card_text(role), "dim"))
    return out


def print_lines(console: Console, lines: Iterable[Sequence[Part]]) -> None:
    """Print lines of styled parts: plain text straight to the file when the console has no
    colours (a pipe or a file: what rich would write), one rich ``Text`` otherwise."""
    if console.color_system is None and not console.record and not console.is_jupyter:
        file = console.file
        file.write("\n".join("".join(t for t, _ in line) for line in lines) + "\n")
        file.flush()
        return
    from rich.text import Span

    chunks: list[str] = []
    spans: list[Span] = []
    pos = 0
    for k, line in enumerate(lines):
        if k:
            chunks.append("\n")
            pos += 1
        for text, style in line:
            if style:
                spans.append(Span(pos, pos + len(text), style))
            chunks.append(text)
            pos += len(text)
    console.print(Text("".join(chunks), spans=spans))


Piece = str | Part | Sequence[Part] | Text
"""What :func:`line` joins: plain text (never read as markup), a styled part, a list of parts, a rich ``Text``."""


def line(*pieces: Piece) -> Text:
    """One rich ``Text`` from pieces; user text stays text (``[/]`` prints as ``[/]``)."""
    text = Text()
    for piece in pieces:
        if isinstance(piece, Text):
            text.append_text(piece)
        elif isinstance(piece, str):
            text.append(piece)
        elif isinstance(piece, tuple):
            text.append(piece[0], style=piece[1] or None)
        else:
            for part in piece:
                text.append(part[0], style=part[1] or None)
    return text


def say(console: Console, *pieces: Piece) -> None:
    """Print one line built by :func:`line` (no markup, no emoji codes, no highlighting)."""
    console.print(line(*pieces))


def one_line(message: str) -> str:
    """A message on one line: line breaks become spaces."""
    return " ".join(message.splitlines()) if "\n" in message or "\r" in message else message


def error(message: str, label: str = "error") -> None:
    """Print ``error: message`` on stderr as one line of plain text (the message is never markup)."""
    say(err, (label + ":", "red"), " ", one_line(message))


def emit_json(data: dict[str, Any]) -> None:
    """One JSON object on one line of stdout (strict JSON; ASCII escapes where the terminal needs them)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=not unicode_ok(), allow_nan=False) + "\n")
    sys.stdout.flush()


def bad_input(message: str) -> NoReturn:
    """Print one line naming the problem and exit 2."""
    error(message)
    raise SystemExit(EXIT_BAD_INPUT)


def _seconds(value: float) -> float:
    from solver.budget import BudgetError, seconds

    try:
        return seconds(value, "it")
    except BudgetError as exc:
        raise typer.BadParameter(str(exc).removeprefix("it ")) from None


def seconds_option(help: str) -> Any:
    """The ``--time-limit`` option: seconds checked by :func:`solver.budget.seconds` (0.001 to 3600)."""
    return typer.Option("--time-limit", callback=_seconds, help=help + " (0.001 to 3600)")


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 play``, ``2 plays``; ``many`` for irregular plurals (``1 copy``, ``2 copies``)."""
    return f"{n} {word if n == 1 else many or word + 's'}"


@dataclass(slots=True)
class Outcome:
    """The answer to one puzzle: JSON data, a renderer for humans, and a check result."""

    data: dict[str, Any]
    render: Callable[[Console], None]
    mismatch: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def progress_bar(quiet: bool = False) -> Any:
    """The progress bar of a long run on stderr (a description, the bar, done of total, time left),
    gone when finished; ``quiet`` hides it. rich's progress is imported here, by the commands that
    draw one, not by every command."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=True,
        disable=quiet,
    )
