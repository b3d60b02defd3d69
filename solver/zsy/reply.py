"""The one best reply (or lead) in Zheng Shang You, passing included.

``hint``, the ``solver`` player, ``shanghai solve`` and the puzzle generator
all choose here. Each candidate combination is scored by the fewest plays
the hand needs after it (:func:`solver.zsy.plays_after`); ties go to the one
that keeps wilds and is harder to beat: fewer wild cards spent, then pure
before impure, then fewer jokers spent; then the lower top card, then more
cards (:func:`reply_order`). A reply may be passed instead (:func:`keep_reason`):
while every opponent still holds enough cards, the best reply is kept when
it costs a play (leaves more plays than the hand needs now; more than 2
cards each), spends a wild (more than 3) or an ace or better (more than 4).
A reply that leaves as many plays as now is played: it sheds cards and may
win the lead. A puzzle knows no opponents: they count as holding many cards.

>>> from solver.cards import Cards
>>> from solver.zsy.combos import Combo
>>> r = best_reply(Cards.parse("3H 4S 5D 9C"), Combo.parse("4C"))
>>> str(r.combo), r.now, r.after
('single:9C', 2, 1)
>>> best_reply(Cards.parse("3H 4S 5D"), Combo.parse("9C")).reason
'no combination beats single:9C'
>>> r = best_reply(Cards.parse("5H 6H 7H"), Combo.parse("3C"))
>>> r.combo is None, r.reason
(True, 'pass: every reply leaves 2 plays, more than 1')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import Cards
from solver.errors import Status
from solver.rules import ZsyRules
from solver.zsy.combos import ACE, DEFAULT_RULES, Combo, is_wild
from solver.zsy.fewest import fewest_plays, plays_after
from solver.zsy.moves import legal_moves

__all__ = ["Reply", "best_reply", "decide", "reply_order", "keep_reason", "MANY_CARDS"]

MANY_CARDS = 99
"""The fewest cards an opponent holds when none is known (a puzzle): nobody is about to go out."""


@dataclass(frozen=True, slots=True)
class Reply:
    """The choice: ``combo`` (None to pass), the plays the hand needs ``now`` and ``after`` it,
    why, and every candidate with the plays it leaves, best first."""

    combo: Combo | None
    now: int
    after: int
    reason: str
    ranked: tuple[tuple[Combo, int], ...] = ()
    status: Status = Status.OPTIMAL


def reply_order(combo: Combo, after: int) -> tuple[int, int, bool, int, int, int, str]:
    """The ranking key: fewest plays after; then, among replies (or leads) that leave as many, the
    one that keeps wilds and is harder to beat: fewest wild cards spent (2s and jokers), pure before
    impure, fewest jokers spent (a joker also fills straights); then the lowest top card, most
    cards, and the text (docs/decisions-zsy.md, "The tie-break of replies and leads").

    >>> from solver.cards import Cards
    >>> pure, impure = Combo.parse("2H 2D"), Combo.parse("2D RJ")
    >>> reply_order(pure, 1) < reply_order(impure, 1)
    True
    """
    wilds = sum(1 for c in combo.cards if is_wild(c))
    jokers = sum(1 for c in combo.cards if c.rank is None)
    return (after, wilds, not combo.pure, jokers, combo.top, -combo.size, str(combo))


def keep_reason(now: int, after: int, wilds: int, top: int, threat: int = MANY_CARDS) -> str:
    """Why the best reply is better kept for later ("" when it should be played).

    ``threat`` is the fewest cards an opponent holds.
    """
    if after > now and threat > 2:
        return f"every reply leaves {after} plays, more than {now}"
    if wilds and threat > 3 and after > 1:
        return "the best reply spends a wild; keep it for later"
    if top >= ACE and threat > 4 and after > 1:
        return "the best reply spends an ace or better; keep it for later"
    return ""


def decide(
    now: int,
    ranked: Sequence[tuple[Combo, int]],
    *,
    can_pass: bool,
    threat: int = MANY_CARDS,
    to_beat: Combo | None = None,
    status: Status = Status.OPTIMAL,
) -> Reply:
    """The choice among ``ranked`` candidates (best first, by :func:`reply_order`)."""
    if not ranked:
        what = f"no combination beats {to_beat}" if to_beat is not None else "no combination to lead"
        return Reply(None, now, now, what, (), status)
    best, after = ranked[0]
    if can_pass:
        why = keep_reason(now, after, sum(1 for c in best.cards if is_wild(c)), best.top, threat)
        if why:
            return Reply(None, now, now, f"pass: {why}", tuple(ranked), status)
    return Reply(best, now, after, f"leaves {after} play(s) to go out (now {now})", tuple(ranked), status)


def best_reply(
    hand: Cards,
    to_beat: Combo | None,
    rules: ZsyRules = DEFAULT_RULES,
    *,
    moves: Sequence[Combo] | None = None,
    can_pass: bool | None = None,
    threat: int = MANY_CARDS,
    time_limit: float = 5.0,
) -> Reply:
    """The best reply to ``to_beat`` (or lead, when it is None) from ``hand``, passing included.

    ``moves`` are the candidates (default: every legal move); ``can_pass``
    defaults to "there is something to beat"; ``threat`` is the fewest
    cards an opponent holds.
    """
    now = fewest_plays(hand, rules, time_limit=time_limit).count
    candidates = list(legal_moves(hand, to_beat, rules) if moves is None else moves)
    left, status = plays_after(hand, candidates, rules, time_limit=time_limit)
    ranked = sorted(zip(candidates, left), key=lambda ml: reply_order(*ml))
    passing = to_beat is not None if can_pass is None else can_pass
    return decide(now, ranked, can_pass=passing, threat=threat, to_beat=to_beat, status=status)
