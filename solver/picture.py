"""A puzzle as a picture to post: the position, and with ``answer=True`` its solution named in words.

The cards are the web page's drawings (:mod:`solver.svg`). The solution is
the one ``shanghai solve`` gives (:func:`solver.answers.solve_puzzle`):
Manipulation's new table with the played cards framed green, the moved ones
orange and each numbered by the step that moves it; Contract's lay-off
(the laid-off cards framed, not their twins already on the table; a
swapped wild framed orange), lay-down, or the discard (in a last round
played all at once: the discard framed in the hand, then the melds the
rest makes); a lay-down puzzle's whole-turn plan (the lay-down, the
lay-off after it, the discard) and the lay-down alone it beats; Zheng
Shang You's reply (or pass) and the plays after it, the winning lead of
a two-player endgame and its line, or the fewest-plays split. Every
wild and joker carries a tag with the card it stands for; melds are drawn
in table order, numbered as the answer's words number them; cards of a
combination are drawn by rank. The rules and the difficulty are printed
small at the bottom. PNG goes through resvg (``resvg-py``: no browser).

>>> from solver.puzzles import loads
>>> p = loads('game = "manipulation"\\n[position]\\ntable = ["3H 4H 5H 6H", "3C 4C 5C 6C"]\\nhand = "6S KD"')
>>> svg = puzzle_svg(p, answer=True)
>>> svg.count('class="mark-played"'), svg.count('class="mark-moved"')
(1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from solver.answers import SolveOptions, solve_puzzle
from solver.cards import Card, Cards
from solver.errors import ShanghaiError
from solver.melds import Meld, resolve_roles
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition
from solver.svg import Group, Item, Section, sections_svg

__all__ = ["puzzle_svg", "svg_to_png", "answer_notes", "footer", "footer_lines", "GAME_NAMES"]

GAME_NAMES = {"manipulation": "Manipulation Shanghai", "contract": "Contract Shanghai", "zsy": "Zheng Shang You"}
"""The games' names as printed on a picture."""


def puzzle_svg(puzzle: Puzzle, *, answer: bool = False, time_limit: float = 10.0) -> str:
    """The puzzle's position as an SVG picture; with ``answer``, its solution too."""
    pos = puzzle.position
    sections: list[Section]
    if isinstance(pos, ManipulationPosition):
        sections = [Section("table", [_meld(m, puzzle.rules) for m in pos.table]), Section("hand", [tuple(pos.hand)])]
    elif isinstance(pos, ContractPosition):
        sections = [_contract_table(pos.table, puzzle.rules, "table")] if pos.table else []
        sections.append(Section("hand", [tuple(pos.hand)]))
        if pos.discard is not None:
            sections.append(Section("discard pile", [[pos.discard]]))
    else:
        sections = _zsy_position(pos, puzzle.rules)
    notes: list[str] = []
    if answer:
        solved = solve_puzzle(puzzle, SolveOptions(time_limit=time_limit))
        more, notes = _SOLUTIONS[puzzle.game](puzzle, solved.result)
        sections.extend(more)
    return sections_svg(
        sections, title=puzzle.title or f"{GAME_NAMES[puzzle.game]} puzzle", notes=notes, footer=footer_lines(puzzle)
    )


def answer_notes(puzzle: Puzzle, time_limit: float = 10.0) -> list[str]:
    """The answer in words, as the answer picture writes it below the cards."""
    solved = solve_puzzle(puzzle, SolveOptions(time_limit=time_limit))
    return _SOLUTIONS[puzzle.game](puzzle, solved.result)[1]


def footer(puzzle: Puzzle) -> str:
    """The small print: the game, the round's contract, the rules (preset and changed options), the difficulty."""
    parts = [GAME_NAMES[puzzle.game]]
    pos = puzzle.position
    if isinstance(pos, ContractPosition):
        parts.append(f"round {pos.round}: {puzzle.rules.contract_text(pos.round)}")  # type: ignore[union-attr]
    changed = puzzle.rules.changed()
    rules = ", ".join(f"{k} {v}" for k, v in sorted(changed.items()) if k != "contracts" or isinstance(v, str))
    parts.append(f"rules: {rules or 'default'}")
    level = puzzle.meta.get("difficulty")
    if level:
        score = puzzle.meta.get("score")
        parts.append(f"difficulty: {level}" + (f" (score {score})" if score is not None else ""))
    return " · ".join(parts)


FOOTER_CHARS = 88
"""The longest footer line: what the narrowest picture (``min_width`` 560 of :func:`solver.svg.sections_svg`)
holds at the footer's size, so :func:`solver.svg.wrap` never breaks a line."""


def footer_lines(puzzle: Puzzle) -> list[str]:
    """The footer's parts (:func:`footer`) in lines that fit the narrowest picture, broken only
    between parts: "difficulty: hard (score 9.5)" stays on one line.

    >>> from solver.puzzles import loads
    >>> p = loads('game = "contract"\\n[position]\\nround = 5\\nhand = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH"\\n'
    ...           '[meta]\\ndifficulty = "hard"\\nscore = 9.5\\n')
    >>> footer_lines(p)
    ['Contract Shanghai · round 5: set + run + run · rules: default', 'difficulty: hard (score 9.5)']
    """
    lines: list[str] = []
    for part in footer(puzzle).split(" · "):
        if lines and len(lines[-1]) + 3 + len(part) <= FOOTER_CHARS:
            lines[-1] += " · " + part
        else:
            lines.append(part)
    return lines


FONTS = tuple(str(Path(__file__).parent / "fonts" / f"LiberationSans-{w}.ttf") for w in ("Regular", "Bold"))
"""The pictures' font, shipped with the package (Liberation Sans 1.07, GPL v2 with the font exception,
solver/fonts/LICENSE: the metrics of Arial, which the SVG asks for): a PNG is the same bytes on every machine, whatever fonts it has."""


def svg_to_png(svg: str) -> bytes:
    """PNG bytes of an SVG picture (twice its size, for sharp posts), drawn with :data:`FONTS` only."""
    import resvg_py

    family = "Liberation Sans"
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg,
            zoom=2.0,
            skip_system_fonts=True,
            font_files=list(FONTS),
            font_family=family,
            sans_serif_family=family,
        )
    )


# --- roles and order ---------------------------------------------------------------------


def _discard_framed(hand: Cards, card: Card) -> list[Item]:
    """The hand's cards with the discard framed once (the hand may hold two copies of it)."""
    group: list[Item] = []
    framed = False
    for c in hand:
        here = c == card and not framed
        framed = framed or here
        group.append((c, "played" if here else None, None))
    return group


def _roles(meld: Meld, rules: Any) -> list[str | None]:
    """What each wild of a meld stands for (a set's wild: the rank; a run's: the card), None for naturals."""
    spec = rules.meld_spec
    try:
        kind, stands = resolve_roles(meld, spec)
    except ShanghaiError:
        return [None] * len(meld.cards)
    out: list[str | None] = []
    for c, r in zip(meld.cards, stands):
        if not spec.is_wild(c):
            out.append(None)
        elif kind == "set":
            out.append(r.rank.symbol if r.rank is not None else None)
        else:
            out.append(r.code)
    return out


def _meld(meld: Meld, rules: Any, marks: Sequence[str | None] = ()) -> Group:
    """A meld's cards in their order, each wild tagged with its role, ``marks`` framing some."""
    roles = _roles(meld, rules)
    return [(c, marks[i] if i < len(marks) else None, None, roles[i]) for i, c in enumerate(meld.cards)]


def _owner(owner: int) -> str:
    return "yours" if owner == 0 else f"player {owner}"


def _contract_table(
    table: Sequence[Any], rules: Any, label: str, marks: Sequence[Sequence[str | None]] = ()
) -> Section:
    """The melds in table order, each captioned with its number (as the answer's words count them) and owner."""
    groups = [_meld(t.meld, rules, marks[i] if i < len(marks) else ()) for i, t in enumerate(table)]
    return Section(label, groups, [f"meld {i} · {_owner(t.owner)}" for i, t in enumerate(table)])


def _added(old: Meld, new: Meld) -> list[bool]:
    """Which positions of ``new`` hold cards that were not in ``old``: the old cards still there are
    matched in order, so a laid-off card is told from its twin already on the table."""
    staying = list(old.cards)
    for c in set(old.cards):  # cards that left (a swapped-out wild): drop their last copies
        extra = old.cards.count(c) - new.cards.count(c)
        for _ in range(max(0, extra)):
            del staying[len(staying) - 1 - staying[::-1].index(c)]
    out, k = [], 0
    for c in new.cards:
        if k < len(staying) and staying[k] == c:
            k += 1
            out.append(False)
        else:
            out.append(True)
    if k < len(staying):  # the order changed (a role moved): count by cards instead
        left = list(staying)
        out = []
        for c in new.cards:
            if c in left:
                left.remove(c)
                out.append(False)
            else:
                out.append(True)
    return out


# --- the answers --------------------------------------------------------------------------


def _marked(
    cards: Sequence[Card], marks: dict[Card, list[tuple[str, int | None]]], roles: Sequence[str | None]
) -> Group:
    """The cards of one meld, each copy taking the next mark waiting for its card."""
    out: list[Item] = []
    for i, c in enumerate(cards):
        waiting = marks.get(c)
        mark, badge = waiting.pop(0) if waiting else (None, None)
        out.append((c, mark, badge, roles[i] if i < len(roles) else None))
    return out


def _manipulation(puzzle: Puzzle, result: dict[str, Any]) -> tuple[list[Section], list[str]]:
    play = result["play"]
    waiting: dict[int, dict[Card, list[tuple[str, int | None]]]] = {}
    n_played = len(play.played)
    notes = [f"Answer: play {n_played} card{'s' if n_played != 1 else ''}, {play.played}"]
    for n, move in enumerate(play.moves, 1):
        kind = "played" if move.source is None else "moved"
        for c in move.cards:
            waiting.setdefault(move.target, {}).setdefault(c, []).append((kind, n))
        notes.append(f"{n}. {move.text}")
    table = [_marked(m.cards, waiting.get(j, {}), _roles(m, puzzle.rules)) for j, m in enumerate(play.table)]
    return [Section("answer", table)], notes


def _layoff_marks(table: Sequence[Any], layoff: Any, rules: Any) -> list[list[str | None]]:
    """The frames of a lay-off's new table: the laid-off cards green, a swapped wild orange."""
    marks: list[list[str | None]] = []
    moved_to = {s.to for s in layoff.swaps}
    for i, (old, new) in enumerate(zip(table, layoff.table)):
        row: list[str | None] = []
        for c, is_new in zip(new.meld.cards, _added(old.meld, new.meld)):
            row.append(("moved" if c in rules.wilds and i in moved_to else "played") if is_new else None)
        marks.append(row)
    return marks


def _laydown(puzzle: Puzzle, result: dict[str, Any]) -> tuple[list[Section], list[str]]:
    """A lay-down puzzle: the whole turn's plan (:func:`solver.contract.plan_after_draw`) -- the lay-down,
    the lay-off onto the table and the new melds, the discard -- and the naive order it beats."""
    from solver.contract import after_lay_down, plan_after_draw
    from solver.melds import TableMeld

    pos = puzzle.position
    rules: Any = puzzle.rules
    assert isinstance(pos, ContractPosition)
    plan = plan_after_draw(pos.hand, pos.table, rules, pos.round, seen=pos.dead)
    sections = [Section("lay down", [_meld(m, rules) for m in plan.lay_down])]
    notes = [f"Answer: lay down {' | '.join(map(str, plan.lay_down))}"]
    table = (*pos.table, *(TableMeld(m, 0) for m in plan.lay_down))
    if plan.layoff is not None:
        sections.append(_contract_table(plan.layoff.table, rules, "lay off", _layoff_marks(table, plan.layoff, rules)))
        notes.append(f"then lay off {plan.layoff.played} ({plan.layoff.points} points)")
        notes += [f"swap {swap}" for swap in plan.layoff.swaps]
    if plan.discard is not None:
        notes.append(f"and discard {plan.discard}")
    notes.append("Out: nothing stays in hand." if plan.goes_out else f"{plan.points_left} points stay in hand.")
    down = result.get("down")
    if down is not None and sorted(map(str, down.melds)) != sorted(map(str, plan.lay_down)):
        naive = after_lay_down(pos.hand, down.melds, pos.table, rules)
        notes.append(
            f"Not {' | '.join(map(str, down.melds))}, the lay-down that keeps the fewest points alone:"
            f" after its lay-off {naive.points_left} points stay."
        )
    return sections, notes


def _outs_notes(puzzle: Puzzle) -> list[str]:
    """The last round's two near-contracts: the discard that keeps the most outs, and each discard's outs
    (counted afresh by :func:`solver.generate.contract_proofs.outs_by_discard`)."""
    from solver.generate.contract_proofs import outs_by_discard

    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    outs = outs_by_discard(pos.hand, puzzle.rules, pos.round)  # type: ignore[arg-type]
    ranked = sorted(outs.items(), key=lambda kv: (-kv[1], kv[0].index))
    best, most = ranked[0]
    groups: dict[int, list[str]] = {}
    for card, n in ranked[1:]:
        groups.setdefault(n, []).append(str(card))
    why = "; ".join(f"{' '.join(cards)}: {n}" for n, cards in groups.items())
    return [
        f"Answer: discard {best}: {most} unseen cards would then let the hand go down next turn.",
        f"Outs after each other discard: {why}.",
    ]


def _contract(puzzle: Puzzle, result: dict[str, Any]) -> tuple[list[Section], list[str]]:
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    if puzzle.meta.get("kind") in ("laydown", "outway"):  # the whole turn's plan: lay down, lay off, discard
        return _laydown(puzzle, result)
    if puzzle.meta.get("kind") == "twonear":
        return [], _outs_notes(puzzle)
    down, layoff, dist = result.get("down"), result.get("layoff"), result.get("dist")
    sections: list[Section] = []
    notes: list[str] = []
    table = pos.table
    if down is not None and result.get("whole") and len(down.hand) == 1:
        return _whole(puzzle, pos, down, result.get("discards") or ())
    if down is not None:
        sections.append(Section("lay down", [_meld(m, puzzle.rules) for m in down.melds]))
        notes.append(f"Answer: lay down {' | '.join(map(str, down.melds))} ({down.points_left} points left in hand)")
        from solver.melds import TableMeld

        table = (*table, *(TableMeld(m, 0) for m in down.melds))
    if layoff is not None and (layoff.played or down is None):
        marks = _layoff_marks(table, layoff, puzzle.rules)
        sections.append(_contract_table(layoff.table, puzzle.rules, "lay off", marks))
        notes.append(f"Answer: lay off {layoff.played or 'nothing'} ({layoff.points} points)")
        notes += [f"swap {swap}" for swap in layoff.swaps]
    left = layoff.hand if layoff is not None else (down.hand if down is not None else None)
    if left is not None and (down is not None or pos.laid_down):
        notes.append(_going_out(left))
    if down is None and not pos.laid_down and dist is not None:
        sections_, words = _discard(puzzle, pos)
        sections += sections_
        notes += words
    return sections, notes


def _whole(
    puzzle: Puzzle, pos: ContractPosition, down: Any, discards: Sequence[Card]
) -> tuple[list[Section], list[str]]:
    """The last round played all at once: the discard framed in the hand, and the melds the rest makes."""
    card = next(iter(down.hand))
    group = _discard_framed(pos.hand, card)
    others = [str(c) for c in discards if c != card]
    also = f" (as good: {', '.join(others)})" if others else (" (the only one)" if discards else "")
    notes = [
        f"Answer: discard {card}{also}, and the rest goes down at once: {' | '.join(map(str, down.melds))}",
        "The discard goes out.",
    ]
    sections = [Section("discard", [group]), Section("lay down", [_meld(m, puzzle.rules) for m in down.melds])]
    return sections, notes


def _going_out(left: Cards) -> str:
    if not left:
        return "Nothing stays in hand: out."
    if len(left) == 1:
        return f"Then discard {left} to go out."
    return f"{len(left)} cards stay: {left}; the discard is one of them."


def _discard(puzzle: Puzzle, pos: ContractPosition) -> tuple[list[Section], list[str]]:
    from solver.contract import best_discards, distance_to_contract

    rules: Any = puzzle.rules
    now = distance_to_contract(pos.hand, rules, pos.round, options=False).missing
    ranked = best_discards(pos.hand, rules, pos.round)
    if not ranked:
        return [], [f"The contract is {_cards_away(now)}."]
    card, after = ranked[0]
    ties = [str(c) for c, d in ranked if d == after]
    group = _discard_framed(pos.hand, card)
    words = [f"Answer: discard {card}; the contract is then {_cards_away(after)} (now {now})."]
    if len(ties) > 1:  # a 13-card hand always has a spare card or two: the costliest goes (discard_order)
        others = ", ".join(t for t in ties if t != str(card))
        words.append(f"{others} keep the contract as close, but {card} sheds the most points.")
    return [Section("discard", [group])], words + _why_discard(ranked)


def _cards_away(missing: int) -> str:
    return f"{missing} card{'' if missing == 1 else 's'} away"


def _why_discard(ranked: Sequence[tuple[Card, int]]) -> list[str]:
    """Why that card: the distance to the contract after each candidate discard, grouped by distance
    (the hand's cards in :func:`solver.contract.best_discards` order)."""
    from solver.contract import UNREACHABLE

    by: dict[int, list[str]] = {}
    for c, d in ranked:
        by.setdefault(d, []).append(str(c))
    parts = []
    for d, cards in sorted(by.items()):
        away = "out of reach" if d >= UNREACHABLE else _cards_away(d)
        parts.append(f"{' '.join(cards)}: {away}")
    return [f"Why: after each discard, {'; '.join(parts)}."]


def _zsy_placed(combo: Any) -> list[tuple[Card, int | None]]:
    """The combination's cards by rank, each wild with the value it stands for (None: a natural)."""
    from solver.zsy import is_wild, zsy_value

    cards = sorted(combo.cards, key=lambda c: (zsy_value(c), c.index))
    naturals = [
        zsy_value(c) for c in cards if not is_wild(c) or (zsy_value(c) == combo.top and combo.kind in ("single", "set"))
    ]
    need: list[int] = []
    if combo.kind in ("straight", "parallel"):
        low = combo.top - combo.length + 1
        for v in range(low, combo.top + 1):
            need += [v] * max(0, combo.copies - naturals.count(v))
    elif combo.kind == "set":
        need = [combo.top] * (len(cards) - naturals.count(combo.top))
    placed: list[tuple[Card, int | None]] = []
    fill = iter(need)
    for c in cards:
        natural = not is_wild(c) or (combo.kind in ("single", "set") and zsy_value(c) == combo.top)
        placed.append((c, None if natural else next(fill, None)))
    return placed


def _combo_group(combo: Any, mark: str | None = None, badge: int | None = None) -> Group:
    """A combination's cards by rank, each wild at the rank it stands for (a straight's gap filled
    in place; parallel straights pair by pair: ``6 6 7 2(=7) 8 8``), tagged with its role."""
    from solver.zsy import value_symbol, zsy_value

    placed = sorted(
        _zsy_placed(combo), key=lambda cv: (zsy_value(cv[0]) if cv[1] is None else cv[1], cv[1] is not None)
    )
    return [
        (c, mark, badge if i == 0 else None, None if v is None else value_symbol(v)) for i, (c, v) in enumerate(placed)
    ]


def _zsy_position(pos: ZsyPosition, rules: Any) -> list[Section]:
    from solver.zsy import combo_from_position, zsy_value

    def by_rank(cards: Cards) -> list[Card]:
        return sorted(cards, key=lambda c: (zsy_value(c), c.index))

    out: list[Section] = [Section("hand", [by_rank(pos.hand)])]
    if pos.opponent is not None:
        out.insert(0, Section("opponent", [by_rank(pos.opponent)], ["the last opponent's hand; you lead"]))
    if pos.to_beat is not None:
        group: Group
        try:
            group = _combo_group(combo_from_position(pos.to_beat, pos.to_beat_kind, rules))
        except ShanghaiError:
            group = by_rank(pos.to_beat)
        out.insert(0, Section("to beat", [group]))
    return out


def _zsy(puzzle: Puzzle, result: dict[str, Any]) -> tuple[list[Section], list[str]]:
    from solver.zsy import fewest_plays

    split = result["split"]
    reply = result.get("reply")
    if result.get("endgame") is not None:
        return _endgame(result["endgame"])
    if result.get("to_beat") is None or reply is None:
        groups = [_combo_group(p, None, n) for n, p in enumerate(split.plays, 1)]
        notes = [f"Answer: out in {split.count} play{'s' if split.count != 1 else ''} ({split.status})"]
        notes += [f"{n}. {combo}" for n, combo in enumerate(split.plays, 1)]
        return [Section("fewest plays", groups)], notes
    pos = puzzle.position
    assert isinstance(pos, ZsyPosition)
    if reply.combo is None:
        then = split
        sections = [Section("reply", [])]
        notes = [f"Answer: pass ({reply.reason.removeprefix('pass: ')}); then out in {then.count} plays"]
    else:
        then = fewest_plays(pos.hand - reply.combo.cards, puzzle.rules)  # type: ignore[arg-type]
        sections = [Section("reply", [_combo_group(reply.combo, "played")])]
        notes = [f"Answer: reply {reply.combo}, then out in {then.count} play{'s' if then.count != 1 else ''}"]
    sections.append(Section("then", [_combo_group(p, None, n) for n, p in enumerate(then.plays, 1)]))
    notes += [f"{n}. {combo}" for n, combo in enumerate(then.plays, 1)]
    return sections, notes


def _endgame(endgame: Any) -> tuple[list[Section], list[str]]:
    """The winning lead framed, then the line: each play numbered, captioned by side (passes in words)."""
    if not endgame.winning:
        return [], ["Answer: no lead wins; the opponent goes out first against every lead."]
    lead = endgame.winning[0]
    also = f" (as good: {', '.join(map(str, endgame.winning[1:]))})" if len(endgame.winning) > 1 else ""
    notes = [f"Answer: lead the {lead.describe()} ({lead.text}){also}: it wins however the opponent defends"]
    groups: list[Group] = []
    captions: list[str] = []
    for n, (side, combo) in enumerate(endgame.line, 1):
        words = "pass" if combo is None else f"{combo.describe()} ({combo.text})"
        notes.append(f"{n}. {'you' if side == 'you' else 'opponent'}: {words}")
        if combo is not None:
            groups.append(_combo_group(combo, "played" if n == 1 else None, n))
            captions.append(f"{n} · {'you' if side == 'you' else 'opponent'}")
    return [Section("lead", [groups[0]], [captions[0]]), Section("the line", groups[1:], captions[1:])], notes


_SOLUTIONS = {"manipulation": _manipulation, "contract": _contract, "zsy": _zsy}
