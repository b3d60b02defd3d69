"""``shanghai solve`` for Contract Shanghai: contract check, distance, best lay-off.

For a player who has not laid down: the best lay-down (fewest points left),
the distance to the contract, and (with ``layoff_same_turn``) the best
lay-off right after laying down. For a player who has: the best lay-off.
``--objective value`` lays off the most points, ``cards`` (the default) the
most cards.

JSON keys: ``can_lay_down``, ``lay_down``, ``points_left``, ``distance``,
``missing``, ``layoff``, ``swaps``, ``can_go_out``, ``status`` (and
``seconds``, added by the CLI).
"""

from __future__ import annotations

from typing import Any, Literal

from rich.console import Console

from cli.common import Outcome, SolveOptions, cards_markup, meld_markup
from solver.cards import Cards
from solver.contract import Distance, LayDown, Layoff, best_lay_down, best_layoff, distance_to_contract
from solver.errors import PuzzleError
from solver.puzzles import ContractPosition, Puzzle, TableMeld
from solver.rules import ContractRules

__all__ = ["solve"]


def _layoff_data(layoff: Layoff | None) -> dict[str, Any] | None:
    if layoff is None:
        return None
    return {
        "played": str(layoff.played),
        "cards": len(layoff.played),
        "points": layoff.points,
        "hand": str(layoff.hand),
        "table": [{"cards": str(t.meld), "owner": t.owner} for t in layoff.table],
    }


def _mismatch(answer: dict[str, Any], data: dict[str, Any]) -> str | None:
    got: dict[str, Any] = {
        "can_lay_down": data["can_lay_down"],
        "points_left": data["points_left"],
        "distance": data["missing"],
        "layoff": data["layoff"]["cards"] if data["layoff"] else 0,
        "layoff_points": data["layoff"]["points"] if data["layoff"] else 0,
        "can_go_out": data["can_go_out"],
        "swaps": len(data["swaps"]),
    }
    wrong = [f"{k}: expected {v!r}, got {got[k]!r}" for k, v in answer.items() if got.get(k) != v]
    return "; ".join(wrong) or None


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Answer every question of a Contract Shanghai position."""
    pos = puzzle.position
    rules = puzzle.rules
    if not isinstance(pos, ContractPosition) or not isinstance(rules, ContractRules):
        raise PuzzleError(f"{puzzle.name}: not a contract position")
    objective: Literal["points", "cards"] = "points" if opts.objective == "value" else "cards"
    limit = opts.time_limit
    hand = pos.hand
    table = pos.table
    seen = Cards(c for t in table for c in t.meld.cards) + pos.dead
    if pos.discard is not None:
        seen = seen + Cards([pos.discard])
    whole = pos.round == rules.rounds and rules.last_round_all_at_once
    down: LayDown | None = None
    dist: Distance | None = None
    layoff: Layoff | None = None
    statuses: list[str] = []
    if not pos.laid_down:
        down = best_lay_down(hand, rules, pos.round, time_limit=limit)
        dist = distance_to_contract(hand, rules, pos.round, seen=seen, time_limit=limit)
        statuses.append(dist.status)
        if down is not None:
            statuses.append(down.status)
            if rules.layoff_same_turn and not whole and down.hand:
                after = (*table, *(TableMeld(m, 0) for m in down.melds))
                layoff = best_layoff(down.hand, after, rules, player=0, objective=objective, time_limit=limit)
    elif hand:
        layoff = best_layoff(hand, table, rules, player=0, objective=objective, time_limit=limit)
    if layoff is not None:
        statuses.append(layoff.status)
    if pos.laid_down:
        can_go_out = layoff.can_go_out if layoff is not None else True
    elif down is None:
        can_go_out = False
    else:
        can_go_out = len(down.hand) <= 1 or (layoff is not None and layoff.can_go_out)
    status = "optimal" if all(s in ("optimal", "impossible") for s in statuses) else "feasible"
    data: dict[str, Any] = {
        "round": pos.round,
        "contract": " + ".join(map(str, rules.contract(pos.round))),
        "can_lay_down": None if pos.laid_down else down is not None,
        "lay_down": [str(m) for m in down.melds] if down else None,
        "points_left": down.points_left if down else None,
        "distance": None
        if dist is None
        else {"missing": dist.missing, "options": str(dist.options), "completion": str(dist.completion)},
        "missing": dist.missing if dist is not None else None,
        "layoff": _layoff_data(layoff),
        "swaps": [{"card": str(s.card), "meld": s.meld, "wild": str(s.wild), "to": s.to} for s in layoff.swaps]
        if layoff
        else [],
        "can_go_out": can_go_out,
        "status": status,
    }
    if whole:
        data["whole_hand"] = True

    def render(console: Console) -> None:
        console.print(f"[bold]{puzzle.name}[/]  [dim]contract, round {pos.round}: {data['contract']}[/]")
        for i, t in enumerate(table):
            console.print(f"  table {i}  [dim]p{t.owner}[/] {meld_markup(t.meld)}")
        console.print(f"  hand     {cards_markup(hand)}{'  [dim](laid down)[/]' if pos.laid_down else ''}")
        if not pos.laid_down:
            what = "the whole hand goes down" if whole else "can lay down"
            if down is None:
                console.print(f"  [red]cannot lay down[/]{' the whole hand' if whole else ''}")
            else:
                console.print(f"  [green]{what}[/]:")
                for m in down.melds:
                    console.print(f"    {meld_markup(m)}")
                console.print(f"  left     {cards_markup(down.hand)}  [dim]({down.points_left} points)[/]")
            if dist is not None:
                console.print(f"  missing  {dist.missing} card(s)")
                if dist.missing and dist.options:
                    console.print(f"  outs     {cards_markup(dist.options.distinct())}")
        if layoff is not None:
            console.print(f"  lay off  {cards_markup(layoff.played)}  [dim]({layoff.points} points)[/]")
            for s in layoff.swaps:
                console.print(
                    f"  swap     {cards_markup([s.card])} for {cards_markup([s.wild])} in meld {s.meld}, wild to meld {s.to}"
                )
            for i, t in enumerate(layoff.table):
                console.print(f"    {i} [dim]p{t.owner}[/] {meld_markup(t.meld)}")
        console.print(f"  go out   {'[green]yes[/]' if can_go_out else 'no'}  [dim]{status}[/]")

    mismatch = _mismatch(puzzle.answer, data) if puzzle.answer else None
    return Outcome(data, render, mismatch)
