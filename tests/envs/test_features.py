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
from solver.envs.features import (
    HISTORY_SIZE,
    MAX_KINDS,
    MAX_MOVES,
    MAX_SEATS,
    MAX_TABLE,
    MOVE_KINDS,
    MOVE_SIZE,
    Observations,
    feature_size,
    features,
)

_PHASES = ("first_discard", "offer", "call", "play", "over")


def _moves(game: Any) -> tuple[list[tuple[int, str, tuple[float, float], list[int]]], list[list[int]]]:
    """The deal's moves (from ``game.deal_start``: seat, kind, the counts of the cards shown) and,
    per seat, the counts of the cards played out of the hand, each worked out from the action alone
    (and the table of the deal's last play in Manipulation, the engine's record of a taken discard
    in Contract). Read on from the last call's position when it is the same game grown (the seeded
    games below: a re-read of every deal at every step would take minutes)."""
    seen = _SEEN
    history = game.history
    if not (seen["game"] is game and seen["start"] == game.deal_start and seen["n"] <= len(history)):
        seen.update(game=game, start=game.deal_start, n=game.deal_start, moves=[], table=[0] * N)
        seen["played"] = [[0] * N for _ in range(game.num_players)]
    moves, played, table = seen["moves"], seen["played"], seen["table"]
    gains = {g[1]: g[3] for g in game._gains}
    for i in range(seen["n"], len(history)):
        a = history[i]
        word = str(a).split()[0]
        shown = [0] * N
        shape = (0.0, 0.0)  # a Zheng Shang You play's copies / 8 and length / 16
        out = False  # the shown cards left the hand
        if game.GAME == "zsy":
            if word == "pass":
                kind = "pass"
            elif word in ("offer", "take", "give"):
                kind = word
                shown[a.card.index] += 1
            else:
                kind, out = a.combo.kind, True
                shape = (a.combo.copies / 8, a.combo.length / 16)
                for c in a.combo.cards:
                    shown[c.index] += 1
        elif game.GAME == "contract":
            kind = type(a).__name__[1:].lower()
            cards: list[Any] = []
            if kind == "discard":
                cards = [a.card]
            elif kind == "laydown":
                cards = [c for m in a.melds for c in m.cards]
            elif kind == "layoff":
                cards = list(a.cards.cards)
            elif kind == "swap":
                cards = [a.swap.card]
            elif kind in ("take", "call"):
                cards = list(gains[i]) if i in gains else []
            out = kind in ("discard", "laydown", "layoff", "swap")
            for c in cards:
                shown[c.index] += 1
        else:
            kind = type(a).__name__[1:].lower()
            if kind == "play":
                after = [0] * N
                for m in a.table:
                    for c in m.cards:
                        after[c.index] += 1
                shown = [x - y for x, y in zip(after, table, strict=True)]
                table[:], out = after, True
        moves.append((a.player, kind, shape, shown))
        if out:
            played[a.player] = [x + y for x, y in zip(played[a.player], shown, strict=True)]
    seen["n"] = len(history)
    return moves, played


_SEEN: dict[str, Any] = {"game": None, "start": -1, "n": 0}  # the moves read so far (see _moves)


def _history_reference(game: Any, p: int, out: list[float]) -> None:
    """The history part: cards played by seat this deal, then the last moves, newest first."""
    n = game.num_players
    at = feature_size(game.GAME) - HISTORY_SIZE
    moves, played = _moves(game)
    for seat, counts in enumerate(played):
        out[at + ((seat - p) % n) * N : at + ((seat - p) % n + 1) * N] = map(float, counts)
    at += MAX_SEATS * N
    for j, (seat, kind, shape, shown) in enumerate(reversed(moves[-MAX_MOVES:])):
        row = at + j * MOVE_SIZE
        out[row + (seat - p) % n] = 1.0
        out[row + MAX_SEATS + MOVE_KINDS[game.GAME].index(kind)] = 1.0
        out[row + MAX_SEATS + MAX_KINDS : row + MAX_SEATS + MAX_KINDS + 2] = shape
        for i, k in enumerate(shown):
            out[row + MAX_SEATS + MAX_KINDS + 2 + i] = float(k)


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
            shape = (game.trick.copies / 8, game.trick.length / 16)
            out[at + 3 * N + 1 + 2 * MAX_SEATS + 4 : at + 3 * N + 1 + 2 * MAX_SEATS + 6] = shape
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
        if turn.stage is not None and p == game.current_player():  # the swap's card is still in the hand
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
    _history_reference(game, p, out)
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
    import solver.envs.features_writers as writers

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
    monkeypatch.setattr(writers, "_common", counted("common", writers._common))
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
    for kind, cards in (("set", "3H BJ RJ"), ("straight", "3H BJ RJ"), *_PARALLELS):
        game: Any = new_game("zsy", None, 4, 0, max_hands=1)
        game.trick, game.trick_player = Combo.parse(f"{kind}:{cards}", game.rules), 1
        zsy.append(Turn(game))
    for a, b in ((low, high), (zsy[0], zsy[1]), (zsy[2], zsy[3])):
        for p in range(4):
            assert features(a, p) != features(b, p)
            assert Observations(a.game.GAME, 4).view(a, p) == features(a, p) == _reference(a, p)


_PARALLELS = [(f"parallel-{shape}", "5S 5H 6S 6H 7S 7H 2S 2H 2D 2C BJ RJ") for shape in ("3x4", "4x3")]


def test_a_parallel_play_s_declared_shape_is_in_the_record() -> None:
    # the same twelve cards played as parallel-3x4 or parallel-4x3 (issue 36): the last moves tell them apart
    from solver.zsy.combos import Combo
    from solver.zsy.game import ZPlay

    views = []
    for kind, cards in _PARALLELS:
        game: Any = new_game("zsy", None, 4, 0, max_hands=1)
        game.history.append(ZPlay(0, Combo.parse(f"{kind}:{cards}", game.rules)))
        turn = Turn(game)
        views.append(features(turn, 1))
        assert views[-1] == _reference(turn, 1)
    assert views[0] != views[1]


def _deal_position(game_name: str, seed: int, moves: int) -> Any:
    """A seeded game of random players with at least ``moves`` moves in its current deal."""
    options: dict[str, Any] = {"max_rounds": 1} if game_name == "contract" else {"max_hands": 1}
    game = new_game(game_name, None, 4, seed, **options)
    player = RandomPlayer(seed)
    while len(game.history) - game.deal_start < moves:
        assert not game.is_terminal()
        game.apply(player.choose(game))
    return game


def _all_differ(a: Any, b: Any) -> None:
    """Every player's features tell ``a`` from ``b``; the views and the reference agree on both."""
    for p in range(4):
        fa, fb = features(Turn(a), p), features(Turn(b), p)
        assert fa != fb, p
        for game, want in ((a, fa), (b, fb)):
            assert Observations(game.GAME, 4).view(Turn(game), p) == want == _reference(Turn(game), p)


@pytest.mark.parametrize("game_name", ["zsy", "contract"])
def test_a_card_played_by_a_seat_long_ago_changes_every_players_features(game_name: str) -> None:
    # two positions alike but for one card a seat played early in the deal (before the last moves
    # shown): the cards played by seat tell them apart
    from solver.cards import Card
    from solver.contract.game import CDiscard
    from solver.zsy.combos import Combo
    from solver.zsy.game import ZPlay

    game = _deal_position(game_name, 3, 3 * MAX_MOVES)
    window = len(game.history) - MAX_MOVES
    other = game.clone()
    other.history = list(game.history)
    kind = ZPlay if game_name == "zsy" else CDiscard
    i = next(i for i in range(game.deal_start, window) if isinstance(game.history[i], kind))
    a: Any = game.history[i]
    if game_name == "zsy":
        card = "3S" if str(a.combo.cards) != "3S" else "4S"
        other.history[i] = ZPlay(a.player, Combo.parse(f"single:{card}", game.rules))
    else:
        other.history[i] = CDiscard(a.player, Card.parse("3S" if str(a.card) != "3S" else "4S"))
    _all_differ(game, other)


@pytest.mark.parametrize("game_name", ["zsy", "contract", "manipulation"])
def test_the_order_of_the_last_moves_changes_every_players_features(game_name: str) -> None:
    # two moves of the last ones shown, taken in the other order: the same cards played by each
    # seat, another history (the moves shown newest first tell them apart)
    plays = ("MPlay",) if game_name == "manipulation" else ()  # a play's cards follow from the play before
    for seed in range(4, 40):  # the first seeded position with two such moves among the last ones
        game = _deal_position(game_name, seed, 2 * MAX_MOVES)
        h = game.history
        last = [i for i in range(len(h) - MAX_MOVES, len(h)) if type(h[i]).__name__ not in plays]
        pairs = [(i, j) for i in last for j in last if i < j and h[i].player != h[j].player]
        if pairs:
            break
    i, j = pairs[0]
    other = game.clone()
    other.history = list(h)
    other.history[i], other.history[j] = h[j], h[i]
    _all_differ(game, other)


def test_a_manipulation_table_of_more_than_40_melds_shows_every_meld() -> None:
    # three decks make up to 52 melds of three: every one has its slot (the slots follow the largest
    # deck the rules allow), and two tables differing only in their 44th meld differ in every view
    from solver.envs.features import table_slots
    from solver.melds import Meld
    from solver.rules.manipulation import ManipulationRules

    rules = ManipulationRules(decks=3)
    assert table_slots(rules) == 52 <= MAX_TABLE
    assert table_slots(ManipulationRules(decks=4, jokers=8)) == MAX_TABLE == 72
    runs = [f"{a}{s} {b}{s} {c}{s}" for s in "SHDC" for a, b, c in (("A", 2, 3), (4, 5, 6), (7, 8, 9), (10, "J", "Q"))]
    melds = tuple(Meld.parse(text) for text in runs * 3)[:45]
    game: Any = new_game("manipulation", rules, 4, 0, max_hands=1)
    game.table = melds
    at = 2 * N + 3 * MAX_SEATS + N
    for p in range(4):
        got = features(Turn(game), p)
        assert got == _reference(Turn(game), p) == Observations("manipulation", 4).view(Turn(game), p)
        for m, meld in enumerate(melds):
            assert got[at + m * N : at + (m + 1) * N] == [float(k) for k in meld.multiset.counts], m
    other: Any = new_game("manipulation", rules, 4, 0, max_hands=1)
    other.table = (*melds[:43], Meld.parse("KS KH KD"), *melds[44:])
    _all_differ(game, other)


def test_a_swap_in_progress_shows_only_in_the_movers_view() -> None:
    # between a swap's two steps the card to go in is still in the mover's hand: the other players'
    # features are those of the position without the half-made swap; the mover's differ
    for seed in range(60):
        game = new_game("contract", None, 4, seed, max_rounds=1)
        player = RandomPlayer(seed)
        turn = Turn(game)
        while not game.is_terminal():
            swaps = [i for i in turn.legal() if turn.codec.name(i).startswith("swap")]
            if swaps:
                break
            game.apply(player.choose(game))
        if not game.is_terminal():
            break
    else:
        raise AssertionError("no swap in 60 seeded games")
    mover = game.current_player()
    before = [features(turn, p) for p in range(4)]
    turn.apply(swaps[0])
    assert turn.stage is not None
    for p in range(4):
        after = features(turn, p)
        assert after == _reference(turn, p)
        assert (after != before[p]) == (p == mover), p


def test_a_contract_table_that_could_pass_the_slots_is_refused_not_cut() -> None:
    # nine-meld contracts for four players could put 36 melds on the table, past the 32 slots of the
    # features and the action space: the env refuses the rule set in one line rather than drop melds
    from solver.envs import aec_env
    from solver.envs.turn import TableTooLarge

    big = {"contracts": ["set set set set set set set set set"] * 7}
    with pytest.raises(TableTooLarge, match="36 melds"):
        aec_env("contract", rules=big, seed=1)
    aec_env("contract", seed=1)  # the presets fit: at most 3 melds a player, 8 players at most
