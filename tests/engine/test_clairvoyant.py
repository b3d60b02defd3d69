"""The clairvoyant measure of ``benchmarks.clairvoyant``: exact play-outs, never worse than the solver.

The play-outs are exact only if the engine and the ``solver`` player are
deterministic for a seed: then a candidate whose play-out wins does win
when played, and the clairvoyant seat, which keeps the solver's choice
unless another candidate does better, never does worse than the same seat
played by ``solver`` on the same deal.
"""

from __future__ import annotations

import pytest

from benchmarks.clairvoyant import one_game


def test_the_clairvoyant_seat_never_does_worse_than_the_solver_on_the_same_deal() -> None:
    results = [one_game(seed, holdback=False) for seed in range(100, 104)]
    assert all(mine >= base for mine, base in results)


@pytest.mark.parametrize("seed", [127, 128, 150])
def test_a_play_out_that_wins_wins_when_played(seed: int) -> None:
    # deals of the 300-game run where the solver's seat loses and another listed play wins
    assert one_game(seed, holdback=False) == (1.0, 0.0)


def test_one_held_back_card_can_turn_a_lost_hand_into_a_win() -> None:
    # seed 104: no listed play wins; the best play holding back one card does (docs/engine.md)
    assert one_game(104, holdback=True) == (1.0, 0.0)
    assert one_game(104, holdback=False) == (0.0, 0.0)
