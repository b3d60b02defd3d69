"""Answers to puzzle positions as plain data: what ``shanghai solve --json`` prints.

One function per game turns a :class:`~solver.puzzles.Puzzle` into an
:class:`Answer`: JSON-able data, the comparison with the file's
``[answer]``, and the solver results behind the data (for renderers). The
CLI and the engine protocol both call :func:`solve_puzzle`, so the two can
never disagree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

from solver.cards import Cards
from solver.errors import PuzzleError
from solver.melds import TableMeld
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition
from solver.rules import ContractRules, ManipulationRules, ZsyRules

__all__ = ["Answer", "SolveOptions", "solve_puzzle", "zsy_codes"]


@dataclass(frozen=True, slots=True)
class SolveOptions:
    """Options of ``shanghai solve`` shared by the games.

    ``objective``: manipulation ``cards`` or ``value``; contract lay-off
    ``cards`` or ``value`` (points). ``limit`` caps ``--all`` and listings.
    """

    objective: str = "cards"
    time_limit: float = 10.0
    all_plays: bool = False
    limit: int = 20


@dataclass(frozen=True, slots=True)
class Answer:
    """One puzzle's answer: ``data`` (JSON-able), ``mismatch`` against the file's
    ``[answer]`` (None when it agrees or there is none), ``result`` (solver objects)."""

    data: dict[str, Any]
    mismatch: str | None = None
    result: dict[str, Any] = field(default_factory=dict)


def solve_puzzle(puzzle: Puzzle, opts: SolveOptions | None = None) -> Answer:
    """Answer every question of the puzzle's position."""
    opts = opts or SolveOptions()
    if isinstance(puzzle.position, ManipulationPosition):
        return _manipulation(puzzle, opts)
    if isinstance(puzzle.position, ContractPosition):
        return _contract(puzzle, opts)
    return _zsy(puzzle, opts)


# --- Manipulation Shanghai ---------------------------------------------------------------


def _manipulation(puzzle: Puzzle, opts: SolveOptions) -> Answer:
    from solver.manipulation import all_best_plays, best_play

    pos = puzzle.position
    rules = puzzle.rules
    assert isinstance(pos, ManipulationPosition) and isinstance(rules, ManipulationRules)
    objective: Literal["cards", "value"] = "value" if opts.objective == "value" else "cards"
    play = best_play(pos.table, pos.hand, rules, objective=objective, time_limit=opts.time_limit)
    data: dict[str, Any] = {
        "status": str(play.status),
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
    plays: tuple[Cards, ...] | None = None
    if opts.all_plays:
        plays = all_best_plays(
            pos.table, pos.hand, rules, objective=objective, time_limit=opts.time_limit, limit=opts.limit
        )
        data["distinct_plays"] = [[c.code for c in p] for p in plays]
    mismatch = None
    if puzzle.answer:
        mismatch = _manipulation_mismatch(puzzle, opts, play, plays if objective == "cards" else None)
    return Answer(data, mismatch, {"play": play, "plays": plays})


def _manipulation_mismatch(
    puzzle: Puzzle, opts: SolveOptions, play: Any, plays: tuple[Cards, ...] | None
) -> str | None:
    """Compare with the file's [answer]: played (count), value, cards, distinct_plays."""
    from solver.manipulation import all_best_plays, best_play

    answer = puzzle.answer
    pos = puzzle.position
    rules = puzzle.rules
    assert isinstance(pos, ManipulationPosition) and isinstance(rules, ManipulationRules)
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
        if plays is None:
            plays = all_best_plays(pos.table, pos.hand, rules, time_limit=opts.time_limit, limit=opts.limit)
        if "cards" in answer:
            want = Cards.parse(str(answer["cards"]))
            if want not in plays:
                problems.append(f"{want} is not among the best plays ({', '.join(map(str, plays)) or 'none'})")
        if "distinct_plays" in answer and len(plays) != answer["distinct_plays"]:
            problems.append(f"{len(plays)} distinct best plays, the answer says {answer['distinct_plays']}")
    return "; ".join(problems) or None


# --- Contract Shanghai -----------------------------------------------------------------


def _contract(puzzle: Puzzle, opts: SolveOptions) -> Answer:
    from solver.contract import Distance, LayDown, Layoff, best_lay_down, best_layoff, distance_to_contract

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
    layoff_data = None
    if layoff is not None:
        layoff_data = {
            "played": str(layoff.played),
            "cards": len(layoff.played),
            "points": layoff.points,
            "hand": str(layoff.hand),
            "table": [{"cards": str(t.meld), "owner": t.owner} for t in layoff.table],
        }
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
        "layoff": layoff_data,
        "swaps": [{"card": str(s.card), "meld": s.meld, "wild": str(s.wild), "to": s.to} for s in layoff.swaps]
        if layoff
        else [],
        "can_go_out": can_go_out,
        "status": status,
    }
    if whole:
        data["whole_hand"] = True
    mismatch = None
    if puzzle.answer:
        got: dict[str, Any] = {
            "can_lay_down": data["can_lay_down"],
            "points_left": data["points_left"],
            "distance": data["missing"],
            "layoff": layoff_data["cards"] if layoff_data else 0,
            "layoff_points": layoff_data["points"] if layoff_data else 0,
            "can_go_out": can_go_out,
            "swaps": len(data["swaps"]),
        }
        wrong = [f"{k}: expected {v!r}, got {got[k]!r}" for k, v in puzzle.answer.items() if got.get(k) != v]
        mismatch = "; ".join(wrong) or None
    return Answer(data, mismatch, {"down": down, "dist": dist, "layoff": layoff, "whole": whole})


# --- Zheng Shang You -----------------------------------------------------------------------

_TWO = 15  # ZSY value of a 2; 2s and jokers are the wild cards, spent last


def zsy_codes(cards: Cards) -> list[str]:
    """Card codes in ZSY order (low to high)."""
    from solver.zsy import zsy_value

    return [c.code for c in sorted(cards, key=lambda c: (zsy_value(c), c.index))]


def _zsy(puzzle: Puzzle, opts: SolveOptions) -> Answer:
    from solver.zsy import combo_from_position, fewest_plays, legal_moves, plays_after, zsy_value

    pos = puzzle.position
    rules = puzzle.rules
    assert isinstance(pos, ZsyPosition) and isinstance(rules, ZsyRules)
    deadline = time.perf_counter() + opts.time_limit
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, rules) if pos.to_beat is not None else None
    moves = legal_moves(pos.hand, to_beat, rules)
    want_leads = to_beat is None or "leads" in puzzle.answer
    leads = len(moves) if to_beat is None else (len(legal_moves(pos.hand, None, rules)) if want_leads else None)
    split = fewest_plays(pos.hand, rules, time_limit=max(0.01, deadline - time.perf_counter()))
    left, ranked_status = plays_after(pos.hand, moves, rules, time_limit=max(0.01, deadline - time.perf_counter()))
    wilds = [sum(1 for c in m.cards if zsy_value(c) >= _TWO) for m in moves]
    order = sorted(range(len(moves)), key=lambda i: (left[i], wilds[i], moves[i].top, -moves[i].size, str(moves[i])))
    ranked = [(moves[i], left[i]) for i in order]
    status = "optimal" if split.status == "optimal" and ranked_status == "optimal" else "feasible"
    data: dict[str, Any] = {
        "moves": [{"cards": zsy_codes(m.cards), "kind": m.kind} for m, _ in ranked],
        "fewest_plays": split.count,
        "split": [zsy_codes(p.cards) for p in split.plays],
        "status": status,
    }
    if leads is not None:
        data["leads"] = leads
    if to_beat is not None:
        data["to_beat"] = {"cards": zsy_codes(to_beat.cards), "kind": to_beat.kind}
    found = {"fewest_plays": split.count, "moves": len(moves), "leads": leads}
    wrong = [f"{k} {found[k]} != {v}" for k, v in puzzle.answer.items() if k in found and found[k] != v]
    return Answer(
        data, "; ".join(wrong) or None, {"to_beat": to_beat, "ranked": ranked, "split": split, "leads": leads}
    )
