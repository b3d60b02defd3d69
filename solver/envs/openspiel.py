"""The three games registered with OpenSpiel (the ``openspiel`` extra).

``import solver.envs.openspiel`` registers ``python_shanghai_manipulation``,
``python_shanghai_contract`` and ``python_shanghai_zsy``; then
``pyspiel.load_game("python_shanghai_zsy")`` works, with parameters
``players`` (0: 4, or the count the rules take, 6 for ``teams6``),
``preset`` ("" for the default rules), ``hands`` (1: how many hands, or
Contract rounds, one OpenSpiel game lasts), ``turn_limit`` (Contract,
1000: the engine's guard that ends a round in which no one goes out),
``random_seed`` (1; 0: each seed byte is 0, a chance node of one outcome,
so only the card-by-card deal is chance: the small variants' whole tree
for CFR, see docs/envs.md) and every rule option of the game
(:mod:`solver.envs.openspiel_params`).

>>> import pyspiel
>>> import solver.envs.openspiel
>>> game = pyspiel.load_game("python_shanghai_zsy")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 256)
>>> for byte in (7, 0, 0, 0):
...     state.apply_action(byte)
>>> state.chance_outcomes()[:2], state.deal.size
([(0, 0.018518518518518517), (1, 0.018518518518518517)], 54)
>>> for card in range(54):  # one card a slot: player 0's 14, player 1's 14, then 13 and 13
...     state.apply_action(card)
>>> str(state.turn.game.hands[0]), state.current_player(), state.legal_actions()[:2]
('AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AH', 0, [0, 1])

Imperfect information, sequential. A game starts with ``SEED_BYTES`` (4)
chance nodes of 256 outcomes each, uniform: the bytes of the engine seed
(little end first, 2^32 seeds), which fixes the hand sizes, who leads
and the deal's order, which the chance nodes then replace. Each deal
(every hand, or round) is dealt card by card, one chance node a slot
(:mod:`solver.envs.openspiel_deal`), so no hand names its deal and a
re-dealt position is a history of the game; so is a Contract reshuffle:
the step that draws from the empty stock is followed by one chance node
a slot of the new stock (outcomes: the discard pile's cards left, named
``reshuffle c``), and is carried out with the stock in that order. Actions are the
finite action space of :mod:`solver.envs.actions`. The information state
string is the player's view (the engine's observation, the turn in
progress) and the player's record: the seed, each deal and the cards
dealt to them, every engine action (public: a draw is "draw") and the
cards it gave them (``got 9D``), then their own steps of the turn in
progress (:class:`Observer`); the tensors are
:func:`solver.envs.features.features`, split into private and public
parts, and the record's tokens (:mod:`solver.envs.openspiel_history`). ``resample_from_infostate`` deals the cards
the player has not seen anew and replays the game
(:mod:`solver.envs.openspiel_resample`), which OpenSpiel's ISMCTS uses.
Returns: each player's share of the win (as :meth:`Game.returns`), so the
utilities sum to 1.
"""

from __future__ import annotations

import functools
import json
import math
import random
from dataclasses import dataclass
from typing import Any

from solver.envs import missing

try:
    import numpy as np
    import pyspiel
except ImportError as _exc:  # one line naming the extra (docs/envs.md), not the raw import error
    raise missing(_exc, "openspiel") from None

from solver.cards import ALL_CARDS, N_CARDS, Cards
from solver.engine import new_game
from solver.engine.search import floor_sub
from solver.envs.actions import Turn, codec_for
from solver.envs.features import feature_size, features
from solver.envs.openspiel_deal import Deal, install, start_deal
from solver.envs.openspiel_history import record_size, write
from solver.envs.openspiel_params import actions_per_hand, length_bound, rule_data, spec, steps_per_action
from solver.envs.turn import MAX_CANCELS, check_table_fits
from solver.errors import IllegalActionError, RulesError
from solver.rules import rules_for

__all__ = [
    "DEALS",
    "GAMES",
    "SEED_BYTES",
    "Observer",
    "ObserverError",
    "ShanghaiContractGame",
    "ShanghaiGame",
    "ShanghaiManipulationGame",
    "ShanghaiState",
    "ShanghaiZsyGame",
]

SEED_BYTES = 4
DEALS = 256**SEED_BYTES  # seeds a game is dealt from (each chance node is one byte of it)
GAMES = ("manipulation", "contract", "zsy")
_MAX_PLAYERS = {"manipulation": 5, "contract": 6, "zsy": 8}
_MIN_PLAYERS = {"manipulation": 3, "contract": 3, "zsy": 2}  # zsy: 2 with ``min_players=2`` (small variants)


_BYTES = [(b, 1.0 / 256) for b in range(256)]
_ZERO = [(0, 1.0)]  # a seed byte with ``random_seed=0``


def _game_type(name: str) -> Any:
    return pyspiel.GameType(
        short_name=f"python_shanghai_{name}",
        long_name=f"Python Shanghai {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=_MAX_PLAYERS[name],
        min_num_players=_MIN_PLAYERS[name],
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=spec(name),
    )


@dataclass(frozen=True)
class _Params:
    """A game's parameters (what a state keeps of its game: cheap to copy)."""

    name: str
    players: int
    rules: tuple[tuple[str, Any], ...]  # the preset and rule options (rule_data's items)
    hands: int
    turn_limit: int
    random_seed: bool = True  # False: the seed bytes are 0 (one outcome each)

    def engine_game(self, seed: int) -> Any:
        """The engine game dealt from ``seed``. A Manipulation game's solver player searches with no time
        limit (as the PettingZoo env's): what it plays does not depend on the load (its legal sets
        never do: ``ManipulationGame.RULE_QUESTION_LIMIT``)."""
        rules = _rules(self.name, self.rules)
        if self.name == "contract":
            return new_game(self.name, rules, self.players, seed, max_rounds=self.hands, turn_limit=self.turn_limit)
        game: Any = new_game(self.name, rules, self.players, seed, max_hands=self.hands)
        if self.name == "manipulation":
            game.time_limit = math.inf
        return game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Params:
        del memo
        return self


@functools.cache
def _rules(name: str, data: tuple[tuple[str, Any], ...]) -> Any:
    return rules_for(name, {k: list(v) if isinstance(v, tuple) else v for k, v in data})


def _frozen(data: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(data.items()))


class ShanghaiGame(pyspiel.Game):  # type: ignore[misc]
    """One of the three games as an OpenSpiel game."""

    NAME = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = params or {}
        self.preset = str(params.get("preset", ""))
        data = _frozen(rule_data(self.NAME, params))  # bad rule options fail here, with one clear line
        # ``players`` 0 (the default): 4, or the nearest count the rules take (teams6: 6)
        self.rules = rules = _rules(self.NAME, data)
        low, high = getattr(rules, "min_players", 1), getattr(rules, "max_players", 8)
        self.players = int(params.get("players", 0)) or min(max(4, low), high)
        self.hands = int(params.get("hands", 1))
        random_seed = int(params.get("random_seed", 1))
        if random_seed not in (0, 1):
            raise RulesError(f"random_seed must be 1 (a random seed) or 0 (the seed 0), not {random_seed}")
        turn_limit = int(params.get("turn_limit", 1000))
        self.params = _Params(self.NAME, self.players, data, self.hands, turn_limit, random_seed == 1)
        first = self.params.engine_game(0)  # bad parameters fail here, with one clear line
        check_table_fits(first)
        cards = len(first.all_cards())
        hands = min(self.hands, rules.rounds) if self.NAME == "contract" else self.hands
        self.max_length = length_bound(self.NAME, self.players, cards, hands, self.params.turn_limit, SEED_BYTES)
        self.max_length += hands * cards  # each deal's chance nodes, one a card
        actions = actions_per_hand(self.NAME, self.players, cards, self.params.turn_limit)
        if self.NAME == "contract":  # reshuffles' chance nodes: each card reshuffled is drawn before the next
            self.max_length += hands * (actions + cards)
        self.history_size = record_size(self.NAME, actions, cards, hands, steps_per_action(cards))
        info = pyspiel.GameInfo(
            num_distinct_actions=codec_for(self.NAME).size,
            max_chance_outcomes=256,  # a seed byte (a dealt card is one of 55)
            num_players=self.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=self.max_length,
        )
        super().__init__(_game_type(self.NAME), info, params)

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled as its class and parameters (as OpenSpiel's own Python games pickle)."""
        return (type(self), (dict(self.get_parameters()),))

    def new_initial_state(self) -> ShanghaiState:
        """The state before the deal (a chance node)."""
        return ShanghaiState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        """An observer of ``iig_obs_type`` (None: OpenSpiel's default observation, no perfect recall)."""
        if params:
            raise ObserverError(f"the Shanghai observers take no parameters, not {sorted(params)}")
        return Observer(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False))


class _Kept:
    """A value a state keeps but never changes (shared by its clones, not deep-copied)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Kept:
        del memo
        return self


class _Items(list):  # type: ignore[type-arg]
    """A list of immutable items (ints, tuples of ints and strings): a deep copy is a shallow one (a
    state's log and record grow with the game, and copying each item made a clone of a long game
    cost milliseconds: 16 ms after 5,000 steps of Contract, most of a ``random_sim_test`` step)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Items:
        del memo
        return _Items(self)


class _Fresh:
    """A value a state keeps for itself only: a clone starts with a new, empty one."""

    def __init__(self) -> None:
        self.value: dict[Any, Any] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Fresh:
        del memo
        return _Fresh()


@dataclass
class _Reshuffle:
    """A Contract reshuffle being dealt, one chance node a slot of the new stock (top card last): the
    engine action's last step that drew from the empty stock, its place in the log, the copies of
    each card of the pile left to deal, and the outcomes so far."""

    action: int
    step: int
    left: list[int]
    dealt: list[int]


SHORT_STOCK = 3
"""A Contract step is tried on a copy first while the stock holds at most this many cards (one engine
action draws at most two: a call's penalty card and the turn's draw), to see whether it reshuffles."""


class ShanghaiState(pyspiel.State):  # type: ignore[misc]
    """A state: the seed (chance), each deal card by card (chance), and the engine game with the selection
    in progress."""

    def __init__(self, game: ShanghaiGame) -> None:
        super().__init__(game)
        self.params: _Params = game.params
        self.turn: Turn | None = None
        self.seed_bytes: tuple[int, ...] = ()  # the seed's chance outcomes so far
        self.deal: Deal | None = None  # the deal being dealt (its slots), None between deals
        self.dealt: list[int] = []  # the current deal's outcomes (one card index a slot)
        self.left: list[int] = []
        self.start = _Kept(None)  # the engine game as the current deal left it (a clone)
        self.started = 0  # the engine history's length when the current deal was installed
        self.log: list[tuple[int, int]] = _Items()  # (player or CHANCE, action) of every step, in order
        self.completed: list[int] = _Items()  # for each engine action, the log length after its player's last step
        self.reshuffle: _Reshuffle | None = None  # a Contract reshuffle being dealt
        self.shuffles: list[int] = []  # the log index of each reshuffle's first chance step
        self.record: list[tuple[int, str]] = _Items()  # what the players observed: (PUBLIC or the one player, text)
        self.turn_start = 0  # the log index of the first step of the engine action in progress
        self.trusted = False  # True while a resample replays steps known to be legal (no masks)
        self.known: Any = None  # while trusted, the engine action the next step completes (no solver asked)
        self.records = _Fresh()  # per (player, private): the record entries read so far, and their texts
        self.judges = _Fresh()  # a resample's judges and hidden slots, by player, at one log length: reused
        self.deal_start = _Kept(None)  # (log length, a clone of this state) when the current deal began

    def current_player(self) -> int:
        """The player to act, CHANCE before and during a deal, TERMINAL at the end."""
        if self.turn is None or self.deal is not None or self.reshuffle is not None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.turn.game.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.turn.game.current_player())

    def _legal_actions(self, player: int) -> list[int]:
        assert self.turn is not None and player == self.turn.game.current_player()
        return self.turn.legal()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The seed's next byte (uniform), then each slot's card (as the cards left), of a deal or a
        reshuffled stock."""
        if self.reshuffle is not None:
            left = self.reshuffle.left
        elif self.deal is None:
            return _BYTES if self.params.random_seed else _ZERO
        else:
            left = self.left
        total = sum(left)
        return [(i, n / total) for i, n in enumerate(left) if n]

    def _apply_action(self, action: int) -> None:
        action = int(action)
        if self.turn is None or self.deal is not None or self.reshuffle is not None:
            if self.deal is not None and not self.dealt and self.reshuffle is None:  # a resample replays from here
                self.deal_start = _Kept(None)  # (not kept in the copy)
                self.deal_start = _Kept((len(self.log), self.clone()))
            self.log.append((int(pyspiel.PlayerId.CHANCE), action))
            self._chance(action)
            return
        self.log.append((int(self.turn.game.current_player()), action))
        if not self._reshuffles(action):
            self._carry_out(action, len(self.log))

    def _carry_out(self, action: int, step: int) -> None:
        """Apply the player's step ``action`` (logged at ``step``) to the engine game."""
        assert self.turn is not None
        game = self.turn.game
        deal_number = game._epoch()
        hands = list(game.hands)
        done = self.turn.apply(action, check=not self.trusted, done=self.known if self.trusted else None)
        if done is not None:
            self.completed.append(step)
            self.turn_start = len(self.log)
            self.record.append((_PUBLIC, f"{done.player}:{done}"))
            if game._epoch() == deal_number:  # the cards the action gave each player (a new deal is chance's)
                for q, (was, now) in enumerate(zip(hands, game.hands)):
                    got = floor_sub(now, was) if now is not was else None
                    if got:
                        self.record.append((q, " ".join(["got", *(c.code for c in got)])))
            elif not game.is_terminal():
                self._begin_deal()

    def _reshuffles(self, action: int) -> bool:
        """True if the step ``action`` reshuffles the Contract discard pile into the stock: the new
        stock's order is then dealt card by card by chance nodes first (:class:`_Reshuffle`), as a
        deal is, and the step is carried out with that order once it is dealt."""
        assert self.turn is not None
        game: Any = self.turn.game
        if self.params.name != "contract" or len(game.stock) > SHORT_STOCK:
            return False
        trial = self.turn.clone()
        if trial.apply(action) is None or trial.game.reshuffles == game.reshuffles:  # type: ignore[attr-defined]
            return False
        pile: Cards = trial.game.reshuffled_cards  # type: ignore[attr-defined]
        self.reshuffle = _Reshuffle(action, len(self.log), list(pile.counts), [])
        self.shuffles.append(len(self.log))
        return True

    def _chance(self, action: int) -> None:
        self.turn_start = len(self.log)
        r = self.reshuffle
        if r is not None:
            if not 0 <= action < N_CARDS or not r.left[action]:
                raise IllegalActionError(f"no copy of card {action} is left in the reshuffled pile")
            r.left[action] -= 1
            r.dealt.append(action)
            if not any(r.left):
                assert self.turn is not None
                self.reshuffle = None
                self.turn.game.next_stock = [ALL_CARDS[i] for i in r.dealt]  # type: ignore[attr-defined]
                self._carry_out(r.action, r.step)
            return
        if self.deal is None:
            if not 0 <= action < (256 if self.params.random_seed else 1):
                raise IllegalActionError(f"a seed byte is {'0..255' if self.params.random_seed else '0'}, not {action}")
            self.seed_bytes = (*self.seed_bytes, action)
            if len(self.seed_bytes) == SEED_BYTES:
                self.record.append((_PUBLIC, "seed " + " ".join(map(str, self.seed_bytes))))
                self.turn = Turn(self.params.engine_game(int.from_bytes(bytes(self.seed_bytes), "little")))
                self._begin_deal()
            return
        if not 0 <= action < N_CARDS or not self.left[action]:
            raise IllegalActionError(f"no copy of card {action} is left to deal")
        self.left[action] -= 1
        self.dealt.append(action)
        if len(self.dealt) == self.deal.size:
            assert self.turn is not None
            game = self.turn.game
            install(game, self.deal, self.dealt)
            self.record.append((_PUBLIC, "deal"))
            at = 0
            for q, n in enumerate(self.deal.hand_slots):  # each player sees the cards of their slots (a hand)
                cards = Cards(ALL_CARDS[i] for i in self.dealt[at : at + n])
                self.record.append((q, " ".join(["dealt", *(c.code for c in cards)])))
                at += n
            self.start, self.started = _Kept((self.deal, tuple(self.dealt), game.clone())), len(game.history)
            self.deal = None

    def _begin_deal(self) -> None:
        assert self.turn is not None
        self.deal, self.dealt = start_deal(self.turn.game), []
        self.left = list(self.deal.counts)  # the copies of each card not dealt yet

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.reshuffle is not None:
                return f"reshuffle {ALL_CARDS[action]}"
            return f"seed byte {action}" if self.deal is None else f"deal {ALL_CARDS[action]}"
        return codec_for(self.params.name).name(action)

    def is_terminal(self) -> bool:
        """True when the engine game is over."""
        return self.turn is not None and self.turn.game.is_terminal()

    def returns(self) -> list[float]:
        """Each player's share of the win at the end, 0 before."""
        if self.turn is None or not self.turn.game.is_terminal():
            return [0.0] * self.params.players
        return [float(r) for r in self.turn.game.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> ShanghaiState:
        """A state of this game with the same information state for ``player_id``: the current deal's
        cards that player has not seen dealt among their slots anew, the history replayed (so the
        new state's ``history()`` replays to it). See :func:`solver.envs.openspiel_resample.resample`."""
        from solver.envs.openspiel_resample import resample

        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.getrandbits(31)
        return resample(self, player_id, random.Random(seed))

    def record_of(self, player: int, private: bool = True) -> list[str]:
        """``player``'s record: the public entries and, if ``private``, their own (module
        :mod:`solver.envs.openspiel_history`)."""
        done, out = self.records.value.get((player, private), (0, []))
        wanted = (_PUBLIC,) if not private else (_PUBLIC, player)
        out.extend(text for who, text in self.record[done:] if who in wanted)  # (the record only grows)
        self.records.value[player, private] = (len(self.record), out)
        return list(out)

    def turn_steps(self, player: int) -> list[int]:
        """``player``'s steps of the engine action in progress (none unless it is theirs to make)."""
        if self.current_player() != player:
            return []
        return [a for _, a in self.log[self.turn_start :]]

    def __str__(self) -> str:
        if self.turn is None:
            return "before the deal"
        if self.deal is not None:
            return f"dealing: {len(self.dealt)} of {self.deal.size} cards"
        if self.reshuffle is not None:
            r = self.reshuffle
            return f"reshuffling the pile: {len(r.dealt)} of {len(r.dealt) + sum(r.left)} cards"
        game = self.turn.game
        return json.dumps({"to_move": game.current_player(), "history": [str(a) for a in game.history[-20:]]})


_PUBLIC = -1  # a record entry every player observes
_PRIVATE = 2 * N_CARDS  # the features' private part: the own hand's counts, then the selection in progress
_CANCELS = MAX_CANCELS + 1  # the mover's cancels this turn (one-hot), after the features' private part


class Observer:
    """Strings and tensors of what one player observes, as an ``IIGObservationType`` asks.

    Private information is the player's hand and, for the player to move,
    the turn in progress (the string's ``hand``, ``selection``, ``stage``,
    ``cancels`` and ``turn``, the player's steps since their last engine
    action: a build's melds, a lay-down's closed melds; the tensor's first
    ``2 N`` numbers, the features' hand and selection, then the cancels
    made this turn, one-hot of ``MAX_CANCELS + 1``); public information is
    the rest of the player's view (the features' other numbers). Perfect
    recall adds the player's *record* (:meth:`ShanghaiState.record_of`:
    the seed, each deal and the cards dealt to them, every engine action
    and the cards it gave them, then their steps of the turn in progress;
    a public observer's record has the public entries only) to the string
    and, as tokens of a fixed-size part (``history``,
    :mod:`solver.envs.openspiel_history`), to the tensor. Equal information
    states have equal legal actions and equal observation histories, and
    histories that differ in anything the player observed give different
    ones (``tests/envs/test_infostate.py``). How an earlier engine action
    of the player's was entered (the order of its picks, the picks it
    cancelled) is not kept: it changes nothing in the game and tells the
    player nothing, and the tensor stays a fixed size.
    ``private_info=ALL_PLAYERS`` is refused (:class:`ObserverError`).
    """

    def __init__(self, game: ShanghaiGame, iig_obs_type: Any) -> None:
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ObserverError("a Shanghai observer shows one player's private cards, not every player's")
        self.public = bool(iig_obs_type.public_info)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        size = feature_size(game.NAME)
        private = _PRIVATE + _CANCELS if self.private else 0
        public = size - _PRIVATE if self.public else 0
        history = game.history_size if self.public and self.perfect_recall else 0
        self.tensor = np.zeros(private + public + history, np.float32)
        self.dict: dict[str, Any] = {}
        if self.private:
            self.dict["private"] = self.tensor[:private]
        if self.public:
            self.dict["public"] = self.tensor[private : private + public]
        if history:
            self.dict["history"] = self.tensor[private + public :]

    def set_from(self, state: ShanghaiState, player: int) -> None:
        """Fill the tensor with ``player``'s view of ``state`` (zeros before the deal)."""
        self.tensor.fill(0)
        if state.turn is None:
            return
        view = features(state.turn, player)
        if self.private:
            self.dict["private"][:_PRIVATE] = view[:_PRIVATE]
            if state.turn.game.current_player() == player:
                self.dict["private"][_PRIVATE + state.turn.cancels] = 1
        if self.public:
            self.dict["public"][:] = view[_PRIVATE:]
        if "history" in self.dict:
            turn = state.turn_steps(player) if self.private else []
            write(self.dict["history"], state.record_of(player, self.private), turn)

    def string_from(self, state: ShanghaiState, player: int) -> str:
        """``player``'s view as JSON text: the parts the observation type asks for."""
        if state.turn is None:
            return f"p{player} before the deal"
        game = state.turn.game
        view = game.observation(player)
        out: dict[str, Any] = {}
        if self.public:
            out.update((k, v) for k, v in view.items() if k != "hand")
            if self.perfect_recall:
                out["history"] = state.record_of(player, self.private)
        if self.private:
            out["player"] = player
            out["hand"] = view["hand"]
            if game.current_player() == player:
                out["selection"] = str(state.turn.selection)
                out["stage"] = str(state.turn.stage)
                out["cancels"] = state.turn.cancels
                codec = state.turn.codec  # the turn in progress: a build's melds, a lay-down's closed melds
                out["turn"] = [codec.name(a) for a in state.turn_steps(player)]
        return json.dumps(out, sort_keys=True)


class ObserverError(ValueError):
    """An observer the games cannot make (all players' private cards, or observer parameters)."""


class ShanghaiManipulationGame(ShanghaiGame):
    """Manipulation Shanghai as an OpenSpiel game (a module-level class: the game object pickles)."""

    NAME = "manipulation"


class ShanghaiContractGame(ShanghaiGame):
    """Contract Shanghai as an OpenSpiel game."""

    NAME = "contract"


class ShanghaiZsyGame(ShanghaiGame):
    """Zheng Shang You as an OpenSpiel game."""

    NAME = "zsy"


def _register() -> None:
    for cls in (ShanghaiManipulationGame, ShanghaiContractGame, ShanghaiZsyGame):
        pyspiel.register_game(_game_type(cls.NAME), cls)


_register()
