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
from solver.cards import Card, Cards
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
    assert [codec_for(game).name(i) for i in path] == ["select 8H", "select 9H", "layoff 0"]
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


def _contract_play_phase(preset: str, hand: str, melds: list[str], laid_down: bool) -> Any:
    """A Contract game of ``preset`` in player 0's play phase with this hand and table (melds of player 1)."""
    game: Any = new_game("contract", {"preset": preset}, 4, 0, max_rounds=1)
    p = game.to_move
    game.phase = "play"
    game.hands[p] = Cards.parse(hand)
    game.laid_down[p] = laid_down
    game.laid_this_turn = False
    game.table = [TableMeld(Meld.parse(m), (p + 1) % 4) for m in melds]
    game.clear_caches()
    return game


class _Melds:
    """A stand-in lay-down of these melds (what ``ContractCodec._laid`` reads)."""

    def __init__(self, melds: tuple[Meld, ...]) -> None:
        self.melds = melds


def _paths_to_readings(game: Any, cards: str, commit: int) -> dict[Any, list[int]]:
    """Walk every index path that selects ``cards`` and commits them (``commit``, then any roles):
    the table effect each path leaves or the meld it closes -> the path."""
    from solver.contract.tablemelds import canon

    turn = Turn(game.clone())
    for c in sorted(Cards.parse(cards), key=lambda c: c.index):
        turn.apply(ContractCodec.SELECT + c.index)
    found: dict[Any, list[int]] = {}
    stack: list[tuple[Turn, list[int]]] = [(turn, [commit])]
    while stack:
        t, path = stack.pop()
        t = t.clone()
        done = t.apply(path[-1])
        if done is None and t.reading is not None:
            stack.extend((t, [*path, i]) for i in t.legal() if i != ContractCodec.CANCEL)
            continue
        if done is not None:
            key: Any = str(state(t.game))
        else:
            laid = ContractCodec._laid(t.game, _Melds(t.built[-1:]))
            assert laid is not None
            key = canon(laid[0])
        assert key not in found, f"two paths to one effect: {found[key]} and {path}"
        found[key] = path
    return found


@pytest.mark.parametrize(("cards", "readings"), [("5H 6H 2S 2C JK", 24), ("5H 2S 2C JK JK", 61)])
def test_every_reading_of_a_jokers_and_twos_meld_is_reachable(cards: str, readings: int) -> None:
    # the melds: 24 and 61 readings, of which the mask offered the first 16 (and ``encode``
    # raised ``reading 17 of more than 16``); now ``meld`` then the roles, one path a reading
    from solver.contract.tablemelds import canon
    from solver.envs.contract_actions import meld_options

    game = _contract_play_phase("jokers_and_twos", f"{cards} 8S 8H 8D KD", [], laid_down=False)
    rules = game.rules
    options = meld_options(Meld(()), tuple(sorted(Cards.parse(cards), key=lambda c: c.index)), rules)
    assert len(options) == readings
    found = _paths_to_readings(game, cards, ContractCodec.MELD)
    assert set(found) == {canon(table) for _, table in options}
    codec = codec_for(game)
    for added, table in options:  # each reading, laid down with the set, encodes to its path and back
        from solver.contract.game import CLayDown

        action = CLayDown(game.to_move, (Meld.parse("8S 8H 8D"), added))
        if not game.is_legal(action):
            continue
        path = codec.encode(game, action)
        assert path[-len(found[canon(table)]) - 1 : -1] == found[canon(table)]
        assert carry_out(game, path) == after(game, action)


def test_every_reading_of_a_lay_off_of_several_wilds_is_reachable() -> None:
    from solver.envs.contract_actions import meld_options

    game = _contract_play_phase("jokers_and_twos", "2S 2C JK KD", ["5H 6H 7H 8H"], laid_down=True)
    cards = tuple(sorted(Cards.parse("2S 2C JK"), key=lambda c: c.index))
    options = [o for o in meld_options(game.table[0].meld, cards, game.rules) if game.grown(0, o[0]) == o[1]]
    assert len(options) > 16
    found = _paths_to_readings(game, "2S 2C JK", ContractCodec.LAYOFF + 0)
    assert len(found) == len(options)
    from solver.contract.game import CLayOff

    for added, _ in options:
        action = CLayOff(game.to_move, 0, added)
        assert carry_out(game, codec_for(game).encode(game, action)) == after(game, action)


def test_a_swap_back_onto_its_meld_with_a_lay_offs_effect_is_not_a_second_path() -> None:
    # ``swap 0 4S 2S 0`` (the 2S freed by the 4S goes back onto the set) leaves the table ``layoff 0 4S``
    # leaves (found in seeded random games: 86 in 3,607 positions): one action, listed once by the
    # engine and one path in the env; the 2S sent onto the run stays a swap
    from solver.contract.game import CLayOff, CSwap

    game = _contract_play_phase("finnish", "4S 9D", ["4H 4D 4D 2S=4H", "5C 6C 7C 8C"], laid_down=True)
    layoff = CLayOff(game.to_move, 0, Meld.parse("4S"))
    assert game.is_legal(layoff) and layoff in game.legal_actions()
    swaps = [a for a in game.legal_actions() if isinstance(a, CSwap)]
    assert swaps and all(a.dest == 1 for a in swaps), [str(a) for a in swaps]
    effects = [str(after(game, a)) for a in game.legal_actions()]
    assert len(effects) == len(set(effects))
    turn = Turn(game.clone())
    turn.apply(ContractCodec.SWAP + Card.parse("4S").index)
    dests = turn.legal()
    assert [turn.codec.name(i) for i in dests] == ["dest 1 0", "dest 1 1"]  # the 2S as the 4C or the 9C
    for index in dests:
        t = turn.clone()
        t.apply(index)
        assert state(t.game) != after(game, layoff), turn.codec.name(index)


def test_every_joker_role_of_a_rummikub_meld_is_reachable() -> None:
    # ``JK 9D 10D`` built meld by meld: the joker as the JD (the rule book's reading, the env's own), left
    # open (as the engine's listed plays leave it), or as the 8D: three tables (worth 30 or 27 to an
    # opening), three paths; the solver's ``JK=8D 9D 10D`` came back as ``JK=JD 9D 10D`` before
    from solver.manipulation.game import MPlay

    game: Any = new_game("manipulation", {"preset": "rummikub"}, 4, 0, max_hands=1)
    p = game.current_player()
    game.table = (Meld.parse("5S 5H 5D"),)
    game.hands[p] = Cards.parse("JK 9D 10D KC")
    game.opened[p] = True
    game.clear_caches()
    codec = ManipulationCodec()
    turn = Turn(game.clone())
    for index in [codec.BUILD, *(codec.PUT + Card.parse(c).index for c in ("5S", "5H", "5D")), codec.CLOSE]:
        turn.apply(index)
    for c in ("JK", "9D", "10D"):
        turn.apply(codec.PUT + Card.parse(c).index)
    turn.apply(codec.CLOSE)
    names = [codec.name(i) for i in turn.legal()]
    assert turn.reading is not None and names == ["cancel", "role 8D", "role JD", "role open"]  # ascending
    tables = set()
    for index in turn.legal()[1:]:
        t = turn.clone()
        t.apply(index)
        done = t.apply(codec.COMMIT)
        assert isinstance(done, MPlay)
        tables.add(str(done))
        path = codec.encode(game, done)  # the play comes back to the letter by its path
        again = Turn(game.clone())
        for i in path:
            result = again.apply(i)
        assert str(result) == str(done)
    assert tables == {f"play 5S 5H 5D | {m}" for m in ("JK=8D 9D 10D", "JK=JD 9D 10D", "JK 9D 10D")}
    for meld in ("JK=8D 9D 10D", "9D 10D JK=JD", "9D JK=8D 10D"):  # a player's play with roles written
        play = MPlay(p, (Meld.parse("5S 5H 5D"), Meld.parse(meld)))
        assert game.is_legal(play)
        assert carry_out(game, codec.encode(game, play)) == after(game, play)


@pytest.mark.parametrize(
    ("game_name", "preset", "positions", "least"),
    [("contract", "jokers_and_twos", 250, 100), ("manipulation", "rummikub", 90, 20)],
)
def test_the_brute_force_listings_are_what_the_mask_reaches(
    game_name: str, preset: str, positions: int, least: int
) -> None:
    # benchmarks/brute_reachable.py along a random game: every one-card lay-off and swap with every
    # role (Contract), every joker role of the listed plays (Manipulation), against the mask
    from benchmarks.brute_reachable import contract_one_card_moves, manipulation_joker_roles
    from benchmarks.soak_reachable import new
    from solver.engine.players import make_player

    game = new(game_name, preset, 0, 7 if game_name == "contract" else 1)
    player = make_player("random", 0)
    found = steps = 0
    while not game.is_terminal() and steps < positions:
        if game_name == "contract":
            found += contract_one_card_moves(game, after, state)
        else:
            found += manipulation_joker_roles(game, after, state, 10)
        game.apply(player.choose(game))
        steps += 1
    assert found >= least
