"""The two-player endgame search against the independent minimax (tests/oracles/zsy_endgame.py)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import NATURAL_CARDS, Card, Cards
from solver.errors import ComboError, SolverTimeout
from solver.rules import ZsyRules
from solver.zsy import Combo, zsy_value
from solver.zsy.endgame import EndgameTooBig, solve_lead, wins
from tests.oracles.zsy_endgame import ref_winning_leads, ref_wins
from tests.oracles.zsy_reference import Key, ref_beats, ref_classify

DEFAULT = ZsyRules()
BOMBS = ZsyRules(bombs=True)


def key(c: Combo) -> Key:
    return (c.kind, c.copies, c.length, c.top, c.flush, c.pure)


def as_move(c: Combo) -> tuple[tuple[str, ...], Key]:
    return (tuple(sorted(x.code for x in c.cards)), key(c))


def deal(rng: random.Random, sizes: tuple[int, int]) -> tuple[Cards, Cards]:
    """Two small hands from a narrow window of ranks (so combinations form), a wild now and then."""
    low = rng.randint(3, 9)
    pool = [c for c in NATURAL_CARDS if low <= zsy_value(c) < low + 5]
    pool += [Card.parse(w) for w in ("2S", "2H", "RJ", "BJ")]
    cards = rng.sample(pool, sizes[0] + sizes[1])
    return Cards(cards[: sizes[0]]), Cards(cards[sizes[0] :])


def replay(hand: Cards, opponent: Cards, line: tuple[tuple[str, Combo | None], ...], bombs: bool) -> str:
    """Play the line out by the rule book (the reference referee): who goes out first."""
    hands = {"you": list(hand), "opponent": list(opponent)}
    table: Key | None = None
    last = ""
    for side, move in line:
        if move is None:
            assert table is not None, "a lead cannot be passed"
            assert side != last
            table, last = None, ""
            continue
        k = key(move)
        assert k in ref_classify(tuple(move.cards)), f"{move} is not a combination"
        if table is not None:
            assert ref_beats(k, table, bombs), f"{move} does not beat the table"
        for c in move.cards:
            hands[side].remove(c)
        if not hands[side]:
            return side
        table, last = k, side
    raise AssertionError("the line stops before anyone is out")


@pytest.mark.parametrize("rules", [DEFAULT, BOMBS], ids=["default", "bombs"])
def test_winning_leads_agree_with_minimax_on_random_tiny_deals(rules: ZsyRules) -> None:
    rng = random.Random(28)
    some_win = some_lose = 0
    for _ in range(60):
        hand, opponent = deal(rng, (rng.randint(2, 4), rng.randint(2, 4)))
        e = solve_lead(hand, opponent, rules)
        want = ref_winning_leads(list(hand), list(opponent), rules.bombs)
        assert {as_move(m) for m in e.winning} == want, (hand, opponent)
        assert len(e.winning) == len(set(map(as_move, e.winning)))
        if e.winning:
            some_win += 1
            assert e.line[0] == ("you", e.winning[0])
            assert replay(hand, opponent, e.line, rules.bombs) == "you"
        else:
            some_lose += 1
            assert e.line == ()
    assert some_win > 5 and some_lose > 5  # both outcomes are tested


def test_wins_with_a_combination_to_beat_agrees_with_minimax() -> None:
    rng = random.Random(7)
    for _ in range(40):
        hand, opponent = deal(rng, (3, 3))
        lead = rng.choice([m for m, _ in solve_lead(opponent, hand).leads])
        rest = opponent - lead.cards
        if not rest:
            continue
        got = wins(hand, rest, lead)
        ref = ref_wins(tuple(sorted(c.code for c in hand)), tuple(sorted(c.code for c in rest)), key(lead))
        assert got == ref


def test_the_line_is_the_plan_against_the_longest_defence() -> None:
    # the opponent's ace takes the king, but the straight comes first and the opponent cannot beat it
    e = solve_lead(Cards.parse("3S 4H 5D KC 7C"), Cards.parse("AS 10H 6H"))
    assert [str(m) for m in e.winning] == ["straight:3S 4H 5D"]
    assert [str(m) if m else "pass" for _, m in e.line] == [
        "straight:3S 4H 5D",
        "pass",
        "single:7C",
        "single:AS",
        "pass",
        "single:6H",
        "single:KC",
    ]


def test_no_winning_lead_and_bad_input() -> None:
    assert solve_lead(Cards.parse("3S 4H"), Cards.parse("AS")).winning == ()
    with pytest.raises(ComboError, match="needs cards in both hands"):
        solve_lead(Cards.parse("3S"), Cards())
    with pytest.raises(EndgameTooBig, match="more than 10 positions"):
        solve_lead(Cards.parse("3S 4S 5S 6S 7S 8S"), Cards.parse("3H 4H 5H 6H 7H 8H"), max_nodes=10)


def test_a_search_past_its_time_limit_raises() -> None:
    with pytest.raises(SolverTimeout, match="did not finish in 0 s"):
        solve_lead(Cards.parse("3S 4S 5H 6D 8C 9C 10D JS"), Cards.parse("3D 4D 6H 7H 8S 9S JC QD"), time_limit=0)


_SMALL_POOL = [c for c in NATURAL_CARDS if zsy_value(c) <= 7] + [Card.parse(w) for w in ("2S", "2H", "RJ", "BJ")]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(_SMALL_POOL), min_size=4, max_size=6, unique=True), st.integers(1, 3))
def test_winning_leads_agree_with_minimax_hypothesis(cards: list[Card], cut: int) -> None:
    hand, opponent = Cards(cards[:cut]), Cards(cards[cut:])
    e = solve_lead(hand, opponent)
    assert {as_move(m) for m in e.winning} == ref_winning_leads(list(hand), list(opponent))
    if e.winning:
        assert replay(hand, opponent, e.line, False) == "you"


def test_the_solver_player_leads_the_bundled_endgames_winning_lead() -> None:
    # the engine's solver player (and so hint on a game and the calibrate model) plays the winning
    # lead of a two-player endgame, not its fewest-plays lead: the flush the opponent cannot beat loses
    from pathlib import Path

    from solver.generate.players import zsy_lead
    from solver.puzzles import ZsyPosition, load

    root = Path(__file__).resolve().parents[2] / "puzzles" / "zsy"
    for name in ("lead-flush-trap.toml", "lead-endgame.toml"):
        puzzle = load(root / name)
        pos = puzzle.position
        assert isinstance(puzzle.rules, ZsyRules) and isinstance(pos, ZsyPosition) and pos.opponent is not None
        got = zsy_lead("solver", pos.hand, pos.opponent, puzzle.rules)
        assert got == Combo.parse(puzzle.meta["solution"], puzzle.rules).cards, name


def test_the_solver_player_wins_every_small_endgame_it_can_in_real_games() -> None:
    # seeded games of four solver players: at every decision where two players hold cards (8 or
    # fewer together) and the mover leads or answers the opponent, when the independent minimax
    # says the mover can win, the move played wins (by the minimax too)
    from solver.engine import new_game
    from solver.engine.players import make_player
    from solver.zsy.game import ZPass, ZPlay

    checked = 0
    for seed in range(40):
        game: Any = new_game("zsy", None, 4, seed, max_hands=1)
        player = make_player("solver", seed)
        while not game.is_terminal():
            action = player.choose(game)
            holding = [q for q, h in enumerate(game.hands) if h]
            p = game.to_move
            if len(holding) == 2 and isinstance(action, (ZPlay, ZPass)):
                q = holding[0] if holding[1] == p else holding[1]
                mine = tuple(sorted(c.code for c in game.hands[p]))
                theirs = tuple(sorted(c.code for c in game.hands[q]))
                trick = game.trick
                if len(mine) + len(theirs) <= 8 and (trick is None or game.trick_player == q):
                    table = None if trick is None else key(trick)
                    if ref_wins(mine, theirs, table):
                        if isinstance(action, ZPass):
                            won = not ref_wins(theirs, mine, None)
                        else:
                            rest = tuple(sorted(c.code for c in game.hands[p] - action.combo.cards))
                            won = not rest or not ref_wins(theirs, rest, key(action.combo))
                        assert won, (seed, mine, theirs, trick, action)
                        checked += 1
            game.apply(action)
    assert checked >= 10
