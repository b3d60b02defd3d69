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
from typing import TYPE_CHECKING, Any, Final, Literal

from solver.cards import Card, Cards
from solver.errors import PuzzleError, Status
from solver.melds import TableMeld
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition
from solver.rules import ContractRules, ManipulationRules, ZsyRules

if TYPE_CHECKING:
    from solver.contract import Distance, LayDown, Layoff

__all__ = [
    "Answer",
    "SolveOptions",
    "solve_puzzle",
    "zsy_codes",
    "codes",
    "meld_codes",
    "move_json",
    "endgame_json",
]


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
        answer = _manipulation(puzzle, opts)
    elif isinstance(puzzle.position, ContractPosition):
        answer = _contract(puzzle, opts)
    else:
        answer = _zsy(puzzle, opts)
    return _with_stated(puzzle, answer)


def _with_stated(puzzle: Puzzle, answer: Answer) -> Answer:
    """The answer, its mismatch joined by what is wrong with the file's stated solution
    (:mod:`solver.stated`: replayed by the referees, compared with the optimum)."""
    if not puzzle.answer:
        return answer
    from solver.stated import stated_problem

    problem = stated_problem(puzzle, answer.data)
    if problem is None:
        return answer
    mismatch = "; ".join(m for m in (answer.mismatch, problem) if m)
    return Answer(answer.data, mismatch, answer.result)


# --- the JSON shape (docs/json.md) ---------------------------------------------------------


def codes(cards: Any) -> list[str]:
    """Cards as a list of card codes: the one shape every answer uses for a group of cards."""
    return [c.code for c in cards]


def meld_codes(meld: Any) -> list[str]:
    """A meld as a list of card codes; a wild that stands for a card keeps it (``2S=8H``)."""
    return str(meld).split()


def move_json(move: Any) -> dict[str, Any]:
    """A Manipulation move as data: the cards, where they come from (an old meld's index and cards,
    or ``null`` for the hand) and where they go (a new meld's index and cards)."""
    return {
        "cards": codes(move.cards),
        "from": move.source,
        "from_meld": meld_codes(move.source_meld) if move.source_meld is not None else None,
        "to": move.target,
        "to_meld": meld_codes(move.target_meld),
        "text": move.text,
    }


def _n(count: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


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
        "table": [meld_codes(m) for m in play.table],
        "hand": [c.code for c in play.hand],
        "moves": [move_json(m) for m in play.moves],
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
        problems.append(f"played {_n(by_cards.cards, 'card')}, the answer says {answer['played']}")
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
            problems.append(f"{_n(len(plays), 'distinct best play')}, the answer says {answer['distinct_plays']}")
    return "; ".join(problems) or None


# --- Contract Shanghai -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _ContractSolution:
    """The solver's answers for one contract position, before they become data."""

    down: LayDown | None
    dist: Distance | None
    layoff: Layoff | None
    whole: bool
    can_go_out: bool
    status: str
    discards: tuple[Card, ...] | None = None
    """In a last round played all at once: the cards whose discard lets the rest go down (None otherwise)."""


def _contract(puzzle: Puzzle, opts: SolveOptions) -> Answer:
    pos = puzzle.position
    rules = puzzle.rules
    if not isinstance(pos, ContractPosition) or not isinstance(rules, ContractRules):
        raise PuzzleError(f"{puzzle.name}: not a contract position")
    from solver.contract.advice import position_decision, turn_data

    sol = _solve_contract(pos, rules, opts)
    turn = position_decision(pos, rules, opts.time_limit)
    data = {**_contract_data(pos, rules, sol), "turn": turn_data(turn)}
    mismatch = (
        _contract_mismatch(puzzle.answer, {**data, **_plan_points(puzzle, pos, rules, opts, data["turn"])})
        if puzzle.answer
        else None
    )
    result = {
        "down": sol.down,
        "dist": sol.dist,
        "layoff": sol.layoff,
        "whole": sol.whole,
        "discards": sol.discards,
        "turn": turn,
    }
    return Answer(data, mismatch, result)


def _plan_points(
    puzzle: Puzzle, pos: ContractPosition, rules: ContractRules, opts: SolveOptions, turn: dict[str, Any]
) -> dict[str, Any]:
    """The whole-turn plan's points left (:func:`solver.contract.plan_after_draw`), when the file's
    [answer] asks for them (``plan_points_left``: a lay-down puzzle's end of turn). Without a discard on
    offer that is the ``turn``'s own plan; with one, the plan for the hand without it."""
    if "plan_points_left" not in puzzle.answer:
        return {}
    if pos.discard is None:
        return {"plan_points_left": turn["points_left"]}
    from solver.contract import plan_after_draw

    after = plan_after_draw(
        pos.hand, pos.table, rules, pos.round, laid_down=pos.laid_down, seen=pos.dead, time_limit=opts.time_limit
    )
    return {"plan_points_left": after.points_left}


def _seen_cards(pos: ContractPosition) -> Cards:
    """The cards outside the hand in view: the table, the dead cards and the discard."""
    seen = Cards(c for t in pos.table for c in t.meld.cards) + pos.dead
    if pos.discard is not None:
        seen = seen + Cards([pos.discard])
    return seen


def _solve_contract(pos: ContractPosition, rules: ContractRules, opts: SolveOptions) -> _ContractSolution:
    """Ask the questions: the best lay-down and the distance (before laying down), the best lay-off."""
    from solver.contract import best_lay_down, best_layoff, distance_to_contract, whole_discards

    objective: Literal["points", "cards"] = "points" if opts.objective == "value" else "cards"
    limit = opts.time_limit
    hand = pos.hand
    table = pos.table
    seen = _seen_cards(pos)
    whole = pos.round == rules.rounds and rules.last_round_all_at_once
    down: LayDown | None = None
    dist: Distance | None = None
    layoff: Layoff | None = None
    statuses: list[Status] = []
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
    # a proven "there is none" (the contract cannot be made) is as exact as an optimum
    exact = all(s in (Status.OPTIMAL, Status.INFEASIBLE) for s in statuses)
    status = str(Status.OPTIMAL if exact else Status.FEASIBLE)
    can_go_out = _can_go_out(pos.laid_down, down, layoff)
    discards = None
    if whole and not pos.laid_down:
        discards = whole_discards(hand, rules, pos.round, time_limit=limit) if down is not None else ()
    return _ContractSolution(down, dist, layoff, whole, can_go_out, status, discards)


def _can_go_out(laid_down: bool, down: LayDown | None, layoff: Layoff | None) -> bool:
    """Whether the hand can be emptied this turn (but for the final discard)."""
    if laid_down:
        return layoff.can_go_out if layoff is not None else True
    if down is None:
        return False
    return len(down.hand) <= 1 or (layoff is not None and layoff.can_go_out)


def _layoff_data(layoff: Layoff | None) -> dict[str, Any] | None:
    """The lay-off as data: the cards played, their count and points, the hand left and the new table."""
    if layoff is None:
        return None
    return {
        "played": codes(layoff.played),
        "cards": len(layoff.played),
        "points": layoff.points,
        "hand": codes(layoff.hand),
        "table": [{"cards": meld_codes(t.meld), "owner": t.owner} for t in layoff.table],
    }


def _contract_data(pos: ContractPosition, rules: ContractRules, sol: _ContractSolution) -> dict[str, Any]:
    """The answer's JSON data (docs/json.md)."""
    down, dist, layoff = sol.down, sol.dist, sol.layoff
    data: dict[str, Any] = {
        "round": pos.round,
        "contract": rules.contract_text(pos.round),
        "can_lay_down": None if pos.laid_down else down is not None,
        "lay_down": [meld_codes(m) for m in down.melds] if down else None,
        "points_left": down.points_left if down else None,
        "distance": None
        if dist is None
        else {"missing": dist.missing, "options": codes(dist.options), "completion": codes(dist.completion)},
        "missing": dist.missing if dist is not None else None,
        "layoff": _layoff_data(layoff),
        "swaps": [{"card": str(s.card), "meld": s.meld, "wild": str(s.wild), "to": s.to} for s in layoff.swaps]
        if layoff
        else [],
        "can_go_out": sol.can_go_out,
        "status": sol.status,
        # with a discard on offer the keys above are for the hand without it; the turn is the verdict
        "without_discard": pos.discard is not None,
    }
    if sol.whole:
        data["whole_hand"] = True
    if sol.discards is not None:
        data["whole_discards"] = codes(sol.discards)
    return data


def _contract_mismatch(answer: dict[str, Any], data: dict[str, Any]) -> str | None:
    """Compare the data with the file's [answer]: every key it gives."""
    layoff_data = data["layoff"]
    got: dict[str, Any] = {
        "can_lay_down": data["can_lay_down"],
        "points_left": data["points_left"],
        "distance": data["missing"],
        "layoff": layoff_data["cards"] if layoff_data else 0,
        "layoff_points": layoff_data["points"] if layoff_data else 0,
        "can_go_out": data["can_go_out"],
        "swaps": len(data["swaps"]),
        "discard": " ".join(data.get("whole_discards", [])),
        "plan_points_left": data.get("plan_points_left"),
    }
    wrong = [f"{k}: expected {v!r}, got {got[k]!r}" for k, v in answer.items() if got.get(k) != v]
    return "; ".join(wrong) or None


# --- Zheng Shang You -----------------------------------------------------------------------


def zsy_codes(cards: Cards) -> list[str]:
    """Card codes in ZSY order (low to high)."""
    from solver.zsy import zsy_value

    return [c.code for c in sorted(cards, key=lambda c: (zsy_value(c), c.index))]


ZSY_LISTED: Final = 2_000
"""The most Zheng Shang You moves listed and scored (a dense hand has millions; the rest are counted)."""


@dataclass(frozen=True, slots=True)
class _Listing:
    """Moves taken from the lazy generator: the first ``ZSY_LISTED``, how many in all, and whether all were seen."""

    moves: tuple[Any, ...]
    count: int
    exact: bool


def _zsy_listing(hand: Cards, to_beat: Any, rules: ZsyRules, deadline: float) -> _Listing:
    """List the first moves and count the rest until ``deadline`` (then the count is a lower bound)."""
    from solver.cpsat import stopped
    from solver.zsy import iter_moves

    moves: list[Any] = []
    count = 0
    for move in iter_moves(hand, to_beat, rules):
        count += 1
        if count <= ZSY_LISTED:
            moves.append(move)
        if count & 1023 == 0 and (time.perf_counter() > deadline or stopped()):
            return _Listing(tuple(moves), count, False)
    return _Listing(tuple(moves), count, True)


def _zsy(puzzle: Puzzle, opts: SolveOptions) -> Answer:
    """Moves best first and the fewest-plays split, every stage within the time limit.

    Stages: the split (half the time); the moves, listed up to ``ZSY_LISTED``
    and counted until three quarters of the time; for a lead, the split's
    plays join the listing (each leaves the fewest plays possible); then the
    plays left after each listed move, until the limit.
    """
    from solver.zsy import combo_from_position, fewest_plays, plays_after
    from solver.zsy.endgame import solve_lead
    from solver.zsy.reply import decide, reply_order

    pos = puzzle.position
    rules = puzzle.rules
    assert isinstance(pos, ZsyPosition) and isinstance(rules, ZsyRules)
    start = time.perf_counter()
    deadline = start + opts.time_limit
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, rules) if pos.to_beat is not None else None
    split = fewest_plays(pos.hand, rules, time_limit=opts.time_limit / 2)
    listing = _zsy_listing(pos.hand, to_beat, rules, start + opts.time_limit * 0.75)
    moves = listing.moves
    if to_beat is None and not listing.exact:
        moves += tuple(p for p in split.plays if p not in set(moves))
    count = max(listing.count, len(moves))
    leads: _Listing | None = listing if to_beat is None else None
    if to_beat is not None and "leads" in puzzle.answer:
        leads = _zsy_listing(pos.hand, None, rules, start + opts.time_limit * 0.75)
    left, ranked_status = plays_after(pos.hand, moves, rules, time_limit=max(0.01, deadline - time.perf_counter()))
    ranked = sorted(zip(moves, left), key=lambda ml: reply_order(*ml))  # wilds are spent last
    proven = split.status == "optimal" and ranked_status == "optimal" and listing.exact
    data: dict[str, Any] = {
        "moves": [{"cards": zsy_codes(m.cards), "kind": m.kind, "plays_left": n} for m, n in ranked],
        "move_count": count,
        "move_count_exact": listing.exact,
        "fewest_plays": split.count,
        "split": [zsy_codes(p.cards) for p in split.plays],
        "status": "optimal" if proven else "feasible",
    }
    if leads is not None:
        data["leads"] = max(leads.count, count if to_beat is None else 0)
        data["leads_exact"] = leads.exact
    reply = decide(split.count, ranked, can_pass=to_beat is not None, to_beat=to_beat)
    if to_beat is not None:
        data["to_beat"] = {"cards": zsy_codes(to_beat.cards), "kind": to_beat.kind}
        data["reply"] = {
            "cards": zsy_codes(reply.combo.cards) if reply.combo is not None else None,
            "plays_left": reply.after,
            "reason": reply.reason,
        }
    endgame = None
    if pos.opponent is not None:
        endgame = solve_lead(pos.hand, pos.opponent, rules, time_limit=opts.time_limit)  # its own time limit
        data["endgame"] = endgame_json(pos.opponent, endgame)
    found = {"fewest_plays": split.count, "moves": count, "leads": data.get("leads")}
    if endgame is not None:
        found["winning_leads"] = len(endgame.winning)
    wrong = [f"{k} {found[k]} != {v}" for k, v in puzzle.answer.items() if k in found and found[k] != v]
    result = {"to_beat": to_beat, "ranked": ranked, "split": split, "leads": data.get("leads"), "listing": listing}
    result["reply"] = reply
    result["endgame"] = endgame
    return Answer(data, "; ".join(wrong) or None, result)


def endgame_json(opponent: Cards, endgame: Any) -> dict[str, Any]:
    """A two-player endgame's answer as data (docs/json.md): the opponent's hand, the winning leads,
    how many leads there are, the line (each step ``{"side", "cards", "kind"}``, a pass with
    ``cards`` and ``kind`` null) and the positions searched."""

    def combo(m: Any) -> dict[str, Any]:
        return {"cards": zsy_codes(m.cards), "kind": m.kind}

    return {
        "opponent": zsy_codes(opponent),
        "winning": [combo(m) for m in endgame.winning],
        "lead_count": len(endgame.leads),
        "line": [
            {"side": side, "cards": None, "kind": None} if m is None else {"side": side, **combo(m)}
            for side, m in endgame.line
        ],
        "nodes": endgame.nodes,
    }
