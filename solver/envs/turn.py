"""The codec base and the turn in progress: what every game's action space shares.

A :class:`Turn` is an engine game with the current player's selection in
progress (hand cards picked one at a time for a play or lay-down to come); a :class:`Codec` maps one game's integer actions
onto it. The layouts are in :mod:`solver.envs.actions`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from itertools import compress
from operator import gt
from typing import Any, ClassVar

from solver.cards import ALL_CARDS, N_CARDS, Card, Cards
from solver.engine.base import Game
from solver.errors import IllegalActionError

__all__ = ["MAX_CANCELS", "MAX_MELDS", "Codec", "Turn", "TableTooLarge", "check_table_fits"]

N = N_CARDS
MAX_MELDS = 32
MAX_CANCELS = 3


class TableTooLarge(ValueError):
    """A Contract rule set whose table can hold more melds than the env's fixed slots."""


def check_table_fits(game: Any) -> None:
    """Refuse (one clear line) a Contract game whose contracts could put more than
    :data:`MAX_MELDS` melds on the table (every player laying down the round's largest contract: lay-offs
    add no meld), so that no meld is ever dropped from the features or the action space."""
    if getattr(game, "GAME", None) != "contract":
        return
    rules = game.rules
    most = max(len(rules.contract(r)) for r in range(1, rules.rounds + 1)) * game.num_players
    if most > MAX_MELDS:
        raise TableTooLarge(
            f"these contracts can put {most} melds on the table ({game.num_players} players); "
            f"the env holds {MAX_MELDS}: use fewer players or smaller contracts"
        )


_EMPTY = Cards()
_RANGE = range(N)


class Codec(ABC):
    """One game's action layout: names, masks and the mapping to engine actions."""

    GAME: ClassVar[str] = ""
    size: ClassVar[int] = 0

    @abstractmethod
    def name(self, index: int) -> str:
        """A readable name of action ``index`` (:class:`IllegalActionError` outside the space)."""

    def check(self, index: Any) -> int:
        """``index`` as an int of the action space; :class:`IllegalActionError` otherwise."""
        try:
            i = int(index)
        except (TypeError, ValueError):
            raise IllegalActionError(f"action {index!r} is not an integer") from None
        if i != index or not 0 <= i < self.size:
            raise IllegalActionError(f"action {index!r} is outside the action space 0..{self.size - 1}")
        return i

    @abstractmethod
    def legal(self, turn: Turn) -> list[int]:
        """The legal action indexes in ``turn``'s position, ascending."""

    @abstractmethod
    def step(self, turn: Turn, index: int) -> Any:
        """Carry out action ``index`` on the turn's selection; return the engine action it completes, or None."""

    @abstractmethod
    def encode(self, game: Game, action: Any) -> list[int]:
        """The action indexes that carry out the engine ``action`` (with an empty selection)."""

    @staticmethod
    def _select_or_cancel(turn: Turn, index: int, first: int, cancel: int) -> bool:
        """Carry out a card selection (indexes ``first`` .. ``first + N - 1``) or the cancel action;
        False when ``index`` is neither."""
        if first <= index < first + N:
            turn.select(index - first)
            return True
        if index == cancel:
            turn.cancel()
            return True
        return False

    @staticmethod
    def _select_all(base: int, cards: Iterable[Card]) -> list[int]:
        """``base`` + each card's index, in ascending card order."""
        return sorted(base + c.index for c in cards)

    @staticmethod
    def _selectable(turn: Turn, hand: Cards, base: int) -> list[int]:
        """``base`` + c for each hand card c with a copy not yet selected (in any order: the whole
        hand can always be selected)."""
        if not turn.picks:
            return [base + i for i in compress(_RANGE, hand.counts)]
        return [base + i for i in compress(_RANGE, map(gt, hand.counts, turn.selection.counts))]


_CODECS: dict[str, Codec] = {}
"""The codec of each game by name: filled by :mod:`solver.envs.actions` (which the package
:mod:`solver.envs` imports, so that it is filled before any ``Turn`` is made)."""


def register_codec(game: str, codec: Codec) -> None:
    """Make ``codec`` the action codec of ``game`` (each codec module's own game)."""
    _CODECS[game] = codec


def codec_for(game: Game | str) -> Codec:
    """The codec of ``game``'s kind (a game or its name)."""
    return _CODECS[game if isinstance(game, str) else game.GAME]


class Turn:
    """A game with the current player's selection in progress: what an env or OpenSpiel state wraps."""

    __slots__ = (
        "_key",
        "_legal",
        "_memo",
        "_selection",
        "_strings",
        "building",
        "built",
        "cancels",
        "closed",
        "codec",
        "game",
        "picks",
        "reading",
        "stage",
    )

    def __init__(self, game: Game) -> None:
        self.game = game
        self.codec = codec_for(game)
        self.picks: tuple[int, ...] = ()  # the selected card indexes, as picked
        self.stage: tuple[int, Card] | None = None  # Contract: a swap waiting for its destination
        # a meld or lay-off waiting for its wilds' roles: (its target: -1 a new meld, else a table meld
        # or, in Manipulation, -1; the roles chosen so far, as the codec's role codes)
        self.reading: tuple[int, tuple[int, ...]] | None = None
        self.cancels = 0  # cancels this turn: at most MAX_CANCELS, so every game ends
        self.built: tuple[Any, ...] = ()  # Contract: the melds closed so far for a lay-down
        self.closed = 0  # Contract: how many of the picks the closed melds hold
        self.building = False  # Manipulation: a table built meld by meld (``build``)
        self._selection: tuple[tuple[int, ...], Cards] = ((), _EMPTY)  # picks -> their multiset
        self._strings: list[str] = []
        self._key: tuple[Any, ...] = ()  # the state the cached legal list belongs to
        self._legal: list[int] = []
        self._memo: tuple[Any, int, Any] | None = None  # a codec's data for one position (game, history length)

    @property
    def selection(self) -> Cards:
        """The selected cards (the picks as a multiset)."""
        picks, cards = self._selection
        if picks is not self.picks:
            cards = Cards(ALL_CARDS[i] for i in self.picks)
            self._selection = (self.picks, cards)
        return cards

    def clone(self) -> Turn:
        """An independent copy (the game cloned)."""
        new = Turn.__new__(Turn)
        new.game = self.game.clone()
        new.codec = self.codec
        new._selection = self._selection
        new.picks = self.picks
        new.stage = self.stage
        new.reading = self.reading
        new.cancels = self.cancels
        new.built = self.built
        new.closed = self.closed
        new.building = self.building
        new._strings = self._strings.copy()
        new._key = ()
        new._legal = []
        new._memo = None
        return new

    def history_strings(self) -> list[str]:
        """The engine history as ``player:action`` strings (kept up to date incrementally)."""
        history = self.game.history
        strings = self._strings
        if len(strings) > len(history):
            del strings[len(history) :]
        strings.extend(f"{a.player}:{a}" for a in history[len(strings) :])
        return strings

    def __deepcopy__(self, memo: dict[int, Any]) -> Turn:
        del memo
        return self.clone()

    def legal(self) -> list[int]:
        """The legal action indexes now, ascending (empty when the game is over)."""
        return list(self.legal_cached())

    def legal_cached(self) -> list[int]:
        """:meth:`legal` as the list cached for this state (shared: do not modify it)."""
        game = self.game
        key = self._key
        # the state: the game and its history length, the picks, a swap's stage, the cancels, a reading
        # (the tuples are compared by identity: a new pick, stage or reading is a new tuple)
        if (
            not key
            or key[1] != len(game.history)
            or key[2] is not self.picks
            or key[3] is not self.stage
            or key[4] != self.cancels
            or key[5] != self.closed
            or key[6] != self.building
            or key[7] is not self.reading
            or key[0] is not game
        ):
            self._legal = [] if game.is_terminal() else self.codec.legal(self)
            self._key = (
                game,
                len(game.history),
                self.picks,
                self.stage,
                self.cancels,
                self.closed,
                self.building,
                self.reading,
            )
        return self._legal

    def position_memo(self) -> Any:
        """The codec's data for this position (see :meth:`set_position_memo`), or None."""
        memo = self._memo
        if memo is not None and memo[0] is self.game and memo[1] == len(self.game.history):
            return memo[2]
        return None

    def set_position_memo(self, data: Any) -> Any:
        """Keep ``data`` for this position (until the game moves on); returns it."""
        self._memo = (self.game, len(self.game.history), data)
        return data

    def mask(self) -> list[bool]:
        """The legal actions as a mask of length ``codec.size``."""
        out = [False] * self.codec.size
        for i in self.legal_cached():
            out[i] = True
        return out

    def apply(self, index: int, check: bool = True, done: Any = None) -> Any:
        """Carry out action ``index``; returns the engine action it completed (applied), or None.

        The codecs complete the engine's own listed actions (or solver-made ones the engine
        has checked in this position), so the engine carries them out without verifying them
        again (:meth:`~solver.engine.base.Game.apply_listed`). ``check=False`` skips the mask
        (for a step known to be legal: a resample's replay of steps taken, or of another player's
        legal engine action by its index path), so no mask is worked out. ``done``: the engine action
        this step is known to complete (a resample's replay: the history's own action, which the
        step's path makes again to the letter), carried out without the codec working it out.
        """
        index = self.codec.check(index)
        if check and index not in self.legal_cached():
            raise IllegalActionError(f"action {index} ({self.codec.name(index)}) is not legal now")
        action = self.codec.step(self, index) if done is None else done
        if action is not None:
            self.game.apply_listed(action)
            self.picks = ()
            self.stage = None
            self.reading = None
            self.cancels = 0
            self.built = ()
            self.closed = 0
            self.building = False
        return action

    def select(self, index: int) -> None:
        """Add card ``index`` to the selection (the codec's mask said it may)."""
        self.picks = (*self.picks, index)

    def can_cancel(self) -> bool:
        """True if the selection may be emptied now (a selection, and fewer than MAX_CANCELS this turn)."""
        return bool(self.picks) and self.cancels < MAX_CANCELS

    def cancel(self) -> None:
        """Empty the selection and any melds built (counted)."""
        self.picks = ()
        self.built = ()
        self.closed = 0
        self.reading = None
        self.cancels += 1
