"""Every legal move reachable, exactly: for random states of every game and preset under every
built-in player, each listed action (and the player's own choice) encodes to index paths in the
mask that carry out an action of the same effect, distinct actions get distinct paths, and the
records of every player replay through the action space action for action."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from benchmarks.soak_reachable import PLAYERS, PRESETS, after, carry_out, soak, state
from solver.cards import Cards
from solver.engine import new_game
from solver.envs.actions import ContractCodec, ManipulationCodec, Turn, ZsyCodec, codec_for
from solver.errors import IllegalActionError
from solver.melds import Meld, TableMeld


@pytest.mark.parametrize(
    "player", [p for p in PLAYERS if not p.startswith("ismcts")]
)  # ismcts: the soak (40 s CPU here)
@pytest.mark.parametrize(("game_name", "preset"), PRESETS)
def test_players_records_replay_and_every_listed_action_round_trips(game_name: str, preset: str, player: str) -> None:
    # a 30% sample of the positions of one hand, 25 legal actions a position (the soak below checks every one)
    row = soak(game_name, preset, player, states=30, seeds=1, hands=1, share=0.3, most=25)
    assert row.positions >= 5 and row.replayed > 10


@pytest.mark.slow
@pytest.mark.parametrize("player", PLAYERS)
@pytest.mark.parametrize(("game_name", "preset"), PRESETS)
def test_a_thousand_states_round_trip(game_name: str, preset: str, player: str) -> None:
    # every round of Contract, three hands of the others; every position, every legal action
    # (python -m benchmarks.soak_reachable prints the same rows as a table)
    row = soak(game_name, preset, player, states=1000)
    assert row.positions == 1000


def _laid_down_contract(hand: str, melds: list[str]) -> Any:
    """A Contract game in the play phase of player 0, laid down, with this hand and table."""
    game: Any = new_game("contract", None, 4, 0, max_rounds=1)
    p = game.to_move
    game.phase = "play"
    game.hands[p] = Cards.parse(hand)
    game.laid_down[p] = True
    game.laid_this_turn = False
    game.table = [TableMeld(Meld.parse(m), (p + 1) % 4) for m in melds]
    game.clear_caches()
    return game


def test_a_wild_laid_off_at_either_end_of_a_run_is_two_actions() -> None:
    from solver.contract.game import CLayOff

    game = _laid_down_contract("2C 9S KD", ["4H 5H 2S=6H 7H"])
    low = CLayOff(game.to_move, 0, Meld.parse("2C=3H"))
    high = CLayOff(game.to_move, 0, Meld.parse("2C=8H"))
    codec = codec_for(game)
    paths = [codec.encode(game, a) for a in (low, high)]
    assert paths[0] != paths[1]
    for a, path in zip((low, high), paths):
        assert carry_out(game, path) == after(game, a)
    assert after(game, low) != after(game, high)


def test_a_lay_off_of_several_cards_is_one_action() -> None:
    from solver.contract.game import CLayOff

    game = _laid_down_contract("8H 9H KD", ["4H 5H 6H 7H"])
    both = CLayOff(game.to_move, 0, Meld.parse("8H 9H"))
    path = codec_for(game).encode(game, both)
    assert [codec_for(game).name(i) for i in path] == ["select 8H", "select 9H", "layoff 0 0"]
    assert carry_out(game, path) == after(game, both)


def test_the_lay_down_grouping_and_wild_roles_are_the_players() -> None:
    # the same cards grouped two ways (the wild in the set or the run), the wild at either end of
    # the run, and the melds' order: four lay-downs, four paths
    from solver.contract.game import CLayDown

    game: Any = new_game("contract", None, 4, 0, max_rounds=1)
    p = game.to_move
    game.phase = "play"
    game.hands[p] = Cards.parse("9C 9D 9S 5H 6H 7H 8H 2S KD")
    game.clear_caches()
    ways = [
        ("9C 9D 9S 2S", "5H 6H 7H 8H"),
        ("9C 9D 9S", "5H 6H 7H 8H 2S=9H"),
        ("9C 9D 9S", "2S=4H 5H 6H 7H 8H"),
        ("5H 6H 7H 8H 2S=9H", "9C 9D 9S"),
    ]
    a, b, c, d = (CLayDown(p, tuple(Meld.parse(m) for m in way)) for way in ways)
    assert all(game.is_legal(x) for x in (a, b, c, d))
    assert len({str(after(game, x)) for x in (a, b, c, d)}) == 4
    codec = codec_for(game)
    paths = [codec.encode(game, x) for x in (a, b, c, d)]
    assert len({tuple(x) for x in paths}) == 4
    for x, path in zip((a, b, c, d), paths):
        assert carry_out(game, path) == after(game, x)


@pytest.mark.parametrize("codec", [ZsyCodec(), ContractCodec(), ManipulationCodec()], ids=lambda c: c.GAME)
def test_indexes_outside_the_space_raise_illegal_action(codec: Any) -> None:
    options: dict[str, Any] = {"max_rounds": 1} if codec.GAME == "contract" else {"max_hands": 1}
    turn = Turn(new_game(codec.GAME, None, 4, 1, **options))
    bad: Any
    for bad in (-1, codec.size, codec.size + 7, 10**9, 1.5, "3"):
        with pytest.raises(IllegalActionError):
            codec.name(bad)
        with pytest.raises(IllegalActionError):
            turn.apply(bad)
    unlisted = next(i for i in range(codec.size) if i not in turn.legal())
    with pytest.raises(IllegalActionError):
        turn.apply(unlisted)
    assert issubclass(IllegalActionError, ValueError)


def test_the_documented_action_counts_are_the_real_ones() -> None:
    text = (Path(__file__).parents[2] / "docs" / "envs.md").read_text()
    sizes: dict[str, int] = {}  # the action table's rows (the first row naming each game)
    pattern = r"^\| (Zheng Shang You|Contract Shanghai|Manipulation Shanghai) \| (\d+) \|"
    for name, n in re.findall(pattern, text, re.M):
        sizes.setdefault(name, int(n))
    assert sizes == {
        "Zheng Shang You": ZsyCodec.size,
        "Contract Shanghai": ContractCodec.size,
        "Manipulation Shanghai": ManipulationCodec.size,
    }


def test_contract_legal_sets_do_not_depend_on_the_solver_clock() -> None:
    # the codec asks no solver: a game with no time at all for solver questions lists the same
    # indexes along a seeded game, the last round (its whole-hand lay-down) included
    for last in (False, True):
        fast: Any = new_game("contract", None, 4, 5, turn_limit=60)
        slow: Any = new_game("contract", None, 4, 5, turn_limit=60)
        if last:  # deal the last round again (the same seed: the same cards)
            for g in (fast, slow):
                g.round = g.rules.rounds - 1
                g._start_round()
                g.clear_caches()
        assert fast.all_at_once() == last and state(fast) == state(slow)
        slow.time_limit = 1e-9
        a, b = Turn(fast), Turn(slow)
        rng = random.Random(5)
        steps = 0
        while not a.game.is_terminal() and steps < 400:
            assert a.legal() == b.legal()
            i = rng.choice(a.legal())
            a.apply(i)
            b.apply(i)
            steps += 1
        assert steps > 50


def test_every_manipulation_play_the_codec_makes_is_made_again_by_its_path() -> None:
    # the plays the action space carries out (the solver's play of a selection, a listed play, a
    # table built meld by meld in any order, jokers with their roles) encode to a path that makes
    # the very same engine action again: its melds in the same order, their cards in the same order
    for preset, seed in (("norwegian", 3), ("rummikub", 4), ("german", 5)):
        game = new_game("manipulation", {"preset": preset}, 4, seed)
        rng = random.Random(seed)
        made = 0
        while not game.is_terminal() and made < 40:
            turn = Turn(game.clone())
            done = None
            while done is None:
                done = turn.apply(rng.choice(turn.legal()))
            path = turn.codec.encode(game, done)
            again = Turn(game.clone())
            for index in path:
                result = again.apply(index)
            assert str(result) == str(done)
            if hasattr(done, "table"):
                assert result.table == done.table, f"{done}: {[turn.codec.name(i) for i in path]}"
                made += 1
            game.apply(done)
        assert made >= 5, preset
