"""``shanghai solve`` for Zheng Shang You: legal moves, best first, and the fewest-plays split.

JSON keys: ``moves`` (each ``{"cards": [codes], "kind": kind}``, best first:
fewest plays left after the move), ``fewest_plays`` (int), ``split`` (a list
of plays, each a list of card codes), ``status``, ``leads`` (the number of
legal leads from the hand: given for a lead, and for a reply only when the
puzzle's answer asks for it) and ``seconds`` (added by the command).
An ``[answer]`` may give ``fewest_plays``, ``moves`` (the number of legal
moves in the position) and ``leads``.
"""

from __future__ import annotations

import time
from typing import Any

from rich.console import Console

from cli.common import Outcome, SolveOptions, cards_markup
from solver.cards import Card
from solver.climbing import Combo, combo_from_position, fewest_plays, legal_moves, plays_after, zsy_value
from solver.puzzles import Puzzle, ZsyPosition
from solver.rules import ZsyRules

__all__ = ["solve"]

_TWO = 15  # ZSY value of a 2; 2s and jokers are the wild cards, spent last


def _codes(combo: Combo) -> list[str]:
    return [c.code for c in sorted(combo.cards, key=lambda c: (zsy_value(c), c.index))]


def _markup(combo: Combo) -> str:
    cards: list[Card] = sorted(combo.cards, key=lambda c: (zsy_value(c), c.index))
    return f"{cards_markup(cards)}  [dim]{combo.describe()}[/]"


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Legal moves (best first by fewest plays left after the move) and the fewest-plays split."""
    pos = puzzle.position
    rules = puzzle.rules
    assert isinstance(pos, ZsyPosition) and isinstance(rules, ZsyRules)
    deadline = time.perf_counter() + opts.time_limit
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, rules) if pos.to_beat is not None else None
    split = fewest_plays(pos.hand, rules, time_limit=opts.time_limit)
    moves = legal_moves(pos.hand, to_beat, rules)
    leads: int | None = len(moves)
    if to_beat is not None:  # every lead of a big hand can run to millions: count them only when asked
        leads = len(legal_moves(pos.hand, None, rules)) if "leads" in puzzle.answer else None
    left, ranked_status = plays_after(pos.hand, moves, rules, time_limit=max(0.01, deadline - time.perf_counter()))
    wilds = [sum(1 for c in m.cards if zsy_value(c) >= _TWO) for m in moves]
    order = sorted(range(len(moves)), key=lambda i: (left[i], wilds[i], moves[i].top, -moves[i].size, str(moves[i])))
    ranked = [(moves[i], left[i]) for i in order]
    status = "optimal" if split.status == "optimal" and ranked_status == "optimal" else "feasible"
    data: dict[str, Any] = {
        "moves": [{"cards": _codes(m), "kind": m.kind} for m, _ in ranked],
        "fewest_plays": split.count,
        "split": [_codes(p) for p in split.plays],
        "status": status,
    }
    if leads is not None:
        data["leads"] = leads
    if to_beat is not None:
        data["to_beat"] = {"cards": _codes(to_beat), "kind": to_beat.kind}

    found = {"fewest_plays": split.count, "moves": len(moves), "leads": leads}
    wrong = [f"{k} {found[k]} != {v}" for k, v in puzzle.answer.items() if k in found and found[k] != v]
    mismatch = "; ".join(wrong) or None

    def render(console: Console) -> None:
        from cli.main import render_position  # lazy: cli.main imports this module lazily too

        render_position(puzzle)
        if to_beat is not None:
            console.print(f"         [dim]{to_beat.describe()}[/]")
        what = "replies" if to_beat is not None else "leads"
        from_hand = f" ({leads} leads from this hand)" if to_beat is not None and leads is not None else ""
        console.print(f"  [bold]{len(moves)} legal {what}[/]{from_hand}, best first:")
        for combo, n in ranked[: opts.limit]:
            console.print(f"    {_markup(combo)}  [green]→ {n} plays left[/]")
        if len(ranked) > opts.limit:
            console.print(f"    [dim]… {len(ranked) - opts.limit} more (--json lists all)[/]")
        if not moves:
            console.print("    [dim]none: pass[/]")
        console.print(f"  [bold]fewest plays: {split.count}[/] [dim]({status})[/]")
        for play in split.plays:
            console.print(f"    {_markup(play)}")

    return Outcome(data, render, mismatch)
