"""A puzzle as a picture to post: the position, and with ``answer=True`` its solution.

The cards are the web page's drawings (:mod:`solver.svg`). The solution is
the one ``shanghai solve`` gives (:func:`solver.answers.solve_puzzle`):
Manipulation's new table with the played cards framed green, the moved ones
orange and each numbered by the step that moves it; Contract's best lay-down
or lay-off; Zheng Shang You's fewest-plays split, play by play. PNG goes
through resvg (``resvg-py``, its renderer inside the wheel: no browser).

>>> from solver.puzzles import loads
>>> p = loads('game = "manipulation"\\n[position]\\ntable = ["3H 4H 5H 6H", "3C 4C 5C 6C"]\\nhand = "6S KD"')
>>> svg = puzzle_svg(p, answer=True)
>>> svg.count('class="mark-played"'), svg.count('class="mark-moved"')
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.answers import SolveOptions, solve_puzzle
from solver.cards import Card
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition
from solver.svg import Group, sections_svg

__all__ = ["puzzle_svg", "svg_to_png"]

Section = tuple[str, Sequence[Group]]


def puzzle_svg(puzzle: Puzzle, *, answer: bool = False, time_limit: float = 10.0) -> str:
    """The puzzle's position as an SVG picture; with ``answer``, its solution too."""
    pos = puzzle.position
    title = puzzle.title or f"{puzzle.game} puzzle"
    if isinstance(pos, ContractPosition):
        title += f" (round {pos.round})"
    sections: list[Section]
    if isinstance(pos, ManipulationPosition):
        sections = [("table", [m.cards for m in pos.table]), ("hand", [tuple(pos.hand)])]
    elif isinstance(pos, ContractPosition):
        sections = [*_contract_table(pos), ("hand", [tuple(pos.hand)])]
    else:
        sections = _zsy_position(pos)
    notes: list[str] = []
    if answer:
        solved = solve_puzzle(puzzle, SolveOptions(time_limit=time_limit))
        more, notes = _SOLUTIONS[puzzle.game](solved.result)
        sections.extend(more)
    return sections_svg(sections, title=title, notes=notes)


def svg_to_png(svg: str) -> bytes:
    """PNG bytes of an SVG picture (twice its size, for sharp posts)."""
    import resvg_py

    return bytes(resvg_py.svg_to_bytes(svg_string=svg, zoom=2.0))


def _contract_table(pos: ContractPosition) -> list[Section]:
    owners = sorted({t.owner for t in pos.table})
    return [
        ("yours" if owner == 0 else f"player {owner}", [t.meld.cards for t in pos.table if t.owner == owner])
        for owner in owners
    ]


def _zsy_position(pos: ZsyPosition) -> list[Section]:
    out: list[Section] = [("hand", [tuple(pos.hand)])]
    if pos.to_beat is not None:
        out.insert(0, ("to beat", [tuple(pos.to_beat)]))
    return out


def _marked(cards: Sequence[Card], marks: dict[Card, list[tuple[str, int | None]]]) -> Group:
    """The cards of one meld, each copy taking the next mark waiting for its card."""
    out: list[tuple[Card, str | None, int | None]] = []
    for c in cards:
        waiting = marks.get(c)
        mark, badge = waiting.pop(0) if waiting else (None, None)
        out.append((c, mark, badge))
    return out


def _manipulation(result: dict[str, Any]) -> tuple[list[Section], list[str]]:
    play = result["play"]
    waiting: dict[int, dict[Card, list[tuple[str, int | None]]]] = {}
    notes = [f"{len(play.played)} card{'s' if len(play.played) != 1 else ''} played: {play.played}"]
    for n, move in enumerate(play.moves, 1):
        kind = "played" if move.source is None else "moved"
        for c in move.cards:
            waiting.setdefault(move.target, {}).setdefault(c, []).append((kind, n))
        notes.append(f"{n}. {move.text}")
    table = [_marked(m.cards, waiting.get(j, {})) for j, m in enumerate(play.table)]
    return [("answer", table)], notes


def _contract(result: dict[str, Any]) -> tuple[list[Section], list[str]]:
    down, layoff, dist = result.get("down"), result.get("layoff"), result.get("dist")
    if down is not None:
        return [("lay down", [m.cards for m in down.melds])], [f"lay down, {down.points_left} points left in hand"]
    if layoff is not None:
        marks: dict[Card, list[tuple[str, int | None]]] = {c: [("played", None)] * n for c, n in layoff.played.items()}
        for swap in layoff.swaps:
            marks.setdefault(swap.wild, []).insert(0, ("moved", None))
        melds = [_marked(t.meld.cards, marks) for t in layoff.table]
        notes = [f"lay off {layoff.played or 'nothing'} ({layoff.points} points)"]
        notes += [f"swap {swap}" for swap in layoff.swaps]
        return [("lay off", melds)], notes
    if dist is not None:
        return [], [f"the contract is {dist.missing} card(s) away"]
    return [], []


def _zsy(result: dict[str, Any]) -> tuple[list[Section], list[str]]:
    split = result["split"]
    groups: list[Group] = [
        [(c, None, n if i == 0 else None) for i, c in enumerate(combo.cards)] for n, combo in enumerate(split.plays, 1)
    ]
    notes = [f"out in {split.count} play{'s' if split.count != 1 else ''} ({split.status})"]
    notes += [f"{n}. {combo}" for n, combo in enumerate(split.plays, 1)]
    ranked = result.get("ranked") or []
    if result.get("to_beat") is not None and ranked:
        reply, left = ranked[0]
        notes.append(f"best reply: {reply} (then {left} play{'s' if left != 1 else ''} to go out)")
    return [("fewest plays", groups)], notes


_SOLUTIONS = {"manipulation": _manipulation, "contract": _contract, "zsy": _zsy}
