"""One check of a position's legality, in every game: could a game under these rules reach it?

Every card count stays within the decks (hand, table and every other card
in view together), and in Contract Shanghai the melds on the table are what
the players who laid down laid down (:mod:`solver.contract.legality`) and
the hand holds as many cards as a game gives (the deal, the draw, calls,
lay-downs and lay-offs: :mod:`solver.contract.handsize`); a
Zheng Shang You hand holds no more than a deal gives the fewest players
the rules allow (:func:`zsy_size_problem`). The
puzzle parser (:func:`solver.puzzles.from_data`: files, inline positions,
the web page) and the generator both ask here.

>>> from solver.puzzles import ZsyPosition
>>> from solver.rules import ZsyRules
>>> from solver.cards import Cards
>>> position_problem(ZsyPosition(Cards.parse("5H 5H")), ZsyRules())
'hand and to_beat together hold 2 copies of 5H, but the decks contain 1'
"""

from __future__ import annotations

from typing import Any

from solver.cards import Cards
from solver.errors import PuzzleError, ShanghaiError
from solver.positions import ContractPosition, ManipulationPosition, ZsyPosition

__all__ = ["position_problem", "check_legal", "IllegalPositionError", "zsy_deal_size", "zsy_size_problem"]


class IllegalPositionError(PuzzleError):
    """A position the rules cannot produce (too many copies of a card, melds no player could own)."""


def _cards_in_view(position: Any) -> tuple[Cards, str]:
    if isinstance(position, ManipulationPosition):
        return position.hand + Cards(c for m in position.table for c in m.cards), "table and hand together"
    if isinstance(position, ContractPosition):
        seen = position.hand + Cards(c for t in position.table for c in t.meld.cards) + position.dead
        if position.discard is not None:
            seen = seen + Cards([position.discard])
        return seen, "hand, table, discard and dead cards together"
    if getattr(position, "opponent", None) is not None:
        return position.hand + position.opponent, "hand and opponent together"
    return position.hand + (position.to_beat or Cards()), "hand and to_beat together"


def position_problem(position: Any, rules: Any) -> str | None:
    """Why ``position`` is illegal under ``rules`` (None when it is legal)."""
    cards, what = _cards_in_view(position)
    try:
        cards.check_against(rules.deck, what)
    except ShanghaiError as exc:
        return str(exc)
    if isinstance(position, ContractPosition):
        from solver.contract.handsize import hand_size_problem
        from solver.contract.legality import contract_problem

        problem = contract_problem(position.round, position.table, position.laid_down, rules)
        if problem is not None:
            return problem
        p = position
        return hand_size_problem(p.hand, p.round, p.laid_down, p.calls, p.drawn, rules)
    if isinstance(position, ZsyPosition):
        return zsy_size_problem(position, rules)
    return None


def zsy_deal_size(rules: Any) -> int:
    """The most cards a Zheng Shang You hand can hold: the whole deck dealt (uneven hands are fine)
    among the fewest players the rules allow (``min_players``): 14 of 54 among 4, 27 among 2.

    >>> from solver.rules import ZsyRules
    >>> zsy_deal_size(ZsyRules()), zsy_deal_size(ZsyRules(min_players=2))
    (14, 27)
    """
    return -(-len(rules.deck) // int(rules.min_players))


def zsy_size_problem(position: Any, rules: Any) -> str | None:
    """Why a Zheng Shang You hand (or the last opponent's) is larger than any deal under ``rules``
    (None when both fit): hands only shrink after the deal."""
    most = zsy_deal_size(rules)
    for name, cards in (("hand", position.hand), ("opponent", position.opponent)):
        if cards is not None and len(cards) > most:
            return (
                f"{name} holds {len(cards)} cards, but a deal of {len(rules.deck)} cards among at least "
                f"{rules.min_players} players gives at most {most} (rule option min_players)"
            )
    return None


def check_legal(position: Any, rules: Any, source: str = "position") -> None:
    """Raise :class:`IllegalPositionError` (``source: reason``) unless the position is legal."""
    problem = position_problem(position, rules)
    if problem is not None:
        raise IllegalPositionError(f"{source}: {problem}")
