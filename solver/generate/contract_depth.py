"""Contract questions with depth: go out only one way, and the last round's two near-contracts.

``shanghai generate contract --question outway`` and ``--question twonear``
(library ``generate("contract", level, n, question="outway")``); the proofs
and the models live in :mod:`solver.generate.contract_proofs`.

**outway**: the player has drawn (13 cards, ``drawn = true``), has not laid
down, and goes out this turn: the contract down, every other card laid off
(onto the opponents' melds and the new ones, a table wild swapped out now
and then), the last card discarded. The hand is built so: the contract's
melds at their least length, cards that fit the table's melds or the new
ones (a run's next card, one more card of a set, the card a table wild
stands for, chains of them), and one more card; the brute force then
decides (:func:`~solver.generate.contract_proofs.go_out_discards`):
exactly one discard may go out, and the solver's whole-turn plan
(:func:`solver.contract.plan_after_draw`) must go out with it; the
referees take its lay-down and lay-off.

**twonear**: the last round, played all at once (``last_round_all_at_once``):
the contract's melds grown to fill the deal, one card taken out and two
cards that touch the rest put in, so that the 13 cards after the draw do not
go down; which discard keeps the most outs (the unseen cards that would let
the hand go down next turn, counted by the brute force
:func:`~solver.generate.contract_proofs.outs_by_discard`)? Exactly one
card keeps strictly more than every other.

Both are asked only when named (``solver.generate.ladder.BY_NAME``), and stay out of the gallery.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from solver.cards import Card, Cards, Rank
from solver.contract import AfterDraw, distance_to_contract, plan_after_draw
from solver.contract.referee import check_lay_down, check_layoff
from solver.errors import MeldError, ShanghaiError
from solver.generate.contract_deal import _SUITS, _filled_lengths, _meld, _natural
from solver.generate.contract_looks import useful
from solver.generate.contract_proofs import go_out_discards, goes_down_whole, one_pass, outs_by_discard
from solver.generate.difficulty import SOLVE_SECONDS, Level, measure
from solver.generate.ladder import place
from solver.generate.players import contract_turn
from solver.legality import position_problem
from solver.melds import Meld, TableMeld, meld_kind
from solver.puzzles import ContractPosition, Puzzle
from solver.rules import ContractRules
from solver.rules.contract import min_length

__all__ = ["depth_candidate", "outway_puzzle", "twonear_puzzle", "OUTWAY_OPPONENTS"]


OUTWAY_OPPONENTS: dict[Level, tuple[int, int]] = {
    "easy": (1, 1),
    "medium": (1, 2),
    "hard": (2, 3),
    "expert": (2, 3),
}
"""Per level: opponents whose contract lies on the table (an inclusive range)."""


def _take(stock: list[Cards], cards: list[Card]) -> bool:
    """Take ``cards`` out of what the decks still hold (``stock[0]``); False when they are not there."""
    want = Cards(cards)
    if not want <= stock[0]:
        return False
    stock[0] = stock[0] - want
    return True


def _deal(stock: list[Cards], make: Callable[[], list[Card]], tries: int = 12) -> list[Card] | None:
    for _ in range(tries):
        cards = make()
        if _take(stock, cards):
            return cards
    return None


def _pos(card: Card) -> int:
    return 14 if card.rank == 1 else int(card.rank or 0)


def _grow(rng: random.Random, meld: list[Card], roles: list[Card | None]) -> Card | None:
    """A card that joins the meld standing as ``meld`` (``roles`` its wilds' written cards): one more of a
    set's rank, a run's next card at either end, or a wild's role (a swap); ``meld`` grows with it."""
    stands = [r if r is not None else c for c, r in zip(meld, roles)]
    written = [r for r in roles if r is not None and r not in meld]
    if written and rng.random() < 0.5:
        card = rng.choice(written)
        meld.append(card)
        roles.append(None)
        return card
    if len({c.rank for c in stands}) == 1:
        card = Card(stands[0].rank, rng.choice(_SUITS))
        meld.append(card)
        roles.append(None)
        return card
    ends = sorted(_pos(c) for c in stands)
    suit = stands[0].suit
    options = [p for p in (ends[0] - 1, ends[-1] + 1) if 3 <= p <= 14]
    if not options or suit is None:
        return None
    p = rng.choice(options)
    card = Card(Rank(1 if p == 14 else p), suit)
    meld.append(card)
    roles.append(None)
    return card


def _table(
    rng: random.Random, rules: ContractRules, round_: int, level: Level, stock: list[Cards]
) -> list[TableMeld] | None:
    """The opponents' contracts (runs now and then with a wild standing inside, its role written)."""
    players = min(rules.max_players, 4) - 1
    owners = sorted(rng.sample(range(1, players + 1), min(players, rng.randint(*OUTWAY_OPPONENTS[level]))))
    table: list[TableMeld] = []
    for owner in owners:
        for req in rules.contract(round_):
            length = min_length(req, rules) + rng.choice((0, 0, 1))
            cards = _deal(stock, partial(_meld, rng, rules, req.kind, length))
            if cards is None:
                return None
            roles: list[Card | None] = [None] * len(cards)
            if req.kind == "run" and rules.wilds and rng.random() < 0.7:
                wild = rng.choice(sorted(rules.wilds, key=lambda c: c.index))
                k = rng.randrange(len(cards))
                if not _take(stock, [wild]):
                    return None
                stock[0] = stock[0] + Cards([cards[k]])
                roles[k], cards[k] = cards[k], wild
            meld = Meld(tuple(cards), tuple(roles))
            try:
                meld_kind(meld, rules.meld_spec, req.kind)
            except MeldError:
                return None
            table.append(TableMeld(meld, owner))
    rng.shuffle(table)
    return table


def _outway_position(rng: random.Random, rules: ContractRules, level: Level) -> ContractPosition | None:
    """A built go-out position: the contract, cards that grow the table's melds and the new ones, one more."""
    last = rules.rounds - 1 if rules.last_round_all_at_once else rules.rounds
    round_ = rng.randint(1, last)
    stock = [Cards(rules.deck)]
    table = _table(rng, rules, round_, level, stock)
    if table is None:
        return None
    hand: list[Card] = []
    growing: list[tuple[list[Card], list[Card | None]]] = [(list(t.meld.cards), list(t.meld.roles)) for t in table]
    for req in rules.contract(round_):
        cards = _deal(stock, partial(_meld, rng, rules, req.kind, min_length(req, rules)))
        if cards is None:
            return None
        hand += cards
        growing.append((list(cards), [None] * len(cards)))
    while len(hand) < rules.deal:
        meld, roles = rng.choice(growing)
        card = _grow(rng, meld, roles)
        if card is None or card in rules.wilds or not _take(stock, [card]):
            return None
        hand.append(card)
    last_card = _deal(stock, lambda: [_natural(rng, rules)])
    if last_card is None:
        return None
    rng.shuffle(hand)
    pos = ContractPosition(round_, Cards([*hand, *last_card]), tuple(table), calls=0, drawn=True)
    return None if position_problem(pos, rules) is not None else pos


def outway_puzzle(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
    """A go-out puzzle of ``level`` with exactly one discard that goes out (None: this try failed)."""
    if not rules.layoff_same_turn:
        return None
    pos = _outway_position(rng, rules, level)
    if pos is None:
        return None
    try:
        ways = go_out_discards(pos.hand, pos.table, rules, pos.round)
        if len(ways) != 1:
            return None
        plan = plan_after_draw(pos.hand, pos.table, rules, pos.round, time_limit=SOLVE_SECONDS)
    except ShanghaiError:
        return None
    if not plan.goes_out or plan.discard != ways[0] or not plan.lay_down:
        return None
    new_table = _confirm_outway(rules, pos, plan)
    answer = ways[0]
    greedy, discard = contract_turn("greedy", rules, pos)
    feats = {
        "cards": len(plan.layoff.played) if plan.layoff is not None else 0,
        "swaps": len(plan.layoff.swaps) if plan.layoff is not None else 0,
        "greedy_shortfall": 0 if discard == answer and greedy == pos.hand - Cards([answer]) else 1,
        "decoys": min(4, int(useful(pos.hand, answer)) + _hidden(pos, plan, rules)),
        "melds": len(pos.table),
        "wilds": sum(1 for t in pos.table for c in t.meld.cards if c in rules.wilds),
    }
    title = (
        f"Go out this turn: lay down, lay off, and which discard? (round {pos.round}: {rules.contract_text(pos.round)})"
    )
    puzzle = Puzzle(
        "contract",
        rules,
        pos,
        title,
        {"can_lay_down": True, "plan_points_left": 0},
        meta={
            "kind": "outway",
            **measure("contract", feats, level).as_dict(),
            "solution": str(answer),
            "lay_down": [str(m) for m in plan.lay_down],
            "laid_off": str(plan.layoff.played) if plan.layoff is not None else "",
            "swaps": [str(s) for s in plan.layoff.swaps] if plan.layoff is not None else [],
            "new_table": [str(t.meld) for t in new_table],
        },
    )
    return place(puzzle, level)


def _hidden(pos: ContractPosition, plan: AfterDraw, rules: ContractRules) -> int:
    """The laid-off cards that fit no meld as the table stands (they need a swap, a chain or a new meld)."""
    played = plan.layoff.played if plan.layoff is not None else Cards()
    return sum(1 for c in played if not one_pass(Cards([c]), pos.table, rules))


def _confirm_outway(rules: ContractRules, pos: ContractPosition, plan: AfterDraw) -> tuple[TableMeld, ...]:
    """The plan's table after the turn, once the referees take its lay-down and lay-off (else MeldError)."""
    lay_down, layoff = plan.lay_down, plan.layoff
    check_lay_down(pos.hand, lay_down, rules, pos.round)
    before = (*pos.table, *(TableMeld(m, 0) for m in lay_down))
    if layoff is None:
        return before
    rest = pos.hand - Cards(c for m in lay_down for c in m.cards)
    if check_layoff(before, rest, layoff.table, rules) != layoff.played:  # pragma: no cover - they agree
        raise MeldError("the referees disagree with the plan's lay-off")
    return tuple(layoff.table)


def _twonear_hand(rng: random.Random, rules: ContractRules, round_: int) -> Cards | None:
    """The contract's melds grown to fill the deal (a wild now and then in a run), one natural card out,
    two cards in that touch the rest (a rank's copy or a suit neighbour up to two away)."""
    contract = rules.contract(round_)
    lengths = _filled_lengths(rng, rules, round_)
    if lengths is None:
        return None
    stock = [Cards(rules.deck)]
    cards: list[Card] = []
    for req, n in zip(contract, lengths):
        meld = _deal(stock, partial(_meld, rng, rules, req.kind, n))
        if meld is None:
            return None
        if req.kind == "run" and rules.wilds and rng.random() < 0.25:
            k = rng.randrange(len(meld))
            wild = rng.choice(sorted(rules.wilds, key=lambda c: c.index))
            if not _take(stock, [wild]):
                return None
            stock[0] = stock[0] + Cards([meld[k]])
            meld[k] = wild
        cards += meld
    out = rng.choice([c for c in cards if c not in rules.wilds])
    cards.remove(out)
    stock[0] = stock[0] + Cards([out])
    for _ in range(2):
        near = _deal(stock, partial(_touching_list, rng, list(cards), rules))
        if near is None:
            return None
        cards += near
    return Cards(cards)


def _touching_list(rng: random.Random, cards: list[Card], rules: ContractRules) -> list[Card]:
    return [_touching(rng, cards, rules)]


def _touching(rng: random.Random, cards: list[Card], rules: ContractRules) -> Card:
    base = rng.choice([c for c in cards if c not in rules.wilds])
    if rng.random() < 0.3:
        return Card(base.rank, rng.choice(_SUITS))
    p = _pos(base) + rng.choice((-2, -1, 1, 2))
    p = 14 if p < 3 else min(p, 14)
    return Card(Rank(1 if p == 14 else p), base.suit)


def _missing(hand: Cards, rules: ContractRules, round_: int) -> int:
    return distance_to_contract(hand, rules, round_, time_limit=SOLVE_SECONDS, options=False).missing


def twonear_puzzle(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
    """A last-round hand that does not go down, where one discard keeps strictly the most outs."""
    if not rules.last_round_all_at_once:
        return None  # generate() refuses the question under such rules (solver.generate._asks)
    round_ = rules.rounds
    hand = _twonear_hand(rng, rules, round_)
    if hand is None:
        return None
    pos = ContractPosition(round_, hand, drawn=True)
    if position_problem(pos, rules) is not None or goes_down_whole(hand, rules, round_):
        return None
    outs = outs_by_discard(hand, rules, round_, near=lambda rest: _missing(rest, rules, round_) <= 1)
    ranked = sorted(outs.items(), key=lambda kv: -kv[1])
    if ranked[0][1] == 0 or (len(ranked) > 1 and ranked[1][1] == ranked[0][1]):
        return None
    answer, best = ranked[0]
    _, greedy = contract_turn("greedy", rules, pos)
    feats = {
        "cards": best,
        "greedy_shortfall": 0 if greedy == answer else 1,
        "decoys": min(4, sum(1 for c, n in ranked[1:] if n > 0)),
        "melds": len(rules.contract(round_)),
        "wilds": sum(1 for c in hand if c in rules.wilds),
    }
    missing = distance_to_contract(hand, rules, round_, time_limit=SOLVE_SECONDS).missing
    title = (
        f"All at once, not yet down: which discard keeps the most outs? (round {round_}: {rules.contract_text(round_)})"
    )
    puzzle = Puzzle(
        "contract",
        rules,
        pos,
        title,
        {"distance": missing},
        meta={
            "kind": "twonear",
            **measure("contract", feats, level).as_dict(),
            "solution": str(answer),
            "outs": best,
            "outs_by_discard": {str(c): n for c, n in ranked},
        },
    )
    return place(puzzle, level)


def depth_candidate(rng: random.Random, rules: ContractRules, level: Level, question: str) -> Puzzle | None:
    """One attempt at an ``outway`` or ``twonear`` puzzle of ``level`` (None: this try failed)."""
    if question == "outway":
        return outway_puzzle(rng, rules, level)
    return twonear_puzzle(rng, rules, level)
