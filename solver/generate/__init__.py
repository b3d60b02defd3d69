"""Puzzles to post: a generator with a measured difficulty scale and unique, verified answers.

>>> from solver.generate import generate
>>> [p.meta["difficulty"] for p in generate("zsy", "easy", 2, seed=1)]
['easy', 'easy']

``generate(game, difficulty, count, seed, rules)`` returns puzzles
(:class:`solver.puzzles.Puzzle`) whose ``[answer]`` is verified and unique
and whose ``[meta]`` holds the kind of question, the difficulty (level,
score, features) and the solution. The same arguments give the same
puzzles: every random choice comes from one generator seeded by the game,
the level and ``seed``, and the solver's answers are exact.

The games' generators: :mod:`solver.generate.manipulation` ("play N
cards"), :mod:`solver.generate.contract` (best lay-off with swaps, go out
this turn, which card to discard), :mod:`solver.generate.zsy` (out in K
plays, which reply). The scale: :mod:`solver.generate.ladder` (a level is
defined by which models of a human solver miss the puzzle,
:mod:`solver.generate.calibrate`); the features and their summary score:
:mod:`solver.generate.difficulty`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from solver.generate.difficulty import LEVELS, Level
from solver.generate.errors import GenerateError
from solver.generate.ladder import QUESTIONS, kinds_at, questions_at
from solver.puzzles import Puzzle, position_dict
from solver.rules import rules_for

__all__ = ["GAMES", "LEVELS", "GenerateError", "generate", "file_name", "plain_title", "TITLES"]

GAMES = ("manipulation", "contract", "zsy")

MAX_TRIES = 200_000
"""Candidates tried per puzzle before giving up (a level the rules cannot reach)."""


TITLES = ("count", "plain")
"""Title styles: ``count`` names the answer's size ("Play 3 of your 4 cards"), ``plain`` does not."""


def plain_title(puzzle: Puzzle) -> str:
    """A title that does not give the answer's count away (nor, for a lay-off, whether it goes out).

    >>> from solver.puzzles import loads
    >>> p = loads('game = "zsy"\\ntitle = "Out in 2 plays"\\n[position]\\nhand = "3H 4H 5H 9S"\\n[meta]\\nkind = "out"\\n')
    >>> plain_title(p)
    'Go out in as few plays as you can'
    """
    kind = puzzle.meta.get("kind")
    hand = len(puzzle.position.hand)
    return {
        "play": f"Play as many of your {hand} cards as you can",
        "layoff": "Lay off as many cards as you can: can you go out?",
        "goout": "Lay off as many cards as you can: can you go out?",
        "discard": "Which card to discard?",
        "whole": "All at once: which discard lets the rest go down?",
        "laydown": "Which lay-down leaves the best lay-off?",
        "outway": "Go out this turn: lay down, lay off, and which discard?",
        "twonear": "All at once, not yet down: which discard keeps the most outs?",
        "out": "Go out in as few plays as you can",
        "lead": "Which lead wins against the last opponent?",
    }.get(str(kind), puzzle.title)


def _candidate(game: str) -> Callable[[random.Random, Any, Level, str], Puzzle | None]:
    if game == "manipulation":
        from solver.generate import manipulation

        return manipulation.candidate
    if game == "contract":
        from solver.generate import contract

        return contract.candidate
    from solver.generate import zsy

    return zsy.candidate


def _asks(question: str, rules: Any) -> bool:
    """Whether the rules can pose ``question``: a whole-hand or two-near-contracts puzzle needs the last
    round played all at once."""
    return question not in ("whole", "twonear") or bool(getattr(rules, "last_round_all_at_once", False))


def generate(
    game: str,
    difficulty: str,
    count: int,
    seed: int = 0,
    rules: Any = None,
    *,
    progress: Callable[[Puzzle], None] | None = None,
    titles: str = "count",
    question: str | None = None,
) -> list[Puzzle]:
    """``count`` distinct puzzles of ``game`` at ``difficulty`` (easy, medium, hard, expert).

    ``rules`` is a rule set or a mapping (a preset and overrides; the game's
    default rules when None). ``progress`` is called with each puzzle as it
    is found. Puzzle ``i`` is the same for every ``count`` above ``i``.
    ``titles`` is ``count`` or ``plain`` (:func:`plain_title`: the title does
    not give the answer's count away; the puzzles are the same). Puzzle ``i``
    asks the level's questions in turn (:func:`solver.generate.ladder.questions_at`), or
    every one ``question`` (a kind with a rung at the level: Zheng Shang You ``lead`` is asked
    only so, :data:`solver.generate.ladder.ON_REQUEST`).
    """
    if game not in GAMES:
        raise GenerateError(f"unknown game {game!r} (known: {', '.join(GAMES)})")
    if difficulty not in LEVELS:
        raise GenerateError(f"unknown difficulty {difficulty!r} (known: {', '.join(LEVELS)})")
    if count < 1:
        raise GenerateError(f"count must be 1 or more, not {count}")
    if titles not in TITLES:
        raise GenerateError(f"unknown title style {titles!r} (known: {', '.join(TITLES)})")
    rule_set = rules if rules is not None and not isinstance(rules, dict) else rules_for(game, rules or {})
    level: Level = difficulty
    make = _candidate(game)
    questions = tuple(q for q in questions_at(game, level) if _asks(q, rule_set))
    salt = ""
    if question is not None:
        if question not in QUESTIONS[game]:
            raise GenerateError(f"unknown question {question!r} for {game} (known: {', '.join(QUESTIONS[game])})")
        if not _asks(question, rule_set):
            raise GenerateError(f"no {question!r} puzzles under these rules (the last round is not played all at once)")
        if question not in kinds_at(game, level):
            raise GenerateError(
                f"no {difficulty} {game} {question!r} puzzles (at {difficulty}: {', '.join(kinds_at(game, level))})"
            )
        questions, salt = (question,), f":{question}"
    rng = random.Random(f"{game}:{difficulty}:{seed}{salt}")
    found: list[Puzzle] = []
    seen: set[str] = set()
    tries = 0
    while len(found) < count:
        tries += 1
        if tries > MAX_TRIES:
            raise GenerateError(f"no {difficulty} {game} puzzle found in {MAX_TRIES} tries under these rules")
        puzzle = make(rng, rule_set, level, questions[len(found) % len(questions)])
        if puzzle is None:
            continue
        key = repr(sorted(position_dict(puzzle.position).items()))
        if key in seen:
            continue
        seen.add(key)
        if titles == "plain":
            puzzle = replace(puzzle, title=plain_title(puzzle))
        found.append(puzzle)
        if progress is not None:
            progress(puzzle)
    return found


def file_name(puzzle: Puzzle, index: int) -> str:
    """The file name the CLI writes a generated puzzle to: ``<level>-<kind>-<NN>.toml``."""
    return f"{puzzle.meta.get('difficulty', 'puzzle')}-{puzzle.meta.get('kind', 'play')}-{index:02d}.toml"
