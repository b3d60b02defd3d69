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
from solver.manipulation.moves import Move, TableDiff, diff_tables, match_melds
from solver.manipulation.shortcut import (
    Extension,
    ExtensionSearch,
    card_weight,
    extension_play,
    natural_play,
    playable_bound,
)
from solver.melds import Meld, format_table, validate_rearrangement, validate_table
from solver.rules import ManipulationRules

if TYPE_CHECKING:
    from solver.manipulation.model import Instance, Piece, Solved, Template

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
_JOKER = Card.parse("JK")
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
    from solver.manipulation.model import template

    if objective not in ("cards", "value"):
        raise ValueError(f"objective must be 'cards' or 'value', not {objective!r}")
    return template(rules.decks, rules.ace, rules.jokers, objective)


def _joker_run(suit: int, start: int, slots: Sequence[Card | None]) -> Meld:
    from solver.graph.runs import position_rank
    from solver.manipulation.model import JOKER

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
    from solver.manipulation.model import JOKER

    naturals = sorted((c for c in members if c is not None), key=lambda c: c.index)
    used = {c.suit for c in naturals}
    free = [s for s in _JOKER_ROLES_ORDER if s not in used]
    jokers = sum(1 for c in members if c is None)
    cards = [*naturals, *([JOKER] * jokers)]
    roles: list[Card | None] = [None] * len(naturals) + [Card(Rank(rank), free[k]) for k in range(jokers)]
    return Meld(tuple(cards), tuple(roles))


def _assemble(pieces: Sequence[Piece], rules: ManipulationRules) -> list[Meld] | None:
    """Pieces to printed melds: adjacent run pieces join (at most one home each), then jokers in
    a meld of jokers only move to melds with room. None if they find none (the exact model is needed).
    """
    runs: list[list[Any]] = []  # [suit, start, slots, home]
    sets: list[list[Any]] = []  # [rank, members, home]
    for p in pieces:
        if p.kind == "set":
            sets.append([p.rank, list(p.slots), p.home])
        else:
            runs.append([p.suit, p.start, list(p.slots), p.home])
    runs.sort(key=lambda r: (r[3] is None, r[0], r[1]))
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
    loose = sum(len(ch[2]) for ch in chains if all(c is None for c in ch[2]))
    loose += sum(len(st[1]) for st in sets if all(c is None for c in st[1]))
    if loose:
        chains = [ch for ch in chains if any(c is not None for c in ch[2])]
        sets = [st for st in sets if any(c is not None for c in st[1])]
        lo_pos, hi_pos = (2 if rules.ace == "high" else 1, 13 if rules.ace == "low" else 14)
        for ch in chains:
            while loose and len(ch[2]) < 13:
                if ch[1] + len(ch[2]) <= hi_pos:
                    ch[2].append(None)
                elif ch[1] > lo_pos:
                    ch[1] -= 1
                    ch[2].insert(0, None)
                else:  # pragma: no cover - a run of under 13 cards always has room
                    break
                loose -= 1
        for st in sets:
            while loose and len(st[1]) < 4:
                st[1].append(None)
                loose -= 1
        if loose:
            return None
    return [_joker_run(ch[0], ch[1], ch[2]) for ch in chains] + [_set_meld(st[0], st[1]) for st in sets]


def _sort_key(meld: Meld) -> tuple[int, ...]:
    return tuple(c.index if r is None else r.index for c, r in zip(meld.cards, meld.roles))


def _finish(
    old: tuple[Meld, ...],
    hand: Cards,
    new: Sequence[Meld],
    played: Cards,
    rules: ManipulationRules,
    status: Literal["optimal", "feasible", "none"],
    objective: Objective,
    least: Literal["optimal", "feasible", "skipped"],
    matching: Sequence[int | None] | None = None,
) -> Play:
    """Order the new table (partners of old melds first), diff it against the old one.

    ``matching`` (old meld -> new meld) is computed by the graph layer unless
    given (the extension play pairs every old meld with its own extension).
    """
    if matching is None:
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

    With ``least_change`` (the default), the play also keeps the most old
    melds whole and then moves the fewest table cards, with the score held
    at the best. ``time_limit`` (seconds) covers every solver call.
    Bad input raises :class:`~solver.errors.ShanghaiError` subclasses.

    Exact shortcuts come first (:mod:`solver.manipulation.shortcut`): when no
    hand card is playable at all the answer is ``none``; when the best play
    keeping every old meld whole plays every playable card it is optimal and
    least change with no solver call; when it reaches the solver's best
    score, it is the least-change play and the second solve is skipped.
    """
    import time

    start = time.perf_counter()
    old = tuple(table)
    on_table = _check_position(old, hand, rules)
    if objective not in ("cards", "value"):
        raise ValueError(f"objective must be 'cards' or 'value', not {objective!r}")
    bound = playable_bound(on_table, hand, rules)
    if not bound:
        return _unchanged(old, hand, rules, objective)
    least_done: Literal["optimal", "skipped"] = "optimal" if least_change else "skipped"
    search = ExtensionSearch(old, hand, rules, objective, table_cards=on_table, bound=bound)
    ext = search.find()
    if ext.found:
        return _from_extension(old, hand, ext, rules, objective, least_done)
    from solver.manipulation.model import exact_instance, plain_instance, solve_least_change

    t = _template(rules, objective)
    instance: Instance | None = None
    melds: list[Meld] | None
    status: Literal["optimal", "feasible"] = "optimal"
    # with no joker in play the best card count comes from an exact dynamic program (no solver)
    natural = natural_play(old, hand, rules, table_cards=on_table, bound=bound) if objective == "cards" else None
    if natural is not None:
        if not natural.played:
            return _unchanged(old, hand, rules, objective)
        played_best, melds = natural.played, list(natural.table)
        new_score = len(on_table) + len(natural.played)
    else:
        solved, instance, first, melds = _solve_plain(t, on_table, hand, rules, time_limit)
        if solved.status == "unknown":
            return _unchanged(old, hand, rules, objective, "feasible")
        if not solved.played:
            return _unchanged(old, hand, rules, objective, "none" if solved.status == "optimal" else "feasible")
        status = "optimal" if solved.status == "optimal" else "feasible"
        played_best, new_score = solved.played, first.objective
    least: Literal["optimal", "feasible", "skipped"] = "skipped"
    if least_change:
        if status == "optimal":
            score = sum(card_weight(c, rules, objective) * n for c, n in played_best.items())
            best = search.find(score)
            if best.found:  # every old meld kept, nothing moved: least change at its best
                return _from_extension(old, hand, best, rules, objective, "optimal")
        if instance is None:
            instance = plain_instance(t, on_table, hand)
        left = max(0.05, time_limit - (time.perf_counter() - start))
        better = solve_least_change(t, instance, new_score, old, rules, on_table, left)
        better_melds = None if better is None else _assemble(better.pieces, rules)
        if better is not None and better_melds is None:  # a meld of jokers only: the exact model
            instance = exact_instance(t, on_table, hand)
            left = max(0.05, time_limit - (time.perf_counter() - start))
            better = solve_least_change(t, instance, new_score, old, rules, on_table, left)
            better_melds = None if better is None else _assemble(better.pieces, rules)
        if better is not None and better_melds is not None:
            played_best, melds = better.played, better_melds
            least = "optimal" if better.least_change_status == "optimal" else "feasible"
        else:
            least = "feasible"
    if melds is None:  # pragma: no cover - the exact model never leaves jokers alone
        raise MeldError("a meld of jokers only could not be placed")
    played = validate_rearrangement(old, hand, melds, rules.meld_spec)
    if played != played_best:  # pragma: no cover - a bug in the decoder
        raise MeldError(f"decoded table adds {played}, the solver says {played_best}")
    return _finish(old, hand, melds, played, rules, status, objective, least)


def _solve_plain(
    t: Template, on_table: Cards, hand: Cards, rules: ManipulationRules, time_limit: float
) -> tuple[Solved, Instance, Any, list[Meld] | None]:
    """Phase 1 with jokers as role copies; again with the exact refinement if the decoded
    table keeps a meld of jokers only that no meld has room for (three or more jokers)."""
    import time

    from solver.manipulation.model import solve_play

    start = time.perf_counter()
    solved, instance, first = solve_play(t, on_table, hand, time_limit)
    if solved.status not in ("optimal", "feasible") or not solved.played:
        return solved, instance, first, None
    melds = _assemble(solved.pieces, rules)
    if melds is None:
        left = max(0.05, time_limit - (time.perf_counter() - start))
        solved, instance, first = solve_play(t, on_table, hand, left, exact=True)
        if solved.status in ("optimal", "feasible") and solved.played:
            melds = _assemble(solved.pieces, rules)
    return solved, instance, first, melds


def _from_extension(
    old: tuple[Meld, ...],
    hand: Cards,
    ext: Extension,
    rules: ManipulationRules,
    objective: Objective,
    least: Literal["optimal", "skipped"],
) -> Play:
    """The play of an extension search: optimal, every old meld kept whole (matched to itself)."""
    played = validate_rearrangement(old, hand, ext.table, rules.meld_spec)
    if played != ext.played:  # pragma: no cover - a bug in the search
        raise MeldError(f"extension table adds {played}, the search says {ext.played}")
    if not played:
        return _unchanged(old, hand, rules, objective)
    return _finish(old, hand, ext.table, played, rules, "optimal", objective, least, tuple(range(len(old))))


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
    import time

    from solver.manipulation.model import enumerate_plays, solve_play

    start = time.perf_counter()
    old = tuple(table)
    on_table = _check_position(old, hand, rules)
    t = _template(rules, objective)
    exact = (on_table + hand).count(_JOKER) >= 3
    if not playable_bound(on_table, hand, rules):
        return ()
    solved, instance, first = solve_play(t, on_table, hand, time_limit, exact=exact)
    if solved.status == "unknown" or not solved.played:
        return ()
    left = max(0.05, time_limit - (time.perf_counter() - start))
    found = enumerate_plays(t, instance, first, on_table, hand, left, limit)
    return tuple(sorted(found, key=lambda c: str(c)))


def max_cards_playable(
    table: Sequence[Meld], hand: Cards, rules: ManipulationRules, *, time_limit: float = 10.0
) -> int:
    """The most hand cards one play can add (the best found if time runs out).

    No solver call when no hand card is playable at all, or when every
    playable card can be played without rearranging (the exact shortcuts of
    :mod:`solver.manipulation.shortcut`).
    """
    old = tuple(table)
    on_table = _check_position(old, hand, rules)
    bound = playable_bound(on_table, hand, rules)
    if not bound:
        return 0
    if extension_play(old, hand, rules, table_cards=on_table, bound=bound).found:
        return len(bound)
    solved, _, _, _ = _solve_plain(_template(rules, "cards"), on_table, hand, rules, time_limit)
    return len(solved.played)


def can_play(table: Sequence[Meld], hand: Cards, rules: ManipulationRules, *, time_limit: float = 10.0) -> bool:
    """Whether at least one hand card can be played (for ``must_play`` and ``draw_rule``).

    No solver call when no hand card is playable at all, or when one can be
    played without rearranging.
    """
    if not hand:
        return False
    old = tuple(table)
    on_table = _check_position(old, hand, rules)
    bound = playable_bound(on_table, hand, rules)
    if not bound:
        return False
    if extension_play(old, hand, rules, table_cards=on_table, bound=bound, target=1).found:
        return True
    solved, _, _, _ = _solve_plain(_template(rules, "cards"), on_table, hand, rules, time_limit)
    return bool(solved.played)
