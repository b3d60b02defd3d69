"""A fixed-size numeric view of the game for one player (what the env's ``Box`` and OpenSpiel's tensors hold).

Plain lists of floats (no numpy needed). Seats are relative to the
observer (0 is the observer, 1 the next to play, ...); at most
:data:`MAX_SEATS` seats. Per game (``N`` = 55 card kinds):

* every game: own hand counts (N), the selection in progress (N), hand
  sizes / 30, the player to move (one-hot), scores / 100, by seat;
* Zheng Shang You: the trick's cards, the cards played this hand, the
  tribute cards pending (N each), tribute phase, the trick's player and the
  finished players by seat, the trick's kind (one-hot of 4: single, set,
  straight, parallel) and shape (copies / 8, length / 16: the same 12
  cards declared ``parallel-2x6`` or ``parallel-3x4`` differ);
* Contract Shanghai: the top discard (one-hot), the discard pile (N), each
  table meld's cards (32 x N) and owner (32 x seats), lay-down and call
  counts by seat, round (one-hot of 8), phase (one-hot of 5), a swap in
  progress (meld one-hot, card one-hot), stock size / 100, the cards each
  table meld's wilds stand for (32 x N);
* Manipulation Shanghai: the table's cards (N), each meld's cards
  (:data:`MAX_TABLE` x N: 72 slots, the most melds the largest deck the
  rule options allow can make, 4 decks and 8 jokers in melds of three, see
  :func:`table_slots`: no meld is ever left out), opened by seat, stock
  size / 100, drawn this turn;
* every game, last: the public record of the current deal (hand or
  round, from the game's ``deal_start``): the cards each seat played out
  of the hand (MAX_SEATS x N: Zheng Shang You plays; Contract discards,
  lay-downs, lay-offs and swapped-in cards; Manipulation plays), then the
  deal's last :data:`MAX_MOVES` (8) moves, newest first, each
  :data:`MOVE_SIZE` numbers: its seat (one-hot of MAX_SEATS), its kind
  (one-hot of :data:`MAX_KINDS`, the game's :data:`MOVE_KINDS`), its shape
  (a Zheng Shang You play's copies / 8 and length / 16, else zeros) and the
  cards it showed (N: a play's or a discard's cards, a tribute card, a
  discard taken or called; none for a pass, a draw, a decline).

Sizes: Zheng Shang You 1346, Contract Shanghai 5161, Manipulation Shanghai
5183 (:func:`feature_size`). Nothing hidden from the observer is in it:
other hands appear as sizes only, a draw as its kind only.

:class:`Observations` keeps each player's vector in a buffer of its own (a
list, or the env's numpy array) and rewrites a part of it only when what
that part shows has changed since the player's last view (each part's
source is compared first: immutable values by identity, then by value).
A view of the same game at the same history length (a card picked since)
rewrites only the selection. Manipulation Shanghai's public cards (the
table's cards and melds, 41 x N numbers that change only with a play) are
the same for every player: they are written once into a shared buffer and
copied into a player's buffer as one slice. The public cards of the other
two games (the trick and the cards played; the pile and the table melds)
change at nearly every step and are written into each player's buffer
directly (cheaper than a write and a copy). The deal's record is read
from the history once a step for every player (:class:`_Log`, only the
actions added since) and each player's rows of it are made once a move.
:func:`features` is the same writer on a fresh buffer (the record read on
from this thread's last call when it is the same game).

The parts live in modules of their own: the layout (sizes and offsets,
:mod:`~solver.envs.features_layout`), the buffer
(:mod:`~solver.envs.features_buffer`), each game's writers
(:mod:`~solver.envs.features_writers`) and the deal's record
(:mod:`~solver.envs.features_log`); this module puts them together per game.

>>> from solver.engine import new_game
>>> from solver.envs.actions import Turn
>>> turn = Turn(new_game("zsy", seed=1))
>>> views = Observations("zsy", 4)
>>> views.view(turn, 2) == features(turn, 2), len(features(turn, 2))
(True, 1346)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from solver.envs.actions import Turn
from solver.envs.features_buffer import _Buffer
from solver.envs.features_layout import (
    _SIZES,
    HISTORY_SIZE,
    MAX_KINDS,
    MAX_MOVES,
    MAX_SEATS,
    MAX_TABLE,
    MOVE_KINDS,
    MOVE_SIZE,
    SHAPE,
    feature_size,
    table_slots,
)
from solver.envs.features_log import _history, _Log
from solver.envs.features_writers import (
    _MANIPULATION_PUBLIC,
    _contract_private,
    _contract_public,
    _contract_selection,
    _manipulation_private,
    _manipulation_public,
    _selection,
    _zsy_private,
    _zsy_public,
)

__all__ = [
    "HISTORY_SIZE",
    "MAX_KINDS",
    "MAX_MOVES",
    "MAX_SEATS",
    "MAX_TABLE",
    "MOVE_KINDS",
    "MOVE_SIZE",
    "SHAPE",
    "Observations",
    "feature_size",
    "features",
    "table_slots",
]


class Observations:
    """Every player's feature vector, each in a buffer of its own, brought up to date part by part.

    ``new_buffer(size)`` makes a zeroed buffer (default: a list of floats; the
    PettingZoo env passes a numpy ``float32`` array). :meth:`view` returns the
    player's buffer itself: copy it before keeping it or changing it. The
    buffers may be asked about any state of the same game (an OpenSpiel
    observer sees many): every part is compared by value before it is skipped.
    """

    __slots__ = ("_buffers", "_game", "_games", "_lengths", "_log", "_public", "_seen", "_versions")

    def __init__(self, game: str, players: int, new_buffer: Callable[[int], Any] | None = None) -> None:
        size = _SIZES[game]
        new: Callable[[int], Any] = new_buffer or (lambda n: [0.0] * n)
        self._game = _GAMES[game]
        regions = len(self._game[2])
        sizes: list[list[Any]] = [[None, 0.0] for _ in range(players)]
        self._buffers = [_Buffer(new(size), sizes) for _ in range(players)]
        self._public = _Buffer(new(size) if regions else [])  # only the game's shared slices are used
        self._versions = [0] * regions  # counts the changes of each public slice
        self._seen = [[-1] * regions for _ in range(players)]  # the versions each player's buffer holds
        # per player (and last, the public buffer): the game and its history length last written
        # from (the game object kept, so its id stays its own)
        self._games: list[Any] = [None] * (players + 1)
        self._lengths = [-1] * (players + 1)
        self._log = _Log()  # the deal's public record, read from the history once a step for all players

    def view(self, turn: Turn, player: int) -> Any:
        """``player``'s features in ``turn``'s position (the buffer: do not modify it).

        A game changes only by actions, each growing its history: a buffer last written from
        this very game at this history length differs at most in what the turn adds (the
        picks, a swap in progress), and only that is brought up to date.
        """
        public, private, regions, selection = self._game
        game = turn.game
        length = len(game.history)
        lengths, games = self._lengths, self._games
        buf = self._buffers[player]
        if lengths[player] == length and games[player] is game:
            selection(turn, player, buf)
            return buf.out
        lengths[player], games[player] = length, game
        log = self._log
        log.update(game)
        if not regions:  # no shared slices: the public parts written into the player's buffer
            public(turn, buf)
            private(turn, player, buf)
            _history(log, game, player, buf)
            return buf.out
        versions = self._versions
        if lengths[-1] != length or games[-1] is not game:
            lengths[-1], games[-1] = length, game
            changed = public(turn, self._public)
            r = 0
            while changed:
                if changed & 1:
                    versions[r] += 1
                changed >>= 1
                r += 1
        seen = self._seen[player]
        if seen != versions:
            shared = self._public.out
            for r, (lo, hi) in enumerate(regions):
                if seen[r] != versions[r]:
                    buf.out[lo:hi] = shared[lo:hi]
                    seen[r] = versions[r]
        private(turn, player, buf)
        _history(log, game, player, buf)
        return buf.out


def features(turn: Turn, player: int) -> list[float]:
    """``player``'s view of the position as ``feature_size(game)`` floats."""
    public, private, _, _ = _GAMES[turn.game.GAME]
    buf = _Buffer([0.0] * _SIZES[turn.game.GAME], [[None, 0.0] for _ in turn.game.hands])
    public(turn, buf)
    private(turn, player, buf)
    log = _LOGS.__dict__.get("log")
    if log is None:
        log = _LOGS.log = _Log()
    log.update(turn.game)  # the game read on from where this thread's last call left it, if it is the same
    _history(log, turn.game, player, buf)
    return list(map(float, buf.out))


_LOGS = threading.local()  # per thread, the record features() read last (an OpenSpiel state asks again and again)


_Public = Callable[[Turn, _Buffer], int]  # writes the public slices; returns a bit per slice changed
_Private = Callable[[Turn, int, _Buffer], None]
# per game: the public writer, the private writer (the common part included), the public slices
# shared between the players (written once, copied into each buffer; none: each buffer takes the
# public parts directly), and the writer of what the turn adds to the game (the picks, a swap)
_GAMES: dict[str, tuple[_Public, _Private, tuple[tuple[int, int], ...], _Private]] = {
    "zsy": (_zsy_public, _zsy_private, (), _selection),
    "contract": (_contract_public, _contract_private, (), _contract_selection),
    "manipulation": (_manipulation_public, _manipulation_private, _MANIPULATION_PUBLIC, _selection),
}
