"""Playing cards drawn as SVG: plain strings, no dependencies, no images.

One drawing per card, used everywhere a card is shown as a picture: the web
page inlines :func:`deck_sprite` once and shows each card as
``<svg><use href="#card-6S"/></svg>``; :func:`card_svg` is one standalone
card and :func:`rows_svg` lays out labelled rows of cards (a table of melds,
a hand) as one picture, for renderers that write files.

Every card is ``CARD_W`` x ``CARD_H`` user units. Suits are drawn as paths,
so the pictures look the same whatever fonts a browser has; only the rank
letters are text.

>>> svg = card_svg(Card.parse("10H"))
>>> svg.startswith("<svg") and 'data-card="10H"' in svg
True
>>> symbol_id(Card.parse("RJ")), symbol_id("2s")
('card-RJ', 'card-2S')
>>> deck_sprite().count("<symbol id=\\"card-")
55
>>> 'class="mark-played"' in card_svg("6S", mark="played")
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from solver.cards import ALL_CARDS, Card, Joker, Suit

__all__ = [
    "CARD_W",
    "CARD_H",
    "MARKS",
    "SUIT_COLORS",
    "symbol_id",
    "card_body",
    "card_svg",
    "deck_sprite",
    "rows_svg",
    "Item",
    "Group",
    "Section",
    "sections_svg",
    "wrap",
]

CARD_W = 60
"""Width of a card in SVG user units."""
CARD_H = 84
"""Height of a card in SVG user units."""

SUIT_COLORS: dict[str, str] = {"S": "#1b1b1f", "H": "#c8102e", "D": "#c8102e", "C": "#1b1b1f"}
"""Ink colour of each suit (two colours, as on printed decks)."""

MARKS: dict[str, str] = {
    "played": "#1f9d55",
    "moved": "#e08a00",
    "selected": "#2a6fdb",
    "wild": "#8e44ad",
}
"""The marks a card can carry (a coloured frame): played from the hand, moved on the table, ..."""

_JOKER_COLORS: dict[Joker, str] = {Joker.RED: "#c8102e", Joker.BLACK: "#1b1b1f", Joker.PLAIN: "#6b3fa0"}

# Suit shapes in a 100 x 100 box.
_SUIT_PATHS: dict[Suit, str] = {
    Suit.HEARTS: "M50 92C22 68 2 50 2 28C2 12 14 2 28 2C38 2 46 8 50 18C54 8 62 2 72 2C86 2 98 12 98 28C98 50 78 68 50 92Z",
    Suit.DIAMONDS: "M50 2L88 50L50 98L12 50Z",
    Suit.SPADES: (
        "M50 2C78 28 98 44 98 62C98 78 86 86 74 86C65 86 58 81 54 74C55 86 60 93 68 98L32 98"
        "C40 93 45 86 46 74C42 81 35 86 26 86C14 86 2 78 2 62C2 44 22 28 50 2Z"
    ),
    Suit.CLUBS: (
        "M50 4A22 22 0 1 1 49.9 4ZM26 38A22 22 0 1 1 25.9 38ZM74 38A22 22 0 1 1 73.9 38Z"
        "M45 56C45 78 40 90 31 98L69 98C60 90 55 78 55 56Z"
    ),
}


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def symbol_id(card: Card | str) -> str:
    """The id of a card's ``<symbol>`` in :func:`deck_sprite`: ``card-`` and its code."""
    return f"card-{_card(card).code}"


def _suit(suit: Suit, x: float, y: float, size: float) -> str:
    scale = size / 100
    return (
        f'<path transform="translate({x:g} {y:g}) scale({scale:g})" '
        f'd="{_SUIT_PATHS[suit]}" fill="{SUIT_COLORS[suit.value]}"/>'
    )


def card_body(card: Card | str) -> str:
    """The SVG elements drawing one card in a ``0 0 CARD_W CARD_H`` box (no outer ``<svg>``).

    The face has the rank and a small suit in two corners and a large suit in
    the middle; a joker shows a star and the word JOKER in its colour.
    """
    c = _card(card)
    parts = [
        f'<rect x="0.75" y="0.75" width="{CARD_W - 1.5}" height="{CARD_H - 1.5}" rx="5" '
        'fill="#fff" stroke="#9a9aa2" stroke-width="1.5"/>'
    ]
    if c.joker is not None:
        color = _JOKER_COLORS[c.joker]
        star = "M30 22L35 36L50 36L38 45L43 60L30 51L17 60L22 45L10 36L25 36Z"
        parts.append(f'<path d="{star}" fill="{color}"/>')
        for i, letter in enumerate("JOKER"):
            parts.append(
                f'<text x="7" y="{14 + i * 10}" font-family="Arial,Helvetica,sans-serif" font-size="10" '
                f'font-weight="700" text-anchor="middle" fill="{color}">{letter}</text>'
            )
        label = {Joker.RED: "red", Joker.BLACK: "black", Joker.PLAIN: ""}[c.joker]
        if label:
            parts.append(
                f'<text x="30" y="76" font-family="Arial,Helvetica,sans-serif" font-size="10" '
                f'text-anchor="middle" fill="{color}">{label}</text>'
            )
        return "".join(parts)
    assert c.rank is not None and c.suit is not None
    color = SUIT_COLORS[c.suit.value]
    rank = c.rank.symbol
    size = 19 if len(rank) == 1 else 16
    spacing = ' letter-spacing="-1.5"' if len(rank) > 1 else ""
    corner = (
        f'<text x="{4 if len(rank) > 1 else 5}" y="19" font-family="Arial,Helvetica,sans-serif" '
        f'font-size="{size}" font-weight="700" fill="{color}"{spacing}>{rank}</text>'
    )
    parts.append(corner)
    parts.append(_suit(c.suit, 5, 23, 13))
    parts.append(_suit(c.suit, 17, 29, 26))
    parts.append(f'<g transform="rotate(180 {CARD_W / 2:g} {CARD_H / 2:g})">{corner}{_suit(c.suit, 5, 23, 13)}</g>')
    return "".join(parts)


def _frame(mark: str) -> str:
    color = MARKS.get(mark, MARKS["selected"])
    return (
        f'<rect class="mark-{escape(mark)}" x="2" y="2" width="{CARD_W - 4}" height="{CARD_H - 4}" rx="4" '
        f'fill="none" stroke="{color}" stroke-width="4"/>'
    )


def card_svg(card: Card | str, *, mark: str | None = None, width: int | None = None) -> str:
    """One card as a standalone ``<svg>`` (no sprite needed).

    ``mark`` frames the card in the colour of :data:`MARKS` (``played``,
    ``moved``, ``selected``, ``wild``); ``width`` sets the displayed width in
    pixels (the height follows).
    """
    c = _card(card)
    size = f' width="{width}" height="{round(width * CARD_H / CARD_W)}"' if width else ""
    frame = _frame(mark) if mark else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {CARD_W} {CARD_H}"{size} '
        f'role="img" aria-label="{c.code}" data-card="{c.code}">{card_body(c)}{frame}</svg>'
    )


def deck_sprite(cards: Iterable[Card] | None = None) -> str:
    """An ``<svg>`` of ``<symbol>`` elements, one per card (every card and joker by default).

    Inline it once in a page (it is hidden) and draw a card with
    ``<svg viewBox="0 0 60 84"><use href="#card-6S"/></svg>``; the ids come
    from :func:`symbol_id`. The four suits are there too (``suit-S`` ...,
    ``viewBox="0 0 100 100"``), for compact card pickers. The sprite has no
    size; give the class ``card-sprite`` ``position: absolute`` in a page.
    """
    symbols = [
        f'<symbol id="{symbol_id(c)}" viewBox="0 0 {CARD_W} {CARD_H}">{card_body(c)}</symbol>'
        for c in (ALL_CARDS if cards is None else cards)
    ]
    symbols += [f'<symbol id="suit-{s.value}" viewBox="0 0 100 100">{_suit(s, 0, 0, 100)}</symbol>' for s in Suit]
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" class="card-sprite" width="0" height="0" '
        f'aria-hidden="true">{"".join(symbols)}</svg>'
    )


def rows_svg(
    rows: Sequence[Sequence[Card | str | tuple[Card | str, str | None]]],
    *,
    labels: Sequence[str] | None = None,
    overlap: float = 0.45,
    gap: float = 14,
    label_width: float = 70,
) -> str:
    """Rows of cards (melds, a hand) laid out as one standalone ``<svg>``.

    Each row is a sequence of cards, or ``(card, mark)`` pairs to frame some
    of them; ``labels`` puts a word before each row (``table``, ``hand``).
    Cards in a row overlap by ``overlap`` of their width, so each rank stays
    visible; rows are ``gap`` units apart.

    >>> svg = rows_svg([["3H", "4H", "5H"], [("6S", "played")]], labels=["meld", "hand"])
    >>> svg.count("<use"), svg.count('class="mark-played"')
    (0, 1)
    """
    step = CARD_W * (1 - overlap)
    left = label_width if labels else 0.0
    width = left + max((CARD_W + step * (len(r) - 1) for r in rows if r), default=CARD_W) + 4
    height = len(rows) * CARD_H + max(len(rows) - 1, 0) * gap + 4
    parts: list[str] = []
    for i, row in enumerate(rows):
        y = 2 + i * (CARD_H + gap)
        if labels and i < len(labels):
            parts.append(
                f'<text x="0" y="{y + CARD_H / 2 + 5:g}" font-family="Arial,Helvetica,sans-serif" '
                f'font-size="14" fill="#444">{escape(labels[i])}</text>'
            )
        for j, item in enumerate(row):
            card, mark = item if isinstance(item, tuple) else (item, None)
            c = _card(card)
            frame = _frame(mark) if mark else ""
            parts.append(
                f'<g transform="translate({left + 2 + j * step:g} {y:g})" data-card="{c.code}">'
                f"{card_body(c)}{frame}</g>"
            )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" '
        f'width="{width:g}" height="{height:g}">{"".join(parts)}</svg>'
    )


Item = Card | str | tuple[Card | str, str | None, int | None] | tuple[Card | str, str | None, int | None, str | None]
"""One card of a group: a plain card, or ``(card, mark, badge)`` or ``(card, mark, badge, role)``."""

Group = Sequence[Item]
"""Cards drawn side by side (a meld): each with an optional frame (mark), number (badge) and role
(what a wild or joker stands for, drawn as a small tag)."""


@dataclass(frozen=True, slots=True)
class Section:
    """A labelled row of groups; ``captions`` (one per group, optional) are written small above each."""

    label: str
    groups: Sequence[Group]
    captions: Sequence[str] = ()


_FONT = 'font-family="Arial,Helvetica,sans-serif"'


def _badge(number: int) -> str:
    return (
        f'<circle cx="12" cy="{CARD_H - 12}" r="9" fill="#2a2a33"/>'
        f'<text x="12" y="{CARD_H - 7.5}" {_FONT} font-size="12" '
        f'font-weight="700" text-anchor="middle" fill="#fff">{number}</text>'
    )


def _role(role: str) -> str:
    """A wild's role as a small tag below the corner index (inside the part of the card left visible)."""
    text = escape(f"={role}")
    width = 7 + 6.5 * len(text)
    return (
        f'<g class="role" data-role="{escape(role)}"><rect x="2" y="40" width="{width:g}" height="15" rx="3" '
        f'fill="{MARKS["wild"]}"/><text x="5" y="51.5" {_FONT} font-size="11" font-weight="700" '
        f'fill="#fff">{text}</text></g>'
    )


def wrap(text: str, width: float, size: float) -> list[str]:
    """``text`` broken at spaces into lines of at most ``width`` units at font ``size`` (an estimate:
    a character is about 0.56 of the size wide in Arial); a word longer than a line stands alone.

    >>> wrap("Lay off fives onto 5-5-5 and the ten of spades", 200, 20)
    ['Lay off fives', 'onto 5-5-5 and', 'the ten of spades']
    """
    most = max(1, int(width / (0.56 * size)))
    lines: list[str] = []
    for word in text.split():
        if lines and len(lines[-1]) + 1 + len(word) <= most:
            lines[-1] += " " + word
        else:
            lines.append(word)
    return lines or [""]


def _unpack(item: Item) -> tuple[Card, str | None, int | None, str | None]:
    if not isinstance(item, tuple):
        return _card(item), None, None, None
    if len(item) == 4:
        return _card(item[0]), item[1], item[2], item[3]
    return _card(item[0]), item[1], item[2], None


def _group_parts(group: Group, x: float, y: float, step: float) -> list[str]:
    parts = []
    for j, item in enumerate(group):
        c, mark, badge, role = _unpack(item)
        extra = (
            (_frame(mark) if mark else "")
            + (_badge(badge) if badge is not None else "")
            + (_role(role) if role else "")
        )
        parts.append(f'<g transform="translate({x + j * step:g} {y:g})" data-card="{c.code}">{card_body(c)}{extra}</g>')
    return parts


def sections_svg(
    sections: Sequence[Section | tuple[str, Sequence[Group]]],
    *,
    title: str = "",
    notes: Sequence[str] = (),
    footer: Sequence[str] = (),
    max_width: float = 900,
    min_width: float = 560,
    overlap: float = 0.45,
) -> str:
    """A picture to post: labelled sections of card groups (melds), wrapped to ``max_width``.

    Each section is a label (``table``, ``hand``, ``new table``) and its
    groups; groups sit side by side, ``24`` units apart, and wrap onto a new
    line when the next would pass ``max_width``. A card may carry a mark
    (a coloured frame, :data:`MARKS`), a badge (a small number: the step
    that moves it) and a role (what a wild stands for). ``title`` is written
    above, ``notes`` as lines below and ``footer`` small at the bottom, each
    wrapped to the picture's width (at least ``min_width``, so a short row
    of cards does not cut the words off). All text is escaped.

    >>> svg = sections_svg([("hand", [[("6S", "played", 1), "KD"]])], title="A <puzzle>", notes=["1. play 6S"])
    >>> svg.count('class="mark-played"'), "A &lt;puzzle&gt;" in svg, svg.count("<circle")
    (1, True, 1)
    """
    step = CARD_W * (1 - overlap)
    label_w, gap, line_h = 90.0, 24.0, CARD_H + 12
    body: list[str] = []
    y = 0.0
    right = label_w
    for section in sections:
        sec = section if isinstance(section, Section) else Section(section[0], section[1])
        caption_h = 16.0 if sec.captions else 0.0
        y += caption_h
        body.append(
            f'<text x="8" y="{y + CARD_H / 2 + 5:g}" {_FONT} font-size="14" fill="#555">{escape(sec.label)}</text>'
        )
        x = label_w
        if not sec.groups:
            body.append(f'<text x="{x:g}" y="{y + CARD_H / 2 + 5:g}" {_FONT} font-size="14" fill="#999">(none)</text>')
        for k, group in enumerate(sec.groups):
            width = CARD_W + step * (len(group) - 1)
            if x > label_w and x + width > max_width:
                x, y = label_w, y + line_h + caption_h
            if k < len(sec.captions) and sec.captions[k]:
                body.append(
                    f'<text class="caption" x="{x + 2:g}" y="{y - 4:g}" {_FONT} font-size="11" '
                    f'fill="#555">{escape(sec.captions[k])}</text>'
                )
            body += _group_parts(group, x, y, step)
            x += width + gap
            right = max(right, x)
        y += line_h + 6
    width = max(right + 8, min_width)
    text_w = width - 16
    head: list[str] = []
    top = 8.0
    for line in wrap(title, text_w, 20) if title else []:
        head.append(
            f'<text class="title" x="8" y="{top + 20:g}" {_FONT} font-size="20" font-weight="700" fill="#222">{escape(line)}</text>'
        )
        top += 26
    top += 8 if title else 0
    tail: list[str] = []
    y += top
    for note in notes:
        for line in wrap(note, text_w, 14):
            tail.append(
                f'<text class="note" x="8" y="{y + 14:g}" {_FONT} font-size="14" fill="#222">{escape(line)}</text>'
            )
            y += 20
    for note in footer:
        for line in wrap(note, text_w, 11):
            tail.append(
                f'<text class="footer" x="8" y="{y + 12:g}" {_FONT} font-size="11" fill="#777">{escape(line)}</text>'
            )
            y += 15
    height = y + 8
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:g} {height:g}" width="{width:g}" '
        f'height="{height:g}"><rect width="100%" height="100%" fill="#f4f1ea"/>{"".join(head)}'
        f'<g transform="translate(0 {top:g})">{"".join(body)}</g>{"".join(tail)}</svg>'
    )
