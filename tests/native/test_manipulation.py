"""Manipulation Shanghai's compiled core against the pure-Python oracle: exact agreement.

The dynamic program of :mod:`solver.manipulation.natural` runs in C++ when
the core is built (``natural._best`` dispatches); the pure path
(``with native.pure():``) is the oracle. They must agree exactly: the same
count, the same path (so the same table), the same give-up past the same
budget, on drawn stage counts (1-4 decks, every ace option, budgets from
tiny to generous), on positions from random games (jokers included), and
action by action over whole seeded games of every preset.
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.manipulation.natural as natural
import solver.manipulation.natural_states as natural_states
import solver.manipulation.play as play
from solver import native
from solver.cards import Cards
from solver.engine.players import RandomPlayer
from solver.errors import ShanghaiError
from solver.manipulation.game import ManipulationGame
from solver.manipulation.natural import natural_play
from solver.melds import parse_table
from solver.ranks import N_NATURAL
from solver.rules import ManipulationRules
from tests.strategies import manipulation_rules

ACES = ("low", "high", "both")
Outcome = tuple[str, Any]


def draw_counts(seed: int, decks: int, ace: str, melds: int, hand_cards: int) -> tuple[list[int], list[int]]:
    """Table and bound counts of the 52 natural cards (at most ``decks`` copies of a card in all): a
    table of up to ``melds`` random runs and sets, and hand cards, half of them beside the table's."""
    rng = random.Random(seed)
    tc, bc = [0] * N_NATURAL, [0] * N_NATURAL
    lo, hi = (1, 13) if ace == "low" else (2, 14) if ace == "high" else (1, 14)
    for _ in range(melds):
        if rng.random() < 0.6:  # a run of 3-5 cards of one suit
            length = rng.randint(3, 5)
            start = rng.randint(lo, hi - length + 1)
            suit = rng.randrange(4)
            cards = [13 * suit + (0 if q == 14 else q - 1) for q in range(start, start + length)]
        else:  # a set of 3-4 suits
            rank = rng.randrange(13)
            cards = [13 * s + rank for s in rng.sample(range(4), rng.randint(3, 4))]
        if all(tc[i] < decks for i in cards):
            for i in cards:
                tc[i] += 1
    for _ in range(hand_cards):
        if rng.random() < 0.5:  # beside a table card: same rank or a neighbour
            near = rng.choice([i for i in range(N_NATURAL) if tc[i]] or [0])
            i = rng.choice([(near + 13 * rng.randrange(4)) % N_NATURAL, near - near % 13 + (near + 1) % 13])
        else:
            i = rng.randrange(N_NATURAL)
        if tc[i] + bc[i] < decks:
            bc[i] += 1
    return tc, bc


Counts = list[int]


def program(tc: Counts, bc: Counts, ace: str, budget: int, target: int) -> Outcome:
    """``natural._program`` (stages, program, melds) on whichever path is active, its give-up a value."""
    try:
        return "found", natural._program(tc, bc, ace, budget, target)
    except natural_states._OutOfBudget:
        return "out of budget", None


def both_paths(tc: Counts, bc: Counts, ace: str, budget: int, target: int) -> tuple[Outcome, Outcome]:
    with native.pure():
        pure = program(tc, bc, ace, budget, target)
    return program(tc, bc, ace, budget, target), pure


def packed(option: Any) -> int:
    """A Python option packed as the core packs it (natural_best's path)."""
    used, g, codes, c3, started = option
    return int(used | g << 3 | natural_states._CODE_ID[codes] << 6 | c3 << 12 | started << 15)


@settings(max_examples=1_000, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32),
    decks=st.integers(1, 4),
    ace=st.sampled_from(ACES),
    melds=st.integers(0, 14),
    hand_cards=st.integers(1, 25),
    budget=st.sampled_from([0, 60, 400, natural.DP_BUDGET, 20_000, 200_000]),
    target=st.integers(1, 4),
)
def test_the_program_agrees_on_drawn_counts(
    manipulation_core: ModuleType,
    seed: int,
    decks: int,
    ace: str,
    melds: int,
    hand_cards: int,
    budget: int,
    target: int,
) -> None:
    """Tables of random melds with random hands, every ace option, 1-4 decks, budgets from none to
    generous, several targets: the same melds (so the same path) and give-up."""
    tc, bc = draw_counts(seed, decks, ace, melds, hand_cards)
    fast, pure = both_paths(tc, bc, ace, budget, target)
    assert fast == pure


def pure_work(stages: list[Any], budget: int, target: int) -> tuple[Any, int]:
    """The Python program's answer (or "out of budget") and the steps it counted."""
    program = natural._Program(stages, budget)
    try:
        return program.best(target), program.work
    except natural_states._OutOfBudget:
        return "out of budget", program.work


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**32),
    decks=st.integers(1, 4),
    ace=st.sampled_from(ACES),
    melds=st.integers(0, 14),
    hand_cards=st.integers(1, 25),
    target=st.integers(1, 4),
)
def test_the_work_and_the_budget_are_the_same(
    manipulation_core: ModuleType, seed: int, decks: int, ace: str, melds: int, hand_cards: int, target: int
) -> None:
    """The core counts the very steps the Python counts: the same count with no limit, and at the
    limit (a budget of that count it finishes, one less it gives up, as the Python does); the
    program alone (natural_best) returns the same path, option by option."""
    tc, bc = draw_counts(seed, decks, ace, melds, hand_cards)
    stages = natural_states._stages(tc, bc, ace)
    answer, work = pure_work(stages, 1 << 40, target)
    status, value, path, steps = manipulation_core.natural_best(stages, 1 << 40, target)
    assert steps == work and manipulation_core.natural_program(tc, bc, ACES.index(ace), 1 << 40, target)[3] == work
    assert (status, value, path) == ((1, answer[0], [packed(o) for o in answer[1]]) if answer else (0, 0, []))
    for budget in (work, work - 1, work // 2):
        pure, pure_steps = pure_work(stages, budget, target)
        status, _, _, steps = manipulation_core.natural_best(stages, budget, target)
        assert (status == -1) == (pure == "out of budget") and steps == pure_steps, (budget, work)
        status, _, _, steps = manipulation_core.natural_program(tc, bc, ACES.index(ace), budget, target)
        assert (status == -1) == (pure == "out of budget") and steps == pure_steps, (budget, work)
    assert not work or pure_work(stages, work - 1, target)[0] == "out of budget"  # the limit is exact


def test_the_program_agrees_on_a_sweep_with_every_outcome(manipulation_core: ModuleType) -> None:
    """A fixed sweep that holds every outcome (a path, none, out of budget) under every ace option."""
    seen: dict[tuple[str, str], int] = {}
    rng = random.Random(35)
    for i in range(240):
        ace, decks = ACES[i % 3], 1 + (i // 3) % 4
        tc, bc = draw_counts(rng.randrange(2**32), decks, ace, rng.randrange(1, 12), rng.randrange(1, 20))
        budget = rng.choice([300, natural.DP_BUDGET, 20_000])
        fast, pure = both_paths(tc, bc, ace, budget, rng.randrange(1, 6))
        assert fast == pure, (ace, decks, tc, bc, budget)
        kind = "none" if fast == ("found", None) else fast[0]
        seen[ace, kind] = seen.get((ace, kind), 0) + 1
    for ace in ACES:
        for kind in ("found", "none", "out of budget"):
            assert seen.get((ace, kind), 0) >= 3, seen


def test_the_native_path_is_taken(manipulation_core: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    """The differential tests compare two paths: with the core built, natural_play never runs the
    Python program (and under ``pure()`` it does)."""
    calls = {"python": 0}
    real = natural._Program.best

    def counted(self: natural._Program, target: int) -> Any:
        calls["python"] += 1
        return real(self, target)

    monkeypatch.setattr(natural._Program, "best", counted)
    table = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
    rules = ManipulationRules.preset("norwegian")
    found = natural_play(table, Cards.parse("6S KD"), rules)
    assert found is not None and str(found.played) == "6S" and calls["python"] == 0
    with native.pure():
        assert natural_play(table, Cards.parse("6S KD"), rules) == found
    assert calls["python"] == 1


def game_hands(rules: ManipulationRules, seed: int, moves: int) -> tuple[ManipulationGame, list[Cards]]:
    game = ManipulationGame(rules, 4, seed, max_hands=1)
    players = [RandomPlayer(seed + p) for p in range(4)]
    for _ in range(moves):
        if game.is_terminal():
            break
        game.apply(players[game.current_player()].choose(game))
    return game, list(game.hands)


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    manipulation_rules.map(lambda r: ManipulationRules.from_dict({**r.to_dict(), "max_players": 8})),
    st.integers(0, 10_000),
    st.integers(5, 60),
)
def test_natural_play_agrees_on_game_positions(
    manipulation_core: ModuleType, rules: ManipulationRules, seed: int, moves: int
) -> None:
    """Every hand of a random game part way (1-4 decks, every ace option, jokers), several targets and
    budgets: the very same NaturalPlay (or None)."""
    game, hands = game_hands(rules, seed, moves)
    for hand in hands:
        for at_least, budget in ((1, natural.DP_BUDGET), (2, 20_000), (4, 300)):
            fast = natural_play(game.table, hand, rules, at_least=at_least, budget=budget)
            with native.pure():
                pure = natural_play(game.table, hand, rules, at_least=at_least, budget=budget)
            assert fast == pure


def random_game(rules: ManipulationRules, seed: int) -> list[str]:
    """The actions of a seeded random game, as the engine benchmark plays it."""
    play._BEYOND.clear()  # the stage-3 memo: each path answers for itself
    rng = random.Random(seed)
    game = ManipulationGame(rules, 4, seed, max_hands=1)
    actions: list[str] = []
    while not game.is_terminal():
        action = rng.choice(game.legal_actions())
        actions.append(str(action))
        game.apply(action)
    return actions


@pytest.mark.parametrize("preset", sorted(ManipulationRules.PRESETS))
def test_random_games_are_identical_action_by_action(manipulation_core: ModuleType, preset: str) -> None:
    """Seeded random games of every preset (and the ace and deck options): the same actions, one by one."""
    variants = [ManipulationRules.preset(preset)]
    if preset == "german":
        variants += [
            ManipulationRules(ace="high", decks=1),
            ManipulationRules(ace="both", decks=3, max_players=8),
            ManipulationRules(decks=4, max_players=8, jokers=2),
        ]
    for rules in variants:
        for seed in range(12):
            fast = random_game(rules, seed)
            with native.pure():
                pure = random_game(rules, seed)
            assert fast == pure


def test_bad_input_is_a_typed_error(manipulation_core: ModuleType) -> None:
    """The core checks what crosses again: a bad input is a ValueError there (a ShanghaiError through
    ``natural._program``), never a crash."""
    empty, one = [0] * N_NATURAL, [1] + [0] * (N_NATURAL - 1)
    good = natural_states._stages(empty, one, "low")
    assert manipulation_core.natural_best(good, 100, 1)[0] == 0
    assert manipulation_core.natural_program(empty, one, 0, 100, 1)[0] == 0
    bad_stages = [
        [(0, 0, 5, 0, 0, 0, 0)],  # five copies: no room in the state
        [(1, 0, 1, 0, 0, 0, 0)],  # not suit by suit
        [(0, 0, 1, 2, 0, 0, 0)],  # more on the table than there are copies
        [(0, 0, 1, 0, 3, 0, 0)],  # no such ace column
        [(0, -1, 1, 0, 0, 0, 0)],
        [(0, 0, 1, 0, 0, 99, 0)],
        [tuple(good[k]) for k in range(len(good))] * 2,  # too many stages
    ]
    for stages in bad_stages:
        with pytest.raises(ValueError):
            manipulation_core.natural_best(stages, 100, 1)
    bad_counts = [
        (empty[:51], one, 0),  # not 52 counts
        (empty, [*one, 0], 0),
        (empty, one, 3),  # no such ace option
        (empty, [5, *empty[1:]], 0),  # five copies
        (one, [4, *empty[1:]], 0),
        (empty, [-1, *empty[1:]], 0),
    ]
    for tc, bc, ace in bad_counts:
        with pytest.raises(ValueError):
            manipulation_core.natural_program(tc, bc, ace, 100, 1)
    with pytest.raises(ShanghaiError):  # negative counts pass the Python check and the core refuses them
        natural._program([-1, *empty[1:]], one, "low", 100, 1)
    with pytest.raises(TypeError):  # not ints: pybind11 refuses the call
        manipulation_core.natural_best([("a", 0, 0, 0, 0, 0, 0)], 100, 1)


def test_more_copies_than_the_core_holds_stay_pure(
    manipulation_core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counts past four copies (never from a valid game) are not sent to the core: the Python program
    answers them, as it did before the core."""
    sent: list[int] = []
    monkeypatch.setattr(natural, "core", lambda name: _Spy(manipulation_core, sent))
    empty = [0] * N_NATURAL
    assert natural._program(empty, [4, 4, 4, *empty[3:]], "low", 1_000, 1) is not None and len(sent) == 1
    with pytest.raises(KeyError):  # the Python program's own limit (no state for five open runs)
        natural._program(empty, [5, 5, 5, *empty[3:]], "low", 1_000, 1)
    assert len(sent) == 1


class _Spy:
    """The core, counting the calls that reach it."""

    def __init__(self, core: ModuleType, sent: list[int]) -> None:
        self.core, self.sent = core, sent

    def natural_program(self, *args: Any) -> Any:
        self.sent.append(1)
        return self.core.natural_program(*args)
