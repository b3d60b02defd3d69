"""``shanghai solve`` for Zheng Shang You: legal moves, best first, and the fewest-plays split.

JSON keys: ``moves`` (each ``{"cards": [codes], "kind": kind}``, best first:
fewest plays left after the move; at most ``ZSY_LISTED`` of them),
``move_count`` (every legal move counted) and ``move_count_exact`` (false
when the time ran out first: the count is then a lower bound),
``fewest_plays`` (int), ``split`` (a list of plays, each a list of card
codes), ``status`` (``feasible`` unless every stage finished),
``leads`` and ``leads_exact`` (the number of legal leads from the hand:
given for a lead, and for a reply only when the puzzle's answer asks for it)
and ``seconds`` (added by the command).
An ``[answer]`` may give ``fewest_plays``, ``moves`` (the number of legal
moves in the position) and ``leads``.
"""

from __future__ import annotations

from rich.console import Console

from cli.common import Outcome, SolveOptions, cards_markup
from solver.answers import solve_puzzle
from solver.cards import Card
from solver.puzzles import Puzzle
from solver.zsy import Combo, zsy_value

__all__ = ["solve"]


def _markup(combo: Combo) -> str:
    cards: list[Card] = sorted(combo.cards, key=lambda c: (zsy_value(c), c.index))
    return f"{cards_markup(cards)}  [dim]{combo.describe()}[/]"


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Legal moves (best first by fewest plays left after the move) and the fewest-plays split."""
    answer = solve_puzzle(puzzle, opts)
    to_beat: Combo | None = answer.result["to_beat"]
    ranked: list[tuple[Combo, int]] = answer.result["ranked"]
    split = answer.result["split"]
    leads = answer.result["leads"]
    count: int = answer.data["move_count"]
    at_least = "" if answer.data["move_count_exact"] else "at least "
    status = answer.data["status"]

    def render(console: Console) -> None:
        from cli.main import render_position  # lazy: cli.main imports this module lazily too

        render_position(puzzle)
        if to_beat is not None:
            console.print(f"         [dim]{to_beat.describe()}[/]")
        what = "replies" if to_beat is not None else "leads"
        from_hand = f" ({leads} leads from this hand)" if to_beat is not None and leads is not None else ""
        from_hand = from_hand if answer.data.get("leads_exact", True) else from_hand.replace("(", "(at least ")
        listed = "" if len(ranked) == count else f" ({len(ranked)} listed and ranked)"
        console.print(f"  [bold]{at_least}{count} legal {what}[/]{listed}{from_hand}, best first:")
        for combo, n in ranked[: opts.limit]:
            console.print(f"    {_markup(combo)}  [green]→ {n} plays left[/]")
        if len(ranked) > opts.limit:
            console.print(f"    [dim]… {count - opts.limit} more (--json lists {len(ranked)})[/]")
        if not count:
            console.print("    [dim]none: pass[/]")
        console.print(f"  [bold]fewest plays: {split.count}[/] [dim]({status})[/]")
        for play in split.plays:
            console.print(f"    {_markup(play)}")

    return Outcome(answer.data, render, answer.mismatch)
