"""Models of a human solver, and the share of each that misses a puzzle, by game and level.

A level is defined by which of these models miss it (the ladder,
:mod:`solver.generate.ladder`): the generator keeps a candidate at a level
only when the level's models miss it and the others find it. The models,
from weakest:

- ``greedy``: the engine's greedy player put into the position (plays what
  fits without rearranging; lays off what fits; leads the biggest
  combination, replies with the cheapest).
- ``shallow-1``, ``shallow-2`` (Manipulation): a search that lifts up to 1
  or 2 table cards off (a run's end, a card of a set of four, a split) and
  then plays greedily (:func:`solver.generate.shallow.shallow_play`).
- ``glance``: the exact search, but looking only at part of the table: the
  melds a hand card fits as it stands (Manipulation, Contract lay-offs); for
  a discard (and the last round's whole-hand discard), the rule "discard a
  lone card, the costliest"; in Zheng Shang You, counting only sets (a
  hand's plays are its ranks), blind to straights; for a two-player lead, a
  one-ply look: lead the biggest combination the opponent cannot beat (else
  the biggest).
- ``no-swap`` (Contract lay-offs): the exact lay-off without wild swaps (a
  discard and the whole hand have no swap to make: the greedy player).
- ``one-look`` (Contract): a player who looks once
  (:func:`solver.generate.contract_looks.one_look`): one distance search and
  the costliest card it leaves out; the cards that fit the table as it
  stands, in one pass; the best lay-down alone.
- ``solver``: the engine's solver player (the strongest model; it should
  find nearly every answer).

``python -m solver.generate.calibrate`` prints, for the puzzles under a
folder (default ``puzzles/generated``) or freshly generated ones
(``--fresh N``, ``--question KIND`` for one kind), the share of each model that misses, per game and level
(docs/generate.md has the table and how it was made).
"""

from __future__ import annotations

import argparse
import contextlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from solver.cards import Card, Cards
from solver.generate.contract_looks import diversity, hand_size_counts, one_look
from solver.generate.contract_models import finds as depth_finds
from solver.generate.contract_proofs import DEPTH_KINDS
from solver.generate.difficulty import LEVELS, SOLVE_SECONDS
from solver.generate.ladder import kinds_at
from solver.generate.players import finds_answer
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition, iter_puzzle_paths, load

__all__ = ["MODELS", "misses", "shares", "features_by_level", "main"]


def _touches(card: Card, cards: Sequence[Card]) -> bool:
    """``card`` fits beside one of ``cards`` at a glance: the same rank, or the next rank of the same suit."""
    for c in cards:
        if c.rank is None or card.rank is None:
            return True
        if c.rank == card.rank or (c.suit == card.suit and abs(int(c.rank) - int(card.rank)) in (1, 12)):
            return True
    return False


def _glance_manipulation(p: Puzzle) -> bool:
    from solver.manipulation import best_play

    pos = p.position
    assert isinstance(pos, ManipulationPosition)
    seen = tuple(m for m in pos.table if any(_touches(c, m.cards) for c in pos.hand))
    play = best_play(seen, pos.hand, p.rules, time_limit=SOLVE_SECONDS, least_change=False)  # type: ignore[arg-type]
    return bool(play.cards >= p.answer["played"])


def _shallow(depth: int) -> Callable[[Puzzle], bool]:
    def finds(p: Puzzle) -> bool:
        from solver.generate.shallow import shallow_play

        pos = p.position
        assert isinstance(pos, ManipulationPosition)
        rules: Any = p.rules
        return bool(len(shallow_play(pos.table, pos.hand, rules, depth)) >= p.answer["played"])

    return finds


def _layoff_cards(p: Puzzle, table: Any, rules: Any) -> int:
    from solver.contract import best_layoff

    pos = p.position
    assert isinstance(pos, ContractPosition)
    return len(best_layoff(pos.hand, table, rules, player=0, objective="cards", time_limit=SOLVE_SECONDS).played)


def _plan_grouping(p: Puzzle, table: Any, rules: Any) -> bool:
    """A lay-down puzzle: does the whole-turn plan against ``table`` under ``rules`` lay down the answer's grouping?"""
    from solver.contract import plan_after_draw
    from solver.generate.contract import grouping
    from solver.melds import Meld

    pos = p.position
    assert isinstance(pos, ContractPosition)
    plan = plan_after_draw(pos.hand, table, rules, pos.round, time_limit=SOLVE_SECONDS)
    return grouping(plan.lay_down) == grouping([Meld.parse(m) for m in p.meta["solution"]])


def _glance_contract(p: Puzzle) -> bool:
    pos = p.position
    assert isinstance(pos, ContractPosition)
    if p.meta.get("kind") == "laydown":  # the plan against the melds the hand touches only
        seen = tuple(t for t in pos.table if any(_touches(c, t.meld.cards) for c in pos.hand))
        return _plan_grouping(p, seen, p.rules)
    if p.meta.get("kind") in ("discard", "whole"):
        hand = list(pos.hand)
        lone = [c for i, c in enumerate(hand) if not _touches(c, hand[:i] + hand[i + 1 :])]
        pick = max(lone or hand, key=lambda c: (p.rules.points(c), c.index))  # type: ignore[union-attr]
        return bool(str(pick) == p.meta["solution"])
    seen = tuple(t for t in pos.table if any(_touches(c, t.meld.cards) for c in pos.hand))
    return bool(_layoff_cards(p, seen, p.rules) >= p.answer["layoff"])


def _no_swap(p: Puzzle) -> bool:
    from dataclasses import replace

    pos = p.position
    assert isinstance(pos, ContractPosition)
    if p.meta.get("kind") in ("discard", "whole"):
        return finds_answer("greedy", p)
    rules: Any = p.rules
    if p.meta.get("kind") == "laydown":  # the plan with no wild swaps
        return _plan_grouping(p, pos.table, replace(rules, wild_swap=False))
    return bool(_layoff_cards(p, pos.table, replace(rules, wild_swap=False)) >= p.answer["layoff"])


def _sets_only(hand: Cards) -> int:
    """A hand's plays counted by a player blind to straights: one set per rank (wilds join one)."""
    from solver.zsy import is_wild, zsy_value

    ranks = {zsy_value(c) for c in hand if not is_wild(c)}
    return len(ranks) or (1 if hand else 0)


def _glance_zsy(p: Puzzle) -> bool:
    from solver.zsy import combo_from_position, is_wild, legal_moves

    pos = p.position
    assert isinstance(pos, ZsyPosition)
    if pos.opponent is not None:
        return _glance_lead(p)
    if pos.to_beat is None:
        return bool(_sets_only(pos.hand) == p.answer["fewest_plays"])
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, p.rules)  # type: ignore[arg-type]
    moves = legal_moves(pos.hand, to_beat, p.rules)  # type: ignore[arg-type]
    if not moves:
        return p.meta.get("solution") == "pass"
    best = min(moves, key=lambda m: (_sets_only(pos.hand - m.cards), sum(map(is_wild, m.cards)), m.top))
    solution = str(p.meta.get("solution", ""))
    if _sets_only(pos.hand - best.cards) >= _sets_only(pos.hand):
        return solution == "pass"
    return solution != "pass" and best.cards == Cards.parse(solution)


def _glance_lead(p: Puzzle) -> bool:
    """A one-ply look at a two-player endgame: the biggest lead the opponent cannot beat (most cards,
    then the lowest top), else the biggest lead."""
    from solver.zsy import Combo, legal_moves

    pos = p.position
    assert isinstance(pos, ZsyPosition) and pos.opponent is not None
    rules: Any = p.rules
    leads = legal_moves(pos.hand, None, rules)
    safe = [m for m in leads if not legal_moves(pos.opponent, m, rules)]
    pick = min(safe or leads, key=lambda m: (-m.size, m.top, str(m)))
    return pick == Combo.parse(str(p.meta["solution"]), rules)


def _engine(kind: str) -> Callable[[Puzzle], bool]:
    return lambda p: finds_answer(kind, p)


def _depth(name: str, base: Callable[[Puzzle], bool]) -> Callable[[Puzzle], bool]:
    """Model ``name``: the questions with depth (``outway``, ``twonear``) asked of
    :func:`solver.generate.contract_models.finds`, every other puzzle of ``base``."""
    return lambda p: depth_finds(name, p) if p.meta.get("kind") in DEPTH_KINDS else base(p)


MODELS: dict[str, dict[str, Callable[[Puzzle], bool]]] = {
    "manipulation": {
        "greedy": _engine("greedy"),
        "shallow-1": _shallow(1),
        "shallow-2": _shallow(2),
        "glance": _glance_manipulation,
        "solver": _engine("solver"),
    },
    "contract": {
        "greedy": _depth("greedy", _engine("greedy")),
        "no-swap": _depth("no-swap", _no_swap),
        "glance": _depth("glance", _glance_contract),
        "one-look": _depth("one-look", one_look),
        "solver": _depth("solver", _engine("solver")),
    },
    "zsy": {"greedy": _engine("greedy"), "glance": _glance_zsy, "solver": _engine("solver")},
}
"""Per game, each model's test: does it find the puzzle's answer?"""


def misses(puzzle: Puzzle) -> dict[str, bool]:
    """For each model of the puzzle's game: True when it misses the answer."""
    return {name: not finds(puzzle) for name, finds in MODELS[puzzle.game].items()}


def shares(
    puzzles: Sequence[Puzzle], *, by_kind: bool = False, missed: Sequence[dict[str, bool]] | None = None
) -> dict[tuple[str, ...], tuple[int, dict[str, float]]]:
    """Per (game, level), or (game, level, kind) with ``by_kind``: the number of puzzles and the share
    of each model that misses them. ``missed`` gives each puzzle's :func:`misses` when already asked."""
    out: dict[tuple[str, ...], tuple[int, dict[str, float]]] = {}
    groups: dict[tuple[str, ...], list[dict[str, bool]]] = {}
    for p, m in zip(puzzles, missed if missed is not None else map(misses, puzzles)):
        key: tuple[str, ...] = (p.game, str(p.meta.get("difficulty")))
        if by_kind:
            key += (str(p.meta.get("kind", "play")),)
        groups.setdefault(key, []).append(m)
    for key, group in groups.items():
        counts: dict[str, int] = {}
        for m in group:
            for name, miss in m.items():
                counts[name] = counts.get(name, 0) + miss
        out[key] = (len(group), {name: n / len(group) for name, n in counts.items()})
    return out


def features_by_level(puzzles: Sequence[Puzzle]) -> dict[tuple[str, str], dict[str, str]]:
    """Per (game, level): each numeric feature's mean, and how many puzzles ask for each idea."""
    groups: dict[tuple[str, str], list[Puzzle]] = {}
    for p in puzzles:
        groups.setdefault((p.game, str(p.meta.get("difficulty"))), []).append(p)
    out: dict[tuple[str, str], dict[str, str]] = {}
    for key, group in groups.items():
        feats = [p.meta.get("features", {}) for p in group]
        names = list(dict.fromkeys(k for f in feats for k, v in f.items() if isinstance(v, int)))
        row = {k: f"{sum(int(f.get(k, 0)) for f in feats) / len(feats):.1f}" for k in names}
        ideas: dict[str, int] = {}
        for f in feats:
            ideas[str(f.get("idea", "?"))] = ideas.get(str(f.get("idea", "?")), 0) + 1
        row["ideas"] = "; ".join(f"{idea} ({n})" for idea, n in ideas.items())
        out[key] = row
    return out


class _Enough(Exception):
    """Raised from the progress callback when a cell's time is up."""


def _fresh(game: str, level: str, count: int, seed: int, seconds: float, question: str | None = None) -> list[Puzzle]:
    """Up to ``count`` fresh puzzles, the first ones of ``generate``'s order (of one ``question``
    when given), within about ``seconds``."""
    from solver.generate import generate

    found: list[Puzzle] = []
    end = time.perf_counter() + seconds

    def keep(p: Puzzle) -> None:
        found.append(p)
        if time.perf_counter() > end:
            raise _Enough

    with contextlib.suppress(_Enough):
        generate(game, level, count, seed, progress=keep, question=question)
    return found


def _save(puzzles: Sequence[Puzzle], folder: Path, seed: int) -> None:
    """Write ``puzzles`` to ``folder/<game>/<level>-<kind>-s<seed>-<NNN>.toml`` (the seed keeps runs apart)."""
    from solver.puzzles import dumps

    counts: dict[tuple[str, str], int] = {}
    for p in puzzles:
        level, kind = str(p.meta.get("difficulty")), str(p.meta.get("kind", "play"))
        n = counts[(p.game, level)] = counts.get((p.game, level), 0) + 1
        path = folder / p.game / f"{level}-{kind}-s{seed}-{n:03d}.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(dumps(p), encoding="utf-8")


def _cells(share: dict[str, float]) -> str:
    return ", ".join(f"{name} {100 * s:.0f}%" for name, s in share.items())


def main(argv: list[str] | None = None) -> None:
    """Print the table of misses (Markdown) for a folder of puzzles or fresh ones."""
    parser = argparse.ArgumentParser(prog="python -m solver.generate.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--dir", type=Path, default=Path("puzzles/generated"))
    parser.add_argument("--fresh", type=int, default=0, help="generate N a level and game instead of reading --dir")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--games", default="manipulation,contract,zsy")
    parser.add_argument("--levels", default=",".join(LEVELS))
    parser.add_argument("--seconds", type=float, default=float("inf"), help="stop a fresh cell after about S s")
    parser.add_argument("--question", help="fresh puzzles of this kind only (zsy leads: --question lead)")
    parser.add_argument(
        "--save", type=Path, help="write the fresh puzzles to DIR/<game>/ (so runs can be pooled with --dir)"
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    games = args.games.split(",")
    levels = args.levels.split(",")
    if args.fresh:
        asked = [(g, lv) for g in games for lv in levels if args.question is None or args.question in kinds_at(g, lv)]
        puzzles = [p for g, lv in asked for p in _fresh(g, lv, args.fresh, args.seed, args.seconds, args.question)]
        if args.save is not None:
            _save(puzzles, args.save, args.seed)
    else:
        puzzles = [p for p in map(load, iter_puzzle_paths(args.dir)) if p.game in games and p.meta.get("difficulty")]
    missed = [misses(p) for p in puzzles]
    table = shares(puzzles, missed=missed)
    print("| game | level | puzzles | missed by |")
    print("|---|---|---|---|")
    for game in games:
        for level in LEVELS:
            if (game, level) not in table:
                continue
            n, share = table[(game, level)]
            print(f"| {game} | {level} | {n} | {_cells(share)} |")
    by_kind = shares(puzzles, by_kind=True, missed=missed)
    print("\n| game | level | kind | puzzles | missed by |")
    print("|---|---|---|---|---|")
    for key in sorted(by_kind, key=lambda k: (games.index(k[0]), LEVELS.index(k[1]), k[2])):
        n, share = by_kind[key]
        print(f"| {key[0]} | {key[1]} | {key[2]} | {n} | {_cells(share)} |")
    print("\n| game | level | features (mean) | ideas (puzzles) |")
    print("|---|---|---|---|")
    by_level = features_by_level(puzzles)
    for game in games:
        for level in LEVELS:
            if (game, level) in by_level:
                row = dict(by_level[(game, level)])
                ideas = row.pop("ideas")
                cells = ", ".join(f"{k} {v}" for k, v in row.items())
                print(f"| {game} | {level} | {cells} | {ideas} |")
    _print_contract_cells(puzzles)
    print(f"\n{len(puzzles)} puzzles, {time.perf_counter() - start:.0f} s", flush=True)


def _print_contract_cells(puzzles: Sequence[Puzzle]) -> None:
    """Per Contract level and kind: the hand sizes (and how many no game gives), and the diversity:
    distinct templates, and the puzzles of the most repeated one."""
    cells: dict[tuple[str, str], list[Puzzle]] = {}
    for p in puzzles:
        if p.game == "contract":
            cells.setdefault((str(p.meta.get("difficulty")), str(p.meta.get("kind"))), []).append(p)
    if not cells:
        return
    print("\n| level | kind | puzzles | hand sizes (puzzles) | illegal | templates | most repeated |")
    print("|---|---|---|---|---|---|---|")
    for level, kind in sorted(cells, key=lambda k: (LEVELS.index(k[0]) if k[0] in LEVELS else 9, k[1])):
        group = cells[(level, kind)]
        sizes = hand_size_counts(group)
        illegal = sizes.pop("illegal", 0)
        shown = ", ".join(f"{k}: {v}" for k, v in sizes.items())
        distinct, top = diversity(group)
        print(f"| {level} | {kind} | {len(group)} | {shown} | {illegal} | {distinct} | {top} |")


if __name__ == "__main__":  # pragma: no cover
    main()
