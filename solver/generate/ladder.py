"""The difficulty ladder: a level is defined by which models of a human solver miss the puzzle.

The models are those of :mod:`solver.generate.calibrate` (``MODELS``): the
engine's greedy player, shallow searches by depth, a search with a limited
look at the table, a lay-off without swaps, and the engine's solver player.
Each level of each game is one or more rungs (:data:`LADDER`): the models
that must miss the answer, the models that must find it, the decoys the
position must hold, and the idea the answer needs (written into
``[meta.features]`` as ``idea``, with ``missed_by``, the models that miss
it). A candidate is kept at a level only when it stands on one of the
level's rungs, so every level is missed by a known share of the models by
construction, and the levels differ in the idea they ask for:

>>> [r.idea for r in LADDER["manipulation"]["easy"]]
['lift one card off the table']
>>> LADDER["contract"]["hard"][0].miss
('greedy', 'no-swap')

Every model is exact (no timings decide), so the same seed keeps giving
the same puzzles. The measured shares are in docs/generate.md
(``python -m solver.generate.calibrate``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from solver.generate.difficulty import Level
from solver.puzzles import Puzzle

__all__ = [
    "Rung",
    "LADDER",
    "QUESTIONS",
    "ON_REQUEST",
    "BY_NAME",
    "kinds_at",
    "questions_at",
    "fewest_decoys",
    "place",
    "rung_for",
    "decoys",
]


@dataclass(frozen=True, slots=True)
class Rung:
    """One way to stand at a level: the puzzle kinds it applies to, the models that must miss the
    answer and those that must find it, the fewest decoys, and the idea the answer needs."""

    kinds: tuple[str, ...]
    miss: tuple[str, ...]
    find: tuple[str, ...]
    idea: str
    decoys: int = 0
    at_least: tuple[tuple[str, int], ...] = ()
    """Further features the answer must reach (``melds_broken`` 3: a chain through three melds)."""


_LAYOFF = ("layoff", "goout")

DEPTH_RUNGS: dict[Level, tuple[Rung, ...]] = {
    "easy": (
        Rung(
            ("outway",),
            (),
            ("greedy", "no-swap", "glance", "one-look", "solver"),
            "lay down, lay off what fits, throw the odd card",
        ),
    ),
    "medium": (
        Rung(
            ("outway",),
            ("one-look",),
            ("greedy", "no-swap", "glance", "solver"),
            "a card that fits only once another is down: a new meld or a chain",
        ),
    ),
    "hard": (
        Rung(
            ("outway",),
            ("no-swap", "one-look"),
            ("greedy", "glance", "solver"),
            "go out through a freed wild",
        ),
        Rung(
            ("twonear",),
            ("greedy", "no-swap", "glance"),
            ("solver",),
            "keep both near-contracts: the discard with the most outs",
        ),
    ),
    "expert": (
        Rung(
            ("twonear",),
            ("greedy", "no-swap", "glance", "solver"),
            (),
            "the most outs, which the engine's solver player misses too",
        ),
    ),
}
"""The Contract questions with depth (:mod:`solver.generate.contract_depth`, issue 38): go out only one
way (``outway``: easy to hard) and the last round's two near-contracts (``twonear``: hard, expert)."""

LADDER: dict[str, dict[Level, tuple[Rung, ...]]] = {
    "manipulation": {
        "easy": (
            Rung(("play",), ("greedy",), ("shallow-1", "shallow-2", "glance", "solver"), "lift one card off the table"),
        ),
        "medium": (
            Rung(
                ("play",), ("greedy", "shallow-1"), ("shallow-2", "glance", "solver"), "lift two cards, or split a run"
            ),
        ),
        "hard": (
            Rung(("play",), ("greedy", "shallow-1", "shallow-2"), ("glance", "solver"), "a chain of moves", decoys=1),
        ),
        "expert": (
            Rung(
                ("play",),
                ("greedy", "shallow-1", "shallow-2"),
                ("solver",),
                "a chain of moves through three melds or more",
                decoys=1,
                at_least=(("melds_broken", 3),),
            ),
        ),
    },
    "contract": {
        "easy": (
            Rung(_LAYOFF, (), ("greedy", "no-swap", "glance", "solver"), "a plain lay-off"),
            Rung(("discard",), (), ("greedy", "glance", "solver"), "throw the lone card"),
            Rung(("whole",), (), ("greedy", "glance", "solver"), "throw the lone card, the rest goes down"),
            *DEPTH_RUNGS["easy"],
        ),
        "medium": (
            Rung(_LAYOFF, ("no-swap",), ("greedy", "glance", "solver"), "a freed wild"),
            Rung(("discard",), ("glance",), ("greedy", "solver"), "not the costliest lone card"),
            Rung(
                ("whole",),
                ("glance",),
                ("greedy", "solver"),
                "a wild stands in a run, the card to throw looks useful",
                at_least=(("wilds", 1),),
            ),
            Rung(
                ("laydown",),
                ("greedy",),
                ("no-swap", "glance", "solver"),
                "lay down the grouping that leaves a lay-off, not the one that leaves fewest points",
            ),
            *DEPTH_RUNGS["medium"],
        ),
        "hard": (
            Rung(_LAYOFF, ("greedy", "no-swap"), ("glance", "solver"), "a freed wild the greedy order loses", decoys=1),
            Rung(("discard",), ("greedy", "no-swap"), ("glance", "solver"), "a discard the greedy keeps", decoys=1),
            Rung(
                ("laydown",),
                ("greedy", "no-swap"),
                ("glance", "solver"),
                "a lay-down whose lay-off needs wild swaps",
                decoys=1,
            ),
            *DEPTH_RUNGS["hard"],
        ),
        "expert": (
            Rung(
                ("discard",), ("greedy", "no-swap", "glance"), ("solver",), "keep the lone card, split a pair", decoys=1
            ),
            *DEPTH_RUNGS["expert"],
        ),
    },
    "zsy": {
        "easy": (
            Rung(("out", "reply"), (), ("greedy", "glance", "solver"), "sets and the plain reply"),
            Rung(("lead",), (), ("glance", "solver"), "lead what the opponent cannot beat"),
        ),
        "medium": (
            Rung(("out", "reply"), ("glance",), ("greedy", "solver"), "a straight"),
            Rung(("out", "reply"), ("greedy",), ("glance", "solver"), "not the greedy's combination"),
            Rung(("lead",), ("greedy",), ("glance", "solver"), "not the biggest lead: the one they cannot beat"),
        ),
        "hard": (
            Rung(("out", "reply"), ("greedy", "glance"), ("solver",), "a straight the greedy breaks", decoys=1),
            Rung(
                ("lead",),
                ("greedy", "glance"),
                ("solver",),
                "a lead they can beat: a line deeper than one ply",
                decoys=3,
            ),
        ),
        "expert": (
            Rung(
                ("out", "reply"),
                ("greedy", "glance"),
                ("solver",),
                "a straight the greedy breaks, among many near-best moves",
                decoys=4,
            ),
            Rung(
                ("lead",),
                ("greedy", "glance"),
                ("solver",),
                "a longer line: three plays or more, among four losing leads or more",
                decoys=4,
                at_least=(("plays", 3),),
            ),
        ),
    },
}
"""Per game and level, the rungs a puzzle may stand on (the first that holds is recorded).

Manipulation: each level needs a deeper search (the shallow searches lift
1 and 2 cards); hard and expert need a chain of moves and a decoy (a hand
card playable on its own that the answer leaves), expert a chain through
three melds or more (no position the glance model misses came up often
enough to make a level of it). Contract: medium needs a
freed wild (a swap), hard a swap the greedy player's order loses, with a
decoy; discards climb from the lone card to one that every quick rule
misses; a lay-down (which grouping leaves the best lay-off) is missed by the
greedy player at medium, and by the plan without swaps too at hard; no lay-off was measured that the glance model misses, so expert is
the discard every weaker model misses (docs/generate.md). Zheng Shang You
has two weaker models: hard and expert are missed by both, expert among at
least four first moves one play worse (``near_best``, its decoys). A
Zheng Shang You lead (a two-player endgame; its decoys are the other leads)
climbs from the lead the opponent cannot beat (the glance model's one-ply
look finds it) to a line deeper than one ply that the greedy and glance
models miss (expert: a hand of three plays or more, among four losing
leads or more); the solver player
searches a small two-player endgame exactly, so it must find every one."""


QUESTIONS: dict[str, tuple[str, ...]] = {
    "manipulation": ("play",),
    "contract": ("layoff", "discard", "laydown", "whole", "outway", "twonear"),
    "zsy": ("out", "reply", "lead"),
}
"""Per game, the questions a generator can be asked (a Contract lay-off may turn out a go-out)."""

ON_REQUEST: dict[str, tuple[str, ...]] = {
    "manipulation": (),
    "contract": ("laydown", "whole"),
    "zsy": ("lead",),
}
"""Per game, the questions asked only on request (``generate(question=...)``, ``--question``): they
stand on rungs of the ladder but stay out of a level's turns. Taking them in would change every
bundled puzzle of those levels (the gallery, the daily puzzle), and a Zheng Shang You lead costs
seconds a puzzle at hard, too slow for a level's turn (docs/generate.md)."""


BY_NAME: dict[str, tuple[str, ...]] = {"manipulation": (), "contract": ("outway", "twonear"), "zsy": ()}
"""Per game, the questions asked only when named and kept out of the on-request gallery too (the
questions with depth of :mod:`solver.generate.contract_depth`: a ``twonear`` puzzle takes a minute or
more to generate, too slow for the gallery's check, which writes it all again)."""


def questions_at(game: str, level: Level) -> tuple[str, ...]:
    """The questions with a rung at ``level``, in :data:`QUESTIONS` order: puzzle *i* of a level asks
    the question ``i`` modulo their number, so each level mixes them (the quicker kind would crowd out
    the others). Questions :data:`ON_REQUEST` and :data:`BY_NAME` are left out."""
    kinds = kinds_at(game, level)
    named = (*ON_REQUEST.get(game, ()), *BY_NAME.get(game, ()))
    return tuple(q for q in QUESTIONS[game] if q in kinds and q not in named)


def kinds_at(game: str, level: Level) -> tuple[str, ...]:
    """The puzzle kinds that can stand at ``level`` (a generator tries only those)."""
    out: list[str] = []
    for rung in LADDER[game][level]:
        out += [k for k in rung.kinds if k not in out]
    return tuple(out)


def fewest_decoys(game: str, level: Level, kind: str) -> int:
    """The fewest decoys a ``kind`` puzzle needs at ``level`` (a cheap test before the models are asked)."""
    return min((r.decoys for r in LADDER[game][level] if kind in r.kinds), default=0)


def decoys(puzzle: Puzzle) -> int:
    """The puzzle's decoys: ``decoys`` of its features (``near_best`` in Zheng Shang You)."""
    feats = puzzle.meta.get("features", {})
    return int(feats.get("decoys", feats.get("near_best", 0)))


def place(puzzle: Puzzle, level: Level) -> Puzzle | None:
    """The puzzle at ``level`` with its idea and the models that miss it in its features, or None
    when it stands on none of the level's rungs. Each model is asked once (the rung's
    models first; once a rung holds, the rest for ``missed_by``)."""
    from solver.generate.models import MODELS  # here: the models import the engine, which the package need not

    models = MODELS[puzzle.game]
    asked: dict[str, bool] = {}

    def missed(name: str) -> bool:
        if name not in asked:
            asked[name] = not models[name](puzzle)
        return asked[name]

    rung = rung_for(puzzle, level, missed)
    if rung is None:
        return None
    features = dict(puzzle.meta.get("features", {}))
    features["idea"] = rung.idea
    features["missed_by"] = [m for m in models if missed(m)]
    return replace(puzzle, meta={**puzzle.meta, "difficulty": level, "features": features})


def rung_for(puzzle: Puzzle, level: Level, missed: Callable[[str], bool]) -> Rung | None:
    """The first rung of ``level`` the puzzle stands on (None: none), ``missed(model)`` telling
    whether a model misses its answer (asked lazily: the rung's models first)."""
    kind = str(puzzle.meta.get("kind"))
    feats = puzzle.meta.get("features", {})
    for rung in LADDER[puzzle.game][level]:
        if kind not in rung.kinds or decoys(puzzle) < rung.decoys:
            continue
        if any(int(feats.get(name, 0)) < least for name, least in rung.at_least):
            continue
        if all(missed(m) for m in rung.miss) and not any(missed(m) for m in rung.find):
            return rung
    return None
