"""A finite action space per game, with masks: every choice a player has is reachable.

Each game's choices map onto a fixed range of integers (``Codec.size``).
Where the free choices are too many to list, a turn is a short sequence of
small actions: the player picks hand cards one at a time (``select``) into
a *selection*, then commits it with one action:

* Zheng Shang You: the picks ascend in card index and the last one plays
  (``play c``: add card c and play the combination made of exactly the
  selection), so a single is one step, a move of k cards k steps, and each
  move has exactly one sequence of indexes; the masks are exact (a card can
  be picked only when some legal move goes on with it), see
  :mod:`solver.envs.zsy_actions`;
* Contract Shanghai: ``laydown``, the best lay-down of the contract from the
  selected cards;
* Manipulation Shanghai: ``play``, the most selected cards the solver can
  play, laid out with the least change to the table.

In the last two the engine's own listed lay-down or play comes first when
it uses exactly the selected cards, so engine games encode exactly.
Selecting exactly the cards wanted reaches every play (in those two games
in any order: the whole hand can always be selected). ``cancel`` empties the
selection, at most ``MAX_CANCELS`` (3) times a turn, so every game is
finite (a player who must play can always select the whole hand and play).
The layouts (``N`` = 55 card kinds, indexed as :attr:`solver.cards.Card.index`):

Zheng Shang You (size 170)
    ``select c`` 0..54; ``play c`` 55..109 (add card c, play the first
    combination of exactly the selection in the engine's order);
    ``declare k`` 110..112 (k = 1..3: play the selection as its (k+1)-th
    combination: one set of cards can be declared two ways); ``pass`` 113;
    ``cancel`` 114; ``tribute c`` 115..169 (offer, take or give card c,
    whichever the tribute asks).
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
(170, 'select 3S')
"""

from __future__ import annotations

from functools import cache
from itertools import compress
from operator import is_not
from typing import Any, ClassVar

from solver.cards import ALL_CARDS, Cards
from solver.engine.base import Game
from solver.envs.turn import MAX_CANCELS, MAX_MELDS, Codec, N, Turn
from solver.envs.zsy_actions import ZsyCodec
from solver.errors import IllegalActionError

__all__ = ["MAX_CANCELS", "MAX_MELDS", "Codec", "ContractCodec", "ManipulationCodec", "Turn", "ZsyCodec", "codec_for"]


def codec_for(game: Game | str) -> Codec:
    """The codec of ``game``'s kind (a game or its name)."""
    return _CODECS[game if isinstance(game, str) else game.GAME]


class _ContractPosition:
    """A Contract position's indexes that do not depend on the selection, and its lay-downs found."""

    __slots__ = ("actions", "base", "found", "lay_down", "listed", "swaps")

    def __init__(self) -> None:
        self.base: list[int] = []  # discards, lay-offs, swaps, words
        self.actions: dict[int, Any] = {}  # a discard, lay-off or word's index -> the engine's listed action
        self.lay_down = False  # a lay-down is legal: cards may be selected
        self.listed: list[Any] = []  # the engine's listed lay-downs
        self.swaps: list[Any] = []
        self.found: dict[Cards, Any] = {}  # selection -> its lay-down (or None)


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
        game: Any = turn.game
        pos = self._memo(turn)
        if turn.stage is not None:
            return sorted({self.DEST + a.dest for a in pos.swaps if (a.target, a.card) == turn.stage})
        if not pos.lay_down:
            return pos.base
        out = [*pos.base, *self._selectable(turn, game.hands[game.current_player()], self.SELECT)]
        if turn.picks and self._lay_down(turn, pos) is not None:
            out.append(self.LAYDOWN)
        if turn.can_cancel():
            out.append(self.CANCEL)
        return sorted(out)

    def _position(self, game: Any) -> _ContractPosition:
        """The indexes of a position that do not depend on the selection (once per position).

        An offer or a call lists the player's two words, the same engine objects every time: their
        position (no lay-down, so nothing in it depends on the selection) is worked out once and
        shared, kept with the listed objects it was made from (compared by identity).
        """
        discard, lay_off, swap, lay_down, words = _contract_kinds()
        legal = game.legal_actions()
        if legal and type(legal[0]) in words:
            shared = _WORD_POSITIONS.get(id(legal[0]))
            if shared is not None and shared[0] == tuple(legal):  # the same objects (compared by identity first)
                return shared[1]
            pos = self._listed(legal, discard, lay_off, swap, lay_down, words)
            if len(_WORD_POSITIONS) >= _MAX_WORD_POSITIONS:  # bounded, should an engine list new word objects
                _WORD_POSITIONS.clear()
            _WORD_POSITIONS[id(legal[0])] = (tuple(legal), pos)
            return pos
        return self._listed(legal, discard, lay_off, swap, lay_down, words)

    def _listed(
        self, legal: list[Any], discard: type, lay_off: type, swap: type, lay_down: type, words: dict[type, int]
    ) -> _ContractPosition:
        """The position made from the engine's listed actions."""
        pos = _ContractPosition()
        actions = pos.actions
        swaps: set[int] = set()
        for a in legal:
            kind = type(a)
            if kind is discard:
                index = self.DISCARD + a.card._index  # (the slots, read directly)
            elif kind is lay_off:
                target = a.target
                index = (
                    self.LAYOFF + N * target if target < MAX_MELDS else self._meld(self.LAYOFF, target)
                ) + a.cards.cards[0]._index
            elif kind is swap:
                swaps.add(self._meld(self.SWAP, a.target) + a.card.index)
                pos.swaps.append(a)
                continue
            elif kind is lay_down:
                pos.lay_down = True
                pos.listed.append(a)
                continue
            else:
                index = words[kind]
            if index not in actions:  # the first listed (carried out as the engine lists it)
                actions[index] = a
        pos.base = sorted([*actions, *swaps])
        return pos

    def _memo(self, turn: Turn) -> _ContractPosition:
        pos: _ContractPosition = turn.position_memo() or turn.set_position_memo(self._position(turn.game))
        return pos

    @staticmethod
    def _meld(base: int, meld: int) -> int:
        if meld >= MAX_MELDS:
            raise IllegalActionError(f"the action space holds {MAX_MELDS} table melds, not {meld + 1}")
        return base + N * meld

    def _lay_down(self, turn: Turn, pos: _ContractPosition | None = None) -> Any:
        """The best lay-down of the contract from the selected cards (fewest of them left), or None:
        the engine's own listed lay-down when it uses exactly these cards, else the solver's."""
        if pos is None:
            pos = self._memo(turn)
        sel = turn.selection
        if sel in pos.found:
            return pos.found[sel]
        from solver.contract import best_lay_down
        from solver.contract.game import CLayDown

        game: Any = turn.game
        action = next((a for a in pos.listed if Cards(c for m in a.melds for c in m.cards) == sel), None)
        contract = game.rules.contract(game.round)
        if action is None and len(sel) >= sum(r.min_len for r in contract):
            found = best_lay_down(sel, game.rules, game.round, time_limit=game.time_limit)
            if found is not None:
                action = CLayDown(game.current_player(), tuple(found.melds))
                action = action if game.is_legal(action) else None
        pos.found[sel] = action
        return action

    def step(self, turn: Turn, index: int) -> Any:
        if index < self.SELECT or self.TAKE <= index < self.SWAP:  # a discard, a word or a lay-off
            return self._memo(turn).actions[index]
        if self._select_or_cancel(turn, index, self.SELECT, self.CANCEL):
            return None
        if index == self.LAYDOWN:
            return self._lay_down(turn)
        if index < self.DEST:
            m, c = divmod(index - self.SWAP, N)
            turn.stage = (m, ALL_CARDS[c])
            return None
        pos = self._memo(turn)
        assert turn.stage is not None
        target, card = turn.stage
        dest = index - self.DEST
        return next(a for a in pos.swaps if (a.target, a.card, a.dest) == (target, card, dest))

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


class _ManipulationPosition:
    """A Manipulation position's listed plays by the cards they play, and the answers found per selection."""

    __slots__ = ("can", "draw", "found", "listed", "need", "pass_", "plays")

    def __init__(self, game: Any) -> None:
        m_draw, m_pass, m_play = _manipulation_kinds()
        legal = game.legal_actions()
        self.listed: dict[Cards, list[Any]] = {}  # played cards -> their listed plays, in the engine's order
        self.draw: Any = None  # the engine's listed draw, if any
        self.pass_: Any = None
        table = game.table
        for a in legal:
            kind = type(a)
            if kind is m_play:
                # the played cards: those of the new table's melds that are not the very meld at
                # their place on the table, less those of the table's melds so replaced (a meld
                # kept in place cancels out; the new table holds every card of the old one)
                after = a.table
                moved = list(map(is_not, after, table))
                counts = [0] * N
                for m in (*compress(after, moved), *after[len(table) :]):
                    for c in m.cards:
                        counts[c._index] += 1
                for m in (*compress(table, moved), *table[len(after) :]):
                    for c in m.cards:
                        counts[c._index] -= 1
                played = Cards._make(tuple(counts))
                self.listed.setdefault(played, []).append(a)
            elif kind is m_draw and self.draw is None:
                self.draw = a
            elif kind is m_pass and self.pass_ is None:
                self.pass_ = a
        self.plays = bool(self.listed)  # cards may be selected
        self.can: dict[Cards, bool] = {}  # selection -> ``play`` is legal
        self.need = -1  # the fewest cards a play must hold (the engine's ``required()``), once asked
        self.found: dict[Cards, Any] = {}  # selection -> its play (or None)


class ManipulationCodec(Codec):
    """Manipulation Shanghai: select hand cards, then the solver lays them out with least change.

    Whether ``play`` is legal for a selection is asked without laying the
    play out (see :meth:`_can_play`); the play itself is worked out when it
    is carried out.
    """

    GAME = "manipulation"
    PLAY, CANCEL, DRAW, PASS, ALT = N, N + 1, N + 2, N + 3, N + 4
    ALTS = 40
    size = N + 4 + ALTS
    MIN_MELD = 3  # the shortest meld (sets and runs alike): a first play from the hand holds at least this
    MAX_VALUE = 14  # the most a card counts towards ``initial_meld`` (a joker: the card it stands for)

    def name(self, index: int) -> str:
        if index < N:
            return f"select {ALL_CARDS[index]}"
        if index >= self.ALT:
            return f"play {index - self.ALT + 1}"
        return {self.PLAY: "play", self.CANCEL: "cancel", self.DRAW: "draw", self.PASS: "pass"}[index]

    @staticmethod
    def _position(turn: Turn) -> _ManipulationPosition:
        pos = turn.position_memo()
        if pos is None:
            pos = turn.set_position_memo(_ManipulationPosition(turn.game))
        return pos  # type: ignore[no-any-return]

    def legal(self, turn: Turn) -> list[int]:
        game: Any = turn.game
        pos = self._position(turn)
        out: list[int] = []
        if pos.plays:
            out.extend(self._selectable(turn, game.hands[game.current_player()], 0))
            if turn.picks and self._can_play(turn, pos):
                out.append(self.PLAY)
                others = len(pos.listed.get(turn.selection, ())) - 1
                out.extend(self.ALT + k for k in range(min(others, self.ALTS)))
        if pos.draw is not None:
            out.append(self.DRAW)
        if pos.pass_ is not None:
            out.append(self.PASS)
        if turn.can_cancel():
            out.append(self.CANCEL)
        return sorted(out)

    def _can_play(self, turn: Turn, pos: _ManipulationPosition) -> bool:
        """Whether :meth:`_play` finds a legal play of the selection, mostly without laying it out.

        Exact (the solver's answers being optimal): below the cards the rules demand, no; a
        listed play of exactly the selection, yes. An opened player asks the engine's own
        question, whether a play adds at least that many of the selected cards (a listed play
        of some of them is its lower bound, the playable bound settles most). A first play from
        the hand needs a meld (three cards) and the opening value, even were every card worth
        the most; a listed first play of some of the selected cards without a joker proves one
        (the solver's value objective then finds at least its value); else the play is worked out.
        """
        sel = turn.selection
        got = pos.can.get(sel)
        if got is not None:
            return got
        game: Any = turn.game
        need = pos.need
        if need < 0:  # the engine's question, asked once a position
            need = pos.need = game.required()
        if len(sel) < need:
            got = False
        elif sel in pos.listed:
            got = True
        elif game.opened[game.current_player()]:
            lower = max((p for p in pos.listed if p <= sel), key=len, default=None)
            got = _playable_class()(
                game.table,
                sel,
                game.rules,
                lower=pos.listed[lower][0].table if lower is not None else None,
                time_limit=game.time_limit,
                table_cards=game._table_cards(),
            ).at_least(need)
        elif len(sel) < self.MIN_MELD or self._top_value(sel, game.rules) < game.rules.initial_meld:
            got = False
        elif any(p <= sel and not any(c.is_joker for c in p) for p in pos.listed):
            got = True
        else:
            got = self._play(turn) is not None
        pos.can[sel] = got
        return got

    def _top_value(self, cards: Cards, rules: Any) -> int:
        """The most ``cards`` could count towards ``initial_meld`` (each joker as the highest card)."""
        return sum(self.MAX_VALUE if c.is_joker else rules.card_value(c) for c in cards)

    def _play(self, turn: Turn) -> Any:
        """The play of the most selected cards (least change to the table), or None below the rules' demands.

        The engine's first listed play of exactly the selected cards comes first (no rearrangement).
        """
        from solver.manipulation import best_play
        from solver.manipulation.game import MPlay

        pos = self._position(turn)
        sel = turn.selection
        if sel in pos.found:
            return pos.found[sel]
        game: Any = turn.game
        p = game.current_player()
        action = None
        if sel in pos.listed:
            action = pos.listed[sel][0]
        elif len(sel) >= game.required():
            if game.opened[p]:
                found = best_play(game.table, sel, game.rules, time_limit=game.time_limit)
                table = tuple(found.table)
            else:
                found = best_play((), sel, game.rules, objective="value", time_limit=game.time_limit)
                table = (*game.table, *found.table)
            if found.status != "none" and found.played:
                action = MPlay(p, table)
                action = action if game.is_legal(action) else None
        pos.found[sel] = action
        return action

    def step(self, turn: Turn, index: int) -> Any:
        if self._select_or_cancel(turn, index, 0, self.CANCEL):
            return None
        if index == self.DRAW:
            return self._position(turn).draw
        if index == self.PASS:
            return self._position(turn).pass_
        if index >= self.ALT:
            return self._position(turn).listed[turn.selection][index - self.ALT + 1]
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


@cache
def _contract_kinds() -> tuple[type, type, type, type, dict[type, int]]:
    """Contract's discard, lay-off, swap and lay-down classes and each word's index, imported on
    first use (an env of one game loads no other game's engine)."""
    from solver.contract.game import CCall, CDecline, CDiscard, CLayDown, CLayOff, CNoCall, CSwap, CTake

    c = ContractCodec
    words: dict[type, int] = {CTake: c.TAKE, CDecline: c.DECLINE, CCall: c.CALL, CNoCall: c.NOCALL}
    return CDiscard, CLayOff, CSwap, CLayDown, words


@cache
def _playable_class() -> Any:
    """The engine's ``Playable`` question, imported on first use."""
    from solver.manipulation import Playable

    return Playable


@cache
def _manipulation_kinds() -> tuple[type, type, type]:
    """Manipulation's draw, pass and play classes, imported on first use."""
    from solver.manipulation.game import MDraw, MPass, MPlay

    return MDraw, MPass, MPlay


# id of an offer's or a call's first listed word -> (the words listed, their position); the listed
# objects are kept, so an id stays theirs
_WORD_POSITIONS: dict[int, tuple[tuple[Any, ...], _ContractPosition]] = {}
_MAX_WORD_POSITIONS = 64  # an offer and a call for each of up to 32 players


def _played(game: Any, table: Any) -> Cards:
    """The hand cards a Manipulation play puts on the table."""
    return Cards(c for m in table for c in m.cards) - Cards(c for m in game.table for c in m.cards)


_CODECS: dict[str, Codec] = {"zsy": ZsyCodec(), "contract": ContractCodec(), "manipulation": ManipulationCodec()}
