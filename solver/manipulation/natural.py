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

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from operator import add, itemgetter, sub
from typing import NamedTuple

from solver.cards import ALL_CARDS, Cards
from solver.errors import ShanghaiError
from solver.manipulation.bound import playable_bound
from solver.melds import Meld
from solver.native import core
from solver.ranks import N_NATURAL, ace_high, position_range
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

RunCodes = tuple[int, ...]  # one suit's open runs, sorted: 1, 2 = that many cards so far, 3 = three or more


class _Option(NamedTuple):
    """One way a suit's copies at a position go: continuing runs, starting runs, into sets."""

    used: int  # copies used
    into_sets: int  # copies going into sets
    codes: RunCodes  # the suit's open runs after
    continued: int  # runs of three or more continued
    started: int  # runs started


# The program's state is one int (hashed and compared far faster than a tuple of tuples): each
# suit's open runs as an index into _CODES (6 bits a suit), then the copies going into sets at this
# position (their sum, 5 bits, and the most of one suit, 3 bits), then the copies each suit used at
# the first ace column under ace=both (3 bits a suit). At most four decks: at most four open runs a
# suit, sixteen set copies a position.
_CODES: tuple[RunCodes, ...] = tuple(
    sorted(
        {tuple(sorted(c)) for n in range(5) for c in itertools.product((1, 2, 3), repeat=n)}, key=lambda c: (len(c), c)
    )
)
_CODE_ID = {codes: i for i, codes in enumerate(_CODES)}  # () is 0: the empty state is the int 0
_CLOSED = frozenset(i for i, codes in enumerate(_CODES) if all(r == 3 for r in codes))
_SUIT_BITS = 6
_RUNS = (1 << _SUIT_BITS) - 1
_GS, _GM, _LOW = 24, 29, 32  # where the set sum, the set max and the first-column aces sit
_SETS = 255 << _GS  # both set fields
_Entry = tuple[int, int, int, _Option]  # (hand cards added, copies into sets, change of the state, option)


class _Stage(NamedTuple):
    """One suit at one rank position."""

    suit: int
    card: int  # card index
    copies: int  # copies on the table and in the bound
    table: int  # copies on the table (all must be used)
    column: int  # 0, or the ace's first (1) or second (2) column under ace=both
    later: int  # copies of the later suits at this position
    hand: int  # hand copies counted here


_stage = tuple.__new__  # builds a _Stage from a tuple without the Python-level constructor (52 a call)


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


@cache
def _suit_options(runs: RunCodes, avail: int, need: int, sets: bool) -> tuple[_Option, ...]:
    """Ways one suit's copies at a position continue its open ``runs``, start runs or join sets.

    Runs of one or two cards must continue; a run of three or more may stop.
    At least ``need`` copies (the table's) are used, at most ``avail``.
    Dominated options are left out: no run starts, and no copy is left
    unused, while a run of three or more stops (continuing that run instead
    is as good). The ace's first column under ``ace=both``, whose unused
    copies may go to its other column, is always the first stage: no run is
    open there.
    """
    must = sum(1 for r in runs if r < 3)
    long = len(runs) - must
    if must > avail:
        return ()
    grown = [r + 1 for r in runs if r < 3]
    out: list[_Option] = []
    for c3 in range(long + 1):
        for new in range(avail - must - c3 + 1):
            if new and c3 < long:
                continue
            codes = tuple(sorted([*grown, *([3] * c3), *([1] * new)]))
            for g in range(avail - must - c3 - new + 1 if sets else 1):
                used = must + c3 + new + g
                if used >= need and (c3 == long or used == avail):
                    out.append(_Option(used, g, codes, c3, new))
    return tuple(out)


def _stages(tc: Sequence[int], bc: Sequence[int], ace: str) -> list[_Stage]:
    """The DP's stages in rank-position order (four suits a position), read from the end with fewer
    table cards before the first hand card (runs read both ways): every arrangement of those cards
    is a state the program carries to that card.

    With ``ace=both`` the ace has two columns: 1 for the first one met (any
    copies, recorded in the state; its hand copies are counted at the other
    column) and 2 for the second (the rest; the table's copies must be used
    by then).
    """
    cards, forward, backward = _layout(ace)
    bcs = itemgetter(*cards)(bc)
    positions = forward
    for first, count in enumerate(bcs):
        if count:
            last = len(bcs) - 1 - next(k for k, count in enumerate(reversed(bcs)) if count)
            tcs = itemgetter(*cards)(tc)
            if sum(tcs[:first]) > sum(tcs[last + 1 :]):
                positions = backward
            break
    out: list[_Stage] = []
    for i0, i1, i2, i3, column in positions:
        a0, a1, a2, a3 = tc[i0] + bc[i0], tc[i1] + bc[i1], tc[i2] + bc[i2], tc[i3] + bc[i3]
        counted = column != 1
        out.append(_stage(_Stage, (0, i0, a0, tc[i0], column, a1 + a2 + a3, bc[i0] if counted else 0)))
        out.append(_stage(_Stage, (1, i1, a1, tc[i1], column, a2 + a3, bc[i1] if counted else 0)))
        out.append(_stage(_Stage, (2, i2, a2, tc[i2], column, a3, bc[i2] if counted else 0)))
        out.append(_stage(_Stage, (3, i3, a3, tc[i3], column, 0, bc[i3] if counted else 0)))
    return out


_RankPosition = tuple[int, int, int, int, int]  # the four suits' card indexes at a rank position, and its column


@cache
def _layout(ace: str) -> tuple[tuple[int, ...], tuple[_RankPosition, ...], tuple[_RankPosition, ...]]:
    """The stages' cards in rank-position order, and the positions read forward and backward (each
    with its ace column, see :func:`_stages`)."""
    lo, hi = position_range(ace)
    order = list(range(lo, hi + 1))
    cards = tuple(13 * s + (0 if q == 14 else q - 1) for q in order for s in range(4))

    def read(order: list[int]) -> tuple[_RankPosition, ...]:
        out = []
        for q in order:
            base = 0 if q == 14 else q - 1
            column = 0 if ace != "both" or q not in (1, 14) else (1 if q == order[0] else 2)
            out.append((base, 13 + base, 26 + base, 39 + base, column))
        return tuple(out)

    return cards, read(order), read(order[::-1])


_SKIP = _Option(0, 0, (), 0, 0)  # no copy here and no open run of the suit: nothing changes
_Back = dict[int, tuple[int, _Option]]  # a layer's way back: state -> (previous state, option)


class _OutOfBudget(Exception):
    """The dynamic program ran out of its work budget."""


@cache
def _entries(runs: int, shift: int, avail: int, need: int, sets: bool, sub: int) -> tuple[_Entry, ...]:
    """The options of :func:`_suit_options` for the suit at bit ``shift`` with open runs ``runs`` (an
    index into ``_CODES``), each with the hand cards it adds beyond ``sub`` and its change of the state."""
    out: list[_Entry] = []
    for opt in _suit_options(_CODES[runs], avail, need, sets):
        out.append((opt[0] - sub if opt[0] > sub else 0, opt[1], (_CODE_ID[opt[2]] - runs) << shift, opt))
    return tuple(out)


class _Program:
    """The dynamic program over ``stages``: forward while hand cards remain, then depth first.

    A state is an int (see ``_CODES``); the order in which states are met, kept and completed is the
    order of the options of :func:`_suit_options`, so the path found is one function of the position.
    """

    def __init__(self, stages: list[_Stage], budget: int) -> None:
        self.stages = stages
        self.budget = budget
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
        if column:  # an ace column: by _moves
            for st, val in cur.items():
                moves = self._moves(k, st)
                self.work += len(moves) + 1
                for opt, ns, gain in moves:
                    nv = val + gain
                    if nv >= need and nv > nxt.get(ns, -1):
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
                if val >= need and val > get(st, -1):
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
                if nv > get(ns, -1):
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


def _natural_melds(stages: Sequence[_Stage], path: Sequence[_Option], ace: str) -> tuple[list[list[int]], list[int]]:
    """Replay a path with the cards (by index): runs in rank order, sets in suit order; and the
    copies of each natural card the melds hold."""
    melds: list[list[int]] = []
    used = [0] * N_NATURAL
    open_runs: list[list[list[int]]] = [[], [], [], []]
    to_sets: list[int] = []
    copies = 0
    for stage, option in zip(stages, path):
        g, new, s = option[1], option[4], stage[0]
        runs = open_runs[s]
        if not g and not new and not runs and (s != 3 or not to_sets):
            continue  # no card here and no run of the suit open: nothing changes
        card = stage[1]
        if runs:
            c3 = option[3]
            short = [r for r in runs if len(r) < 3]
            long = [r for r in runs if len(r) >= 3]
            melds.extend(_run_order(r, ace) for r in long[c3:])
            going = short + long[:c3]
            going.extend([] for _ in range(new))
        else:
            going = [[] for _ in range(new)]
        for r in going:
            r.append(card)
        used[card] += len(going) + g
        open_runs[s] = going
        if g:
            to_sets.extend([card] * g)
            if g > copies:
                copies = g
        if s == 3 and to_sets:
            # round robin over the copies in suit order: no set holds a suit twice, sizes 3-4
            groups: list[list[int]] = [[] for _ in range(copies)]
            for k, c in enumerate(sorted(to_sets)):
                groups[k % copies].append(c)
            melds.extend(groups)
            to_sets, copies = [], 0
    for runs in open_runs:
        melds.extend(_run_order(r, ace) for r in runs)
    return melds, used


def _run_order(cards: list[int], ace: str) -> list[int]:
    """A run's card indexes in rank order, whichever way the program read it (the ace at the end
    :func:`solver.ranks.ace_high` gives it)."""
    if ace == "low" or (cards[0] % 13 and cards[-1] % 13):  # no ace, or the ace read low: rank order
        return cards if cards[0] < cards[-1] else cards[::-1]
    high = ace_high(ace, [c % 13 + 1 for c in cards])
    return sorted(cards, key=lambda c: 14 if c % 13 == 0 and high else c % 13 + 1)


def _old_first(old: tuple[Meld, ...], melds: Sequence[list[int]]) -> tuple[Meld, ...]:
    """The new table in a stable order: the old melds rebuilt unchanged first (as they were
    printed, in old order), then the others by the first old meld their cards come from (those
    with more of its cards first). ``melds`` are card indexes."""
    keys, home = _old_table(old)
    waiting: dict[tuple[int, ...], list[int]] = {}
    for j, m in enumerate(melds):
        waiting.setdefault(tuple(sorted(m)), []).append(j)
    first: list[Meld] = []
    taken: set[int] = set()
    for key, meld in zip(keys, old):
        js = waiting.get(key)
        if js:
            taken.add(js.pop(0))
            first.append(meld)
    n = len(old)
    get = home.get

    def order(m: list[int]) -> tuple[int, int, list[int]]:
        homes = [get(i, n) for i in m]
        low = min(homes)
        return low, -homes.count(low), m

    rest = sorted((m for j, m in enumerate(melds) if j not in taken), key=order)
    return (*first, *map(_meld_of, rest))


_MELDS: dict[tuple[int, ...], Meld] = {}
_MELDS_SIZE = 1 << 14  # entries before the memo starts afresh


def _meld_of(indexes: list[int]) -> Meld:
    """The meld of these card indexes, in this order: one shared (immutable) object per order of
    cards, so the memos keyed by the meld object (:func:`solver.manipulation.simple.additions`,
    :func:`_old_table`) serve it on later turns."""
    key = tuple(indexes)
    meld = _MELDS.get(key)
    if meld is None:
        if len(_MELDS) >= _MELDS_SIZE:
            _MELDS.clear()
        meld = _MELDS[key] = Meld(tuple([ALL_CARDS[i] for i in key]))
    return meld


_MELD_KEYS: dict[int, tuple[Meld, tuple[int, ...], tuple[int, ...]]] = {}  # by id(meld); holds the meld
_MELD_KEYS_SIZE = 1 << 14  # entries before the memo starts afresh


def _old_table(old: tuple[Meld, ...]) -> tuple[list[tuple[int, ...]], dict[int, int]]:
    """What :func:`_old_first` needs of the old table: each meld's sorted card indexes and, by card
    index, the first old meld holding it. A meld's indexes are remembered by the meld object (a
    table's melds stand turn after turn; the entry holds the meld)."""
    keys: list[tuple[int, ...]] = []
    cards: list[tuple[int, ...]] = []
    home: dict[int, int] = {}  # card index -> the first old meld holding it
    memo = _MELD_KEYS
    for meld in old:
        found = memo.get(id(meld))
        if found is None or found[0] is not meld:
            indexes = tuple([c.index for c in meld.cards])
            if len(memo) >= _MELD_KEYS_SIZE:
                memo.clear()
            found = memo[id(meld)] = (meld, indexes, tuple(sorted(indexes)))
        cards.append(found[1])
        keys.append(found[2])
    for k in range(len(old) - 1, -1, -1):  # backwards: the first meld holding a card has the last word
        home.update(zip(cards[k], itertools.repeat(k)))
    return keys, home
