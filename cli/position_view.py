"""A puzzle's position as the terminal shows it (``shanghai solve`` and the game handlers).

Below :mod:`cli.main` and :mod:`cli.games.zsy`, which both print positions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cli.common import cards_parts, meld_parts, out, say
from solver.cards import Card
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition

__all__ = ["zsy_order", "render_position"]


def zsy_order(cards: Iterable[Card]) -> list[Card]:
    """Zheng Shang You cards as a climbing-game player reads them: by rank, 3 low to 2 and the jokers
    high, suits in the notation's order within a rank (the notation itself is unchanged)."""
    from solver.zsy.combos import zsy_value

    return sorted(cards, key=lambda c: (zsy_value(c), c.index))


def render_position(puzzle: Puzzle) -> None:
    """Print a puzzle's position with pretty suits (user text is printed as text, never as markup)."""
    head: list[Any] = [(puzzle.name, "bold"), "  ", (puzzle.game, "dim")]
    if puzzle.title and puzzle.title != puzzle.name:
        head += ["  ", puzzle.title]
    say(out, *head)
    pos = puzzle.position
    if isinstance(pos, ManipulationPosition):
        for meld in pos.table:
            say(out, "  table  ", meld_parts(meld))
        say(out, "  hand   ", cards_parts(pos.hand))
    elif isinstance(pos, ContractPosition):
        contract = puzzle.rules.contract_text(pos.round)  # type: ignore[union-attr]
        say(out, f"  round  {pos.round}: {contract}")
        for t in pos.table:
            say(out, "  table  ", (f"p{t.owner}", "dim"), " ", meld_parts(t.meld))
        say(out, "  hand   ", cards_parts(pos.hand), ("  (laid down)", "dim") if pos.laid_down else "")
        if pos.discard is not None:
            say(out, "  discard ", cards_parts([pos.discard]))
    elif isinstance(pos, ZsyPosition):  # in rank order, the climbing game's order (3 ... A, 2, jokers)
        say(out, "  hand   ", cards_parts(zsy_order(pos.hand)))
        if pos.opponent is not None:
            say(out, "  opponent ", cards_parts(zsy_order(pos.opponent)), ("  (the last opponent; you lead)", "dim"))
        if pos.to_beat is not None:
            kind = ("", "") if not pos.to_beat_kind else (f" ({pos.to_beat_kind})", "dim")
            say(out, "  beat   ", cards_parts(zsy_order(pos.to_beat)), kind)
