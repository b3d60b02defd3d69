"""A fixed-size numeric view of the game for one player (what the env's ``Box`` and OpenSpiel's tensors hold).

Plain lists of floats (no numpy needed). Seats are relative to the
observer (0 is the observer, 1 the next to play, ...); at most
:data:`MAX_SEATS` seats. Per game (``N`` = 55 card kinds):

* every game: own hand counts (N), the selection in progress (N), hand
  sizes / 30, the player to move (one-hot), scores / 100, by seat;
* Zheng Shang You: the trick's cards, the cards played this hand, the
  tribute cards pending (N each), tribute phase, the trick's player and the
  finished players by seat;
* Contract Shanghai: the top discard (one-hot), the discard pile (N), each
  table meld's cards (32 x N) and owner (32 x seats), lay-down and call
  counts by seat, round (one-hot of 8), phase (one-hot of 5), a swap in
  progress (meld one-hot, card one-hot), stock size / 100;
* Manipulation Shanghai: the table's cards (N), each meld's cards (40 x
  N), opened by seat, stock size / 100, drawn this turn.

Nothing hidden from the observer is in it: other hands appear as sizes only.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from solver.cards import N_CARDS, Card, Cards
from solver.envs.actions import MAX_MELDS, Turn

__all__ = ["features", "feature_size", "write_features", "MAX_SEATS", "MAX_TABLE"]

N = N_CARDS
MAX_SEATS = 8
MAX_TABLE = 40  # Manipulation table melds
_COMMON = 2 * N + 3 * MAX_SEATS
_SIZES = {
    "zsy": _COMMON + 3 * N + 1 + 2 * MAX_SEATS,
    "contract": _COMMON + 2 * N + MAX_MELDS * (N + MAX_SEATS) + 2 * MAX_SEATS + 8 + 5 + MAX_MELDS + N + 1,
    "manipulation": _COMMON + N + MAX_TABLE * N + MAX_SEATS + 2,
}


def feature_size(game: str) -> int:
    """The length of :func:`features` for ``game``."""
    return _SIZES[game]


class _Writer:
    """Writes the features into a zeroed buffer (a list or a numpy array) from the front: only
    the non-zero parts are written, with slice assignments (a card count vector at once)."""

    __slots__ = ("at", "out")

    def __init__(self, out: Any) -> None:
        self.out = out
        self.at = 0

    def counts(self, cards: Cards | None) -> None:
        """Card counts (N): nothing for no cards."""
        if cards:
            self.out[self.at : self.at + N] = cards.counts
        self.at += N

    def each(self, cards: Iterable[Card]) -> None:
        """Card counts (N) of a few loose cards (a meld, the pile): no multiset built."""
        out, at = self.out, self.at
        for card in cards:
            out[at + card.index] += 1
        self.at += N

    def seats(self, values: list[float], n: int, p: int) -> None:
        """Per seat, relative to the observer (MAX_SEATS)."""
        for q in range(n):
            if values[q]:
                self.out[self.at + (q - p) % n] = values[q]
        self.at += MAX_SEATS

    def one_hot(self, i: int, size: int) -> None:
        """A one-hot of ``i`` among ``size`` (all zeros when out of range)."""
        if 0 <= i < size:
            self.out[self.at + i] = 1.0
        self.at += size

    def value(self, x: float) -> None:
        """One number."""
        self.out[self.at] = x
        self.at += 1

    def skip(self, size: int) -> None:
        """``size`` zeros."""
        self.at += size


def features(turn: Turn, player: int) -> list[float]:
    """``player``'s view of the position as ``feature_size(game)`` floats."""
    out = [0.0] * _SIZES[turn.game.GAME]
    write_features(turn, player, out)
    return [float(x) for x in out]


def write_features(turn: Turn, player: int, out: Any) -> None:
    """Write :func:`features` into ``out``, a zeroed buffer of ``feature_size(game)`` (a list or a
    numpy array: the env fills its observation array in place, without a list in between)."""
    game: Any = turn.game
    n, p = game.num_players, player
    to_move = game.current_player()
    w = _Writer(out)
    w.counts(game.hands[p])
    w.counts(turn.selection if to_move == p else None)
    w.seats([len(h) / 30 for h in game.hands], n, p)
    w.one_hot((to_move - p) % n if to_move >= 0 else -1, MAX_SEATS)
    w.seats([s / 100 for s in game.scores()], n, p)
    _EXTRA[game.GAME](turn, p, w)
    assert w.at == len(out), (w.at, len(out))


def _zsy(turn: Turn, p: int, w: _Writer) -> None:
    game: Any = turn.game
    n = game.num_players
    w.counts(game.trick.cards if game.trick is not None else None)
    w.counts(game.played)
    w.counts(game.pending)
    w.value(1.0 if game.phase == "tribute" else 0.0)
    w.one_hot((game.trick_player - p) % n if game.trick is not None else -1, MAX_SEATS)
    w.seats([1.0 if q in game.places else 0.0 for q in range(n)], n, p)


def _contract(turn: Turn, p: int, w: _Writer) -> None:
    game: Any = turn.game
    n = game.num_players
    w.one_hot(game.pile[-1].index if game.pile else -1, N)
    w.each(game.pile)
    table = game.table
    for m in range(MAX_MELDS):
        if m < len(table):
            w.each(table[m].meld.cards)
        else:
            w.skip(N)
    for m in range(MAX_MELDS):
        if m < len(table):
            w.one_hot((table[m].owner - p) % n, MAX_SEATS)
        else:
            w.skip(MAX_SEATS)
    w.seats([float(x) for x in game.laid_down], n, p)
    w.seats([float(x) for x in game.calls], n, p)
    w.one_hot(game.round - 1, 8)
    w.one_hot(("first_discard", "offer", "call", "play", "over").index(game.phase), 5)
    stage = turn.stage
    w.one_hot(stage[0] if stage else -1, MAX_MELDS)
    w.one_hot(stage[1].index if stage else -1, N)
    w.value(len(game.stock) / 100)


def _manipulation(turn: Turn, p: int, w: _Writer) -> None:
    game: Any = turn.game
    n = game.num_players
    table = game.table
    w.each(c for m in table for c in m.cards)
    for m in range(MAX_TABLE):
        if m < len(table):
            w.each(table[m].cards)
        else:
            w.skip(N)
    w.seats([float(x) for x in game.opened], n, p)
    w.value(len(game.stock) / 100)
    w.value(1.0 if game.phase == "drawn" else 0.0)


_EXTRA = {"zsy": _zsy, "contract": _contract, "manipulation": _manipulation}
