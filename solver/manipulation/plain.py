"""Stage 3 on the compiled core: the dynamic program asked for the whole bound first (the plain question).

Where the compiled core is built (:func:`solver.native.core`), the dynamic
program of :mod:`solver.manipulation.natural` costs 10-20 ns a step instead
of 0.6-1 us, so the plain :func:`~solver.manipulation.best_play`
(``least_change=False``) asks it of far larger positions than
:data:`~solver.manipulation.natural.DP_CARDS`, before CP-SAT, by
:func:`descend`:

1. **beams**: the program asked for every card of the playable bound, its
   layers keeping at most :data:`NATIVE_BEAMS` states (the first met). A
   path found plays the whole bound, an upper bound on every play, so it is
   optimal; none found proves nothing.
2. **exact** (table plus bound at most :data:`NATIVE_CARDS` cards): the
   program asked for the whole bound, then one card fewer, and so on. Asked
   for a target, it drops every state that cannot reach it with the hand
   cards still to come, so a high target is cheap to prove or refute; the
   first target reached is the optimum (the program returns the most cards
   a path adds once that reaches the target). On the issue's positions:
   2-20x less work than one program asked for one card.

Every try's steps count against one budget (:data:`NATIVE_BUDGET`); past
it, CP-SAT answers. The same loop runs in Python (:class:`~solver.manipulation.natural._Program`
with the cap) as the oracle: the answer and the work counted are the
same on both paths (``tests/native/test_manipulation_plain.py``). Only the
native path of :func:`~solver.manipulation.best_play` asks it: in Python the
program at these sizes costs more than the CP-SAT solve it would replace, so
the pure path keeps stage 3 as it was (:func:`~solver.manipulation.natural.natural_play`
up to :data:`~solver.manipulation.natural.DP_CARDS`). The count, value and
status of the answer are the same on both paths; the table may be another
optimal one.

>>> from solver.melds import parse_table
>>> rules = ManipulationRules.preset("norwegian")
>>> best = natural_most(parse_table("3H 4H 5H 6H | 3C 4C 5C 6C"), Cards.parse("6S KD"), rules)
>>> str(best.played), [str(m) for m in best.table]
('6S', ['3H 4H 5H', '6S 6H 6C', '3C 4C 5C'])
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add, sub

from solver.cards import Cards
from solver.errors import ShanghaiError
from solver.manipulation.bound import playable_bound
from solver.manipulation.natural import NO_CAP, NaturalPlay, _Program
from solver.manipulation.natural_melds import _natural_melds, _old_first
from solver.manipulation.natural_states import (
    _OutOfBudget,
    _stages,
)
from solver.melds import Meld
from solver.native import core
from solver.ranks import N_NATURAL
from solver.rules import ManipulationRules

__all__ = ["NATIVE_BEAMS", "NATIVE_BUDGET", "NATIVE_CARDS", "natural_most", "descend", "native_stage"]

NATIVE_BUDGET = 150_000
"""Steps of the compiled program (every try counted) before :func:`~solver.manipulation.best_play`
asks CP-SAT instead: about 2 ms at 10-20 ns a step, what the plain CP-SAT solve of the positions
near :data:`NATIVE_CARDS` costs (docs/native.md, "The plain question")."""

NATIVE_CARDS = 100
"""The most cards (table plus playable hand) for which the exact tries run: past it (three and four
decks, 130-190 cards) the program's states multiply and it needed 2-4 million steps (25-70 ms) to
prove what CP-SAT proves in 4-5 ms, so only the beams run there."""

NATIVE_BEAMS = (64, 512)
"""The caps of the beam tries (states a layer keeps), in turn, before the exact ones: a beam that
finds a path for the whole playable bound has found an optimal play (the bound is an upper bound);
one that finds none proves nothing. On the issue's four-deck positions (143 table cards) a cap of
64 found one on 6 of 10 in 0.2 ms; 1,000 on 8 (2 ms)."""

_ACES = {"low": 0, "high": 1, "both": 2}  # the core's ace codes
_NATIVE_COPIES = 4  # the most copies of a card the native state holds (four decks)

Attempt = tuple[int, list[list[int]], list[int], int]
"""The program's answer: (1 found, 0 no play, -1 gave up), melds, copies used, work."""


def _descend_pure(tc: list[int], bc: list[int], ace: str, budget: int, beams: Sequence[int], exact: bool) -> Attempt:
    """:func:`descend` in Python (the oracle of the compiled ``natural_most``)."""
    total = sum(bc)
    if not total:
        return 0, [], [], 0
    stages = _stages(tc, bc, ace)
    work = 0
    tries = [(total, cap) for cap in beams] + ([(t, NO_CAP) for t in range(total, 0, -1)] if exact else [])
    for target, cap in tries:
        program = _Program(stages, budget - work, cap)
        try:
            found = program.best(target)
        except _OutOfBudget:
            return -1, [], [], work + program.work
        work += program.work
        if found is not None:
            melds, used = _natural_melds(stages, found[1], ace)
            return 1, melds, used, work
    return (0 if exact else -1), [], [], work


def native_program(tc: Sequence[int], bc: Sequence[int]) -> bool:
    """Whether the compiled program is built and used, and holds these counts (at most four copies)."""
    return core("manipulation") is not None and max(map(add, tc[:N_NATURAL], bc[:N_NATURAL])) <= _NATIVE_COPIES


def descend(
    tc: Sequence[int], bc: Sequence[int], ace: str, budget: int, beams: Sequence[int] = NATIVE_BEAMS, *, exact: bool
) -> Attempt:
    """The program asked for every card of the bound ``bc`` with each cap of ``beams`` in turn, then
    (``exact``) with no cap for the bound, one card fewer, ... down to one, until a try finds a play:
    (1, melds, used, work); (0, ...) when no play exists (``exact`` only); (-1, ...) past ``budget``
    (every try counted) or, not ``exact``, when no beam found a play of the whole bound. Compiled
    where :func:`native_program` says so, else in Python: step for step the same, the same work."""
    tn, bn = list(tc[:N_NATURAL]), list(bc[:N_NATURAL])
    if any(c < 1 for c in beams):
        raise ValueError(f"a beam keeps at least one state, not {min(beams)}")
    if not native_program(tn, bn):
        return _descend_pure(tn, bn, ace, budget, beams, exact)
    mod = core("manipulation")
    assert mod is not None  # native_program said so
    try:
        status, melds, used, work = mod.natural_most(tn, bn, _ACES[ace], budget, list(beams), exact)
    except ValueError as exc:  # the core refused the input (it checks again): typed, never a crash
        raise ShanghaiError(f"the compiled dynamic program refused its input: {exc}") from None
    return status, melds, used, work


def natural_most(
    table: Sequence[Meld],
    hand: Cards,
    rules: ManipulationRules,
    *,
    table_cards: Cards | None = None,
    bound: Cards | None = None,
    budget: int = NATIVE_BUDGET,
    beams: Sequence[int] = NATIVE_BEAMS,
    exact: bool = True,
) -> NaturalPlay | None:
    """The best play by card count when no joker is in play, or None (out of budget, a joker in
    play, or ``ace=both`` with a run over all 14 positions possible: then ask the solver), as
    :func:`~solver.manipulation.natural.natural_play` answers it, by :func:`descend`.

    ``table`` must be valid (not checked here); ``bound`` defaults to
    :func:`~solver.manipulation.bound.playable_bound`.
    """
    old = tuple(table)
    on_table = Cards(c for m in old for c in m.cards) if table_cards is None else table_cards
    if any(on_table.counts[N_NATURAL:]) or any(hand.counts[N_NATURAL:]):
        return None
    if bound is None:
        bound = playable_bound(on_table, hand, rules)
    if not bound:
        return NaturalPlay(Cards(), old)
    tc, bc = on_table.counts, bound.counts
    if rules.ace == "both":
        for s in range(4):
            if tc[s * 13] + bc[s * 13] >= 2 and all(tc[s * 13 + r] + bc[s * 13 + r] for r in range(1, 13)):
                return None
    status, melds, used, _ = descend(tc, bc, rules.ace, budget, beams, exact=exact)
    if status < 0:
        return None
    if not status:
        return NaturalPlay(Cards(), old)
    played = Cards._make((*map(sub, used, tc[:N_NATURAL]), *tc[N_NATURAL:]))  # no joker in play: zeros
    return NaturalPlay(played, _old_first(old, melds))


def native_stage(
    old: tuple[Meld, ...], hand: Cards, rules: ManipulationRules, on_table: Cards, bound: Cards
) -> NaturalPlay | None:
    """Stage 3 of :func:`~solver.manipulation.best_play` on the compiled core: :func:`natural_most`
    within :data:`NATIVE_CARDS` and :data:`NATIVE_BUDGET`; None where the core is not used (not
    built, pure mode, more than four copies), past those limits, or where the program steps aside."""
    if not native_program(on_table.counts, bound.counts):
        return None
    exact = len(on_table) + len(bound) <= NATIVE_CARDS
    return natural_most(old, hand, rules, table_cards=on_table, bound=bound, exact=exact)
