"""Jokers as role copies: exhaustive search with three or more jokers, the exact fallback,
and random positions of every size checked by the validator and by the exact model."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.manipulation.model as model
import solver.manipulation.play as stages
from benchmarks.positions import random_position
from solver.cards import Card, Cards, Rank, Suit
from solver.manipulation import all_best_plays, best_play, can_play, max_cards_playable
from solver.manipulation.assemble import assemble
from solver.manipulation.bound import card_weight
from solver.melds import Meld, meld_kinds, parse_table
from solver.rules import ManipulationRules
from tests.manipulation.test_manipulation import check_play
from tests.oracles.manip_brute import JOKER, best_by_brute_force

Position = tuple[tuple[Meld, ...], Cards, ManipulationRules]


@st.composite
def many_joker_positions(draw: st.DrawFn) -> Position:
    """Small positions with 3-5 jokers in the deck, some on the table, some in the hand."""
    rules = ManipulationRules(
        decks=draw(st.integers(1, 2)),
        ace=draw(st.sampled_from(["low", "high", "both"])),
        jokers=draw(st.integers(3, 5)),
    )
    left = dict(rules.deck.items())
    melds: list[Meld] = []
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            start, suit = draw(st.integers(1, 10)), draw(st.sampled_from(list(Suit)))
            cards = [Card(Rank(p), suit) for p in range(start, start + 3)]
        else:
            rank = Rank(draw(st.integers(1, 13)))
            cards = [
                Card(rank, s) for s in draw(st.lists(st.sampled_from(list(Suit)), min_size=3, max_size=3, unique=True))
            ]
        if any(left.get(c, 0) < cards.count(c) for c in cards):
            continue
        for c in cards:
            left[c] -= 1
        for k in range(min(draw(st.integers(0, 2)), left[JOKER])):
            left[cards[k]] += 1
            left[JOKER] -= 1
            cards[k] = JOKER
        meld = Meld.of(cards)
        if meld_kinds(meld, rules.meld_spec):
            melds.append(meld)
        else:  # pragma: no cover - three cards with at least one natural are always a meld
            continue
    hand: list[Card] = []
    naturals = [c for c, n in left.items() if n and not c.is_joker]
    for c in draw(st.lists(st.sampled_from(naturals), max_size=2)):
        if left[c]:
            left[c] -= 1
            hand.append(c)
    hand += [JOKER] * draw(st.integers(0, min(4, left[JOKER])))
    return tuple(melds), Cards(hand), rules


@settings(max_examples=70, deadline=None, suppress_health_check=list(HealthCheck))
@given(many_joker_positions(), st.sampled_from(["cards", "value"]))
def test_many_jokers_match_exhaustive_search(position: Position, objective: str) -> None:
    table, hand, rules = position
    best, plays = best_by_brute_force(table, hand, rules, objective)
    play = best_play(table, hand, rules, objective=objective)  # type: ignore[arg-type]
    check_play(table, hand, rules, play)
    assert (play.cards if objective == "cards" else play.value) == best
    if objective == "cards":
        assert max_cards_playable(table, hand, rules) == best
        assert can_play(table, hand, rules) == (best > 0)
        assert set(all_best_plays(table, hand, rules, limit=50)) == (set(plays) if best else set())


class _CountExact:
    """Wraps ``solve_play`` and counts the calls that ask for the exact joker model."""

    def __init__(self) -> None:
        self.calls = 0
        self.inner = model.solve_play

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += bool(kwargs.get("exact"))
        return self.inner(*args, **kwargs)


@pytest.mark.parametrize(
    ("table", "hand", "played"),
    [
        ("", "JK JK JK", ""),  # the bound: jokers alone make no meld
        ("", "JK JK JK 5H", "5H JK JK JK"),
        ("5H 6H 7H", "JK JK JK JK", "JK JK JK JK"),  # four jokers join the run
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH | 5S 5H 5D 5C", "JK JK JK", "JK JK JK"),  # every meld full
    ],
)
def test_melds_of_jokers_only(table: str, hand: str, played: str) -> None:
    rules = ManipulationRules(jokers=4)
    old, cards = parse_table(table), Cards.parse(hand)
    for least_change in (True, False):
        play = best_play(old, cards, rules, least_change=least_change)
        check_play(old, cards, rules, play)
        assert play.played == Cards.parse(played)
    assert max_cards_playable(old, cards, rules) == len(Cards.parse(played))


def test_assemble_moves_loose_jokers_or_gives_up() -> None:
    rules = ManipulationRules(jokers=4)
    five = Card.parse("5H")
    run = model.Piece("run", 1, 5, (five, Card.parse("6H"), Card.parse("7H")))
    loose = model.Piece("run", 2, 9, (None, None, None))
    melds = assemble([run, loose], rules)
    assert melds is not None and [str(m) for m in melds] == ["5H 6H 7H JK=8H JK=9H JK=10H"]
    full = model.Piece("set", -1, 0, (Card.parse("5S"), five, Card.parse("5D"), Card.parse("5C")), 5)
    assert assemble([full, loose], rules) is None  # a full set has no room: the exact model decides


def test_unrepairable_jokers_fall_back_to_the_exact_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the decoded table keeps jokers no meld has room for, the position is solved again
    with the exact refinement (simulated: the first assembly fails)."""
    counter = _CountExact()
    monkeypatch.setattr(stages, "solve_play", counter)
    real = assemble
    failed: list[bool] = []

    def first_fails(pieces: Any, rules: ManipulationRules) -> Any:
        if not failed:
            failed.append(True)
            return None
        return real(pieces, rules)

    monkeypatch.setattr(stages, "assemble", first_fails)
    rules = ManipulationRules(jokers=4)
    table = parse_table("3C 4C 5C | 8D 8S 8H")
    hand = Cards.parse("JK JK JK 10H 2S")
    play = best_play(table, hand, rules, least_change=False)
    check_play(table, hand, rules, play)
    assert counter.calls == 1 and play.status == "optimal"
    assert play.cards == best_by_brute_force(table, hand, rules)[0]


def _splits(run: str, longest: int) -> bool:
    """Whether a run (``N`` a natural, ``J`` a joker per position) is a chain of pieces of 3 up to
    ``longest`` positions that each keep a natural."""
    can = [True] + [False] * len(run)  # can[i]: the first i positions split
    for end in range(3, len(run) + 1):
        can[end] = any(can[start] and "N" in run[start:end] for start in range(max(0, end - longest), end - 2))
    return can[-1]


@pytest.mark.parametrize("jokers", range(7))
def test_the_exact_model_has_windows_long_enough_for_every_run(jokers: int) -> None:
    """Every run of 3-13 positions with a natural and at most ``jokers`` jokers is a chain of the
    exact model's pieces (each keeps a natural), and one position less would not do (from 3 jokers,
    where the exact model is used)."""
    longest = model.long_run_length(jokers)
    runs = [
        "".join(p)
        for n in range(3, 14)
        for p in itertools.product("NJ", repeat=n)
        if "N" in p and p.count("J") <= jokers
    ]
    assert all(_splits(run, longest) for run in runs)
    if jokers >= 3:
        assert not all(_splits(run, longest - 1) for run in runs)


def test_a_run_of_one_natural_and_five_jokers() -> None:
    """AD and five jokers make one run of six (JK JK JK from the hand): the exact model needs a
    window of six positions, since a chain of shorter pieces has one of jokers only. Found by
    hypothesis: the exact model's listing of best plays said JK JK."""
    rules = ManipulationRules(decks=1, jokers=5)
    table, hand = parse_table("JK JK AD"), Cards.parse("JK JK JK")
    assert all_best_plays(table, hand, rules) == (hand,)
    t = model.template(rules.decks, rules.ace, rules.jokers, "cards")
    on_table = Cards(c for m in table for c in m.cards)
    solved, _, _ = model.solve_play(t, on_table, hand, 10.0, exact=True)
    assert solved.played == hand
    melds = assemble(solved.pieces, rules)
    assert melds is not None and [str(m) for m in melds] == ["AD JK=2D JK=3D JK=4D JK=5D JK=6D"]


def test_random_positions_every_size() -> None:
    """Decks 1-4, every ace option, 0-8 jokers, tables up to 60 cards: every answer validates,
    least change keeps the score, and the exact joker model finds the same score."""
    checked = 0
    for seed in range(30):
        rng = random.Random(seed)
        rules = ManipulationRules(
            decks=rng.randint(1, 4), ace=rng.choice(["low", "high", "both"]), jokers=rng.choice([0, 1, 2, 3, 4, 6, 8])
        )
        table, hand = random_position(rules, min(rng.choice([0, 6, 15, 30, 60]), 40 * rules.decks), 10, seed)
        on_table = Cards(c for m in table for c in m.cards)
        for objective in ("cards", "value"):
            play = best_play(table, hand, rules, objective=objective)
            check_play(table, hand, rules, play)
            plain = best_play(table, hand, rules, objective=objective, least_change=False)
            check_play(table, hand, rules, plain)
            score = sum(card_weight(c, rules, objective) * n for c, n in play.played.items())
            assert score == sum(card_weight(c, rules, objective) * n for c, n in plain.played.items())
            exact, _, _ = model.solve_play(
                model.template(rules.decks, rules.ace, rules.jokers, objective), on_table, hand, 20, exact=True
            )
            assert score == sum(card_weight(c, rules, objective) * n for c, n in exact.played.items())
            assert play.status in ("optimal", "infeasible") and play.least_change == "optimal"
        checked += 1
    assert checked == 30


def test_four_decks_six_jokers_with_least_change() -> None:
    rules = ManipulationRules(decks=4, jokers=6)
    table, hand = random_position(rules, 150, 14, seed=3, table_jokers=3)
    play = best_play(table, hand, rules, time_limit=20)
    check_play(table, hand, rules, play)
    assert play.status == "optimal" and play.least_change == "optimal"
