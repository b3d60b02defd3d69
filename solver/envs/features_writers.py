"""Each game's writers of the feature vector (:mod:`solver.envs.features`): the common part
(the hand, the picks, hand sizes, the player to move, scores), and per game the public part (the
slices every player sees) and the private part (the player's own view, the common part included)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from solver.cards import Cards
from solver.envs.actions import MAX_MELDS, Turn
from solver.envs.features_buffer import _Buffer
from solver.envs.features_layout import (
    _COMMON,
    _CONTRACT_ROLES,
    _KINDS,
    _PHASES,
    _UNSET,
    _ZSY_FACTS,
    MAX_SEATS,
    MAX_TABLE,
    SHAPE,
    N,
    _shape,
)

__all__: list[str] = []


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
