"""What every command shares: consoles, pretty cards, JSON lines, exit codes.

Exit codes: 0 ok, 1 no solution or a domain failure (``--check`` mismatch),
2 bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn

from rich.console import Console

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

EXIT_OK = 0
EXIT_FAIL = 1
EXIT_BAD_INPUT = 2

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


def card_markup(card: Card) -> str:
    """Rich markup for one card: red suits in red, jokers in magenta."""
    if card.is_joker:
        return f"[bold magenta]{card.pretty}[/]"
    if card.suit is not None and card.suit.is_red:
        return f"[red]{card.pretty}[/]"
    return f"[bold]{card.pretty}[/]"


def cards_markup(cards: Cards | Iterable[Card]) -> str:
    """Rich markup for several cards, space separated (``-`` when there are none)."""
    text = " ".join(card_markup(c) for c in cards)
    return text or "[dim]-[/]"


def meld_markup(meld: Meld) -> str:
    """Rich markup for a meld; a wild's role follows it in dim text."""
    parts = []
    for card, role in zip(meld.cards, meld.roles):
        parts.append(card_markup(card) + (f"[dim]={role.pretty}[/]" if role is not None else ""))
    return " ".join(parts)


Part = tuple[str, str]
"""A piece of a printed line: its text and a rich style (``""`` for none)."""

_CARD_PARTS: dict[Card, Part] = {}


def card_parts(card: Card) -> Part:
    """One card as a styled part, styled as :func:`card_markup` styles it."""
    part = _CARD_PARTS.get(card)
    if part is None:
        style = "bold magenta" if card.is_joker else "red" if card.suit is not None and card.suit.is_red else "bold"
        part = _CARD_PARTS[card] = (card.pretty, style)
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
            out.append(("=" + role.pretty, "dim"))
    return out


def print_lines(console: Console, lines: Iterable[Sequence[Part]]) -> None:
    """Print lines of styled parts: plain text straight to the file when the console has no
    colours (a pipe or a file: what rich would write), one rich ``Text`` otherwise."""
    if console.color_system is None and not console.record and not console.is_jupyter:
        file = console.file
        file.write("\n".join("".join(t for t, _ in line) for line in lines) + "\n")
        file.flush()
        return
    from rich.text import Span, Text

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


def emit_json(data: dict[str, Any]) -> None:
    """One JSON object on one line of stdout."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def bad_input(message: str) -> NoReturn:
    """Print one line naming the problem and exit 2."""
    err.print(f"[red]error:[/] {message}", markup=True, highlight=False)
    raise SystemExit(EXIT_BAD_INPUT)


@dataclass(slots=True)
class Outcome:
    """The answer to one puzzle: JSON data, a renderer for humans, and a check result."""

    data: dict[str, Any]
    render: Callable[[Console], None]
    mismatch: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
