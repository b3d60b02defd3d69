"""``shanghai solve`` for Zheng Shang You: legal moves, best first, and the fewest-plays split.

JSON keys: ``moves`` (each ``{"cards": [codes], "kind": kind, "plays_left": n}``, best first:
fewest plays left after the move; at most ``ZSY_LISTED`` of them),
``move_count`` (every legal move counted) and ``move_count_exact`` (false
when the time ran out first: the count is then a lower bound),
``fewest_plays`` (int), ``split`` (a list of plays, each a list of card
codes), ``status`` (``feasible`` unless every stage finished),
``leads`` and ``leads_exact`` (the number of legal leads from the hand:
given for a lead, and for a reply only when the puzzle's answer asks for it)
and ``seconds`` (added by the command).
An ``[answer]`` may give ``fewest_plays``, ``moves`` (the number of legal
moves in the position), ``leads`` and, for a two-player endgame
(``opponent`` in the position), ``winning_leads``; the endgame's answer is
the key ``endgame`` (:func:`solver.answers.endgame_json`).
"""

from __future__ import annotations

from rich.console import Console

from cli.common import Outcome, Part, SolveOptions, cards_parts, plural, say, unicode_ok
from solver.answers import solve_puzzle
from solver.cards import Card
from solver.puzzles import Puzzle
from solver.zsy import Combo, zsy_value
from solver.zsy.endgame import Endgame

__all__ = ["solve"]


def _parts(combo: Combo) -> list[Part]:
    cards: list[Card] = sorted(combo.cards, key=lambda c: (zsy_value(c), c.index))
    return [*cards_parts(cards), ("  " + combo.describe(), "dim")]


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
    endgame = answer.result.get("endgame")

    def render(console: Console) -> None:
        from cli.position_view import render_position

        render_position(puzzle)
        arrow = "→" if unicode_ok() else "->"
        if to_beat is not None:
            say(console, "         ", (to_beat.describe(), "dim"))
        what = ("legal reply", "legal replies") if to_beat is not None else ("legal lead", "legal leads")
        from_hand = f" ({plural(leads, 'lead')} from this hand)" if to_beat is not None and leads is not None else ""
        from_hand = from_hand if answer.data.get("leads_exact", True) else from_hand.replace("(", "(at least ")
        listed = "" if len(ranked) == count else f" ({len(ranked)} listed and ranked)"
        say(console, "  ", (at_least + plural(count, *what), "bold"), f"{listed}{from_hand}, best first:")
        for combo, n in ranked[: opts.limit]:
            say(console, "    ", _parts(combo), "  ", (f"{arrow} {plural(n, 'play')} left", "green"))
        if len(ranked) > opts.limit:
            say(console, "    ", (f"... {count - opts.limit} more (--json lists {len(ranked)})", "dim"))
        if not count:
            say(console, "    ", ("none: pass", "dim"))
        say(console, (f"  fewest plays: {split.count}", "bold"), " ", (f"({status})", "dim"))
        for play in split.plays:
            say(console, "    ", _parts(play))
        if endgame is not None:
            _render_endgame(console, endgame)

    return Outcome(answer.data, render, answer.mismatch)


def _render_endgame(console: Console, endgame: Endgame) -> None:
    """The winning leads against the known opponent, and the line of the first."""
    won = len(endgame.winning)
    head = f"  endgame: {plural(won, 'winning lead')} of {len(endgame.leads)}"
    say(console, (head, "bold"), " ", (f"({endgame.nodes} positions searched)", "dim"))
    for combo in endgame.winning:
        say(console, "    ", _parts(combo))
    if not won:
        say(console, "    ", ("none: every lead loses against the best defence", "dim"))
        return
    say(console, "  line (your plan against the longest defence):")
    for side, step in endgame.line:
        say(console, f"    {side:<9}", ("pass", "dim") if step is None else _parts(step))
