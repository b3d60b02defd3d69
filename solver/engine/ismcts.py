"""``ismcts``: information-set Monte Carlo tree search over resampled deals.

Each simulation deals the cards hidden from the searching player anew
(:meth:`solver.engine.base.Game.resample`), walks one tree shared by all
deals (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012), whose
edges are actions by their text form, choosing by UCB with availability
counts (an action unavailable in a deal does not count as tried), expands
one action, then plays on with the rollout policy (``greedy`` by default,
``random`` or ``solver``) for at most ``depth`` actions or to the end of the
hand. A position is scored for every player by rank, in [0, 1]: by the
hand's score change once the hand is over, else by what each player holds
(cards in Manipulation Shanghai and Zheng Shang You, penalty points in
Contract Shanghai). The action played most often at the root is chosen.

The candidates at the root are the legal actions plus the solver player's
choice (in Manipulation Shanghai a rearrangement the listed actions lack).
The search improves on the solver rather than replacing it: the solver's
choice counts ``prior`` (a quarter) of the simulations as extra visits when
the most visited action is picked. The budget is simulations (an int) or
seconds (a float) per decision.

>>> from solver.engine import new_game
>>> game = new_game("zsy", seed=4, max_hands=1)
>>> action = IsmctsPlayer(seed=1, budget=8).choose(game)
>>> game.is_legal(action)
True
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from solver.engine.base import Decision, Game, PenaltyGame
from solver.errors import IllegalActionError

__all__ = ["IsmctsPlayer", "parse_kind"]


class _Node:
    __slots__ = ("avail", "children", "n", "w")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.avail: dict[str, int] = {}
        self.n = 0
        self.w = 0.0


def _cost(game: Any, q: int) -> float:
    """What player ``q`` holds, as the hand's score would count it (lower is better)."""
    hand = game.hands[q]
    if game.GAME == "contract":
        return float(sum(game.rules.points(c) for c in hand))
    if game.GAME == "zsy" and q in game.places:
        return -float(game.num_players - game.places.index(q))
    return float(len(hand))


def values(game: Game, start_scores: list[int], start_epoch: int) -> list[float]:
    """Every player's result in [0, 1] by rank (ties share): the hand's score change, or the holdings."""
    n = game.num_players
    if game.is_terminal() or game._epoch() != start_epoch:
        deltas = [s - s0 for s, s0 in zip(game.scores(), start_scores)]
        good = [-float(d) for d in deltas] if isinstance(game, PenaltyGame) else [float(d) for d in deltas]
    else:
        good = [-_cost(game, q) for q in range(n)]
    out = []
    for q in range(n):
        below = sum(1 for r in range(n) if good[r] < good[q])
        ties = sum(1 for r in range(n) if good[r] == good[q]) - 1
        out.append((below + 0.5 * ties) / (n - 1))
    return out


class IsmctsPlayer:
    """Information-set MCTS (see the module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        budget: float | int = 0.2,
        rollout: str = "greedy",
        depth: int = 40,
        c: float = 0.7,
        prior: float = 0.25,
    ) -> None:
        if isinstance(budget, bool) or budget <= 0:
            raise IllegalActionError(f"ismcts budget must be a positive number of simulations or seconds, not {budget}")
        if rollout not in ("greedy", "random", "solver"):
            raise IllegalActionError(f"ismcts rollout must be greedy, random or solver, not {rollout!r}")
        self.rng = random.Random(seed)
        self.budget = budget
        self.rollout = rollout
        self.depth = depth
        self.c = c
        self.prior = prior
        self.simulations = 0

    def choose(self, game: Game) -> Any:
        """The action searched best."""
        return self.decide(game).action

    def decide(self, game: Game) -> Decision:
        """The action searched best, with its visit share and the simulations run."""
        me = game.current_player()
        candidates, favourite = self._candidates(game)
        if len(candidates) == 1:
            return Decision(candidates[0], "the only legal action", {"simulations": 0})
        root = _Node()
        by_key = {str(a): a for a in candidates}
        start = time.perf_counter()
        sims = 0
        while sims < 1 or not self._spent(sims, start):
            self._simulate(game, me, root, by_key)
            sims += 1
        self.simulations = sims
        bonus = self.prior * sims

        def rank(kv: tuple[str, _Node]) -> tuple[float, float]:
            return (kv[1].n + (bonus if kv[0] == favourite else 0.0), kv[1].w)

        key, child = max(root.children.items(), key=rank)
        share = child.n / sims
        return Decision(
            by_key[key],
            f"searched {sims} deals: played in {share:.0%} of them, mean result {child.w / max(child.n, 1):.2f}",
            {"simulations": sims, "visits": child.n, "mean": round(child.w / max(child.n, 1), 3)},
        )

    def _spent(self, sims: int, start: float) -> bool:
        if isinstance(self.budget, int):
            return sims >= self.budget
        return time.perf_counter() - start >= self.budget

    def _candidates(self, game: Game) -> tuple[list[Any], str]:
        """The legal actions, the solver's choice among them (added if not listed), and its key."""
        from solver.engine.players import SolverPlayer

        legal = game.legal_actions()
        if len(legal) == 1:
            return legal, str(legal[0])
        own = SolverPlayer().choose(game)
        if str(own) not in {str(a) for a in legal}:
            legal.append(own)
        return legal, str(own)

    def _policy(self, game: Game) -> Callable[[Game], Any]:
        from solver.engine.players import GreedyPlayer, RandomPlayer, SolverPlayer

        kinds: dict[str, Callable[[int], Any]] = {
            "greedy": GreedyPlayer,
            "random": RandomPlayer,
            "solver": SolverPlayer,
        }
        player = kinds[self.rollout](self.rng.randrange(2**31))
        choose: Callable[[Game], Any] = player.choose
        return choose

    def _simulate(self, game: Game, me: int, root: _Node, root_actions: dict[str, Any]) -> None:
        state = game.resample(me, self.rng)
        epoch, scores = state._epoch(), state.scores()
        node, path = root, []
        while not state.is_terminal() and state._epoch() == epoch:
            actions = list(root_actions.values()) if node is root else state.legal_actions()
            keys = [str(a) for a in actions]
            for k in keys:
                node.avail[k] = node.avail.get(k, 0) + 1
            untried = [i for i, k in enumerate(keys) if k not in node.children]
            p = state.current_player()
            if untried:
                i = self.rng.choice(untried)
                node.children[keys[i]] = _Node()
            else:
                i = max(range(len(keys)), key=lambda j: self._ucb(node, keys[j]))
            state.apply(actions[i])
            path.append((node.children[keys[i]], p))
            node = node.children[keys[i]]
            if untried:
                break
        policy = self._policy(state)
        for _ in range(self.depth):
            if state.is_terminal() or state._epoch() != epoch:
                break
            state.apply(policy(state))
        result = values(state, scores, epoch)
        for child, p in path:
            child.n += 1
            child.w += result[p]

    def _ucb(self, node: _Node, key: str) -> float:
        child = node.children[key]
        return child.w / child.n + self.c * math.sqrt(math.log(node.avail[key]) / child.n)


def parse_kind(kind: str, seed: int) -> IsmctsPlayer:
    """An ``ismcts`` player from ``ismcts[:BUDGET[:ROLLOUT]]``: BUDGET ``200`` (simulations) or ``0.5s``."""
    parts = kind.split(":")
    if parts[0] != "ismcts" or len(parts) > 3:
        raise IllegalActionError(f"bad player {kind!r} (ismcts[:BUDGET[:ROLLOUT]], e.g. ismcts:0.2s:greedy)")
    budget: float | int = 0.2
    if len(parts) > 1 and parts[1]:
        text = parts[1]
        try:
            budget = float(text[:-1]) if text.endswith("s") else int(text)
        except ValueError:
            raise IllegalActionError(
                f"bad ismcts budget {text!r} (simulations, e.g. 200, or seconds, e.g. 0.2s)"
            ) from None
    rollout = parts[2] if len(parts) > 2 else "greedy"
    return IsmctsPlayer(seed, budget=budget, rollout=rollout)
