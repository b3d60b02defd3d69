"""One seat against built-in players: a single-agent Gymnasium env, and a vector of them (the ``rl`` extra).

>>> from solver.envs.single import gym_env
>>> env = gym_env("zsy", opponents=["greedy", "random", "random"])
>>> obs, info = env.reset(seed=3)
>>> obs["observation"].shape, obs["action_mask"].shape, info["legal_moves"][:2]
((1346,), (170,), ['select 5S', 'select 7S'])

The agent sits at ``seat`` (0); the other seats are built-in players
(``random``, ``greedy``, ``solver``, ``ismcts:...``, see
:func:`solver.engine.players.make_player`), who move inside ``step``. The
observation is the AEC env's (``observation`` and ``action_mask``); the
reward is the agent's (its share of the win at the end by default, or each
hand's score change with ``reward="hand"``); ``info["legal_moves"]`` names
the legal indexes and ``info["action_mask"]`` repeats the mask, as
Gymnasium's masked-action wrappers read it. An illegal index raises
:class:`~solver.errors.IllegalActionError`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from solver.extras import missing

try:
    import gymnasium
    import numpy as np
except ImportError as _exc:  # one line naming the extra, not the raw import error
    raise missing(_exc, "rl") from None

from solver.envs.pettingzoo import ShanghaiEnv
from solver.errors import IllegalActionError

__all__ = ["MaskedActions", "MaskedSpace", "ShanghaiGymEnv", "gym_env", "masked", "vector_env"]


class ShanghaiGymEnv(gymnasium.Env):  # type: ignore[type-arg, unused-ignore]  # generic in some gymnasium versions
    """One agent's seat of a game, the other seats played by built-in players."""

    def __init__(
        self,
        game: str,
        opponents: Sequence[str],
        seat: int = 0,
        rules: Any = None,
        seed: int = 0,
        reward: str = "game",
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        players = len(opponents) + 1
        if not 0 <= seat < players:
            raise IllegalActionError(f"seat must be 0..{players - 1}, not {seat}")
        kinds: list[str | None] = list(opponents)
        kinds.insert(seat, None)
        self.env = ShanghaiEnv(
            game,
            rules=rules,
            players=players,
            seed=seed,
            reward=reward,
            render_mode=render_mode,
            opponents=kinds,
            legal_moves=True,
            **options,
        )
        self.agent = f"player_{seat}"
        self.observation_space = self.env.observation_space(self.agent)
        self.action_space = self.env.action_space(self.agent)
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi"]}

    def _out(self) -> tuple[dict[str, Any], dict[str, Any]]:
        obs = self.env.observe(self.agent)
        info = dict(self.env.infos.get(self.agent, {}))
        if self.env.terminations[self.agent]:
            info = {"legal_moves": [], "returns": [float(r) for r in self.env.turn.game.returns()]}
        info["action_mask"] = obs["action_mask"]
        return obs, info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """A new game (dealt from ``seed``, else the next seed); the opponents move first if they sit first."""
        super().reset(seed=seed)
        self.env.reset(seed=seed, options=options)
        return self._out()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The agent's index; the opponents answer until it is the agent's turn again or the game ends."""
        if self.env.terminations[self.agent]:
            raise IllegalActionError("the game is over: reset() first")
        self.env.step(action)
        reward = float(self.env._cumulative_rewards[self.agent])
        self.env._cumulative_rewards[self.agent] = 0.0
        obs, info = self._out()
        return obs, reward, bool(self.env.terminations[self.agent]), False, info

    def render(self) -> str | None:  # type: ignore[override, unused-ignore]  # gymnasium 1.2 types it as frames
        """The position as text (``render_mode="ansi"``)."""
        out: str | None = self.env.render()
        return out


def gym_env(game: str, opponents: Sequence[str], **kwargs: Any) -> ShanghaiGymEnv:
    """A single-agent Gymnasium env: the agent against ``opponents`` (see :class:`ShanghaiGymEnv`)."""
    return ShanghaiGymEnv(game, opponents, **kwargs)


def vector_env(game: str, n: int, opponents: Sequence[str], seed: int = 0, **kwargs: Any) -> Any:
    """``n`` copies of :func:`gym_env` as a Gymnasium ``SyncVectorEnv`` (copy k dealt from seeds
    ``seed + k``, ...); it resets each copy when its game ends."""
    if n < 1:
        raise IllegalActionError(f"n must be at least 1, not {n}")

    def make(k: int) -> Any:
        return lambda: gym_env(game, opponents, seed=seed + 1_000_003 * k, **kwargs)

    return gymnasium.vector.SyncVectorEnv([make(k) for k in range(n)])


class MaskedSpace(gymnasium.spaces.Discrete):  # type: ignore[misc, unused-ignore]
    """A ``Discrete`` action space whose ``sample()`` draws among the legal indexes of its env's current
    position (``mask``: the env's last ``action_mask``; an explicit mask is honoured as Gymnasium's)."""

    def __init__(self, n: int, mask: Any, seed: int | None = None) -> None:
        super().__init__(n, seed=seed)
        self._mask = mask

    def sample(self, mask: Any = None, probability: Any = None) -> np.int64:  # type: ignore[override, unused-ignore]
        """A legal index now (uniform), or any index when none is legal (the game is over)."""
        if mask is None and probability is None:
            current = np.asarray(self._mask(), dtype=np.int8)
            if current.any():
                mask = current
        if probability is not None:
            return super().sample(probability=probability)  # type: ignore[no-any-return, unused-ignore]
        return super().sample(mask=mask)  # type: ignore[no-any-return, unused-ignore]


class MaskedActions(gymnasium.Wrapper):  # type: ignore[type-arg, misc, unused-ignore]
    """:class:`ShanghaiGymEnv` for tools that step an env with any index of its action space
    (Gymnasium's ``check_env``, which samples an action before it resets): ``action_space.sample()``
    gives a legal index of the current position (:class:`MaskedSpace`), a legal index is played as it
    is, and an illegal index ``a`` plays the legal index ``legal[a % len(legal)]`` (ascending), so
    every index is a move and the same index in the same position the same move. An agent that
    follows ``action_mask`` never meets the fallback."""

    def __init__(self, env: ShanghaiGymEnv) -> None:
        super().__init__(env)
        space: Any = env.action_space
        self._last: Any = np.zeros(int(space.n), np.int8)
        self.action_space = MaskedSpace(int(space.n), lambda: self._last)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        """The env's reset, its mask kept for ``action_space.sample()``."""
        obs, info = self.env.reset(seed=seed, options=options)
        self._last = obs["action_mask"]
        return obs, info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The env's step with ``action``, or with the legal index it stands for (the class docstring)."""
        legal = np.flatnonzero(self._last)
        if len(legal) and not (0 <= int(action) < len(self._last) and self._last[int(action)]):
            action = int(legal[int(action) % len(legal)])
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._last = obs["action_mask"]
        return obs, float(reward), bool(terminated), bool(truncated), info


def masked(env: ShanghaiGymEnv) -> MaskedActions:
    """``env`` whose action space samples legal indexes (:class:`MaskedActions`)."""
    return MaskedActions(env)


def masked_argmax(logits: Any, mask: Any) -> int:
    """The legal index with the highest logit (a helper for policies)."""
    return int(np.where(np.asarray(mask) > 0, np.asarray(logits, dtype=float), -np.inf).argmax())
