"""What every command shares: consoles, pretty cards, JSON lines, exit codes.

Exit codes: 0 ok, 1 no solution or a domain failure (``--check`` mismatch),
2 bad input (one line on stderr, never a traceback).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
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
