"""The deal's public record in the feature vector (:mod:`solver.envs.features`, its last part):
the cards each seat played this deal and the deal's last moves, read from the history once a step
for every player (:class:`_Log`, only the actions added since) and written by :func:`_history`."""

from __future__ import annotations

from array import array
from collections.abc import Callable
from functools import lru_cache, partial
from typing import Any

from solver.cards import Cards
from solver.envs.features_buffer import _Buffer
from solver.envs.features_layout import (
    _HISTORY,
    _KINDS,
    _UNSET,
    MAX_KINDS,
    MAX_MOVES,
    MAX_SEATS,
    MOVE_SIZE,
    SHAPE,
    N,
    _shape,
)

__all__: list[str] = []

# --- every game: the deal's public record (the cards each seat played, the last moves) -------------


class _Move:
    """One move of the record: its seat, its kind (an index of the game's MOVE_KINDS) and the cards
    it showed (None: none)."""

    __slots__ = ("_bytes", "cards", "kind", "seat", "shape")

    def __init__(self, seat: int, kind: int, cards: Cards | None, shape: tuple[float, float] | None = None) -> None:
        self.seat, self.kind, self.cards, self.shape = seat, kind, cards, shape
        self._bytes: bytes | None = None

    def row(self) -> bytes:
        """The move's MOVE_SIZE numbers as float32 bytes, the seat's one-hot left out (it depends on
        the observer): made once, written into MAX_MOVES views."""
        if self._bytes is None:
            shape = array("f", self.shape).tobytes() if self.shape else _NO_SHAPE
            cards = array("f", self.cards.counts).tobytes() if self.cards else _NO_CARDS
            self._bytes = _KIND_ROWS[self.kind] + shape + cards
        return self._bytes


# a move's seat and kind part (the seat's one-hot left out) by kind, and the cards part of no cards, as float32 bytes
_KIND_ROWS = [
    array("f", [1.0 if i == MAX_SEATS + k else 0.0 for i in range(MAX_SEATS + MAX_KINDS)]).tobytes()
    for k in range(MAX_KINDS)
]
_NO_CARDS = bytes(4 * N)
_NO_SHAPE = bytes(4 * SHAPE)


class _Log:
    """The public record of the game's current deal (from its ``deal_start``), read from the history
    and brought up to date by the actions added since (the same game object, its history grown)."""

    __slots__ = ("_block", "game", "last", "length", "moves", "played", "start", "table", "version")

    def __init__(self) -> None:
        self.game: Any = None
        self.length = -1
        self.last: Any = None  # the last action read (a history changed under the log is read again)
        self.start = -1
        self.played: list[Cards | None] = []  # per seat, the cards played this deal (None: none)
        self.moves: list[_Move] = []  # the deal's last MAX_MOVES moves, oldest first
        self.table: Cards = _EMPTY_CARDS  # Manipulation: the table's cards after the deal's last play
        self.version = 0  # counts the changes (a buffer holding this version is up to date)
        self._block: tuple[int, bool, Any] = (-1, False, None)  # the version, the kind and the last moves' rows

    def block(self, listed: bool) -> Any:
        """The last moves' rows, newest first, seats left out (MAX_MOVES x MOVE_SIZE numbers): a
        list, or for a numpy buffer a float32 array; made once a version for every player."""
        version, kind, block = self._block
        if version == self.version and kind == listed:
            return block
        rows = b"".join(m.row() for m in reversed(self.moves))
        rows += bytes(4 * MOVE_SIZE * (MAX_MOVES - len(self.moves)))
        if listed:
            block = array("f", rows).tolist()
        else:
            block = _float32_rows()(rows)
        self._block = (self.version, listed, block)
        return block

    def update(self, game: Any) -> None:
        """Read the actions of ``game`` not yet read (the whole deal for another game or deal)."""
        history = game.history
        n = len(history)
        begin = self.length
        start = game.deal_start
        if not (
            self.game is game
            and self.start == start
            and start <= begin <= n
            and (begin == start or history[begin - 1] is self.last)
        ):
            begin = -1  # another game or deal, or a history changed under the log: read from the deal's start
        elif begin == n:
            return
        if begin < 0:
            self.game, self.start = game, game.deal_start
            self.played = [None] * game.num_players
            self.moves = []
            self.table = _EMPTY_CARDS
            begin = self.start
        read = _READERS[game.GAME]
        moves, played = self.moves, self.played
        for i in range(begin, n):
            action = history[i]
            kind, cards, out = read(self, game, i, action)
            moves.append(
                _Move(action.player, kind, cards, _shape(action.combo) if type(action).__name__ == "ZPlay" else None)
            )
            if out is not None:
                was = played[action.player]
                played[action.player] = out if was is None else was + out
        if len(moves) > MAX_MOVES:
            del moves[:-MAX_MOVES]
        self.length = n
        self.last = history[n - 1] if n else None
        self.version += 1


@lru_cache(maxsize=1)
def _float32_rows() -> Callable[[bytes], Any]:
    """float32 bytes -> a numpy array over them (numpy imported once, for a numpy buffer only)."""
    from numpy import float32, frombuffer

    return partial(frombuffer, dtype=float32)


_EMPTY_CARDS = Cards()
_TRIBUTE = {"offer": 5, "take": 6, "give": 7}


def _zsy_move(log: _Log, game: Any, i: int, action: Any) -> tuple[int, Cards | None, Cards | None]:
    """A Zheng Shang You move: its kind, the cards it showed and the cards it played."""
    del log, game, i
    name = type(action).__name__
    if name == "ZPlay":
        combo = action.combo
        return _KINDS.index(combo.kind), combo.cards, combo.cards
    if name == "ZPass":
        return 4, None, None
    return _TRIBUTE[action.step], Cards((action.card,)), None  # a tribute card is shown


def _contract_move(log: _Log, game: Any, i: int, action: Any) -> tuple[int, Cards | None, Cards | None]:
    """A Contract Shanghai move: its kind, the cards it showed (a discard taken or called: the
    engine's record of it) and the cards it put out of the hand."""
    del log
    name = type(action).__name__
    if name == "CDiscard":
        cards = Cards((action.card,))
        return 0, cards, cards
    if name in ("CTake", "CCall"):
        taken = None
        for g in reversed(game._gains):  # (round, history index, player, cards), in history order
            if g[1] <= i:
                taken = g[3] if g[1] == i else None
                break
        return (1 if name == "CTake" else 3), taken, None
    if name == "CLayDown":
        cards = Cards(c for m in action.melds for c in m.cards)
        return 5, cards, cards
    if name == "CLayOff":
        cards = action.cards.multiset
        return 6, cards, cards
    if name == "CSwap":
        cards = Cards((action.swap.card,))
        return 7, cards, cards
    return (2 if name == "CDecline" else 4), None, None


def _manipulation_move(log: _Log, game: Any, i: int, action: Any) -> tuple[int, Cards | None, Cards | None]:
    """A Manipulation Shanghai move: a play shows (and plays) the cards its table adds."""
    del game, i
    name = type(action).__name__
    if name == "MPlay":
        after = Cards(c for m in action.table for c in m.cards)
        cards = after - log.table
        log.table = after
        return 0, cards, cards
    return (1 if name == "MDraw" else 2), None, None


_READERS: dict[str, Callable[[_Log, Any, int, Any], tuple[int, Cards | None, Cards | None]]] = {
    "zsy": _zsy_move,
    "contract": _contract_move,
    "manipulation": _manipulation_move,
}


def _history(log: _Log, game: Any, p: int, buf: _Buffer) -> None:
    """The history part: the cards each seat played this deal (N by seat, relative to ``p``), then
    the deal's last MAX_MOVES moves, newest first (seat one-hot, kind one-hot, cards)."""
    keys = buf.keys
    if keys.get(-7) is log and keys.get(-8) == log.version:
        return
    keys[-7], keys[-8] = log, log.version
    at = _HISTORY[game.GAME]
    n = game.num_players
    for q, cards in enumerate(log.played):
        slot = at + ((q - p) % n) * N
        if keys.get(slot, _UNSET) is not cards:  # only the seat that played since
            buf.counts(slot, cards)
    at += MAX_SEATS * N
    out = buf.out
    out[at : at + MAX_MOVES * MOVE_SIZE] = log.block(buf.listed)
    for j, move in enumerate(reversed(log.moves)):  # each move's seat, relative to the observer
        out[at + j * MOVE_SIZE + (move.seat - p) % n] = 1.0
