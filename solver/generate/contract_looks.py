"""A Contract player who looks once, and how varied a level's puzzles are (templates).

The ``one-look`` model (:data:`solver.generate.calibrate.MODELS`) answers each
question from a single look at the position, never looking again after a
move changes it:

- a discard (and the last round's whole hand): one distance search on the
  hand as it stands (:func:`solver.contract.distance_to_contract`), then the
  costliest card that search's combination does not use (a natural before
  a wild). The answer may be spare only in another combination as good:
  a player who looks once does not see it;
- a lay-off (or a go-out): each hand card that fits a meld as the table
  stands, in one pass: no wild swap, no card that fits only after another
  was laid off (a run grown one card at a time);
- a lay-down: the best lay-down alone (the fewest points left,
  :func:`solver.contract.best_lay_down`), not the whole turn after it.

A puzzle's **template** is what a solver recognises again: its kind, round,
idea and the shape of its answer (how many cards, swaps and wilds, whether
the discard touches another card). :func:`diversity` counts a level's
templates and its most repeated one (docs/generate.md).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from solver.cards import Card, Cards
from solver.errors import MeldError
from solver.generate.difficulty import SOLVE_SECONDS
from solver.melds import Meld, TableMeld, validate_table
from solver.puzzles import ContractPosition, Puzzle

__all__ = ["one_look", "template", "diversity", "hand_size_counts", "useful"]


def useful(hand: Cards, card: Card) -> bool:
    """Whether ``card`` touches another card of ``hand`` (its rank, or a suit neighbour)."""
    rest = hand - Cards([card])
    return any(
        c.rank == card.rank
        or (
            c.suit == card.suit
            and c.rank is not None
            and card.rank is not None
            and abs(int(c.rank) - int(card.rank)) == 1
        )
        for c in rest
    )


def _grouping(melds: Sequence[Meld]) -> tuple[str, ...]:
    """A lay-down's grouping, as :func:`solver.generate.contract.grouping` writes it (wild roles dropped)."""
    return tuple(sorted(str(Cards(m.cards)) for m in melds))


def _spare_once(hand: Cards, rules: Any, round_: int) -> Card | None:
    """The costliest card one distance search's combination leaves out (None: it uses them all)."""
    from solver.contract import discard_order, distance_to_contract

    dist = distance_to_contract(hand, rules, round_, time_limit=SOLVE_SECONDS, options=False)
    laid = Cards(c for m in dist.melds for c in m.cards)
    used = laid - dist.completion
    spare = list((hand - used).distinct()) if used <= hand else list(hand.distinct())
    if not spare:
        return None
    return min(spare, key=lambda c: discard_order(c, rules))


def touches(card: Card, cards: Sequence[Card]) -> bool:
    """``card`` fits beside one of ``cards`` at a glance: the same rank, or the next rank of the same
    suit (a wild touches everything)."""
    for c in cards:
        if c.rank is None or card.rank is None or c.rank == card.rank:
            return True
        if c.suit == card.suit and abs(int(c.rank) - int(card.rank)) in (1, 12):
            return True
    return False


def fits_an_end(card: Card, meld: Meld, rules: Any) -> bool:
    """``card`` grows ``meld`` as it stands, at one of its ends (a wild without a role)."""
    for grown in (Meld((*meld.cards, card), (*meld.roles, None)), Meld((card, *meld.cards), (None, *meld.roles))):
        try:
            validate_table([grown], rules.meld_spec)
        except MeldError:
            continue
        return True
    return False


def _one_pass_layoff(hand: Cards, table: Sequence[TableMeld], rules: Any) -> int:
    """The hand cards that fit a meld as the table stands, counted once each (no swap, no chain)."""
    natural = [c for c in hand if c not in rules.wilds]
    wilds = len(hand) - len(natural)
    fit = sum(1 for c in natural if any(fits_an_end(c, t.meld, rules) for t in table))
    return fit + (wilds if table else 0)


def one_look(p: Puzzle) -> bool:
    """Does a Contract player who looks once find the puzzle's answer?"""
    from solver.contract import best_lay_down

    pos = p.position
    assert isinstance(pos, ContractPosition)
    rules: Any = p.rules
    kind = p.meta.get("kind")
    if kind in ("discard", "whole"):
        pick = _spare_once(pos.hand, rules, pos.round)
        return pick is not None and str(pick) == str(p.meta.get("solution"))
    if kind == "laydown":
        down = best_lay_down(pos.hand, rules, pos.round, time_limit=SOLVE_SECONDS)
        answer = _grouping([Meld.parse(m) for m in p.meta["solution"]])
        return down is not None and _grouping(down.melds) == answer
    return _one_pass_layoff(pos.hand, pos.table, rules) >= int(p.answer.get("layoff", 0))


def template(p: Puzzle) -> tuple[Any, ...]:
    """What a solver recognises again in a puzzle: kind, round, idea and the answer's shape."""
    pos = p.position
    feats = p.meta.get("features", {})
    shape: tuple[Any, ...] = (feats.get("cards"), feats.get("swaps", 0), feats.get("wilds", 0))
    if isinstance(pos, ContractPosition) and p.meta.get("kind") in ("discard", "whole"):
        card = Cards.parse(str(p.meta.get("solution")))
        answer = next(iter(card))
        shape += (useful(pos.hand, answer), answer.rank is not None and int(answer.rank) in (1, 11, 12, 13))
    if isinstance(pos, ContractPosition) and p.meta.get("kind") == "laydown":
        shape += (tuple(sorted(len(Meld.parse(m).cards) for m in p.meta["solution"])),)
    round_ = pos.round if isinstance(pos, ContractPosition) else None
    return (p.meta.get("kind"), round_, feats.get("idea"), shape)


def diversity(puzzles: Sequence[Puzzle]) -> tuple[int, int]:
    """The number of distinct templates among ``puzzles`` and how many puzzles the commonest holds."""
    counts = Counter(template(p) for p in puzzles)
    return len(counts), max(counts.values(), default=0)


def hand_size_counts(puzzles: Sequence[Puzzle]) -> dict[str, int]:
    """How many Contract positions hold each hand size, ``"13"`` or, for a laid-down player, ``"4 down"``;
    and under ``"illegal"`` how many no game gives (:mod:`solver.contract.handsize`)."""
    from solver.contract.handsize import hand_sizes

    out: Counter[str] = Counter()
    for p in puzzles:
        pos = p.position
        if not isinstance(pos, ContractPosition):
            continue
        out[f"{len(pos.hand)}{' down' if pos.laid_down else ''}"] += 1
        if len(pos.hand) not in hand_sizes(p.rules, pos.round, pos.laid_down, pos.calls, pos.drawn):  # type: ignore[arg-type]
            out["illegal"] += 1
    return dict(sorted(out.items()))


def grouping(melds: Sequence[Meld] | Sequence[Cards]) -> tuple[str, ...]:
    """A lay-down's grouping: each meld's cards (wild roles dropped), in a canonical order.

    >>> grouping([Meld.parse("6C 7C 8C 2S=9C"), Meld.parse("5S 5H 5D")])
    ('2S 6C 7C 8C', '5S 5H 5D')
    """
    return tuple(sorted(str(m if isinstance(m, Cards) else Cards(m.cards)) for m in melds))
