"""``shanghai solve`` for Manipulation Shanghai: best play, least change, moves, ``--all``, ``--check``.

The handler parses nothing and decides nothing: it calls
:func:`solver.manipulation.best_play` (and :func:`all_best_plays` for
``--all`` or an answer that needs it) and formats the result.
"""

from __future__ import annotations

from typing import Any, Literal

from rich.console import Console

from cli.common import Outcome, SolveOptions, cards_markup, meld_markup
from solver.cards import Cards
from solver.manipulation import Play, all_best_plays, best_play
from solver.puzzles import ManipulationPosition, Puzzle
from solver.rules import ManipulationRules

__all__ = ["solve"]


def _play_data(play: Play) -> dict[str, Any]:
    return {
        "status": play.status,
        "objective": play.objective,
        "played": [c.code for c in play.played],
        "cards": len(play.played),
        "value": play.value,
        "table": [str(m).split() for m in play.table],
        "hand": [c.code for c in play.hand],
        "moves": [m.text for m in play.moves],
        "kept_melds": play.kept_melds,
        "moved_cards": play.moved_cards,
        "least_change": play.least_change,
    }


def _mismatch(puzzle: Puzzle, opts: SolveOptions, play: Play, data: dict[str, Any]) -> str | None:
    """Compare with the file's [answer]: played (count), value, cards, distinct_plays."""
    answer = puzzle.answer
    pos = puzzle.position
    assert isinstance(pos, ManipulationPosition)
    rules = puzzle.rules
    assert isinstance(rules, ManipulationRules)
    problems: list[str] = []
    by_cards = play if play.objective == "cards" else None
    if ("played" in answer or "cards" in answer) and by_cards is None:
        by_cards = best_play(pos.table, pos.hand, rules, time_limit=opts.time_limit, least_change=False)
    if "played" in answer and by_cards is not None and by_cards.cards != answer["played"]:
        problems.append(f"played {by_cards.cards} cards, the answer says {answer['played']}")
    if "value" in answer:
        by_value = play if play.objective == "value" else None
        if by_value is None:
            by_value = best_play(
                pos.table, pos.hand, rules, objective="value", time_limit=opts.time_limit, least_change=False
            )
        if by_value.value != answer["value"]:
            problems.append(f"best value {by_value.value}, the answer says {answer['value']}")
    if "cards" in answer or "distinct_plays" in answer:
        plays = data.get("_plays")
        if plays is None:
            plays = all_best_plays(pos.table, pos.hand, rules, time_limit=opts.time_limit, limit=opts.limit)
        if "cards" in answer:
            want = Cards.parse(str(answer["cards"]))
            if want not in plays:
                problems.append(f"{want} is not among the best plays ({', '.join(map(str, plays)) or 'none'})")
        if "distinct_plays" in answer and len(plays) != answer["distinct_plays"]:
            problems.append(f"{len(plays)} distinct best plays, the answer says {answer['distinct_plays']}")
    return "; ".join(problems) or None


def _render(puzzle: Puzzle, play: Play, plays: tuple[Cards, ...] | None) -> Any:
    pos = puzzle.position
    assert isinstance(pos, ManipulationPosition)

    def render(console: Console) -> None:
        lines = [f"[bold]{puzzle.name}[/]  [dim]manipulation[/]" + (f"  {puzzle.title}" if puzzle.title else "")]
        for meld in pos.table:
            lines.append(f"  table  {meld_markup(meld)}")
        lines.append(f"  hand   {cards_markup(pos.hand)}")
        verdict = {
            "optimal": "[green]optimal[/]",
            "feasible": "[yellow]feasible[/] (time ran out)",
            "none": "[red]no card can be played[/]",
        }[play.status]
        lines.append(
            f"  {verdict}: play {len(play.played)} card{'s' if len(play.played) != 1 else ''}"
            f" {cards_markup(play.played)}  [dim]value {play.value}[/]"
        )
        if play.status != "none":
            whole = {j for j, kept in zip(play.matching, play.kept) if kept and j is not None}
            for k, meld in enumerate(play.table):
                mark = "[dim]kept[/]" if k in whole else ""
                lines.append(f"  new    {meld_markup(meld)}  {mark}".rstrip())
            lines.append(
                f"  [dim]{play.kept_melds} of {len(play.old_table)} melds kept, "
                f"{play.moved_cards} table card{'s' if play.moved_cards != 1 else ''} moved[/]"
            )
            for move in play.moves:
                lines.append(f"  step   {_move_markup(move)}")
        lines.append(f"  left   {cards_markup(play.hand)}")
        if plays is not None:
            lines.append(f"  {len(plays)} distinct best plays:")
            lines.extend(f"         {cards_markup(p)}" for p in plays)
        console.print("\n".join(lines))

    return render


def _move_markup(move: Any) -> str:
    if move.source_meld is None:
        return f"play {cards_markup(move.cards)} to {meld_markup(move.target_meld)}"
    return f"move {cards_markup(move.cards)} from {meld_markup(move.source_meld)} to {meld_markup(move.target_meld)}"


def solve(puzzle: Puzzle, opts: SolveOptions) -> Outcome:
    """Solve one Manipulation Shanghai puzzle for ``shanghai solve``."""
    pos = puzzle.position
    rules = puzzle.rules
    assert isinstance(pos, ManipulationPosition) and isinstance(rules, ManipulationRules)
    objective: Literal["cards", "value"] = "value" if opts.objective == "value" else "cards"
    play = best_play(pos.table, pos.hand, rules, objective=objective, time_limit=opts.time_limit)
    data = _play_data(play)
    plays: tuple[Cards, ...] | None = None
    if opts.all_plays:
        plays = all_best_plays(
            pos.table, pos.hand, rules, objective=objective, time_limit=opts.time_limit, limit=opts.limit
        )
        data["distinct_plays"] = [[c.code for c in p] for p in plays]
    scratch = dict(data)
    if plays is not None and objective == "cards":
        scratch["_plays"] = plays
    mismatch = _mismatch(puzzle, opts, play, scratch) if puzzle.answer else None
    return Outcome(data, _render(puzzle, play, plays), mismatch)
