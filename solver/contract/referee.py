"""The Contract Shanghai referee and exhaustive searches, in plain Python.

Nothing here shares code with the CP-SAT models (:mod:`solver.contract.model`)
or the graph layer they use: the referee checks answers with the meld
validator of :mod:`solver.melds` and brute force, and the exhaustive
searches enumerate every meld a small hand can form. Tests compare the
solver with both; the benchmark uses the searches as its peer.

>>> from solver.rules import ContractRules
>>> rules = ContractRules()
>>> check_lay_down(Cards.parse("5H 5D 5S 6C 7C 8C 9C KD"), [Meld.parse("5H 5D 5S"), Meld.parse("6C 7C 8C 9C")], rules, 1)
10
>>> from solver.melds import TableMeld
>>> old = [TableMeld(Meld.parse("10D 10H 2S"), owner=1), TableMeld(Meld.parse("6S 7S 8S 9S"), owner=1)]
>>> new = [TableMeld(Meld.parse("10D 10H 10C"), owner=1), TableMeld(Meld.parse("6S 7S 8S 9S 2S=10S"), owner=1)]
>>> check_layoff(old, Cards.parse("10C 4H"), new, rules, player=0)
Cards.parse('10C')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from solver.cards import Card, Cards, Rank, Suit
from solver.errors import MeldError
from solver.melds import Meld, MeldKind, TableMeld, cards_added, meld_kind
from solver.rules.contract import ContractRules, Requirement

__all__ = [
    "check_lay_down",
    "check_layoff",
    "exhaustive_lay_down",
    "exhaustive_distance",
    "exhaustive_layoff",
    "BruteLayDown",
    "BruteDistance",
    "BruteLayoff",
]


def _min_len(req: Requirement, rules: ContractRules) -> int:
    return max(req.min_len, rules.set_min if req.kind == "set" else rules.run_min)


def _is_kind(meld: Meld, rules: ContractRules, kind: MeldKind) -> bool:
    try:
        meld_kind(meld, rules.meld_spec, kind)
    except MeldError:
        return False
    return True


def _set_rank(meld: Meld, rules: ContractRules) -> Rank | None:
    for c in meld.cards:
        if c not in rules.wilds:
            return c.rank
    return None


def hand_points(cards: Cards, rules: ContractRules) -> int:
    """Points of ``cards`` left in hand."""
    return sum(rules.points(c) for c in cards)


def check_lay_down(
    hand: Cards, melds: Sequence[Meld], rules: ContractRules, round_: int, *, max_left: int | None = None
) -> int:
    """Referee a lay-down: the melds are the round's contract, made from the hand; returns points left.

    Each meld must be valid (roles included) and match one requirement of
    the contract, at least its minimum length; sets of one contract differ
    in rank under ``distinct_set_ranks``. With ``max_left``, at most that
    many cards may stay in hand (the last round's whole-hand rule).
    """
    contract = rules.contract(round_)
    if len(melds) != len(contract):
        raise MeldError(
            f"round {round_} needs {len(contract)} melds ({' + '.join(map(str, contract))}), not {len(melds)}"
        )
    used = Cards(c for m in melds for c in m.cards)
    if not used <= hand:
        extra = Cards.from_counts({c: n - hand.count(c) for c, n in used.items() if n > hand.count(c)})
        raise MeldError(f"the melds use cards not in the hand: {extra}")
    ok = False
    for perm in itertools.permutations(range(len(melds))):
        if all(
            len(melds[j]) >= _min_len(req, rules) and _is_kind(melds[j], rules, req.kind)
            for j, req in zip(perm, contract)
        ):
            if rules.distinct_set_ranks:
                ranks = [_set_rank(melds[j], rules) for j, req in zip(perm, contract) if req.kind == "set"]
                if len(set(ranks)) != len(ranks):
                    continue
            ok = True
            break
    if not ok:
        raise MeldError(
            f"the melds {' | '.join(map(str, melds))} do not make the contract {' + '.join(map(str, contract))}"
        )
    left = hand - used
    if max_left is not None and len(left) > max_left:
        raise MeldError(f"{len(left)} cards stay in hand, more than {max_left}")
    return hand_points(left, rules)


# ------------------------------------------------------------------ lay-off referee


def _kind_of(meld: Meld, rules: ContractRules) -> MeldKind:
    """A table meld's kind: a set where both fit, unless its roles make it a run."""
    return meld_kind(meld, rules.meld_spec)


def _readings(meld: Meld, rules: ContractRules, kind: MeldKind) -> Iterator[tuple[Card | None, ...]]:
    """Every full role assignment of a meld's wilds (written roles kept), by brute force."""
    wilds = rules.wilds
    open_idx = [i for i, (c, r) in enumerate(zip(meld.cards, meld.roles)) if c in wilds and r is None]
    if kind == "set":
        rank = _set_rank(meld, rules)
        assert rank is not None
        yield tuple(Card(rank, Suit.HEARTS) if i in open_idx else r for i, r in enumerate(meld.roles))
        return
    suit = next(c.suit for c in meld.cards if c not in wilds)
    assert suit is not None
    options = [Card(r, suit) for r in Rank]
    for roles in itertools.permutations(options, len(open_idx)):
        full = list(meld.roles)
        for i, role in zip(open_idx, roles):
            full[i] = role
        if _is_kind(Meld(meld.cards, tuple(full)), rules, "run"):
            yield tuple(full)


def _swap_ok(old: Meld, freed: Sequence[int], added: Cards, rules: ContractRules, kind: MeldKind) -> bool:
    """Can the wilds at indices ``freed`` of ``old`` have been replaced by naturals in ``added``?"""
    if not freed:
        return True
    if kind == "set":
        rank = _set_rank(old, rules)
        return sum(n for c, n in added.items() if c.rank == rank and c not in rules.wilds) >= len(freed)
    for roles in _readings(old, rules, kind):
        need = Cards(r for r in (roles[i] for i in freed) if r is not None)
        if need <= added:
            return True
    return False


def _meld_change_ok(old: TableMeld, new: TableMeld, rules: ContractRules, player: int, index: int) -> None:
    """Raise :class:`MeldError` unless ``new`` is ``old`` grown by a lay-off and legal swaps."""
    wilds = rules.wilds
    where = f"meld {index} ({old.meld})"
    if new.owner != old.owner:
        raise MeldError(f"{where}: owner changed from {old.owner} to {new.owner}")
    kind = _kind_of(old.meld, rules)
    try:
        meld_kind(new.meld, rules.meld_spec, kind)
    except MeldError as exc:
        raise MeldError(f"{where}: after the lay-off, {exc}") from None
    old_nat = Cards(c for c in old.meld.cards if c not in wilds)
    new_nat = Cards(c for c in new.meld.cards if c not in wilds)
    if not old_nat <= new_nat:
        raise MeldError(f"{where}: natural cards left the meld")
    added = new_nat - old_nat
    old_w = [(i, c, r) for i, (c, r) in enumerate(zip(old.meld.cards, old.meld.roles)) if c in wilds]
    new_pairs = [(c, r) for c, r in zip(new.meld.cards, new.meld.roles) if c in wilds]
    new_count = Cards(c for c, _ in new_pairs)
    gone: dict[Card, int] = {}
    for _, c, _r in old_w:
        gone[c] = gone.get(c, 0) + 1
    gone = {c: n - new_count.count(c) for c, n in gone.items() if n > new_count.count(c)}
    # choose which wilds of each type left; the rest stay (a written role must stay written)
    by_type: dict[Card, list[int]] = {}
    for k, (_, c, _r) in enumerate(old_w):
        by_type.setdefault(c, []).append(k)
    # at least ``gone`` wilds of a type left; more may have left and come back (or been replaced)
    choices = [
        [combo for n in range(gone.get(c, 0), len(ks) + 1) for combo in itertools.combinations(ks, n)]
        for c, ks in by_type.items()
    ]
    allowed = rules.wild_swap and (old.owner != player or rules.wild_swap_own)
    if gone and not allowed:
        why = "wild swaps are off" if not rules.wild_swap else "wilds may not be swapped out of one's own melds"
        raise MeldError(f"{where}: a wild left the meld, but {why}")
    for combo in itertools.product(*choices):
        out = {k for part in combo for k in part}
        if out and not allowed:
            continue
        kept_written = [
            (old_w[k][1], old_w[k][2]) for k in range(len(old_w)) if k not in out and old_w[k][2] is not None
        ]
        pairs = list(new_pairs)
        fine = True
        for pair in kept_written:
            if pair in pairs:
                pairs.remove(pair)
            else:
                fine = False
                break
        if not fine:
            continue
        if _swap_ok(old.meld, [old_w[k][0] for k in out], added, rules, kind):
            return
    if gone:
        raise MeldError(f"{where}: a wild left the meld without a natural card from hand taking its place")
    raise MeldError(f"{where}: a wild's written role changed")


def check_layoff(
    old_table: Sequence[TableMeld], hand: Cards, new_table: Sequence[TableMeld], rules: ContractRules, player: int = 0
) -> Cards:
    """Referee a lay-off (wild swaps included); returns the hand cards played.

    Every new meld is valid and of its old kind; each old meld keeps its
    natural cards and its written wild roles, except wilds swapped out
    (only from melds the rules allow) for a natural from hand that the wild
    stood for; the table gains only cards from the hand, so every freed
    wild is back on the table.
    """
    if len(new_table) != len(old_table):
        raise MeldError(f"a lay-off keeps the {len(old_table)} melds on the table, not {len(new_table)}")
    old = Cards(c for t in old_table for c in t.meld.cards)
    played = cards_added(old, hand, Cards(c for t in new_table for c in t.meld.cards))
    for i, (o, n) in enumerate(zip(old_table, new_table)):
        _meld_change_ok(o, n, rules, player, i)
    return played


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
                if _is_kind(Meld.of(nat + ws), rules, kind):
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
    universe = hand + pool
    cands = [_all_melds(universe, rules, r.kind, _min_len(r, rules)) for r in contract]
    best: list[object] = [None]
    sols: list[tuple[Cards, ...]] = []

    def extra_of(used: Cards) -> Cards:
        return Cards.from_counts({c: n - hand.count(c) for c, n in used.items() if n > hand.count(c)})

    def value(used: Cards) -> object:
        if mode == "distance":
            return len(extra_of(used))
        left = hand - used
        return (hand_points(left, rules), len(left))

    def rec(i: int, start: int, used: Cards, chosen: list[Cards], ranks: list[Rank | None]) -> None:
        if mode == "distance" and best[0] is not None and len(extra_of(used)) > best[0]:  # type: ignore[operator]
            return
        if i == len(contract):
            if mode == "lay_down" and max_left is not None and len(hand) - len(used) > max_left:
                return
            v = value(used)
            if best[0] is None or v < best[0]:  # type: ignore[operator]
                best[0] = v
                sols.clear()
            if v == best[0]:
                sols.append(tuple(chosen))
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
            rec(i + 1, k, total, [*chosen, meld], [*ranks, rank])

    rec(0, 0, Cards(), [], [])
    return best[0], sols


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
    options: list[list[tuple[Cards, int, int]]] = []  # (cards from hand, freed, received)
    total_table_wilds = sum(1 for t in table for c in t.meld.cards if c in wilds)
    for t in table:
        kind = _kind_of(t.meld, rules)
        rank = _set_rank(t.meld, rules) if kind == "set" else None
        suit = next(c.suit for c in t.meld.cards if c not in wilds)
        fits = [
            (c, n)
            for c, n in hand.items()
            if c in wilds or (kind == "set" and c.rank == rank) or (kind == "run" and c.suit == suit)
        ]
        w_idx = [i for i, c in enumerate(t.meld.cards) if c in wilds]
        allowed = rules.wild_swap and (t.owner != player or rules.wild_swap_own)
        freed_sets = (
            [()] if not allowed else [s for k in range(len(w_idx) + 1) for s in itertools.combinations(w_idx, k)]
        )
        mine: list[tuple[Cards, int, int]] = []
        for sub in _sub_multisets(fits):
            s = Cards(sub)
            nat = Cards(c for c in sub if c not in wilds)
            for freed in freed_sets:
                if not _swap_ok(t.meld, list(freed), nat, rules, kind):
                    continue
                kept_cards = [c for i, c in enumerate(t.meld.cards) if i not in freed]
                kept_roles = [r for i, r in enumerate(t.meld.roles) if i not in freed]
                for g in range((total_table_wilds if rules.wild_swap else 0) + 1):
                    cards = kept_cards + list(sub) + [anon] * g
                    roles = kept_roles + [None] * (len(sub) + g)
                    if (sub or freed or g) and not _is_kind(Meld(tuple(cards), tuple(roles)), rules, kind):
                        continue
                    mine.append((s, len(freed), g))
        options.append(mine)

    pts = rules.points
    memo: dict[tuple[int, Cards, int], tuple[int, int, int] | None] = {}
    memo_left: dict[tuple[int, Cards, int], int | None] = {}

    def score(s: Cards) -> tuple[int, int]:
        p, c = sum(pts(x) for x in s), len(s)
        return (p, c) if objective == "points" else (c, p)

    def rec(i: int, left: Cards, balance: int) -> tuple[int, int, int] | None:
        key = (i, left, balance)
        if key in memo:
            return memo[key]
        if i == len(table):
            res: tuple[int, int, int] | None = (0, 0, 0) if balance == 0 else None
        else:
            res = None
            for s, f, g in options[i]:
                if not s <= left:
                    continue
                sub = rec(i + 1, left - s, balance + f - g)
                if sub is None:
                    continue
                a, b = score(s)
                cand = (sub[0] + a, sub[1] + b, sub[2] - f)
                if res is None or cand > res:
                    res = cand
        memo[key] = res
        return res

    def rec_left(i: int, left: Cards, balance: int) -> int | None:
        key = (i, left, balance)
        if key in memo_left:
            return memo_left[key]
        if i == len(table):
            r: int | None = len(left) if balance == 0 else None
        else:
            r = None
            for s, f, g in options[i]:
                if s <= left:
                    sub = rec_left(i + 1, left - s, balance + f - g)
                    if sub is not None and (r is None or sub < r):
                        r = sub
        memo_left[key] = r
        return r

    best = rec(0, hand, 0)
    fewest = rec_left(0, hand, 0)
    assert best is not None and fewest is not None
    return BruteLayoff(best[0], best[1], -best[2], fewest)
