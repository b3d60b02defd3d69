"""``shanghai solve`` for Contract Shanghai: contract check, distance, best lay-off.

For a player who has not laid down: the best lay-down (fewest points left),
the distance to the contract, and (with ``layoff_same_turn``) the best
lay-off right after laying down. For a player who has: the best lay-off.
``--objective value`` lays off the most points, ``cards`` (the default) the
most cards.

Then the whole-turn plan (:mod:`solver.contract.turn`, the same answer as
``shanghai hint``, from the library's answer): with ``--discard``, take it or draw, and why; then the
turn's actions in order (lay down, swaps and lay-offs, the discard).

JSON keys: ``can_lay_down``, ``lay_down``, ``points_left``, ``distance``,
``missing``, ``layoff``, ``swaps``, ``can_go_out``, ``status``, ``turn``
(``action``, ``reason``, ``actions``, and the plan after the draw:
``lay_down``, ``laid_off``, ``discard``, ``points_left``, ``can_go_out``;
null when the turn's first step is to draw) (and ``seconds``, added by the CLI).

The plan's lay-down may differ from ``lay_down`` (the fewest points left
by the lay-down alone): it is the lay-down of the whole turn's best end,
the lay-off onto the table's melds included (a lay-down puzzle's answer).
With a discard on offer (``without_discard``), the lay-down, distance and
lay-off lines are for the hand without it and say so; the turn plan, which
takes the discard into account, is the one verdict.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.console import Console

from cli.common import Outcome, SolveOptions, cards_parts, meld_parts, plural, say
from solver.answers import solve_puzzle
from solver.contract import Distance, LayDown, Layoff
from solver.melds import Meld
from solver.puzzles import ContractPosition, Puzzle

__all__ = ["solve"]


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Answer every question of a Contract Shanghai position."""
    answer = solve_puzzle(puzzle, opts)
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    data = answer.data
    turn = data["turn"]
    view = _View(
        puzzle=puzzle,
        pos=pos,
        data=data,
        down=answer.result["down"],
        dist=answer.result["dist"],
        layoff=answer.result["layoff"],
        whole=answer.result["whole"],
        discards=answer.result["discards"],
        turn=turn,
        # the plan after the draw; its keys are null when the turn's first step is to draw
        plan=turn if turn["can_go_out"] is not None else {},
        # one verdict per position: with a discard on offer the lay-down and lay-off lines are for the
        # hand without it (labelled so); the turn plan, which takes the discard into account, is the verdict
        without=("  (without the discard)", "dim") if data["without_discard"] else "",
    )
    return Outcome(data, partial(_render, view), answer.mismatch)


@dataclass(frozen=True, slots=True)
class _View:
    """What the human rendering of one answer reads: the puzzle, the answer's data and results."""

    puzzle: Puzzle
    pos: ContractPosition
    data: dict[str, Any]
    down: LayDown | None
    dist: Distance | None
    layoff: Layoff | None
    whole: bool
    discards: Any
    turn: dict[str, Any]
    plan: dict[str, Any]
    without: Any


def _render(v: _View, console: Console) -> None:
    """The answer for humans: the position, the lay-down, the lay-off, the verdict and the turn plan."""
    pos = v.pos
    say(console, (v.puzzle.name, "bold"), "  ", (f"contract, round {pos.round}: {v.data['contract']}", "dim"))
    for i, t in enumerate(pos.table):
        say(console, f"  table {i}  ", (f"p{t.owner}", "dim"), " ", meld_parts(t.meld))
    say(console, "  hand     ", cards_parts(pos.hand), ("  (laid down)", "dim") if pos.laid_down else "")
    if not pos.laid_down:
        _render_lay_down(v, console)
    if v.layoff is not None:
        _render_layoff(v.layoff, v.without, console)
    _render_turn(v, console)


def _render_lay_down(v: _View, console: Console) -> None:
    """The best lay-down (or that there is none), the discards of a whole-hand round, the distance."""
    down, dist, whole, without = v.down, v.dist, v.whole, v.without
    what = "the whole hand goes down" if whole else "can lay down"
    if down is None:
        say(console, "  ", ("cannot lay down" + (" the whole hand" if whole else ""), "red"), without)
    else:
        say(console, "  ", (what, "green"), without, ":")
        for m in down.melds:
            say(console, "    ", meld_parts(m))
        say(console, "  left     ", cards_parts(down.hand), (f"  ({plural(down.points_left, 'point')})", "dim"))
    if whole and down is not None:
        discards = v.discards or ()
        say(console, "  discards ", cards_parts(discards), ("  (each lets the rest go down)", "dim"))
    if dist is not None:
        say(console, f"  missing  {plural(dist.missing, 'card')}", without)
        if dist.missing and dist.options:
            say(console, "  outs     ", cards_parts(dist.options.distinct()))


def _render_layoff(layoff: Layoff, without: Any, console: Console) -> None:
    """The best lay-off: the cards, the wild swaps, the table after it."""
    say(
        console,
        "  lay off  ",
        cards_parts(layoff.played),
        (f"  ({plural(layoff.points, 'point')})", "dim"),
        without,
    )
    for s in layoff.swaps:
        say(
            console,
            "  swap     ",
            cards_parts([s.card]),
            " for ",
            cards_parts([s.wild]),
            f" in meld {s.meld}, wild to meld {s.to}",
        )
    for i, t in enumerate(layoff.table):
        say(console, f"    {i} ", (f"p{t.owner}", "dim"), " ", meld_parts(t.meld))


def _render_turn(v: _View, console: Console) -> None:
    """Whether the hand goes out, then the whole-turn plan and its actions in order."""
    data, plan, turn, down, without = v.data, v.plan, v.turn, v.down, v.without
    can_go_out = data["can_go_out"]
    # the answer's lay-down and lay-off; a whole-turn plan that differs is named as such below
    other = bool(plan) and plan.get("can_go_out") is not None and bool(plan["can_go_out"]) != bool(can_go_out)
    say(
        console,
        "  go out   ",
        ("yes", "green") if can_go_out else "no",
        "  ",
        (data["status"], "dim"),
        without or (("  (after that lay-down and lay-off; see the plan)", "dim") if other else ""),
    )
    say(console, "  turn     ", (turn["reason"], "dim"))
    planned = [" ".join(m) for m in plan.get("lay_down") or ()]
    if planned and data["without_discard"]:
        say(console, "  the plan, with the discard taken, lays down:")
    elif planned and planned != [str(m) for m in (down.melds if down else ())]:
        say(console, "  the plan lays down other melds than the best lay-down alone (it leaves more to lay off):")
    if planned and (data["without_discard"] or planned != [str(m) for m in (down.melds if down else ())]):
        for m in plan["lay_down"]:
            say(console, "    ", meld_parts(Meld.parse(" ".join(m))))
    if plan:
        say(
            console,
            "  plan     ",
            ("goes out", "green") if plan["can_go_out"] else f"leaves {plural(plan['points_left'], 'point')}",
            (f"  (lays off {' '.join(plan['laid_off'])})", "dim") if plan["laid_off"] else "",
        )
    for k, step in enumerate(turn["actions"], 1):
        say(console, f"    {k}. ", (step, "bold" if k == 1 else ""))
