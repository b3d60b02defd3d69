"""Zheng Shang You's action space: a combination picked card by card, the last pick plays it.

The layout (size 170; ``N`` = 55 card kinds, indexed as :attr:`solver.cards.Card.index`):
``select c`` 0..54; ``play c`` 55..109 (add card c and play the
combination made of exactly the selection, the first of them in the
engine's order); ``declare k`` 110..112 (k = 1..3: play the selection as
the (k+1)-th combination of exactly its cards: one set of cards can be
declared two ways, ``5S BJ RJ`` a set or a straight); ``pass`` 113;
``cancel`` 114; ``tribute c`` 115..169 (offer, take or give card c,
whichever the tribute asks).

Cards are picked in ascending index, so each legal move has exactly one
sequence of indexes: a single is one step (``play c``), a pair two
(``select a``, ``play b``), a move of k cards k steps; ``pass`` is legal
with an empty selection only. The masks are exact:
``select c`` is legal only when some legal move goes on from the selection
with c (or c completes the cards of two declarations), so every selection
can be completed.

>>> from solver.engine import new_game
>>> from solver.envs.actions import Turn
>>> turn = Turn(new_game("zsy", seed=1))
>>> str(turn.game.hands[0])
'3S 4S 7S 2H 3H 4H 7H 2D 5D 8D 10D JD AC 9C'
>>> [turn.codec.name(i) for i in turn.legal()][9:12]
['select 10D', 'play 3S', 'play 4S']
>>> move = turn.game.legal_actions()[-1]
>>> str(move)
'play parallel:7S 7H 8D 9C 2H 2D'
>>> [turn.codec.name(i) for i in turn.codec.encode(turn.game, move)]
['select 7S', 'select 2H', 'select 7H', 'select 2D', 'select 8D', 'play 9C']
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import compress, repeat
from operator import eq
from typing import Any

from solver.cards import ALL_CARDS
from solver.engine.base import Game
from solver.envs.turn import Codec, N, Turn
from solver.errors import IllegalActionError
from solver.zsy.game import Tribute, ZPass, ZPlay

__all__ = ["ZsyCodec"]

_RANGE = range(N)
_MAX_DECLARED = 4  # combinations of the same cards an index reaches (two occur)


class _Position:
    """One position's moves indexed for the masks (built once per position, the selection aside).

    The masks of an empty selection come from each move's lowest card index and kind; the
    longer moves starting with a card get their index tuples when a
    selection first starts with that card.
    """

    __slots__ = ("empty", "firsts", "pass_action", "passes", "plays", "tributes", "tuples")

    def __init__(self, legal: list[Any], codec: ZsyCodec) -> None:
        self.tuples: dict[int, list[tuple[tuple[int, ...], Any]]] = {}
        self.tributes: list[int] | None = None
        self.plays: list[Any] = []
        self.firsts: list[int] = []
        self.passes = False
        self.pass_action: Any = None  # the engine's listed pass
        if len(legal) == 1 and type(legal[0]) is ZPass:  # a reply with nothing to beat the trick
            self.passes, self.pass_action, self.empty = True, legal[0], [codec.PASS]
            return
        if legal and type(legal[0]) is Tribute:
            self.tributes = sorted({codec.TRIBUTE + a.card.index for a in legal})
            self.empty = self.tributes
            return
        # one pass over the moves (cheaper than C-level maps over lists this short): each play's
        # lowest card (one deck: every count is 0 or 1) and the index it opens with, the last pass
        plays = self.plays
        firsts = self.firsts
        empty: set[int] = set()
        single = codec.PLAY
        for a in legal:
            if type(a) is ZPass:
                self.pass_action = a
                continue
            combo = a.combo
            first = combo.cards._counts.index(1)
            plays.append(a)
            firsts.append(first)
            empty.add(first + single if combo.kind == "single" else first)
        if self.pass_action is not None:
            self.passes = True
            empty.add(codec.PASS)
        self.empty = sorted(empty)

    def _from(self, first: int) -> Iterator[Any]:
        """The moves whose lowest card is ``first``, in the engine's order (filtered in C)."""
        return compress(self.plays, map(eq, self.firsts, repeat(first)))

    def starting(self, first: int) -> list[tuple[tuple[int, ...], Any]]:
        """The longer moves whose lowest card is ``first``, with their card index tuples."""
        got = self.tuples.get(first)
        if got is None:
            got = [
                (tuple(compress(_RANGE, a.combo.cards._counts)), a)
                for a in self._from(first)
                if a.combo.kind != "single"
            ]
            self.tuples[first] = got
        return got

    def exactly(self, picks: tuple[int, ...]) -> list[Any]:
        """The moves made of exactly the cards ``picks``, in the engine's order."""
        if len(picks) == 1:
            return [a for a in self._from(picks[0]) if a.combo.kind == "single"]
        return [a for cards, a in self.starting(picks[0]) if cards == picks]


class ZsyCodec(Codec):
    """Zheng Shang You: pick cards in ascending order, the last one plays (see :mod:`solver.envs.zsy_actions`)."""

    GAME = "zsy"
    PLAY, DECLARE = N, 2 * N
    PASS = DECLARE + _MAX_DECLARED - 1
    CANCEL = PASS + 1
    TRIBUTE = CANCEL + 1
    size = TRIBUTE + N

    def name(self, index: int) -> str:
        index = self.check(index)
        if index < N:
            return f"select {ALL_CARDS[index]}"
        if index < self.DECLARE:
            return f"play {ALL_CARDS[index - self.PLAY]}"
        if index < self.PASS:
            return f"declare {index - self.DECLARE + 1}"
        if index == self.PASS:
            return "pass"
        if index == self.CANCEL:
            return "cancel"
        return f"tribute {ALL_CARDS[index - self.TRIBUTE]}"

    def _position(self, turn: Turn) -> _Position:
        pos = turn.position_memo()
        if pos is None:
            pos = turn.set_position_memo(_Position(turn.game.legal_actions(), self))
        return pos  # type: ignore[no-any-return]

    def legal(self, turn: Turn) -> list[int]:
        pos = self._position(turn)
        picks = turn.picks
        if not picks:  # also the tribute steps
            return pos.empty
        k = len(picks)
        more: set[int] = set()  # select c: a longer move goes on with c
        last: dict[int, int] = {}  # c -> moves made of exactly picks + c
        exact = 0
        for cards, _ in pos.starting(picks[0]):
            if k > 1 and cards[:k] != picks:
                continue
            n = len(cards)
            if n == k:
                exact += 1
            elif n == k + 1:
                c = cards[k]
                last[c] = last.get(c, 0) + 1
            else:
                more.add(cards[k])
        more.update(c for c, m in last.items() if m > 1)  # select it, then declare
        out = [*more, *(self.PLAY + c for c in last)]
        out.extend(self.DECLARE + j for j in range(min(exact, _MAX_DECLARED) - 1))
        if turn.can_cancel():
            out.append(self.CANCEL)
        return sorted(out)

    def step(self, turn: Turn, index: int) -> Any:
        if self._select_or_cancel(turn, index, 0, self.CANCEL):
            return None
        pos = self._position(turn)
        if index == self.PASS:
            return pos.pass_action
        if index >= self.TRIBUTE:
            card = ALL_CARDS[index - self.TRIBUTE]
            return next(a for a in turn.game.legal_actions() if getattr(a, "card", None) == card)
        if index < self.DECLARE:
            return pos.exactly((*turn.picks, index - self.PLAY))[0]
        return pos.exactly(turn.picks)[index - self.DECLARE + 1]

    def encode(self, game: Game, action: Any) -> list[int]:
        if isinstance(action, ZPass):
            return [self.PASS]
        if isinstance(action, Tribute):
            return [self.TRIBUTE + action.card.index]
        cards = action.combo.cards
        same = [a for a in game.legal_actions() if type(a) is ZPlay and a.combo.cards == cards]
        k = same.index(action)
        if k >= _MAX_DECLARED:
            raise IllegalActionError(f"{action}: more than {_MAX_DECLARED} combinations of the same cards")
        picks = self._select_all(0, cards)
        if k == 0:
            return [*picks[:-1], self.PLAY + picks[-1]]
        return [*picks, self.DECLARE + k - 1]
