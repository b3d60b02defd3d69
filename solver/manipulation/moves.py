"""From the old table to the new one: match melds, then list the physical moves.

Old and new melds form a bipartite graph whose edges weigh how many cards
they share (identical copies are interchangeable, so shares are multiset
intersections). A maximum-weight matching (OR-Tools' compiled linear sum
assignment) pairs every old meld
with at most one new meld, preferring first pairs that keep an old meld
whole (all its cards in its partner) and then pairs sharing more cards.
A table card that does not end in its old meld's partner was moved.

>>> from solver.melds import parse_table
>>> old = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
>>> new = parse_table("3H 4H 5H | 3C 4C 5C | 6H 6C 6S")
>>> diff = diff_tables(old, new, Cards.parse("6S"))
>>> diff.kept_melds, diff.moved_cards
(0, 2)
>>> [str(m) for m in diff.moves]
['move 6H from [3H 4H 5H 6H] to [6H 6C 6S]', 'move 6C from [3C 4C 5C 6C] to [6H 6C 6S]', 'play 6S to [6H 6C 6S]']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import ALL_CARDS, Cards
from solver.melds import Meld

__all__ = ["Move", "TableDiff", "match_melds", "best_assignment", "diff_tables", "overlap", "meld_counts"]

Counts = dict[int, int]
"""A meld's cards counted by card index."""


def _plain(meld: Meld) -> str:
    """A meld's cards as text, without the roles its wilds take (as ``str(Meld(meld.cards))``)."""
    return " ".join([c.code for c in meld.cards])


@dataclass(frozen=True, slots=True)
class Move:
    """Cards going to one new meld, from one old meld or (``source`` None) from the hand.

    ``source`` indexes the old table, ``target`` the new one; the melds are
    kept so the text form stands alone.
    """

    cards: Cards
    source: int | None
    target: int
    source_meld: Meld | None
    target_meld: Meld

    @property
    def text(self) -> str:
        """``move 6H from [3H 4H 5H 6H] to [6H 6C 6S]`` or ``play 6S to [...]``."""
        plain = _plain(self.target_meld)
        if self.source_meld is None:
            return f"play {self.cards} to [{plain}]"
        return f"move {self.cards} from [{_plain(self.source_meld)}] to [{plain}]"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class TableDiff:
    """The matching old -> new, which old melds stayed whole, and the moves."""

    matching: tuple[int | None, ...]
    kept: tuple[bool, ...]
    moved_cards: int
    moves: tuple[Move, ...]

    @property
    def kept_melds(self) -> int:
        """How many old melds ended whole inside their partner."""
        return sum(self.kept)


def overlap(a: Cards, b: Cards) -> int:
    """Cards two multisets share."""
    return sum(min(x, y) for x, y in zip(a.counts, b.counts))


def _share_edges(
    old: Sequence[Meld], old_counts: Sequence[Counts], new_counts: Sequence[Counts], big: int
) -> dict[tuple[int, int], int]:
    """Edges old -> new weighing the cards they share, plus ``big`` when the old meld is whole."""
    holders: dict[int, list[tuple[int, int]]] = {}  # which new melds hold each card (index), how many times
    for j, counts in enumerate(new_counts):
        for card, n in counts.items():
            holders.setdefault(card, []).append((j, n))
    edges: dict[tuple[int, int], int] = {}
    for i, meld in enumerate(old):
        shares: dict[int, int] = {}
        for card, n in old_counts[i].items():
            for j, m in holders.get(card, ()):
                shares[j] = shares.get(j, 0) + (n if n < m else m)
        size = len(meld.cards)
        for j, share in shares.items():
            edges[i, j] = share + big if share == size else share
    return edges


def _index_counts(meld: Meld) -> Counts:
    """A meld's cards counted by card index (ints hash far faster than cards)."""
    counts: Counts = {}
    for card in meld.cards:
        i = card.index
        counts[i] = counts.get(i, 0) + 1
    return counts


def meld_counts(melds: Sequence[Meld]) -> list[Counts]:
    """Each meld's cards counted by card index: what :func:`match_melds` and :func:`diff_tables`
    read, counted once when a caller asks both."""
    return [_index_counts(m) for m in melds]


def _forced(edges: dict[tuple[int, int], int], big: int) -> set[tuple[int, int]]:
    """The "whole" edges alone at both their ends (among whole edges): in every best matching,
    since leaving one out loses a kept meld that nothing else can make up for."""
    whole_old: dict[int, int] = {}
    whole_new: dict[int, int] = {}
    for (i, j), w in edges.items():
        if w > big:
            whole_old[i] = whole_old.get(i, 0) + 1
            whole_new[j] = whole_new.get(j, 0) + 1
    return {(i, j) for (i, j), w in edges.items() if w > big and whole_old[i] == 1 and whole_new[j] == 1}


def best_assignment(edges: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """A maximum-weight matching of a bipartite graph (positive weights), by OR-Tools' compiled
    linear sum assignment.

    The assignment is made perfect with a stand-in for each node: old ``i``
    may take its own stand-in (unmatched), new ``j``'s stand-in takes ``j``
    (unmatched), and the stand-ins of an edge's ends pair up at no cost, so
    every matching extends to a perfect assignment of the same weight.

    >>> sorted(best_assignment({(0, 0): 5, (0, 1): 3, (1, 0): 4}))
    [(0, 1), (1, 0)]
    """
    from ortools.graph.python import linear_sum_assignment

    olds = sorted({i for i, _ in edges})
    news = sorted({j for _, j in edges})
    left = {i: k for k, i in enumerate(olds)}
    right = {j: k for k, j in enumerate(news)}
    n_old, n_new = len(olds), len(news)
    tails: list[int] = []
    heads: list[int] = []
    costs: list[int] = []
    for (i, j), w in edges.items():
        tails += (left[i], n_old + right[j])  # the edge, and its stand-ins paired
        heads += (right[j], n_new + left[i])
        costs += (-w, 0)
    for k in range(n_old):  # old k unmatched
        tails.append(k)
        heads.append(n_new + k)
        costs.append(0)
    for k in range(n_new):  # new k unmatched
        tails.append(n_old + k)
        heads.append(k)
        costs.append(0)
    solver = linear_sum_assignment.SimpleLinearSumAssignment()
    for arc in zip(tails, heads, costs, strict=True):  # one by one: the batch call imports numpy (~80 ms)
        solver.add_arc_with_cost(*arc)
    if solver.solve() != solver.OPTIMAL:  # pragma: no cover - the stand-ins make it always feasible
        raise RuntimeError("the meld assignment has no solution")
    return [(i, news[solver.right_mate(k)]) for k, i in enumerate(olds) if solver.right_mate(k) < n_new]


def match_melds(
    old: Sequence[Meld], new: Sequence[Meld], counts: tuple[Sequence[Counts], Sequence[Counts]] | None = None
) -> tuple[int | None, ...]:
    """The partner (index into ``new``) of every old meld, or None.

    Lexicographic: most old melds kept whole, then most shared cards.
    Components of the share graph with one old and one new meld are paired
    directly; the others go to a compiled assignment solver (:func:`best_assignment`).
    ``counts``: the old and new melds' :func:`meld_counts`, if the caller has them.
    """
    big = sum(len(m) for m in old) + 1
    old_counts, new_counts = counts if counts is not None else (meld_counts(old), meld_counts(new))
    edges = _share_edges(old, old_counts, new_counts, big)
    partner: list[int | None] = [None] * len(old)
    forced = _forced(edges, big)
    done_old = {i for i, _ in forced}
    done_new = {j for _, j in forced}
    for i, j in forced:
        partner[i] = j
    left = {(i, j): w for (i, j), w in edges.items() if i not in done_old and j not in done_new}
    old_deg: dict[int, int] = {}
    new_deg: dict[int, int] = {}
    for i, j in left:
        old_deg[i] = old_deg.get(i, 0) + 1
        new_deg[j] = new_deg.get(j, 0) + 1
    rest = {}
    for (i, j), w in left.items():
        if old_deg[i] == 1 and new_deg[j] == 1:
            partner[i] = j
        else:
            rest[i, j] = w
    if rest:
        for i, j in best_assignment(rest):
            partner[i] = j
    return tuple(partner)


def _place_surplus(
    surplus: Sequence[dict[int, int]], need: Sequence[dict[int, int]]
) -> dict[tuple[int | None, int], dict[int, int]]:
    """Each old meld's cards (by card index) that leave it, placed in the first new melds still
    needing them (``need`` is consumed): (old, new) -> cards moved."""
    groups: dict[tuple[int | None, int], dict[int, int]] = {}
    wanted: dict[int, list[int]] = {}  # card -> the new melds still needing it, in table order
    for j, want in enumerate(need):
        for card, n in want.items():
            if n > 0:
                wanted.setdefault(card, []).append(j)
    for i, give in enumerate(surplus):
        for card, n in give.items():
            for j in wanted.get(card, ()):
                if not n:
                    break
                take = min(n, need[j][card])
                if take > 0:
                    need[j][card] -= take
                    n -= take
                    g = groups.setdefault((i, j), {})
                    g[card] = g.get(card, 0) + take
            if n:
                raise ValueError(f"card {ALL_CARDS[card]} of old meld {i} has no place in the new table")
    return groups


def _cards(counts: dict[int, int]) -> Cards:
    """A multiset from counts by card index."""
    return Cards.from_counts({ALL_CARDS[i]: n for i, n in counts.items()})


def diff_tables(
    old: Sequence[Meld],
    new: Sequence[Meld],
    played: Cards,
    matching: Sequence[int | None] | None = None,
    counts: tuple[Sequence[Counts], Sequence[Counts]] | None = None,
) -> TableDiff:
    """Kept melds, moved table cards and the move list from ``old`` to ``new``.

    ``played`` are the hand cards the new table adds. Moves are grouped by
    (source, target): table cards first, in old-table order, then the hand.
    ``counts``: the old and new melds' :func:`meld_counts`, if the caller has them (not changed).
    """
    old_counts, new_counts = counts if counts is not None else (meld_counts(old), meld_counts(new))
    if matching is None:
        matching = match_melds(old, new, (old_counts, new_counts))
    kept = []
    moved = 0
    # what each new meld still needs after its partner's cards, what each old meld gives away (by card index)
    need = [dict(c) for c in new_counts]
    surplus: list[dict[int, int]] = []
    for i in range(len(old)):
        give = dict(old_counts[i])
        j = matching[i]
        if j is not None:
            partner = need[j]
            for card, n in give.items():
                stay = min(n, partner.get(card, 0))
                if stay:
                    give[card] = n - stay
                    partner[card] -= stay
        left = {c: n for c, n in give.items() if n}
        surplus.append(left)
        n_moved = sum(left.values())
        moved += n_moved
        kept.append(j is not None and n_moved == 0)
    groups = _place_surplus(surplus, need)
    for j, want in enumerate(need):
        for card, n in want.items():
            if n:
                g = groups.setdefault((None, j), {})
                g[card] = g.get(card, 0) + n
    hand: dict[int, int] = {}
    for (src, _), g in groups.items():
        if src is None:
            for card, n in g.items():
                hand[card] = hand.get(card, 0) + n
    hand_total = _cards(hand)
    if hand_total != played:
        raise ValueError(f"the new table adds {hand_total}, not the played cards {played}")
    order = sorted(groups, key=lambda k: (k[0] is None, k[0] if k[0] is not None else 0, k[1]))
    moves = tuple(
        Move(_cards(groups[k]), k[0], k[1], old[k[0]] if k[0] is not None else None, new[k[1]]) for k in order
    )
    return TableDiff(tuple(matching), tuple(kept), moved, moves)
