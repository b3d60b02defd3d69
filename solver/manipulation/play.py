"""Manipulation Shanghai: the best play onto a freely rearranged table ("the Shanghai move").

The public API the engine and the CLI call:

>>> from solver.melds import parse_table
>>> rules = ManipulationRules.preset("norwegian")
>>> play = best_play(parse_table("3H 4H 5H 6H | 3C 4C 5C 6C"), Cards.parse("6S KD"), rules)
>>> str(play.status), str(play.played), play.kept_melds, play.moved_cards
('optimal', '6S', 0, 2)
>>> print(format_table(play.table))
3H 4H 5H | 3C 4C 5C | 6S 6H 6C
>>> can_play(parse_table("5H 6H 7H"), Cards.parse("KD"), rules)
False

Least change (the default): among the best plays, the one that keeps the
most old melds whole and then moves the fewest table cards. Runs are
printed whole in rank order, sets in suit order, jokers with their role.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, NamedTuple

from solver.cards import Cards
from solver.errors import MeldError, Status
from solver.manipulation.assemble import assemble
from solver.manipulation.bound import playable_bound, score_of
from solver.manipulation.engine_core import Facts
from solver.manipulation.extension import ExtensionSearch, budget_for, extension_play
from solver.manipulation.least_change import solve_least_change
from solver.manipulation.model import Solved, Template, exact_instance, plain_instance, solve_play, template
from solver.manipulation.moves import Move, TableDiff, diff_tables, match_melds, meld_counts
from solver.manipulation.natural import DP_CARDS, DP_CARDS_LEAST, NaturalPlay, natural_play
from solver.manipulation.plain import native_stage
from solver.melds import Meld, format_table, validate_rearrangement, validate_table
from solver.ranks import JOKER
from solver.rules import ManipulationRules

__all__ = [
    "Play",
    "Move",
    "Playable",
    "Most",
    "best_play",
    "all_best_plays",
    "can_play",
    "max_cards_playable",
    "play_value",
    "format_table",
]

Objective = Literal["cards", "value"]
LeastChange = Literal["optimal", "feasible", "skipped"]


@dataclass(frozen=True, slots=True)
class Play:
    """The answer: what to play, the new table, and how to get there.

    ``status``: ``optimal`` (proven best), ``feasible`` (the best found in
    the time allowed) or ``infeasible`` (proven: no hand card can be played;
    ``table`` is the old table and ``played`` is empty). ``least_change``
    says whether the least-change pass proved its optimum (``optimal``), ran
    out of time (``feasible``) or was not asked for (``skipped``).
    """

    status: Status
    played: Cards
    table: tuple[Meld, ...]
    hand: Cards
    moves: tuple[Move, ...]
    kept_melds: int
    moved_cards: int
    value: int
    old_table: tuple[Meld, ...] = ()
    kept: tuple[bool, ...] = ()
    matching: tuple[int | None, ...] = ()
    objective: Objective = "cards"
    least_change: LeastChange = "skipped"

    @property
    def cards(self) -> int:
        """How many hand cards the play adds to the table."""
        return len(self.played)


def play_value(cards: Cards, rules: ManipulationRules) -> int:
    """Total value of cards for the ``value`` objective (A=1 ... K=13, A=14 with ``ace=high``)."""
    return sum(rules.card_value(c) * n for c, n in cards.items())


class _Clock:
    """The time left of one question's limit (every solver call shares it)."""

    __slots__ = ("end",)

    def __init__(self, time_limit: float) -> None:
        self.end = time.perf_counter() + time_limit

    def left(self) -> float:
        """Seconds left, at least 0.05 (a solve always gets a moment to report)."""
        return max(0.05, self.end - time.perf_counter())


@dataclass(frozen=True, slots=True)
class _Position:
    """A checked position and the question asked of it."""

    old: tuple[Meld, ...]
    hand: Cards
    on_table: Cards
    rules: ManipulationRules
    objective: Objective

    @classmethod
    def checked(cls, table: Sequence[Meld], hand: Cards, rules: ManipulationRules, objective: str) -> _Position:
        """Validate the table, the card counts and the objective (bad input raises)."""
        if objective not in ("cards", "value"):
            raise ValueError(f"objective must be 'cards' or 'value', not {objective!r}")
        old = tuple(table)
        validate_table(old, rules.meld_spec)
        on_table = Cards(c for m in old for c in m.cards)
        (on_table + hand).check_against(rules.deck, "table and hand together")
        return cls(old, hand, on_table, rules, "value" if objective == "value" else "cards")

    def template(self) -> Template:
        """The CP-SAT model template of the rule set and objective (cached)."""
        return template(self.rules.decks, self.rules.ace, self.rules.jokers, self.objective)


class _Best(NamedTuple):
    """The best score of stages 1-4: what they play, a table, which stage proved it and how sure."""

    status: Status
    played: Cards
    melds: Sequence[Meld]
    stage: Literal["bound", "extension", "program", "cp-sat"]


# --- the pipeline -------------------------------------------------------------------------------


def best_play(
    table: Sequence[Meld],
    hand: Cards,
    rules: ManipulationRules,
    *,
    objective: Literal["cards", "value"] = "cards",
    time_limit: float = 10.0,
    least_change: bool = True,
) -> Play:
    """The play adding the most hand cards (or the most value) to the table, rearranging freely.

    With ``least_change`` (the default), the play also keeps the most old
    melds whole and then moves the fewest table cards, with the score held
    at the best. ``time_limit`` (seconds) covers every solver call.
    Bad input raises :class:`~solver.errors.ShanghaiError` subclasses.

    The answer is a pipeline of exact stages, each with its proof and cost:

    1. **bound** (:mod:`~solver.manipulation.bound`, microseconds): the hand
       cards any play could hold; none: ``infeasible``, no solver call.
    2. **extension** (:mod:`~solver.manipulation.extension`, at most
       :func:`~solver.manipulation.extension.budget_for` units of work, 690
       on 190 table cards): the best play keeping every old meld whole; when it
       plays the whole bound it is optimal and least change, no solver call.
    3. **dynamic program** (:mod:`~solver.manipulation.natural`, at most
       2,000 steps, positions of at most 50 table and playable hand cards,
       35 with least change): with no joker in play and the ``cards``
       objective, the best card count, exact.
    4. **CP-SAT** (:mod:`~solver.manipulation.model`): otherwise the best score.
    5. **least change** (:mod:`~solver.manipulation.least_change`): the
       extension search asked for the best score (a play keeping every meld
       is least change), else a CP-SAT solve with the score fixed; where
       CP-SAT answers stage 4, one solve answers 4 and 5 together (the score
       first, then least change).
    """
    clock = _Clock(time_limit)
    pos = _Position.checked(table, hand, rules, objective)
    search = ExtensionSearch(
        pos.old, hand, rules, pos.objective, table_cards=pos.on_table, budget=budget_for(len(pos.on_table))
    )
    best = _best_score(pos, search, clock, least_change=least_change)
    if best is None:  # 4. and 5. at once
        return _both(pos, clock)
    least: LeastChange = "optimal" if least_change else "skipped"
    if best.status is Status.UNKNOWN or not best.played:
        return _unchanged(pos, best.status)
    if best.stage == "extension":
        return _finish(pos, best.melds, best.played, Status.OPTIMAL, least, tuple(range(len(pos.old))))
    played, melds = best.played, best.melds
    if least_change:
        kept = search.find(score_of(played, rules, pos.objective)) if best.status is Status.OPTIMAL else None
        if kept is not None and kept.found:  # every old meld kept, nothing moved: least change at its best
            return _finish(pos, kept.table, kept.played, Status.OPTIMAL, "optimal", tuple(range(len(pos.old))))
        played, melds, least = _least_change(pos, best, clock)
    return _finish(pos, melds, played, best.status, least)


def _best_score(pos: _Position, search: ExtensionSearch, clock: _Clock, *, least_change: bool) -> _Best | None:
    """Stages 1-4: the bound, the extension search, the dynamic program, CP-SAT (first to prove wins);
    None where CP-SAT would answer and least change is asked for (one solve answers both: :func:`_both`)."""
    if not search.bound:  # 1. nothing is playable at all
        return _Best(Status.INFEASIBLE, Cards(), pos.old, "bound")
    ext = search.find()  # 2. the whole bound with every old meld kept
    if ext.found:
        return _Best(Status.OPTIMAL, ext.played, ext.table, "extension")
    most = DP_CARDS_LEAST if least_change else DP_CARDS
    natural = None
    if pos.objective == "cards" and not least_change:  # 3. the program, compiled: larger positions (plain)
        natural = native_stage(pos.old, pos.hand, pos.rules, pos.on_table, search.bound)
    if natural is None and pos.objective == "cards" and len(pos.on_table) + len(search.bound) <= most:
        natural = natural_play(pos.old, pos.hand, pos.rules, table_cards=pos.on_table, bound=search.bound)
    if natural is not None:
        status = Status.OPTIMAL if natural.played else Status.INFEASIBLE
        return _Best(status, natural.played, natural.table, "program")
    return None if least_change else _cpsat(pos, clock)  # 4.


def _cpsat(pos: _Position, clock: _Clock, *, exact: bool = False) -> _Best:
    """Stage 4, CP-SAT with jokers as role copies; again with the exact refinement if the decoded
    table keeps a meld of jokers only that no meld has room for (three or more jokers)."""
    solved, _, _ = solve_play(pos.template(), pos.on_table, pos.hand, clock.left(), exact=exact)
    if solved.status is Status.UNKNOWN:
        return _Best(Status.UNKNOWN, Cards(), pos.old, "cp-sat")
    if not solved.played:
        status = Status.INFEASIBLE if solved.status is Status.OPTIMAL else Status.FEASIBLE
        return _Best(status, Cards(), pos.old, "cp-sat")
    melds = assemble(solved.pieces, pos.rules)
    if melds is None:
        if exact:  # pragma: no cover - the exact model never leaves jokers alone
            raise MeldError("a meld of jokers only could not be placed")
        return _cpsat(pos, clock, exact=True)
    return _Best(solved.status, solved.played, melds, "cp-sat")


def _both(pos: _Position, clock: _Clock) -> Play:
    """Stages 4 and 5 as one CP-SAT solve, the best score first, then least change (cheaper than
    two solves: docs/decisions-manipulation.md)."""
    answer = _homes(pos, None, clock)
    if answer is None:
        return _unchanged(pos, Status.UNKNOWN)
    solved, melds = answer
    if not solved.played:
        return _unchanged(pos, Status.INFEASIBLE if solved.status is Status.OPTIMAL else Status.FEASIBLE)
    least: LeastChange = "optimal" if solved.status is Status.OPTIMAL else "feasible"
    return _finish(pos, melds, solved.played, solved.status, least)


def _least_change(pos: _Position, best: _Best, clock: _Clock) -> tuple[Cards, Sequence[Meld], LeastChange]:
    """Stage 5 after the dynamic program: the score held at its best, the most old melds kept, the
    fewest cards moved. Falls back to ``best`` (``feasible``) when time runs out."""
    answer = _homes(pos, len(pos.on_table) + len(best.played), clock)
    if answer is None:
        return best.played, best.melds, "feasible"
    solved, melds = answer
    least: LeastChange = "optimal" if solved.least_change_status is Status.OPTIMAL else "feasible"
    return solved.played, melds, least


def _homes(pos: _Position, score: int | None, clock: _Clock) -> tuple[Solved, Sequence[Meld]] | None:
    """The least-change solve (``score`` held, or None: the score first) and its table; the exact
    joker model when the plain one leaves a meld of jokers only. None when time ran out."""
    t = pos.template()
    instance = plain_instance(t, pos.on_table, pos.hand, checked=True)  # checked by _Position.checked
    for _ in range(2):
        solved = solve_least_change(t, instance, score, pos.old, pos.rules, pos.on_table, clock.left(), own=True)
        if solved is None:
            return None
        melds = assemble(solved.pieces, pos.rules)
        if melds is not None:
            return solved, melds
        instance = exact_instance(t, pos.on_table, pos.hand)
    raise MeldError("a meld of jokers only could not be placed")  # pragma: no cover - the exact model never does


# --- the answer as a Play -----------------------------------------------------------------------


def _sort_key(meld: Meld) -> tuple[int, ...]:
    return tuple(c.index if r is None else r.index for c, r in zip(meld.cards, meld.roles))


def _finish(
    pos: _Position,
    new: Sequence[Meld],
    played_best: Cards,
    status: Status,
    least: LeastChange,
    matching: Sequence[int | None] | None = None,
) -> Play:
    """Check the new table with the independent validator, order it (partners of old melds first)
    and diff it against the old one.

    ``matching`` (old meld -> new meld) is computed by the graph layer unless
    given (the extension play pairs every old meld with its own extension).
    """
    old = pos.old
    played = validate_rearrangement(old, pos.hand, new, pos.rules.meld_spec)
    if played != played_best:  # pragma: no cover - a bug in a stage's decoder
        raise MeldError(f"decoded table adds {played}, the solver says {played_best}")
    old_counts, new_counts = meld_counts(old), meld_counts(new)
    if matching is None:
        matching = match_melds(old, new, (old_counts, new_counts))
    first = [j for j in matching if j is not None]
    taken = set(first)
    rest = sorted((j for j in range(len(new)) if j not in taken), key=lambda j: _sort_key(new[j]))
    order = first + rest
    where = {j: k for k, j in enumerate(order)}
    table = tuple(new[j] for j in order)
    renumbered = [None if j is None else where[j] for j in matching]
    diff: TableDiff = diff_tables(old, table, played, renumbered, (old_counts, [new_counts[j] for j in order]))
    return Play(
        status,
        played,
        table,
        pos.hand - played,
        diff.moves,
        diff.kept_melds,
        diff.moved_cards,
        play_value(played, pos.rules),
        old,
        diff.kept,
        diff.matching,
        pos.objective,
        least,
    )


def _unchanged(pos: _Position, status: Status) -> Play:
    """Nothing played: the old table stands (``infeasible``: proven; else time ran out: ``feasible``)."""
    old = pos.old
    if status is not Status.INFEASIBLE:
        status = Status.FEASIBLE
    least: LeastChange = "optimal" if status is Status.INFEASIBLE else "skipped"
    same = tuple(range(len(old)))
    return Play(status, Cards(), old, pos.hand, (), len(old), 0, 0, old, (True,) * len(old), same, pos.objective, least)


# --- the other questions ------------------------------------------------------------------------


def all_best_plays(
    table: Sequence[Meld],
    hand: Cards,
    rules: ManipulationRules,
    *,
    objective: Literal["cards", "value"] = "cards",
    time_limit: float = 10.0,
    limit: int = 20,
) -> tuple[Cards, ...]:
    """The distinct multisets of hand cards that reach the best score (at most ``limit``).

    Empty when no card can be played. Sorted by their text. With three or
    more jokers in play the exact joker model is used throughout (every
    multiset listed is one a valid table reaches).
    """
    from solver.manipulation.model import enumerate_plays

    clock = _Clock(time_limit)
    pos = _Position.checked(table, hand, rules, objective)
    if not playable_bound(pos.on_table, hand, rules):
        return ()
    exact = (pos.on_table + hand).count(JOKER) >= 3
    t = pos.template()
    solved, instance, first = solve_play(t, pos.on_table, hand, clock.left(), exact=exact)
    if solved.status is Status.UNKNOWN or not solved.played:
        return ()
    found = enumerate_plays(t, instance, first, pos.on_table, hand, clock.left(), limit)
    return tuple(sorted(found, key=lambda c: str(c)))


@dataclass(frozen=True, slots=True)
class Most:
    """The most hand cards one play adds, a table that adds them, and how sure that is."""

    cards: int
    table: tuple[Meld, ...]
    status: Status


class Playable:
    """How many hand cards one play can add in one position: the engine's question.

    The stages of :func:`best_play` without least change, each run at most
    once and only as far as the question needs: ``lower`` (a table the caller
    already has, e.g. the greedy play) and the playable bound settle
    :meth:`at_least` for most positions; :meth:`most` runs the exact stages.
    ``lower`` may be a function, called only when the bound does not settle
    the question.
    ``table`` must be valid and the cards within the deck (not checked here);
    ``table_cards``, its cards, when the caller already has them; ``facts``,
    what the engine's compiled core answered for the position
    (:mod:`solver.manipulation.engine_core`: exactly what the bound, ``lower``
    and stage 3 here give).
    """

    def __init__(
        self,
        table: Sequence[Meld],
        hand: Cards,
        rules: ManipulationRules,
        *,
        lower: Sequence[Meld] | Callable[[], Sequence[Meld]] | None = None,
        time_limit: float = 10.0,
        table_cards: Cards | None = None,
        facts: Facts | None = None,
    ) -> None:
        on_table = Cards(c for m in table for c in m.cards) if table_cards is None else table_cards
        self.pos = _Position(tuple(table), hand, on_table, rules, "cards")
        self.time_limit = time_limit
        self._lower = lower
        self._lower_table: tuple[Meld, ...] | None = None
        self._lower_cards = -1 if facts is None else facts.greedy
        self._bound: Cards | None = None if facts is None else facts.bound
        self._facts = facts
        self._most: Most | None = None

    @property
    def facts(self) -> Facts | None:
        """What the engine's compiled core answered for this position, if it was asked."""
        return self._facts

    @property
    def lower(self) -> tuple[Meld, ...]:
        """The lower play (the old table when none was given), computed once if given as a function."""
        if self._lower_table is None:
            given = self._lower() if callable(self._lower) else self._lower
            self._lower_table = tuple(given) if given is not None else self.pos.old
        return self._lower_table

    @property
    def lower_cards(self) -> int:
        """How many hand cards the lower play adds."""
        if self._lower_cards < 0:
            self._lower_cards = sum(len(m) for m in self.lower) - len(self.pos.on_table)
        return self._lower_cards

    @property
    def bound(self) -> Cards:
        """The playable bound (stage 1), computed once."""
        if self._bound is None:
            self._bound = playable_bound(self.pos.on_table, self.pos.hand, self.pos.rules)
        return self._bound

    def at_least(self, n: int = 1) -> bool:
        """Whether a play adds at least ``n`` hand cards (the bound and the lower play first)."""
        if len(self.bound) < n:
            return False
        if self.lower_cards >= n:
            return True
        return self._most_cards() >= n

    def _most_cards(self) -> int:
        """``most().cards``, without building the lower play's table where stage 3 settles it: the
        lower play is the most (what the engine asks is a count; the table only if it lists it)."""
        if self._most is None and self.lower_cards < len(self.bound):
            natural = self._natural()
            if natural is not None and not natural.played:
                return self.lower_cards
        return self.most().cards

    def _natural(self) -> NaturalPlay | None:
        """Stage 3 beyond the lower play: the core's answer when it gave one, else
        :func:`_natural_beyond` (remembered)."""
        if self._facts is not None and self._facts.asked:  # the core answered stage 3 already
            return self._facts.natural
        pos = self.pos
        return _natural_beyond(pos.old, pos.on_table, self.bound, pos.rules, self.lower_cards)

    def most(self) -> Most:
        """The most hand cards one play adds, with its table (exact unless time ran out)."""
        if self._most is None:
            self._most = self._exact()
        return self._most

    def _exact(self) -> Most:
        pos, bound = self.pos, self.bound
        if self.lower_cards >= len(bound):  # the lower play reaches the bound
            return Most(self.lower_cards, self.lower, Status.OPTIMAL)
        natural = self._natural()
        if natural is not None:
            if natural.played:
                return Most(natural.cards, natural.table, Status.OPTIMAL)
            return Most(self.lower_cards, self.lower, Status.OPTIMAL)
        budget = budget_for(len(pos.on_table))
        ext = extension_play(pos.old, pos.hand, pos.rules, table_cards=pos.on_table, bound=bound, budget=budget)
        if ext.found:
            return Most(len(ext.played), ext.table, Status.OPTIMAL)
        best = _cpsat(pos, _Clock(self.time_limit))
        if best.played and len(best.played) >= self.lower_cards:
            return Most(len(best.played), tuple(best.melds), best.status)
        return Most(self.lower_cards, self.lower, best.status)


_BEYOND: dict[tuple[int, int, Cards, int], tuple[tuple[Meld, ...], ManipulationRules, NaturalPlay | None]] = {}
_BEYOND_SIZE = 256


def _natural_beyond(
    old: tuple[Meld, ...], on_table: Cards, bound: Cards, rules: ManipulationRules, lower: int
) -> NaturalPlay | None:
    """Stage 3 for :class:`Playable`, shared by hands with the same bound (a drawn card that fits
    nowhere asks nothing new): the best play adding more than ``lower`` cards, or nothing played.
    ``on_table`` is the table's cards. Remembered by the table and rules objects themselves (a
    table stands for several turns; hashing its melds costs more than the memo saves)."""
    key = (id(old), id(rules), bound, lower)
    found = _BEYOND.get(key)
    if found is not None and found[0] is old and found[1] is rules:
        return found[2]
    answer = natural_play(old, bound, rules, table_cards=on_table, bound=bound, at_least=lower + 1, budget=20_000)
    if len(_BEYOND) >= _BEYOND_SIZE:
        _BEYOND.clear()
    _BEYOND[key] = (old, rules, answer)
    return answer


def max_cards_playable(
    table: Sequence[Meld], hand: Cards, rules: ManipulationRules, *, time_limit: float = 10.0
) -> int:
    """The most hand cards one play can add (the best found if time runs out).

    No solver call when no hand card is playable at all, when every playable
    card can be played without rearranging, or with no joker in play (the
    exact stages of :func:`best_play`).
    """
    pos = _Position.checked(table, hand, rules, "cards")
    return Playable(pos.old, hand, rules, time_limit=time_limit).most().cards


def can_play(table: Sequence[Meld], hand: Cards, rules: ManipulationRules, *, time_limit: float = 10.0) -> bool:
    """Whether at least one hand card can be played (for ``must_play`` and ``draw_rule``).

    No solver call when no hand card is playable at all, when one can be
    played without rearranging, or with no joker in play.
    """
    if not hand:
        return False
    pos = _Position.checked(table, hand, rules, "cards")
    return Playable(pos.old, hand, rules, time_limit=time_limit).at_least(1)
