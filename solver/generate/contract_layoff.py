"""Contract Shanghai lay-off puzzles: best lay-off with swaps, go out this turn.

Lay-off ("layoff", or "goout" when it leaves at most the final discard):
the player has laid down; a few melds are on the table (black twos standing
for written cards, so swaps are possible) and the hand is dealt mostly
from cards that fit them. The puzzle needs the most cards laid off
(:func:`solver.contract.best_layoff`, objective cards) to come from exactly
one set of hand cards, proven by taking each card of the answer away in
turn (every best set must then be smaller), and the referee
(:func:`solver.contract.referee.check_layoff`, brute force
:func:`~solver.contract.brute.exhaustive_layoff`) to agree.
"""

from __future__ import annotations

import random

from solver.cards import Card, Cards, Rank
from solver.contract import Layoff, best_layoff
from solver.contract.brute import exhaustive_layoff
from solver.contract.handsize import fewest_calls
from solver.contract.referee import check_layoff
from solver.errors import MeldError, ShanghaiError
from solver.generate.contract_deal import _SUITS, _meld, _with_wild
from solver.generate.difficulty import SOLVE_SECONDS, Difficulty, Level, measure
from solver.generate.ladder import LADDER, fewest_decoys, place
from solver.generate.players import contract_turn
from solver.legality import position_problem
from solver.melds import Meld, TableMeld, meld_kind
from solver.puzzles import ContractPosition, Puzzle
from solver.rules import ContractRules
from solver.rules.contract import min_length

__all__ = ["LAYOFF_SIZES", "layoff_candidate", "unique_layoff"]

LAYOFF_SIZES: dict[Level, tuple[tuple[int, int], tuple[int, int]]] = {
    "easy": ((0, 1), (2, 4)),
    "medium": ((0, 2), (3, 5)),
    "hard": ((1, 2), (4, 6)),
    "expert": ((1, 3), (5, 7)),
}
"""Per level: opponents who have laid down besides the player to move, and hand cards (inclusive ranges)."""


def _fitting(rng: random.Random, meld: Meld, rules: ContractRules) -> Card:
    """A card that joins ``meld`` or takes a wild's place in it."""
    stands = [r if r is not None else c for c, r in zip(meld.cards, meld.roles)]
    roles = [r for r in meld.roles if r is not None]
    if roles and rng.random() < 0.5:
        return rng.choice(roles)
    if len({c.rank for c in stands}) == 1:
        rank = stands[0].rank
        assert rank is not None
        return Card(rank, rng.choice(_SUITS))
    positions = sorted(14 if c.rank == 1 else int(c.rank or 0) for c in stands)
    suit = stands[0].suit
    assert suit is not None
    p = rng.choice([positions[0] - 1, positions[-1] + 1])
    p = max(1, min(14, p))
    return Card(Rank(1 if p == 14 else p), suit)


def unique_layoff(hand: Cards, table: tuple[TableMeld, ...], played: Cards, rules: ContractRules) -> bool:
    """True if ``played`` is the only set of hand cards that lays off as many cards.

    For each card of ``played`` the hand is cut to one copy fewer than the
    answer uses: if the most cards laid off then drops, every best set holds
    at least the answer's copies of that card, and so (all being the same
    size) every best set is the answer.
    """
    for card, used in played.items():
        cut = Cards.from_counts({card: hand.count(card) - used + 1})
        other = best_layoff(hand - cut, table, rules, player=0, objective="cards", time_limit=SOLVE_SECONDS)
        if other.status != "optimal" or len(other.played) >= len(played):
            return False
    return True


def _layoff_round(rng: random.Random, rules: ContractRules) -> int:
    """A round whose melds stay on the table (not the last round when it is played all at once)."""
    last = rules.rounds - 1 if rules.last_round_all_at_once and rules.rounds > 1 else rules.rounds
    return rng.randint(1, last)


def layoff_candidate(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
    """One attempt at a lay-off or go-out puzzle of ``level``; None when the deal does not make one."""
    opponents_range, hand_range = LAYOFF_SIZES[level]
    round_ = _layoff_round(rng, rules)
    table = _layoff_table(rng, rules, round_, opponents_range)
    if table is None:
        return None
    hand = _layoff_hand(rng, rules, table, hand_range)
    position = tuple(table)
    calls = fewest_calls(rules, round_, len(hand), laid_down=True)
    if calls is None:
        return None
    pos = ContractPosition(round_, hand, position, laid_down=True, calls=calls, drawn=True)
    if position_problem(pos, rules) is not None:
        return None
    try:
        layoff = best_layoff(hand, position, rules, player=0, objective="cards", time_limit=SOLVE_SECONDS)
    except ShanghaiError:
        return None
    n = len(layoff.played)
    if layoff.status != "optimal" or n < 2 or (n == len(hand) and len(hand) > 1 and rng.random() < 0.5):
        return None
    kind = "goout" if len(hand) - n <= 1 else "layoff"
    rungs = [r for r in LADDER["contract"][level] if kind in r.kinds]
    if not layoff.swaps and all("no-swap" in r.miss for r in rungs):
        return None  # a lay-off without swaps is found by the no-swap model, which this level must see miss
    greedy, _ = contract_turn("greedy", rules, pos)
    if greedy == layoff.played and all("greedy" in r.miss for r in rungs):
        return None  # the greedy player lays off the answer: it finds it, and this level must see it miss
    difficulty = measure("contract", _layoff_features(rules, pos, layoff, greedy), level)
    if dict(difficulty.features)["decoys"] < fewest_decoys("contract", level, kind):
        return None
    puzzle = place(_layoff_puzzle(rules, pos, layoff, difficulty), level)
    if puzzle is None or not unique_layoff(hand, position, layoff.played, rules):
        return None
    _confirm_layoff(rules, pos, layoff)
    return puzzle


def _layoff_table(
    rng: random.Random, rules: ContractRules, round_: int, opponents_range: tuple[int, int]
) -> list[TableMeld] | None:
    """The melds of the players who have laid down: the player to move and a few opponents, each
    owning the round's contract (melds now and then longer than the least, runs with a wild); None
    if a meld is not valid."""
    players = min(rules.max_players, 4) - 1
    opponents = sorted(rng.sample(range(1, players + 1), min(players, rng.randint(*opponents_range))))
    table: list[TableMeld] = []
    for owner in (0, *opponents):
        for req in rules.contract(round_):
            length = min_length(req, rules) + rng.choice((0, 0, 1, 2))
            meld = _with_wild(rng, rules, _meld(rng, rules, req.kind, length))
            try:
                meld_kind(meld, rules.meld_spec, req.kind)
            except MeldError:
                return None
            table.append(TableMeld(meld, owner))
    rng.shuffle(table)
    return table


def _layoff_hand(
    rng: random.Random, rules: ContractRules, table: list[TableMeld], hand_range: tuple[int, int]
) -> Cards:
    """A hand dealt mostly (three cards in four) from cards that fit the table's melds."""
    size = rng.randint(*hand_range)
    cards = [
        _fitting(rng, rng.choice(table).meld, rules)
        if rng.random() < 0.75
        else Card(Rank(rng.randint(1, 13)), rng.choice(_SUITS))
        for _ in range(size)
    ]
    return Cards(cards)


def _layoff_features(rules: ContractRules, pos: ContractPosition, layoff: Layoff, greedy: Cards) -> dict[str, int]:
    """The difficulty features of a lay-off puzzle: its size, swaps, decoys and the shortfall of the
    greedy player (which laid off ``greedy``)."""
    hand, position = pos.hand, pos.table
    n = len(layoff.played)
    decoys = 0
    for card in (hand - layoff.played).distinct():
        alone = best_layoff(Cards([card]), position, rules, player=0, objective="cards", time_limit=SOLVE_SECONDS)
        decoys += bool(alone.played)
    return {
        "cards": n,
        "swaps": len(layoff.swaps),
        "greedy_shortfall": max(1, n - len(greedy)) if greedy != layoff.played else 0,
        "decoys": decoys,
        "melds": len(position),
        "wilds": sum(1 for c in hand if c in rules.wilds)
        + sum(1 for t in position for c in t.meld.cards if c in rules.wilds),
    }


def _confirm_layoff(rules: ContractRules, pos: ContractPosition, layoff: Layoff) -> None:
    """Raise :class:`MeldError` unless the referee and the brute force agree with the solver's lay-off."""
    hand, position = pos.hand, pos.table
    if check_layoff(position, hand, layoff.table, rules, player=0) != layoff.played:  # pragma: no cover
        raise MeldError("the referee disagrees with the solver's lay-off")
    brute = exhaustive_layoff(hand, position, rules, player=0, objective="cards")
    if brute.primary != len(layoff.played):  # pragma: no cover
        raise MeldError("the brute force lays off a different number of cards")


def _layoff_puzzle(rules: ContractRules, pos: ContractPosition, layoff: Layoff, difficulty: Difficulty) -> Puzzle:
    """The puzzle: "go out" when the lay-off leaves at most the final discard, else "best lay-off"."""
    hand = pos.hand
    n = len(layoff.played)
    goes_out = len(hand) - n <= 1
    kind = "goout" if goes_out else "layoff"
    title = f"Go out this turn: lay off {n} cards" if goes_out else f"Best lay-off: {n} of {len(hand)} cards"
    return Puzzle(
        "contract",
        rules,
        pos,
        title,
        {"layoff": n, "layoff_points": layoff.points, "can_go_out": layoff.can_go_out, "swaps": len(layoff.swaps)},
        meta={
            "kind": kind,
            **difficulty.as_dict(),
            "solution": str(layoff.played),
            "swaps": [str(s) for s in layoff.swaps],
            "new_table": [str(t.meld) for t in layoff.table],
        },
    )
