"""Search support for every game: cheap copies, what a player knows, and resampled deals.

A search player (``ismcts``) plays many imagined continuations of the real
game. It needs a cheap copy of a state (:func:`clone_game`) and a state that
agrees with everything one player has seen while the cards hidden from them
are dealt anew (:func:`resample`): their own hand, the table, the discards,
each hand's size, and the cards others were seen to take (a Contract
Shanghai discard taken or called, a Zheng Shang You tribute) and have not
played since (:func:`known_cards`).

The games keep four small hooks for this (``_note``, ``_epoch``,
``_removed``, ``_hidden``/``_redeal``; see :class:`solver.engine.base.Game`).

>>> import random
>>> from solver.engine import new_game
>>> game = new_game("zsy", seed=3)
>>> other = game.resample(0, random.Random(1))
>>> other.hands[0] == game.hands[0], [len(h) for h in other.hands] == [len(h) for h in game.hands]
(True, True)
>>> other.hands[1] == game.hands[1]
False
"""

from __future__ import annotations

import random
from typing import Any, Protocol, TypeVar

from solver.cards import Card, Cards

__all__ = ["SearchGame", "clone_game", "known_cards", "resample", "floor_sub"]


class SearchGame(Protocol):
    """What search reads and writes of a game state: :class:`solver.engine.base.Game` (which
    imports this module: search names the members it uses, not the class)."""

    num_players: int
    history: list[Any]
    hands: list[Cards]
    rng: random.Random
    _legal_key: int
    _gains: list[tuple[int, int, int, Cards]]

    def _epoch(self) -> int: ...
    def _removed(self, action: Any) -> Cards | None: ...
    def _hidden(self) -> list[Card]: ...
    def _stock_source(self, player: int) -> Cards | None: ...
    def _redeal(self, hands: list[Cards], stock: list[Card], rng: random.Random) -> None: ...


G = TypeVar("G", bound=SearchGame)


class ForkedRandom:
    """A random generator that copies a frozen parent's state on first use (copy on write).

    Copying a Mersenne Twister's state costs more than the rest of a clone,
    and most clones never shuffle: a clone and its original both get a fork
    of the same frozen generator, and each pays for the copy only if it draws.
    """

    __slots__ = ("_base", "_own")

    def __init__(self, base: random.Random) -> None:
        self._base = base
        self._own: random.Random | None = None

    def __getattr__(self, name: str) -> Any:
        own = self._own
        if own is None:
            own = self._own = random.Random()
            own.setstate(self._base.getstate())
        return getattr(own, name)

    def fork(self) -> ForkedRandom:
        """Another fork at this generator's current state (this one forks too)."""
        if self._own is not None:
            self._base, self._own = self._own, None
        return ForkedRandom(self._base)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_unfork, (self._own or self._base).getstate())


def _unfork(*state: Any) -> random.Random:
    rng = random.Random()
    rng.setstate(state)
    return rng


def clone_game(game: G) -> G:
    """A copy of ``game`` sharing only immutable values.

    Game states hold immutable values (cards, melds, tuples) in lists and
    dicts: each list and dict (caches included) is copied one level deep,
    a list of lists two levels, and the random generator is copied with its
    state, so the copy goes on exactly as the original would.
    """
    new = object.__new__(type(game))
    state = game.__dict__.copy()
    for key, value in state.items():
        kind = type(value)
        if kind is list:
            state[key] = [v.copy() for v in value] if value and type(value[0]) is list else value.copy()
        elif kind is dict:
            state[key] = value.copy()
        elif kind is random.Random:
            game.__dict__[key] = ForkedRandom(value)
            state[key] = ForkedRandom(value)
        elif kind is ForkedRandom:
            state[key] = value.fork()
    new.__dict__ = state
    return new


def floor_sub(a: Cards, b: Cards) -> Cards:
    """``a`` less ``b``, each count floored at zero.

    >>> str(floor_sub(Cards.parse("5S 5S 7H"), Cards.parse("5S 9C")))
    '5S 7H'
    """
    return Cards._make(tuple(x - y if x > y else 0 for x, y in zip(a.counts, b.counts)))


def known_cards(game: SearchGame, observer: int) -> list[Cards]:
    """Per player, the cards seen going into their hand this deal and not seen leaving it.

    The observer's own entry is their whole hand. A card leaving a hand in
    public (played, discarded, laid down) cancels one known copy, since the
    observer cannot tell a known copy from a hidden one of the same card.
    """
    n = game.num_players
    known = [Cards()] * n
    epoch = game._epoch()
    gains = [g for g in game._gains if g[0] == epoch]
    if gains:
        g = 0
        for i in range(gains[0][1], len(game.history)):
            while g < len(gains) and gains[g][1] == i:
                known[gains[g][2]] = known[gains[g][2]] + gains[g][3]
                g += 1
            action = game.history[i]
            if known[action.player]:
                removed = game._removed(action)
                if removed is not None:
                    known[action.player] = floor_sub(known[action.player], removed)
        while g < len(gains):  # noted for the action being applied (not yet in the history)
            known[gains[g][2]] = known[gains[g][2]] + gains[g][3]
            g += 1
    known[observer] = game.hands[observer]
    return known


def resample(game: G, player: int, rng: random.Random) -> G:
    """A copy of ``game`` in which the cards hidden from ``player`` are dealt anew.

    Kept: ``player``'s hand, every public card, each hand's size, and the
    cards :func:`known_cards` places in other hands. Dealt anew, uniformly:
    the rest of the other hands and the stock, from the pool of cards
    ``player`` cannot see, except that a stock known to be made of a
    reshuffled discard pile (:meth:`Game._stock_source`) is dealt from
    those public cards only. The copy's random generator is reseeded from
    ``rng`` too (it decides future shuffles, which no one can know).
    """
    new = clone_game(game)
    known = known_cards(game, player)
    stock = game._hidden()
    pool_counts = Cards(stock)
    for q, hand in enumerate(game.hands):
        if q != player:
            pool_counts = pool_counts + (hand - known[q])
    source = game._stock_source(player)
    if source is None:
        pool: list[Card] = list(pool_counts)
        rng.shuffle(pool)
    else:  # the stock from the cards it is known to hold (a reshuffled pile), the hands from the rest
        allowed = list(Cards._make(tuple(map(min, source.counts, pool_counts.counts))))
        rng.shuffle(allowed)
        stocked = allowed[: len(stock)]
        pool = list(pool_counts - Cards(stocked))
        rng.shuffle(pool)
        pool.extend(stocked)  # dealt last: the hands take the front of the pool, the stock the rest
    hands: list[Cards] = []
    at = 0
    for q, hand in enumerate(game.hands):
        if q == player:
            hands.append(hand)
            continue
        need = len(hand) - len(known[q])
        hands.append(known[q] + Cards(pool[at : at + need]))
        at += need
    new.rng = random.Random(rng.getrandbits(64))
    new._redeal(hands, pool[at:], rng)
    new._legal_key = -1
    return new
