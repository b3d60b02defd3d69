"""Zheng Shang You's fewest plays: split a hand into the fewest combinations.

The count is how many tricks the hand needs to go out with no opposition, the
solver player's measure of hand strength. Suits never matter for it, so an
exact memoised search (:class:`_Search`) works on rank counts; the choices it
makes are then realised as plays of real cards, each checked by
:func:`~solver.zsy.combos.classify`.

The answer is a pipeline of stages:

1. a greedy split (:func:`_greedy`: lowest rank first, the structure that
   plays the most cards), an upper bound, cheap (a few ms on 54 cards);
2. the exact search over rank counts (branch and bound with a memo of exact
   values and of proven lower bounds) for a split with fewer plays than the
   greedy one, under the time limit; if it proves there is none, the greedy
   split is optimal;
3. else the walk back through the memo to the chosen structures;
4. realising each structure with real cards, checked by ``classify``.

When the time runs out (or the search reaches :data:`MAX_STATES`) the answer
is the greedy split with status ``feasible`` (a valid split, not proven
fewest).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import chain, islice
from types import ModuleType
from typing import Any, Final, NamedTuple

from solver.cards import Card, Cards
from solver.cpsat import stopped
from solver.errors import ComboError, ShanghaiError, SolverTimeout, Status
from solver.native import core
from solver.rules import ZsyRules
from solver.zsy.combos import (
    ACE,
    BLACK,
    DEFAULT_RULES,
    KINDS,
    MAX_STRAIGHT,
    RED,
    TWO,
    Combo,
    Kind,
    Parts,
    check_cards,
    classify,
    zsy_value,
)

__all__ = ["Split", "fewest_plays", "plays_after"]


@dataclass(frozen=True, slots=True)
class Split:
    """A hand split into combinations: ``count`` plays, ``optimal`` or only ``feasible``."""

    plays: tuple[Combo, ...]
    count: int
    status: Status

    def __str__(self) -> str:
        return " | ".join(str(p) for p in self.plays)


_UNBOUNDED: Final = 1 << 20
MAX_STATES: Final = 400_000
"""The most states the search remembers (about 150 MB): past it, the answer is ``feasible`` as on a timeout."""
_TOP: Final = ACE - 3  # the index of the ace (index 0 is rank 3)


class _Group(NamedTuple):
    """The naturals of one rank as a single or a set (leftover wilds may join it)."""

    rank: int  # index: 0 is rank 3


class _Straight(NamedTuple):
    """A straight over natural ranks ``ranks`` (indexes) with ``jokers`` filling gaps and the top."""

    ranks: tuple[int, ...]
    jokers: int


class _Parallel(NamedTuple):
    """Parallel straights: ``naturals`` as (rank index, count) pairs, wilds filling the rest."""

    copies: int
    length: int
    naturals: tuple[tuple[int, int], ...]
    jokers: int
    twos: int


_Choice = _Group | _Straight | _Parallel
_Key = tuple[int, int, int, bool]  # (packed natural counts, jokers, 2s, a group exists)
_Next = tuple[int, int, int, _Choice]  # (packed, jokers, 2s) after a structure, and the structure


class _Search:
    """Exact search for the fewest plays on rank counts (suits never matter for it).

    The state is the count of natural cards per rank 3..A (3 bits each in
    one integer), the jokers and 2s not yet used, and whether a group (a
    single or set of a natural rank) exists. The lowest rank still held is
    decided next: each of its cards is in a straight or parallel whose
    lowest natural rank it is, or in the one group of its rank. Leftover
    wilds join any group for free (a set takes any number of wilds); with
    no group, leftover 2s make one set of 2s (with the jokers), and lone
    jokers are singles (RJ+BJ is not a set).
    """

    def __init__(self, deadline: float) -> None:
        self.memo: dict[_Key, tuple[int, _Choice | None]] = {}  # exact values
        self.low: dict[_Key, int] = {}  # proven lower bounds
        self.deadline = deadline
        self.calls = 0

    def best(self, packed: int, j: int, t: int, g: bool) -> int:
        """The exact fewest plays of a state (branch and bound: children only need to beat the best so far)."""
        return self.solve(packed, j, t, g, _UNBOUNDED)

    def solve(self, packed: int, j: int, t: int, g: bool, limit: int) -> int:
        """The exact value if it is below ``limit``, else a lower bound that is at least ``limit``."""
        key = (packed, j, t, g)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        if packed == 0:
            value = 0 if g or not (j or t) else (1 if t else j)
            self.memo[key] = (value, None)
            return value
        low = self.low.get(key, 1)
        if low >= limit:
            return low
        self._tick()
        i = ((packed & -packed).bit_length() - 1) // 3
        n = (packed >> (3 * i)) & 7
        best = 1 + self.solve(packed - (n << (3 * i)), j, t, True, limit - 1)
        choice: _Choice = _Group(i)
        if best > low:
            for nxt, j2, t2, desc in _structures(packed, i, j, t):
                self._tick()  # a dense hand has millions of structures for one state
                v = 1 + self.solve(nxt, j2, t2, g, min(limit, best) - 1)
                if v < best:
                    best, choice = v, desc
                    if best <= low:
                        break
        if best < limit:
            self.memo[key] = (best, choice)
            return best
        self.low[key] = limit
        return limit

    def _tick(self) -> None:
        """Count a step; every 1024 steps check the deadline and the memory cap."""
        self.calls += 1
        if self.calls & 1023 == 0:
            if time.perf_counter() > self.deadline or stopped():
                raise SolverTimeout("the fewest-plays search ran out of time")
            if len(self.memo) + len(self.low) > MAX_STATES:
                raise SolverTimeout(f"the fewest-plays search reached its cap of {MAX_STATES:,} states")


def _count(packed: int, x: int) -> int:
    return (packed >> (3 * x)) & 7


def _structures(packed: int, i: int, j: int, t: int) -> Iterator[_Next]:
    """Straights and parallels whose lowest natural rank is ``i`` (index 0 = rank 3)."""
    yield from _straights(packed, i, j, t)
    for copies in range(2, _count(packed, i) + j + t + 1):
        yield from _parallels(packed, i, j, t, copies, i, (), 0, 0)


def _straights(packed: int, i: int, j: int, t: int) -> Iterator[_Next]:
    """Straights over natural ranks i=r0<r1<...; jokers fill the gaps and extend."""
    stack: list[tuple[tuple[int, ...], int, int]] = [((i,), i, 0)]
    while stack:
        ranks, x, gaps = stack.pop()
        m = len(ranks)
        for k in range(gaps, j + 1):
            if 3 <= m + k <= MAX_STRAIGHT:
                nxt = packed - sum(1 << (3 * r) for r in ranks)
                yield nxt, j - k, t, _Straight(ranks, k)
        for y in range(x + 1, min(_TOP, x + 1 + j - gaps) + 1):
            g2 = gaps + y - x - 1
            if m + 1 + g2 > MAX_STRAIGHT:
                break
            if _count(packed, y):
                stack.append(((*ranks, y), y, g2))


def _parallels(
    packed: int, i: int, j: int, t: int, copies: int, x: int, taken: tuple[tuple[int, int], ...], slots: int, zeros: int
) -> Iterator[_Next]:
    """Parallels from rank ``i``: per rank ``x`` a count of naturals, wilds fill the rest."""
    wilds = j + t
    for k in range(min(copies, _count(packed, x)), (1 if x == i else 0) - 1, -1):
        s, z = slots + copies - k, zeros + (k == 0)
        if s > wilds or z > j:
            continue
        here = (*taken, (x, k)) if k else taken
        if k:
            span = x - i + 1
            for length in range(max(3, span), MAX_STRAIGHT + 1):
                extra = length - span
                zz, w = z + extra, s + copies * extra
                if zz > j or w > wilds:
                    break
                nxt = packed - sum(kk << (3 * r) for r, kk in here)
                for a in range(max(zz, w - t), min(j, w) + 1):
                    yield nxt, j - a, t - (w - a), _Parallel(copies, length, here, a, w - a)
        if x < _TOP:
            yield from _parallels(packed, i, j, t, copies, x + 1, here, s, z)


def _pack(p: Parts) -> int:
    return sum(len(p.nat[v]) << (3 * (v - 3)) for v in range(3, ACE + 1))


def fewest_plays(hand: Cards, rules: ZsyRules = DEFAULT_RULES, *, time_limit: float = 5.0) -> Split:
    """Split ``hand`` into the fewest legal combinations (plays to go out unopposed).

    An exact memoised search over rank counts; ``status`` is ``optimal``
    unless the time limit (or the memory cap) cut it short: then a valid
    split found greedily, ``feasible``.

    >>> s = fewest_plays(Cards.parse("5S 5H 6D 2C 7S RJ 9H 10H JH QD 3C 3D"))
    >>> s.count, str(s.status)
    (3, 'optimal')
    >>> fewest_plays(Cards.parse("5S 5H 6D 2C 7S RJ")).plays
    (Combo.parse('parallel:5S 5H 6D 7S 2C RJ'),)
    """
    check_cards(hand, rules, "hand")
    p = Parts.of(hand)
    if p.n == 0:
        return Split((), 0, Status.OPTIMAL)
    search = _Search(time.perf_counter() + time_limit)
    packed, j, t = _pack(p), len(p.jokers), len(p.twos)
    mod = core("zsy")
    if mod is not None:
        return _native_fewest(mod, p, rules, search.deadline)
    greedy = _realise(p, _greedy(packed, j, t), rules)  # an upper bound: the search need only beat it
    try:
        if search.solve(packed, j, t, False, len(greedy)) >= len(greedy):
            return Split(greedy, len(greedy), Status.OPTIMAL)  # proven: nothing fewer exists
        plays = _realise(p, _walk(search, packed, j, t), rules)
    except SolverTimeout:
        return Split(greedy, len(greedy), Status.FEASIBLE)
    return Split(plays, len(plays), Status.OPTIMAL)


_GREEDY_LOOK: Final = 4_000  # structures looked at per step of the greedy fallback


def _greedy(packed: int, j: int, t: int) -> list[_Choice]:
    """A valid split found fast when the exact search ran out of time: lowest rank first,
    take whichever of its group, straights or parallels (most copies first) plays the most cards."""
    out: list[_Choice] = []
    while packed:
        i = ((packed & -packed).bit_length() - 1) // 3
        n = _count(packed, i)
        best: _Next = (packed - (n << (3 * i)), j, t, _Group(i))
        most = n
        options = chain(
            *(_parallels(packed, i, j, t, c, i, (), 0, 0) for c in range(n + j + t, 1, -1)), _straights(packed, i, j, t)
        )
        for option in islice(options, _GREEDY_LOOK):
            played = _played(option[3])
            if played > most:
                best, most = option, played
        packed, j, t, choice = best
        out.append(choice)
    return out


def _played(choice: _Choice) -> int:
    """The cards a structure plays."""
    if isinstance(choice, _Straight):
        return len(choice.ranks) + choice.jokers
    if isinstance(choice, _Parallel):
        return choice.copies * choice.length
    return 0


def _value_counts(cards: Cards | Sequence[Card]) -> list[int]:
    """How many cards of each ZSY value (index 3..17)."""
    counts = [0] * (RED + 1)
    for card in cards:
        counts[zsy_value(card)] += 1
    return counts


def _state(counts: list[int]) -> tuple[int, int, int]:
    """The search state of value counts: packed naturals, jokers, 2s."""
    packed = sum(counts[v] << (3 * (v - 3)) for v in range(3, ACE + 1))
    return packed, counts[BLACK] + counts[RED], counts[TWO]


def _upper_bound(counts: list[int]) -> int:
    """The plays of the fallback split: one set per rank (wilds join one, or make their own)."""
    ranks = sum(1 for v in range(3, ACE + 1) if counts[v])
    jokers, twos = counts[BLACK] + counts[RED], counts[TWO]
    return ranks + (0 if ranks or not (twos or jokers) else (1 if twos else jokers))


def plays_after(
    hand: Cards, moves: Sequence[Combo], rules: ZsyRules = DEFAULT_RULES, *, time_limit: float = 5.0
) -> tuple[tuple[int, ...], Status]:
    """The fewest plays left in ``hand`` after each move (one shared search, so it is cheap).

    When the time limit runs out, the remaining counts are upper bounds
    (one set per rank) and the status is ``feasible``.

    >>> hand = Cards.parse("3S 4H 5D 5C 9S")
    >>> counts, status = plays_after(hand, [Combo.parse("3S 4H 5D"), Combo.parse("5D 5C")])
    >>> counts, str(status)
    ((2, 3), 'optimal')
    """
    check_cards(hand, rules, "hand")
    search = _Search(time.perf_counter() + time_limit)
    mod = core("zsy")
    if mod is not None:
        return _native_plays_after(mod, hand, moves, search.deadline)
    held = _value_counts(hand)
    out: list[int] = []
    status = Status.OPTIMAL
    for move in moves:
        if not move.cards <= hand:
            raise ComboError(f"{move} is not a play from the hand {hand}")
        counts = list(held)
        for card in move.cards:
            counts[zsy_value(card)] -= 1
        if status is Status.OPTIMAL:
            try:
                out.append(search.best(*_state(counts), False))
                continue
            except SolverTimeout:
                status = Status.FEASIBLE
        out.append(_upper_bound(counts))
    return tuple(out), status


def _walk(search: _Search, packed: int, j: int, t: int) -> list[_Choice]:
    """The structures of the best split, read back from the memo."""
    g = False
    out: list[_Choice] = []
    while packed:
        _, choice = search.memo[(packed, j, t, g)]
        assert choice is not None
        out.append(choice)
        if isinstance(choice, _Group):
            packed -= _count(packed, choice.rank) << (3 * choice.rank)
            g = True
        elif isinstance(choice, _Straight):
            packed -= sum(1 << (3 * r) for r in choice.ranks)
            j -= choice.jokers
        else:
            packed -= sum(kk << (3 * r) for r, kk in choice.naturals)
            j, t = j - choice.jokers, t - choice.twos
    return out


def _realise(p: Parts, choices: list[_Choice], rules: ZsyRules) -> tuple[Combo, ...]:
    """Turn the search's choices into plays of real cards (each checked by :func:`classify`)."""
    nat = [list(cards) for cards in p.nat]
    jokers, twos = list(p.jokers), list(p.twos)
    plays: list[tuple[list[Card], Kind, int]] = []  # cards, kind, copies
    groups: list[int] = []
    for choice in choices:
        if isinstance(choice, _Group):
            v = choice.rank + 3
            cards, nat[v] = nat[v], []
            groups.append(len(plays))
            plays.append((cards, "set", len(cards)))
        elif isinstance(choice, _Straight):
            cards = [nat[r + 3].pop(0) for r in choice.ranks] + [jokers.pop() for _ in range(choice.jokers)]
            plays.append((cards, "straight", 1))
        else:
            cards = [nat[r + 3].pop(0) for r, kk in choice.naturals for _ in range(kk)]
            cards += [jokers.pop() for _ in range(choice.jokers)] + [twos.pop() for _ in range(choice.twos)]
            plays.append((cards, "parallel", choice.copies))
    leftover = twos + jokers
    if leftover:
        if groups:
            plays[groups[-1]][0].extend(leftover)
        elif twos:
            plays.append((leftover, "set", len(leftover)))
        else:
            plays.extend(([jk], "single", 1) for jk in jokers)
    return _checked(plays, rules)


def _checked(plays: list[tuple[list[Card], Kind, int]], rules: ZsyRules) -> tuple[Combo, ...]:
    """Each play classified as the kind the search meant (a mismatch is a search bug)."""
    out: list[Combo] = []
    for cards, kind, copies in plays:
        found = classify(Cards(cards), rules)
        if len(cards) == 1:
            kind = "single"
        match = [c for c in found if c.kind == kind and (kind != "parallel" or c.copies == copies)]
        if not match:  # pragma: no cover - a search bug, never bad input
            raise ShanghaiError(f"internal error: fewest plays made {Cards(cards)} as {kind}")
        out.append(match[0])
    out.sort(key=lambda c: (KINDS.index(c.kind), c.top))
    return tuple(out)


# --- the compiled core's path (solver/native/src/zsy.cpp): the same search, the same answers ------------


def _expired(deadline: float) -> Callable[[], bool]:
    """What :meth:`_Search._tick` checks every 1024 steps, for the core to call back."""

    def expired() -> bool:
        return time.perf_counter() > deadline or stopped()

    return expired


_RawChoice = tuple[Any, ...]


def _choices(raw: Sequence[_RawChoice]) -> list[_Choice]:
    """The core's structures, ``(0, rank)``, ``(1, ranks, jokers)`` or ``(2, copies, length, naturals,
    jokers, twos)``, as the search's own :class:`_Group`, :class:`_Straight` and :class:`_Parallel`."""
    out: list[_Choice] = []
    for c in raw:
        if c[0] == 0:
            out.append(_Group(c[1]))
        elif c[0] == 1:
            out.append(_Straight(c[1], c[2]))
        else:
            out.append(_Parallel(c[1], c[2], c[3], c[4], c[5]))
    return out


def _native_fewest(mod: ModuleType, p: Parts, rules: ZsyRules, deadline: float) -> Split:
    """:func:`fewest_plays` on the core: the greedy split, then the exact search under the same budget."""
    packed, j, t = _pack(p), len(p.jokers), len(p.twos)
    try:
        greedy = _realise(p, _choices(mod.greedy(packed, j, t, _GREEDY_LOOK)), rules)
        outcome, raw = mod.fewest(packed, j, t, len(greedy), _expired(deadline), MAX_STATES)
    except (ValueError, RuntimeError) as exc:  # never for a checked hand: the core re-checks what Python checked
        raise ShanghaiError(f"internal error: the compiled core refused the state: {exc}") from None
    if outcome == 0:
        return Split(greedy, len(greedy), Status.OPTIMAL)  # proven: nothing fewer exists
    if outcome == 2:
        return Split(greedy, len(greedy), Status.FEASIBLE)  # the time, the stop token or the state cap
    plays = _realise(p, _choices(raw), rules)
    return Split(plays, len(plays), Status.OPTIMAL)


def _native_plays_after(
    mod: ModuleType, hand: Cards, moves: Sequence[Combo], deadline: float
) -> tuple[tuple[int, ...], Status]:
    """:func:`plays_after` on the core: one shared search over every move's state, in order."""
    held = _value_counts(hand)
    states: list[tuple[int, int, int]] = []
    rest: list[list[int]] = []
    for move in moves:
        if not move.cards <= hand:
            raise ComboError(f"{move} is not a play from the hand {hand}")
        counts = list(held)
        for card in move.cards:
            counts[zsy_value(card)] -= 1
        states.append(_state(counts))
        rest.append(counts)
    try:
        values: list[int] = mod.plays_after(states, _expired(deadline), MAX_STATES)
    except (ValueError, RuntimeError) as exc:  # never for a checked hand
        raise ShanghaiError(f"internal error: the compiled core refused the state: {exc}") from None
    if len(values) == len(states):
        return tuple(values), Status.OPTIMAL
    return (*values, *(_upper_bound(counts) for counts in rest[len(values) :])), Status.FEASIBLE
