"""Issue 34: a player's reason is always true. The ismcts player in Contract Shanghai keeps its
default without searching (``WIDTH``): its reason says it is the default play, never "the only
legal action" among several, and "the only legal action" only when there is one."""

from __future__ import annotations

from typing import Any

from solver.engine import new_game
from solver.engine.hints import hint_for_game
from solver.engine.players import RandomPlayer


def test_an_unsearched_contract_decision_is_called_the_default_play() -> None:
    game: Any = new_game("contract", None, 4, 3, max_rounds=1)
    mover = RandomPlayer(4)
    kinds: set[str] = set()
    for _ in range(40):
        legal = game.legal_actions()
        decision = hint_for_game(game, "ismcts:5")
        assert game.is_legal(decision.action)
        if len(legal) > 1:
            assert "only legal action" not in decision.reason
            assert (
                decision.reason.startswith("the default play")
                and f"one of {len(legal)} legal actions" in decision.reason
            )
            kinds.add("take or call" if "offer" in decision.reason else "play")
        else:
            assert decision.reason == "the only legal action"
        game.apply(mover.choose(game))
        if game.is_terminal():
            break
    assert kinds == {"take or call", "play"}
