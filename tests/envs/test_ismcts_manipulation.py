"""OpenSpiel's ``ISMCTSBot`` plays whole games of Manipulation Shanghai and of every preset (issue 36):
every decision resamples the information state (Manipulation: ``solver/envs/openspiel_exact.py``)."""

from __future__ import annotations

import pytest

from solver.extras import require

require("pyspiel", "openspiel")
require("numpy", "openspiel")
import solver.envs.openspiel  # noqa: E402,F401
from tests.envs.test_infostate import bot_games  # noqa: E402

# one deck, two players, three cards each: the smallest Manipulation game the rules allow; a game still
# runs to 400-650 steps (the stock is drawn out), 250-300 of them the bot's
SMALL = "python_shanghai_manipulation(preset=norwegian,deal=3,players=2)"


def _games(text: str, games: int) -> int:
    """:func:`~tests.envs.test_infostate.bot_games`, the other seat taking its lowest-numbered legal step
    (it selects cards and plays them when it can, else draws: a game ends sooner than under random steps)."""
    return bot_games(text, games, "lowest")


def test_ismcts_bot_plays_a_whole_manipulation_game() -> None:
    assert _games(SMALL, 1) >= 50


@pytest.mark.slow
def test_ismcts_bot_plays_ten_whole_manipulation_games() -> None:
    # about 20-30 s a game on the shared 2-core machine: run with -m slow (docs/envs.md)
    assert _games(SMALL, 10) >= 500


PRESETS = [
    *(f"python_shanghai_zsy(preset={p})" for p in ("individual", "pairs", "teams6")),
    *(
        f"python_shanghai_contract(preset={p},turn_limit=12)"
        for p in ("finnish", "us", "poker_deck", "jokers_and_twos", "no_wild_swap", "last_round_normal")
    ),
]


@pytest.mark.parametrize("text", PRESETS)
def test_ismcts_bot_plays_whole_games_of_every_zsy_and_contract_preset(text: str) -> None:
    # the registered presets of the other two games (their defaults: tests/envs/test_infostate.py)
    assert _games(text, 3) >= 3
