"""The exact resample (issue 36): the deals it draws, against an exhaustive enumeration of the deals
that fit (solver/envs/openspiel_exact.py)."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable, Sequence

import pytest

from solver.envs import openspiel_exact as exact

Key = tuple[int, ...]


def _enumerated(
    slots: Sequence[int], cards: Sequence[int], fits: Callable[[dict[int, int]], bool]
) -> tuple[dict[Key, float], float]:
    """The chance model conditioned on ``fits``: every permutation of the (labelled) cards over the
    slots equally likely, those that fit kept; the probability of each deal (cards by slot), and the
    share of the permutations that fit."""
    tally: Counter[Key] = Counter()
    perms = 0
    for perm in itertools.permutations(cards):
        perms += 1
        if fits(dict(zip(slots, perm))):
            tally[tuple(perm)] += 1
    total = sum(tally.values())
    return {k: n / total for k, n in tally.items()}, total / perms


def _drawn(
    slots: Sequence[int],
    cards: Sequence[int],
    checks: Sequence[set[int]],
    fits: exact.Fits,
    forbidden: Sequence[frozenset[int]],
    draws: int,
    seed: int,
) -> Counter[Key]:
    rng = random.Random(seed)
    out: Counter[Key] = Counter()
    for _ in range(draws):
        deal = exact.sample(slots, cards, checks, fits, rng, forbidden, budget=10**6)
        assert deal is not None
        out[tuple(deal[k] for k in slots)] += 1
    return out


def _assert_matches(target: dict[Key, float], got: Counter[Key]) -> None:
    """Every deal drawn fits, each deal's frequency is within five standard errors (and 0.01) of its
    probability, and Pearson's chi-square statistic is within five of its standard deviations
    (sqrt(2 df)) of its mean (df) for the uniform distribution over the deals that fit."""
    n = sum(got.values())
    assert set(got) <= set(target), "a deal that does not fit was drawn"
    for key, p in target.items():
        bound = 5 * (p * (1 - p) / n) ** 0.5 + 0.01
        assert abs(got[key] / n - p) <= bound, (key, got[key] / n, p)
    chi2 = sum((got[k] - n * p) ** 2 / (n * p) for k, p in target.items())
    df = len(target) - 1
    assert chi2 < df + 5 * (2 * df) ** 0.5, (chi2, df)


# two hands that could not play and compete for the same cards (two copies of card 1), and a stock:
# slot 0 was held at checks 0 and 1, slot 1 drawn between them (check 1 only), slot 2 another hand's
SLOTS = (10, 11, 12, 13, 14, 15)
CARDS = (1, 1, 2, 3, 4, 5)
CHECKS = ({10}, {10, 11}, {12})
FORBIDDEN = (frozenset({5}), frozenset({4}), frozenset({3, 4, 5}))


def _synthetic(deal: dict[int, int], changed: tuple[int, ...] = ()) -> bool:
    """Check 0: slot 0 holds no 5; check 1: neither holds a 4 nor a 5 and not a pair of 1s (a pair
    that forbids no single card); check 2: slot 2 holds a 1 or a 2."""
    ok = [
        deal[10] != 5,
        deal[10] not in (4, 5) and deal[11] != 4 and not (deal[10] == deal[11] == 1),
        deal[12] in (1, 2),
    ]
    return all(ok[n] for n, check in enumerate(CHECKS) if not changed or check & set(changed))


def test_blocks_join_the_slots_a_check_asks() -> None:
    assert exact.blocks(CHECKS, SLOTS) == [(10, 11), (12,)]
    assert exact.blocks([{1, 2}, {2, 3}, {7}, {5}], [1, 2, 3, 4, 5]) == [(1, 2, 3), (5,)]


@pytest.mark.parametrize("forbidden", [FORBIDDEN, ()])
def test_the_draws_follow_the_enumerated_distribution(forbidden: Sequence[frozenset[int]]) -> None:
    # with the narrowing hint and without it: the same distribution, the uniform one over the deals
    # that fit (two hands competing for the copies of card 1: a sampler that drew the second hand
    # from the cards the first left, or kept the first hand when they clash, would favour some deals)
    target, share = _enumerated(SLOTS, CARDS, _synthetic)
    assert 10 < len(target) < 200 and share < 0.25
    _assert_matches(target, _drawn(SLOTS, CARDS, CHECKS, _synthetic, forbidden, 20_000, 7))


def test_a_budget_too_small_gives_none() -> None:
    never = exact.sample(SLOTS, CARDS, CHECKS, lambda deal, changed: False, random.Random(1), budget=50)
    assert never is None


pyspiel = pytest.importorskip("pyspiel")


def test_the_resample_of_a_manipulation_position_follows_the_enumerated_distribution() -> None:
    # a real position of the default Manipulation rules, where other players drew (each draw says the
    # hand could not play): a few hidden slots of one hand and of the stock dealt anew among
    # themselves (the other hidden cards kept), drawn by the sampler with the game's own judge and
    # compared with the enumeration of every permutation the judge accepts
    import solver.envs.openspiel  # noqa: F401
    from solver.envs.openspiel_resample import Judge, _hidden
    from tests.envs.test_openspiel import played

    game = pyspiel.load_game("python_shanghai_manipulation")
    for seed in range(40):
        state = played(game, seed, 260)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        judge = Judge(state, player)
        group = _hidden(state, player)[0]
        truth = {k: state.log[k][1] for k in group}
        parts = exact.blocks(judge.slots, group)
        if not parts or len(parts[0]) < 3:
            continue
        free = [k for k in group if not any(k in b for b in parts)]
        slots = [*parts[0][-3:], *free[:3]]
        cards = [truth[k] for k in slots]

        def fits(deal: dict[int, int], changed: tuple[int, ...] = ()) -> bool:
            return judge({**truth, **deal}, changed)  # noqa: B023

        target, share = _enumerated(slots, cards, fits)
        if not 0.05 < share < 0.9:
            continue
        _assert_matches(target, _drawn(slots, cards, judge.slots, fits, judge.forbidden, 3000, seed))
        return
    pytest.fail("no position with a constrained hand")
