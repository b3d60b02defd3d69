"""Stage 3 of the best play: the exact dynamic program, when no joker is in play.

:func:`natural_play` finds the most hand cards one play can add, with a
table that adds them, by dynamic programming over rank positions (also the
engine's "can the player play?" question). Exact, with no least-change
pass; it steps aside (None) when a joker is in play or past a work budget.

Cost: at most ``budget`` steps (2,000 by default, about 0.6-1 us each since
the state became one int, 2-4 us before: the budget was set to about what
the CP-SAT solve it replaces costs, and is kept, so the program gives up
exactly where it did); past it the program gives up and CP-SAT decides.

Where the compiled core is built (``solver.native``), the stages, the
program and the melds run in C++ (:func:`_program` dispatches; about 8x
faster a call), step for step the code here, which stays as the fallback
and as the oracle of ``tests/native/test_manipulation.py``.

>>> from solver.melds import parse_table
>>> rules = ManipulationRules.preset("norwegian")
>>> best = natural_play(parse_table("3H 4H 5H 6H | 3C 4C 5C 6C"), Cards.parse("6S KD"), rules)
>>> str(best.played), [str(m) for m in best.table]
('6S', ['3H 4H 5H', '6S 6H 6C', '3C 4C 5C'])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from operator import add, sub

from solver.cards import Cards
from solver.errors import ShanghaiError
from solver.manipulation.bound import playable_bound
from solver.manipulation.natural_melds import _natural_melds, _old_first
from solver.manipulation.natural_states import (
    _CLOSED,
    _GM,
    _GS,
    _LOW,
    _RUNS,
    _SETS,
    _SKIP,
    _SUIT_BITS,
    _Back,
    _entries,
    _Entry,
    _Option,
    _OutOfBudget,
    _Stage,
    _stages,
)
from solver.melds import Meld
from solver.native import core
from solver.ranks import N_NATURAL
from solver.rules import ManipulationRules

__all__ = ["NaturalPlay", "natural_play", "DP_BUDGET", "DP_CARDS", "DP_CARDS_LEAST"]


DP_BUDGET = 2_000
"""Steps before :func:`natural_play` gives up (set at 2-4 us a step to about what a CP-SAT solve
costs; a step is now 0.6-1 us, the count unchanged, so the answers are)."""

DP_CARDS = 50
"""The most cards (table plus playable hand) for which :func:`~solver.manipulation.best_play` tries
the program: past it, at :data:`DP_BUDGET` steps, it decided none of the benchmark's positions with
two or more decks (docs/decisions-manipulation.md) and cost 1-2 ms each time."""

DP_CARDS_LEAST = 35
"""The same limit when least change is asked for (the default answer): the program proves the best
count, but a CP-SAT solve with the count fixed is still needed unless every old meld can be kept,
and with the least-change solve's tails cut (two rounds of root cuts) the program lost on average
from 36 cards up (random positions of one and two decks, docs/decisions-manipulation.md, eighth
round)."""


@dataclass(frozen=True, slots=True)
class NaturalPlay:
    """The best play (most hand cards) of a position with no joker, found by dynamic programming.

    ``table`` is a whole new table holding every old table card and ``played``;
    no play adds more hand cards. It keeps old melds only where the program
    happens to rebuild them (there is no least-change pass); those come
    first, in their old order.
    """

    played: Cards
    table: tuple[Meld, ...]

    @property
    def cards(self) -> int:
        """How many hand cards the play adds."""
        return len(self.played)


NO_CAP = 1 << 62
"""A cap no layer reaches: the exact program."""


class _Program:
    """The dynamic program over ``stages``: forward while hand cards remain, then depth first.

    A state is an int (see ``_CODES``); the order in which states are met, kept and completed is the
    order of the options of :func:`_suit_options`, so the path found is one function of the position.
    A layer keeps at most ``cap`` states (the first met; a state already kept is still improved): the
    beams of :mod:`solver.manipulation.plain`; the default keeps every state.
    """

    def __init__(self, stages: list[_Stage], budget: int, cap: int = NO_CAP) -> None:
        self.stages = stages
        self.budget = budget
        self.cap = cap
        self.work = 0
        self.failed: set[int] = set()  # (state, stage) pairs known not to complete, as st << 6 | k
        left = [0] * (len(stages) + 1)  # hand copies in the stages from k on
        for k in range(len(stages) - 1, -1, -1):
            left[k] = left[k + 1] + stages[k][6]
        self.left = left
        self.memos: list[dict[int, tuple[_Entry, ...]]] = [{} for _ in stages]  # options by open runs

    def _options(self, k: int, st: int) -> tuple[_Entry, ...]:
        """The options at stage ``k`` from state ``st`` (at the ace's second column they depend on the
        copies its first column took)."""
        s, _, avail, need, column, _, _ = self.stages[k]
        shift = _SUIT_BITS * s
        runs = (st >> shift) & _RUNS
        if column == 2:  # the copies the first column left; hand cards are what the first did not count
            taken = (st >> (_LOW + 3 * s)) & 7
            sub = need - taken if need > taken else 0
            return _entries(runs, shift, avail - taken, sub, False, sub)
        memo = self.memos[k]
        found = memo.get(runs)
        if found is None:
            found = memo[runs] = _entries(runs, shift, avail, 0 if column else need, True, need)
        return found

    def _moves(self, k: int, st: int) -> list[tuple[_Option, int, int]]:
        """Every move from state ``st`` at stage ``k``: (option, next state, hand cards added).

        After the fourth suit the position closes: its set copies must make sets.
        """
        stage = self.stages[k]
        s, column, rest = stage[0], stage[4], stage[5]
        gsum, gmax = (st >> _GS) & 31, (st >> _GM) & 7
        base = st & ~_SETS
        low = _LOW + 3 * s
        out: list[tuple[_Option, int, int]] = []
        for gain, g, delta, opt in self._options(k, st):
            gs = gsum + g
            gm = g if g > gmax else gmax
            if gs + rest < 3 * gm:  # too few copies here to make sets of them (at the fourth suit: none to come)
                continue
            ns = base + delta if s == 3 else base + delta + (gs << _GS) + (gm << _GM)
            if column == 1:
                ns = (ns & ~(7 << low)) | (opt[0] << low)
            out.append((opt, ns, gain))
        return out

    def complete(self, k: int, st: int) -> list[_Option] | None:
        """The options of a path from stage ``k`` to the end (reversed), or None.

        Stages where nothing happens (no copy, no run of the suit open, no set to close) are
        passed over in a loop (no work counted, none ever marked failed).
        """
        stages = self.stages
        n = len(stages)
        skipped = 0
        while k < n:
            s, _, copies, sub, column, later, _ = stages[k]
            if copies or column or (st >> (_SUIT_BITS * s)) & _RUNS or (s == 3 and st & _SETS):
                break
            k += 1
            skipped += 1
        if k == n:
            closed = all((st >> (_SUIT_BITS * s)) & _RUNS in _CLOSED for s in range(4))
            return [_SKIP] * skipped if closed else None
        if st << 6 | k in self.failed:  # (k < 64: at most 14 positions of four suits)
            return None
        moves: list[tuple[_Option, int]]
        if column:
            moves = [(opt, ns) for opt, ns, _ in self._moves(k, st)]
        else:  # _moves, written out (the same options in the same order: the completion's hot path)
            shift = _SUIT_BITS * s
            runs = (st >> shift) & _RUNS
            memo = self.memos[k]
            entries = memo.get(runs)
            if entries is None:
                entries = memo[runs] = _entries(runs, shift, copies, sub, True, sub)
            gsum, gmax = (st >> _GS) & 31, (st >> _GM) & 7
            base = st & ~_SETS
            close = s == 3
            moves = []
            for _, g, delta, opt in entries:
                gs = gsum + g
                gm = g if g > gmax else gmax
                if gs + later < 3 * gm:
                    continue
                moves.append((opt, base + delta if close else base + delta + (gs << _GS) + (gm << _GM)))
        self.work += len(moves) + 1
        if self.work > self.budget:
            raise _OutOfBudget
        for opt, ns in moves:
            rest = self.complete(k + 1, ns)
            if rest is not None:
                rest.append(opt)
                rest.extend([_SKIP] * skipped)
                return rest
        self.failed.add(st << 6 | k)
        return None

    def _layer(self, k: int, cur: dict[int, int], need: int) -> tuple[dict[int, int], _Back]:
        """One forward step: every state's moves at stage ``k``, keeping for each next state the most
        hand cards (at least ``need``) and where it came from."""
        nxt: dict[int, int] = {}
        back: _Back = {}
        stage = self.stages[k]
        s, _, copies, sub, column, rest, _ = stage
        cap = self.cap
        if column:  # an ace column: by _moves
            for st, val in cur.items():
                moves = self._moves(k, st)
                self.work += len(moves) + 1
                for opt, ns, gain in moves:
                    nv = val + gain
                    if nv >= need and nv > nxt.get(ns, -1) and (len(nxt) < cap or ns in nxt):
                        nxt[ns] = nv
                        back[ns] = (st, opt)
            return nxt, back
        shift = _SUIT_BITS * s
        close = s == 3
        work = 0
        memo = self.memos[k]
        get = nxt.get
        for st, val in cur.items():
            runs = (st >> shift) & _RUNS
            if not copies and not runs and (not close or not st & _SETS):  # nothing happens here
                work += 1
                if val >= need and val > get(st, -1) and (len(nxt) < cap or st in nxt):
                    nxt[st] = val
                    back[st] = (st, _SKIP)
                continue
            entries = memo.get(runs)
            if entries is None:
                entries = memo[runs] = _entries(runs, shift, copies, sub, True, sub)
            work += len(entries) + 1
            gsum, gmax = (st >> _GS) & 31, (st >> _GM) & 7
            base = st & ~_SETS
            least = need - val
            for gain, g, delta, opt in entries:  # the hot loop
                if gain < least:
                    continue
                gs = gsum + g
                gm = g if g > gmax else gmax
                if gs + rest < 3 * gm:
                    continue
                ns = base + delta if close else base + delta + (gs << _GS) + (gm << _GM)
                nv = val + gain
                if nv > get(ns, -1) and (len(nxt) < cap or ns in nxt):
                    nxt[ns] = nv
                    back[ns] = (st, opt)
        self.work += work
        return nxt, back

    def best(self, target: int) -> tuple[int, list[_Option]] | None:
        """The most hand cards a path adds and its options, when that reaches ``target``; else None.

        Forward while hand cards remain (a state that cannot reach ``target``
        with the hand cards still to come is dropped), then the best states
        are completed depth first.
        """
        cur: dict[int, int] = {0: 0}
        layers: list[_Back] = []
        k = 0
        while k < len(self.stages) and self.left[k] > 0:
            cur, back = self._layer(k, cur, target - self.left[k + 1])
            if self.work > self.budget:
                raise _OutOfBudget
            layers.append(back)
            k += 1
            if not cur:
                return None
        for st, val in sorted(cur.items(), key=lambda item: -item[1]):
            if val < target:
                return None
            tail = self.complete(k, st)
            if tail is not None:
                head: list[_Option] = []
                for back in reversed(layers):
                    st, opt = back[st]
                    head.append(opt)
                return val, [*reversed(head), *reversed(tail)]
        return None


def natural_play(
    table: Sequence[Meld],
    hand: Cards,
    rules: ManipulationRules,
    *,
    table_cards: Cards | None = None,
    bound: Cards | None = None,
    at_least: int = 1,
    budget: int = DP_BUDGET,
) -> NaturalPlay | None:
    """The best play by card count when no joker is in play, or None (then ask the solver).

    ``table`` must be valid (not checked here). When no play adds
    ``at_least`` hand cards the answer is the old table, nothing played (so
    with ``at_least=1`` it is always the best play).

    A dynamic program over rank positions, one suit at a time: the state is
    each suit's open runs (one, two, three or more cards so far) and the
    copies going into sets at the current position (``g`` copies per suit
    make sets of three or four distinct suits exactly when ``3 * max(g) <=
    sum(g)``). Every table card is used; hand cards within ``bound``
    (:func:`playable_bound` by default) may be. States that cannot reach
    ``at_least`` with the hand cards still to come are dropped; once no hand
    card is left, a depth-first search completes the best states. None when
    a joker is in play, when ``ace=both`` could allow a run over all 14
    positions, or when more than ``budget`` steps would be needed.

    >>> from solver.melds import parse_table
    >>> rules = ManipulationRules.preset("norwegian")
    >>> best = natural_play(parse_table("3H 4H 5H 6H | 3C 4C 5C 6C"), Cards.parse("6S KD"), rules)
    >>> str(best.played), [str(m) for m in best.table]
    ('6S', ['3H 4H 5H', '6S 6H 6C', '3C 4C 5C'])
    """
    old = tuple(table)
    on_table = Cards(c for m in old for c in m.cards) if table_cards is None else table_cards
    if any(on_table.counts[N_NATURAL:]) or any(hand.counts[N_NATURAL:]):
        return None
    if bound is None:
        bound = playable_bound(on_table, hand, rules)
    if len(bound) < at_least or not bound:
        return NaturalPlay(Cards(), old)
    tc, bc = on_table.counts, bound.counts
    if rules.ace == "both":
        for s in range(4):
            if tc[s * 13] + bc[s * 13] >= 2 and all(tc[s * 13 + r] + bc[s * 13 + r] for r in range(1, 13)):
                return None
    try:
        found = _program(tc, bc, rules.ace, budget, max(1, at_least))
    except _OutOfBudget:
        return None
    if found is None:
        return NaturalPlay(Cards(), old)
    melds, used = found
    played = Cards._make((*map(sub, used, tc[:N_NATURAL]), *tc[N_NATURAL:]))  # no joker in play: zeros
    return NaturalPlay(played, _old_first(old, melds))


def _program(
    tc: Sequence[int], bc: Sequence[int], ace: str, budget: int, target: int
) -> tuple[list[list[int]], list[int]] | None:
    """The program's melds (card indexes) and the copies of each natural card they hold, for table
    counts ``tc`` and bound counts ``bc``; None when no play reaches ``target``; _OutOfBudget past
    ``budget`` steps. In the compiled core when it is built (the very same stages, path, tie-breaks
    and work count: solver/native/src/manipulation.cpp), else :func:`_stages`, :class:`_Program`
    and :func:`_natural_melds` here."""
    mod = core("manipulation")
    if mod is not None:
        tn, bn = list(tc[:N_NATURAL]), list(bc[:N_NATURAL])
        if (
            max(map(add, tn, bn)) <= _NATIVE_COPIES and abs(target) <= _NATIVE_TARGET
        ):  # what crosses is checked: the state's room
            try:
                status, melds, used, _ = mod.natural_program(
                    tn, bn, _ACES[ace], max(-_BIG, min(budget, _BIG)), min(target, _TARGET)
                )
            except ValueError as exc:  # the core refused the input (it checks again): typed, never a crash
                raise ShanghaiError(f"the compiled dynamic program refused its input: {exc}") from None
            if status < 0:
                raise _OutOfBudget
            return (melds, used) if status else None
    stages = _stages(tc, bc, ace)
    found = _Program(stages, budget).best(target)
    if found is None:
        return None
    return _natural_melds(stages, found[1], ace)


_ACES = {"low": 0, "high": 1, "both": 2}  # the core's ace codes
_NATIVE_TARGET = 1 << 20
"""The largest target the core takes (its sums must not overflow); a larger one runs in Python."""
_NATIVE_COPIES = 4  # the most copies of a card the state holds (four decks)
_BIG = 1 << 62  # budgets past this are "no limit" (the core counts work in 64 bits)
_TARGET = 1 << 30  # targets past this are never reached either way
