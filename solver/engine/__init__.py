"""The engine: game states for the three games, AI players, hints, records and self-play.

A thin layer: game states own turn order and rule checks, and ask the
solver (:mod:`solver.manipulation`, :mod:`solver.contract`,
:mod:`solver.zsy`) for every decision that needs search.

>>> game = new_game("zsy", players=4, seed=7)
>>> game.current_player()
0
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from solver.engine.base import Game, GameRecord, Player, play_game
from solver.errors import IllegalActionError
from solver.rules import rules_for

__all__ = ["Game", "GameRecord", "Player", "new_game", "play_game", "replay", "GAME_NAMES"]

GAME_NAMES = ("manipulation", "contract", "zsy")


def new_game(
    game: str,
    rules: Mapping[str, Any] | Any = None,
    players: int = 4,
    seed: int = 0,
    **options: Any,
) -> Game:
    """A new seeded game: ``game`` is manipulation, contract or zsy; ``rules`` a rule set,
    or a mapping with a preset and overrides; ``options`` are engine options
    (``max_hands``, ``max_rounds``, ``turn_limit``, ``time_limit``)."""
    if game not in GAME_NAMES:
        raise IllegalActionError(f"unknown game {game!r} (known: {', '.join(GAME_NAMES)})")
    rule_set: Any = rules if rules is not None and not isinstance(rules, Mapping) else rules_for(game, rules or {})
    if game == "manipulation":
        from solver.manipulation.game import ManipulationGame

        return ManipulationGame(rule_set, players, seed, **options)
    if game == "contract":
        from solver.contract.game import ContractGame

        return ContractGame(rule_set, players, seed, **options)
    from solver.zsy.game import ZsyGame

    return ZsyGame(rule_set, players, seed, **options)


def replay(record: GameRecord, upto: int | None = None) -> Game:
    """Replay a record's actions from its seed (the first ``upto`` actions when given)."""
    game = new_game(record.game, record.rules, record.num_players, record.seed, **record.options)
    for i, text in enumerate(record.actions[:upto]):
        try:
            game.apply(game.parse_action(text))
        except IllegalActionError as exc:
            raise IllegalActionError(f"record action {i + 1} ({text!r}): {exc}") from None
    return game
