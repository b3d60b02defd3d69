"""Contract Shanghai: the engine's shortcuts give the answers of the general code they stand in for.

* the hand-only lay-down (``search.hand_lay_down``: the pricing of
  ``handonly.price_hand_only``, the walk with a limit of 0, the one split of
  ``handonly.hand_split``) against the general search with the general
  pricing and decoding, on random hands of every round and rule set;
* ``api.runs_can_hold`` (a small program over suits) against its
  definition (every way to give the runs their suits);
* ``tablemelds.MeldCache`` (answers per table meld, some without the
  validator) and the listed lay-offs and swaps against the engine's
  former direct code and the validator, along random games.

Nothing here is timed (``python -m benchmarks.bench_engine`` measures).
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver.cards import Card, Cards, Rank, Suit
from solver.contract.api import can_go_down_whole, runs_can_hold, runs_gaps_fit
from solver.contract.game import CLayOff, ContractGame, CSwap
from solver.contract.handonly import hand_split, price_hand_only, shares_cards
from solver.contract.layoff import Swap
from solver.contract.model import solve_lay_down
from solver.contract.referee import check_lay_down
from solver.contract.search import DistanceSearch, hand_lay_down
from solver.contract.shapes import Counts, Shape, Split, _cost, _Pricer, price, price_combo, shapes_for
from solver.contract.tablemelds import MeldCache, replaceable, run_ends, table_kind, with_roles
from solver.engine import new_game
from solver.errors import MeldError
from solver.melds import Meld, meld_effect, resolve_roles
from solver.rules import ContractRules
from solver.rules.contract import Requirement, min_length
from tests.contract.test_contract_search import hands
from tests.strategies import contract_rules

# ---------------------------------------------------------------- the hand-only lay-down


def general_lay_down(hand: Cards, rules: ContractRules, contract: tuple[Requirement, ...]) -> tuple[Meld, ...] | None:
    """The distance search as it runs with cards to come: general pricing, full walk, every split."""
    search = DistanceSearch(hand, Cards(), rules, contract)
    search.hand_only = False
    search.cands = search._priced()
    search.find()
    if search.best != 0:
        return None
    assert search.first is not None
    return search.decode(search.first)[0]


@st.composite
def game_hands(draw: st.DrawFn, rules: ContractRules) -> Cards:
    """A hand as the engine sees one: 6-22 cards, part of them near each other so melds happen."""
    near = draw(hands(rules, naturals=10, wilds=3))
    deck = list(rules.deck - near)
    extra = draw(st.lists(st.integers(0, len(deck) - 1), unique=True, max_size=12))
    return near + Cards(deck[i] for i in extra)


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hand_lay_down_is_the_general_search_answer(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    hand = data.draw(game_hands(rules))
    contract = rules.contract(round_)
    found = hand_lay_down(hand, rules, contract)
    assert found == general_lay_down(hand, rules, contract)
    if found is not None:
        check_lay_down(hand, found, rules, round_)


@pytest.mark.parametrize("preset", ["finnish", "us", "jokers_and_twos"])
def test_hand_lay_down_on_dealt_hands_of_every_round(preset: str) -> None:
    """Random deals (a full deck, hands of 10-20 cards): the same melds, and many hands do lay down."""
    rules = ContractRules.preset(preset)
    rng = random.Random(preset)
    deck = list(rules.deck)
    made = 0
    for round_ in range(1, rules.rounds + 1):
        contract = rules.contract(round_)
        for _ in range(60):
            hand = Cards(rng.sample(deck, rng.randint(10, 20)))
            found = hand_lay_down(hand, rules, contract)
            assert found == general_lay_down(hand, rules, contract)
            made += found is not None
    assert made >= 40  # the positive answers (and their melds) were compared too


@given(data=st.data(), rules=contract_rules, run=st.booleans(), m=st.integers(3, 6))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hand_only_pricing_is_the_general_pricing(data: st.DataObject, rules: ContractRules, run: bool, m: int) -> None:
    c = Counts(data.draw(game_hands(rules)), Cards(), rules.wilds)
    general = [x for sh in shapes_for(run, m, rules.ace, rules.wild_limit) if (x := price(sh, c)) is not None]
    general.sort(key=lambda x: (x.s, x.need))
    assert price_hand_only(run, m, rules.ace, rules.wild_limit, c) == general


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7))
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_hand_split_is_the_split_of_price_combo(data: st.DataObject, rules: ContractRules, round_: int) -> None:
    """Melds that share no card, priced from the hand alone: the one split is the one price_combo finds."""
    hand = data.draw(game_hands(rules))
    c = Counts(hand, Cards(), rules.wilds)
    shapes = [
        data.draw(st.sampled_from(shapes_for(r.kind == "run", min_length(r, rules), rules.ace, rules.wild_limit)))
        for r in rules.contract(round_)
    ]
    priced = price_combo(shapes, c.hn, c.pn, c.hw, c.pw)
    if shares_cards(shapes) or priced is None or priced[0] != 0:
        return
    assert hand_split(shapes, c.hn) == priced[1]


# ---------------------------------------------------------------- the whole-hand filters

RANK_CODES = ["K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]  # by rank % 13


def runs_can_hold_by_definition(
    hand: Cards, rules: ContractRules, contract: tuple[Requirement, ...], left: int
) -> bool:
    """Every way to give the runs their suits: the most naturals placed (at most k copies of a rank
    go into k runs of a suit)."""
    if any(r.kind != "run" for r in contract):
        return True
    per_suit: dict[object, dict[object, int]] = {}
    naturals = 0
    for card, n in hand.items():
        if card in rules.wilds or card.suit is None:
            continue
        naturals += n
        per_suit.setdefault(card.suit, {})[card.rank] = n
    best = 0
    for split in itertools.product(range(len(contract) + 1), repeat=len(per_suit)):
        if sum(split) <= len(contract):
            best = max(best, sum(min(n, k) for ranks, k in zip(per_suit.values(), split) for n in ranks.values()))
    return naturals - best <= left


@pytest.mark.parametrize("preset", ["finnish", "jokers_and_twos", "poker_deck"])
def test_runs_can_hold_is_its_definition(preset: str) -> None:
    rules = ContractRules.preset(preset)
    rng = random.Random(preset)
    deck = list(rules.deck)
    answers = set()
    for _ in range(1500):
        # hands of a few suits, so that both answers come up
        suits = rng.sample(sorted({c.suit for c in deck if c.suit is not None}), rng.randint(1, 3))
        cards = [c for c in deck if c.suit in suits or c in rules.wilds]
        hand = Cards(rng.sample(cards, rng.randint(1, 22)))
        for contract in rules.contracts:
            for left in (0, 1):
                expected = runs_can_hold_by_definition(hand, rules, contract, left)
                assert runs_can_hold(hand, rules, contract, left) == expected, (hand, contract, left)
                answers.add(expected)
    assert answers == {True, False}


# ---------------------------------------------------------------- table melds and the listed lay-offs and swaps


def resolved(meld: Meld, rules: ContractRules) -> Meld | None:
    """The meld with its wilds' roles resolved and written, or None if the validator turns it down."""
    try:
        _, roles = resolve_roles(meld, rules.meld_spec)
    except MeldError:
        return None
    return with_roles(meld, roles, rules)


def direct_grown(meld: Meld, added: Meld, rules: ContractRules) -> Meld | None:
    """The engine's former lay-off check: the validator on the meld with the cards added."""
    return resolved(Meld(meld.cards + added.cards, meld.roles + added.roles), rules)


def direct_layoffs(game: ContractGame, p: int) -> list[CLayOff]:
    """The engine's former lay-off listing: a filter on rank or suit, then the validator."""
    spec = game.rules.meld_spec
    out = []
    for i, tm in enumerate(game.table):
        stands = [r if r is not None else c for c, r in zip(tm.meld.cards, tm.meld.roles)]
        ranks = {c.rank for c in stands}
        suits = {c.suit for c in stands}
        for card in game.hands[p].distinct():
            if not spec.is_wild(card):
                if len(ranks) == 1 and card.rank not in ranks:
                    continue
                if len(ranks) > 1 and card.suit not in suits:
                    continue
            grown = direct_grown(tm.meld, Meld((card,)), game.rules)
            if grown is not None:
                out.append(CLayOff(p, i, Meld((card,))))
            if spec.is_wild(card) and grown is not None:  # every other reading, roles in card order (issue 36)
                seen = {meld_effect(grown)}
                for role in (Card(r, s) for s in Suit for r in Rank):
                    other = direct_grown(tm.meld, Meld((card,), (role,)), game.rules)
                    if other is not None and meld_effect(other) not in seen:
                        seen.add(meld_effect(other))
                        out.append(CLayOff(p, i, Meld((card,), (role,))))
    return out


def direct_swap(game: ContractGame, swap: Swap, role: Card | None = None) -> list[Meld] | None:
    """The engine's former swap: find the wild's place, swap, resolve, place the wild; the melds after."""
    spec, rules = game.rules.meld_spec, game.rules
    melds = [t.meld for t in game.table]
    meld = melds[swap.meld]
    if (swap.wild, swap.card) not in replaceable(meld, Cards([swap.card]), spec):
        return None
    kind = table_kind(meld, spec)
    k = next(
        k
        for k, (c, r) in enumerate(zip(meld.cards, meld.roles))
        if c == swap.wild and (kind == "set" or r == swap.card)
    )
    cards, roles = list(meld.cards), list(meld.roles)
    cards[k], roles[k] = swap.card, None
    swapped = resolved(Meld(tuple(cards), tuple(roles)), rules)
    if swapped is None:
        return None
    melds[swap.meld] = swapped
    placed = direct_grown(melds[swap.to], Meld((swap.wild,), (role,)), rules)
    if placed is None:
        return None
    melds[swap.to] = placed
    return melds


def direct_swaps(game: ContractGame, p: int) -> list[CSwap]:
    out = []
    for i, tm in enumerate(game.table):
        if not game._swappable(p, i):
            continue
        for wild, card in replaceable(tm.meld, game.hands[p], game.rules.meld_spec):
            for dest in range(len(game.table)):
                swap = Swap(card, i, wild, dest)
                after = direct_swap(game, swap)
                if after is None:
                    continue
                if dest != i:
                    out.append(CSwap(p, swap))
                    continue
                # the wild back onto its meld: not listed with a lay-off's effect (one listed action an
                # effect); then with the first role (in card order) that has another, if any
                layoff = direct_grown(tm.meld, Meld((card,)), game.rules)
                roles: list[Card | None] = [None, *[Card(r, s) for s in Suit for r in Rank]]
                for role in roles:
                    placed = direct_swap(game, swap, role)
                    if placed is not None and (layoff is None or meld_effect(placed[i]) != meld_effect(layoff)):
                        out.append(CSwap(p, swap, role))
                        break
    return out


@pytest.mark.parametrize(
    ("rules", "seed"),
    [
        (None, 11),
        ({"preset": "jokers_and_twos"}, 12),
        ({"wild_swap_own": True, "jokers": 2, "wild_limit": "half"}, 13),
        ({"preset": "us", "wild_limit": "fewer", "ace": "low"}, 14),
    ],
)
def test_listed_layoffs_and_swaps_are_the_direct_ones(rules: dict[str, object] | None, seed: int) -> None:
    game = new_game("contract", rules, 4, seed, {"max_rounds": 4})
    assert isinstance(game, ContractGame)
    rng = random.Random(seed)
    checked = swaps = 0
    while not game.is_terminal():
        p = game.current_player()
        legal = game.legal_actions()
        if game.phase == "play" and game.laid_down[p]:
            layoffs = [a for a in legal if isinstance(a, CLayOff)]
            listed_swaps = [a for a in legal if isinstance(a, CSwap)]
            if not game.laid_this_turn or game.rules.layoff_same_turn:
                assert layoffs == direct_layoffs(game, p)
                assert listed_swaps == direct_swaps(game, p)
            for lay in layoffs:
                assert game.grown(lay.target, lay.cards) == direct_grown(
                    game.table[lay.target].meld, lay.cards, game.rules
                )
            for sw in listed_swaps:
                after = game._swap_result(sw)
                assert after is not None and [t.meld for t in after] == direct_swap(game, sw.swap)
            # a swap written with a role, and one that is not possible, agree too
            for i, tm in enumerate(game.table):
                for wild, card in replaceable(tm.meld, game.hands[p], game.rules.meld_spec):
                    for dest in range(len(game.table)):
                        role = next(c for c in game.table[dest].meld.cards if not game.rules.meld_spec.is_wild(c))
                        swap = CSwap(p, Swap(card, i, wild, dest), role)
                        mine = game._swap_result(swap)
                        assert (None if mine is None else [t.meld for t in mine]) == direct_swap(game, swap.swap, role)
            checked += 1
            swaps += len(listed_swaps)
        game.apply(rng.choice(legal))
    assert checked > 50 and swaps > 0


def table_melds(rules: dict[str, object] | None, seed: int) -> list[Meld]:
    """The melds on the table along a random game (each once), and the same melds with open wilds."""
    game = new_game("contract", rules, 4, seed, {"max_rounds": 5})
    rng = random.Random(seed)
    seen: dict[str, Meld] = {}
    while not game.is_terminal():
        for t in getattr(game, "table", []):
            seen.setdefault(str(t.meld), t.meld)
            spec = game.rules.meld_spec
            opened = Meld(
                t.meld.cards, tuple(None if spec.is_wild(c) else r for c, r in zip(t.meld.cards, t.meld.roles))
            )
            seen.setdefault(str(opened), opened)
        game.apply(rng.choice(game.legal_actions()))
    return list(seen.values())


@pytest.mark.parametrize(
    "rules",
    [None, {"preset": "jokers_and_twos", "wild_limit": "half"}, {"wild_limit": "fewer", "ace": "high", "jokers": 2}],
)
def test_meld_cache_fits_is_the_validator(rules: dict[str, object] | None) -> None:
    """``MeldCache.fits`` (sure answers without the validator) and ``run_ends`` (a necessary condition)
    against the validator, for every card on every meld of random games."""
    melds = list({str(m): m for seed in (5, 6, 7) for m in table_melds(rules, seed)}.values())
    ruleset = ContractRules.from_dict({"preset": "finnish", **(rules or {})}) if rules else ContractRules()
    cache = MeldCache(ruleset)
    spec = ruleset.meld_spec
    grew = 0
    for meld in melds:
        ends = run_ends(meld, spec)
        for card in ruleset.deck.distinct():
            valid = direct_grown(meld, Meld((card,)), ruleset) is not None
            assert cache.fits(meld, card) == valid, (meld, card)
            if valid and ends is not None and not spec.is_wild(card):
                assert card.index in ends, (meld, card)
            grew += valid
    assert len(melds) > 30 and grew > 100


@pytest.mark.parametrize(
    ("meld", "card", "limit", "fits"),
    [
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "2S", "any", False),  # 13 cards: no room for a wild
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "2S", "any", True),  # the ace above
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", "AH", "any", True),
        ("5H 6H 2S=7H", "2C", "fewer", False),
        ("5H 6H 2S=7H", "2C", "any", True),
        ("5H 6H 2S=7H", "7H", "any", False),  # the wild stands for it
        ("5H 6H 2S=7H", "8H", "any", True),
        ("5H 5D 2S=5S", "2C", "half", True),
        ("5H 5D 2S=5S", "2C", "fewer", False),
        ("5H 5D 2S=5S", "5H", "fewer", True),
        ("5H 2S 2C", "6H", "any", True),  # open wilds may move: the validator decides
    ],
)
def test_meld_cache_fits_examples(meld: str, card: str, limit: str, fits: bool) -> None:
    rules = ContractRules(wild_limit=limit)  # type: ignore[arg-type]
    m, c = Meld.parse(meld), Card.parse(card)
    assert MeldCache(rules).fits(m, c) == fits == (direct_grown(m, Meld((c,)), rules) is not None)


def every_split_best(shapes: list[Shape], c: Counts) -> tuple[int, Split] | None:
    """price_combo's answer by walking every split (no early stop, the pool's splits enumerated)."""
    pricer = _Pricer(shapes, c.hn, c.pn, c.hw, c.pw)
    pricer.no_pool = False
    best: tuple[int, Split] | None = None
    n = len(shapes)
    for pick in pricer.hand_picks():
        for fill, q in pricer.pool_picks(pick):
            cost = _cost(pricer.sizes, pricer.wmaxes, pick.h, q, c.hw, c.pw)
            if cost is not None and (best is None or cost < best[0]):
                hand_part = tuple(tuple(pick.got[j]) if j in pick.got else pick.h[j] for j in range(n))
                pool_part = tuple(tuple(fill[j]) if j in fill else q[j] for j in range(n))
                best = (cost, Split(hand_part, pool_part))
    return best


@given(data=st.data(), rules=contract_rules, round_=st.integers(1, 7), empty=st.booleans())
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_price_combo_stops_at_the_first_free_split(
    data: st.DataObject, rules: ContractRules, round_: int, empty: bool
) -> None:
    """The early stop at a split costing nothing, and the one split of an empty pool, change nothing."""
    hand = data.draw(game_hands(rules))
    rest = list(rules.deck - hand)
    pool = (
        Cards()
        if empty
        else Cards(rest[i] for i in data.draw(st.lists(st.integers(0, len(rest) - 1), unique=True, max_size=30)))
    )
    c = Counts(hand, pool, rules.wilds)
    # shapes over the hand's cards (so they share cards and cost little)
    shapes = []
    for r in rules.contract(round_):
        options = shapes_for(r.kind == "run", min_length(r, rules), rules.ace, rules.wild_limit)
        near = [sh for sh in options if any(c.hn[i] for i in sh.cards)] or list(options)
        shapes.append(data.draw(st.sampled_from(near)))
    assert price_combo(shapes, c.hn, c.pn, c.hw, c.pw) == every_split_best(shapes, c)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    preset=st.sampled_from(["finnish", "jokers_and_twos", "poker_deck"]),
    ace=st.sampled_from(["both", "low", "high"]),
)
def test_gaps_filter_never_rejects_a_hand_that_goes_down(data: st.DataObject, preset: str, ace: str) -> None:
    """``runs_gaps_fit`` is sound: whenever the CP-SAT model (asked directly) lays the whole hand down,
    the filter lets it through; and it does turn hands down."""
    rules = ContractRules.from_dict({**ContractRules.preset(preset).to_dict(), "ace": ace})
    deck = rules.deck
    wild_cards = [c for c in deck.distinct() if c in rules.wilds]
    cards: list[Card] = []
    for _ in range(3):  # three runs, some cards swapped for wilds, suits may repeat
        suit = data.draw(st.sampled_from("SHDC"))
        start = data.draw(st.integers(2, 9))
        for r in range(start, start + data.draw(st.integers(4, 6))):
            card = Card.parse(RANK_CODES[r % 13] + suit)
            cards.append(data.draw(st.sampled_from(wild_cards)) if data.draw(st.integers(0, 5)) == 0 else card)
    rest = list(deck.distinct())
    cards += [rest[i] for i in data.draw(st.lists(st.integers(0, len(rest) - 1), max_size=3))]
    hand = Cards(cards)
    if not hand <= deck:
        return
    contract = rules.contract(7)
    fits = runs_gaps_fit(hand, rules, contract, 1)
    if solve_lay_down(hand, rules, contract, max_left=1, time_limit=10.0) is not None:
        assert fits, hand


def test_gaps_filter_examples() -> None:
    rules = ContractRules()
    contract = rules.contract(7)
    # the hand CP-SAT took 0.25 s to turn down in a random game: ten holes, three wilds
    hand = Cards.parse("2S 2S 6S 7H 8H JH AD 3D 4D 6D 10D AC 2C 3C 4C 6C 7C 9C 10C")
    assert not runs_gaps_fit(hand, rules, contract, 1)
    assert can_go_down_whole(hand, rules, 7) is None
    # three runs with a wild in a hole, and one stray card to discard
    hand = Cards.parse("3H 4H 2S 6H 7D 8D 9D 10D JC QC KC AC 5S")
    assert runs_gaps_fit(hand, rules, contract, 1)
    assert not runs_gaps_fit(hand - Cards.parse("2S"), rules, contract, 1)
    assert can_go_down_whole(hand, rules, 7) is not None


def test_gaps_filter_counts_runs_and_their_length() -> None:
    rules = ContractRules()
    two_runs = rules.contract(3)
    # hearts twice over need two runs, clubs a third: two runs cannot hold the hand
    hand = Cards.parse("5H 5H 6H 6H 7H 7H 8H 8H 9C 10C JC QC")
    assert not runs_gaps_fit(hand, rules, two_runs, 1)
    assert solve_lay_down(hand, rules, two_runs, max_left=1, time_limit=10.0) is None
    # a lone natural in a third suit needs a run of four: three wilds, and the hand has two
    three = rules.contract(7)
    hand = Cards.parse("5H 6H 7H 8H 9C 10C JC QC 2S 2C 3S KD")
    assert not runs_gaps_fit(hand, rules, three, 1)
    assert solve_lay_down(hand, rules, three, max_left=1, time_limit=10.0) is None
    # two naturals of spades and the two wilds make the third run
    hand = Cards.parse("5H 6H 7H 8H 9C 10C JC QC 2S 2C 3S 4S")
    assert runs_gaps_fit(hand, rules, three, 0)
    assert can_go_down_whole(hand, rules, 7, discard=False) is not None
