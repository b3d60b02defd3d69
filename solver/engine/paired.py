"""A player's own gain over ``solver``: self-play paired with the same seeds played by four solvers.

The win rate of one seat over a few dozen games swings by ten points with
the seeds alone. Playing every seed twice, once with the player in its
rotating seat and once with ``solver`` in every seat, and counting the
difference in that seat's wins cancels the luck of the deal: the mean
difference is the player's gain, with a much narrower interval.

``python -m solver.engine.paired GAME GAMES SEED [KIND [BASE]]`` prints one
JSON line (KIND defaults to ``ismcts``; seats rotate as in
:func:`solver.engine.selfplay.selfplay`; one hand or one Contract round a game).
BASE (default ``solver``) is the kind the seat holds in the second play of
each seed, the three others still ``solver``: ``BASE`` ``ismcts:1`` (the
search's default alone, one deal a decision: never enough to deviate)
measures the search against its own default, game by game. Each game's
seed and the seat's two shares of the win go to stderr as it ends.

>>> result = paired("zsy", 2, "greedy", seed=3)
>>> result.games, -1.0 <= result.gain <= 1.0
(2, True)
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

from solver.engine.selfplay import play_one, wilson

__all__ = ["PairedResult", "paired"]


@dataclass(frozen=True, slots=True)
class PairedResult:
    """The player's seat win rate, the same seat's with four solvers, and the gain with its 95% interval."""

    game: str
    kind: str
    games: int
    seed: int
    win_rate: float
    ci95: tuple[float, float]
    baseline: float
    gain: float
    gain_ci95: tuple[float, float]
    changed_games: int
    seconds: float
    base: str = "solver"


def paired(
    game: str,
    games: int,
    kind: str = "ismcts",
    *,
    seed: int = 0,
    players: int = 4,
    base: str = "solver",
    progress: Callable[[int, float, float], None] | None = None,
) -> PairedResult:
    """Play ``games`` seeded games with ``kind`` in a rotating seat, and again with ``base`` there
    (solvers elsewhere); ``progress`` hears each game's seed and the seat's two shares of the win."""
    options = {"max_rounds": 1} if game == "contract" else {"max_hands": 1}
    start = time.perf_counter()
    wins: list[float] = []
    diffs: list[float] = []
    for i in range(games):
        kinds = [kind] + ["solver"] * (players - 1)
        r = i % players
        rotated = kinds[r:] + kinds[:r]
        seat = rotated.index(kind)
        mine = play_one(game, {}, rotated, seed + i, options)
        others = list(rotated)
        others[seat] = base
        other = play_one(game, {}, others, seed + i, options)
        x = 1 / len(mine.winners) if seat in mine.winners else 0.0
        y = 1 / len(other.winners) if seat in other.winners else 0.0
        wins.append(x)
        diffs.append(x - y)
        if progress is not None:
            progress(seed + i, x, y)
    n = games
    gain = sum(diffs) / n
    sd = math.sqrt(sum((d - gain) ** 2 for d in diffs) / (n - 1)) if n > 1 else 1.0
    half = 1.96 * sd / math.sqrt(n)
    lo, hi = wilson(sum(wins), n)
    return PairedResult(
        game,
        kind,
        n,
        seed,
        round(sum(wins) / n, 4),
        (round(lo, 4), round(hi, 4)),
        round(sum(wins) / n - gain, 4),
        round(gain, 4),
        (round(gain - half, 4), round(gain + half, 4)),
        sum(1 for d in diffs if d),
        round(time.perf_counter() - start, 1),
        base,
    )


if __name__ == "__main__":  # pragma: no cover - a measurement command
    args = sys.argv[1:]
    if len(args) not in (3, 4, 5):
        sys.exit("usage: python -m solver.engine.paired GAME GAMES SEED [KIND [BASE]]")
    found = paired(
        args[0],
        int(args[1]),
        args[3] if len(args) > 3 else "ismcts",
        seed=int(args[2]),
        base=args[4] if len(args) > 4 else "solver",
        progress=lambda s, x, y: print(f"seed {s}: {x:.2f} {y:.2f}", file=sys.stderr, flush=True),
    )
    print(json.dumps(asdict(found)))
