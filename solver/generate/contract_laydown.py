"""Contract Shanghai lay-down puzzles: which grouping leaves the best lay-off.

Lay-down ("laydown"): the player has drawn and can lay down; the hand makes
the contract in more than one grouping, and exactly one of them reaches the
best end of the turn once the rest is laid off and the discard made
(:func:`unique_lay_down`, every grouping tried by :func:`lay_down_ends`).
The positions are constructed (:func:`_laydown_position`,
:func:`_laydown_swap_position`) so that the best lay-down alone (the naive
order) does worse; the referees check the plan's lay-down and lay-off.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

from solver.cards import Card, Cards, Rank, Suit
from solver.contract import AfterDraw, LayDown, after_lay_down, best_lay_down, plan_after_draw
from solver.contract.brute import every_lay_down
from solver.contract.referee import check_lay_down, check_layoff
from solver.errors import MeldError, ShanghaiError
from solver.generate.contract_deal import (
    _SUITS,
    _copies,
    _deal,
    _deck_cards,
    _natural,
    _random_meld,
    _same,
    _sample_meld,
    _to_hand_size,
    _wild,
)
from solver.generate.contract_looks import grouping
from solver.generate.difficulty import SOLVE_SECONDS, Difficulty, Level, measure
from solver.generate.ladder import fewest_decoys, place
from solver.legality import position_problem
from solver.melds import Meld, TableMeld, meld_kind
from solver.puzzles import ContractPosition, Puzzle
from solver.rules import ContractRules
from solver.rules.contract import min_length

__all__ = ["LAYDOWN_SIZES", "lay_down_ends", "laydown_candidate", "unique_lay_down"]

LAYDOWN_SIZES: dict[Level, tuple[int, int]] = {
    "easy": (0, 0),
    "medium": (0, 1),
    "hard": (1, 2),
    "expert": (1, 3),
}
"""Per level: opponents with melds on the table besides the one holding the planted set (an inclusive
range). The hand is the deal and the draw: random cards fill it up to that size."""


def lay_down_ends(
    hand: Cards, table: Sequence[TableMeld], rules: ContractRules, round_: int
) -> list[tuple[int, tuple[str, ...]]] | None:
    """Every grouping of the round's contract in ``hand`` (:func:`~solver.contract.brute.every_lay_down`)
    with the points left at the best end of the turn that lays it down (the lay-off of the rest and the
    discard, solved by :func:`~solver.contract.after_lay_down`), best first; None when one is not proven.
    The melds go down with their wilds' roles open, so the values are exact for hands without wilds
    (the generator deals those; the tests compare them with the brute force)."""
    ends: list[tuple[int, tuple[str, ...]]] = []
    for down in every_lay_down(hand, rules, round_):
        melds = [Meld.of(sorted(m, key=lambda c: c.index)) for m in down]
        end = after_lay_down(hand, melds, table, rules, time_limit=SOLVE_SECONDS)
        if end.status != "optimal":
            return None
        ends.append((end.points_left, grouping(down)))
    return sorted(ends)


def unique_lay_down(hand: Cards, table: Sequence[TableMeld], rules: ContractRules, round_: int) -> AfterDraw | None:
    """The whole-turn plan (:func:`~solver.contract.plan_after_draw`) when its grouping is the only one
    that reaches its end of turn, every other grouping proven to leave more points; else None.

    The proof tries every grouping (:func:`lay_down_ends`): a hand's groupings are few, and each one's
    end of turn is an exact lay-off solve, so no bound on what a cut card could have saved is needed.
    A hand holding a wild is turned down: :func:`lay_down_ends` lays its melds down with the wilds'
    roles open, and the lay-off may then move a run's end wild, which a written role forbids.
    """
    if any(c in rules.wilds for c in hand):
        return None  # lay_down_ends leaves a wild's role open, which a lay-down must write
    plan = plan_after_draw(hand, table, rules, round_, time_limit=SOLVE_SECONDS)
    if plan.status != "optimal" or not plan.lay_down:
        return None
    ends = lay_down_ends(hand, table, rules, round_)
    if not ends or ends[0][0] != plan.points_left or ends[0][1] != grouping(plan.lay_down):
        return None
    if len(ends) > 1 and ends[1][0] == ends[0][0]:
        return None
    return plan


def _laydown_round(rng: random.Random, rules: ContractRules) -> int | None:
    """A round whose contract holds a set and whose melds stay on the table (None: no such round)."""
    last = rules.rounds - 1 if rules.last_round_all_at_once else rules.rounds
    rounds = [r for r in range(1, last + 1) if any(q.kind == "set" for q in rules.contract(r))]
    return rng.choice(rounds) if rounds else None


def _laydown_position(rng: random.Random, rules: ContractRules, level: Level) -> ContractPosition | None:
    """A constructed lay-down position: the hand makes the contract with a low set, and holds a set's
    worth of a costlier rank too; an opponent has a set of that rank on the table. The best lay-down
    alone keeps the costly cards out of hand (the naive order); the whole turn lays down the low set and
    lays the costly cards off onto the opponent's set. Random extra cards and opponents' melds make it
    less plain (and may spoil it: the proof decides)."""
    opponents_range = LAYDOWN_SIZES[level]
    round_ = _laydown_round(rng, rules)
    if round_ is None:
        return None
    contract = rules.contract(round_)
    planted = rng.choice([i for i, q in enumerate(contract) if q.kind == "set"])
    low = rng.randint(3, 8)
    high = rng.choice(
        [
            r
            for r in (9, 10, 11, 12, 13, 1)
            if rules.points(Card(Rank(r), Suit.SPADES)) > rules.points(Card(Rank(low), Suit.SPADES))
        ]
    )
    # every card is dealt from what the decks still hold (a meld drawn again when its cards are gone)
    stock = [_deck_cards(rules)]
    costly = _copies(high, rules)
    rng.shuffle(costly)
    hand_set = min_length(contract[planted], rules)
    cards: list[Card] = []
    parts: list[Callable[[], Meld]] = []
    for i, req in enumerate(contract):
        length, kind = min_length(req, rules), req.kind
        if i == planted:
            parts.append(partial(_sample_meld, rng, _copies(low, rules), length))
        else:
            parts.append(partial(_random_meld, rng, rules, kind, length, False))
    parts.append(lambda: Meld.of(costly[:hand_set]))
    calls, noise = _to_hand_size(rules, sum(min_length(q, rules) for q in contract) + hand_set)
    parts += [lambda: Meld.of([_natural(rng, rules)]) for _ in range(noise)]
    for make in parts:
        dealt = _deal(stock, make)
        if dealt is None:
            return None
        cards += dealt.cards
    table: list[TableMeld] = []
    players = min(rules.max_players, 4) - 1
    others = rng.sample(range(2, players + 1), min(players - 1, rng.randint(*opponents_range))) if players > 1 else []
    for owner in (1, *sorted(others)):
        target = owner == 1
        for req in contract:
            length = min_length(req, rules) + rng.choice((0, 0, 1))
            if target and req.kind == "set":
                dealt = _deal(stock, partial(Meld.of, costly[hand_set : hand_set + length]))
                target = False
            else:
                dealt = _deal(stock, partial(_random_meld, rng, rules, req.kind, length, True))
            if dealt is None:
                return None
            meld = dealt
            try:
                meld_kind(meld, rules.meld_spec, req.kind)
            except MeldError:
                return None
            table.append(TableMeld(meld, owner))
    rng.shuffle(table)
    pos = ContractPosition(round_, Cards(cards), tuple(table), calls=calls, drawn=True)
    return None if position_problem(pos, rules) is not None else pos


def _laydown_swap_position(rng: random.Random, rules: ContractRules, level: Level) -> ContractPosition | None:
    """A constructed lay-down position whose lay-off needs wild swaps (round 1, a set and a run): the
    hand makes the contract with a low set (3 to 5) and holds three aces, each in its own suit; two
    opponents' runs end in a wild standing for one of those aces (a swap frees the wild), a third
    opponent's run ends with the king below the third. Without swaps two aces stay in hand, so laying
    the aces down looks better: the no-swap plan misses too; so does the greedy player, whose listed
    lay-down takes the lowest rank's set, the aces."""
    contract = rules.contract(1)
    if not rules.wilds or not rules.wild_swap or [q.kind for q in contract] != ["set", "run"]:
        return None
    run_min = min_length(contract[1], rules)
    if rules.ace not in ("high", "both"):
        return None
    low = rng.randint(3, 5)
    suits = rng.sample(_SUITS, 3)
    stock = [_deck_cards(rules)]
    cards: list[Card] = []
    parts: list[Callable[[], Meld]] = [
        partial(_sample_meld, rng, _copies(low, rules), min_length(contract[0], rules)),
        partial(_random_meld, rng, rules, "run", run_min, False),
        partial(Meld.of, [Card(Rank(1), s) for s in suits]),
    ]
    calls, noise = _to_hand_size(rules, min_length(contract[0], rules) + run_min + 3)
    parts += [partial(Meld.of, [_natural(rng, rules)]) for _ in range(noise)]
    for make in parts:
        dealt = _deal(stock, make)
        if dealt is None:
            return None
        cards += dealt.cards
    wild = _wild(rng, rules)
    below = [Rank(p) for p in range(14 - run_min + 1, 14)]  # the ranks under the ace, up to the king
    runs = [Meld((*(Card(r, s) for r in below), wild), (*(None for _ in below), Card(Rank(1), s))) for s in suits[:2]]
    runs.append(Meld.of(Card(Rank(p), suits[2]) for p in range(14 - run_min, 14)))
    table: list[TableMeld] = []
    for owner, run in enumerate(runs, 1):
        for make in (
            partial(_random_meld, rng, rules, "set", min_length(contract[0], rules), False),
            partial(_same, run),
        ):
            dealt = _deal(stock, make)
            if dealt is None:
                return None
            table.append(TableMeld(dealt, owner))
    rng.shuffle(table)
    pos = ContractPosition(1, Cards(cards), tuple(table), calls=calls, drawn=True)
    return None if position_problem(pos, rules) is not None else pos


def laydown_candidate(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
    """One attempt at a lay-down puzzle of ``level``; None when the rules do not lay off in the lay-down's
    turn or the constructed position does not make one."""
    if not rules.layoff_same_turn:
        return None
    swap = level in ("hard", "expert")
    pos = (_laydown_swap_position if swap else _laydown_position)(rng, rules, level)
    if pos is None:
        return None
    try:
        down = best_lay_down(pos.hand, rules, pos.round, time_limit=SOLVE_SECONDS)
        if down is None or down.status != "optimal":
            return None
        naive = after_lay_down(pos.hand, down.melds, pos.table, rules, time_limit=SOLVE_SECONDS)
        if naive.status != "optimal":
            return None
        plan = unique_lay_down(pos.hand, pos.table, rules, pos.round)
    except ShanghaiError:
        return None
    if plan is None or plan.points_left >= naive.points_left:
        return None  # not unique, or the naive order does as well
    _confirm_laydown(rules, pos, plan)
    ends = lay_down_ends(pos.hand, pos.table, rules, pos.round) or []
    feats = {
        "cards": len(plan.layoff.played) if plan.layoff is not None else 0,
        "swaps": len(plan.layoff.swaps) if plan.layoff is not None else 0,
        "greedy_shortfall": 1,
        "decoys": min(4, len(ends) - 1),
        "melds": len(pos.table),
        "wilds": sum(1 for t in pos.table for c in t.meld.cards if c in rules.wilds),
    }
    difficulty = measure("contract", feats, level)
    if feats["decoys"] < fewest_decoys("contract", level, "laydown"):
        return None
    return place(_laydown_puzzle(rules, pos, down, naive, plan, difficulty), level)


def _confirm_laydown(rules: ContractRules, pos: ContractPosition, plan: AfterDraw) -> None:
    """Raise :class:`MeldError` unless the referees accept the plan's lay-down and lay-off."""
    left = check_lay_down(pos.hand, plan.lay_down, rules, pos.round)
    if plan.layoff is None:
        return
    before = (*pos.table, *(TableMeld(m, 0) for m in plan.lay_down))
    played = check_layoff(before, pos.hand - Cards(c for m in plan.lay_down for c in m.cards), plan.layoff.table, rules)
    if played != plan.layoff.played or left < plan.points_left:  # pragma: no cover - the referees agree
        raise MeldError("the referees disagree with the plan's lay-down and lay-off")


def _laydown_puzzle(
    rules: ContractRules,
    pos: ContractPosition,
    down: LayDown,
    naive: AfterDraw,
    plan: AfterDraw,
    difficulty: Difficulty,
) -> Puzzle:
    """The puzzle: which lay-down, for the best end of the turn (the answer states the whole turn)."""
    end = "and go out" if plan.goes_out else f"to leave {plan.points_left} points"
    new_table = (
        plan.layoff.table if plan.layoff is not None else (*pos.table, *(TableMeld(m, 0) for m in plan.lay_down))
    )
    meta: dict[str, object] = {
        "kind": "laydown",
        **difficulty.as_dict(),
        "solution": [str(m) for m in plan.lay_down],
        "laid_off": str(plan.layoff.played) if plan.layoff is not None else "",
        "swaps": [str(s) for s in plan.layoff.swaps] if plan.layoff is not None else [],
        "new_table": [str(t.meld) for t in new_table],
        "naive_lay_down": [str(m) for m in down.melds],
        "naive_points_left": naive.points_left,
    }
    if plan.discard is not None:
        meta["discard"] = str(plan.discard)
    return Puzzle(
        "contract",
        rules,
        pos,
        f"Which lay-down? Lay down and lay off {end}",
        {"can_lay_down": True, "points_left": down.points_left, "plan_points_left": plan.points_left},
        meta=meta,
    )
