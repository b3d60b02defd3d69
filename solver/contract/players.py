"""Contract Shanghai's AI players: the greedy rule and the solver's choice."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from solver.cards import Card, Cards
from solver.contract.actions import (
    CCall,
    CDecline,
    CDiscard,
    CLayDown,
    CLayOff,
    CNoCall,
    ContractAction,
    CSwap,
    CTake,
)
from solver.contract.api import (
    Layoff,
    best_discards,
    best_lay_down,
    best_layoff,
    discard_order,
    distance_to_contract,
)
from solver.contract.game import ContractGame
from solver.contract.turn import AfterDraw, best_turn, call_decision, wild_note
from solver.engine.base import Decision
from solver.errors import SolverTimeout
from solver.melds import Meld

__all__ = ["greedy_action", "old_solver_decision", "solver_decision", "useful_card"]


def _contract_points(game: ContractGame, cards: Cards) -> int:
    return sum(game.rules.points(c) for c in cards)


def useful_card(hand: Cards, card: Card, game: ContractGame) -> bool:
    """A simple rule: the card pairs with a held rank, or sits next to a held card of its suit, or is wild."""
    if card in game.rules.wilds:
        return True
    for c in hand.distinct():
        if c.rank == card.rank and c != card:
            return True
        if (
            c.suit == card.suit
            and c.rank is not None
            and card.rank is not None
            and abs(int(c.rank) - int(card.rank)) == 1
        ):
            return True
    return hand.count(card) > 0


def _contract_discard_greedy(game: ContractGame, legal: list[ContractAction]) -> CDiscard:
    discards = [a for a in legal if isinstance(a, CDiscard)]
    hand = game.hands[game.to_move]
    return max(
        discards,
        key=lambda a: (not useful_card(hand - Cards([a.card]), a.card, game), game.rules.points(a.card)),
    )


def greedy_action(game: ContractGame, rng: random.Random) -> ContractAction:
    """Take useful discards, never call, lay down and off when possible, shed the least useful card."""
    legal = game.legal_actions()
    kinds = {type(a) for a in legal}
    p = game.to_move
    hand = game.hands[p]
    if CTake in kinds:
        top = game.pile[-1]
        return CTake(p) if useful_card(hand, top, game) else CDecline(p)
    if CCall in kinds:
        return CNoCall(p)
    for kind in (CLayDown, CSwap, CLayOff):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[0]
    if CDiscard in kinds:
        return _contract_discard_greedy(game, legal)
    return legal[0]


def _or_greedy(decide: Callable[[ContractGame], Decision], game: ContractGame) -> Decision:
    """``decide(game)``, or the greedy rule when a solver question ran out of time (the reason says so)."""
    try:
        return decide(game)
    except SolverTimeout as exc:
        action = greedy_action(game, random.Random(game.seed))
        return Decision(action, f"{action}: the greedy rule ({exc})")


def solver_decision(game: ContractGame) -> Decision:
    """The ``solver`` player: every decision from the whole-turn plan (:mod:`solver.contract.turn`).

    The offer from :func:`best_turn`, a call from :func:`call_decision`, and in the play phase the
    first step of :meth:`ContractGame.turn_plan`, always one of the listed legal actions: the listed
    lay-down (the plan's), then a lay-off or swap after which the plan still ends the turn with as
    few points, then the plan's discard. When a solver question runs out of time, the greedy rule
    decides, and the reason says so.
    """
    return _or_greedy(_plan_decision, game)


def discard_on_offer(game: ContractGame, time_limit: float | None = None) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The arguments :func:`best_turn` and :func:`call_decision` share: the position of the player to
    move with the top discard on offer (the rest of the pile seen); ``time_limit`` by default the
    game's (the solver player's and the game review's questions are the same)."""
    p = game.to_move
    args = (game.hands[p], game.table, game.rules, game.round)
    kwargs = {
        "discard": game.pile[-1],
        "player": p,
        "laid_down": game.laid_down[p],
        "seen": Cards(game.pile[:-1]),
        "time_limit": game.time_limit if time_limit is None else time_limit,
    }
    return args, kwargs


def call_penalty(game: ContractGame) -> bool:
    """Whether a call now takes a penalty card (none once the stock and the rest of the pile are empty)."""
    return bool(game.stock or len(game.pile) > 1)


def _plan_decision(game: ContractGame) -> Decision:
    if game.phase == "play":
        game.turn_plan()  # first: the listed lay-down is then the plan's
    legal = game.legal_actions()
    kinds = {type(a) for a in legal}
    p = game.to_move
    if CTake in kinds:
        args, kwargs = discard_on_offer(game)
        plan = best_turn(*args, **kwargs)
        action: ContractAction = CTake(p) if plan.take else CDecline(p)
        facts = {"distance": plan.distance, "distance_take": plan.distance_take, "outs": str(plan.outs)}
        return Decision(_listed(legal, action), plan.reason, facts)
    if CCall in kinds:
        args, kwargs = discard_on_offer(game)
        call = call_decision(*args, penalty=call_penalty(game), **kwargs)
        action = CCall(p) if call.call else CNoCall(p)
        word = "call Shanghai!: " if call.call else "no call: "
        measured = not game.laid_down[p] and not game.all_at_once()  # else no distance decided (the reason says why)
        facts = {"distance": call.distance, "distance_call": call.distance_call} if measured else {}
        return Decision(_listed(legal, action), word + call.reason, facts)
    if len(legal) == 1:
        return Decision(legal[0], "the only action")
    if game.phase == "first_discard":  # the round's first discard: nothing to meld, the discard reasoning
        allowed = {a.card: a for a in legal if isinstance(a, CDiscard)}
        ranked = best_discards(game.hands[p], game.rules, game.round, seen=Cards(game.pile), time_limit=game.time_limit)
        card, distance = next((c, d) for c, d in ranked if c in allowed)
        note = wild_note([(c, d) for c, d in ranked if c in allowed], card, game.rules)
        reason = f"discard {card}: the contract stays {distance} card(s) away (the round's first discard){note}"
        return Decision(allowed[card], reason, {"distance": distance})
    after = game.turn_plan()
    if after is None:
        raise SolverTimeout("no whole-turn plan within the time limit")
    info: dict[str, object] = {
        "points_left": after.points_left,
        "goes_out": after.goes_out,
        "status": str(after.status),
    }
    if after.distance is not None:  # no lay-down this turn: the discard reasoning's distance decided
        info["distance"] = after.distance
    downs = [a for a in legal if isinstance(a, CLayDown)]
    if after.lay_down and downs:
        return Decision(downs[0], f"lay down {downs[0].melds and str(downs[0])[8:]}: {after.reason}", info)
    if after.layoff is not None:
        step = _keeping_step(game, legal, after)
        if step is not None:
            return Decision(step, f"{step}: {after.reason}", info)
    discards = [a for a in legal if isinstance(a, CDiscard)]
    for a in discards:
        if a.card == after.discard:
            return Decision(a, f"discard {a.card}: {after.reason}", info)
    if discards:
        return Decision(discards[0], f"discard {discards[0].card}: the first discard allowed", info)
    return Decision(legal[0], "the first legal action")


def _listed(legal: list[ContractAction], action: ContractAction) -> ContractAction:
    """The listed object equal to ``action`` (the engine lists each action once, as a frozen value)."""
    return next((a for a in legal if a == action), action)


_STEP_TRIES = 8
"""The most lay-off or swap steps the plan player tries before it takes the first the plan names."""


def _keeping_step(game: ContractGame, legal: list[ContractAction], after: AfterDraw) -> ContractAction | None:
    """A listed lay-off or swap after which the plan still leaves as few points: the plan's swaps first,
    then its lay-offs (naturals before wilds)."""
    assert after.layoff is not None
    p = game.to_move
    played = after.layoff.played
    planned = [CSwap(p, s) for s in after.layoff.swaps]
    swaps = [a for a in legal if isinstance(a, CSwap) and a in planned]
    offs = [a for a in legal if isinstance(a, CLayOff) and a.cards.multiset <= played]
    offs.sort(key=lambda a: a.cards.cards[0] in game.rules.wilds)
    candidates: list[ContractAction] = [*swaps, *offs]
    for action in candidates[:_STEP_TRIES]:
        trial = game.clone()
        trial.apply_listed(action)
        if trial.is_terminal() or trial.round != game.round:
            return action  # went out
        again = trial.turn_plan()
        if again is not None and again.points_left <= after.points_left:
            return action
    return candidates[0] if candidates else None


def old_solver_decision(game: ContractGame) -> Decision:
    """The ``solver-old`` player (before the whole-turn plan, kept for paired comparison): distance to
    contract for the discard and for taking or calling; best lay-down, then best lay-off.

    When a solver question runs out of time without an answer (``game.time_limit``), the greedy rule
    decides, and the reason says so.
    """
    return _or_greedy(_solver_decision, game)


def _solver_decision(game: ContractGame) -> Decision:
    legal = game.legal_actions()
    kinds = {type(a) for a in legal}
    p = game.to_move
    hand: Cards = game.hands[p]
    seen = game.seen_cards(p)
    limit = game.time_limit
    if CTake in kinds or CCall in kinds:
        return _offer_decision(game, CCall in kinds)
    if any(isinstance(a, CLayDown) for a in legal) and (down := game.lay_down_option()) is not None:
        return Decision(
            CLayDown(p, tuple(down.melds)),
            f"the contract can be made: lay it down, leaving {down.points_left} points in hand",
            {"points_left": down.points_left},
        )
    if game.laid_down[p] and (CLayOff in kinds or CSwap in kinds):
        plan = best_layoff(hand, game.table, game.rules, player=p, time_limit=limit)
        first = _first_step(game, p, plan)
        if first is not None:
            return Decision(
                first,
                f"lay off {plan.played} ({plan.points} points)" + ("; goes out" if plan.can_go_out else ""),
                {"layoff": str(plan.played), "can_go_out": plan.can_go_out},
            )
    discards = [a for a in legal if isinstance(a, CDiscard)]
    if not discards:
        return Decision(legal[0], "the only action")
    if game.laid_down[p]:
        worst = max(discards, key=lambda a: (game.rules.points(a.card), a.card not in game.rules.wilds))
        return Decision(worst, f"discard {worst.card}: the most points in hand")
    allowed = {a.card: a for a in discards}
    if game.all_at_once():
        spare = _leftovers(game, hand)
        if spare is not None:
            shed = [c for c in spare.distinct() if c in allowed]
            if shed:
                card = min(shed, key=lambda c: discard_order(c, game.rules))
                return Decision(
                    allowed[card],
                    f"discard {card}: the contract is made and {card} is not in its melds"
                    f" ({len(spare)} card(s) left over; the whole hand must go down at once)",
                    {"distance": 0, "left_over": len(spare)},
                )
    for card, distance in best_discards(hand, game.rules, game.round, seen=seen, time_limit=limit):
        if card in allowed:
            return Decision(
                allowed[card], f"discard {card}: the contract stays {distance} card(s) away", {"distance": distance}
            )
    return Decision(discards[0], "the only discard allowed")


def _offer_decision(game: ContractGame, call: bool) -> Decision:
    """Take (or call for) the top discard when it brings the contract closer, or can be laid off."""
    p = game.to_move
    hand = game.hands[p]
    seen = game.seen_cards(p)
    limit = game.time_limit
    top = game.pile[-1]
    if game.laid_down[p]:
        want = any(game.grown(i, _single(top)) is not None for i in range(len(game.table)))
        reason = f"{top} {'can' if want else 'cannot'} be laid off"
    elif not useful_card(hand, top, game):
        want = False
        reason = f"{top} neither pairs with nor runs next to any card in hand"
    elif (whole := _whole_hand_offer(game, hand, top, call)) is not None:
        want, reason = whole
    else:
        now = distance_to_contract(hand, game.rules, game.round, seen=seen, time_limit=limit, options=False)
        seen_without = seen - Cards([top])
        after = best_discards(hand + Cards([top]), game.rules, game.round, seen=seen_without, time_limit=limit)
        best_after = after[0][1] if after else now.missing
        want = best_after < now.missing
        reason = f"with {top} the contract is {best_after} card(s) away, now {now.missing}"
    if not call:
        return Decision(CTake(p) if want else CDecline(p), ("take: " if want else "decline: ") + reason)
    return Decision(CCall(p) if want else CNoCall(p), ("call Shanghai!: " if want else "no call: ") + reason)


def _leftovers(game: ContractGame, hand: Cards) -> Cards | None:
    """The cards the best lay-down of ``hand`` leaves in hand, ignoring the whole-hand rule (None: no lay-down)."""
    down = best_lay_down(hand, game.rules, game.round, time_limit=game.time_limit, whole_hand=False)
    return None if down is None else down.hand


def _whole_hand_offer(game: ContractGame, hand: Cards, top: Card, call: bool) -> tuple[bool, str] | None:
    """Take or call in a last round played all at once (None: decide by the distance to contract).

    The hand must go down whole, so every card the contract's melds cannot
    hold must be discarded, one a turn: a call brings an unseen penalty card
    and no discard for it, so it is declined. Once the contract is made, the
    discard is worth taking when it joins the melds (a left-over card goes
    instead); before that the distance to contract decides.
    """
    if not game.all_at_once():
        return None
    if call:
        return False, "every card in hand must go down at once; a call adds a penalty card and no discard"
    now = _leftovers(game, hand)
    if now is None:
        return None
    later = _leftovers(game, hand + Cards([top]))
    if later is None:  # pragma: no cover - a hand that makes the contract still does with one card more
        return None
    fits = len(later) <= len(now)
    return (
        fits,
        f"the contract is made with {len(now)} card(s) left over; {top} {'joins' if fits else 'does not join'} its melds",
    )


def _single(card: Card) -> Meld:
    return Meld((card,))


def _first_step(game: ContractGame, p: int, plan: Layoff) -> ContractAction | None:
    """The first engine action that starts the lay-off plan (its first swap, else one card)."""
    legal = game.legal_actions()
    if plan.swaps:
        planned = CSwap(p, plan.swaps[0])
        if game.is_legal(planned):
            return planned
        swaps = [a for a in legal if isinstance(a, CSwap)]
        if swaps:
            return swaps[0]
    for action in legal:
        if isinstance(action, CLayOff) and action.cards.multiset <= plan.played:
            return action
    return None
