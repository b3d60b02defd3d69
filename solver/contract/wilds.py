"""Runs and sets with wild cards as graph problems (networkx).

A run is a path in the rank graph of its suit (:mod:`solver.graph.runs`).
Its natural cards, and its wilds whose role is written (``2S=8H``), pin
nodes of that path; the wilds whose role is open fill the remaining nodes of
some window of the run's length. A run with an open wild at an end is
ambiguous: ``5H 6H 7H 2S`` is 4H-7H or 5H-8H, so the wild stands for 4H or
8H. :func:`run_shape` lists every window the run can occupy.

Which hand cards can take which wild's place is a bipartite matching
between wild nodes and hand cards (:func:`swap_matching`).

>>> from solver.rules import ContractRules
>>> spec = ContractRules().meld_spec
>>> sorted(map(str, wild_role_options(Meld.parse("5H 6H 7H 2S"), spec)[0]))
['4H', '8H']
>>> run_shape(Meld.parse("5H 6H 7H 2S"), spec).windows
((4, 5, 6, 7), (5, 6, 7, 8))
>>> swap_matching(Meld.parse("10D 10H 2S"), Cards.parse("10C 5H"), spec)
{2: Card.parse('10C')}
>>> str(resolve_wilds(Meld.parse("5H 6H 7H 2S"), spec))
'5H 6H 7H 2S=8H'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from solver.cards import Card, Cards, Rank, Suit
from solver.errors import MeldError
from solver.melds import Meld, MeldKind, meld_kind
from solver.ranks import position_rank, positions_of
from solver.rules.base import MeldSpec

if TYPE_CHECKING:  # networkx takes about 0.2 s to import: the graph functions import it when called
    import networkx as nx

__all__ = [
    "RunShape",
    "SetShape",
    "run_shape",
    "run_shapes",
    "set_shape",
    "shape_of",
    "wild_role_options",
    "substitution_graph",
    "swap_matching",
    "resolve_wilds",
    "position_card",
    "fixed_roles",
]


def position_card(position: int, suit: Suit) -> Card:
    """The card at a rank position (1 and 14 are the ace) of ``suit``."""
    return Card(position_rank(position), suit)


@dataclass(frozen=True, slots=True)
class RunShape:
    """A run on the table seen as nodes of its suit's rank graph.

    ``naturals`` are the positions of its natural cards, ``written`` the
    wilds whose role is written (position, wild card), ``open`` the wild
    cards whose role is open, and ``windows`` every window (path of the
    rank graph, as many nodes as the run has cards) the run can occupy:
    each holds all pinned positions, and its other nodes are the open
    wilds' roles.
    """

    suit: Suit
    naturals: tuple[int, ...]
    written: tuple[tuple[int, Card], ...]
    open: tuple[Card, ...]
    windows: tuple[tuple[int, ...], ...]

    @property
    def pinned(self) -> frozenset[int]:
        """Positions held by natural cards or by wilds with a written role."""
        return frozenset(self.naturals) | {p for p, _ in self.written}

    def gaps(self, window: tuple[int, ...]) -> tuple[int, ...]:
        """The nodes of ``window`` that the open wilds stand for."""
        pinned = self.pinned
        return tuple(p for p in window if p not in pinned)


@dataclass(frozen=True, slots=True)
class SetShape:
    """A set on the table: its rank, natural cards and wilds.

    A set's wild stands for a card of the set's rank; the suit of a written
    role is cosmetic (suits may repeat), so any natural of the rank can take
    its place.
    """

    rank: Rank
    naturals: tuple[Card, ...]
    wilds: tuple[Card, ...]


def run_shapes(meld: Meld, spec: MeldSpec) -> tuple[RunShape, ...]:
    """Every reading of a run; :class:`MeldError` if it is not a valid run.

    There is one reading unless an ace may sit low or high with only open
    wilds beside it (``AH 2S 2C JK`` under ``wild_limit = "any"``).
    """
    from solver.graph.runs import rank_graph, run_windows  # networkx: imported on first use

    meld_kind(meld, spec, "run")
    open_: list[Card] = []
    fixed: list[tuple[Card, Card | None]] = []  # (identity, wild card or None)
    for card, role in zip(meld.cards, meld.roles):
        if spec.is_wild(card):
            if role is None:
                open_.append(card)
            else:
                fixed.append((role, card))
        else:
            fixed.append((card, None))
    suit = fixed[0][0].suit
    assert suit is not None  # a valid run has a natural card
    graph = rank_graph(spec.ace)
    n = len(meld.cards)
    # each fixed card takes one of its positions (only the ace may have two)
    choices: list[list[int]] = [[]]
    for ident, _ in fixed:
        assert ident.rank is not None
        choices = [[*c, p] for c in choices for p in positions_of(ident.rank, spec.ace) if graph.has_node(p)]
    shapes: list[RunShape] = []
    for choice in choices:
        if len(set(choice)) != len(choice):
            continue
        windows = tuple(w for w in run_windows(spec.ace, n, n) if set(choice) <= set(w))
        if not windows:
            continue
        naturals = tuple(p for (_, wild), p in zip(fixed, choice) if wild is None)
        written = tuple((p, wild) for (_, wild), p in zip(fixed, choice) if wild is not None)
        shapes.append(RunShape(suit, naturals, written, tuple(open_), windows))
    if not shapes:  # pragma: no cover - meld_kind accepted it
        raise MeldError(f"invalid meld {meld}: not a run")
    return tuple(shapes)


def run_shape(meld: Meld, spec: MeldSpec) -> RunShape:
    """The run's first reading (see :func:`run_shapes`)."""
    return run_shapes(meld, spec)[0]


def set_shape(meld: Meld, spec: MeldSpec) -> SetShape:
    """The set's rank, naturals and wilds; :class:`MeldError` if it is not a valid set."""
    meld_kind(meld, spec, "set")
    naturals = tuple(c for c in meld.cards if not spec.is_wild(c))
    wilds = tuple(c for c in meld.cards if spec.is_wild(c))
    rank = naturals[0].rank
    assert rank is not None
    return SetShape(rank, naturals, wilds)


def shape_of(meld: Meld, spec: MeldSpec) -> tuple[MeldKind, RunShape | SetShape]:
    """The meld's kind and shape; a meld valid as both is a set unless its roles make it a run."""
    kind = meld_kind(meld, spec)
    return kind, (set_shape(meld, spec) if kind == "set" else run_shape(meld, spec))


def wild_role_options(meld: Meld, spec: MeldSpec) -> tuple[frozenset[Card], ...]:
    """For each open wild of a run, the cards it may stand for (one set per open wild).

    Open wilds are interchangeable, so every open wild gets the same set:
    the nodes of all windows that no pinned card holds. Sets give the cards
    of the set's rank in every suit.
    """
    _, shape = shape_of(meld, spec)
    if isinstance(shape, SetShape):
        options = frozenset(Card(shape.rank, s) for s in Suit)
        return tuple(options for c in meld.cards if spec.is_wild(c))
    roles = frozenset(position_card(p, r.suit) for r in run_shapes(meld, spec) for w in r.windows for p in r.gaps(w))
    return tuple(roles for _ in shape.open)


def substitution_graph(
    meld: Meld, hand: Cards, spec: MeldSpec, window: tuple[int, ...] | None = None, reading: int = 0
) -> nx.Graph:
    """The bipartite graph of wilds (``("wild", i)``, ``i`` the index in the meld)
    and hand cards (``("hand", card, copy)``) that can take their place.

    In a run, a written role is one card; an open wild can be replaced by
    the card of any node of ``window`` that no pinned card holds (default:
    the run's first window; ``reading`` picks one of :func:`run_shapes`).
    In a set, any natural of the set's rank.
    """
    import networkx as nx

    graph = nx.Graph()
    _, shape = shape_of(meld, spec)
    if isinstance(shape, RunShape):
        shape = run_shapes(meld, spec)[reading]
    wild_nodes = [("wild", i) for i, c in enumerate(meld.cards) if spec.is_wild(c)]
    graph.add_nodes_from(wild_nodes, bipartite=0)
    hand_nodes = [("hand", c, k) for c, n in hand.items() if not spec.is_wild(c) for k in range(n)]
    graph.add_nodes_from(hand_nodes, bipartite=1)
    if isinstance(shape, SetShape):
        for w in wild_nodes:
            graph.add_edges_from((w, h) for h in hand_nodes if h[1].rank == shape.rank)
        return graph
    gaps = shape.gaps(window if window is not None else shape.windows[0])
    open_cards = {position_card(p, shape.suit) for p in gaps}
    for w in wild_nodes:
        i = w[1]
        role = meld.roles[i]
        targets = {role} if role is not None else open_cards
        graph.add_edges_from((w, h) for h in hand_nodes if h[1] in targets)
    return graph


def swap_matching(meld: Meld, hand: Cards, spec: MeldSpec) -> dict[int, Card]:
    """A largest set of wild swaps: wild index in the meld -> the hand card that replaces it.

    For a run with open wilds every window is tried and the largest
    matching wins (its open wilds then stand for that window's nodes).
    """
    import networkx as nx

    _, shape = shape_of(meld, spec)
    tries: list[tuple[tuple[int, ...] | None, int]] = [(None, 0)]
    if isinstance(shape, RunShape):
        tries = [(w, i) for i, r in enumerate(run_shapes(meld, spec)) for w in r.windows]
    best: dict[int, Card] = {}
    for window, reading in tries:
        graph = substitution_graph(meld, hand, spec, window, reading)
        wild_nodes = [n for n, d in graph.nodes(data=True) if d["bipartite"] == 0]
        matching = nx.bipartite.hopcroft_karp_matching(graph, top_nodes=wild_nodes)
        found = {node[1]: matching[node][1] for node in wild_nodes if node in matching}
        if len(found) > len(best):
            best = found
    return dict(sorted(best.items()))


def resolve_wilds(meld: Meld, spec: MeldSpec, prefer: Literal["high", "low"] = "high") -> Meld:
    """The meld with every wild's role written.

    A run's open wilds take the window furthest up (``prefer="high"``:
    5H 6H 7H + wild = 5H-8H) or down; a set's open wilds take the suit of
    its first natural card.
    """
    _, shape = shape_of(meld, spec)
    if isinstance(shape, SetShape):
        role = Card(shape.rank, shape.naturals[0].suit)
        return Meld(
            meld.cards, tuple(role if spec.is_wild(c) and r is None else r for c, r in zip(meld.cards, meld.roles))
        )
    window = shape.windows[-1] if prefer == "high" else shape.windows[0]
    fill = iter(position_card(p, shape.suit) for p in shape.gaps(window))
    roles = tuple(next(fill) if spec.is_wild(c) and r is None else r for c, r in zip(meld.cards, meld.roles))
    return Meld(meld.cards, roles)


def fixed_roles(meld: Meld, spec: MeldSpec) -> Meld:
    """The run with the roles of its fixed open wilds written; any other meld unchanged.

    A wild inside a run stands for exactly one card (the rule book): in
    ``5S 6S 2S 8S`` the 2S can only be the 7S, in every window of every
    reading. Such a wild is written as that card (``2S=7S``), so taking
    its place is a wild swap, allowed only where swaps are. An open wild
    whose place still varies (``2S 5S 6S 7S``: the 4S or the 8S) stays open.

    >>> from solver.rules import ContractRules
    >>> spec = ContractRules().meld_spec
    >>> str(fixed_roles(Meld.parse("5S 6S 2S 8S"), spec)), str(fixed_roles(Meld.parse("2S 5S 6S 7S"), spec))
    ('5S 6S 2S=7S 8S', '2S 5S 6S 7S')
    """
    if not any(spec.is_wild(c) and r is None for c, r in zip(meld.cards, meld.roles)):
        return meld
    try:
        kind = meld_kind(meld, spec)
    except MeldError:
        return meld
    if kind != "run":
        return meld
    always: set[Card] | None = None
    for shape in run_shapes(meld, spec):
        for w in shape.windows:
            gaps = {position_card(p, shape.suit) for p in shape.gaps(w)}
            always = gaps if always is None else always & gaps
    fixed = iter(sorted(always or (), key=lambda c: c.index))
    roles = list(meld.roles)
    for i, (c, r) in enumerate(zip(meld.cards, meld.roles)):
        if spec.is_wild(c) and r is None:
            role = next(fixed, None)
            if role is None:
                break
            roles[i] = role
    return Meld(meld.cards, tuple(roles))
