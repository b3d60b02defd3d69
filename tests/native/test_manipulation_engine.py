"""The Manipulation engine's compiled part against the pure-Python oracle: exact agreement.

``engine_position`` (solver/native/src/manipulation_engine.cpp, through
:mod:`solver.manipulation.engine_core`) answers, for a position with no joker
in play, the playable bound, the greedy play's count and stage 3 of
:class:`~solver.manipulation.play.Playable` in one call. The pure path
(``with native.pure():``) is the oracle: the same facts on hypothesis-drawn
positions (1-4 decks, every ace option, every preset, jokers in the rules and
in the hand), the same legal actions in the same order, and whole seeded
random games identical action by action on both paths.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.manipulation.engine_core as engine_core
import solver.manipulation.play as play
from solver import native
from solver.cards import ALL_CARDS, Card, Cards
from solver.errors import MeldError, ShanghaiError
from solver.manipulation.bound import playable_bound
from solver.manipulation.game import ManipulationGame
from solver.manipulation.natural import natural_play
from solver.manipulation.simple import greedy_play, hand_melds, sorted_meld
from solver.melds import Meld, parse_table, validate_rearrangement
from solver.ranks import JOKER_INDEX, card_index, position_range
from solver.rules import ManipulationRules

ACES = ("low", "high", "both")
PRESETS = ("german", "norwegian", "rummikub")


def draw_position(seed: int, rules: ManipulationRules, melds: int, hand_cards: int) -> tuple[tuple[Meld, ...], Cards]:
    """A table of up to ``melds`` valid natural runs and sets (in display order) and a hand, half
    its cards beside the table's; at most ``decks`` copies of a card in all, a joker in the hand
    now and then when the rules have jokers."""
    rng = random.Random(seed)
    copies = [0] * len(ALL_CARDS)
    table: list[Meld] = []
    lo, hi = position_range(rules.ace)
    for _ in range(melds):
        if rng.random() < 0.6:  # a run of 3-13 cards of one suit, mostly short
            length = min(13, hi - lo + 1, 3 + int(rng.expovariate(0.5)))
            start = rng.randint(lo, hi - length + 1)
            suit = rng.randrange(4)
            cards = [card_index(suit, q) for q in range(start, start + length)]
        else:  # a set of 3-4 suits
            rank = rng.randrange(13)
            cards = [13 * s + rank for s in rng.sample(range(4), rng.randint(3, 4))]
        if all(copies[i] < rules.decks for i in cards):
            for i in cards:
                copies[i] += 1
            table.append(sorted_meld([ALL_CARDS[i] for i in cards], rules))
    hand: list[Card] = []
    on_table = [i for i in range(52) if copies[i]]
    for _ in range(hand_cards):
        if rng.random() < 0.5 and on_table:  # beside a table card: same rank or a neighbour
            near = rng.choice(on_table)
            i = rng.choice([(near + 13 * rng.randrange(4)) % 52, near - near % 13 + (near + 1) % 13])
        else:
            i = rng.randrange(52)
        if copies[i] < rules.decks:
            copies[i] += 1
            hand.append(ALL_CARDS[i])
    if rules.jokers and rng.random() < 0.2:
        hand.append(ALL_CARDS[JOKER_INDEX])
    return tuple(table), Cards(hand)


def python_facts(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> tuple[Any, ...]:
    """What the core answers, worked out by the pure Python: the playable bound, the greedy play's
    count (when the bound holds a card), stage 3 as Playable asks it (when the greedy play adds
    fewer cards than the bound holds and than the engine asks), and whether the hand makes a meld."""
    on_table = Cards(c for m in table for c in m.cards)
    with native.pure():
        bound = playable_bound(on_table, hand, rules)
        greedy = sum(map(len, greedy_play(table, hand, rules))) - len(on_table) if bound else 0
        melds = bool(hand_melds(hand, rules))
        ask = 2 if rules.must_play == "more_than_one" else 1
        if greedy < len(bound) and greedy < ask:
            stage3 = natural_play(
                table, bound, rules, table_cards=on_table, bound=bound, at_least=greedy + 1, budget=20_000
            )
            return bound, greedy, True, stage3, melds
    return bound, greedy, False, None, melds


def core_facts(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> tuple[Any, ...] | None:
    facts = engine_core.position_facts(engine_core.table_codes(table, rules.ace), table, hand, rules)
    return None if facts is None else (facts.bound, facts.greedy, facts.asked, facts.natural, facts.melds)


def listing(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> list[str]:
    """The legal actions of an opened player with ``hand`` at ``table`` (a fresh game each time)."""
    game = ManipulationGame(rules, rules.min_players, 0, max_hands=1)
    game.table, game.hands[0], game.opened[0], game.to_move = table, hand, True, 0
    game.stock = game.stock[:5]
    game.clear_caches()
    return [str(a) for a in game.legal_actions()]


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32),
    preset=st.sampled_from(PRESETS),
    decks=st.integers(1, 4),
    ace=st.sampled_from(ACES),
    jokers=st.sampled_from([0, 0, 2]),
    melds=st.integers(0, 16),
    hand_cards=st.integers(1, 22),
)
def test_the_facts_and_the_listing_agree_on_drawn_positions(
    manipulation_core: ModuleType,
    seed: int,
    preset: str,
    decks: int,
    ace: str,
    jokers: int,
    melds: int,
    hand_cards: int,
) -> None:
    """Drawn positions (every preset, 1-4 decks, every ace option, jokers in the rules and now and
    then in the hand): the core's facts are the Python's, and the legal actions are the same, in
    the same order, on both paths."""
    rules = ManipulationRules.from_dict({"preset": preset, "decks": decks, "ace": ace, "jokers": jokers})
    table, hand = draw_position(seed, rules, melds, hand_cards)
    fast = core_facts(table, hand, rules)
    if any(hand.counts[52:]):
        assert fast is None  # a joker in the hand: the Python answers
    else:
        assert fast == python_facts(table, hand, rules)
    with native.pure():
        pure = listing(table, hand, rules)
    assert listing(table, hand, rules) == pure


def test_every_outcome_is_compared(manipulation_core: ModuleType) -> None:
    """A fixed sweep whose positions reach every kind of answer the core gives (stage 3 not asked,
    a play found, none beyond the greedy play, natural_play's None), each agreeing."""
    seen: dict[str, int] = {}
    rng = random.Random(35)
    for i in range(400):
        preset, ace, decks = PRESETS[i % 3], ACES[(i // 3) % 3], 1 + (i // 9) % 4
        rules = ManipulationRules.from_dict({"preset": preset, "decks": decks, "ace": ace, "jokers": 0})
        big = i % 4 == 0  # dense: natural_play's None (a possible run over all 14 positions, the budget)
        hand_cards = rng.randrange(20, 40) if big else rng.randrange(1, 16)
        table, hand = draw_position(rng.randrange(2**32), rules, rng.randrange(0, 25 if big else 16), hand_cards)
        fast = core_facts(table, hand, rules)
        assert fast is not None and fast == python_facts(table, hand, rules), (preset, ace, decks, i)
        if not fast[2]:
            kind = "not asked"
        else:
            kind = "none" if fast[3] is None else "a play" if fast[3].played else "nothing more"
        seen[kind] = seen.get(kind, 0) + 1
    assert all(seen.get(k, 0) >= 3 for k in ("not asked", "a play", "nothing more", "none")), seen


def referee(gone: tuple[Meld, ...], fresh: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> Cards | None:
    """The Python referee's answer: the hand cards played, or None for an illegal play."""
    try:
        return validate_rearrangement(gone, hand, fresh, rules.meld_spec)
    except MeldError:
        return None


def corrupted(rng: random.Random, melds: tuple[Meld, ...], hand: Cards) -> tuple[Meld, ...]:
    """The melds with one change: a card dropped, one added from the hand or from nowhere, or two
    cards of two melds swapped (mostly an illegal play, now and then still a legal one)."""
    out = [list(m.cards) for m in melds]
    k = rng.randrange(len(out))
    how = rng.randrange(4)
    if how == 0 and len(out[k]) > 1:
        out[k].pop(rng.randrange(len(out[k])))
    elif how == 1 and hand:
        out[k].append(rng.choice(list(hand)))
    elif how == 2:
        out[k].append(ALL_CARDS[rng.randrange(52)])
    else:
        j = rng.randrange(len(out))
        a, b = rng.randrange(len(out[k])), rng.randrange(len(out[j]))
        out[k][a], out[j][b] = out[j][b], out[k][a]
    return tuple(Meld.of(m) for m in out)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32),
    decks=st.integers(1, 4),
    ace=st.sampled_from(ACES),
    melds=st.integers(1, 14),
    hand_cards=st.integers(1, 22),
)
def test_the_core_referees_plays_as_the_validator_does(
    manipulation_core: ModuleType, seed: int, decks: int, ace: str, melds: int, hand_cards: int
) -> None:
    """Drawn plays, legal (the greedy play, the program's best play) and corrupted (mostly
    illegal): the core's referee answers exactly the validator's played cards, and leaves every
    illegal play (and only those) to the Python, which says why."""
    rules = ManipulationRules.from_dict({"decks": decks, "ace": ace})
    table, hand = draw_position(seed, rules, melds, hand_cards)
    rng = random.Random(seed)
    with native.pure():
        plays = [greedy_play(table, hand, rules), natural_play(table, hand, rules, budget=20_000)]
    tables = [t if isinstance(t, tuple) else t.table for t in plays if t is not None]
    tables += [corrupted(rng, tables[0], hand) for _ in range(6)] if tables[0] else []
    for new in tables:
        fast = engine_core.played_cards(table, new, hand, ace)
        assert fast == referee(table, new, hand, rules), ([str(m) for m in table], [str(m) for m in new], str(hand))


def test_the_referee_refuses_bad_input(manipulation_core: ModuleType) -> None:
    """Card indexes outside 0-51, too few counts, an unknown ace: a ValueError, never an abort; a
    joker in play stays with the Python."""
    hand = [0] * len(ALL_CARDS)
    bad: list[tuple[Any, ...]] = [
        ([[52]], [], hand, 0),
        ([], [[-1, 0, 1]], hand, 0),
        ([], [], hand[:3], 0),
        ([], [], hand, 7),
    ]
    for args in bad:
        with pytest.raises(ValueError):
            manipulation_core.check_play(*args)
    assert manipulation_core.check_play([], [[0, 1, 2]], hand, 0) is None  # three cards from nowhere
    assert engine_core.played_cards((), parse_table("5H JK=6H 7H"), Cards.parse("5H 7H JK"), "low") is None


def game_trace(rules: ManipulationRules, seed: int) -> list[tuple[str, ...]]:
    """Every position's legal actions (as text) of a seeded random game of two hands."""
    play._BEYOND.clear()  # each path answers for itself
    players = 4 if rules.deal * 4 <= len(rules.deck) else 3
    game = ManipulationGame(rules, players, seed, max_hands=2)
    rng = random.Random(seed)
    out: list[tuple[str, ...]] = []
    while not game.is_terminal():
        actions = game.legal_actions()
        out.append(tuple(map(str, actions)))
        game.apply(rng.choice(actions))
    return out


RULE_SETS = [
    *({"preset": p} for p in PRESETS),
    {"preset": "german", "ace": "high", "decks": 1},
    {"preset": "german", "ace": "both", "decks": 3},
    {"preset": "german", "decks": 4, "jokers": 2},
    {"preset": "norwegian", "decks": 2, "ace": "low"},
    {"preset": "rummikub", "jokers": 0, "ace": "both"},
]


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: "-".join(f"{v}" for v in o.values()))
def test_random_games_are_identical_action_by_action(manipulation_core: ModuleType, options: dict[str, Any]) -> None:
    """Seeded random games of every preset (and more rule sets): the same legal actions at every
    position on both paths, so the same games."""
    rules = ManipulationRules.from_dict(options)
    for seed in range(4):
        fast = game_trace(rules, seed)
        with native.pure():
            pure = game_trace(rules, seed)
        assert fast == pure, (options, seed)


def test_the_core_path_is_taken(manipulation_core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the core built, a german game asks the core for every opened player's position and
    seldom runs stage 3 in Python (play._natural_beyond: only where the listing needs the best
    play's table and the core was not asked for stage 3, the greedy play adding two cards or more);
    under ``pure()`` it does for every question the bound and the greedy play leave open."""
    calls = {"core": 0, "python": 0}
    real_core, real_beyond = engine_core.position_facts, play._natural_beyond

    def core(*args: Any) -> Any:
        found = real_core(*args)
        calls["core"] += found is not None
        return found

    def beyond(*args: Any) -> Any:
        calls["python"] += 1
        return real_beyond(*args)

    monkeypatch.setattr("solver.manipulation.game.position_facts", core)
    monkeypatch.setattr(play, "_natural_beyond", beyond)
    rules = ManipulationRules()
    game_trace(rules, 1)
    fast = dict(calls)
    assert fast["core"] > 50 and fast["python"] * 10 < fast["core"], fast
    with native.pure():
        game_trace(rules, 1)
    assert calls["core"] == fast["core"] and calls["python"] - fast["python"] > 5 * fast["python"], calls


@pytest.mark.parametrize(
    "melds",
    [
        [[0, 1]],  # two cards
        [[0, 1, 3]],  # a gap
        [[0, 13, 13]],  # a suit twice in a set
        [[0, 1, 14]],  # mixed suits
        [[52, 0, 1]],  # a joker
        [[-1, 0, 1]],  # a negative index
        [[*range(13), 0]],  # fourteen cards
        [[0, 13, 26, 39, 0]],  # a set of five
    ],
)
def test_meld_codes_refuses_what_is_no_natural_meld(manipulation_core: ModuleType, melds: list[list[int]]) -> None:
    with pytest.raises(ValueError):
        manipulation_core.meld_codes(melds, 0)


def test_meld_codes_knows_the_ace(manipulation_core: ModuleType) -> None:
    """A-2-3 is a run with the ace low or both, not high; Q-K-A with the ace high or both, not low."""
    low, top = [0, 1, 2], [11, 12, 0]
    assert manipulation_core.meld_codes([low], 0) and manipulation_core.meld_codes([low], 2)
    assert manipulation_core.meld_codes([top], 1) and manipulation_core.meld_codes([top], 2)
    for melds, ace in (([low], 1), ([top], 0), ([low], 3)):
        with pytest.raises(ValueError):
            manipulation_core.meld_codes(melds, ace)


def test_engine_position_refuses_bad_input(manipulation_core: ModuleType) -> None:
    """Each bad input is a ValueError (std::invalid_argument), never an abort."""
    codes = manipulation_core.meld_codes([[0, 1, 2]], 0)
    hand = [0] * len(ALL_CARDS)
    assert manipulation_core.engine_position(codes, hand, 0, 2, 2)[1] == 0
    joker = list(hand)
    joker[JOKER_INDEX] = 1
    negative = list(hand)
    negative[3] = -1
    bad: list[tuple[Any, ...]] = [
        ([-1], hand, 0, 2, 2),  # a code out of range
        ([1 << 40], hand, 0, 2, 2),
        ([1 | 1 << 3 | 2 << 7], hand, 0, 2, 2),  # a run of two
        ([15 << 5 | 13 << 1], hand, 0, 2, 2),  # a set of rank 13
        (codes, hand[:10], 0, 2, 2),  # too few counts
        (codes, joker, 0, 2, 2),  # a joker in the hand
        (codes, negative, 0, 2, 2),
        (codes, hand, 3, 2, 2),  # no such ace
        (codes, hand, 0, 5, 2),  # five decks
        (codes, hand, 0, 2, -1),
    ]
    for args in bad:
        with pytest.raises(ValueError):
            manipulation_core.engine_position(*args)


def test_a_refusal_becomes_the_library_error(manipulation_core: ModuleType) -> None:
    """What the core refuses past the Python's checks becomes a ShanghaiError; a table it cannot
    take (a joker on it) or a joker in the hand stays on the Python path (None)."""
    rules = ManipulationRules()
    table = parse_table("5H 6H 7H")
    with pytest.raises(ShanghaiError):
        engine_core.position_facts([-1], table, Cards.parse("8H"), rules)
    jokers = ManipulationRules(jokers=2)
    assert engine_core.table_codes(parse_table("5H JK=6H 7H"), "low") is None
    assert engine_core.position_facts([], (), Cards.parse("8H JK"), jokers) is None
    with native.pure():
        assert engine_core.table_codes(table, "low") is None
