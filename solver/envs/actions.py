"""A finite action space per game, with masks: every choice a player has is reachable.

Each game's choices map onto a fixed range of integers (``Codec.size``).
Where the free choices are too many to list, a turn is a short sequence of
small actions: the player picks hand cards one at a time (``select``) into a
*selection*, then commits it with one action (``play``, ``laydown``); the
solver turns the selection into the engine's action: in Manipulation
Shanghai the most selected cards it can play, laid out with the least
change to the table; in Contract Shanghai the best lay-down of the contract
from the selected cards (in both, the engine's own listed play or lay-down
when it uses exactly the selected cards, so engine games encode exactly); in Zheng Shang You the combination of exactly the
selected cards (its masks are exact: a card can be selected only when some
legal combination holds the selection with it). Selecting exactly the cards
wanted therefore reaches every play. ``cancel`` empties the selection, at
most ``MAX_CANCELS`` (3) times a turn, so every game is finite (a player
who must play can always select the whole hand and play). The layouts (``N`` = 55 card kinds, indexed as :attr:`solver.cards.Card.index`):

Zheng Shang You (size 124)
    ``select c`` 0..54; ``play k`` 55..58 (the k-th legal combination made of
    exactly the selection, in the engine's order: one set of cards can be
    declared two ways); ``pass`` 59; ``cancel`` 60; ``tribute c`` 61..115 (offer,
    take or give card c, whichever the tribute asks); 116..123 unused.
Contract Shanghai (size 3652)
    ``discard c`` 0..54; ``select c`` 55..109; ``laydown`` 110 (the best lay-down
    of the contract from the selection); ``cancel`` 111;
    ``take`` 112, ``decline`` 113, ``call`` 114, ``nocall`` 115; ``layoff c m``
    116 + 55*m + c (card c onto table meld m, m < 32); ``swap c m`` 1876 +
    55*m + c (card c replaces the wild standing for it in meld m), then
    ``dest m`` 3636 + m (the meld that takes the freed wild).
Manipulation Shanghai (size 99)
    ``select c`` 0..54; ``play`` 55 (the solver plays the most selected cards
    it can, with the least change to the table; legal when that meets the
    rules' demands: more than one card, the opening value); ``cancel`` 56;
    ``draw`` 57; ``pass`` 58; ``play k`` 59..98 (the (k+1)-th of the
    engine's listed no-rearrangement plays of exactly the selected cards,
    when a card can join more than one meld).

>>> from solver.engine import new_game
>>> turn = Turn(new_game("zsy", seed=1))
>>> turn.codec.size, turn.codec.name(turn.legal()[0])
(124, 'select 3S')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable
from typing import Any, ClassVar

from solver.cards import ALL_CARDS, N_CARDS, Card, Cards
from solver.engine.base import Game
from solver.errors import IllegalActionError

__all__ = ["Codec", "Turn", "codec_for", "ZsyCodec", "ContractCodec", "ManipulationCodec", "MAX_MELDS"]

N = N_CARDS
MAX_MELDS = 32
MAX_CANCELS = 3


class Codec(ABC):
    """One game's action layout: names, masks and the mapping to engine actions."""

    GAME: ClassVar[str] = ""
    size: ClassVar[int] = 0

    @abstractmethod
    def name(self, index: int) -> str:
        """A readable name of action ``index``."""

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
            turn.selection = turn.selection + _one(ALL_CARDS[index - first])
            return True
        if index == cancel:
            turn.cancel()
            return True
        return False

    @staticmethod
    def _select_all(base: int, cards: Iterable[Card]) -> list[int]:
        return [base + c.index for c in cards]


class Turn:
    """A game with the current player's selection in progress: what an env or OpenSpiel state wraps."""

    __slots__ = ("_cache", "_memo", "_strings", "cancels", "codec", "game", "selection", "stage")

    def __init__(self, game: Game) -> None:
        self.game = game
        self.codec = codec_for(game)
        self.selection = Cards()
        self.stage: tuple[int, Card] | None = None  # Contract: a swap waiting for its destination
        self.cancels = 0  # cancels this turn: at most MAX_CANCELS, so every game ends
        self._strings: list[str] = []
        self._cache: tuple[int, Cards, Any, int, list[int]] | None = None
        self._memo: tuple[int, Any] | None = None  # a codec's data for one position (history length)

    def clone(self) -> Turn:
        """An independent copy (the game cloned)."""
        new = Turn.__new__(Turn)
        new.game = self.game.clone()
        new.codec = self.codec
        new.selection = self.selection
        new.stage = self.stage
        new.cancels = self.cancels
        new._strings = self._strings.copy()
        new._cache = None
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
        """The legal action indexes now (empty when the game is over)."""
        if self.game.is_terminal():
            return []
        key = (len(self.game.history), self.selection, self.stage, self.cancels)
        if self._cache is None or self._cache[:4] != key:
            self._cache = (*key, self.codec.legal(self))
        assert self._cache is not None
        return list(self._cache[4])

    def mask(self) -> list[bool]:
        """The legal actions as a mask of length ``codec.size``."""
        out = [False] * self.codec.size
        for i in self.legal():
            out[i] = True
        return out

    def apply(self, index: int) -> Any:
        """Carry out action ``index``; returns the engine action it completed (applied), or None."""
        if index not in self.legal():
            raise IllegalActionError(f"action {index} ({self.codec.name(index)}) is not legal now")
        action = self.codec.step(self, index)
        if action is not None:
            self.game.apply(action)
            self.selection = Cards()
            self.stage = None
            self.cancels = 0
        return action

    def can_cancel(self) -> bool:
        """True if the selection may be emptied now (a selection, and fewer than MAX_CANCELS this turn)."""
        return bool(self.selection) and self.cancels < MAX_CANCELS

    def cancel(self) -> None:
        """Empty the selection (counted)."""
        self.selection = Cards()
        self.cancels += 1


def codec_for(game: Game | str) -> Codec:
    """The codec of ``game``'s kind (a game or its name)."""
    return _CODECS[game if isinstance(game, str) else game.GAME]


def _one(card: Card) -> Cards:
    return Cards((card,))


class ZsyCodec(Codec):
    """Zheng Shang You: select cards, then play the combination (see the module docstring)."""

    GAME = "zsy"
    PLAY, PASS, CANCEL, TRIBUTE = N, N + 4, N + 5, N + 6
    size = 124

    def name(self, index: int) -> str:
        if index < N:
            return f"select {ALL_CARDS[index]}"
        if index < self.PASS:
            return f"play {index - self.PLAY}"
        if index == self.PASS:
            return "pass"
        if index == self.CANCEL:
            return "cancel"
        if self.TRIBUTE <= index < self.TRIBUTE + N:
            return f"tribute {ALL_CARDS[index - self.TRIBUTE]}"
        return f"unused {index}"

    def _plays(self, game: Game) -> list[Any]:
        return [a for a in game.legal_actions() if type(a).__name__ == "ZPlay"]

    def legal(self, turn: Turn) -> list[int]:
        from solver.zsy.game import Tribute, ZPass

        legal = turn.game.legal_actions()
        sel = turn.selection
        if legal and isinstance(legal[0], Tribute):
            return sorted({self.TRIBUTE + a.card.index for a in legal})
        plays, anything = self._position(turn, legal)
        out: set[int] = set()
        exact = 0
        if any(isinstance(a, ZPass) for a in legal):
            out.add(self.PASS)
        if not sel:  # the first pick of a turn: any card of any play
            out.update(anything)
        else:  # the plays holding the selection: exactly it, or the cards they add to it
            have = sel.counts
            picked = [(i, n) for i, n in enumerate(have) if n]
            for counts, held in plays:
                if all(counts[i] >= n for i, n in picked):
                    if counts == have:
                        exact += 1
                    else:
                        out.update(i for i in held if counts[i] > have[i])
        out.update(self.PLAY + k for k in range(min(exact, 4)))
        if turn.can_cancel():
            out.add(self.CANCEL)
        return sorted(out)

    @staticmethod
    def _position(turn: Turn, legal: list[Any]) -> tuple[list[tuple[tuple[int, ...], tuple[int, ...]]], set[int]]:
        """Per play its count vector and the card indexes it holds, and every card any play holds:
        computed once per position (the selection changes within it, the plays do not)."""
        from solver.zsy.game import ZPlay

        key = len(turn.game.history)
        if turn._memo is None or turn._memo[0] != key:
            plays = []
            for a in legal:
                if isinstance(a, ZPlay):
                    counts = a.combo.cards.counts
                    plays.append((counts, tuple(i for i, n in enumerate(counts) if n)))
            turn._memo = (key, (plays, {i for _, held in plays for i in held}))
        return turn._memo[1]

    def step(self, turn: Turn, index: int) -> Any:
        from solver.zsy.game import Tribute, ZPass

        p = turn.game.current_player()
        if self._select_or_cancel(turn, index, 0, self.CANCEL):
            return None
        if index == self.PASS:
            return ZPass(p)
        if index >= self.TRIBUTE:
            card = ALL_CARDS[index - self.TRIBUTE]
            return next(a for a in turn.game.legal_actions() if isinstance(a, Tribute) and a.card == card)
        same = [a for a in self._plays(turn.game) if a.combo.cards == turn.selection]
        return same[index - self.PLAY]

    def encode(self, game: Game, action: Any) -> list[int]:
        from solver.zsy.game import Tribute, ZPass

        if isinstance(action, ZPass):
            return [self.PASS]
        if isinstance(action, Tribute):
            return [self.TRIBUTE + action.card.index]
        same = [a for a in self._plays(game) if a.combo.cards == action.combo.cards]
        k = same.index(action)
        if k >= 4:
            raise IllegalActionError(f"{action}: more than 4 combinations of the same cards")
        return [*self._select_all(0, action.combo.cards), self.PLAY + k]


class ContractCodec(Codec):
    """Contract Shanghai: discards, lay-down by selection, lay-offs and swaps by card and meld."""

    GAME = "contract"
    DISCARD, SELECT, LAYDOWN, CANCEL = 0, N, 2 * N, 2 * N + 1
    TAKE, DECLINE, CALL, NOCALL = 2 * N + 2, 2 * N + 3, 2 * N + 4, 2 * N + 5
    LAYOFF = 2 * N + 6
    SWAP = LAYOFF + N * MAX_MELDS
    DEST = SWAP + N * MAX_MELDS
    size = DEST + MAX_MELDS
    WORDS: ClassVar[dict[int, str]] = {
        2 * N: "laydown",
        2 * N + 1: "cancel",
        2 * N + 2: "take",
        2 * N + 3: "decline",
        2 * N + 4: "call",
        2 * N + 5: "nocall",
    }

    def name(self, index: int) -> str:
        if index < self.SELECT:
            return f"discard {ALL_CARDS[index]}"
        if index < self.LAYDOWN:
            return f"select {ALL_CARDS[index - self.SELECT]}"
        if index in self.WORDS:
            return self.WORDS[index]
        if index < self.SWAP:
            m, c = divmod(index - self.LAYOFF, N)
            return f"layoff {ALL_CARDS[c]} {m}"
        if index < self.DEST:
            m, c = divmod(index - self.SWAP, N)
            return f"swap {ALL_CARDS[c]} {m}"
        return f"dest {index - self.DEST}"

    def legal(self, turn: Turn) -> list[int]:
        from solver.contract.game import CDecline, CDiscard, CLayDown, CLayOff, CSwap

        game: Any = turn.game
        legal = game.legal_actions()
        if turn.stage is not None:
            target, card = turn.stage
            return sorted(
                {self.DEST + a.dest for a in legal if isinstance(a, CSwap) and (a.target, a.card) == (target, card)}
            )
        words = {"take": self.TAKE, "decline": self.DECLINE, "call": self.CALL, "nocall": self.NOCALL}
        out: set[int] = set()
        sel = turn.selection
        for a in legal:
            if isinstance(a, CDiscard):
                out.add(self.DISCARD + a.card.index)
            elif isinstance(a, CLayOff):
                out.add(self._meld(self.LAYOFF, a.target) + a.cards.cards[0].index)
            elif isinstance(a, CSwap):
                out.add(self._meld(self.SWAP, a.target) + a.card.index)
            elif isinstance(a, CLayDown):
                hand = game.hands[game.current_player()]
                out.update(self.SELECT + c.index for c in hand.distinct() if hand.count(c) > sel.count(c))
                if sel and self._lay_down(turn) is not None:
                    out.add(self.LAYDOWN)
            elif isinstance(a, CDecline) or str(a) in words:
                out.add(words[str(a)])
        if turn.can_cancel():
            out.add(self.CANCEL)
        return sorted(out)

    @staticmethod
    def _meld(base: int, meld: int) -> int:
        if meld >= MAX_MELDS:
            raise IllegalActionError(f"the action space holds {MAX_MELDS} table melds, not {meld + 1}")
        return base + N * meld

    def _lay_down(self, turn: Turn) -> Any:
        """The best lay-down of the contract from the selected cards (fewest of them left), or None."""
        from solver.contract import best_lay_down
        from solver.contract.game import CLayDown

        game: Any = turn.game
        sel = turn.selection
        for listed in game.legal_actions():  # the engine's own lay-down when it uses exactly these cards
            if isinstance(listed, CLayDown) and Cards(c for m in listed.melds for c in m.cards) == sel:
                return listed
        contract = game.rules.contract(game.round)
        if len(sel) < sum(r.min_len for r in contract):
            return None
        found = best_lay_down(sel, game.rules, game.round, time_limit=game.time_limit)
        if found is None:
            return None
        action = CLayDown(game.current_player(), tuple(found.melds))
        return action if game.is_legal(action) else None

    def step(self, turn: Turn, index: int) -> Any:
        from solver.contract.game import CCall, CDecline, CDiscard, CLayOff, CNoCall, CSwap, CTake

        game: Any = turn.game
        p = game.current_player()
        if index < self.SELECT:
            return CDiscard(p, ALL_CARDS[index])
        if self._select_or_cancel(turn, index, self.SELECT, self.CANCEL):
            return None
        if index == self.LAYDOWN:
            return self._lay_down(turn)
        simple = {self.TAKE: CTake, self.DECLINE: CDecline, self.CALL: CCall, self.NOCALL: CNoCall}
        if index in simple:
            return simple[index](p)
        if index < self.SWAP:
            m, c = divmod(index - self.LAYOFF, N)
            return next(
                a
                for a in game.legal_actions()
                if isinstance(a, CLayOff) and (a.target, a.cards.cards[0]) == (m, ALL_CARDS[c])
            )
        if index < self.DEST:
            m, c = divmod(index - self.SWAP, N)
            turn.stage = (m, ALL_CARDS[c])
            return None
        assert turn.stage is not None
        target, card = turn.stage
        dest = index - self.DEST
        return next(
            a
            for a in game.legal_actions()
            if isinstance(a, CSwap) and (a.target, a.card, a.dest) == (target, card, dest)
        )

    def encode(self, game: Game, action: Any) -> list[int]:
        from solver.contract.game import CDiscard, CLayDown, CLayOff, CSwap

        if isinstance(action, CDiscard):
            return [self.DISCARD + action.card.index]
        if isinstance(action, CLayDown):
            cards = Cards(c for m in action.melds for c in m.cards)
            return [*self._select_all(self.SELECT, cards), self.LAYDOWN]
        if isinstance(action, CLayOff):
            if len(action.cards) != 1:
                raise IllegalActionError(f"{action}: lay off one card at a time in the action space")
            return [self._meld(self.LAYOFF, action.target) + action.cards.cards[0].index]
        if isinstance(action, CSwap):
            return [self._meld(self.SWAP, action.target) + action.card.index, self.DEST + action.dest]
        words = {"take": self.TAKE, "decline": self.DECLINE, "call": self.CALL, "nocall": self.NOCALL}
        return [words[str(action)]]


class ManipulationCodec(Codec):
    """Manipulation Shanghai: select hand cards, then the solver lays them out with least change."""

    GAME = "manipulation"
    PLAY, CANCEL, DRAW, PASS, ALT = N, N + 1, N + 2, N + 3, N + 4
    ALTS = 40
    size = N + 4 + ALTS

    def name(self, index: int) -> str:
        if index < N:
            return f"select {ALL_CARDS[index]}"
        if index >= self.ALT:
            return f"play {index - self.ALT + 1}"
        return {self.PLAY: "play", self.CANCEL: "cancel", self.DRAW: "draw", self.PASS: "pass"}[index]

    def legal(self, turn: Turn) -> list[int]:
        from solver.manipulation.game import MDraw, MPass, MPlay

        game: Any = turn.game
        legal = game.legal_actions()
        sel = turn.selection
        out: set[int] = set()
        if any(isinstance(a, MPlay) for a in legal):
            hand = game.hands[game.current_player()]
            out.update(c.index for c in hand.distinct() if hand.count(c) > sel.count(c))
            if sel and self._play(turn) is not None:
                out.add(self.PLAY)
                others = len(self._listed(turn)) - 1
                out.update(self.ALT + k for k in range(min(others, self.ALTS)))
        if any(isinstance(a, MDraw) for a in legal):
            out.add(self.DRAW)
        if any(isinstance(a, MPass) for a in legal):
            out.add(self.PASS)
        if turn.can_cancel():
            out.add(self.CANCEL)
        return sorted(out)

    @staticmethod
    def _listed(turn: Turn) -> list[Any]:
        """The engine's listed plays of exactly the selected cards, in its order."""
        from solver.manipulation.game import MPlay

        game: Any = turn.game
        return [a for a in game.legal_actions() if isinstance(a, MPlay) and _played(game, a.table) == turn.selection]

    def _play(self, turn: Turn) -> Any:
        """The play of the most selected cards (least change to the table), or None below the rules' demands.

        The engine's first listed play of exactly the selected cards comes first (no rearrangement).
        """
        from solver.manipulation import best_play
        from solver.manipulation.game import MPlay

        game: Any = turn.game
        p = game.current_player()
        sel = turn.selection
        if len(sel) < game.required():
            return None
        listed = self._listed(turn)
        if listed:
            return listed[0]
        if game.opened[p]:
            found = best_play(game.table, sel, game.rules, time_limit=game.time_limit)
            table = tuple(found.table)
        else:
            found = best_play((), sel, game.rules, objective="value", time_limit=game.time_limit)
            table = (*game.table, *found.table)
        if found.status == "none" or not found.played:
            return None
        action = MPlay(p, table)
        return action if game.is_legal(action) else None

    def step(self, turn: Turn, index: int) -> Any:
        from solver.manipulation.game import MDraw, MPass

        p = turn.game.current_player()
        if self._select_or_cancel(turn, index, 0, self.CANCEL):
            return None
        if index == self.DRAW:
            return MDraw(p)
        if index == self.PASS:
            return MPass(p)
        if index >= self.ALT:
            return self._listed(turn)[index - self.ALT + 1]
        return self._play(turn)

    def encode(self, game: Game, action: Any) -> list[int]:
        from solver.manipulation.game import MDraw, MPass

        if isinstance(action, MDraw):
            return [self.DRAW]
        if isinstance(action, MPass):
            return [self.PASS]
        cards = _played(game, action.table)
        same = [a for a in game.legal_actions() if str(a).startswith("play") and _played(game, a.table) == cards]
        k = same.index(action) if action in same else 0
        if k > self.ALTS:
            raise IllegalActionError(f"{action}: more than {self.ALTS + 1} listed plays of the same cards")
        return [*self._select_all(0, cards), self.PLAY if k == 0 else self.ALT + k - 1]


def _played(game: Any, table: Any) -> Cards:
    """The hand cards a Manipulation play puts on the table."""
    return Cards(c for m in table for c in m.cards) - Cards(c for m in game.table for c in m.cards)


_CODECS: dict[str, Codec] = {"zsy": ZsyCodec(), "contract": ContractCodec(), "manipulation": ManipulationCodec()}
