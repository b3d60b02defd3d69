"""Soak: every legal move reachable, exactly, in many states of every game and preset under every built-in player.

    nice python -m benchmarks.soak_reachable --states 1000 --workers 2    # the issue's figure, every row
    python -m benchmarks.soak_reachable --states 20 --only zsy             # a quick look
    python -m benchmarks.soak_reachable --states 200 --only contract --players solver

A row is a game, a preset and a built-in player (``random``, ``greedy``,
``solver``, ``ismcts:8``: the search with eight deals a decision, its least
for leaving the solver's choice, so that its records do not depend on the
machine's speed) who plays every seat of seeded
games (Contract Shanghai: all seven rounds; the others: three hands). Every
action of those games replays through the env (:class:`solver.envs.actions.Turn`):
its index path is in the mask step by step and the env's game then equals the
engine's. In ``--states`` positions along them (each position with probability
``--share``; by default every one) *every* listed legal action and the player's
own choice are checked (:func:`check_position`): the action's index path,
carried out on a fresh turn, has the action's effect, and distinct effects
have distinct paths (``--most N`` checks a sample of N actions a position);
and the brute-force listings of :mod:`benchmarks.brute_reachable` are
compared with what the mask reaches (Contract: every one-card lay-off and
swap with every role; Manipulation: every joker role of the listed plays).
Every replayed action must come back with the same text.
Prints a table: positions, legal actions checked, actions replayed, games,
wall and CPU seconds; exit 1 if a row failed (its first failure is printed).
``pytest -m slow tests/envs/test_reachable.py`` runs the same rows as tests.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import Any

from benchmarks.brute_reachable import contract_one_card_moves, manipulation_joker_roles
from solver.engine import new_game
from solver.engine.players import make_player
from solver.envs.actions import Turn, codec_for, table_effect
from solver.envs.contract_actions import canon

PRESETS = (
    [("zsy", p) for p in ("individual", "pairs", "teams6")]
    + [("contract", p) for p in ("finnish", "us", "poker_deck", "jokers_and_twos", "no_wild_swap", "last_round_normal")]
    + [("manipulation", p) for p in ("german", "norwegian", "rummikub")]
)
PLAYERS = ("random", "greedy", "solver", "ismcts:8")
HANDS = {"contract": 7, "zsy": 3, "manipulation": 3}
"""Hands (Contract: rounds) a soak game lasts: every Contract round (runs, wilds, the last round's
whole-hand lay-down), three hands of the others (Zheng Shang You's tribute after the first)."""


def new(game: str, preset: str, seed: int, hands: int = 1) -> Any:
    """A game of ``preset`` (six seats for ``teams6``, else four) lasting ``hands`` hands or rounds."""
    players = 6 if preset == "teams6" else 4
    options: dict[str, Any] = {"max_rounds": hands} if game == "contract" else {"max_hands": hands}
    return new_game(game, {"preset": preset}, players, seed, **options)


def state(game: Any) -> Any:
    """What an action's effect is read from: the table (as its effect), the hands, who moves."""
    if game.GAME == "contract":
        return ([(canon(t.meld), t.owner) for t in game.table], list(game.hands), game.phase, game.to_move)
    if game.GAME == "manipulation":
        return (table_effect(game.table), list(game.hands), game.phase, game.to_move)
    return ([str(a) for a in game.history], list(game.hands), game.current_player())


def after(game: Any, action: Any) -> Any:
    """The state after the engine applies ``action`` to a copy of ``game``."""
    g = game.clone()
    g.apply(action)
    return state(g)


def carry_out(game: Any, path: list[int]) -> Any:
    """Apply ``path`` to a fresh turn on a copy of ``game``; every index must be in the mask."""
    turn = Turn(game.clone())
    done = None
    for k, index in enumerate(path):
        assert index in turn.legal(), f"{turn.codec.name(index)} not legal at step {k} of {path}"
        done = turn.apply(index)
        assert (done is None) == (k < len(path) - 1)
    return state(turn.game)


def check_position(game: Any, extra: Any, rng: random.Random, most: int | None = 25) -> int:
    """Each listed action (all, or a sample of at most ``most``) and ``extra``: its path carries out
    the same effect; distinct effects, distinct paths. Returns the actions checked."""
    codec = codec_for(game)
    listed = game.legal_actions()
    sample = listed if most is None else rng.sample(listed, min(most, len(listed)))
    paths: dict[tuple[int, ...], Any] = {}
    for a in [*sample, extra]:
        path = codec.encode(game, a)
        want = after(game, a)
        assert carry_out(game, path) == want, f"{a}: {[codec.name(i) for i in path]}"
        assert paths.setdefault(tuple(path), want) == want, f"{a}: a path shared by two effects"
    checked = len(sample) + 1
    if game.GAME == "contract":  # the brute-force listings (benchmarks/brute_reachable.py)
        checked += contract_one_card_moves(game, after, state)
    elif game.GAME == "manipulation" and game.rules.jokers:
        checked += manipulation_joker_roles(game, after, state, most)
    return checked


@dataclass
class Row:
    """One game, preset and player's soak: what was checked, and the first failure if any."""

    game: str
    preset: str
    player: str
    positions: int = 0
    actions: int = 0
    replayed: int = 0
    games: int = 0
    seconds: float = 0.0
    cpu: float = 0.0
    error: str | None = None


def soak(
    game_name: str,
    preset: str,
    player: str,
    states: int,
    seeds: int = 10_000,
    hands: int | None = None,
    share: float = 1.0,
    most: int | None = None,
) -> Row:
    """Replay whole games of ``player`` in every seat (seeds 0, 1, ...) until ``states`` positions
    are checked (each with probability ``share``); raises AssertionError at the first failure."""
    start, cpu = time.perf_counter(), time.process_time()
    row = Row(game_name, preset, player)
    rng = random.Random(f"{game_name}{preset}{player}")
    hands = HANDS[game_name] if hands is None else hands
    for seed in range(seeds):
        ref = new(game_name, preset, seed, hands)
        turn = Turn(new(game_name, preset, seed, hands))
        chooser = make_player(player, seed)
        row.games += 1
        while not ref.is_terminal() and row.positions < states:
            action = chooser.choose(ref)
            if rng.random() < share:
                row.actions += check_position(ref, action, rng, most)
                row.positions += 1
            done = None
            for index in turn.codec.encode(turn.game, action):  # the record replays through the env
                assert index in turn.legal(), f"{action}: {turn.codec.name(index)} not in the mask"
                done = turn.apply(index)
            ref.apply(action)
            row.replayed += 1
            assert state(turn.game) == state(ref), str(action)
            assert str(done) == str(action), f"{action} replayed as {done}"  # the same action text
        if row.positions >= states:
            break
    row.seconds, row.cpu = time.perf_counter() - start, time.process_time() - cpu
    return row


def _run(args: tuple[str, str, str, int, float, int | None]) -> Row:
    game, preset, player, states, share, most = args
    try:
        return soak(game, preset, player, states, share=share, most=most)
    except Exception as exc:  # the row fails with its first failure; the others still run
        return Row(game, preset, player, error=f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=-3)}")


def main() -> None:
    """Run the rows and print the table; exit 1 if any row failed."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--states", type=int, default=1000, help="positions checked a row")
    ap.add_argument("--share", type=float, default=1.0, help="the chance a position along the games is checked")
    ap.add_argument("--most", type=int, default=0, help="legal actions checked a position (0: every one)")
    ap.add_argument("--only", choices=sorted(HANDS), help="one game only")
    ap.add_argument("--preset", help="one preset only")
    ap.add_argument("--players", default=",".join(PLAYERS), help="comma-separated built-in players")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args()
    jobs = [
        (g, p, pl, args.states, args.share, args.most or None)
        for g, p in PRESETS
        if (not args.only or g == args.only) and (not args.preset or p == args.preset)
        for pl in args.players.split(",")
    ]
    start = time.perf_counter()
    print(
        "| game | preset | player | positions | legal actions checked | actions replayed | games | seconds | CPU seconds | result |"
    )
    print("| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    failed = 0
    with ProcessPoolExecutor(args.workers) as pool:  # rows printed as they finish
        for future in as_completed([pool.submit(_run, job) for job in jobs]):
            row = future.result()
            result = "ok" if row.error is None else "FAILED"
            failed += row.error is not None
            print(
                f"| {row.game} | {row.preset} | {row.player} | {row.positions:,} | {row.actions:,} | "
                f"{row.replayed:,} | {row.games} | {row.seconds:.0f} | {row.cpu:.0f} | {result} |",
                flush=True,
            )
            if row.error:
                print(row.error, file=sys.stderr, flush=True)
    print(f"{len(jobs)} rows, {failed} failed, {time.perf_counter() - start:.0f} s wall", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
