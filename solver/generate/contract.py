"""Contract Shanghai puzzles: best lay-off with swaps, go out this turn, which card to discard.

Lay-off ("layoff", or "goout" when it leaves at most the final discard):
the player has laid down; a few melds are on the table (black twos standing
for written cards, so swaps are possible) and the hand is dealt mostly
from cards that fit them. The puzzle needs the most cards laid off
(:func:`solver.contract.best_layoff`, objective cards) to come from exactly
one set of hand cards, proven by taking each card of the answer away in
turn (every best set must then be smaller), and the referee
(:func:`solver.contract.referee.check_layoff`, brute force
:func:`~solver.contract.brute.exhaustive_layoff`) to agree.

Discard ("discard"): the player has drawn, has not laid down and cannot; in
the 13 cards a game gives, exactly one card keeps the contract closest and
sheds the most points (:mod:`solver.generate.contract_discard`), checked
again by the CP-SAT distance model.

Every position holds a hand a game gives (:mod:`solver.contract.handsize`):
a lay-off hand larger than a laid-down player keeps states the fewest
``calls`` that explain it.

Whole ("whole"): the last round, played all at once (``last_round_all_at_once``):
after the draw the hand (the deal and the drawn card) goes down only as a
whole, and exactly one card (up to equal copies) is the discard that lets
the rest go down (:func:`solver.contract.whole_discards`, the contract's
melds taking every other card); the melds are checked by the lay-down
referee (:func:`solver.contract.referee.check_lay_down`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial

from solver.cards import Card, Cards, Rank, Suit
from solver.contract import (
    AfterDraw,
    LayDown,
    Layoff,
    after_lay_down,
    best_lay_down,
    best_layoff,
    can_go_down_whole,
    plan_after_draw,
    whole_discards,
)
from solver.contract.brute import every_lay_down, exhaustive_layoff
from solver.contract.handsize import fewest_calls
from solver.contract.referee import check_lay_down, check_layoff
from solver.errors import MeldError, ShanghaiError
from solver.generate.contract_depth import depth_candidate
from solver.generate.contract_discard import discard_puzzle, useful
from solver.generate.contract_proofs import DEPTH_KINDS
from solver.generate.difficulty import SOLVE_SECONDS, Difficulty, Level, measure
from solver.generate.ladder import LADDER, fewest_decoys, kinds_at, place
from solver.generate.players import contract_turn
from solver.legality import position_problem
from solver.melds import Meld, TableMeld, meld_kind
from solver.puzzles import ContractPosition, Puzzle
from solver.rules import ContractRules
from solver.rules.contract import min_length

__all__ = [
    "candidate",
    "unique_layoff",
    "unique_lay_down",
    "lay_down_ends",
    "grouping",
    "LAYOFF_SIZES",
    "LAYDOWN_SIZES",
]

_SUITS = tuple(Suit)

LAYOFF_SIZES: dict[Level, tuple[tuple[int, int], tuple[int, int]]] = {
    "easy": ((0, 1), (2, 4)),
    "medium": ((0, 2), (3, 5)),
    "hard": ((1, 2), (4, 6)),
    "expert": ((1, 3), (5, 7)),
}
"""Per level: opponents who have laid down besides the player to move, and hand cards (inclusive ranges)."""


def _wild(rng: random.Random, rules: ContractRules) -> Card:
    return rng.choice(sorted(rules.wilds, key=lambda c: c.index))


def _meld(rng: random.Random, rules: ContractRules, kind: str, length: int) -> list[Card]:
    if kind == "set":
        rank = Rank(rng.choice([r for r in range(1, 14) if r != 2]))
        suits = [rng.choice(_SUITS) for _ in range(length)]
        return [Card(rank, s) for s in suits]
    suit = rng.choice(_SUITS)
    start = rng.randint(3, 14 - length + 1)
    return [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)]


def _with_wild(rng: random.Random, rules: ContractRules, cards: list[Card]) -> Meld:
    """A meld of ``cards``; in a run, one card (not at an end) is now and then replaced by a wild
    standing for it (its role written, so a natural from hand can swap it out)."""
    roles: list[Card | None] = [None] * len(cards)
    is_run = len({c.rank for c in cards}) > 1
    if is_run and rules.wilds and rng.random() < 0.6:
        k = rng.randrange(1, len(cards) - 1)
        roles[k] = cards[k]
        cards = [*cards[:k], _wild(rng, rules), *cards[k + 1 :]]
    return Meld(tuple(cards), tuple(roles))


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


def _layoff(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
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


def _lone(hand: Cards) -> list[Card]:
    """The hand's cards that touch no other (no card of their rank, nor of the next rank in their suit)."""
    return [c for c in hand.distinct() if not useful(hand, c)]


def _whole_hand(rng: random.Random, rules: ContractRules, round_: int) -> Cards | None:
    """The deal as the round's contract (melds grown past their least length to fill it, a wild now and
    then in a run), and one more card, the draw; None when the contract does not fit the deal."""
    contract = rules.contract(round_)
    lengths = [min_length(req, rules) for req in contract]
    if sum(lengths) > rules.deal:
        return None
    while sum(lengths) < rules.deal:
        lengths[rng.randrange(len(lengths))] += 1
    cards: list[Card] = []
    for req, n in zip(contract, lengths):
        cards += _with_wild(rng, rules, _meld(rng, rules, req.kind, n)).cards
    if rng.random() < 0.5:  # a draw that looks useful: the rank or a suit neighbour of a dealt card
        near = rng.choice([c for c in cards if c not in rules.wilds and c.rank is not None])
        step = rng.choice((-1, 0, 1))
        rank = int(near.rank or 1) + step
        suit = near.suit if step else rng.choice(_SUITS)
        cards.append(Card(Rank(rank if 1 <= rank <= 13 else 13), suit))
    else:
        cards.append(Card(Rank(rng.randint(1, 13)), rng.choice(_SUITS)))
    rng.shuffle(cards)
    return Cards(cards)


def _whole(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
    """A last-round hand that goes down whole after exactly one discard (up to equal copies)."""
    round_ = rules.rounds
    if not rules.last_round_all_at_once:
        from solver.generate import GenerateError

        raise GenerateError("a whole-hand puzzle needs the last round played all at once (last_round_all_at_once)")
    hand = _whole_hand(rng, rules, round_)
    if hand is None:
        return None
    pos = ContractPosition(round_, hand, drawn=True)
    try:
        if position_problem(pos, rules) is not None:
            return None
        works = whole_discards(hand, rules, round_, time_limit=SOLVE_SECONDS)
    except ShanghaiError:
        return None
    if len(works) != 1:
        return None
    answer = works[0]
    down = can_go_down_whole(hand - Cards([answer]), rules, round_, discard=False, time_limit=SOLVE_SECONDS)
    if down is None or down.status != "optimal":  # pragma: no cover - whole_discards found it
        return None
    best = best_lay_down(hand, rules, round_, time_limit=SOLVE_SECONDS)
    if best is None or best.hand != Cards([answer]):
        return None  # the whole hand goes down with no discard (a wild limit can keep the discard's melds apart)
    _, greedy = contract_turn("greedy", rules, pos)
    lone = _lone(hand)
    feats = {
        "cards": len(hand) - 1,
        "greedy_shortfall": 0 if greedy == answer else 1,
        # decoys: the answer looks useful (it touches another card), and each lone card that is not the answer
        "decoys": int(useful(hand, answer)) + sum(1 for c in lone if c != answer),
        "melds": len(down.melds),
        "wilds": sum(1 for m in down.melds for c in m.cards if c in rules.wilds),  # standing in the melds
    }
    if feats["decoys"] < fewest_decoys("contract", level, "whole"):
        return None
    _confirm_whole(rules, pos, answer, down.melds)
    contract = rules.contract_text(round_)
    return place(
        Puzzle(
            "contract",
            rules,
            pos,
            f"All at once: which discard lets the rest go down? (round {round_}: {contract})",
            {
                "can_lay_down": True,
                "points_left": best.points_left,
                "distance": 0,
                "can_go_out": True,
                "discard": str(answer),
            },
            meta={
                "kind": "whole",
                **measure("contract", feats, level).as_dict(),
                "solution": str(answer),
                "melds": [str(m) for m in down.melds],
            },
        ),
        level,
    )


def _confirm_whole(rules: ContractRules, pos: ContractPosition, answer: Card, melds: tuple[Meld, ...]) -> None:
    """Raise :class:`MeldError` unless the referee takes the melds as the contract of the hand less the discard."""
    check_lay_down(pos.hand - Cards([answer]), melds, rules, pos.round, max_left=0)


# ------------------------------------------------------------------ lay-down: which grouping leaves the best lay-off

LAYDOWN_SIZES: dict[Level, tuple[int, int]] = {
    "easy": (0, 0),
    "medium": (0, 1),
    "hard": (1, 2),
    "expert": (1, 3),
}
"""Per level: opponents with melds on the table besides the one holding the planted set (an inclusive
range). The hand is the deal and the draw: random cards fill it up to that size."""


def grouping(melds: Sequence[Meld] | Sequence[Cards]) -> tuple[str, ...]:
    """A lay-down's grouping: each meld's cards (wild roles dropped), in a canonical order.

    >>> grouping([Meld.parse("6C 7C 8C 2S=9C"), Meld.parse("5S 5H 5D")])
    ('2S 6C 7C 8C', '5S 5H 5D')
    """
    return tuple(sorted(str(m if isinstance(m, Cards) else Cards(m.cards)) for m in melds))


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


def _copies(rank: int, rules: ContractRules) -> list[Card]:
    """Every copy of a rank in the decks (a card once per deck)."""
    return [Card(Rank(rank), suit) for suit in _SUITS for _ in range(rules.decks)]


def _sample_meld(rng: random.Random, copies: list[Card], length: int) -> Meld:
    return Meld.of(rng.sample(copies, length))


def _random_meld(rng: random.Random, rules: ContractRules, kind: str, length: int, wild: bool) -> Meld:
    cards = _meld(rng, rules, kind, length)
    return _with_wild(rng, rules, cards) if wild else Meld.of(cards)


def _deck_cards(rules: ContractRules) -> Cards:
    return Cards(rules.deck)


def _deal(stock: list[Cards], make: Callable[[], Meld], tries: int = 12) -> Meld | None:
    """A group of cards ``make`` draws that the decks still hold (``stock[0]``, which loses them),
    drawn again up to ``tries`` times; None when none fit."""
    for _ in range(tries):
        meld = make()
        cards = Cards(meld.cards)
        if cards and cards <= stock[0]:
            stock[0] = stock[0] - cards
            return meld
    return None


def _natural(rng: random.Random, rules: ContractRules) -> Card:
    """A random natural card that is not wild."""
    while True:
        card = Card(Rank(rng.randint(1, 13)), rng.choice(_SUITS))
        if card not in rules.wilds:
            return card


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


def _to_hand_size(rules: ContractRules, planted: int) -> tuple[int, int]:
    """The fewest calls whose hand after the draw holds ``planted`` cards, and the random cards that fill
    it up to that size (a player who has not laid down holds the deal, the draw and two a call)."""
    calls = max(0, -(-(planted - rules.deal - 1) // 2))
    return calls, rules.deal + 1 + 2 * calls - planted


def _same(meld: Meld) -> Meld:
    return meld


def _laydown(rng: random.Random, rules: ContractRules, level: Level) -> Puzzle | None:
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


def candidate(rng: random.Random, rules: ContractRules, level: Level, question: str | None = None) -> Puzzle | None:
    """One attempt at a puzzle of ``level``: ``question`` ``layoff`` (a lay-off or go-out position),
    ``discard`` or ``whole`` (the last round: which discard lets the rest go down); without one, a
    lay-off two times in three where the level has a lay-off rung."""
    if question is None:
        question = "layoff" if "layoff" in kinds_at("contract", level) and rng.random() < 2 / 3 else "discard"
    if question == "layoff":
        return _layoff(rng, rules, level)
    if question == "whole":
        return _whole(rng, rules, level)
    if question == "laydown":
        return _laydown(rng, rules, level)
    if question in DEPTH_KINDS:
        return depth_candidate(rng, rules, level, question)
    return discard_puzzle(rng, rules, level)
