"""The three games registered with OpenSpiel (the ``openspiel`` extra).

``import solver.envs.openspiel`` registers ``python_shanghai_manipulation``,
``python_shanghai_contract`` and ``python_shanghai_zsy``; then
``pyspiel.load_game("python_shanghai_zsy")`` works, with parameters
``players`` (0: 4, or the count the preset's rules take, 6 for
``teams6``), ``preset`` ("" for the default rules), ``hands`` (1: how
many hands, or Contract rounds, one OpenSpiel game lasts) and, for
Contract Shanghai, ``turn_limit`` (1000: the engine's guard that ends a
round in which no one goes out).

>>> import pyspiel
>>> import solver.envs.openspiel
>>> game = pyspiel.load_game("python_shanghai_zsy")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 256)
>>> for byte in (7, 0, 0, 0):
...     state.apply_action(byte)
>>> state.current_player(), state.legal_actions()[:2]
(0, [2, 4])

Imperfect information, sequential. The deal is ``SEED_BYTES`` (4) chance
nodes of 256 outcomes each, uniform: the bytes of the engine seed (little
end first), so a game is dealt from one of 2^32 seeds and no first hand
names its deal; every later shuffle (next hand, Contract's reshuffled
stock) follows from that seed, so the game has no other chance node. Actions are the finite action space of
:mod:`solver.envs.actions`. The information state string is the player's
view (the engine's observation, the selection in progress) and the history
of public actions (every engine action string is public: a draw is "draw",
never the card); the tensor is :func:`solver.envs.features.features`.
``resample_from_infostate`` deals the hidden cards anew
(:meth:`solver.engine.base.Game.resample`), which OpenSpiel's ISMCTS uses.
Returns: each player's share of the win (as :meth:`Game.returns`), so the
utilities sum to 1.
"""

from __future__ import annotations

import functools
import json
import random
from dataclasses import dataclass
from typing import Any

from solver.envs import missing

try:
    import numpy as np
    import pyspiel
except ImportError as _exc:  # one line naming the extra (docs/envs.md), not the raw import error
    raise missing(_exc, "openspiel") from None

from solver.engine import new_game
from solver.envs.actions import Turn, codec_for
from solver.envs.features import feature_size, features
from solver.errors import IllegalActionError
from solver.rules import rules_for

__all__ = ["DEALS", "GAMES", "SEED_BYTES", "ShanghaiGame", "ShanghaiState"]

SEED_BYTES = 4
DEALS = 256**SEED_BYTES  # seeds a game is dealt from (each chance node is one byte of it)
GAMES = ("manipulation", "contract", "zsy")
_MAX_PLAYERS = {"manipulation": 5, "contract": 6, "zsy": 8}
_MIN_PLAYERS = {"manipulation": 3, "contract": 3, "zsy": 4}
_MAX_LENGTH = 1_000_000


_BYTES = [(b, 1.0 / 256) for b in range(256)]


def _game_type(name: str) -> Any:
    return pyspiel.GameType(
        short_name=f"python_shanghai_{name}",
        long_name=f"Python Shanghai {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS[name],
        min_num_players=_MIN_PLAYERS[name],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 0, "preset": "", "hands": 1, "turn_limit": 1000},
    )


@dataclass(frozen=True)
class _Params:
    """A game's parameters (what a state keeps of its game: cheap to copy)."""

    name: str
    players: int
    preset: str
    hands: int
    turn_limit: int

    def engine_game(self, seed: int) -> Any:
        """The engine game dealt from ``seed``."""
        rules = _rules(self.name, self.preset)
        if self.name == "contract":
            return new_game(self.name, rules, self.players, seed, max_rounds=self.hands, turn_limit=self.turn_limit)
        return new_game(self.name, rules, self.players, seed, max_hands=self.hands)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Params:
        del memo
        return self


@functools.cache
def _rules(name: str, preset: str) -> Any:
    return rules_for(name, {"preset": preset} if preset else {})


class ShanghaiGame(pyspiel.Game):  # type: ignore[misc]
    """One of the three games as an OpenSpiel game."""

    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        self.preset = str(params.get("preset", ""))
        # ``players`` 0 (the default): 4, or the nearest count the preset's rules take (teams6: 6)
        rules = _rules(self.NAME, self.preset)
        low, high = getattr(rules, "min_players", 1), getattr(rules, "max_players", 8)
        self.players = int(params.get("players", 0)) or min(max(4, low), high)
        self.hands = int(params.get("hands", 1))
        self.params = _Params(self.NAME, self.players, self.preset, self.hands, int(params.get("turn_limit", 1000)))
        self.params.engine_game(0)  # bad parameters fail here, with one clear line
        info = pyspiel.GameInfo(
            num_distinct_actions=codec_for(self.NAME).size,
            max_chance_outcomes=256,
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=_MAX_LENGTH,
        )
        super().__init__(_game_type(self.NAME), info, params)

    def new_initial_state(self) -> ShanghaiState:
        """The state before the deal (a chance node)."""
        return ShanghaiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """The observer of information states and observations."""
        perfect_recall = iig_obs_type is None or iig_obs_type.perfect_recall
        return Observer(feature_size(self.NAME), perfect_recall)


class ShanghaiState(pyspiel.State):  # type: ignore[misc]
    """A state: the deal (chance), then the engine game with the selection in progress."""

    def __init__(self, game: ShanghaiGame) -> None:
        super().__init__(game)
        self.params: _Params = game.params
        self.turn: Turn | None = None
        self.seed_bytes: tuple[int, ...] = ()  # the deal's chance outcomes so far

    def current_player(self) -> int:
        """The player to act, CHANCE before the deal, TERMINAL at the end."""
        if self.turn is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.turn.game.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.turn.game.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        assert self.turn is not None and player == self.turn.game.current_player()
        return self.turn.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next byte of the deal's seed, uniformly."""
        return _BYTES

    def _apply_action(self, action: int) -> None:
        if self.turn is None:
            if not 0 <= action < 256:
                raise IllegalActionError(f"a deal byte is 0..255, not {action}")
            self.seed_bytes = (*self.seed_bytes, int(action))
            if len(self.seed_bytes) == SEED_BYTES:
                seed = int.from_bytes(bytes(self.seed_bytes), "little")
                self.turn = Turn(self.params.engine_game(seed))
            return
        self.turn.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal byte {action}"
        return codec_for(self.params.name).name(action)

    def is_terminal(self) -> bool:
        """True when the engine game is over."""
        return self.turn is not None and self.turn.game.is_terminal()

    def returns(self) -> list[float]:
        """Each player's share of the win at the end, 0 before."""
        if self.turn is None or not self.turn.game.is_terminal():
            return [0.0] * self.params.players
        return [float(r) for r in self.turn.game.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ShanghaiState:
        """A state with the same information state for ``player_id``, the hidden cards dealt anew."""
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.getrandbits(31)
        new: ShanghaiState = self.clone()
        if self.turn is not None and new.turn is not None:
            new.turn.game = self.turn.game.resample(player_id, random.Random(seed))
        return new

    def __str__(self) -> str:
        if self.turn is None:
            return "before the deal"
        game = self.turn.game
        return json.dumps({"to_move": game.current_player(), "history": [str(a) for a in game.history][-20:]})


class Observer:
    """Information-state and observation strings and tensors for one player."""

    def __init__(self, size: int, perfect_recall: bool) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"features": self.tensor}
        self.perfect_recall = perfect_recall

    def set_from(self, state: ShanghaiState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state``."""
        self.tensor.fill(0)
        if state.turn is not None:
            self.tensor[:] = features(state.turn, player)

    def string_from(self, state: ShanghaiState, player: int) -> str:
        """``player``'s view as text (with the public history when perfect recall is asked)."""
        if state.turn is None:
            return f"p{player} before the deal"
        game = state.turn.game
        view = game.observation(player)
        if game.current_player() == player:
            view["selection"] = str(state.turn.selection)
            view["stage"] = str(state.turn.stage)
            view["cancels"] = state.turn.cancels
        if self.perfect_recall:
            view["history"] = state.turn.history_strings()
        return json.dumps(view, sort_keys=True)


def _register() -> None:
    for name in GAMES:
        cls = type(f"Shanghai{name.title()}Game", (ShanghaiGame,), {"NAME": name})
        pyspiel.register_game(_game_type(name), cls)


_register()
