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

from typing import Any

from solver.cards import N_CARDS, Cards
from solver.envs.actions import MAX_MELDS, Turn

__all__ = ["features", "feature_size", "MAX_SEATS", "MAX_TABLE"]

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


def _counts(cards: Cards, scale: float = 1.0) -> list[float]:
    return [n * scale for n in cards.counts]


def _seats(values: list[float], n: int, p: int) -> list[float]:
    out = [0.0] * MAX_SEATS
    for q in range(n):
        out[(q - p) % n] = values[q]
    return out


def _one_hot(i: int, size: int) -> list[float]:
    out = [0.0] * size
    if 0 <= i < size:
        out[i] = 1.0
    return out


def features(turn: Turn, player: int) -> list[float]:
    """``player``'s view of the position as ``feature_size(game)`` floats."""
    game: Any = turn.game
    n, p = game.num_players, player
    to_move = game.current_player()
    out = _counts(game.hands[p]) + _counts(turn.selection if to_move == p else Cards())
    out += _seats([len(h) / 30 for h in game.hands], n, p)
    out += _one_hot((to_move - p) % n if to_move >= 0 else -1, MAX_SEATS)
    out += _seats([s / 100 for s in game.scores()], n, p)
    out += _EXTRA[game.GAME](turn, p)
    return out


def _zsy(turn: Turn, p: int) -> list[float]:
    game: Any = turn.game
    n = game.num_players
    out = _counts(game.trick.cards if game.trick is not None else Cards()) + _counts(game.played)
    out += [*_counts(game.pending), 1.0 if game.phase == "tribute" else 0.0]
    out += _one_hot((game.trick_player - p) % n if game.trick is not None else -1, MAX_SEATS)
    return out + _seats([1.0 if q in game.places else 0.0 for q in range(n)], n, p)


def _contract(turn: Turn, p: int) -> list[float]:
    game: Any = turn.game
    n = game.num_players
    out = _one_hot(game.pile[-1].index if game.pile else -1, N) + _counts(Cards(game.pile))
    owners: list[float] = []
    for m in range(MAX_MELDS):
        if m < len(game.table):
            out += _counts(game.table[m].meld.multiset)
            owners += _one_hot((game.table[m].owner - p) % n, MAX_SEATS)
        else:
            out += [0.0] * N
            owners += [0.0] * MAX_SEATS
    out += owners
    out += _seats([float(x) for x in game.laid_down], n, p) + _seats([float(x) for x in game.calls], n, p)
    out += _one_hot(game.round - 1, 8)
    out += _one_hot(("first_discard", "offer", "call", "play", "over").index(game.phase), 5)
    stage = turn.stage
    out += _one_hot(stage[0] if stage else -1, MAX_MELDS) + _one_hot(stage[1].index if stage else -1, N)
    return [*out, len(game.stock) / 100]


def _manipulation(turn: Turn, p: int) -> list[float]:
    game: Any = turn.game
    n = game.num_players
    out = _counts(Cards(c for m in game.table for c in m.cards))
    for m in range(MAX_TABLE):
        out += _counts(Cards(game.table[m].cards)) if m < len(game.table) else [0.0] * N
    out += _seats([float(x) for x in game.opened], n, p)
    return [*out, len(game.stock) / 100, 1.0 if game.phase == "drawn" else 0.0]


_EXTRA = {"zsy": _zsy, "contract": _contract, "manipulation": _manipulation}
