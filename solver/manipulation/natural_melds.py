"""The melds of an answer of :mod:`solver.manipulation.natural`: a path of the program replayed with
the cards (:func:`_natural_melds`), and the new table in a stable order, the old melds rebuilt
unchanged first (:func:`_old_first`), each meld one shared object per order of cards (:func:`_meld_of`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from solver.cards import ALL_CARDS
from solver.manipulation.natural_states import _Option, _Stage
from solver.melds import Meld
from solver.ranks import N_NATURAL, ace_high

__all__: list[str] = []


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
