"""The three games as PettingZoo ``AECEnv`` environments (the ``rl`` extra).

>>> from solver.envs import aec_env
>>> env = aec_env("zsy", seed=1)
>>> env.reset(seed=1)
>>> obs, reward, done, cut, info = env.last()
>>> env.agent_selection, obs["observation"].shape, int(obs["action_mask"].sum()) > 0
('player_0', (1346,), True)

Agents are ``player_0`` ... in seat order; the agent to act is the
engine's player to move. The action space is :mod:`solver.envs.actions`
(``Discrete(codec.size)``); the observation is a dict of ``observation``
(a ``Box`` of :func:`solver.envs.features.features`, float32) and
``action_mask`` (int8). Rewards (``reward=``): ``"game"`` (default) gives
each player their share of the win when the game ends (1 split among the
winners, as :meth:`Game.returns`); ``"hand"`` gives at the end of every hand
or round the hand's score change (negated in the penalty-point games, so
more is better). ``reset(seed=None)`` deals the next seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from solver.extras import missing

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as _exc:  # one line naming the extra (docs/envs.md), not the raw import error
    raise missing(_exc, "rl") from None

from solver.engine import new_game
from solver.engine.base import PenaltyGame
from solver.envs.actions import Turn, codec_for
from solver.envs.features import Observations, feature_size
from solver.envs.turn import check_table_fits
from solver.errors import IllegalActionError

__all__ = ["ShanghaiEnv"]


def _seats(opponents: Sequence[str | None] | None, players: int) -> list[str | None]:
    """Each seat's built-in player (None: an agent). ``opponents`` names the seats after the first
    (``players - 1`` names) or every seat (``players`` entries, None for each agent's seat)."""
    from solver.engine.players import make_player

    if opponents is None:
        return [None] * players
    kinds = list(opponents)
    if len(kinds) == players - 1:
        kinds = [None, *kinds]
    if len(kinds) != players:
        raise IllegalActionError(
            f"opponents: {players - 1} names (or {players} with None for agents), not {len(kinds)}"
        )
    for k in kinds:
        if k is not None:
            make_player(k)  # an unknown kind fails here, with one line
    if all(k is not None for k in kinds):
        raise IllegalActionError("opponents: leave at least one seat (None) to an agent")
    return kinds


class ShanghaiEnv(AECEnv):  # type: ignore[misc]
    """One of the three games as an agent-environment-cycle environment."""

    metadata: dict[str, Any]

    def __init__(
        self,
        game: str,
        rules: Any = None,
        players: int = 4,
        seed: int = 0,
        reward: str = "game",
        render_mode: str | None = None,
        opponents: Sequence[str | None] | None = None,
        legal_moves: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if reward not in ("game", "hand"):
            raise IllegalActionError(f"reward must be 'game' or 'hand', not {reward!r}")
        self.kinds = _seats(opponents, players)  # per seat: a built-in player's kind, or None (an agent)
        self.legal_moves = legal_moves
        self.game_name = game
        self.rules = rules
        self.players = players
        self.options = options
        self.reward_mode = reward
        self.render_mode = render_mode
        self.seed = seed
        self.turn = Turn(self._new_game(seed))
        self.metadata = {"render_modes": ["ansi"], "name": f"shanghai_{game}_v0", "is_parallelizable": False}
        self.possible_agents = [f"player_{i}" for i in range(players) if self.kinds[i] is None]
        size = codec_for(self.turn.game).size
        n_obs = feature_size(game)
        self.action_spaces: dict[str, Any] = {a: spaces.Discrete(size) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=-1e6, high=1e6, shape=(n_obs,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._resets = 0
        self._n_obs, self._n_actions = n_obs, size
        self._seat = {a: int(a.split("_")[1]) for a in self.possible_agents}
        self._agent_of = {i: a for a, i in self._seat.items()}
        self._views = Observations(game, players, self._zeros)

    def _new_game(self, seed: int) -> Any:
        """The engine game dealt from ``seed``. A Manipulation game's solver player (an opponent) searches
        with no time limit unless the ``time_limit`` option is given, so its moves, like the legal
        sets (which the game always asks with no limit: ``ManipulationGame.RULE_QUESTION_LIMIT``),
        are the same on any machine under any load."""
        game: Any = new_game(self.game_name, self.rules, self.players, seed, **self.options)
        check_table_fits(game)
        if self.game_name == "manipulation" and "time_limit" not in self.options:
            game.time_limit = math.inf
        return game

    def _zeros(self, size: int) -> Any:
        return np.zeros(size, dtype=np.float32)

    def observation_space(self, agent: str) -> Any:
        """The observation space (the same for every agent)."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The action space (the same for every agent)."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: dealt from ``seed``, else from the next seed after the last one."""
        del options
        if seed is None:
            seed = self.seed + self._resets
        else:
            self.seed = seed
            self._resets = 0
        self._resets += 1
        self.turn = Turn(self._new_game(seed))
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False  # self.rewards holds a reward that is not 0
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._views = Observations(self.game_name, self.players, self._zeros)
        self._epoch = self.turn.game._epoch()
        self._scores = self.turn.game.scores()
        from solver.engine.players import make_player

        self._bots = {i: make_player(k, seed * 1000 + i) for i, k in enumerate(self.kinds) if k is not None}
        self._opponents_move()
        game = self.turn.game
        if game.is_terminal():  # the bots played the whole game (possible only with no agent to move)
            self._finish(game)
        else:
            self.agent_selection = self._agent_of[game.current_player()]
        if self._rewarded:
            self._accumulate_rewards()
        self._note_moves()

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's observation and its action mask (all zeros when it is not to act).

        Each agent's features are kept up to date part by part (see
        :class:`~solver.envs.features.Observations`), the mask comes from the
        legal list the turn keeps per state; the arrays returned are the
        agent's to keep.
        """
        p = self._seat[agent]
        turn = self.turn
        obs = self._views.view(turn, p).copy()
        # a zeroed array set item by item (no list-to-array conversion; in the env's run of steps
        # cheaper than a bytearray viewed as int8, whose fresh buffer numpy then wraps)
        mask = np.zeros(self._n_actions, dtype=np.int8)
        if turn.game.current_player() == p:  # not when the game is over (-1)
            for i in turn.legal_cached():
                mask[i] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Carry out the selected agent's action (an index of the action space)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        if self._rewarded:  # the last step gave rewards: this one starts from zeros again
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._rewarded = False
        game = self.turn.game
        self.turn.apply(action)
        self._hand_rewards(game)
        if self._bots and not game.is_terminal():
            self._opponents_move()
        if game.is_terminal():
            self._finish(game)
        else:
            self.agent_selection = self._agent_of[game.current_player()]
        if self._rewarded:  # else every reward is 0: nothing to add up
            self._accumulate_rewards()
        self._note_moves()

    def _hand_rewards(self, game: Any) -> None:
        """With ``reward="hand"``: at the end of a hand or round, each agent's score change."""
        if self.reward_mode == "hand" and (game._epoch() != self._epoch or game.is_terminal()):
            scores = game.scores()
            sign = -1.0 if isinstance(game, PenaltyGame) else 1.0
            for a in self.agents:
                i = self._seat[a]
                self.rewards[a] = self.rewards.get(a, 0.0) + sign * float(scores[i] - self._scores[i])
            self._scores, self._epoch = scores, game._epoch()
            self._rewarded = True

    def _opponents_move(self) -> None:
        """The built-in players move until an agent is to act or the game ends."""
        game = self.turn.game
        while not game.is_terminal() and game.current_player() in self._bots:
            game.apply(self._bots[game.current_player()].choose(game))
            self._hand_rewards(game)

    def _finish(self, game: Any) -> None:
        if self.reward_mode == "game":
            returns = game.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self._seat[a]])
            self._rewarded = True
        self.terminations = dict.fromkeys(self.agents, True)

    def _note_moves(self) -> None:
        """With ``legal_moves=True``: the acting agent's info lists its legal indexes by name."""
        if self.legal_moves and not self.turn.game.is_terminal():
            name = self.turn.codec.name
            self.infos[self.agent_selection] = {"legal_moves": [name(i) for i in self.turn.legal_cached()]}

    def render(self) -> str | None:
        """The position as text (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        game = self.turn.game
        return f"{game.GAME} to move: {game.current_player()} {game.observation(max(game.current_player(), 0))}"

    def close(self) -> None:
        """Nothing to release."""
