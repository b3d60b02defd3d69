"""Contract Shanghai: the plan for a whole turn, and the other players' "Shanghai!" call.

:func:`best_turn` answers the question a player asks at the start of a
turn, *what do I do this turn?*, in the turn's order: take the discard or
draw (with the reason: the distance to contract and the outs each way),
then, for the hand after taking (or, for a draw, a summary of the cards
that would help), lay down, lay off and swap wilds in the same turn where
the rules allow, and the discard. :func:`plan_after_draw` is the part
after the draw, for a known hand; :func:`call_decision` is the moment of
the other players, when the player in turn has declined the discard.

**The objective** (after the draw): go out if possible; else the fewest
points left in hand at the end of the turn (after the discard); ties by
the existing discard reasoning (:func:`solver.contract.best_discards`: the
cards that keep the contract closest stay). A player who cannot lay down
this turn melds nothing, so the points do not decide: the discard
reasoning alone picks the discard (distance to contract first, then a
natural card before a wild, then the card worth most: a wild is never
discarded while a natural card keeps the contract as close, and the reason
says which wild is kept). Every card in hand scores at least two points, so "go
out" is the same as "no points left" and needs no rule of its own.

**How it is found**, from the existing questions (no model of its own):

* a player who has laid down: the lay-off (:func:`best_layoff`, wild swaps
  included) that plays the most points, then the discard of the card worth
  most; a card worth more than that discard is also tried as the discard
  (the lay-off of the rest solved again), which makes the pair exact;
* a player who has not: the best lay-down (:func:`best_lay_down`, fewest
  points left over every grouping and wild role), then the lay-off of the
  rest onto every meld on the table, the new melds included (the
  player's own melds take no swap unless ``wild_swap_own``). Laying off
  onto one's own new melds is the same as laying down longer melds, so
  only the cards that can go onto the other players' melds can make a
  different lay-down better: every sub-multiset of those cards (among the
  ones the lay-down used) is held back from the lay-down once, and the
  best end of turn wins. Without ``layoff_same_turn`` the lay-down alone
  counts; in a last round played all at once, the whole hand goes down.

The answer is ``optimal`` when every solve it used was proven and the
held-back cards were all tried (at most :data:`HOLD_BACK_LIMIT` tries),
else ``feasible`` (the best found in time). The brute force of
``tests/oracles/contract_turn.py`` checks it on small positions.

>>> from solver.rules import ContractRules
>>> from solver.melds import TableMeld
>>> rules = ContractRules()
>>> after = plan_after_draw(Cards.parse("5H 5D 5S 6C 7C 8C 9C 10C KD KH 2S QH 4D"), (), rules, 1)
>>> [str(m) for m in after.lay_down], str(after.discard), after.points_left
(['KH KD 2S=KH', '6C 7C 8C 9C 10C'], 'QH', 19)
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from solver.cards import Card, Cards
from solver.contract.api import (
    NO_CARDS,
    UNREACHABLE,
    LayDown,
    Layoff,
    _check_hand,
    _deck_of,
    best_discards,
    best_lay_down,
    best_layoff,
    can_go_down_whole,
    discard_order,
    distance_to_contract,
)
from solver.errors import Status
from solver.melds import Meld, TableMeld
from solver.rules.contract import ContractRules

__all__ = [
    "AfterDraw",
    "CallDecision",
    "TurnPlan",
    "HOLD_BACK_LIMIT",
    "after_lay_down",
    "best_turn",
    "call_decision",
    "plan_after_draw",
    "wild_note",
]

HOLD_BACK_LIMIT = 64
"""The most sub-multisets of held-back cards :func:`plan_after_draw` tries (more: ``feasible``)."""


@dataclass(frozen=True, slots=True)
class AfterDraw:
    """The part of a turn after the draw: lay down, lay off (swaps included), discard.

    ``lay_down`` is empty when the player does not lay down this turn;
    ``layoff`` is None when nothing is laid off. ``discard`` is None when the
    player goes out without a discard, or may not discard (one card, not
    laid down, nothing to draw: they pass). ``points_left`` is what stays in
    hand at the end of the turn (0: out); ``distance`` the distance to
    contract after the discard for a player who does not lay down.
    """

    hand: Cards
    lay_down: tuple[Meld, ...]
    layoff: Layoff | None
    discard: Card | None
    points_left: int
    goes_out: bool
    status: Status
    reason: str
    distance: int | None = None

    @property
    def played(self) -> Cards:
        """Every hand card that goes onto the table this turn."""
        down = Cards(c for m in self.lay_down for c in m.cards)
        return down + self.layoff.played if self.layoff is not None else down


@dataclass(frozen=True, slots=True)
class TurnPlan:
    """A whole turn: take the discard or draw (and why), then the plan after taking.

    ``take`` is None when there is no discard to take. ``distance``: the
    distance to contract now, ``distance_take`` after taking the discard
    (and the best discard); ``outs``: the cards a draw would bring closer
    (for a player who has laid down: the cards that could be laid off);
    ``outs_take`` the same after taking. ``after``: the plan for the hand
    after taking (None when the plan is to draw: the card is not known).
    """

    take: bool | None
    reason: str
    distance: int
    distance_take: int | None
    outs: Cards
    outs_take: Cards
    after: AfterDraw | None
    status: Status


@dataclass(frozen=True, slots=True)
class CallDecision:
    """Call "Shanghai!" for the declined discard, or not, and why (the penalty card's cost included)."""

    call: bool
    reason: str
    distance: int
    distance_call: int
    penalty_points: float


@dataclass
class _Best:
    """The best end of turn found so far (points left, then the discard's tie order)."""

    value: tuple[int, int] | None = None
    plan: AfterDraw | None = None
    proven: bool = True
    tried: list[int] = field(default_factory=list)

    def offer(self, value: tuple[int, int], plan: AfterDraw) -> None:
        if self.value is None or value < self.value:
            self.value, self.plan = value, plan


def _cards(n: int) -> str:
    """``n`` cards in words: ``1 card``, ``2 cards``."""
    return f"{n} card{'' if n == 1 else 's'}"


def _points(cards: Cards, rules: ContractRules) -> int:
    return sum(rules.points(c) for c in cards)


def _shed(left: Cards, rules: ContractRules, barred: Card | None) -> Card | None:
    """The discard of a player who has laid down: the card worth most, a natural before a wild worth
    as much (a barred card only when alone)."""
    options = [c for c in left.distinct() if c != barred or left.count(c) > 1 or len(left) == 1]
    return max(options, key=lambda c: (rules.points(c), c not in rules.wilds, c.index)) if options else None


def wild_note(ranked: Sequence[tuple[Card, int]], card: Card, rules: ContractRules) -> str:
    """What the discard of ``card`` (from ``ranked``, :func:`best_discards`' answer) means for the
    wilds in hand, as a clause of the reason ("" when the hand holds no wild or only wilds):
    a natural card kept a wild that would do as well, or a wild goes because every natural is needed.

    >>> from solver.rules import ContractRules
    >>> rules = ContractRules()
    >>> wild_note([(Card.parse("KD"), 1), (Card.parse("2S"), 1)], Card.parse("KD"), rules)
    '; the wild 2S is kept: discarding it does no better, and the next player or a caller could use it'
    >>> wild_note([(Card.parse("2S"), 1), (Card.parse("KD"), 2)], Card.parse("2S"), rules)
    '; 2S is a wild, but discarding any natural card puts the contract further away'
    """
    wilds = [c for c, _ in ranked if c in rules.wilds]
    if not wilds or len(wilds) == len(ranked):
        return ""
    if card in rules.wilds:
        return f"; {card} is a wild, but discarding any natural card puts the contract further away"
    here = dict(ranked)[card]
    kept = [w for w in wilds if dict(ranked)[w] <= here]
    if not kept:
        return ""
    them = " ".join(map(str, kept))
    return (
        f"; the wild{'s' if len(kept) > 1 else ''} {them} {'are' if len(kept) > 1 else 'is'} kept: discarding"
        f" {'one' if len(kept) > 1 else 'it'} does no better, and the next player or a caller could use it"
    )


def _end(left: Cards, rules: ContractRules, barred: Card | None) -> tuple[Card | None, int]:
    """The discard and the points left after it, for a player who has laid down."""
    if not left:
        return None, 0
    card = _shed(left, rules, barred)
    assert card is not None
    return card, _points(left, rules) - rules.points(card)


def _proven(*statuses: Status) -> bool:
    return all(s is Status.OPTIMAL for s in statuses)


def _layoff_end(
    hand: Cards,
    down: tuple[Meld, ...],
    table: Sequence[TableMeld],
    rules: ContractRules,
    player: int,
    barred: Card | None,
    time_limit: float,
) -> tuple[AfterDraw, bool]:
    """Lay off ``hand`` onto ``table`` (with the new melds ``down`` as the player's), then discard: the
    best end of turn, trying as the discard any played card worth more than the planned discard."""
    full = (*table, *(TableMeld(m, player) for m in down))
    lay = best_layoff(hand, full, rules, player=player, time_limit=time_limit)
    proven = _proven(lay.status)
    if lay.can_go_out and len(lay.hand) > 1:  # going out beats any number of points
        lay = best_layoff(hand, full, rules, player=player, objective="cards", time_limit=time_limit)
        proven = proven and _proven(lay.status)
    card, pts = _end(lay.hand, rules, barred)
    best = (pts, lay, card)
    floor = rules.points(card) if card is not None else 0
    for d in sorted(lay.played.distinct(), key=lambda c: c.index):
        if rules.points(d) <= floor or d == barred or best[0] == 0:
            continue
        other = best_layoff(hand - Cards([d]), full, rules, player=player, time_limit=time_limit)
        proven = proven and _proven(other.status)
        pts_d = _points(other.hand, rules)
        if pts_d < best[0]:
            best = (pts_d, other, d)
    pts, lay, card = best
    layoff = lay if lay.played else None
    out = pts == 0 and (card is None or len(lay.hand) == 1)
    what = "goes out" if out else f"leaves {pts} points"
    after = AfterDraw(hand, down, layoff, card, pts, out, Status.OPTIMAL if proven else Status.FEASIBLE, what)
    return after, proven


def after_lay_down(
    hand: Cards,
    lay_down: Sequence[Meld],
    table: Sequence[TableMeld],
    rules: ContractRules,
    *,
    player: int = 0,
    barred: Card | None = None,
    time_limit: float = 5.0,
) -> AfterDraw:
    """The best end of a turn that lays down exactly ``lay_down`` (melds of ``hand``): the lay-off of
    the rest onto ``table`` and the new melds (with ``layoff_same_turn``), then the discard.

    A lay-down puzzle compares every grouping with it; the naive order is
    the best lay-down alone (:func:`best_lay_down`) followed by this.

    >>> from solver.rules import ContractRules
    >>> hand = Cards.parse("5H 5D 5S 6C 7C 8C 9C KH KD KC")
    >>> table = [TableMeld(Meld.parse("KS KC KD"), 1)]
    >>> kings = after_lay_down(hand, [Meld.parse("KH KD KC"), Meld.parse("6C 7C 8C 9C")], table, ContractRules())
    >>> fives = after_lay_down(hand, [Meld.parse("5S 5H 5D"), Meld.parse("6C 7C 8C 9C")], table, ContractRules())
    >>> kings.points_left, fives.points_left, fives.goes_out
    (10, 0, True)
    """
    melds = tuple(lay_down)
    rest = hand - Cards(c for m in melds for c in m.cards)
    if not rules.layoff_same_turn:
        card, pts = _end(rest, rules, barred)
        what = "lays down and goes out" if pts == 0 else f"lays down, leaving {pts} points"
        return AfterDraw(hand, melds, None, card, pts, pts == 0, Status.OPTIMAL, what)
    after, _ = _layoff_end(rest, melds, table, rules, player, barred, time_limit)
    return AfterDraw(
        hand, melds, after.layoff, after.discard, after.points_left, after.goes_out, after.status, after.reason
    )


def _not_down(
    hand: Cards, rules: ContractRules, round_: int, seen: Cards, barred: Card | None, time_limit: float
) -> AfterDraw:
    """No lay-down this turn: the discard reasoning picks the discard (distance first, then points)."""
    if not hand:  # nothing to lay down or discard (a position, not a game: a player in a game has gone out)
        return AfterDraw(hand, (), None, None, 0, False, Status.OPTIMAL, "holds no card: passes")
    if len(hand) == 1:
        return AfterDraw(hand, (), None, None, _points(hand, rules), False, Status.OPTIMAL, "holds one card: passes")
    whole = round_ == rules.rounds and rules.last_round_all_at_once
    if whole:
        spare = best_lay_down(hand, rules, round_, time_limit=time_limit, whole_hand=False)
        if spare is not None:
            shed = [c for c in spare.hand.distinct() if c != barred]
            if shed:
                card = min(shed, key=lambda c: discard_order(c, rules))
                pts = _points(hand, rules) - rules.points(card)
                why = f"the contract is made; {card} is not in its melds (the whole hand must go down at once)"
                if card in rules.wilds:
                    why += "; no natural card is left over, so the wild goes"
                return AfterDraw(hand, (), None, card, pts, False, spare.status, why, 0)
    ranked = best_discards(hand, rules, round_, seen=seen, time_limit=time_limit)
    card, distance = next((c, d) for c, d in ranked if c != barred or hand.count(c) > 1)
    why = f"cannot lay down: discard {card}, the contract stays {distance} card(s) away"
    why += wild_note(ranked, card, rules)
    return AfterDraw(
        hand, (), None, card, _points(hand, rules) - rules.points(card), False, Status.OPTIMAL, why, distance
    )


def _held_back(down: LayDown, hand: Cards, table: Sequence[TableMeld], rules: ContractRules, player: int) -> Cards:
    """The cards the lay-down used that could go onto another player's meld instead (each at most as
    often as it could): the only cards whose holding back can make another lay-down better."""
    if not table:
        return Cards()
    others = [t for t in table if t.owner != player]
    if not others:
        return Cards()
    reach = best_layoff(hand, others, rules, player=player, objective="cards").played
    reach = reach + best_layoff(hand, others, rules, player=player).played
    used = down.played
    return Cards.from_counts({c: min(n, used.count(c)) for c, n in reach.items() if used.count(c)})


def plan_after_draw(
    hand: Cards,
    table: Sequence[TableMeld],
    rules: ContractRules,
    round_: int,
    *,
    player: int = 0,
    laid_down: bool = False,
    seen: Cards = NO_CARDS,
    barred: Card | None = None,
    time_limit: float = 5.0,
) -> AfterDraw:
    """The rest of a turn for ``hand`` (after taking or drawing): lay down, lay off, swap, discard.

    ``table`` holds every meld with its owner (``player`` is this player);
    ``barred`` is a card drawn from a reshuffled stock this turn (it may not
    be discarded unless alone). See the module docstring for the objective.
    Raises :class:`SolverTimeout` when a question gets no answer in time.
    """
    _check_hand(hand, rules, seen + Cards(c for t in table for c in t.meld.cards), "the hand, table and seen cards")
    if laid_down:
        return _layoff_end(hand, (), table, rules, player, barred, time_limit)[0]
    whole = round_ == rules.rounds and rules.last_round_all_at_once
    down = can_go_down_whole(hand, rules, round_, time_limit=time_limit) if whole else None
    if not whole:
        down = best_lay_down(hand, rules, round_, time_limit=time_limit)
    if down is None:
        return _not_down(hand, rules, round_, seen, barred, time_limit)
    if not rules.layoff_same_turn:
        card, pts = _end(down.hand, rules, barred)
        out = pts == 0
        what = "lays down and goes out" if out else f"lays down, leaving {pts} points"
        return AfterDraw(hand, down.melds, None, card, pts, out, down.status, what)
    return _best_lay_down_and_off(hand, down, table, rules, round_, player, barred, time_limit)


def _best_lay_down_and_off(
    hand: Cards,
    down: LayDown,
    table: Sequence[TableMeld],
    rules: ContractRules,
    round_: int,
    player: int,
    barred: Card | None,
    time_limit: float,
) -> AfterDraw:
    """Every sub-multiset of the held-back cards kept out of the lay-down once; the best end wins."""
    best = _Best()
    proven = _proven(down.status)
    whole = round_ == rules.rounds and rules.last_round_all_at_once
    first, ok = _layoff_end(down.hand, down.melds, table, rules, player, barred, time_limit)
    proven = proven and ok
    best.offer((first.points_left, 0), first)
    held = [] if whole else sorted(_held_back(down, hand, table, rules, player).items(), key=lambda t: t[0].index)
    subsets = itertools.product(*(range(n + 1) for _, n in held))
    next(subsets)  # the empty one: the lay-down itself, done above
    tried = 0
    for counts in subsets:
        if best.value is not None and best.value[0] == 0:
            break
        if tried >= HOLD_BACK_LIMIT:
            proven = False
            break
        tried += 1
        kept = Cards.from_counts({c: k for (c, _), k in zip(held, counts) if k})
        other = best_lay_down(hand - kept, rules, round_, time_limit=time_limit)
        if other is None:
            continue
        proven = proven and _proven(other.status)
        plan, ok = _layoff_end(other.hand + kept, other.melds, table, rules, player, barred, time_limit)
        proven = proven and ok
        best.offer((plan.points_left, tried), plan)
    assert best.plan is not None
    plan = best.plan
    status = Status.OPTIMAL if proven else Status.FEASIBLE
    reason = ("lays down and goes out" if plan.goes_out else f"lays down, leaving {plan.points_left} points") + (
        f" (lays off {plan.layoff.played})" if plan.layoff is not None else ""
    )
    return AfterDraw(hand, plan.lay_down, plan.layoff, plan.discard, plan.points_left, plan.goes_out, status, reason)


def _outs(
    hand: Cards, table: Sequence[TableMeld], rules: ContractRules, round_: int, laid_down: bool, seen: Cards
) -> tuple[int, Cards]:
    """The distance to contract and the cards a draw would bring closer (laid down: the cards that fit a meld)."""
    if laid_down:
        from solver.contract.tablemelds import MeldCache

        melds = MeldCache(rules)
        pool = _deck_of(rules) - hand - seen
        fit = [c for c in pool.distinct() if any(melds.fits(t.meld, c) for t in table)]
        return 0, Cards.from_counts({c: pool.count(c) for c in fit})
    d = distance_to_contract(hand, rules, round_, seen=seen)
    return d.missing, d.options


def best_turn(
    hand: Cards,
    table: Sequence[TableMeld],
    rules: ContractRules,
    round_: int,
    *,
    discard: Card | None,
    player: int = 0,
    laid_down: bool = False,
    seen: Cards = NO_CARDS,
    time_limit: float = 5.0,
) -> TurnPlan:
    """The whole turn from its start: take ``discard`` (the top of the pile) or draw, then the rest.

    ``seen``: cards seen outside the hand and the table (the pile below the
    top, dead cards); the top discard counts as seen. The take is worth it
    when the hand with it ends the turn better than the hand without it:
    for a player who has not laid down, the contract comes closer (the
    distance after taking and the best discard), or the hand with it can
    lay down; for one who has, the card goes onto the table this turn.
    """
    on_table = Cards(c for t in table for c in t.meld.cards)
    known = seen + Cards([discard]) if discard is not None else seen
    now, outs = _outs(hand, table, rules, round_, laid_down, known + on_table)
    if discard is None:
        return TurnPlan(None, "no discard to take: draw", now, None, outs, Cards(), None, Status.OPTIMAL)
    taken = hand + Cards([discard])
    after = plan_after_draw(
        taken, table, rules, round_, player=player, laid_down=laid_down, seen=seen, time_limit=time_limit
    )
    outs_take = Cards()
    if laid_down:
        take = discard in after.played
        why = f"{discard} {'goes onto the table' if take else 'cannot be laid off'} this turn"
        dist_take: int | None = 0
    elif after.lay_down:
        take, why, dist_take = True, f"with {discard} the contract can be laid down ({after.reason})", 0
    else:
        dist_take = after.distance if after.distance is not None else UNREACHABLE
        take = dist_take < now
        why = f"with {discard} (then discarding {after.discard}) the contract is {dist_take} card(s) away, now {now}"
        if after.discard is not None and dist_take < UNREACHABLE:
            outs_take = distance_to_contract(
                taken - Cards([after.discard]), rules, round_, seen=seen + on_table
            ).options
    if laid_down:
        why += f"; {len(outs)} unseen card(s) would fit a meld after a draw"
    elif now == 0:
        why += "; the contract can be laid down without it too"
    else:
        why += f"; {len(outs)} unseen card(s) would bring a draw closer"
    return TurnPlan(
        take,
        ("take: " if take else "draw: ") + why,
        now,
        dist_take,
        outs,
        outs_take,
        after if take else None,
        after.status,
    )


def call_decision(
    hand: Cards,
    table: Sequence[TableMeld],
    rules: ContractRules,
    round_: int,
    *,
    discard: Card,
    player: int,
    laid_down: bool,
    seen: Cards = NO_CARDS,
    penalty: bool = True,
    time_limit: float = 5.0,
) -> CallDecision:
    """Call "Shanghai!" for the declined ``discard``? The caller takes it and a penalty card, with no discard.

    Worth it when the card brings the contract closer (the distance with it
    and no discard against the distance now); the penalty card (unseen,
    worth the unseen cards' average points) is the cost, so a call that only
    keeps the distance is declined. A player who has laid down never calls:
    the call puts the card and the penalty card in hand with no discard, two
    cards more to get rid of, even when the card can be laid off on a later
    turn (a draw in turn brings one card, and a discard). In a last round
    played all at once a call is never worth it (every card must go down
    together). The reason is said in a player's words.
    """
    on_table = Cards(c for t in table for c in t.meld.cards)
    known = seen + Cards([discard]) + on_table
    pool = _deck_of(rules) - hand - known
    cost = _points(pool, rules) / len(pool) if (penalty and pool) else 0.0
    if round_ == rules.rounds and rules.last_round_all_at_once:
        return CallDecision(False, "every card must go down at once; a call adds a penalty card", 0, 0, cost)
    if laid_down:
        extra = (
            f"{discard} and a penalty card (worth {cost:.1f} points on average) in your hand with no discard, two cards"
            if penalty
            else f"{discard} in your hand with no discard, one card"
        )
        why = f"already laid down: a call puts {extra} more to get rid of, even if {discard} can be laid off later"
        return CallDecision(False, why, 0, 0, cost)
    now = distance_to_contract(hand, rules, round_, seen=known, options=False, time_limit=time_limit).missing
    with_it = distance_to_contract(
        hand + Cards([discard]), rules, round_, seen=seen + on_table, options=False, time_limit=time_limit
    ).missing
    call = with_it < now
    why = f"with {discard} the contract is {_cards(with_it)} away, now {_cards(now)}" + (
        f" (a penalty card costs {cost:.1f} points on average)"
        if penalty
        else " (no penalty card: none is left to draw)"
    )
    return CallDecision(call, why, now, with_it, cost)
