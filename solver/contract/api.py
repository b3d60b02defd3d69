"""Contract Shanghai: the solver's questions (``../shared/rules/contract.md``, end of file).

* :func:`best_lay_down` -- can this hand make the round's contract, and the
  lay-down that leaves the fewest points in hand, each wild's role written;
* :func:`distance_to_contract` -- the fewest cards still missing, and which
  cards would do (only cards that can still exist);
* :func:`best_layoff` -- the most points (or cards) that go from hand onto
  the table's melds, wild swaps included, and whether the player can go out;
* :func:`can_go_down_whole` -- the last round: the whole hand at once;
* :func:`best_discards` -- for each card in hand, the distance after
  discarding it (the "which card to discard?" hint).

The contract check first runs an exact plain-Python feasibility search
(:func:`solver.contract.search.contract_possible`), so a hand that cannot
make the contract is turned down without a CP-SAT model; the distance and
the discards come from the exact branch and bound of
:mod:`solver.contract.search` (CP-SAT remains available with
``method="cp-sat"`` and is its cross-check in the tests).

>>> from solver.rules import ContractRules
>>> rules = ContractRules()
>>> down = best_lay_down(Cards.parse("5H 5D 5S 6C 7C 8C 2S KD"), rules, 1)
>>> [str(m) for m in down.melds], down.points_left, down.status
(['5S 5H 5D', '6C 7C 8C 2S=9C'], 10, <Status.OPTIMAL: 'optimal'>)
>>> d = distance_to_contract(Cards.parse("5H 5D 5S 6C 7C 8C KD"), rules, 1)
>>> d.missing, str(d.options)
(1, '2S 2S 2C 2C 5C 5C 9C 9C')
>>> [(str(c), n) for c, n in best_discards(Cards.parse("5H 5D 5S 6C 7C 8C KD"), rules, 1)]
[('KD', 1), ('8C', 2), ('7C', 2), ('6C', 2), ('5S', 2), ('5H', 2), ('5D', 2)]

The example of the source: a ten from hand replaces the wild two in an
opponent's 10D 10H 2S, and the freed two goes at once onto a meld.

>>> from solver.melds import TableMeld
>>> table = [TableMeld(Meld.parse("10D 10H 2S"), owner=1), TableMeld(Meld.parse("6S 7S 8S 9S"), owner=1)]
>>> lay = best_layoff(Cards.parse("10C 4S"), table, rules)
>>> [str(s) for s in lay.swaps], lay.can_go_out
(['10C for 2S in meld 0, the 2S to meld 1'], True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from typing import Literal

from solver.cards import Card, Cards, Joker, make_deck
from solver.contract.discards import discard_distances
from solver.contract.layoff import Swap, solve_layoff
from solver.contract.model import solve_distance, solve_lay_down
from solver.contract.search import contract_possible, search_distance
from solver.contract.wilds import fixed_roles
from solver.errors import MeldError, SolverTimeout, Status
from solver.melds import Meld, TableMeld, meld_kind
from solver.ranks import N_NATURAL
from solver.rules.contract import ContractRules, Requirement, min_length

__all__ = [
    "whole_discards",
    "LayDown",
    "Distance",
    "Swap",
    "Layoff",
    "UNREACHABLE",
    "best_lay_down",
    "can_go_down_whole",
    "distance_to_contract",
    "best_layoff",
    "best_discards",
    "discard_order",
    "validate_table",
]

UNREACHABLE = 99
"""``Distance.missing`` when no cards that can still come complete the contract."""


@dataclass(frozen=True, slots=True)
class LayDown:
    """A lay-down: the contract's melds (every wild's role written), what stays in hand and its points."""

    melds: tuple[Meld, ...]
    points_left: int
    hand: Cards
    status: Status

    @property
    def played(self) -> Cards:
        """The cards laid down."""
        return Cards(c for m in self.melds for c in m.cards)


@dataclass(frozen=True, slots=True)
class Distance:
    """How far a hand is from its contract.

    ``missing`` is the fewest cards still needed (0: the contract can be
    made now; :data:`UNREACHABLE` when the cards that can still come do not
    suffice). ``options`` are the cards that would do: every card that is
    part of some fewest completion, with the copies that can still come
    (a card drawn from ``options`` brings the hand one card closer).
    ``completion`` is one fewest completion and ``melds`` its lay-down.
    """

    missing: int
    options: Cards
    completion: Cards
    melds: tuple[Meld, ...]
    status: Status


@dataclass(frozen=True, slots=True)
class Layoff:
    """A lay-off: the table after it, the hand cards played, the swaps, the hand left.

    ``points`` are the points of the cards played. ``can_go_out``: some
    lay-off (not necessarily this one, when the objective is points) leaves
    at most one card, the final discard.
    """

    table: tuple[TableMeld, ...]
    played: Cards
    swaps: tuple[Swap, ...]
    hand: Cards
    points: int
    can_go_out: bool
    status: Status


NO_CARDS = Cards()


@cache
def _deck(decks: int, jokers: int) -> Cards:
    return make_deck(decks, {Joker.PLAIN: jokers} if jokers else None)


def _deck_of(rules: ContractRules) -> Cards:
    """``rules.deck``, built once per deck size."""
    return _deck(rules.decks, rules.jokers)


def _check_hand(hand: Cards, rules: ContractRules, also: Cards = NO_CARDS, what: str = "the hand") -> None:
    cards = hand + also if also else hand
    deck = _deck_of(rules)
    if not cards <= deck:  # the usual case costs one comparison; the error names the card
        cards.check_against(deck, what)


def validate_table(table: Sequence[TableMeld], rules: ContractRules) -> None:
    """Every table meld valid under the rules (:class:`MeldError` naming the first bad one)."""
    spec = rules.meld_spec
    for i, t in enumerate(table):
        if t.owner < 0:
            raise MeldError(f"table meld {i} ({t.meld}): owner must be 0 or more")
        try:
            meld_kind(t.meld, spec)
        except MeldError as exc:
            raise MeldError(f"table meld {i}: {exc}") from None


def _lay_down(plan_melds: tuple[Meld, ...], used: Cards, hand: Cards, rules: ContractRules, status: Status) -> LayDown:
    left = hand - used
    return LayDown(plan_melds, sum(rules.points(c) for c in left), left, status)


def best_lay_down(
    hand: Cards, rules: ContractRules, round_: int, *, time_limit: float = 5.0, whole_hand: bool | None = None
) -> LayDown | None:
    """The contract check: the lay-down leaving the fewest points in hand (then fewest cards), or None.

    In the last round with ``last_round_all_at_once`` a lay-down must take
    the whole hand (see :func:`can_go_down_whole`). ``whole_hand`` overrides
    that: ``False`` asks for the best lay-down leaving any cards (what a
    player building toward the whole hand wants to know), ``True`` demands
    the whole hand in any round.
    """
    contract = rules.contract(round_)
    _check_hand(hand, rules)
    if whole_hand is None:
        whole_hand = round_ == rules.rounds and rules.last_round_all_at_once
    if whole_hand:
        return can_go_down_whole(hand, rules, round_, time_limit=time_limit)
    if len(hand) < sum(r.min_len for r in contract) or not contract_possible(hand, rules, contract):
        return None
    plan = solve_lay_down(hand, rules, contract, time_limit=time_limit)
    if plan is None:
        return None
    return _lay_down(plan.melds, plan.used, hand, rules, plan.status)


def runs_can_hold(hand: Cards, rules: ContractRules, contract: Sequence[Requirement], max_left: int) -> bool:
    """A necessary condition for a whole-hand lay-down of a contract of runs only (sound, cheap).

    A run holds one suit and each rank at most once, so with ``k`` runs in a
    suit at most ``k`` copies of each rank of that suit go down. Over every
    way to give the contract's runs their suits, if more than ``max_left``
    natural cards can never be placed, the hand cannot go down whole. A
    contract with a set is not filtered (sets take any number of copies).
    """
    if any(r.kind != "run" for r in contract):
        return True
    runs = len(contract)
    counts = list(hand.counts[:N_NATURAL])
    for w in rules.wilds:
        if w.index < N_NATURAL:
            counts[w.index] = 0
    naturals = sum(counts)
    if naturals <= max_left:
        return True
    per_suit = sorted(sum(counts[13 * s : 13 * s + 13]) for s in range(4))
    if max(counts) <= runs and naturals - sum(per_suit[-runs:]) > max_left:
        return False  # even every natural of the runs' suits (at most ``runs`` suits) is too few
    # best[b]: the most naturals the suits so far can place with at most b runs among them
    best = [0] * (runs + 1)
    for suit in range(4):
        ranks = counts[13 * suit : 13 * suit + 13]
        held = 13 - ranks.count(0)  # ranks with at least k copies, for k = 1, 2, ...
        if not held:
            continue
        placed = [0]  # placed[k]: the suit's naturals k runs can hold, sum(min(n, k)) over its ranks
        for k in range(1, runs + 1):
            placed.append(placed[-1] + held)
            held -= ranks.count(k)
        grown = best[:]
        for b in range(1, runs + 1):
            for k in range(1, b + 1):
                if best[b - k] + placed[k] > grown[b]:
                    grown[b] = best[b - k] + placed[k]
        best = grown
    return naturals - best[runs] <= max_left


def _suit_gaps(positions: list[int], runs: int) -> int:
    """The fewest open slots ``runs`` runs (or fewer) need to hold these distinct positions of one suit:
    their span less the positions, less the ``runs - 1`` widest holes between them (runs may overlap,
    so their union is at least that)."""
    positions = sorted(positions)
    holes = sorted((b - a - 1 for a, b in pairwise(positions)), reverse=True)
    return positions[-1] - positions[0] + 1 - len(positions) - sum(holes[: runs - 1])


def runs_gaps_fit(hand: Cards, rules: ContractRules, contract: Sequence[Requirement], max_left: int) -> bool:
    """A necessary condition for a whole-hand lay-down of runs only, counting the wilds (sound).

    The runs of a suit hold its naturals (all but at most one card of the
    hand, with ``max_left`` 1); their open slots, each a wild, are at least
    the holes between those naturals that the runs cannot skip (see
    :func:`_suit_gaps`). Over every way to give the runs their suits, if
    those slots outnumber the hand's wilds, it cannot go down whole. Runs of
    a suit number at least its copies of a rank and are each at least the
    shortest run long; a suit holding a rank twice counts only that; an ace
    counts at the end where it needs fewer slots. A contract with a set, or
    ``max_left`` above 1, is not filtered.
    """
    if any(r.kind != "run" for r in contract) or max_left > 1:
        return True
    runs = len(contract)
    shortest = min(min_length(r, rules) for r in contract)
    wilds = sum(hand.count(w) for w in rules.wilds)
    suits: list[list[int]] = [[], [], [], []]
    for card, n in hand.items():
        if card in rules.wilds or card.rank is None or card.suit is None:
            continue
        suits["SHDC".index(card.suit.value)] += [int(card.rank)] * n
    left_out: list[tuple[int, int] | None] = [None]
    if max_left:
        left_out += [(s, r) for s in range(4) for r in sorted(set(suits[s]))]
    for out in left_out:
        held = [list(ranks) for ranks in suits]
        if out is not None:
            held[out[0]].remove(out[1])
        if _fewest_slots(held, runs, rules.ace, shortest) <= wilds:
            return True
    return False


def _fewest_slots(suits: list[list[int]], runs: int, ace: str, shortest: int) -> int:
    """The fewest open slots over every way to give ``runs`` runs (``shortest`` cards or more each) to
    the suits that hold naturals."""
    best = {0: 0}  # runs used so far -> fewest slots
    for ranks in suits:
        if not ranks:
            continue
        # an ace sits low or high (either, under "both": the fewer slots of the two count)
        places = [
            [14 if r == 1 and high else r for r in ranks]
            for high in {"low": [False], "high": [True]}.get(ace, [False, True])
        ]
        costs = {}
        copies = max(ranks.count(r) for r in set(ranks))
        for k in range(copies, runs + 1):  # a run holds a rank once: as many runs as copies, at least
            # k runs of ``shortest`` cards or more hold the suit's naturals and k * shortest - n wilds or more
            floor = k * shortest - len(ranks)
            if copies > 1:
                costs[k] = max(0, floor)  # a rank twice: the holes are not counted
            else:
                costs[k] = max(floor, min(_suit_gaps(p, k) for p in places))
        grown: dict[int, int] = {}
        for used, slots in best.items():
            for k, cost in costs.items():
                if used + k <= runs and slots + cost < grown.get(used + k, 1 << 30):
                    grown[used + k] = slots + cost
        best = grown
    return min(best.values(), default=1 << 30)


def can_go_down_whole(
    hand: Cards, rules: ContractRules, round_: int, *, discard: bool = True, time_limit: float = 5.0
) -> LayDown | None:
    """Can the whole hand go down at once as the contract's melds (each may be longer than its minimum)?

    With ``discard`` (the default) one card may stay for the discard that
    ends the turn (the round ends when that last card is discarded); with
    ``discard=False`` every card must be melded. Only the contract's melds
    count: no lay-off onto other melds.
    """
    contract = rules.contract(round_)
    _check_hand(hand, rules)
    max_left = 1 if discard else 0
    if len(hand) < sum(r.min_len for r in contract) or not runs_can_hold(hand, rules, contract, max_left):
        return None
    if not contract_possible(hand, rules, contract) or not runs_gaps_fit(hand, rules, contract, max_left):
        return None
    plan = solve_lay_down(hand, rules, contract, max_left=max_left, time_limit=time_limit)
    if plan is None:
        return None
    return _lay_down(plan.melds, plan.used, hand, rules, plan.status)


def whole_discards(hand: Cards, rules: ContractRules, round_: int, *, time_limit: float = 5.0) -> tuple[Card, ...]:
    """The distinct cards whose discard lets the rest of the hand go down at once, in card order.

    The question of a last round played all at once: the contract's melds
    (each may be longer than its minimum) take every card but the discard
    (:func:`can_go_down_whole` with ``discard=False`` on the hand less that
    card). Empty when no discard does.

    >>> from solver.rules import ContractRules
    >>> whole_discards(Cards.parse("3H 4H 5H 6H 8S 9S 10S JS 4C 5C 6C 7C KD"), ContractRules(), 7)
    (Card.parse('KD'),)
    """
    _check_hand(hand, rules)
    return tuple(
        card
        for card in sorted(hand.distinct(), key=lambda c: c.index)
        if can_go_down_whole(hand - Cards([card]), rules, round_, discard=False, time_limit=time_limit) is not None
    )


def distance_to_contract(
    hand: Cards,
    rules: ContractRules,
    round_: int,
    *,
    seen: Cards = NO_CARDS,
    time_limit: float = 5.0,
    options: bool = True,
    method: Literal["search", "cp-sat"] = "search",
) -> Distance:
    """The fewest cards still missing to make the round's contract, and which cards would do.

    Only cards that can still come count: the decks minus ``seen`` (cards
    the player has seen elsewhere: the table, the discards) minus the hand.
    ``options=False`` skips listing the cards that would do (faster).
    ``method``: the exact plain-Python branch and bound (``search``, the
    default) or the CP-SAT model (``cp-sat``); both are exact when they
    finish within ``time_limit`` (status ``optimal``).
    """
    contract = rules.contract(round_)
    _check_hand(hand, rules, seen, "the hand and the seen cards together")
    pool = _deck_of(rules) - hand - seen
    if method == "cp-sat":
        found = solve_distance(hand, rules, contract, pool, outs=options, time_limit=time_limit)
        if found is None:
            return Distance(UNREACHABLE, Cards(), Cards(), (), Status.INFEASIBLE)
        outs = found.outs if found.outs is not None else Cards()
        return Distance(found.missing, outs, found.plan.extras, found.plan.melds, found.status)
    if method != "search":
        raise ValueError(f"method must be 'search' or 'cp-sat', not {method!r}")
    res = search_distance(hand, pool, rules, contract, outs=options, time_limit=time_limit)
    if res.missing is None:
        return Distance(UNREACHABLE, Cards(), Cards(), (), Status.INFEASIBLE)
    return Distance(res.missing, res.outs if res.outs is not None else Cards(), res.completion, res.melds, res.status)


def discard_order(card: Card, rules: ContractRules) -> tuple[bool, int, int]:
    """The order of discards that do equally well (sort key, first is shed first): a natural card
    before a wild (a discarded wild goes to the next player or to a caller, whose contract it
    helps; docs/decisions-contract.md), then the card worth most, then card order.

    >>> from solver.rules import ContractRules
    >>> rules = ContractRules()
    >>> [str(c) for c in sorted(Cards.parse("2S KD 5H"), key=lambda c: discard_order(c, rules))]
    ['KD', '5H', '2S']
    """
    return (card in rules.wilds, -rules.points(card), card.index)


def best_discards(
    hand: Cards, rules: ContractRules, round_: int, *, seen: Cards = NO_CARDS, time_limit: float = 5.0
) -> tuple[tuple[Card, int], ...]:
    """For each distinct card in hand, the distance to the contract after discarding it, best first.

    Each value equals ``distance_to_contract(hand - card, rules, round_,
    seen=seen).missing`` (the discarded card joins the cards that can still
    come; :data:`UNREACHABLE` when none complete the contract), computed in
    one search: discarding a card keeps the distance exactly when some
    fewest completion of the hand does without it, and otherwise adds one.
    Sorted by distance, then :func:`discard_order`: a natural before a wild
    (never a wild while a natural does as well), then higher points first
    (shed the costly card), then card order. Raises :class:`SolverTimeout` if ``time_limit`` passes
    before the answer is exact.
    """
    contract = rules.contract(round_)
    _check_hand(hand, rules, seen, "the hand and the seen cards together")
    pool = _deck_of(rules) - hand - seen
    _, after, complete = discard_distances(hand, pool, rules, contract, time_limit=time_limit)
    if not complete:
        raise SolverTimeout("the discard search did not finish within the time limit")
    ranked = [(card, UNREACHABLE if d is None else d) for card, d in after.items()]
    ranked.sort(key=lambda t: (t[1], *discard_order(t[0], rules)))
    return tuple(ranked)


def best_layoff(
    hand: Cards,
    table: Sequence[TableMeld],
    rules: ContractRules,
    *,
    player: int = 0,
    objective: Literal["points", "cards"] = "points",
    time_limit: float = 5.0,
) -> Layoff:
    """The lay-off onto every table meld that plays the most points (or cards) from hand.

    Sets grow by naturals of their rank and by wilds, runs at either end. A
    wild swap (``rules.wild_swap``; from one's own melds, owner ``player``,
    only with ``rules.wild_swap_own``) puts a natural from hand where a
    wild stood for it; the freed wild goes at once onto a meld. Ties go to
    the other measure, then to fewer swaps.
    """
    if objective not in ("points", "cards"):
        raise ValueError(f"objective must be 'points' or 'cards', not {objective!r}")
    validate_table(table, rules)
    _check_hand(hand, rules, Cards(c for t in table for c in t.meld.cards), "the hand and the table together")
    # a wild inside a run stands for one card: its role is written, so moving it is a swap
    spec = rules.meld_spec
    flags = [(fixed_roles(t.meld, spec), t.owner != player or rules.wild_swap_own) for t in table]
    plan = solve_layoff(hand, flags, rules, objective=objective, time_limit=time_limit)
    left = hand - plan.played
    can_go_out = len(left) <= 1
    if not can_go_out and objective == "points":
        can_go_out = (
            len(hand) - len(solve_layoff(hand, flags, rules, objective="cards", time_limit=time_limit).played) <= 1
        )
    new_table = tuple(TableMeld(m, t.owner) for m, t in zip(plan.table, table))
    return Layoff(new_table, plan.played, plan.swaps, left, plan.points, can_go_out, plan.status)
