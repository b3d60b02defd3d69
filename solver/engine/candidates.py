"""The search's alternatives to its default, by game (issue 39): the decisions where the default is myopic.

:class:`solver.engine.ismcts.IsmctsPlayer` plays its default (candidate 0)
and a few alternatives out on the same resampled deals. Beyond the generic
ones (the greedy rule's choice, a pass, the best by the solver's measure)
this module gives the alternatives a game's default does not weigh:

- **Contract Shanghai** (:func:`contract_alternatives`), by the kind of the
  default's decision (:func:`contract_kind`): at an offer, ``take`` against
  ``decline``; at a call, ``call`` against ``nocall``; at a lay-off or a wild
  swap, holding the cards back (the discard that ends the turn now); at a
  lay-down, laying down later (a discard now); at a discard, the next
  discards by the solver's measure (the distance to the contract they leave).
- **Manipulation Shanghai** (:func:`manipulation_alternatives`): the best
  play holding back each card of the default's play in turn (as
  ``benchmarks/clairvoyant.py --holdback``), the legal play adding the fewest
  cards (the table left harder for the next player), and the draw where the
  rules allow it (``must_play`` ``never``, or a player who cannot play).

Every alternative is a legal action of the position (the tests check).

>>> from solver.engine import new_game
>>> game = new_game("contract", None, 4, 2, max_rounds=1)
>>> contract_kind(game.legal_actions()[0])
'discard'
"""

from __future__ import annotations

from typing import Any

__all__ = ["CONTRACT_KINDS", "contract_alternatives", "contract_kind", "describe", "manipulation_alternatives"]

CONTRACT_KINDS = ("offer", "call", "layoff", "laydown", "discard")
"""The kinds of a Contract Shanghai decision (:func:`contract_kind`), each searched or left to the default by name."""


def contract_kind(action: Any) -> str:
    """The kind of a Contract Shanghai decision, by its action: ``offer`` (take or decline), ``call``
    (call or no call), ``layoff`` (a lay-off or a wild swap), ``laydown`` or ``discard``."""
    word = str(action).split(" ", 1)[0]
    return {
        "take": "offer",
        "decline": "offer",
        "call": "call",
        "nocall": "call",
        "layoff": "layoff",
        "swap": "layoff",
        "laydown": "laydown",
    }.get(word, "discard")


def contract_alternatives(game: Any, own: Any, width: int) -> list[Any]:
    """Up to ``width - 1`` legal alternatives to the default ``own`` at a Contract Shanghai decision
    (the module docstring), best first."""
    from solver.contract.actions import CDiscard
    from solver.engine.evaluate import ranked

    legal = game.legal_actions()
    kind = contract_kind(own)
    if kind in ("offer", "call"):
        return [a for a in legal if str(a) != str(own)][: width - 1]
    discards = ranked(game, [a for a in legal if isinstance(a, CDiscard)])
    out = [a for a in discards if str(a) != str(own)]
    if kind in ("layoff", "laydown") and out:
        from solver.contract.tactics import shed_order

        out = shed_order(game, out)  # hold back: the discard the tactics would make with no lay-off
    return out[: width - 1]


def manipulation_alternatives(game: Any, own: Any) -> list[Any]:
    """Legal alternatives to the default ``own`` in Manipulation Shanghai: the draw (where the rules
    allow it), the listed play adding the fewest cards, then the best play holding back each card of
    ``own`` in turn (by the card's index); one play for each set of hand cards played, none playing
    the cards of ``own`` (another arrangement of the same cards leaves the hands as they are)."""
    from solver.cards import Cards
    from solver.manipulation.game import MDraw, MPlay
    from solver.manipulation.play import best_play

    legal = game.legal_actions()
    out: dict[str, Any] = {str(a): a for a in legal if isinstance(a, MDraw)}
    if isinstance(own, MPlay):
        p = game.to_move
        before = Cards(c for m in game.table for c in m.cards)

        def added(play: Any) -> Cards:
            return Cards(c for m in play.table for c in m.cards) - before

        mine = str(added(own))
        plays = [a for a in legal if isinstance(a, MPlay) and str(added(a)) != mine]
        if plays:
            fewest = min(plays, key=lambda a: len(added(a)))
            out[str(added(fewest))] = fewest
        for card in sorted(set(added(own)), key=lambda c: c.index):
            play = best_play(game.table, game.hands[p] - Cards([card]), game.rules)
            action = MPlay(p, play.table)
            if play.played and game.is_legal(action):
                out.setdefault(str(added(action)), action)
        out.pop(mine, None)
    return list(out.values())


def describe(game: Any, action: Any) -> str:
    """An action's short text for a reason: a Manipulation Shanghai play by the hand cards it adds
    (``play 3 cards: 5C 6C 7C``; its text writes the whole table), else the action's text cut to 40 characters."""
    from solver.cards import Cards
    from solver.manipulation.game import MPlay

    if isinstance(action, MPlay):
        added = Cards(c for m in action.table for c in m.cards) - Cards(c for m in game.table for c in m.cards)
        return f"play {len(added)} card{'s' if len(added) != 1 else ''}: {added}"
    text = str(action)
    return text if len(text) <= 40 else text[:37] + "..."
