"""One solve for the score and least change against the two solves it replaced, on every kind.

Where CP-SAT answers the best score, ``best_play`` asks one model for the
score first and least change second (``W * score + least change``). The two
solves it replaced: the plain model's best score (phase 1), then the
least-change model with that score held. Both must prove the same best score
and the same least-change objective (kept melds, then cards staying home) on
positions of every kind the field benchmark spans, jokers and ace options
included; and ``best_play`` must report what the two solves prove.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from benchmarks.bench_manipulation_field import KINDS, Kind
from solver.cards import Cards
from solver.errors import Status
from solver.manipulation import best_play
from solver.manipulation.least_change import solve_least_change
from solver.manipulation.model import exact_instance, plain_instance, solve_play, template
from solver.melds import Meld
from solver.puzzles import ManipulationPosition, load
from solver.rules import ManipulationRules

ROOT = Path(__file__).resolve().parents[2]


def _two_solves(rules: ManipulationRules, table_cards: Cards, hand: Cards, old: Sequence[Meld]) -> tuple[int, int]:
    """(best score, least-change objective) by phase 1 then the score-fixed least-change solve."""
    t = template(rules.decks, rules.ace, rules.jokers, "cards")
    exact = rules.jokers >= 3
    first, _, _ = solve_play(t, table_cards, hand, 60, exact=exact)
    assert first.status is Status.OPTIMAL
    instance = exact_instance(t, table_cards, hand) if exact else plain_instance(t, table_cards, hand)
    second = solve_least_change(t, instance, first.score, old, rules, table_cards, 60)
    assert second is not None and second.least_change_status is Status.OPTIMAL
    return first.score, second.least_change_value


def _one_solve(rules: ManipulationRules, table_cards: Cards, hand: Cards, old: Sequence[Meld]) -> tuple[int, int]:
    """(best score, least-change objective) by the combined solve."""
    t = template(rules.decks, rules.ace, rules.jokers, "cards")
    exact = rules.jokers >= 3
    instance = exact_instance(t, table_cards, hand) if exact else plain_instance(t, table_cards, hand)
    both = solve_least_change(t, instance, None, old, rules, table_cards, 60)
    assert both is not None and both.status is Status.OPTIMAL
    return both.score, both.least_change_value


@pytest.mark.parametrize("kind", KINDS, ids=[k.name.split(",")[0] + f" {k.table}/{k.hand}" for k in KINDS])
def test_one_solve_proves_what_the_two_solves_prove(kind: Kind) -> None:
    for table, hand in kind.positions(3, 31):
        old = tuple(table)
        table_cards = Cards(c for m in old for c in m.cards)
        two = _two_solves(kind.rules, table_cards, hand, old)
        assert _one_solve(kind.rules, table_cards, hand, old) == two
        play = best_play(table, hand, kind.rules, time_limit=60)
        assert play.status is Status.OPTIMAL and play.least_change == "optimal"
        assert len(table_cards) + play.cards == two[0]


def test_one_solve_when_the_score_intervals_touch() -> None:
    """Every old meld's home has a single option here, so ``W`` is the least-change maximum plus
    one and the objective's intervals per score touch: they make one interval (CP-SAT rejects
    touching ones as an invalid model)."""
    puzzle = load(ROOT / "puzzles" / "manipulation" / "small-rummikub-2.toml")
    position, rules = puzzle.position, puzzle.rules
    assert isinstance(position, ManipulationPosition) and isinstance(rules, ManipulationRules)
    old, hand = tuple(position.table), position.hand
    table_cards = Cards(c for m in old for c in m.cards)
    assert _one_solve(rules, table_cards, hand, old) == _two_solves(rules, table_cards, hand, old)


def test_one_solve_counts_every_joker_staying_home() -> None:
    """Two old melds of two jokers and a natural: a home's jokers staying count up to two, so the
    score's weight must exceed the least-change objective with every variable at its upper bound
    (one more than the sum of the coefficients let keeping both melds beat playing the ace)."""
    rules = ManipulationRules(decks=1, jokers=4)
    old = (Meld.parse("JK JK 5S"), Meld.parse("JK JK 8S"))
    hand = Cards.parse("AS")
    table_cards = Cards(c for m in old for c in m.cards)
    assert _one_solve(rules, table_cards, hand, old) == _two_solves(rules, table_cards, hand, old)
    assert best_play(old, hand, rules).cards == 1
