"""A fixed-size numeric view of the game for one player (what the env's ``Box`` and OpenSpiel's tensors hold).

Plain lists of floats (no numpy needed). Seats are relative to the
observer (0 is the observer, 1 the next to play, ...); at most
:data:`MAX_SEATS` seats. Per game (``N`` = 55 card kinds):

* every game: own hand counts (N), the selection in progress (N), hand
  sizes / 30, the player to move (one-hot), scores / 100, by seat;
* Zheng Shang You: the trick's cards, the cards played this hand, the
  tribute cards pending (N each), tribute phase, the trick's player and the
  finished players by seat, the trick's kind (one-hot of 4: single, set,
  straight, parallel);
* Contract Shanghai: the top discard (one-hot), the discard pile (N), each
  table meld's cards (32 x N) and owner (32 x seats), lay-down and call
  counts by seat, round (one-hot of 8), phase (one-hot of 5), a swap in
  progress (meld one-hot, card one-hot), stock size / 100, the cards each
  table meld's wilds stand for (32 x N);
* Manipulation Shanghai: the table's cards (N), each meld's cards (40 x
  N), opened by seat, stock size / 100, drawn this turn.

Nothing hidden from the observer is in it: other hands appear as sizes only.

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
directly (cheaper than a write and a copy). :func:`features` is the same
writer on a fresh buffer.

>>> from solver.engine import new_game
>>> from solver.envs.actions import Turn
>>> turn = Turn(new_game("zsy", seed=1))
>>> views = Observations("zsy", 4)
>>> views.view(turn, 2) == features(turn, 2), len(features(turn, 2))
(True, 320)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache, partial
from itertools import compress
from operator import ne
from typing import Any

from solver.cards import N_CARDS, Card, Cards
from solver.envs.actions import MAX_MELDS, Turn

__all__ = ["MAX_SEATS", "MAX_TABLE", "Observations", "feature_size", "features"]

N = N_CARDS
MAX_SEATS = 8
MAX_TABLE = 40  # Manipulation table melds
_COMMON = 2 * N + 3 * MAX_SEATS
_KINDS = ("single", "set", "straight", "parallel")  # a Zheng Shang You trick's kind (one-hot)
_ZSY_FACTS = _COMMON + 3 * N + 1 + 2 * MAX_SEATS  # where the trick's kind starts
_CONTRACT_ROLES = _COMMON + 2 * N + MAX_MELDS * (N + MAX_SEATS) + 2 * MAX_SEATS + 8 + 5 + MAX_MELDS + N + 1
_SIZES = {
    "zsy": _ZSY_FACTS + len(_KINDS),
    "contract": _CONTRACT_ROLES + MAX_MELDS * N,
    "manipulation": _COMMON + N + MAX_TABLE * N + MAX_SEATS + 2,
}
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

    __slots__ = ("_buffers", "_game", "_games", "_lengths", "_public", "_seen", "_versions")

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
        if not regions:  # no shared slices: the public parts written into the player's buffer
            public(turn, buf)
            private(turn, player, buf)
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
        return buf.out


def features(turn: Turn, player: int) -> list[float]:
    """``player``'s view of the position as ``feature_size(game)`` floats."""
    public, private, _, _ = _GAMES[turn.game.GAME]
    buf = _Buffer([0.0] * _SIZES[turn.game.GAME], [[None, 0.0] for _ in turn.game.hands])
    public(turn, buf)
    private(turn, player, buf)
    return [float(x) for x in buf.out]


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
    _contract_state(turn, buf)
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
    _contract_state(turn, buf)


def _contract_state(turn: Turn, buf: _Buffer) -> None:
    """The round, the phase and a swap in progress (one-hots)."""
    game: Any = turn.game
    keys = buf.keys
    at = _CONTRACT_PUBLIC[1][1] + MAX_MELDS * MAX_SEATS + 2 * MAX_SEATS
    stage = turn.stage
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
