"""The observation against a plain reference: each feature worked out from the game state by its
documented layout, with no buffers and nothing kept between calls (the env's views are
incremental; a slip in what they skip shows here)."""

from __future__ import annotations

from typing import Any

import pytest

from solver.cards import N_CARDS as N
from solver.engine import new_game
from solver.engine.players import RandomPlayer
from solver.envs.actions import MAX_MELDS, Turn
from solver.envs.features import MAX_SEATS, MAX_TABLE, Observations, feature_size, features

_PHASES = ("first_discard", "offer", "call", "play", "over")


def _reference(turn: Turn, p: int) -> list[float]:
    """``p``'s features as the module docstring of :mod:`solver.envs.features` lays them out."""
    game: Any = turn.game
    n = game.num_players
    out = [0.0] * feature_size(game.GAME)

    def cards(at: int, counts: Any) -> None:
        for i, k in enumerate(counts):
            out[at + i] += k

    def seats(at: int, values: list[Any], scale: float = 1.0) -> None:
        for q, v in enumerate(values):
            out[at + (q - p) % n] = v / scale

    to_move = game.current_player()
    cards(0, game.hands[p].counts)
    if to_move == p:
        for i in turn.picks:
            out[N + i] += 1
    seats(2 * N, [len(h) for h in game.hands], 30)
    if to_move >= 0:
        out[2 * N + MAX_SEATS + (to_move - p) % n] = 1.0
    seats(2 * N + 2 * MAX_SEATS, game.scores(), 100)
    at = 2 * N + 3 * MAX_SEATS
    if game.GAME == "zsy":
        if game.trick is not None:
            cards(at, game.trick.cards.counts)
            out[at + 3 * N + 1 + (game.trick_player - p) % n] = 1.0
        cards(at + N, game.played.counts)
        cards(at + 2 * N, game.pending.counts)
        out[at + 3 * N] = float(game.phase == "tribute")
        seats(at + 3 * N + 1 + MAX_SEATS, [q in game.places for q in range(n)])
        if game.trick is not None:
            out[at + 3 * N + 1 + 2 * MAX_SEATS + ("single", "set", "straight", "parallel").index(game.trick.kind)] = 1.0
    elif game.GAME == "contract":
        if game.pile:
            out[at + game.pile[-1].index] = 1.0
        for c in game.pile:
            out[at + N + c.index] += 1
        at += 2 * N
        for m, tm in enumerate(game.table[:MAX_MELDS]):
            for c in tm.meld.cards:
                out[at + m * N + c.index] += 1
            out[at + MAX_MELDS * N + m * MAX_SEATS + (tm.owner - p) % n] = 1.0
        at += MAX_MELDS * (N + MAX_SEATS)
        seats(at, game.laid_down)
        seats(at + MAX_SEATS, game.calls)
        at += 2 * MAX_SEATS
        if 1 <= game.round <= 8:
            out[at + game.round - 1] = 1.0
        out[at + 8 + _PHASES.index(game.phase)] = 1.0
        if turn.stage is not None:
            out[at + 13 + turn.stage[0]] = 1.0
            out[at + 13 + MAX_MELDS + turn.stage[1].index] = 1.0
        out[at + 13 + MAX_MELDS + N] = len(game.stock) / 100
        for m, tm in enumerate(game.table[:MAX_MELDS]):
            for r in tm.meld.roles:
                if r is not None:
                    out[at + 14 + MAX_MELDS + N + m * N + r.index] += 1
    else:
        for m, meld in enumerate(game.table):
            for c in meld.cards:
                out[at + c.index] += 1
                if m < MAX_TABLE:
                    out[at + N + m * N + c.index] += 1
        at += N + MAX_TABLE * N
        seats(at, game.opened)
        out[at + MAX_SEATS] = len(game.stock) / 100
        out[at + MAX_SEATS + 1] = float(game.phase == "drawn")
    return out


@pytest.mark.parametrize(
    ("game_name", "options", "seeds"),
    [
        ("zsy", {"max_hands": 2}, (1, 2)),
        ("contract", {"max_rounds": 2}, (1,)),
        ("manipulation", {"max_hands": 2}, (1, 2)),
    ],
)
def test_views_equal_the_reference(game_name: str, options: dict[str, Any], seeds: tuple[int, ...]) -> None:
    # every player's view after every step of seeded games (selections included), kept up to date
    # part by part, equals the reference; so does features() on a fresh buffer
    for seed in seeds:
        turn = Turn(new_game(game_name, None, 4, seed, **options))
        views = Observations(game_name, 4)
        player = RandomPlayer(seed)
        steps = 0
        while not turn.game.is_terminal() and steps < 1500:
            for index in turn.codec.encode(turn.game, player.choose(turn.game)):
                for p in range(4) if steps % 3 == 0 else [turn.game.current_player()]:
                    want = _reference(turn, p)
                    assert views.view(turn, p) == want, (seed, steps, p)
                    assert features(turn, p) == want
                turn.apply(index)
                steps += 1


@pytest.mark.parametrize("game_name", ["zsy", "contract", "manipulation"])
def test_a_pick_rewrites_only_the_selection(game_name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # a view of the same game at the same history length (a card picked since) brings only the
    # selection up to date: the game's parts are not compared again, and the view stays exact
    import solver.envs.features as module

    options: dict[str, Any] = {"max_rounds": 1} if game_name == "contract" else {"max_hands": 1}
    for seed in range(20):  # the first position of seeded games where a card may be picked
        turn = Turn(new_game(game_name, None, 4, seed, **options))
        player = RandomPlayer(seed)
        game = turn.game
        while not game.is_terminal() and not any(turn.codec.name(i).startswith("select") for i in turn.legal()):
            game.apply(player.choose(game))
        if not game.is_terminal():
            break
    p = game.current_player()
    views = Observations(game_name, 4)
    views.view(turn, p)
    public, private, regions, selection = module._GAMES[game_name]
    calls: list[str] = []

    def counted(name: str, writer: Any) -> Any:
        def run(*args: Any) -> Any:
            calls.append(name)
            return writer(*args)

        return run

    monkeypatch.setitem(
        module._GAMES, game_name, (counted("public", public), counted("private", private), regions, selection)
    )
    monkeypatch.setattr(module, "_common", counted("common", module._common))
    pick = next(i for i in turn.legal() if turn.codec.name(i).startswith("select"))
    turn.apply(pick)
    assert turn.picks and len(game.history) == len(turn.game.history)
    got = list(views.view(turn, p))
    assert calls == []
    assert got == features(turn, p)


@pytest.mark.parametrize("game_name", ["zsy", "contract", "manipulation"])
def test_views_of_another_game_at_the_same_length_are_written_in_full(game_name: str) -> None:
    # a resampled copy (OpenSpiel's observer sees such states) has the history length of the
    # original and other hidden hands: the views follow the game, not only its length
    options: dict[str, Any] = {"max_rounds": 1} if game_name == "contract" else {"max_hands": 1}
    game = new_game(game_name, None, 4, 5, **options)
    player = RandomPlayer(5)
    for _ in range(6):
        game.apply(player.choose(game))
    views = Observations(game_name, 4)
    turn = Turn(game)
    for q in range(4):
        assert views.view(turn, q) == features(turn, q)
    import random

    other = Turn(game.resample(0, random.Random(9)))
    assert len(other.game.history) == len(game.history)
    assert any(other.game.hands[q] != game.hands[q] for q in range(1, 4))
    for q in range(4):
        assert views.view(other, q) == features(other, q)


def test_positions_differing_only_in_a_public_fact_have_different_features() -> None:
    # a wild's role on the table (Contract) and a trick's kind (Zheng Shang You) are public and bear
    # on the replies: every player's features tell the two positions apart
    from solver.melds import Meld, TableMeld
    from solver.zsy.combos import Combo

    def contract(meld: str) -> Any:
        game: Any = new_game("contract", None, 4, 0, max_rounds=1)
        game.table = [TableMeld(Meld.parse(meld), 1)]
        return Turn(game)

    low, high = contract("2S=3H 4H 5H 6H"), contract("4H 5H 6H 2S=7H")
    zsy = []
    for kind in ("set", "straight"):
        game: Any = new_game("zsy", None, 4, 0, max_hands=1)
        game.trick, game.trick_player = Combo.parse(f"{kind}:3H BJ RJ", game.rules), 1
        zsy.append(Turn(game))
    for a, b in ((low, high), (zsy[0], zsy[1])):
        for p in range(4):
            assert features(a, p) != features(b, p)
            assert Observations(a.game.GAME, 4).view(a, p) == features(a, p) == _reference(a, p)
