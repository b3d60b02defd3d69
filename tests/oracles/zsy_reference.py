"""An independent, naive Zheng Shang You referee for the tests.

It shares no code with :mod:`solver.zsy`: every wild card is tried at
every value it may take, straight by straight and window by window, exactly
as the rule book words it. Slow, obvious, and only for small hands.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, combinations_with_replacement, product

from solver.cards import Card

# (kind, copies, length, top, flush, pure); copies is a set's size, length 1 for singles and sets
Key = tuple[str, int, int, int, bool, bool]

VALUE = {"J": 11, "Q": 12, "K": 13, "A": 14, "2": 15}


def value(card: Card) -> int:
    """ZSY value from the card code: 3..10, J=11, Q, K, A=14, 2=15, BJ=16, RJ=17."""
    code = card.code
    if code == "RJ":
        return 17
    if code == "BJ":
        return 16
    sym = code[:-1]
    return VALUE.get(sym, int(sym) if sym.isdigit() else 0)


def is_joker(card: Card) -> bool:
    return card.code in ("RJ", "BJ")


def is_two(card: Card) -> bool:
    return value(card) == 15


def ref_classify(cards: tuple[Card, ...]) -> set[Key]:
    """Every combination the cards make, by trying every role of every wild."""
    return _ref(tuple(sorted(c.code for c in cards)))


@cache
def _ref(codes: tuple[str, ...]) -> set[Key]:
    cards = [Card.parse(c) for c in codes]
    n = len(cards)
    out: set[Key] = set()
    if n == 0:
        return out
    if n == 1:
        return {("single", 1, 1, value(cards[0]), False, True)}
    # sets: one rank (3..A or 2) with at least one natural; 2s and jokers fill in (only jokers for 2s)
    for r in range(3, 16):
        naturals = [c for c in cards if value(c) == r]
        others = [c for c in cards if value(c) != r]
        allowed = all(is_joker(c) for c in others) if r == 15 else all(is_joker(c) or is_two(c) for c in others)
        if naturals and allowed:
            out.add(("set", n, 1, r, False, not others))
    # straights: no 2s at all; each joker tried at every value 3..A; the highest reading counts
    if n >= 3 and not any(is_two(c) for c in cards):
        naturals = [c for c in cards if not is_joker(c)]
        jokers = n - len(naturals)
        best = None
        for roles in product(range(3, 15), repeat=jokers):
            values = sorted([value(c) for c in naturals] + list(roles))
            if len(set(values)) == n and values[-1] - values[0] == n - 1 and values[-1] <= 14:
                best = values[-1] if best is None else max(best, values[-1])
        if best is not None and naturals:
            flush = len({c.suit for c in naturals}) == 1
            out.add(("straight", 1, n, best, flush, jokers == 0))
    # parallel straights: c copies of a straight of length L >= 3; wilds take roles in the window
    naturals = [c for c in cards if not is_joker(c) and not is_two(c)]
    twos = sum(1 for c in cards if is_two(c))
    jokers = sum(1 for c in cards if is_joker(c))
    for copies in range(2, n + 1):
        if n % copies or n // copies < 3:
            continue
        length = n // copies
        best_top = None
        for lo in range(3, 15 - length + 1):
            window = range(lo, lo + length)
            nat = Counter(value(c) for c in naturals)
            if any(v not in window for v in nat):
                continue
            for two_roles in combinations_with_replacement(window, twos):
                for joker_roles in combinations_with_replacement(window, jokers):
                    t, j = Counter(two_roles), Counter(joker_roles)
                    if all(nat[v] + t[v] + j[v] == copies and t[v] < copies for v in window):
                        best_top = lo + length - 1 if best_top is None else max(best_top, lo + length - 1)
        if best_top is not None:
            out.add(("parallel", copies, length, best_top, False, twos + jokers == 0))
    return out


def ref_beats(a: Key, b: Key, bombs: bool = False) -> bool:
    """The rule book's comparison, written out kind by kind."""
    if bombs:
        bomb_a = a[0] == "set" and a[1] == 4
        bomb_b = b[0] == "set" and b[1] == 4
        if bomb_a and not bomb_b:
            return True
        if bomb_b and not bomb_a:
            return False
    kind, copies, length, top, flush, pure = a
    if kind != b[0] or copies != b[1] or length != b[2]:
        return False
    if kind == "single":
        return top > b[3]
    if kind == "straight":
        if flush != b[4]:
            return flush
        if top != b[3]:
            return top > b[3]
        return pure and not b[5]
    # sets and parallel straights: higher rank, else pure over impure
    if top != b[3]:
        return top > b[3]
    return pure and not b[5]


def ref_moves(
    hand: tuple[Card, ...], to_beat: Key | None, bombs: bool = False, sizes: list[int] | None = None
) -> set[tuple[tuple[str, ...], Key]]:
    """Every (cards, combination) over all sub-multisets of the hand (of ``sizes``) that beats ``to_beat``."""
    out: set[tuple[tuple[str, ...], Key]] = set()
    for size in sizes if sizes is not None else range(1, len(hand) + 1):
        for sub in set(combinations(sorted(hand, key=lambda c: c.code), size)):
            for key in ref_classify(sub):
                if to_beat is None or ref_beats(key, to_beat, bombs):
                    out.add((tuple(sorted(c.code for c in sub)), key))
    return out


def ref_fewest(hand: tuple[Card, ...]) -> int:
    """The fewest plays by exhaustive search over every partition into combinations."""
    n = len(hand)
    valid = [False] * (1 << n)
    for mask in range(1, 1 << n):
        valid[mask] = bool(ref_classify(tuple(hand[i] for i in range(n) if mask >> i & 1)))
    best = [0] + [n + 1] * ((1 << n) - 1)
    for mask in range(1, 1 << n):
        low = mask & -mask
        rest = mask ^ low
        sub = rest
        while True:
            part = sub | low
            if valid[part]:
                best[mask] = min(best[mask], best[mask ^ part] + 1)
            if sub == 0:
                break
            sub = (sub - 1) & rest
    return best[(1 << n) - 1]
