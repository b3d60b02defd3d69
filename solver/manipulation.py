"""Manipulation Shanghai: the best play onto a freely rearranged table ("the Shanghai move").

The public API the engine and the CLI call:

>>> from solver.melds import parse_table
>>> rules = ManipulationRules.preset("norwegian")
>>> play = best_play(parse_table("3H 4H 5H 6H | 3C 4C 5C 6C"), Cards.parse("6S KD"), rules)
>>> play.status, str(play.played), play.kept_melds, play.moved_cards
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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from solver.cards import Card, Cards, Rank, Suit
from solver.errors import MeldError
from solver.graph.moves import Move, TableDiff, diff_tables, match_melds
from solver.melds import Meld, format_table, validate_rearrangement, validate_table
from solver.rules import ManipulationRules

if TYPE_CHECKING:
    from solver.models.manipulation import Piece, Template

__all__ = [
    "Play",
    "Move",
    "best_play",
    "all_best_plays",
    "can_play",
    "max_cards_playable",
    "play_value",
    "format_table",
]

Objective = Literal["cards", "value"]
_SUITS = tuple(Suit)
_JOKER_ROLES_ORDER = _SUITS


@dataclass(frozen=True, slots=True)
class Play:
    """The answer: what to play, the new table, and how to get there.

    ``status``: ``optimal`` (proven best), ``feasible`` (the best found in
    the time allowed) or ``none`` (no hand card can be played: ``table`` is
    the old table and ``played`` is empty). ``least_change`` says whether
    the least-change pass proved its optimum (``optimal``), ran out of time
    (``feasible``) or was not asked for (``skipped``).
    """

    status: Literal["optimal", "feasible", "none"]
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
    least_change: Literal["optimal", "feasible", "skipped"] = "skipped"

    @property
    def cards(self) -> int:
        """How many hand cards the play adds to the table."""
        return len(self.played)


def play_value(cards: Cards, rules: ManipulationRules) -> int:
    """Total value of cards for the ``value`` objective (A=1 ... K=13, A=14 with ``ace=high``)."""
    return sum(rules.card_value(c) * n for c, n in cards.items())


def _check_position(table: Sequence[Meld], hand: Cards, rules: ManipulationRules) -> Cards:
    spec = rules.meld_spec
    validate_table(table, spec)
    on_table = Cards(c for m in table for c in m.cards)
    (on_table + hand).check_against(rules.deck, "table and hand together")
    return on_table


def _template(rules: ManipulationRules, objective: Objective) -> Template:
    from solver.models.manipulation import template

    if objective not in ("cards", "value"):
        raise ValueError(f"objective must be 'cards' or 'value', not {objective!r}")
    return template(rules.decks, rules.ace, rules.jokers, objective)


def _joker_run(suit: int, start: int, slots: Sequence[Card | None]) -> Meld:
    from solver.graph.runs import position_rank
    from solver.models.manipulation import JOKER

    cards: list[Card] = []
    roles: list[Card | None] = []
    for k, c in enumerate(slots):
        if c is None:
            cards.append(JOKER)
            roles.append(Card(position_rank(start + k), _SUITS[suit]))
        else:
            cards.append(c)
            roles.append(None)
    return Meld(tuple(cards), tuple(roles))


def _set_meld(rank: int, members: Sequence[Card | None]) -> Meld:
    from solver.models.manipulation import JOKER

    naturals = sorted((c for c in members if c is not None), key=lambda c: c.index)
    used = {c.suit for c in naturals}
    free = [s for s in _JOKER_ROLES_ORDER if s not in used]
    jokers = sum(1 for c in members if c is None)
    cards = [*naturals, *([JOKER] * jokers)]
    roles: list[Card | None] = [None] * len(naturals) + [Card(Rank(rank), free[k]) for k in range(jokers)]
    return Meld(tuple(cards), tuple(roles))


def _assemble(pieces: Sequence[Piece], extras: int, rules: ManipulationRules) -> list[tuple[Meld, int | None]]:
    """Pieces to printed melds: extra jokers lengthen runs, adjacent run pieces join (at most one home each)."""
    lo_pos, hi_pos = (2 if rules.ace == "high" else 1, 13 if rules.ace == "low" else 14)
    runs: list[list[Any]] = []  # [suit, start, slots, home]
    sets: list[tuple[Meld, int | None]] = []
    for p in pieces:
        if p.kind == "set":
            sets.append((_set_meld(p.rank, p.slots), p.home))
        else:
            runs.append([p.suit, p.start, list(p.slots), p.home])
    # extra jokers: homes first (they may be getting their own jokers back), then any run
    runs.sort(key=lambda r: (r[3] is None, r[0], r[1]))
    for r in runs:
        while extras and len(r[2]) < 13:
            if r[1] + len(r[2]) <= hi_pos:
                r[2].append(None)
            elif r[1] > lo_pos:
                r[1] -= 1
                r[2].insert(0, None)
            else:  # pragma: no cover - a run of under 13 always has room
                break
            extras -= 1
    if extras:
        raise RuntimeError("extra jokers found no run")  # pragma: no cover - the model forbids it
    chains: list[list[Any]] = []
    for r in runs:
        for ch in chains:
            if ch[0] != r[0] or (ch[3] is not None and r[3] is not None) or len(ch[2]) + len(r[2]) > 13:
                continue
            if ch[1] + len(ch[2]) == r[1]:
                ch[2].extend(r[2])
            elif r[1] + len(r[2]) == ch[1]:
                ch[1] = r[1]
                ch[2][:0] = r[2]
            else:
                continue
            if ch[3] is None:
                ch[3] = r[3]
            break
        else:
            chains.append([r[0], r[1], list(r[2]), r[3]])
    melds = [(_joker_run(ch[0], ch[1], ch[2]), ch[3]) for ch in chains]
    return melds + sets


def _sort_key(meld: Meld) -> tuple[int, ...]:
    return tuple(c.index if r is None else r.index for c, r in zip(meld.cards, meld.roles))


def _finish(
    old: tuple[Meld, ...],
    hand: Cards,
    new: list[Meld],
    played: Cards,
    rules: ManipulationRules,
    status: Literal["optimal", "feasible", "none"],
    objective: Objective,
    least: Literal["optimal", "feasible", "skipped"],
) -> Play:
    matching = match_melds(old, new)
    first = [j for j in matching if j is not None]
    rest = sorted((j for j in range(len(new)) if j not in set(first)), key=lambda j: _sort_key(new[j]))
    order = first + rest
    where = {j: k for k, j in enumerate(order)}
    table = tuple(new[j] for j in order)
    diff: TableDiff = diff_tables(old, table, played, [None if j is None else where[j] for j in matching])
    return Play(
        status,
        played,
        table,
        hand - played,
        diff.moves,
        diff.kept_melds,
        diff.moved_cards,
        play_value(played, rules),
        old,
        diff.kept,
        diff.matching,
        objective,
        least,
    )


def _unchanged(
    old: tuple[Meld, ...],
    hand: Cards,
    rules: ManipulationRules,
    objective: Objective,
    status: Literal["feasible", "none"] = "none",
) -> Play:
    """Nothing played: the old table stands (``feasible`` when time ran out before a proof)."""
    same = tuple(range(len(old)))
    least: Literal["optimal", "skipped"] = "optimal" if status == "none" else "skipped"
    return Play(status, Cards(), old, hand, (), len(old), 0, 0, old, (True,) * len(old), same, objective, least)


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

    With ``least_change`` (the default), a second solve keeps the most old
    melds whole and then moves the fewest table cards, with the score held
    at the best. ``time_limit`` (seconds) covers both solves.
    Bad input raises :class:`~solver.errors.ShanghaiError` subclasses.
    """
    import time

    from solver.models.manipulation import solve_least_change, solve_play

    start = time.perf_counter()
    old = tuple(table)
    on_table = _check_position(old, hand, rules)
    t = _template(rules, objective)
    solved, instance, first = solve_play(t, on_table, hand, time_limit)
    if solved.status == "unknown":
        return _unchanged(old, hand, rules, objective, "feasible")
    if not solved.played:
        return _unchanged(old, hand, rules, objective, "none" if solved.status == "optimal" else "feasible")
    status: Literal["optimal", "feasible"] = "optimal" if solved.status == "optimal" else "feasible"
    least: Literal["optimal", "feasible", "skipped"] = "skipped"
    if least_change:
        left = max(0.05, time_limit - (time.perf_counter() - start))
        better = solve_least_change(t, instance, first, old, rules, on_table, left)
        if better is not None:
            solved = better
            least = "optimal" if better.least_change_status == "optimal" else "feasible"
        else:
            least = "feasible"
    melds = [m for m, _ in _assemble(solved.pieces, solved.extra_jokers, rules)]
    played = validate_rearrangement(old, hand, melds, rules.meld_spec)
    if played != solved.played:  # pragma: no cover - a bug in the decoder
        raise MeldError(f"decoded table adds {played}, the model says {solved.played}")
    return _finish(old, hand, melds, played, rules, status, objective, least)


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

    Empty when no card can be played. The first is the one :func:`best_play`
    would find without least change; the order is otherwise the solver's.
    """
    import time

    from solver.models.manipulation import enumerate_plays, solve_play

    start = time.perf_counter()
    old = tuple(table)
    on_table = _check_position(old, hand, rules)
    t = _template(rules, objective)
    solved, instance, first = solve_play(t, on_table, hand, time_limit)
    if solved.status == "unknown" or not solved.played:
        return ()
    left = max(0.05, time_limit - (time.perf_counter() - start))
    found = enumerate_plays(t, instance, first, on_table, hand, left, limit)
    return tuple(sorted(found, key=lambda c: str(c)))


def max_cards_playable(
    table: Sequence[Meld], hand: Cards, rules: ManipulationRules, *, time_limit: float = 10.0
) -> int:
    """The most hand cards one play can add (the best found if time runs out)."""
    from solver.models.manipulation import solve_play

    on_table = _check_position(tuple(table), hand, rules)
    solved, _, _ = solve_play(_template(rules, "cards"), on_table, hand, time_limit)
    return len(solved.played)


def can_play(table: Sequence[Meld], hand: Cards, rules: ManipulationRules, *, time_limit: float = 10.0) -> bool:
    """Whether at least one hand card can be played (for ``must_play`` and ``draw_rule``)."""
    if not hand:
        return False
    return max_cards_playable(table, hand, rules, time_limit=time_limit) > 0
