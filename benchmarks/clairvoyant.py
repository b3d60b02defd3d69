"""How much a Manipulation Shanghai seat could win if it saw everything: a clairvoyant rollout player.

Run from the repository root::

    python -m benchmarks.clairvoyant [--games 300] [--seed 100] [--holdback | --search WIDTH [--old]] [--workers 2]

Three ``solver`` players and one clairvoyant seat (rotating with the seed,
one hand a game). The clairvoyant player knows every hand and the order of
the stock. At each of its decisions with more than one candidate it plays
every candidate out to the end of the hand, itself and everybody else as
``solver`` players (deterministic, so each play-out is the exact outcome),
and keeps the solver's own choice if that wins, else the first candidate
that wins (else the solver's choice). Candidates: the solver's choice, the
greedy rule's and the listed actions; with ``--holdback`` also the
alternatives the search may try (:func:`solver.engine.candidates.manipulation_alternatives`:
the best play holding back each card of the solver's choice in turn, the
smallest listed play, the draw where allowed). With ``--search WIDTH``
instead the candidates are exactly the ``ismcts`` player's at that width
(issue 39), ``--old`` without the game's own alternatives (the candidates
before issue 39: the solver's, the greedy rule's, a draw, the listed
plays): the ceiling of what the honest search chooses among.

It is not a fair player: it measures how far the outcome of a hand turns on
the one choice per turn a player has, given the cards to come, and so what
an honest search (which cannot see the stock) is up against. Prints one
JSON line: the clairvoyant seat's win rate with its 95% interval, and the
same seat's with the solver's choices throughout (the same deals).
"""

from __future__ import annotations

import argparse
import json
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from solver.engine import new_game
from solver.engine.base import Game
from solver.engine.candidates import manipulation_alternatives
from solver.engine.ismcts import IsmctsPlayer
from solver.engine.players import GreedyPlayer, SolverPlayer
from solver.engine.search import clone_game
from solver.engine.selfplay import wilson

PLAYERS = 4


def _share(game: Game, seat: int) -> float:
    winners = game.winners()
    return 1 / len(winners) if seat in winners else 0.0


def play_out(game: Game, action: Any) -> Game:
    """The end of the hand after ``action`` (on a copy), every player then choosing as ``solver``."""
    state = clone_game(game)
    state.apply(action)
    solver = SolverPlayer()
    while not state.is_terminal():
        state.apply(solver.choose(state))
    return state


def _outcome(game: Game, action: Any, seat: int) -> float:
    """The seat's share of the win after ``action``, every player then choosing as ``solver``."""
    return _share(play_out(game, action), seat)


def _candidates(game: Any, holdback: bool, search: int = 0, old: bool = False) -> list[Any]:
    """The solver's choice first, the greedy rule's, the listed actions; the search's alternatives if
    asked; with ``search`` the ``ismcts`` player's candidates at that width instead (``old``: without
    the game's own alternatives)."""
    if search:
        player = IsmctsPlayer(seed=1, width=search)
        player.alternatives = not old
        return player._candidates(game)
    own = SolverPlayer().choose(game)
    out = {str(own): own}
    greedy = GreedyPlayer(1).choose(game)
    out.setdefault(str(greedy), greedy)
    for action in game.legal_actions():
        out.setdefault(str(action), action)
    if holdback:
        for action in manipulation_alternatives(game, own):
            out.setdefault(str(action), action)
    return list(out.values())


def one_game(seed: int, holdback: bool, search: int = 0, old: bool = False) -> tuple[float, float]:
    """The clairvoyant seat's share of the win, and the same seat's as ``solver`` on the same deal."""
    seat = seed % PLAYERS
    game = new_game("manipulation", None, PLAYERS, seed, max_hands=1)
    solver = SolverPlayer()
    baseline: float | None = None
    while not game.is_terminal():
        if game.current_player() != seat:
            game.apply(solver.choose(game))
            continue
        candidates = _candidates(game, holdback, search, old)
        chosen = candidates[0]
        if len(candidates) > 1:
            best = _outcome(game, chosen, seat)
            if baseline is None:  # the solver's choices from here on: the seat as solver
                baseline = best
            for action in candidates[1:]:
                if best == 1.0:
                    break
                value = _outcome(game, action, seat)
                if value > best:
                    best, chosen = value, action
        game.apply(chosen)
    mine = _share(game, seat)
    return mine, mine if baseline is None else baseline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=100)
    parser.add_argument("--holdback", action="store_true", help="also the best play holding back each card")
    parser.add_argument("--search", type=int, default=0, help="the ismcts player's candidates at this width")
    parser.add_argument("--old", action="store_true", help="with --search: without the game's own alternatives")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    n = args.games
    with ProcessPoolExecutor(args.workers) as pool:
        results = list(pool.map(one_game, seeds, [args.holdback] * n, [args.search] * n, [args.old] * n))
    wins = sum(r[0] for r in results)
    base = sum(r[1] for r in results)
    lo, hi = wilson(wins, args.games)
    blo, bhi = wilson(base, args.games)
    print(
        json.dumps(
            {
                "games": args.games,
                "seed": args.seed,
                "holdback": args.holdback,
                "search": args.search,
                "old": args.old,
                "clairvoyant": round(wins / args.games, 4),
                "ci95": [round(lo, 4), round(hi, 4)],
                "solver_same_seat": round(base / args.games, 4),
                "solver_ci95": [round(blo, 4), round(bhi, 4)],
            }
        )
    )


if __name__ == "__main__":
    main()
