"""Exhaustive Contract Shanghai searches: the independent second opinion.

The tests check the solver against them, the benchmark uses them as its
peer, and the puzzle generator (:mod:`solver.generate.contract`) asks them
to confirm a lay-off's uniqueness, which is why they live in the library
and not among the test oracles.

They enumerate every meld a small hand can form (lay-down, distance) and
every split of a hand over the table's melds with every legal swap
(lay-off). Slow by design, plain Python, and independent of the solver:
they share only the referee's checks (:mod:`solver.contract.referee`) and
the meld validator.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from solver.cards import Card, Cards, Rank
from solver.contract.referee import fix_run_wilds, hand_points, is_kind, set_rank, swap_possible
from solver.melds import Meld, MeldKind, TableMeld, meld_kind
from solver.rules.contract import ContractRules, Requirement, min_length

__all__ = [
    "every_lay_down",
    "exhaustive_lay_down",
    "exhaustive_distance",
    "exhaustive_layoff",
    "BruteLayDown",
    "BruteDistance",
    "BruteLayoff",
]


# ------------------------------------------------------------------ exhaustive lay-down and distance


def _sub_multisets(items: Sequence[tuple[Card, int]]) -> Iterator[list[Card]]:
    for counts in itertools.product(*(range(n + 1) for _, n in items)):
        yield [c for (c, _), k in zip(items, counts) for _ in range(k)]


def _all_melds(universe: Cards, rules: ContractRules, kind: MeldKind, min_len: int) -> list[Cards]:
    """Every valid meld of ``kind`` (at least ``min_len`` cards) inside ``universe``, by brute force."""
    wilds = rules.wilds
    wild_items = [(c, n) for c, n in universe.items() if c in wilds]
    wild_sets = list(_sub_multisets(wild_items))
    out: list[Cards] = []
    groups: dict[object, list[tuple[Card, int]]] = {}
    for c, n in universe.items():
        if c in wilds:
            continue
        key = c.rank if kind == "set" else c.suit
        groups.setdefault(key, []).append((c, n if kind == "set" else 1))
    for items in groups.values():
        for nat in _sub_multisets(items):
            if not nat:
                continue
            for ws in wild_sets:
                if len(nat) + len(ws) < min_len:
                    continue
                if is_kind(Meld.of(nat + ws), rules, kind):
                    out.append(Cards(nat + ws))
    return out


@dataclass(frozen=True, slots=True)
class BruteLayDown:
    """The exhaustive lay-down: points and cards left, and one set of melds (as multisets)."""

    points_left: int
    cards_left: int
    melds: tuple[Cards, ...]


@dataclass(frozen=True, slots=True)
class BruteDistance:
    """The exhaustive distance: fewest extra cards and every card of some fewest completion."""

    missing: int
    outs: frozenset[Card]


def _groupings(
    universe: Cards, rules: ContractRules, contract: Sequence[Requirement], prune: Callable[[Cards], bool] | None = None
) -> Iterator[tuple[Cards, tuple[Cards, ...]]]:
    """Every grouping of ``contract`` in ``universe`` (one meld, a multiset, per requirement; melds of
    equal requirements in one order; distinct set ranks where the rules ask), with the cards it uses,
    depth first; ``prune(used)`` True cuts a branch (asked as the search goes, so a bound may tighten)."""
    cands = [_all_melds(universe, rules, r.kind, min_length(r, rules)) for r in contract]

    def rec(
        i: int, start: int, used: Cards, chosen: list[Cards], ranks: list[Rank | None]
    ) -> Iterator[tuple[Cards, tuple[Cards, ...]]]:
        if prune is not None and prune(used):
            return
        if i == len(contract):
            yield used, tuple(chosen)
            return
        same = i > 0 and contract[i] == contract[i - 1]
        for k in range(start if same else 0, len(cands[i])):
            meld = cands[i][k]
            total = used + meld
            if not total <= universe:
                continue
            rank = None
            if contract[i].kind == "set":
                rank = next(c.rank for c in meld if c not in rules.wilds)
                if rules.distinct_set_ranks and rank in ranks:
                    continue
            yield from rec(i + 1, k, total, [*chosen, meld], [*ranks, rank])

    yield from rec(0, 0, Cards(), [], [])


def _search(
    hand: Cards,
    pool: Cards,
    rules: ContractRules,
    contract: Sequence[Requirement],
    *,
    mode: Literal["lay_down", "distance"],
    max_left: int | None = None,
) -> tuple[object, list[tuple[Cards, ...]]]:
    """Depth-first search over tuples of melds, one per requirement; the best value and its solutions."""
    best: list[object] = [None]
    sols: list[tuple[Cards, ...]] = []

    def extra_of(used: Cards) -> Cards:
        return Cards.from_counts({c: n - hand.count(c) for c, n in used.items() if n > hand.count(c)})

    def value(used: Cards) -> object:
        if mode == "distance":
            return len(extra_of(used))
        left = hand - used
        return (hand_points(left, rules), len(left))

    def prune(used: Cards) -> bool:
        return mode == "distance" and best[0] is not None and len(extra_of(used)) > best[0]  # type: ignore[operator]

    for used, chosen in _groupings(hand + pool, rules, contract, prune):
        if mode == "lay_down" and max_left is not None and len(hand) - len(used) > max_left:
            continue
        v = value(used)
        if best[0] is None or v < best[0]:  # type: ignore[operator]
            best[0] = v
            sols.clear()
        if v == best[0]:
            sols.append(chosen)
    return best[0], sols


def every_lay_down(hand: Cards, rules: ContractRules, round_: int) -> list[tuple[Cards, ...]]:
    """Every lay-down of the round's contract from ``hand``: one meld (as a multiset) per requirement,
    each grouping once (melds of equal requirements in one order), by brute force.

    >>> from solver.rules import ContractRules
    >>> downs = every_lay_down(Cards.parse("5H 5D 5S 5C 6C 7C 8C 9C"), ContractRules(), 1)
    >>> len(downs), [" | ".join(map(str, d)) for d in downs][-3:]
    (7, ['5S 5H 5D | 5C 6C 7C 8C', '5S 5H 5D | 5C 6C 7C 8C 9C', '5S 5H 5D 5C | 6C 7C 8C 9C'])
    """
    return [chosen for _, chosen in _groupings(hand, rules, rules.contract(round_))]


def exhaustive_lay_down(
    hand: Cards, rules: ContractRules, round_: int, *, max_left: int | None = None
) -> BruteLayDown | None:
    """The lay-down leaving fewest points (then cards), by trying every tuple of melds."""
    value, sols = _search(hand, Cards(), rules, rules.contract(round_), mode="lay_down", max_left=max_left)
    if value is None:
        return None
    assert isinstance(value, tuple)
    points, cards = value
    return BruteLayDown(int(points), int(cards), sols[0])


def exhaustive_distance(hand: Cards, pool: Cards, rules: ContractRules, round_: int) -> BruteDistance | None:
    """Fewest cards from ``pool`` completing the contract, and the union of all fewest completions."""
    value, sols = _search(hand, pool, rules, rules.contract(round_), mode="distance")
    if value is None:
        return None
    outs: set[Card] = set()
    for sol in sols:
        used = Cards(c for m in sol for c in m)
        outs |= {c for c, n in used.items() if n > hand.count(c)}
    return BruteDistance(int(value), frozenset(outs))  # type: ignore[call-overload]


# ------------------------------------------------------------------ exhaustive lay-off


@dataclass(frozen=True, slots=True)
class BruteLayoff:
    """The exhaustive lay-off: the best (primary, secondary, -swaps) and the fewest cards left."""

    primary: int
    secondary: int
    swaps: int
    fewest_left: int


_Option = tuple[Cards, int, int]  # (cards from the hand, wilds freed, wilds received)


def exhaustive_layoff(
    hand: Cards,
    table: Sequence[TableMeld],
    rules: ContractRules,
    *,
    player: int = 0,
    objective: Literal["points", "cards"] = "points",
) -> BruteLayoff:
    """Try every way to split the hand over the melds, with every legal swap, by brute force.

    For each meld: a sub-multiset of the hand that could join it, a subset
    of its wilds freed, and a number of freed wilds it receives; the
    freed and received wilds must balance over the table.
    """
    wilds = rules.wilds
    anon = next(iter(sorted(wilds, key=lambda c: c.index)))
    total_table_wilds = sum(1 for t in table for c in t.meld.cards if c in wilds)
    received = (total_table_wilds if rules.wild_swap else 0) + 1
    options = [_meld_options(hand, t, rules, player, anon, received) for t in table]
    search = _LayoffSearch(options, rules, objective)
    best = search.best(0, hand, 0)
    fewest = search.fewest_left(0, hand, 0)
    assert best is not None and fewest is not None
    return BruteLayoff(best[0], best[1], -best[2], fewest)


def _meld_options(
    hand: Cards, t: TableMeld, rules: ContractRules, player: int, anon: Card, received: int
) -> list[_Option]:
    """Every legal (cards from the hand, wilds freed, wilds received) for one table meld.

    ``anon`` stands for any received wild; ``received`` bounds how many it may receive (exclusive).
    """
    wilds = rules.wilds
    t = TableMeld(fix_run_wilds(t.meld, rules), t.owner)  # a wild inside a run is fixed: moving it is a swap
    kind = meld_kind(t.meld, rules.meld_spec)
    rank = set_rank(t.meld, rules) if kind == "set" else None
    suit = next(c.suit for c in t.meld.cards if c not in wilds)
    fits = [
        (c, n)
        for c, n in hand.items()
        if c in wilds or (kind == "set" and c.rank == rank) or (kind == "run" and c.suit == suit)
    ]
    freed_sets = _freed_sets(t, rules, player)
    mine: list[_Option] = []
    for sub in _sub_multisets(fits):
        s = Cards(sub)
        nat = Cards(c for c in sub if c not in wilds)
        for freed in freed_sets:
            if not swap_possible(t.meld, list(freed), nat, rules, kind):
                continue
            kept_cards = [c for i, c in enumerate(t.meld.cards) if i not in freed]
            kept_roles = [r for i, r in enumerate(t.meld.roles) if i not in freed]
            for g in range(received):
                cards = kept_cards + list(sub) + [anon] * g
                roles = kept_roles + [None] * (len(sub) + g)
                if (sub or freed or g) and not is_kind(Meld(tuple(cards), tuple(roles)), rules, kind):
                    continue
                mine.append((s, len(freed), g))
    return mine


def _freed_sets(t: TableMeld, rules: ContractRules, player: int) -> list[tuple[int, ...]]:
    """Every subset of the meld's wild positions the player may free (only the empty one without swaps)."""
    w_idx = [i for i, c in enumerate(t.meld.cards) if c in rules.wilds]
    allowed = rules.wild_swap and (t.owner != player or rules.wild_swap_own)
    if not allowed:
        return [()]
    return [s for k in range(len(w_idx) + 1) for s in itertools.combinations(w_idx, k)]


class _LayoffSearch:
    """The memoised search over the table's melds in order, one option per meld, with the wilds balanced."""

    def __init__(
        self, options: list[list[_Option]], rules: ContractRules, objective: Literal["points", "cards"]
    ) -> None:
        self.options = options
        self.points = rules.points
        self.objective = objective
        self.memo: dict[tuple[int, Cards, int], tuple[int, int, int] | None] = {}
        self.memo_left: dict[tuple[int, Cards, int], int | None] = {}

    def score(self, s: Cards) -> tuple[int, int]:
        """(primary, secondary) of the cards ``s`` laid off, by the objective."""
        p, c = sum(self.points(x) for x in s), len(s)
        return (p, c) if self.objective == "points" else (c, p)

    def best(self, i: int, left: Cards, balance: int) -> tuple[int, int, int] | None:
        """The best (primary, secondary, -swaps) from meld ``i`` on, or None if the wilds cannot balance."""
        key = (i, left, balance)
        if key in self.memo:
            return self.memo[key]
        if i == len(self.options):
            res: tuple[int, int, int] | None = (0, 0, 0) if balance == 0 else None
        else:
            res = None
            for s, f, g in self.options[i]:
                if not s <= left:
                    continue
                sub = self.best(i + 1, left - s, balance + f - g)
                if sub is None:
                    continue
                a, b = self.score(s)
                cand = (sub[0] + a, sub[1] + b, sub[2] - f)
                if res is None or cand > res:
                    res = cand
        self.memo[key] = res
        return res

    def fewest_left(self, i: int, left: Cards, balance: int) -> int | None:
        """The fewest cards left in the hand from meld ``i`` on, or None if the wilds cannot balance."""
        key = (i, left, balance)
        if key in self.memo_left:
            return self.memo_left[key]
        if i == len(self.options):
            r: int | None = len(left) if balance == 0 else None
        else:
            r = None
            for s, f, g in self.options[i]:
                if s <= left:
                    sub = self.fewest_left(i + 1, left - s, balance + f - g)
                    if sub is not None and (r is None or sub < r):
                        r = sub
        self.memo_left[key] = r
        return r
