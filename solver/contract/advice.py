"""Contract Shanghai: the whole-turn plan of a position as advice, in the engine's action words.

One place for what ``shanghai hint`` says about a Contract position and
what ``shanghai solve`` (the CLI, the JSON-lines engine, the web API)
puts under its answer's ``turn`` key: :func:`turn_decision` asks
:mod:`solver.contract.turn` (with a discard on offer :func:`best_turn`,
else :func:`plan_after_draw`) and writes the plan as engine actions (lay
down, swaps and lay-offs, discard); :func:`turn_data` is that decision as
the answer's data (docs/json.md, ``solve.contract``'s ``turn``).

>>> from solver.rules import ContractRules
>>> hand = Cards.parse("5H 5D 5S 6C 7C 8C 9C 10C KD KH 2S QH 4D")
>>> d = turn_decision(hand, (), ContractRules(), 1, discard=None)
>>> d.action, turn_data(d)["discard"], turn_data(d)["points_left"]
('laydown KH KD 2S=KH | 6C 7C 8C 9C 10C', 'QH', 19)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from solver.cards import Card, Cards
from solver.contract.api import NO_CARDS, Layoff
from solver.contract.turn import AfterDraw, best_turn, plan_after_draw
from solver.engine.base import Decision
from solver.melds import TableMeld, format_table
from solver.rules.contract import ContractRules

if TYPE_CHECKING:
    from solver.puzzles import ContractPosition

__all__ = ["layoff_actions", "plan_facts", "position_decision", "turn_actions", "turn_data", "turn_decision"]


def layoff_actions(table: Sequence[TableMeld], plan: Layoff) -> list[str]:
    """A lay-off plan as engine actions: the swaps first, then one ``layoff N CARDS`` per meld."""
    actions = [f"swap {s.meld} {s.card} {s.wild} {s.to}" for s in plan.swaps]
    placed: dict[int, Counter[Card]] = {}
    for s in plan.swaps:  # a swap puts the natural card in one meld and the freed wild on another
        placed.setdefault(s.meld, Counter())[s.card] += 1
        placed.setdefault(s.to, Counter())[s.wild] += 1
    for i, (old, new) in enumerate(zip(table, plan.table)):
        added = Counter(new.meld.cards)
        added.subtract(old.meld.cards)
        added.subtract(placed.get(i, Counter()))
        tokens: list[str] = []
        for card, role in zip(new.meld.cards, new.meld.roles):
            if added[card] > 0:
                added[card] -= 1
                tokens.append(f"{card}={role}" if role is not None else str(card))
        if not tokens:
            continue
        actions.append(f"layoff {i} {' '.join(tokens)}")
    return actions or [f"layoff 0 {plan.played}"]


def turn_actions(table: Sequence[TableMeld], after: AfterDraw, player: int = 0) -> list[str]:
    """A whole-turn plan after the draw as engine actions: the lay-down, the swaps and lay-offs, the discard."""
    actions: list[str] = []
    if after.lay_down:
        actions.append(f"laydown {format_table(after.lay_down)}")
    if after.layoff is not None:
        full = (*table, *(TableMeld(m, player) for m in after.lay_down))
        actions += layoff_actions(full, after.layoff)
    if after.discard is not None:
        actions.append(f"discard {after.discard}")
    return actions


def plan_facts(after: AfterDraw) -> dict[str, Any]:
    """The plan after the draw as data: the lay-down (melds as card codes, wild roles written), the
    cards laid off, the discard, the points left at the end of the turn and whether the player goes out."""
    return {
        "lay_down": [str(m).split() for m in after.lay_down],
        "laid_off": [c.code for c in after.layoff.played] if after.layoff is not None else [],
        "discard": after.discard.code if after.discard is not None else None,
        "points_left": after.points_left,
        "can_go_out": after.goes_out,
    }


def turn_decision(
    hand: Cards,
    table: Sequence[TableMeld],
    rules: ContractRules,
    round_: int,
    *,
    discard: Card | None,
    laid_down: bool = False,
    seen: Cards = NO_CARDS,
    time_limit: float = 10.0,
) -> Decision:
    """The whole-turn plan (:mod:`solver.contract.turn`) as a decision: with a ``discard`` on offer, take it
    or not (``take`` / ``decline``); else the first step of the rest of the turn (lay down, lay off, swap,
    discard). ``facts`` hold every step (``actions``), the ``status`` and the ``plan`` (:func:`plan_facts`;
    None when the first step is to draw: the card is not known)."""
    if discard is not None:
        plan = best_turn(
            hand, table, rules, round_, discard=discard, laid_down=laid_down, seen=seen, time_limit=time_limit
        )
        steps = turn_actions(table, plan.after) if plan.after is not None else []
        return Decision(
            "take" if plan.take else "decline",
            plan.reason,
            {
                "distance": plan.distance,
                "distance_with_discard": plan.distance_take,
                "outs": str(plan.outs),
                "actions": ["take", *steps] if plan.take else ["decline"],
                "status": str(plan.status),
                "plan": plan_facts(plan.after) if plan.after is not None else None,
            },
        )
    after = plan_after_draw(hand, table, rules, round_, laid_down=laid_down, seen=seen, time_limit=time_limit)
    actions = turn_actions(table, after) or ["pass"]
    facts: dict[str, Any] = {
        "points_left": after.points_left,
        "can_go_out": after.goes_out,
        "actions": actions,
        "status": str(after.status),
        "plan": plan_facts(after),
    }
    if after.distance is not None:
        facts["distance"] = after.distance
    more = f" ({len(actions)} actions: {'; '.join(actions)})" if len(actions) > 1 else ""
    return Decision(actions[0], after.reason + more, facts)


def turn_data(decision: Decision) -> dict[str, Any]:
    """A :func:`turn_decision` as the ``turn`` of a ``solve`` answer: the first ``action``, the ``reason``,
    every step (``actions``), and the plan after the draw (its keys null when the first step is to draw)."""
    plan = decision.facts.get("plan") or {}
    return {
        "action": str(decision.action),
        "reason": decision.reason,
        "actions": list(decision.facts["actions"]),
        "lay_down": plan.get("lay_down"),
        "laid_off": plan.get("laid_off"),
        "discard": plan.get("discard"),
        "points_left": plan.get("points_left"),
        "can_go_out": plan.get("can_go_out"),
    }


def position_decision(pos: ContractPosition, rules: ContractRules, time_limit: float = 10.0) -> Decision:
    """:func:`turn_decision` for a puzzle position (its hand, table, round, discard on offer, whether
    the player has laid down and the dead cards): the hint's decision and ``solve``'s ``turn``."""
    return turn_decision(
        pos.hand,
        pos.table,
        rules,
        pos.round,
        discard=pos.discard,
        laid_down=pos.laid_down,
        seen=pos.dead,
        time_limit=time_limit,
    )
