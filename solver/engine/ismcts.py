"""``ismcts``: a solver-guided information-set search over resampled deals.

The search improves on the ``solver`` player rather than replacing it. The
solver's choice is the default (in Contract Shanghai with the tactics for
going out first of :func:`solver.contract.tactics.tactical_action`: no
calls, and a discard that keeps the cards that may still be laid off); the
candidates are that choice and a few
alternatives (``width`` in all, :data:`WIDTH`: by default 4, 6 in
Manipulation Shanghai, 3 in Contract Shanghai): the game's own
(:mod:`solver.engine.candidates`: in Manipulation Shanghai the draw where
the rules allow it, the smallest listed play and the best play holding
back each card of the default's; in Contract Shanghai take against
decline, call against no call, a discard instead of a lay-off or a
lay-down, the next discards), then the greedy rule's choice, a pass where
there is one, and the legal actions best by the solver's own measure
(:func:`solver.engine.evaluate.ranked`). Contract Shanghai searches only
the kinds of decision in :data:`SEARCHED` (none by default: no kind
measured a gain over the default alone). Each simulation deals the cards
hidden from the searching player anew
(:meth:`solver.engine.base.Game.resample`: one information set, as in
Cowling, Powley and Whitehouse's ISMCTS, searched flat at its root) and
plays *every* candidate from that deal with the same future (the same
shuffles, the same rollout seed): the rollout policy (by default
``greedy``, ``solver`` in Contract Shanghai: :data:`ROLLOUT`; or
``random``) plays on for at most ``depth`` actions (by default a few,
and to the end of the round in Contract Shanghai: :data:`DEPTH`) or to
the end of the hand, and
:func:`solver.engine.evaluate.values` scores the end (the hand's score
change, else each player's standing by the game's solver: fewest plays
left, distance to contract, cards held).

Comparing candidates on the same deals pairs their results, so their
difference is measured with far less noise than their values. The player
deviates from the solver's choice only when an alternative's mean gain
over it is above ``margin`` with confidence (its one-sided ``z`` bound,
over at least ``min_deals`` deals; Tesauro and Galperin's rollout
improvement of a base policy); its reason gives the deals, the
candidates and the best alternative's gain with its interval against the
margin (:func:`search_reason`). It stops early once the choice cannot
change (every alternative's upper bound below ``margin``, or one
alternative alone above it), stops playing an alternative out once its
upper bound falls below ``margin`` (successive elimination: the deals go
to the alternatives still in the race), and spends nothing on a decision
with one candidate (nor on a Contract Shanghai decision of a kind not searched: :data:`SEARCHED`).
The budget is simulations (an int: at most that many deals, deterministic
for a seed) or seconds (a float): a deadline for the whole decision, the
candidates' choice included. A deal is not started when the deals so far
say it would end past the deadline, and one the deadline overtakes is
dropped between two actions (its results would be unpaired), so a
decision overruns its budget by at most one rollout action and its scoring
(and by what choosing the candidates took, when that alone is longer).

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
from collections.abc import Callable, Sequence
from typing import Any

from solver.cpsat import stopped
from solver.engine.base import Decision, Game
from solver.engine.candidates import (
    CONTRACT_KINDS,
    contract_alternatives,
    contract_kind,
    describe,
    manipulation_alternatives,
)
from solver.engine.evaluate import ranked, values
from solver.engine.search import clone_game
from solver.errors import IllegalActionError

__all__ = ["IsmctsPlayer", "Paired", "parse_kind", "search_reason", "values"]

ROLLOUTS = ("greedy", "random", "solver")

END = 100_000
"""A rollout depth that plays to the end of the hand (the Contract round): no hand is that long."""

DEPTH = {"zsy": 4, "contract": END, "manipulation": 8}
"""Rollout actions after a candidate, by game, unless ``depth`` is given: short rollouts judged by
the solver's measure (:func:`solver.engine.evaluate.values`) won more than longer ones (docs/engine.md);
in Contract Shanghai a searched decision is played to the end of the round and scored by its points
(short rollouts judged by the distance to the contract misjudged the offers)."""

SEARCHED: frozenset[str] = frozenset()
"""The kinds of Contract Shanghai decision searched by default (:data:`CONTRACT_KINDS`: ``offer``,
``call``, ``layoff``, ``laydown``, ``discard``), unless ``search`` is given; the others keep the
default (the solver's choice with the tactics for going out first) without searching. A kind is
searched by default only where a paired measurement against the default alone showed a gain
(docs/engine.md, "Contract: the search's candidates"); ``ismcts:BUDGET:ROLLOUT:DEPTH:KINDS`` names others."""

WIDTH = {"contract": 3, "manipulation": 6}
"""Candidates by game (the default and its alternatives), unless ``width`` is given (else 4): in
Manipulation Shanghai room for the draw, the smallest play and hold-backs
(:func:`solver.engine.candidates.manipulation_alternatives`)."""

ROLLOUT = {"contract": "solver"}
"""The rollout policy by game, unless ``rollout`` is given (else ``greedy``): in Contract Shanghai
greedy rollouts led to more takes and calls and rounds twice as long, for no measured gain."""


class Paired:
    """Paired results of candidates on the same deals: candidate 0 is the default (the solver's choice).

    A candidate may sit a deal out (raced off: see :meth:`racing`); its
    figures are over the deals it played, each paired with the default's
    result on the same deal.

    >>> stats = Paired(2)
    >>> for a, b in [(0.5, 1.0), (0.0, 0.5), (1.0, 1.0), (0.5, 1.0)]:
    ...     stats.add([a, b])
    >>> stats.n, round(stats.gain(1), 3), stats.mean(0)
    (4, 0.375, 0.5)
    >>> stats.choice(margin=0.02, z=1.64)
    1
    """

    __slots__ = ("count", "d2", "dsum", "total")

    SD_FLOOR = 0.05
    """The least standard deviation a difference is taken to have (a few equal results prove little)."""

    def __init__(self, k: int) -> None:
        self.count = [0] * k
        self.total = [0.0] * k
        self.dsum = [0.0] * k
        self.d2 = [0.0] * k

    @property
    def n(self) -> int:
        """Deals searched (the default plays every one)."""
        return self.count[0]

    def add(self, results: Sequence[float | None]) -> None:
        """One deal's results, one for each candidate (None: the candidate sat the deal out)."""
        base = results[0]
        assert base is not None, "the default plays every deal"
        for i, r in enumerate(results):
            if r is None:
                continue
            self.count[i] += 1
            self.total[i] += r
            d = r - base
            self.dsum[i] += d
            self.d2[i] += d * d

    def mean(self, i: int) -> float:
        """Candidate ``i``'s mean result."""
        return self.total[i] / self.count[i] if self.count[i] else 0.0

    def gain(self, i: int) -> float:
        """Candidate ``i``'s mean gain over the default."""
        return self.dsum[i] / self.count[i] if self.count[i] else 0.0

    def bounds(self, i: int, z: float) -> tuple[float, float]:
        """A ``z``-standard-error interval around candidate ``i``'s mean gain."""
        n = self.count[i]
        if n < 2:
            return (-math.inf, math.inf)
        g = self.gain(i)
        var = max(0.0, (self.d2[i] - n * g * g) / (n - 1))
        half = z * max(math.sqrt(var), self.SD_FLOOR) / math.sqrt(n)
        return (g - half, g + half)

    def racing(self, margin: float, z: float, least: int) -> list[int]:
        """The candidates still worth a deal: the default, and each alternative with fewer than
        ``least`` deals or whose gain may still be above ``margin`` (successive elimination)."""
        return [0] + [i for i in range(1, len(self.count)) if self.count[i] < least or self.bounds(i, z)[1] > margin]

    def choice(self, margin: float, z: float) -> int:
        """The alternative with the best mean gain among those surely above ``margin``, else 0."""
        sure = [i for i in range(1, len(self.count)) if self.bounds(i, z)[0] > margin]
        return max(sure, key=self.gain) if sure else 0

    def settled(self, margin: float, z: float) -> bool:
        """True when more deals cannot change :meth:`choice`: no alternative, or one alone, may beat ``margin``."""
        open_ = [i for i in range(1, len(self.count)) if self.bounds(i, z)[1] > margin]
        if not open_:
            return True
        return len(open_) == 1 and self.bounds(open_[0], z)[0] > margin


class IsmctsPlayer:
    """The solver-guided search (see the module docstring)."""

    name = "ismcts"

    def __init__(
        self,
        seed: int = 0,
        budget: float | int = 0.2,
        rollout: str | None = None,
        depth: int | None = None,
        width: int | None = None,
        margin: float = 0.02,
        z: float = 1.64,
        min_deals: int = 8,
        clock: Callable[[], float] = time.perf_counter,
        search: frozenset[str] | None = None,
    ) -> None:
        budget = _checked_budget(budget)
        if rollout is not None and rollout not in ROLLOUTS:
            raise IllegalActionError(f"ismcts rollout must be greedy, random or solver, not {rollout!r}")
        self.rng = random.Random(seed)
        self.budget = budget
        self.rollout = rollout
        self.depth = depth
        self.width = width
        self.margin = margin
        self.z = z
        self.min_deals = min_deals
        self.search = SEARCHED if search is None else search  # Contract Shanghai's searched kinds
        self.alternatives = True  # the game's own (solver.engine.candidates); False: the candidates before issue 39
        self.clock = clock  # seconds, for a budget in seconds (a test may pass its own)
        self.simulations = 0

    def choose(self, game: Game) -> Any:
        """The action searched best."""
        return self.decide(game).action

    def decide(self, game: Game) -> Decision:
        """The action searched best, with its gain over the solver's choice and the deals searched."""
        start = self.clock()
        deadline = None if isinstance(self.budget, int) else start + self.budget
        candidates = self._candidates(game)
        if len(candidates) == 1:
            self.simulations = 0
            return Decision(candidates[0], self._unsearched(game, candidates[0]), {"simulations": 0})
        me = game.current_player()
        stats = Paired(len(candidates))
        begun = self.clock()
        while self._more(stats.n, begun, deadline):
            active = stats.racing(self.margin, self.z, self.min_deals)
            results = self._deal(game, me, candidates, active, deadline)
            if results is None:  # the deadline came first
                break
            stats.add(results)
            if stats.n >= self.min_deals and stats.settled(self.margin, self.z):
                break
        self.simulations = stats.n
        i = stats.choice(self.margin, self.z) if stats.n >= self.min_deals else 0
        return Decision(
            candidates[i],
            search_reason(stats, candidates, i, self.margin, self.z, self.min_deals, game),
            {"simulations": stats.n, "candidates": len(candidates), "default": i == 0, "gain": round(stats.gain(i), 3)},
        )

    def _more(self, sims: int, begun: float, deadline: float | None) -> bool:
        """True if one more deal fits the budget: fewer than ``budget`` deals, or (seconds) a deal
        as long as the mean so far, from ``begun``, ends before the deadline."""
        if stopped():  # the engine's stop: the answer so far
            return False
        if deadline is None:
            return sims < self.budget
        now = self.clock()
        mean = (now - begun) / sims if sims else 0.0
        return now + mean < deadline

    def _late(self, state: Game, deadline: float | None, timed: bool) -> bool:
        """True once ``deadline`` has passed; else, with ``timed``, the play-out state's solver
        questions (``time_limit``) get the time left, so one slow question (a Contract lay-down:
        0.3 s measured) cannot carry the decision far past its budget. A question cut short is
        answered by the greedy rule, and the deal it belongs to is then dropped (the deadline has
        passed at the next check): no such answer is ever counted."""
        if stopped():
            return True
        if deadline is None:
            return False
        left = deadline - self.clock()
        if left <= 0:
            return True
        if timed:
            state.time_limit = left  # type: ignore[attr-defined]
        return False

    def _unsearched(self, game: Game, action: Any) -> str:
        """Why a decision with one candidate was not searched, true of the position: the only legal
        action, or the default play (:func:`_default`) that the search keeps without searching (a
        Contract Shanghai decision of a kind not searched, :data:`SEARCHED`; a width of 1, :data:`WIDTH`)."""
        legal = len(game.legal_actions())
        if legal == 1:
            return "the only legal action"
        what = "the default play (the solver's choice" + (
            ", with the tactics for going out first)" if game.GAME == "contract" else ")"
        )
        if game.GAME == "contract" and (self.width or WIDTH["contract"]) > 1:
            kind = contract_kind(action)
            why = f"in Contract Shanghai a decision of kind {kind!r} keeps the default unsearched (no measured gain)"
        else:
            why = "the search's width is 1, so it keeps its default without searching"
        return f"{what}, one of {legal} legal actions: {why}"

    def _candidates(self, game: Game) -> list[Any]:
        """The default first (:func:`_default`), then the game's own alternatives
        (:mod:`solver.engine.candidates`), the greedy rule's, a pass, and the best by the solver's
        measure, ``width`` in all; in Contract Shanghai only the game's own, at the kinds of
        decision searched (:data:`SEARCHED`)."""
        from solver.engine.basic_players import GreedyPlayer

        legal = game.legal_actions()
        if len(legal) == 1 and game.GAME != "manipulation":  # Manipulation: the solver may rearrange
            return legal
        own = _default(game)
        width = self.width or WIDTH.get(game.GAME, 4)
        if width <= 1:
            return [own]
        if game.GAME == "contract" and self.alternatives:
            if contract_kind(own) not in self.search:
                return [own]
            return [own, *contract_alternatives(game, own, width)]
        out: dict[str, Any] = {str(own): own}
        greedy = GreedyPlayer(self.rng.randrange(2**31)).choose(game)
        out.setdefault(str(greedy), greedy)
        if game.GAME == "manipulation" and self.alternatives:
            for action in manipulation_alternatives(game, own):
                if len(out) >= width:
                    break
                out.setdefault(str(action), action)
        passes = [a for a in legal if str(a) in ("pass", "draw", "decline", "nocall")]
        for action in passes + ranked(game, [a for a in legal if a not in passes]):
            if len(out) >= width:
                break
            out.setdefault(str(action), action)
        return list(out.values())

    def _policy(self, game: Game, seed: int) -> Callable[[Game], Any]:
        from solver.engine.basic_players import GreedyPlayer, RandomPlayer, SolverPlayer

        kinds: dict[str, Callable[[int], Any]] = {
            "greedy": GreedyPlayer,
            "random": RandomPlayer,
            "solver": SolverPlayer,
        }
        kind = self.rollout or ROLLOUT.get(game.GAME, "greedy")
        choose: Callable[[Game], Any] = kinds[kind](seed).choose
        return choose

    def _deal(
        self, game: Game, me: int, candidates: list[Any], active: list[int], deadline: float | None = None
    ) -> list[float | None] | None:
        """One resampled deal: each active candidate played from it with the same future, ``me``'s
        results; None when ``deadline`` passed before the deal was played out (checked between actions)."""
        deal = game.resample(me, self.rng)
        epoch, scores = deal._epoch(), deal.scores()
        seed = self.rng.randrange(2**31)
        results: list[float | None] = [None] * len(candidates)
        timed = deadline is not None and hasattr(deal, "time_limit")
        for i in active:
            action = candidates[i]
            state = clone_game(deal)
            if self._late(state, deadline, timed):
                return None
            state.apply(action)
            policy = self._policy(game, seed)
            for _ in range(self.depth if self.depth is not None else DEPTH.get(game.GAME, 8)):  # END: the hand's end
                if self._late(state, deadline, timed):
                    return None
                if state.is_terminal() or state._epoch() != epoch:
                    break
                state.apply(policy(state))
            results[i] = values(state, scores, epoch)[me]
        return results


def search_reason(
    stats: Paired, candidates: Sequence[Any], i: int, margin: float, z: float, least: int, game: Any = None
) -> str:
    """Why the search chose candidate ``i``: the deals, the candidates and the margin of the decision.

    >>> stats = Paired(2)
    >>> for a, b in [(0.5, 1.0), (0.0, 0.5), (1.0, 1.0), (0.5, 1.0)]:
    ...     stats.add([a, b])
    >>> search_reason(stats, ["draw", "take"], 1, 0.02, 1.64, 4)
    'searched 4 deals, 2 candidates: take gains +0.38 over the default draw (one-sided bound +0.17, above the margin 0.02)'
    """
    n, k = stats.n, len(candidates)

    def _label(action: Any) -> str:
        return describe(game, action) if game is not None else str(action)

    head = f"searched {n} deals, {k} candidates"
    if i:
        lo = stats.bounds(i, z)[0]
        return (
            f"{head}: {_label(candidates[i])} gains {stats.gain(i):+.2f} over the default {_label(candidates[0])}"
            f" (one-sided bound {lo:+.2f}, above the margin {margin:.2f})"
        )
    keep = f"{head}: keeps the default {_label(candidates[0])}"
    if n < least:
        return f"{keep} (fewer than the {least} deals needed to deviate)"
    tried = [j for j in range(1, k) if stats.count[j]]
    if not tried:
        return keep
    j = max(tried, key=stats.gain)
    lo, hi = stats.bounds(j, z)
    return (
        f"{keep}; the best alternative, {_label(candidates[j])}, gains {stats.gain(j):+.2f} over"
        f" {stats.count[j]} deals ({lo:+.2f} to {hi:+.2f}), not surely above the margin {margin:.2f}"
    )


def _default(game: Game) -> Any:
    """The search's default (candidate 0): the solver player's choice, in Contract Shanghai with the
    tactics for going out first (:func:`solver.contract.tactics.tactical_action`)."""
    if game.GAME == "contract":
        from solver.contract.tactics import tactical_action

        return tactical_action(game)  # type: ignore[arg-type]
    from solver.engine.basic_players import SolverPlayer

    return SolverPlayer().choose(game)


def _checked_budget(budget: float | int, text: str | None = None) -> float | int:
    """A budget checked by :mod:`solver.budget` (one place for every front end): simulations from 1
    to ``MAX_SIMULATIONS``, or finite seconds up to an hour; ``IllegalActionError`` (a bad player) otherwise."""
    from solver.budget import BudgetError, seconds, simulations

    try:
        if isinstance(budget, int) and not isinstance(budget, bool):
            return simulations(budget, "an ismcts budget")
        return seconds(budget, "an ismcts budget")
    except BudgetError as exc:
        shown = f" ({text!r})" if text is not None else ""
        raise IllegalActionError(f"{exc}{shown}; e.g. ismcts:200 or ismcts:0.2s") from None


def _depth_and_kinds(parts: list[str]) -> tuple[int | None, frozenset[str] | None]:
    """The rollout depth (actions, or ``end``) and Contract Shanghai's searched kinds (comma-separated
    :data:`CONTRACT_KINDS`, or ``none``) of a kind's fourth and fifth parts (empty: the defaults)."""
    depth: int | None = None
    if len(parts) > 3 and parts[3]:
        text = parts[3]
        if text == "end":
            depth = END
        elif text.isdigit() and 0 < int(text) <= END:
            depth = int(text)
        else:
            raise IllegalActionError(f"bad ismcts depth {text!r} (rollout actions from 1, or end)")
    kinds: frozenset[str] | None = None
    if len(parts) > 4 and parts[4]:
        kinds = frozenset() if parts[4] == "none" else frozenset(parts[4].split(","))
        if not kinds <= set(CONTRACT_KINDS):
            raise IllegalActionError(f"bad ismcts kinds {parts[4]!r} (none, or some of {','.join(CONTRACT_KINDS)})")
    return depth, kinds


def parse_kind(kind: str, seed: int) -> IsmctsPlayer:
    """An ``ismcts`` player from ``ismcts[:BUDGET[:ROLLOUT[:DEPTH[:KINDS]]]]``: BUDGET ``200``
    (simulations) or ``0.5s``; DEPTH rollout actions or ``end``; KINDS the Contract Shanghai decisions
    searched (``offer,discard``; ``none``). An empty part keeps its default: ``ismcts:40::end:offer``."""
    parts = kind.split(":")
    if parts[0] != "ismcts" or len(parts) > 5:
        raise IllegalActionError(
            f"bad player {kind!r} (ismcts[:BUDGET[:ROLLOUT[:DEPTH[:KINDS]]]], e.g. ismcts:0.2s:greedy)"
        )
    budget: float | int = 0.2
    if len(parts) > 1 and parts[1]:
        text = parts[1]
        try:
            budget = float(text[:-1]) if text.endswith("s") else int(text)
        except ValueError:
            raise IllegalActionError(
                f"bad ismcts budget {text!r} (simulations, e.g. 200, or seconds, e.g. 0.2s)"
            ) from None
        budget = _checked_budget(budget, text)
    rollout = parts[2] if len(parts) > 2 and parts[2] else None
    depth, kinds = _depth_and_kinds(parts)
    return IsmctsPlayer(seed, budget=budget, rollout=rollout, depth=depth, search=kinds)
