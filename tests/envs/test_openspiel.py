"""The games registered with OpenSpiel: its random-simulation test, and its ISMCTS bot playing a game."""

from __future__ import annotations

import random
from typing import Any

import pytest

from solver.cards import ALL_CARDS, Cards
from solver.errors import IllegalActionError
from solver.extras import require

pyspiel = require("pyspiel", "openspiel")
import solver.envs.openspiel  # noqa: E402,F401

GAMES = [
    "python_shanghai_zsy",
    "python_shanghai_zsy(preset=pairs)",
    "python_shanghai_zsy(preset=teams6)",
    "python_shanghai_contract(turn_limit=40)",
    "python_shanghai_contract(preset=poker_deck,turn_limit=40,players=3)",
    "python_shanghai_manipulation(preset=norwegian)",
]


def chance(state: Any, rng: random.Random) -> None:
    """Apply one chance outcome, drawn with its probability."""
    outcomes = state.chance_outcomes()
    state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])


def dealt(game: Any, seed: int) -> Any:
    """A state after the seed ``seed`` (its four byte outcomes) and a deal drawn from ``random.Random(seed)``."""
    state = game.new_initial_state()
    for byte in seed.to_bytes(4, "little"):
        assert state.is_chance_node()
        state.apply_action(byte)
    deal = state.deal
    cards = [i for i, n in enumerate(deal.counts) for _ in range(n)]
    random.Random(seed).shuffle(cards)  # a uniform deal order: each slot's card as the chance outcomes draw it
    for card in cards:
        state.apply_action(card)
    assert not state.is_chance_node()
    return state


def played(game: Any, seed: int, steps: int) -> Any:
    """A state ``steps`` random steps (chance ones included) after ``dealt(game, seed)``."""
    state = dealt(game, seed)
    rng = random.Random(seed + 1)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            chance(state, rng)
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


_dealt = dealt


NAMES = ["python_shanghai_zsy", "python_shanghai_contract", "python_shanghai_manipulation"]


def _first_hands(name: str, deals: int) -> None:
    # a seed of 2^32 (four chance nodes of 256 bytes), then the deal card by card: no hand names its deal
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(b, 1 / 256) for b in range(256)]
    assert game.max_chance_outcomes() == 256
    rng = random.Random(name)
    hands = {str(_dealt(game, rng.getrandbits(32)).turn.game.hands[0]) for _ in range(deals)}
    assert len(hands) == deals


@pytest.mark.parametrize("name", NAMES)
def test_a_thousand_deals_give_a_thousand_first_hands(name: str) -> None:
    _first_hands(name, 1_000 if name == "python_shanghai_zsy" else 500)


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_ten_thousand_deals_give_ten_thousand_first_hands(name: str) -> None:
    _first_hands(name, 10_000)  # about 30 s a game: `pytest -m slow`


@pytest.mark.parametrize(
    "name", ["python_shanghai_zsy(preset=teams6)", "python_shanghai_contract", "python_shanghai_manipulation"]
)
def test_the_deal_is_card_by_card(name: str) -> None:
    # after the seed, one chance node a card slot (each hand's, then the stock's), with the copies left
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    for byte in (1, 2, 3, 4):
        state.apply_action(byte)
    deal, cards = state.deal, []
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
        cards.append(max(outcomes, key=lambda o: (o[1], o[0]))[0])  # the commonest card left: not a shuffle's order
        state.apply_action(cards[-1])
    engine = state.turn.game
    assert len(cards) == deal.size and sum(deal.counts) == deal.size
    at = 0
    for q, n in enumerate(deal.hand_slots):
        assert engine.hands[q] == deal.fixed[q] + Cards(ALL_CARDS[i] for i in cards[at : at + n])
        at += n
    assert [c.index for c in getattr(engine, "stock", [])] == cards[at:]
    assert Cards(engine.all_cards()) == Cards(engine.rules.deck)
    with pytest.raises(IllegalActionError, match="no copy of card"):
        state = game.new_initial_state()
        for byte in (1, 2, 3, 4):
            state.apply_action(byte)
        state.apply_action(55)


@pytest.mark.parametrize("name", ["python_shanghai_zsy", "python_shanghai_contract", "python_shanghai_manipulation"])
def test_states_serialize_and_pickle_after_legal_actions(name: str) -> None:
    import pickle

    game = pyspiel.load_game(name)
    state = _dealt(game, 123_456_789)
    rng = random.Random(2)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    assert again.legal_actions() == state.legal_actions()
    copy = pickle.loads(pickle.dumps(state.turn.game))  # a game ships to a worker once legal_actions() ran
    assert [str(a) for a in copy.legal_actions()] == [str(a) for a in state.turn.game.legal_actions()]


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test(name: str) -> None:
    game = pyspiel.load_game(name)
    assert game.get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_manipulation_default_rules_load() -> None:
    game = pyspiel.load_game("python_shanghai_manipulation")
    state = _dealt(game, 5)
    assert state.current_player() == 1
    assert len(state.information_state_tensor(1)) == game.information_state_tensor_size()


RESAMPLED = [
    *GAMES,
    "python_shanghai_zsy(hands=2)",
    "python_shanghai_contract(turn_limit=15,hands=2)",
    "python_shanghai_manipulation(deal=7,hands=2)",
]


def _replayed(game: Any, history: list[int]) -> Any:
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


@pytest.mark.parametrize("name", RESAMPLED)
def test_resampled_states_replay_from_their_history(name: str) -> None:
    # resample_from_infostate deals the unseen cards anew as chance outcomes of the game: the new
    # state's history() replays to it, and the player cannot tell it from the state resampled
    game = pyspiel.load_game(name)
    n = game.num_players()
    rng = random.Random(name)
    changed = 0
    for steps in (0, 30, 90, 200):
        state = played(game, 21 + steps, steps)
        if state.is_terminal() or state.is_chance_node():
            continue
        for player in (state.current_player(), (state.current_player() + 1) % n):
            other = state.resample_from_infostate(player, rng.random)
            again = _replayed(game, other.history())
            assert str(again) == str(other) and again.turn.game.hands == other.turn.game.hands
            assert getattr(again.turn.game, "stock", None) == getattr(other.turn.game, "stock", None)
            assert [again.information_state_string(q) for q in range(n)] == [
                other.information_state_string(q) for q in range(n)
            ]
            assert other.information_state_string(player) == state.information_state_string(player)
            assert other.information_state_tensor(player) == state.information_state_tensor(player)
            if player == state.current_player():
                assert other.legal_actions() == state.legal_actions()
            if other.turn.game.hands != state.turn.game.hands:
                changed += 1
                assert other.history() != state.history()
                assert other.turn.game.hands[player] == state.turn.game.hands[player]
    assert changed >= 2  # the hidden cards were dealt anew (not the state handed back)


def test_resample_from_infostate_keeps_the_information_state() -> None:
    game = pyspiel.load_game("python_shanghai_contract(turn_limit=40)")
    state = _dealt(game, 11)
    rng = random.Random(1)
    for _ in range(60):
        state.apply_action(rng.choice(state.legal_actions()))
    p = state.current_player()
    sampler: Any = rng.random
    other = state.resample_from_infostate(p, sampler)
    assert other.information_state_string(p) == state.information_state_string(p)
    assert other.legal_actions() == state.legal_actions()
    assert any(other.information_state_string(q) != state.information_state_string(q) for q in range(4) if q != p)


def test_ismcts_bot_plays_a_game() -> None:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("python_shanghai_zsy(players=4)")
    rng = np.random.RandomState(3)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=2, random_state=rng)
    state = _dealt(game, 2)
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)
            moves += 1
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(int(action))
    assert moves > 0
    assert abs(sum(state.returns()) - 1.0) < 1e-9


def test_players_default_to_the_presets_count() -> None:
    assert pyspiel.load_game("python_shanghai_zsy(preset=teams6)").num_players() == 6
    assert pyspiel.load_game("python_shanghai_zsy").num_players() == 4
    assert pyspiel.load_game("python_shanghai_contract(players=3)").num_players() == 3


def test_when_no_fresh_deal_fits_the_chain_of_swaps_still_deals_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    # with no fresh deal tried (as when every one contradicts the history), the swap chain from
    # the true deal still gives other hidden cards, the same information state, a replayable history
    import solver.envs.openspiel_resample as resampling

    monkeypatch.setattr(resampling, "TRIES", 0)
    game = pyspiel.load_game("python_shanghai_manipulation(deal=7,hands=2)")
    changed = 0
    for steps in (10, 30, 60):
        state = played(game, 5 + steps, steps)
        if state.is_terminal() or state.is_chance_node():
            continue
        player = state.current_player()
        other = state.resample_from_infostate(player, random.Random(steps).random)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert str(_replayed(game, other.history())) == str(other)
        changed += other.turn.game.hands != state.turn.game.hands
    assert changed >= 2


MANIPULATION = [
    "python_shanghai_manipulation",
    "python_shanghai_manipulation(preset=norwegian)",
    "python_shanghai_manipulation(preset=rummikub)",
    "python_shanghai_manipulation(preset=german)",
]


@pytest.mark.parametrize("name", MANIPULATION)
def test_the_true_deal_replays_to_the_very_state(name: str) -> None:
    # the resample's replay carries out each other player's engine action by its index path: with
    # the true deal it must give the very state (a rearranging play once came back as the same cards
    # on a table in another order, and every deal of such a position was then rejected)
    from solver.envs.openspiel_resample import replay

    game = pyspiel.load_game(name)
    rng = random.Random(1)
    checked = 0
    for _ in range(12):
        state = game.new_initial_state()
        for _ in range(400):
            if state.is_terminal() or (not state.is_chance_node() and len(state.turn.game.history) >= 25):
                break
            if state.is_chance_node():
                chance(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        again = replay(state, p, {})
        assert again.turn is not None and state.turn is not None
        assert [str(a) for a in again.turn.game.history] == [str(a) for a in state.turn.game.history]
        assert again.information_state_string(p) == state.information_state_string(p)
        checked += 1
    assert checked >= 8


def _after_a_reshuffle(game: Any, rng: random.Random) -> Any:
    """A Contract state of a random game after a reshuffle of this round, with at least three draws
    from the reshuffled stock and three cards still in it; None when the game has none."""
    return _random_state_where(
        game, rng, lambda s, g: bool(s.shuffles) and len(g.stock) >= 3 and len(g.drawn_since) >= 3, 0.2
    )


def _random_state_where(game: Any, rng: random.Random, wanted: Any, odds: float) -> Any:
    """A state of a random game (random steps) where ``wanted(state, engine game)`` holds, each such
    state taken with chance ``odds``; None when the game ends first."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
            continue
        if wanted(state, state.turn.game) and rng.random() < odds:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
    return None


def test_a_reshuffled_stock_is_dealt_by_chance_and_resampled() -> None:
    # the Contract reshuffle is chance nodes (one a card of the new stock, the pile's cards as
    # outcomes), so the history names the stock's order and a resample deals the slots the player
    # did not draw anew: the stock's order changes, the information state does not, the history
    # replays (before, the seed fixed the order and every resample kept it: a search knew the stock)
    game = pyspiel.load_game("python_shanghai_contract(turn_limit=200)")
    rng = random.Random(0)
    checked = reordered = 0
    while checked < 6:
        state = _after_a_reshuffle(game, rng)
        if state is None:
            continue
        assert any(a.startswith("reshuffle ") for a in map(str, _chance_strings(state)))
        p = state.current_player()
        for _ in range(2):
            other = state.resample_from_infostate(p, rng.random)
            assert other.information_state_string(p) == state.information_state_string(p)
            again = _replayed(game, other.history())
            assert str(again) == str(other) and again.turn.game.stock == other.turn.game.stock
            assert other.turn.game.reshuffled_cards == state.turn.game.reshuffled_cards  # public
            assert Cards(other.turn.game.stock) <= other.turn.game.reshuffled_cards
            reordered += other.turn.game.stock != state.turn.game.stock
        checked += 1
    assert reordered >= 8  # of 12


def _chance_strings(state: Any) -> list[str]:
    """The chance steps of ``state``'s history, as the game names them."""
    game = state.get_game()
    new = game.new_initial_state()
    out = []
    for a in state.history():
        if new.is_chance_node():
            out.append(new.action_to_string(pyspiel.PlayerId.CHANCE, a))
        new.apply_action(a)
    return out


def test_every_reshuffled_stock_of_the_round_is_resampled() -> None:
    # a long round reshuffles twice: the first stock was drawn to its end, in part by the other
    # players (their cards are hidden); a resample deals those slots anew too, not only the last
    # stock's (before, the earlier stock's order stayed the true one)
    game = pyspiel.load_game("python_shanghai_contract(turn_limit=200)")
    rng = random.Random(1)
    checked = changed = 0
    while checked < 4:
        state = _after_two_reshuffles(game, rng)
        if state is None:
            continue
        p = state.current_player()
        size = len(state.turn.game.round_draws[-2])  # the first stock was drawn to its end

        def first_stock(s: Any, size: int = size) -> list[int]:  # its order (selections are private: logs differ)
            return [a for _, a in s.log[s.shuffles[-2] : s.shuffles[-2] + size]]

        for _ in range(3):
            other = state.resample_from_infostate(p, rng.random)
            assert other.information_state_string(p) == state.information_state_string(p)
            again = _replayed(game, other.history())
            assert str(again) == str(other)
            changed += first_stock(other) != first_stock(state)
        checked += 1
    assert changed >= 6, changed  # of 12


def _after_two_reshuffles(game: Any, rng: random.Random) -> Any:
    """A Contract state of a random game whose round has reshuffled twice, the other players having
    drawn at least four cards of the first reshuffled stock; None when the game has none."""

    def wanted(state: Any, g: Any) -> bool:
        p = state.current_player()
        return len(g.round_draws) >= 2 and sum(q != p for q, _ in g.round_draws[-2]) >= 4

    return _random_state_where(game, rng, wanted, 0.1)
