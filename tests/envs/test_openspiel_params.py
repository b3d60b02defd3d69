"""The OpenSpiel games' rule options as parameters, their length bound, and observers of every kind."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from solver.extras import require

pyspiel = require("pyspiel", "openspiel")
from open_spiel.python.observation import make_observation  # noqa: E402

from solver.envs.openspiel import ObserverError  # noqa: E402
from solver.envs.openspiel_history import OWN, entry_tokens, tokens  # noqa: E402
from solver.envs.openspiel_params import actions_per_hand, steps_per_action  # noqa: E402
from solver.errors import RulesError  # noqa: E402
from solver.rules import rules_for  # noqa: E402
from tests.envs.test_openspiel import chance, dealt, played  # noqa: E402

NONE, SINGLE = pyspiel.PrivateInfoType.NONE, pyspiel.PrivateInfoType.SINGLE_PLAYER


_dealt = dealt


# --- rule options as game parameters ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "game", "data"),
    [
        (
            "python_shanghai_contract(preset=us,ace=low,layoff_same_turn=0,max_calls=2,contracts=set run/run run)",
            "contract",
            {
                "preset": "us",
                "ace": "low",
                "layoff_same_turn": False,
                "max_calls": 2,
                "contracts": ["set run", "run run"],
            },
        ),
        (
            "python_shanghai_contract(preset=no_wild_swap,wild_swap=1)",
            "contract",
            {"preset": "no_wild_swap", "wild_swap": True},
        ),
        ("python_shanghai_contract(max_calls=0,deal=10)", "contract", {"max_calls": 0, "deal": 10}),
        ("python_shanghai_zsy(bombs=1,target=5)", "zsy", {"bombs": True, "target": 5}),
        (
            "python_shanghai_manipulation(preset=norwegian,must_play=never,deal=7)",
            "manipulation",
            {"preset": "norwegian", "must_play": "never", "deal": 7},
        ),
    ],
)
def test_rule_options_are_game_parameters(text: str, game: str, data: dict[str, Any]) -> None:
    loaded = pyspiel.load_game(text)
    rules = rules_for(game, data)
    assert loaded.rules == rules
    assert loaded.rules != rules_for(game, {"preset": data["preset"]} if "preset" in data else {})
    assert _dealt(loaded, 9).turn.game.rules == rules  # the engine plays by them


def test_rule_options_left_out_keep_the_presets() -> None:
    assert pyspiel.load_game("python_shanghai_contract(preset=us)").rules == rules_for("contract", {"preset": "us"})
    assert pyspiel.load_game("python_shanghai_zsy").rules == rules_for("zsy")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("python_shanghai_zsy(bombs=2)", "zsy rule option 'bombs' must be 1 (true) or 0 (false), not 2"),
        (
            "python_shanghai_contract(ace=middle)",
            "contract rule option 'ace' must be one of 'low', 'high', 'both', not 'middle'",
        ),
        ("python_shanghai_contract(max_calls=-3)", "contract rule option 'max_calls' must be between"),
        ("python_shanghai_manipulation(target=0)", "manipulation rule option 'target' must be between"),
    ],
)
def test_bad_rule_options_are_one_clear_line(text: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        pyspiel.load_game(text)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)


def test_an_unknown_parameter_is_named() -> None:
    with pytest.raises(pyspiel.SpielError, match=r"Unknown parameter 'acme'\. Available parameters are: .*bombs"):
        pyspiel.load_game("python_shanghai_zsy(acme=1)")


# --- honest metadata --------------------------------------------------------------------------

BOUNDED = [
    "python_shanghai_zsy",
    "python_shanghai_zsy(preset=teams6,hands=2)",
    "python_shanghai_contract(turn_limit=30,players=3)",
    "python_shanghai_contract(preset=poker_deck,turn_limit=20,hands=2)",
    "python_shanghai_manipulation(deal=6,must_play=never)",
]


@pytest.mark.parametrize("text", BOUNDED)
def test_random_playouts_stay_within_the_derived_bounds(text: str) -> None:
    # the whole game within max_game_length, and each part of its derivation holds
    # (steps per engine action, engine actions per hand): a wrong part fails here
    game = pyspiel.load_game(text)
    rng = random.Random(text)
    for _ in range(2):
        state = _dealt(game, rng.getrandbits(32))
        engine = state.turn.game
        cards = len(engine.all_cards())
        actions = 0
        per_hand: dict[int, int] = {}
        while not state.is_terminal():
            if state.is_chance_node():  # the next hand's deal
                chance(state, rng)
                continue
            before = len(engine.history)
            hand = engine._epoch()
            state.apply_action(rng.choice(state.legal_actions()))
            actions += 1
            if len(engine.history) > before:
                assert actions <= steps_per_action(cards)
                actions = 0
                per_hand[hand] = per_hand.get(hand, 0) + 1
        assert len(state.history()) <= game.max_game_length()
        bound = actions_per_hand(game.NAME, game.num_players(), cards, game.params.turn_limit)
        assert max(per_hand.values()) <= bound
        assert len(per_hand) <= game.hands


def test_max_game_length_follows_the_rules() -> None:
    def length(text: str) -> int:
        return int(pyspiel.load_game(text).max_game_length())

    assert length("python_shanghai_contract(turn_limit=40)") < length("python_shanghai_contract(turn_limit=80)")
    assert length("python_shanghai_zsy(hands=2)") > length("python_shanghai_zsy") > 4
    assert length("python_shanghai_contract(hands=9)") == length("python_shanghai_contract(hands=7)")  # 7 rounds
    assert length("python_shanghai_contract(decks=3)") > length("python_shanghai_contract")


def test_players_per_preset() -> None:
    assert pyspiel.load_game("python_shanghai_zsy(preset=pairs)").num_players() == 4
    assert pyspiel.load_game("python_shanghai_zsy(preset=teams6)").num_players() == 6
    assert pyspiel.load_game("python_shanghai_manipulation(players=5)").num_players() == 5
    assert pyspiel.load_game("python_shanghai_contract(min_players=5)").num_players() == 5


# --- observers ----------------------------------------------------------------------------------

OBSERVED = ["python_shanghai_zsy", "python_shanghai_contract(turn_limit=40)", "python_shanghai_manipulation(deal=7)"]


def _played(text: str, steps: int) -> Any:
    game = pyspiel.load_game(text)
    return game, played(game, 77, steps)


@pytest.mark.parametrize("text", OBSERVED)
def test_public_observer_ignores_private_cards(text: str) -> None:
    game, state = _played(text, 25)
    mover = state.current_player()
    other = state.resample_from_infostate(mover, random.Random(5).random)  # everyone else's cards dealt anew
    public = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, public_info=True, private_info=NONE)
    )
    private = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, public_info=False, private_info=SINGLE)
    )
    default = make_observation(game)
    changed = [p for p in range(game.num_players()) if other.turn.game.hands[p] != state.turn.game.hands[p]]
    assert changed  # the two states differ in private cards only
    for p in changed:
        seen = []
        for s in (state, other):
            public.set_from(s, p)
            private.set_from(s, p)
            default.set_from(s, p)
            seen.append(
                (public.string_from(s, p), public.tensor.copy(), private.string_from(s, p), default.tensor.copy())
            )
        assert seen[0][0] == seen[1][0] and (seen[0][1] == seen[1][1]).all()
        assert seen[0][2] != seen[1][2] and (seen[0][3] != seen[1][3]).any()


@pytest.mark.parametrize("text", OBSERVED)
def test_observer_types_show_what_they_name(text: str) -> None:
    import json

    game, state = _played(text, 25)
    p = state.current_player()
    sizes = {}
    for recall in (False, True):
        for public_info in (False, True):
            for private_info in (NONE, SINGLE):
                kind = pyspiel.IIGObservationType(
                    perfect_recall=recall, public_info=public_info, private_info=private_info
                )
                observer = make_observation(game, kind)
                observer.set_from(state, p)
                view = json.loads(observer.string_from(state, p))
                assert ("hand" in view) == (private_info == SINGLE)
                assert ("hand_sizes" in view) == public_info
                assert ("history" in view) == (public_info and recall)
                sizes[recall, public_info, private_info] = observer.tensor.size
    assert sizes[False, False, NONE] == 0 and sizes[False, False, SINGLE] == 110 + 4  # hand, selection, cancels
    assert sizes[False, True, SINGLE] == sizes[False, True, NONE] + 114 == game.observation_tensor_size()
    assert sizes[True, False, SINGLE] == 114  # the history is public
    assert sizes[True, True, SINGLE] == game.observation_tensor_size() + game.history_size
    assert sizes[True, True, SINGLE] == game.information_state_tensor_size()
    with pytest.raises(ObserverError):
        game.make_py_observer(
            pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS)
        )


# --- the information-state tensor carries the history --------------------------------------------

HISTORIES = [
    "python_shanghai_zsy(hands=2)",
    "python_shanghai_zsy(preset=teams6)",
    "python_shanghai_contract(turn_limit=40)",
    "python_shanghai_contract(preset=jokers_and_twos,turn_limit=40,players=3)",
    "python_shanghai_manipulation(deal=7,decks=1,jokers=2)",
]


@pytest.mark.parametrize("text", HISTORIES)
def test_information_state_tensors_and_strings_map_one_to_one(text: str) -> None:
    # over random play: the same information-state string always has the same tensor, and two strings
    # never share a tensor; the tensor's last part is the history's tokens
    game = pyspiel.load_game(text)
    size = game.information_state_tensor_size()
    assert size > game.observation_tensor_size()
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    rng = random.Random(text)
    for run in range(2):
        state = played(game, run, 0)
        for step in range(200):  # the first 200 steps of each game, every third one looked at
            if state.is_terminal():
                break
            if state.is_chance_node():
                chance(state, rng)
                continue
            for p in range(game.num_players()) if step % 3 == 0 else ():
                string, tensor = state.information_state_string(p), state.information_state_tensor(p)
                assert len(tensor) == size
                key = np.asarray(tensor, np.float32).tobytes()
                assert by_string.setdefault(string, key) == key
                assert by_tensor.setdefault(key, string) == string
            state.apply_action(rng.choice(state.legal_actions()))
        # the record: the seed, each deal and the player's cards, the engine actions and what they gave
        # the player, then the player's steps of the turn in progress (solver.envs.openspiel_history)
        record = state.record_of(0)
        assert record[0].startswith("seed ") and record[1] == "deal" and record[2].startswith("dealt ")
        assert [e for e in record if ":" in e] == state.turn.history_strings()
        written = [t for e in record for t in entry_tokens(e)] + [OWN + a for a in state.turn_steps(0)]
        part = state.information_state_tensor(0)[game.observation_tensor_size() :]
        assert part[: len(written)] == written and not any(part[len(written) :])
    assert len(by_string) > 100


def test_the_history_part_decodes_to_the_history() -> None:
    from solver.envs.openspiel_history import CARD, NUMBER

    # player 2 (3), play (9), straight (43), then the cards by index (3H 15, 4H 16, 5S 4)
    assert tokens(2, "play straight:3H 4H 5S") == [3, 9, 43, CARD + 15, CARD + 16, CARD + 4]
    # a wild's role: the wild (2S, 1), "=" (59), the card it stands for (6H, 18)
    assert tokens(0, "laydown 4H 5H 2S=6H 7H")[-4:] == [CARD + 1, 59, CARD + 18, CARD + 19]
    # parallel straights declared with a shape (issue 36: 'no token for parallel-2x6:'): the kind, copies, length
    cards = "5S 5H 6S 6H 7S 7H 2S 2H 2D 2C BJ RJ"
    three, four = tokens(0, f"play parallel-3x4:{cards}"), tokens(0, f"play parallel-4x3:{cards}")
    assert three[:5] == [1, 9, 44, NUMBER + 3, NUMBER + 4] and four[:5] == [1, 9, 44, NUMBER + 4, NUMBER + 3]
    assert three[5:] == four[5:] == tokens(0, f"play parallel:{cards}")[3:]
    with pytest.raises(ValueError, match="no token for 'frobnicate'"):
        tokens(0, "frobnicate 3H")
