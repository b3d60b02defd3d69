"""Brute force of a Contract Shanghai turn after the draw: every lay-down, every lay-off and swap, the discard.

The second opinion on :func:`solver.contract.turn.plan_after_draw`. It
shares no code with the solver: it plays the turn as the engine's steps
(lay down the contract with every wild's role written; then one card at a
time onto any meld, a wild with any role; a wild swap, the freed wild at
once onto any meld with any role) and checks every meld with the plain
validator of :mod:`solver.melds`. Slow by design: small hands only.

The value is the fewest points left in hand at the end of the turn (after
the discard of the card worth most, a card ``barred`` only when alone);
0 means the player goes out.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from solver.cards import Card, Cards, Rank, Suit
from solver.errors import MeldError
from solver.melds import Meld, MeldKind, TableMeld, meld_kind
from solver.rules.contract import ContractRules, min_length

__all__ = ["TurnPosition", "brute_after_draw", "brute_lay_down_ends", "random_turn_position"]

_Table = tuple[tuple[tuple[tuple[Card, Card | None], ...], int], ...]  # (sorted (card, role) pairs, owner)


def _ok(cards: Sequence[Card], roles: Sequence[Card | None], rules: ContractRules, kind: MeldKind) -> bool:
    try:
        meld_kind(Meld(tuple(cards), tuple(roles)), rules.meld_spec, kind)
    except MeldError:
        return False
    return True


def _subsets(items: Sequence[tuple[Card, int]]) -> Iterator[list[Card]]:
    for counts in itertools.product(*(range(n + 1) for _, n in items)):
        yield [c for (c, _), k in zip(items, counts) for _ in range(k)]


def _role_options(cards: Sequence[Card], rules: ContractRules, kind: MeldKind) -> list[Card]:
    """The cards a wild may stand for in a meld of these cards (a set: its rank; a run: its suit)."""
    naturals = [c for c in cards if c not in rules.wilds]
    if kind == "set":  # a set's wild stands for its rank; the suit of the role is cosmetic (suits repeat)
        return [Card(naturals[0].rank, naturals[0].suit)] if naturals and naturals[0].rank is not None else []
    suit = naturals[0].suit if naturals else None
    return [Card(r, suit) for r in Rank] if suit is not None else []


def _written(cards: list[Card], rules: ContractRules, kind: MeldKind) -> list[tuple[Card | None, ...]]:
    """Every full writing of the wilds' roles that makes ``cards`` a valid meld of ``kind``."""
    wild_at = [i for i, c in enumerate(cards) if c in rules.wilds]
    options = _role_options(cards, rules, kind)
    out: list[tuple[Card | None, ...]] = []
    seen: set[tuple[Card | None, ...]] = set()
    for roles in itertools.product(options, repeat=len(wild_at)):
        full: list[Card | None] = [None] * len(cards)
        for i, r in zip(wild_at, roles):
            full[i] = r
        key = tuple(full)
        if key not in seen and _ok(cards, full, rules, kind):
            seen.add(key)
            out.append(key)
    return out


def _melds(
    hand: Cards, rules: ContractRules, kind: MeldKind, least: int
) -> list[tuple[Cards, tuple[tuple[Card, Card | None], ...]]]:
    """Every meld of ``kind`` (``least`` cards or more) from ``hand``, each way of writing its wilds."""
    wilds = [(c, n) for c, n in hand.items() if c in rules.wilds]
    groups: dict[object, list[tuple[Card, int]]] = {}
    for c, n in hand.items():
        if c not in rules.wilds:
            groups.setdefault(c.rank if kind == "set" else c.suit, []).append((c, n if kind == "set" else 1))
    out = []
    for items in groups.values():
        for nat in _subsets(items):
            for ws in _subsets(wilds):
                cards = nat + ws
                if not nat or len(cards) < least:
                    continue
                for roles in _written(cards, rules, kind):
                    out.append((Cards(cards), tuple(sorted(zip(cards, roles), key=_pair_key))))
    return out


def _pair_key(pair: tuple[Card, Card | None]) -> tuple[int, int]:
    return (pair[0].index, -1 if pair[1] is None else pair[1].index)


def _lay_downs(
    hand: Cards, rules: ContractRules, round_: int
) -> Iterator[tuple[Cards, list[tuple[tuple[Card, Card | None], ...]]]]:
    """Every lay-down of the round's contract: the cards used and the melds (pairs of card and role)."""
    contract = rules.contract(round_)
    cands = [_melds(hand, rules, r.kind, min_length(r, rules)) for r in contract]

    def rec(
        i: int, used: Cards, chosen: list[tuple[tuple[Card, Card | None], ...]], ranks: list[object]
    ) -> Iterator[tuple[Cards, list[tuple[tuple[Card, Card | None], ...]]]]:
        if i == len(contract):
            yield used, list(chosen)
            return
        for cards, pairs in cands[i]:
            total = used + cards
            if not total <= hand:
                continue
            rank = None
            if contract[i].kind == "set":
                rank = next(c.rank for c in cards if c not in rules.wilds)
                if rules.distinct_set_ranks and rank in ranks:
                    continue
            yield from rec(i + 1, total, [*chosen, pairs], [*ranks, rank])

    yield from rec(0, Cards(), [], [])


class _Search:
    """The memoised search over lay-offs and swaps, one card at a time."""

    def __init__(self, rules: ContractRules, player: int, barred: Card | None) -> None:
        self.rules, self.player, self.barred = rules, player, barred
        self.spec = rules.meld_spec
        self.value = lru_cache(maxsize=None)(self._value)

    def final(self, hand: Cards) -> int:
        if not hand:
            return 0
        pts = self.rules.points
        options = [c for c in hand.distinct() if c != self.barred or hand.count(c) > 1 or len(hand) == 1]
        return sum(pts(c) for c in hand) - max(pts(c) for c in options)

    def kind(self, pairs: tuple[tuple[Card, Card | None], ...]) -> MeldKind:
        return meld_kind(Meld(tuple(c for c, _ in pairs), tuple(r for _, r in pairs)), self.spec)

    def grow(
        self, pairs: tuple[tuple[Card, Card | None], ...], card: Card
    ) -> Iterator[tuple[tuple[Card, Card | None], ...]]:
        """The meld with ``card`` added (a wild: with each role that keeps it valid)."""
        kind = self.kind(pairs)
        cards = [c for c, _ in pairs]
        roles: list[Card | None] = (
            [None] if card not in self.rules.wilds else list(_role_options(cards, self.rules, kind))
        )
        for role in roles:
            new = (*pairs, (card, role))
            if _ok([c for c, _ in new], [r for _, r in new], self.rules, kind):
                yield tuple(sorted(new, key=_pair_key))

    def _value(self, hand: Cards, table: _Table) -> int:
        best = self.final(hand)
        if best == 0:
            return 0
        for nxt_hand, nxt_table in self.moves(hand, table):
            best = min(best, self.value(nxt_hand, nxt_table))
            if best == 0:
                break
        return best

    def moves(self, hand: Cards, table: _Table) -> Iterator[tuple[Cards, _Table]]:
        rules = self.rules
        for card in hand.distinct():
            rest = hand - Cards([card])
            for i, (pairs, owner) in enumerate(table):
                for grown in self.grow(pairs, card):
                    yield rest, (*table[:i], (grown, owner), *table[i + 1 :])
            if card in rules.wilds or not rules.wild_swap:
                continue
            for i, (_, owner) in enumerate(table):
                if owner == self.player and not rules.wild_swap_own:
                    continue
                yield from self.swaps(rest, table, i, card)

    def swaps(self, rest: Cards, table: _Table, i: int, card: Card) -> Iterator[tuple[Cards, _Table]]:
        pairs, owner = table[i]
        kind = self.kind(pairs)
        rank = next(c.rank for c, _ in pairs if c not in self.rules.wilds)
        for k, (c, role) in enumerate(pairs):
            if c not in self.rules.wilds or (role is None and kind == "run"):
                continue
            if (kind == "set" and card.rank != rank) or (kind == "run" and role != card):
                continue
            left = (*pairs[:k], (card, None), *pairs[k + 1 :])
            if not _ok([x for x, _ in left], [r for _, r in left], self.rules, kind):
                continue
            swapped = (*table[:i], (tuple(sorted(left, key=_pair_key)), owner), *table[i + 1 :])
            for j, (dest, dest_owner) in enumerate(swapped):
                for grown in self.grow(dest, c):
                    yield rest, (*swapped[:j], (grown, dest_owner), *swapped[j + 1 :])


def _table_of(table: Sequence[TableMeld], rules: ContractRules) -> _Table:
    out = []
    for t in table:
        pairs = tuple(sorted(zip(t.meld.cards, t.meld.roles), key=_pair_key))
        out.append((pairs, t.owner))
    return tuple(out)


def brute_after_draw(
    hand: Cards,
    table: Sequence[TableMeld],
    rules: ContractRules,
    round_: int,
    *,
    player: int = 0,
    laid_down: bool = False,
    barred: Card | None = None,
) -> int | None:
    """The fewest points left at the end of the turn over every legal way to meld; None when a player who
    has not laid down cannot lay down (then no melding happens). Table melds must have every wild's role
    written (as the engine keeps them)."""
    search = _Search(rules, player, barred)
    start = _table_of(table, rules)
    if laid_down:
        return search.value(hand, start)
    whole = round_ == rules.rounds and rules.last_round_all_at_once
    best: int | None = None
    for used, melds in _lay_downs(hand, rules, round_):
        left = hand - used
        if whole and len(left) > 1:
            continue
        new = (*start, *((tuple(m), player) for m in melds))
        v = search.value(left, new) if rules.layoff_same_turn else search.final(left)
        if best is None or v < best:
            best = v
            if v == 0:
                break
    return best


def brute_lay_down_ends(
    hand: Cards, table: Sequence[TableMeld], rules: ContractRules, round_: int, *, player: int = 0
) -> dict[tuple[str, ...], int]:
    """For every grouping of the contract in ``hand`` (each meld's cards, sorted), the fewest points left
    at the end of the turn that lays it down (over every writing of its wilds' roles): a lay-down
    puzzle's answer is the one grouping with the least."""
    search = _Search(rules, player, None)
    start = _table_of(table, rules)
    out: dict[tuple[str, ...], int] = {}
    for used, melds in _lay_downs(hand, rules, round_):
        key = tuple(sorted(str(Cards(c for c, _ in m)) for m in melds))
        left = hand - used
        new = (*start, *((tuple(m), player) for m in melds))
        v = search.value(left, new) if rules.layoff_same_turn else search.final(left)
        out[key] = min(v, out.get(key, v))
    return out


# ------------------------------------------------------------------ random turn positions (tests, benchmark)


def _run_cards(rng: random.Random, length: int) -> list[Card]:
    suit = rng.choice(list(Suit))
    start = rng.randint(3, 14 - length + 1)
    return [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)]


def _set_cards(rng: random.Random, length: int) -> list[Card]:
    rank = Rank(rng.choice([r for r in range(1, 14) if r != 2]))
    return [Card(rank, rng.choice(list(Suit))) for _ in range(length)]


def _table_meld(rng: random.Random, rules: ContractRules, kind: str, length: int, wild: bool) -> Meld:
    """A valid meld with every wild's role written; ``wild``: one card replaced by a wild (inside a run)."""
    cards = _run_cards(rng, length) if kind == "run" else _set_cards(rng, length)
    roles: list[Card | None] = [None] * len(cards)
    if wild and rules.wilds:
        k = rng.randrange(1, len(cards) - 1) if kind == "run" else rng.randrange(len(cards))
        roles[k] = cards[k]
        cards[k] = rng.choice(sorted(rules.wilds, key=lambda c: c.index))
    return Meld(tuple(cards), tuple(roles))


@dataclass(frozen=True)
class TurnPosition:
    """A position after the draw: the hand, the table (owners), whether the player (0) has laid down."""

    round: int
    hand: Cards
    table: tuple[TableMeld, ...]
    laid_down: bool


def random_turn_position(
    rng: random.Random, rules: ContractRules, round_: int, *, wilds_on_table: bool
) -> TurnPosition:
    """A random turn position small enough for the brute force; None-free: retries until the cards fit the decks."""
    deck = rules.deck
    while True:
        laid = rng.random() < 0.4
        table: list[TableMeld] = []
        for _ in range(rng.randint(1, 3)):
            kind = rng.choice(["set", "run"])
            table.append(
                TableMeld(
                    _table_meld(rng, rules, kind, 3 if kind == "set" else 4, wilds_on_table and rng.random() < 0.6),
                    rng.choice([1, 2]),
                )
            )
        hand: list[Card] = []
        if laid:
            for req in rules.contract(round_):
                table.append(TableMeld(_table_meld(rng, rules, req.kind, min_length(req, rules), False), 0))
        else:
            for req in rules.contract(round_):
                m = _table_meld(rng, rules, req.kind, min_length(req, rules), rng.random() < 0.3)
                hand += list(m.cards)
        # cards that fit the table (or a wild's place), then a few at random
        for t in rng.sample(table, min(len(table), rng.randint(0, 2))):
            stands = [r if r is not None else c for c, r in zip(t.meld.cards, t.meld.roles)]
            hand.append(rng.choice(stands))
        extra = rng.randint(1, 3)
        hand += rng.sample(list(deck), extra)
        cards = Cards(hand) + Cards(c for t in table for c in t.meld.cards)
        if not cards <= deck or len(hand) > 14:
            continue
        return TurnPosition(round_, Cards(hand), tuple(table), laid)
