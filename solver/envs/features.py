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

>>> from solver.engine import new_game
>>> from solver.envs.actions import Turn
>>> turn = Turn(new_game("zsy", seed=1))
>>> views = Observations("zsy", 4)
>>> views.view(turn, 2) == features(turn, 2), len(features(turn, 2))
(True, 1346)
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from itertools import compress
from operator import ne
from typing import Any

from solver.cards import N_CARDS, Card, Cards
from solver.envs.actions import MAX_MELDS, Turn

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

N = N_CARDS
MAX_SEATS = 8
MAX_MOVES = 8  # the deal's last moves shown, newest first
MOVE_KINDS = {  # each game's move kinds (a move's one-hot, MAX_KINDS wide)
    "zsy": ("single", "set", "straight", "parallel", "pass", "offer", "take", "give"),
    "contract": ("discard", "take", "decline", "call", "nocall", "laydown", "layoff", "swap"),
    "manipulation": ("play", "draw", "pass"),
}
MAX_KINDS = 8
SHAPE = 2  # a Zheng Shang You play's shape: copies / 8, length / 16
MOVE_SIZE = MAX_SEATS + MAX_KINDS + SHAPE + N  # one move: its seat and kind (one-hot), its shape, its cards (N)
HISTORY_SIZE = MAX_SEATS * N + MAX_MOVES * MOVE_SIZE  # the cards played by seat, then the last moves


def table_slots(rules: Any) -> int:
    """The most melds a Manipulation table can hold under ``rules``: the deck's size over the
    shortest meld (no card is ever dropped from the table's view of that rule set)."""
    spec = rules.meld_spec
    return int(len(rules.deck) // min(spec.set_min, spec.run_min))


def _max_table() -> int:
    """The table slots of the largest deck the rule options allow (the view has one size a game)."""
    import dataclasses

    from solver.rules.manipulation import ManipulationRules

    high = {f.name: f.metadata["hi"] for f in dataclasses.fields(ManipulationRules) if f.name in ("decks", "jokers")}
    return table_slots(ManipulationRules(**high))


MAX_TABLE = _max_table()  # Manipulation table melds: 72 (4 decks and 8 jokers, melds of 3)
_COMMON = 2 * N + 3 * MAX_SEATS
_KINDS = ("single", "set", "straight", "parallel")  # a Zheng Shang You trick's kind (one-hot)
_ZSY_FACTS = _COMMON + 3 * N + 1 + 2 * MAX_SEATS  # where the trick's kind starts
_CONTRACT_ROLES = _COMMON + 2 * N + MAX_MELDS * (N + MAX_SEATS) + 2 * MAX_SEATS + 8 + 5 + MAX_MELDS + N + 1
_HISTORY = {  # where each game's history part (the cards played by seat, the last moves) starts
    "zsy": _ZSY_FACTS + len(_KINDS) + SHAPE,
    "contract": _CONTRACT_ROLES + MAX_MELDS * N,
    "manipulation": _COMMON + N + MAX_TABLE * N + MAX_SEATS + 2,
}
_SIZES = {game: at + HISTORY_SIZE for game, at in _HISTORY.items()}
_UNSET = object()  # a part never written into this buffer
_RANGE = range(N)
_NONE = (0,) * N  # the counts of no cards
_PHASES = {"first_discard": 0, "offer": 1, "call": 2, "play": 3, "over": 4}


def feature_size(game: str) -> int:
    """The length of :func:`features` for ``game``."""
    return _SIZES[game]


class _Buffer:
    """A zeroed feature buffer and, per part (an id: its offset), the value that part was last
    written from.

    The parts compare their source with :attr:`keys` before writing (immutable values by
    identity, the rest by value), so an unchanged hand or table meld costs one comparison,
    and a changed one sets only the numbers that changed.
    """

    __slots__ = ("_row", "keys", "listed", "out", "sizes")

    def __init__(self, out: Any, sizes: list[list[Any]] | None = None) -> None:
        self.out = out
        self.listed = isinstance(out, list)
        self.keys: dict[int, Any] = {}
        # per seat, the last hand whose size was worked out and that size / 30 (shared by the
        # buffers of one Observations: each new hand's size is counted once, not once a player)
        self.sizes: list[list[Any]] = sizes if sizes is not None else []
        self._row: Callable[[bytes], Any] | None = None  # bytes of counts -> a row a numpy slice takes
        if not self.listed:
            from numpy import frombuffer, uint8  # a numpy buffer: numpy is there

            self._row = partial(frombuffer, dtype=uint8)

    def clear(self, at: int, size: int) -> None:
        """Zeros at ``at`` .. ``at + size - 1``."""
        if self.listed:
            self.out[at : at + size] = [0.0] * size
        else:
            self.out[at : at + size] = 0

    def counts(self, at: int, cards: Cards | None) -> bool:
        """Card counts (N) at ``at`` unless these very cards are there (None: no cards); True if written.

        In a list only the counts that differ from the cards written last are set; a numpy
        slice takes all of them at once as the bytes of the counts (cheaper than finding the
        few that differ, and than a slice assigned from the tuple of 55 ints).
        """
        keys = self.keys
        old = keys.get(at)
        if old is cards:
            return False
        keys[at] = cards
        new = cards.counts if cards is not None else _NONE
        out = self.out
        if self._row is not None:
            out[at : at + N] = self._row(bytes(new))
            return True
        for i in compress(_RANGE, map(ne, old.counts if old is not None else _NONE, new)):
            out[at + i] = new[i]
        return True

    def picks(self, at: int, picks: tuple[int, ...]) -> None:
        """The counts (N) of the cards picked so far: one more pick sets one count."""
        old = self.keys.get(at, ())
        if old == picks:
            return
        out = self.out
        if picks[: len(old)] != old:
            for i in old:
                out[at + i] = 0.0
            old = ()
        for i in picks[len(old) :]:
            out[at + i] = picks.count(i)
        self.keys[at] = picks

    def each(self, at: int, cards: Iterable[Card], sign: int = 1) -> None:
        """Add (or with ``sign`` -1, take away) the counts of a few loose cards at ``at``."""
        out = self.out
        for card in cards:
            out[at + card._index] += sign

    def seats(self, at: int, values: list[Any], p: int, scale: float = 1.0) -> None:
        """Per seat, relative to the observer (MAX_SEATS), each value / ``scale``: the seats whose
        value changed since the last write."""
        old = self.keys.get(at)
        if old == values:
            return
        self.keys[at] = list(values)
        n = len(values)
        out = self.out
        for q in range(n):
            if old is None or old[q] != values[q]:
                out[at + (q - p) % n] = values[q] / scale

    def one_hot(self, at: int, i: int, size: int) -> None:
        """A one-hot of ``i`` among ``size`` (all zeros when out of range), unless it is there."""
        old = self.keys.get(at)
        if old == i:
            return
        self.keys[at] = i
        out = self.out
        if old is not None and 0 <= old < size:
            out[at + old] = 0.0
        if 0 <= i < size:
            out[at + i] = 1.0


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


def _selection(turn: Turn, p: int, buf: _Buffer) -> None:
    """The part of the view the turn adds to the game: the player's picks (all games)."""
    buf.picks(N, turn.picks if turn.game.current_player() == p else ())


def _common(turn: Turn, p: int, buf: _Buffer) -> None:
    game: Any = turn.game
    to_move = game.current_player()
    hands = game.hands
    buf.counts(0, hands[p])
    buf.picks(N, turn.picks if to_move == p else ())
    _hand_sizes(hands, p, buf)
    buf.one_hot(2 * N + MAX_SEATS, (to_move - p) % game.num_players if to_move >= 0 else -1, MAX_SEATS)
    buf.seats(2 * N + 2 * MAX_SEATS, game.scores(), p, 100)


def _hand_sizes(hands: list[Cards], p: int, buf: _Buffer) -> None:
    """Each hand's size / 30 by seat relative to ``p``: only the hands that changed since this
    buffer's last view (a new hand's size is counted once for all the buffers)."""
    keys = buf.keys
    n = len(hands)
    held = keys.get(-1)
    if held is None or len(held) != n:
        held = keys[-1] = [None] * n
    out = buf.out
    sizes = buf.sizes
    for q, hand in enumerate(hands):
        if held[q] is not hand:
            held[q] = hand
            size = sizes[q]
            if size[0] is not hand:
                size[0], size[1] = hand, len(hand) / 30
            out[2 * N + (q - p) % n] = size[1]


# --- Zheng Shang You: public trick, played and pending cards, tribute phase (one slice) -------------

_ZSY_PUBLIC = ((_COMMON, _COMMON + 3 * N + 1),)


def _zsy_public(turn: Turn, buf: _Buffer) -> int:
    game: Any = turn.game
    at = _COMMON
    trick = game.trick
    changed = buf.counts(at, trick.cards if trick is not None else None)
    changed = buf.counts(at + N, game.played) or changed
    changed = buf.counts(at + 2 * N, game.pending) or changed
    tribute = game.phase == "tribute"
    if buf.keys.get(at + 3 * N) is not tribute:
        buf.keys[at + 3 * N] = tribute
        buf.out[at + 3 * N] = 1.0 if tribute else 0.0
        changed = True
    return 1 if changed else 0


def _zsy_private(turn: Turn, p: int, buf: _Buffer) -> None:
    _common(turn, p, buf)
    game: Any = turn.game
    n = game.num_players
    at = _ZSY_PUBLIC[0][1]
    buf.one_hot(at, (game.trick_player - p) % n if game.trick is not None else -1, MAX_SEATS)
    places = game.places
    if buf.keys.get(-3) != places:
        buf.keys[-3] = list(places)
        buf.seats(at + MAX_SEATS, [q in places for q in range(n)], p)
    trick = game.trick  # its kind: 3H BJ RJ is a set or a straight, and the replies differ
    buf.one_hot(_ZSY_FACTS, _KINDS.index(trick.kind) if trick is not None else -1, len(_KINDS))
    shape = _shape(trick)  # and its shape: the same cards can be parallel-2x6 or parallel-3x4
    at = _ZSY_FACTS + len(_KINDS)
    if buf.keys.get(at) != shape:
        buf.keys[at] = shape
        buf.out[at : at + SHAPE] = list(shape)


def _shape(combo: Any) -> tuple[float, float]:
    """A Zheng Shang You combination's shape as features (copies / 8, length / 16), zeros for none."""
    if combo is None:
        return (0.0, 0.0)
    return (combo.copies / 8, combo.length / 16)


@lru_cache(maxsize=8192)
def _roles(meld: Any) -> Cards | None:
    """The cards a table meld's wilds stand for (one object per meld: compared by identity)."""
    roles = [r for r in meld.roles if r is not None]
    return Cards(roles) if roles else None


# --- Contract Shanghai: public top discard, pile and table melds (one slice) -----------------------

_CONTRACT_PUBLIC = ((_COMMON, _COMMON + 2 * N), (_COMMON + 2 * N, _COMMON + 2 * N + MAX_MELDS * N))


def _contract_public(turn: Turn, buf: _Buffer) -> int:
    game: Any = turn.game
    at = _COMMON
    pile = game.pile
    key = tuple(pile)
    old = buf.keys.get(at + N, ())
    changed = 0
    if old != key:  # the pile grows and shrinks at the top: add or take away what changed
        changed = 1
        buf.one_hot(at, pile[-1].index if pile else -1, N)
        k = len(old)
        if key[:k] != old:  # not only discards since: the common prefix (old[:k] == key[:k])
            k = len(key)
            if old[:k] != key:  # not only cards taken either: found by halves (slices compared in C)
                lo, hi = 0, min(len(old), len(key)) - 1
                while lo < hi:
                    mid = (lo + hi + 1) // 2
                    if old[:mid] == key[:mid]:
                        lo = mid
                    else:
                        hi = mid - 1
                k = lo
        buf.each(at + N, old[k:], -1)
        buf.each(at + N, key[k:])
        buf.keys[at + N] = key
    at += 2 * N
    table = game.table
    keys = buf.keys
    melds = tuple(table)
    if keys.get(-2) != melds:  # the melds one by one only when the table changed
        keys[-2] = melds
        changed |= 2
        for m in range(MAX_MELDS):
            tm = table[m] if m < len(table) else None
            if keys.get(at + m * N, _UNSET) is not tm:
                keys[at + m * N] = tm
                buf.clear(at + m * N, N)
                if tm is not None:
                    buf.each(at + m * N, tm.meld.cards)
    return changed


def _contract_private(turn: Turn, p: int, buf: _Buffer) -> None:
    # the common part and Contract's own in one pass: each source compared here (by identity
    # where it is an immutable value), the helpers called only for what changed
    game: Any = turn.game
    keys = buf.keys
    out = buf.out
    hands = game.hands
    n = len(hands)
    hand = hands[p]
    if keys.get(0) is not hand:
        buf.counts(0, hand)
    to_move = game.current_player()
    picks = turn.picks if to_move == p else ()
    if picks or keys.get(N):
        buf.picks(N, picks)
    _hand_sizes(hands, p, buf)
    mover = (to_move - p) % n if to_move >= 0 else -1
    if keys.get(2 * N + MAX_SEATS) != mover:
        buf.one_hot(2 * N + MAX_SEATS, mover, MAX_SEATS)
    totals = game.totals  # the scores of a penalty game
    if keys.get(2 * N + 2 * MAX_SEATS) != totals:
        buf.seats(2 * N + 2 * MAX_SEATS, totals, p, 100)
    at = _CONTRACT_PUBLIC[1][1]
    melds = tuple(game.table[:MAX_MELDS])  # immutable melds: an owner changes only with its meld
    if keys.get(at) != melds:
        keys[at] = melds
        buf.clear(at, MAX_MELDS * MAX_SEATS)
        for m, tm in enumerate(melds):
            out[at + m * MAX_SEATS + (tm.owner - p) % n] = 1.0
    at += MAX_MELDS * MAX_SEATS
    if keys.get(at) != game.laid_down:
        buf.seats(at, game.laid_down, p)
    if keys.get(at + MAX_SEATS) != game.calls:
        buf.seats(at + MAX_SEATS, game.calls, p)
    at += 2 * MAX_SEATS
    _contract_state(turn, p, buf)
    out[at + 13 + MAX_MELDS + N] = len(game.stock) / 100
    for m, tm in enumerate(melds):  # the cards each table meld's wilds stand for
        if keys.get(-200 - m) is not tm.meld:
            keys[-200 - m] = tm.meld
            buf.counts(_CONTRACT_ROLES + m * N, _roles(tm.meld))
    for m in range(len(melds), MAX_MELDS):
        if keys.get(-200 - m) is not None:
            keys[-200 - m] = None
            buf.counts(_CONTRACT_ROLES + m * N, None)


def _contract_selection(turn: Turn, p: int, buf: _Buffer) -> None:
    """The picks and a swap in progress: what the turn adds to a Contract position."""
    _selection(turn, p, buf)
    _contract_state(turn, p, buf)


def _contract_state(turn: Turn, p: int, buf: _Buffer) -> None:
    """The round, the phase and a swap in progress (one-hots; the swap, whose card is still in the
    mover's hand, only in the mover's view, as the picks)."""
    game: Any = turn.game
    keys = buf.keys
    at = _CONTRACT_PUBLIC[1][1] + MAX_MELDS * MAX_SEATS + 2 * MAX_SEATS
    stage = turn.stage if game.current_player() == p else None
    state = (game.round, game.phase, stage)
    old = keys.get(-4)
    if old != state:  # the round, the phase and a swap in progress, compared at once, then one by one
        keys[-4] = state
        if old is None or old[0] != state[0]:
            buf.one_hot(at, game.round - 1, 8)
        if old is None or old[1] != state[1]:
            buf.one_hot(at + 8, _PHASES[game.phase], 5)
        if old is None or old[2] != stage:
            buf.one_hot(at + 13, stage[0] if stage else -1, MAX_MELDS)
            buf.one_hot(at + 13 + MAX_MELDS, stage[1].index if stage else -1, N)


# --- Manipulation Shanghai: public table cards and melds (one slice) -----------------------------

_MANIPULATION_PUBLIC = ((_COMMON, _COMMON + N + MAX_TABLE * N),)


def _manipulation_public(turn: Turn, buf: _Buffer) -> int:
    game: Any = turn.game
    at = _COMMON
    table = game.table
    keys = buf.keys
    old = keys.get(-5)
    if old is table:  # an immutable tuple of melds
        return 0
    keys[-5] = table
    buf.counts(at, game._table_cards())  # the engine's count of the table's cards, once per table
    # the melds one by one only when the table changed, as far as this table or the last one
    # written reaches (every meld slot beyond both is zeros)
    for m in range(min(MAX_TABLE, max(len(table), len(old) if old is not None else 0))):
        meld = table[m] if m < len(table) else None
        was = keys.get(at + N + m * N, _UNSET)
        if was is not meld and was != meld:  # (identity first: a dataclass's != compares the fields)
            keys[at + N + m * N] = meld
            buf.clear(at + N + m * N, N)
            if meld is not None:
                buf.each(at + N + m * N, meld.cards)
    return 1


def _manipulation_private(turn: Turn, p: int, buf: _Buffer) -> None:
    _common(turn, p, buf)
    game: Any = turn.game
    at = _MANIPULATION_PUBLIC[0][1]
    buf.seats(at, game.opened, p)
    buf.out[at + MAX_SEATS] = len(game.stock) / 100
    buf.out[at + MAX_SEATS + 1] = 1.0 if game.phase == "drawn" else 0.0


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
