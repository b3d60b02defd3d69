"""Self-play: many seeded games across processes, with win rates and confidence intervals.

Seats rotate from game to game (game ``i`` seats the player list rotated by
``i``), so every kind of player sits in every seat equally often. A tie for
first shares the win.

>>> stats = selfplay("zsy", 4, ["random", "greedy", "random", "random"], seed=1, options={"max_hands": 1})
>>> stats.games, round(sum(k.wins for k in stats.by_kind.values()), 6)
(4, 4.0)
"""

from __future__ import annotations

import math
import multiprocessing
import signal
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.engine import new_game
from solver.engine.base import Game
from solver.engine.players import make_players
from solver.errors import ShanghaiError
from solver.extras import require

__all__ = ["GameResult", "KindStats", "SelfplayStats", "play_one", "selfplay", "wilson", "check_invariants"]


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: who sat where, who won, scores, length."""

    seed: int
    kinds: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    actions: int
    seconds: float
    error: str = ""


@dataclass(slots=True)
class KindStats:
    """Totals for one kind of player across all its seats and games."""

    seats: int = 0
    wins: float = 0.0
    score_sum: float = 0.0

    def rate(self, games: int) -> float:
        """Wins per game for one seat of this kind."""
        return self.wins / self.seats if self.seats else 0.0


@dataclass(slots=True)
class SelfplayStats:
    """What a self-play run measured."""

    game: str
    games: int = 0
    errors: list[str] = field(default_factory=list)
    by_kind: dict[str, KindStats] = field(default_factory=dict)
    actions: int = 0
    seconds: float = 0.0
    wall: float = 0.0

    def summary(self) -> dict[str, Any]:
        """The numbers as plain data (``--json``)."""
        kinds = {}
        for kind, k in self.by_kind.items():
            lo, hi = wilson(k.wins, k.seats)
            kinds[kind] = {
                "seats": k.seats,
                "win_rate": round(k.rate(self.games), 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "mean_score": round(k.score_sum / k.seats, 3) if k.seats else None,
            }
        return {
            "game": self.game,
            "games": self.games,
            "errors": len(self.errors),
            "players": kinds,
            "mean_actions": round(self.actions / self.games, 1) if self.games else 0,
            "games_per_second": round(self.games / self.wall, 2) if self.wall else None,
            "seconds": round(self.wall, 3),
        }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default).

    >>> tuple(round(x, 3) for x in wilson(40, 100))
    (0.309, 0.498)
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def check_invariants(game: Game) -> None:
    """No card created or lost: every card of the deck is somewhere, exactly once per copy."""
    if game.all_cards() != game.rules.deck:
        raise AssertionError(f"cards created or lost in {game.GAME} (seed {game.seed}, action {len(game.history)})")


def play_one(
    game_name: str,
    rules: Mapping[str, Any],
    kinds: Sequence[str],
    seed: int,
    options: Mapping[str, Any] | None = None,
    check: bool = False,
) -> GameResult:
    """Play one seeded game to the end (``check`` verifies the card invariant after every action)."""
    start = time.perf_counter()
    game = new_game(game_name, rules, len(kinds), seed, **(options or {}))
    players = make_players(kinds, seed)
    try:
        while not game.is_terminal():
            action = players[game.current_player()].choose(game)
            game.apply(action)
            if check:
                check_invariants(game)
    except (ShanghaiError, AssertionError) as exc:
        return GameResult(seed, tuple(kinds), (), tuple(game.scores()), len(game.history), 0.0, f"seed {seed}: {exc}")
    return GameResult(
        seed,
        tuple(kinds),
        tuple(game.winners()),
        tuple(game.scores()),
        len(game.history),
        time.perf_counter() - start,
    )


def _ignore_interrupts() -> None:
    """A worker ignores Ctrl-C: the parent stops it (``Pool`` terminates its workers on the way out)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _job(args: tuple[str, dict[str, Any], tuple[str, ...], int, dict[str, Any], bool]) -> GameResult:
    return play_one(*args)


def selfplay(
    game: str,
    games: int,
    kinds: Sequence[str],
    *,
    seed: int = 0,
    workers: int = 1,
    rules: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    check: bool = False,
    progress: Callable[[GameResult], None] | None = None,
    ray: str | None = None,
) -> SelfplayStats:
    """Play ``games`` seeded games (seeds ``seed``, ``seed+1``, ...) and collect statistics.

    ``workers`` processes on this machine; or, with ``ray`` (``"local"`` for a
    local Ray started with ``workers`` CPUs and stopped afterwards, else a
    cluster address such as ``"auto"`` or ``"ray://host:10001"``), the games
    run as Ray tasks. The statistics are the same either way for the same seeds.
    """
    n = len(kinds)
    jobs = []
    for i in range(games):
        r = i % n
        rotated = tuple(kinds[r:]) + tuple(kinds[:r])
        jobs.append((game, dict(rules or {}), rotated, seed + i, dict(options or {}), check))
    stats = SelfplayStats(game)
    start = time.perf_counter()
    if ray is not None:
        for result in ray_results(jobs, workers, ray):
            _add(stats, result)
            if progress:
                progress(result)
    elif workers <= 1:
        results = map(_job, jobs)
        for result in results:
            _add(stats, result)
            if progress:
                progress(result)
    else:
        chunk = max(1, min(32, games // (workers * 8) or 1))
        with multiprocessing.Pool(workers, initializer=_ignore_interrupts) as pool:  # leaving kills the workers
            for result in pool.imap(_job, jobs, chunksize=chunk):
                _add(stats, result)
                if progress:
                    progress(result)
    stats.wall = time.perf_counter() - start
    return stats


def _chunk(jobs: list[tuple[str, dict[str, Any], tuple[str, ...], int, dict[str, Any], bool]]) -> list[GameResult]:
    return [play_one(*job) for job in jobs]


def ray_results(jobs: Sequence[Any], workers: int, address: str) -> Iterator[GameResult]:
    """Run the jobs as Ray tasks (small batches of games), yielding results as they finish.

    ``address`` ``"local"`` starts a local Ray with ``workers`` CPUs (and stops
    it at the end); any other address joins that cluster.
    """
    ray_lib = require("ray", "ray")
    started = not ray_lib.is_initialized()
    if started:
        if address == "local":
            ray_lib.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            token = token_auth()
            try:
                with warnings.catch_warnings():  # a client timing out warns before it raises
                    warnings.simplefilter("ignore")
                    ray_lib.init(address=address, log_to_driver=False, configure_logging=False)
            except ConnectionError:  # nothing listens there, or a cluster that wants another token
                hint = (
                    "; if it uses token authentication, the token sent is not its own: set RAY_AUTH_TOKEN to what"
                    " `ray get-auth-token` prints on its head"
                    if token
                    else "; a cluster with token authentication needs RAY_AUTH_TOKEN (or RAY_AUTH_TOKEN_PATH)"
                )
                raise ShanghaiError(
                    f"no Ray cluster at {address!r}: start one (ray start --head) or use --ray local{hint}"
                ) from None
            except (RuntimeError, ValueError) as exc:  # a bad address, a client without its extra
                first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
                raise ShanghaiError(f"cannot join Ray at {address!r}: {first}") from None
    try:
        task = ray_lib.remote(num_cpus=1)(_chunk)
        size = max(1, min(16, len(jobs) // (max(workers, 1) * 8)))
        pending = [task.remote(list(jobs[i : i + size])) for i in range(0, len(jobs), size)]
        while pending:
            done, pending = ray_lib.wait(pending, num_returns=1)
            for ref in done:
                yield from ray_lib.get(ref)
    finally:
        if started:
            ray_lib.shutdown()


def token_auth() -> bool:
    """Turn on Ray's token authentication for this process when a token is at hand, as ``ray start`` does.

    A default ``ray start --head`` authenticates by token when one is found (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH`` or ``~/.ray/auth_token``, with ``RAY_AUTH_MODE`` unset) or when
    ``RAY_AUTH_MODE=token``; a Ray client (``ray://``) sends the token only in token mode, and a
    refused client looks like no cluster at all. ``RAY_AUTH_MODE`` set is respected (``disabled``
    sends none). True if the token will be sent.
    """
    import logging
    import os

    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available,
        )
    except ImportError:  # a Ray without token authentication
        return os.environ.get("RAY_AUTH_MODE", "").lower() == "token"
    logger = logging.getLogger("ray._private.authentication.authentication_token_setup")
    level = logger.level
    logger.setLevel(logging.ERROR)  # (Ray's note that token authentication is on: not the command's output)
    try:
        return bool(maybe_enable_token_auth_if_token_available(warn_if_disabled=False))
    finally:
        logger.setLevel(level)


def _add(stats: SelfplayStats, result: GameResult) -> None:
    stats.games += 1
    if result.error:
        stats.errors.append(result.error)
        return
    stats.actions += result.actions
    stats.seconds += result.seconds
    share = 1.0 / len(result.winners) if result.winners else 0.0
    for seat, kind in enumerate(result.kinds):
        k = stats.by_kind.setdefault(kind, KindStats())
        k.seats += 1
        k.score_sum += result.scores[seat]
        if seat in result.winners:
            k.wins += share
