"""The shape every game state shares, after OpenSpiel, and the game record.

A game is a mutable state machine driven by frozen action records::

    while not game.is_terminal():
        action = players[game.current_player()].choose(game)
        game.apply(action)

``legal_actions()`` lists what the player to move may do (for
Manipulation Shanghai, where any valid rearrangement is a move, it lists
the plays that need no rearrangement plus the draw or pass; ``apply``
accepts every play the independent validator accepts). ``verify(action)``
raises :class:`~solver.errors.IllegalActionError` naming the problem,
``is_legal`` says yes or no. Each action has a text form that
``parse_action`` reads back, so a :class:`GameRecord` (rules, seed,
players, actions) replays exactly.
"""

from __future__ import annotations

import json
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import is_
from typing import Any, ClassVar, Protocol, Self

from solver.cards import Card, Cards
from solver.engine import search
from solver.errors import IllegalActionError, PuzzleError

__all__ = ["Action", "Game", "GameRecord", "PenaltyGame", "Player", "SimpleAction", "play_game"]


class Action(Protocol):
    """A frozen action record; ``str(action)`` is its text form."""

    player: int

    def __str__(self) -> str: ...


@dataclass(frozen=True, slots=True)
class SimpleAction:
    """An action that is a player and one word (``take``, ``draw``, ``pass``): subclasses set ``WORD``."""

    player: int
    WORD: ClassVar[str] = ""

    def __str__(self) -> str:
        return self.WORD


class Game(ABC):
    """A game in progress: turn order, legal actions, scoring, observations."""

    GAME: ClassVar[str]
    rules: Any
    num_players: int
    seed: int
    history: list[Any]
    hands: list[Cards]

    def __init__(self, rules: Any, num_players: int, seed: int) -> None:
        lo, hi = rules.min_players, rules.max_players
        if not lo <= num_players <= hi:
            raise IllegalActionError(f"{self.GAME} takes {lo}-{hi} players, not {num_players}")
        self.rules = rules
        self.num_players = num_players
        self.seed = seed
        self.rng = random.Random(seed)
        self.history = []
        self._legal: list[Any] = []
        self._legal_key = -1
        # public card movements into hands (epoch, history index, player, cards): see known_cards
        self._gains: list[tuple[int, int, int, Cards]] = []
        # the history index where the current deal (hand or round, see _epoch) began: its first action
        self.deal_start = 0

    # --- the OpenSpiel shape -------------------------------------------------

    @abstractmethod
    def current_player(self) -> int:
        """The player to act (0-based), or -1 when the game is over."""

    def legal_actions(self) -> list[Any]:
        """The actions the player to move may take (see the module docstring).

        Computed once per position (every change of position goes through
        :meth:`apply`, which grows the history) and then served from a cache.
        """
        key = len(self.history)
        if self._legal_key != key:
            self._legal = self._legal_actions()
            self._legal_key = key
        return list(self._legal)

    def clear_caches(self) -> None:
        """Forget every cached answer (legal actions, solver questions) after the state was edited
        by hand: a puzzle position set up in a new game, or a test's position."""
        self._legal_key = -1

    def _listed(self, action: Any) -> bool:
        """True if ``action`` is among the legal actions already listed for this position."""
        if self._legal_key != len(self.history):
            return False
        # the very object listed (a player's choice from the list) is found by identity, in C,
        # before any dataclass comparison; else compare as ``in`` does
        return any(map(is_, self._legal, repeat(action))) or action in self._legal

    @abstractmethod
    def _legal_actions(self) -> list[Any]:
        """Compute the legal actions of the player to move."""

    @abstractmethod
    def verify(self, action: Any) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not legal now."""

    @abstractmethod
    def _apply(self, action: Any) -> None:
        """Carry out a verified action."""

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def scores(self) -> list[int]:
        """Each player's game score so far (the game's own scoring)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """The players who won (ties share), empty while the game runs."""

    @abstractmethod
    def observation(self, player: int) -> dict[str, Any]:
        """What ``player`` can see, as JSON-able data (other hands and the stock hidden)."""

    @abstractmethod
    def parse_action(self, text: str) -> Any:
        """Read an action's text form (for the player to move)."""

    @abstractmethod
    def all_cards(self) -> Cards:
        """Every card in the game, wherever it is (for the no-card-lost invariant)."""

    # --- shared behaviour ------------------------------------------------------

    def is_legal(self, action: Any) -> bool:
        """True if ``action`` may be applied now."""
        try:
            self.verify(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Any) -> None:
        """Verify and carry out ``action``; it is appended to the history."""
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        if action.player != self.current_player():
            raise IllegalActionError(f"it is player {self.current_player()}'s turn, not player {action.player}'s")
        self.verify(action)
        self.apply_listed(action)

    def apply_listed(self, action: Any) -> None:
        """Carry out ``action`` without verifying it again: an action of this position's
        :meth:`legal_actions` (the very object listed), or one :meth:`verify` accepted in this
        position. Anything else may corrupt the game; when in doubt, :meth:`apply`."""
        epoch = self._epoch()
        self._note(action)
        self._apply(action)
        history = self.history
        history.append(action)
        if self._epoch() != epoch:  # the action ended a deal and the next one was dealt
            self.deal_start = len(history)

    def returns(self) -> list[float]:
        """1 for each winner (shared on ties), 0 otherwise: for AI code."""
        won = self.winners()
        return [1.0 / len(won) if p in won else 0.0 for p in range(self.num_players)]

    def record(self, players: Sequence[str] = ()) -> GameRecord:
        """The record that replays this game exactly."""
        return GameRecord(
            game=self.GAME,
            rules=self.rules.to_dict(),
            num_players=self.num_players,
            seed=self.seed,
            actions=tuple(str(a) for a in self.history),
            players=tuple(players),
            options=self.options(),
        )

    def options(self) -> dict[str, Any]:
        """Engine options beyond the rules (such as a hand limit) for the record."""
        return {}

    # --- search support: clone, what a player knows, resample (solver.engine.search) ---------

    def clone(self) -> Self:
        """An independent copy of the game as it stands: no re-deal, no re-validation."""
        return search.clone_game(self)

    def known_cards(self, observer: int) -> list[Cards]:
        """Per player, the cards ``observer`` has seen go into that hand and not come out since."""
        return search.known_cards(self, observer)

    def resample(self, player: int, rng: random.Random) -> Self:
        """A copy consistent with what ``player`` has observed, the hidden cards dealt anew."""
        return search.resample(self, player, rng)

    # per-game hooks for the above (the defaults suit a game with no public card movement)

    def _note(self, action: Any) -> None:
        """Record public card movements into hands (in ``_gains``) before ``action`` is carried out."""
        del action  # no public card movement by default

    def _epoch(self) -> int:
        """The number of the current deal (hand or round): what is known resets with each deal.

        By default the game's ``hand_number``.
        """
        return int(getattr(self, "hand_number", 0))

    def _removed(self, action: Any) -> Cards | None:
        """The cards ``action`` takes out of its player's hand in public view (None: none)."""
        del action
        return None

    def _hidden(self) -> list[Card]:
        """The hidden cards outside the hands, in order: by default the game's ``stock``, if it has one."""
        return list(getattr(self, "stock", ()))

    def _stock_source(self, player: int) -> Cards | None:
        """The cards the hidden stock is known to ``player`` to be made of (a reshuffled discard pile's
        public cards), or None: any of the cards ``player`` cannot see (the default)."""
        del player
        return None

    def _redeal(self, hands: list[Cards], stock: list[Card], rng: random.Random) -> None:
        """Install hands and stock dealt anew by :meth:`resample` (``rng`` for any hidden detail)."""
        del rng
        self.hands = hands
        if hasattr(self, "stock"):
            self.stock = stock


class PenaltyGame(Game):
    """A game of penalty points (the rummy games): ``totals`` per player, the lowest total wins."""

    totals: list[int]

    def scores(self) -> list[int]:
        """Penalty points so far (lower is better)."""
        return list(self.totals)

    def winners(self) -> list[int]:
        """The players with the lowest total once the game is over (ties share)."""
        if not self.is_terminal():
            return []
        low = min(self.totals)
        return [p for p in range(self.num_players) if self.totals[p] == low]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A whole game as data: replaying the actions from the seed gives the same game."""

    game: str
    rules: dict[str, Any]
    num_players: int
    seed: int
    actions: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        """The record as one JSON document."""
        return json.dumps(
            {
                "game": self.game,
                "rules": self.rules,
                "num_players": self.num_players,
                "seed": self.seed,
                "players": list(self.players),
                "options": self.options,
                "actions": list(self.actions),
            },
            indent=1,
        )

    @staticmethod
    def from_json(text: str, source: str = "<record>") -> GameRecord:
        """Read a record written by :meth:`to_json`."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise PuzzleError(f"{source}: not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise PuzzleError(f"{source}: a game record is a JSON object")
        try:
            return GameRecord(
                game=str(data["game"]),
                rules=dict(data.get("rules", {})),
                num_players=int(data["num_players"]),
                seed=int(data["seed"]),
                actions=tuple(str(a) for a in data.get("actions", [])),
                players=tuple(str(p) for p in data.get("players", [])),
                options=dict(data.get("options", {})),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PuzzleError(f"{source}: bad game record: {exc}") from None


@dataclass(frozen=True, slots=True)
class Decision:
    """An action with the reason a player chose it (what a hint shows)."""

    action: Any
    reason: str
    facts: dict[str, Any] = field(default_factory=dict)


class Player(Protocol):
    """An AI (or human) player: picks an action for the player to move."""

    name: str

    def choose(self, game: Game) -> Any:
        """The action to take; must be legal in ``game``."""
        ...


def play_game(game: Game, players: Sequence[Player], max_actions: int = 1_000_000) -> Game:
    """Let ``players`` play ``game`` to the end; returns the game."""
    for _ in range(max_actions):
        if game.is_terminal():
            return game
        game.apply(players[game.current_player()].choose(game))
    raise IllegalActionError(f"{game.GAME} did not finish within {max_actions} actions")
