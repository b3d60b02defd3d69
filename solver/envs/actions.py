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
* Contract Shanghai: melds built from picked cards, each reading (wild
  roles) its own index, see :mod:`solver.envs.contract_actions`;
* Manipulation Shanghai: ``play``, the most selected cards the solver can
  play, laid out with the least change to the table; or ``build``, the
  whole new table laid out meld by meld (any legal play, rearrangements
  included).

Every distinct engine action (by its effect: the table, the hands, who
moves) has its own index path, and :meth:`Codec.encode` gives it for any
legal engine action. ``cancel`` empties the selection, at most
``MAX_CANCELS`` (3) times a turn, so every game is finite. The layouts
(``N`` = 55 card kinds, indexed as :attr:`solver.cards.Card.index`):

Zheng Shang You (size 170)
    ``select c`` 0..54; ``play c`` 55..109 (add card c, play the first
    combination of exactly the selection in the engine's order);
    ``declare k`` 110..112 (k = 1..3: play the selection as its (k+1)-th
    combination: one set of cards can be declared two ways); ``pass`` 113;
    ``cancel`` 114; ``tribute c`` 115..169 (offer, take or give card c,
    whichever the tribute asks).
Contract Shanghai (size 2475)
    ``discard c`` 0..54; ``select c`` 55..109; ``laydown`` 110; ``cancel``
    111; ``take`` 112, ``decline`` 113, ``call`` 114, ``nocall`` 115;
    ``meld`` 116; ``layoff m`` 117 + m (m < 32); ``role r`` 149 + r (r < 54:
    see :mod:`solver.envs.readings`); ``swap c m`` 203 + 55*m + c;
    ``dest m k`` 1963 + 16*m + k.
Manipulation Shanghai (size 211)
    ``select c`` 0..54; ``play`` 55 (the solver plays the most selected cards
    it can, with the least change to the table; legal when that meets the
    rules' demands: more than one card, the opening value); ``cancel`` 56;
    ``draw`` 57; ``pass`` 58; ``play k`` 59..98 (the (k+1)-th of the
    engine's listed no-rearrangement plays of exactly the selected cards);
    ``build`` 99, ``put c`` 100..154, ``close`` 155, ``commit`` 156 (lay
    out the new table from the table's and the hand's cards, meld by meld);
    ``role r`` 157 + r (a closed meld's jokers' roles, as Contract's).

>>> from solver.engine import new_game
>>> turn = Turn(new_game("zsy", seed=1))
>>> turn.codec.size, turn.codec.name(turn.legal()[0])
(170, 'select 3S')
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from itertools import compress
from operator import gt, is_not
from typing import Any

from solver.cards import ALL_CARDS, Card, Cards
from solver.engine.base import Game
from solver.envs.contract_actions import ContractCodec
from solver.envs.readings import ROLE_CODES, ROLE_NAMES, manipulation_readings, narrow, reading_keys, role_path
from solver.envs.turn import MAX_CANCELS, MAX_MELDS, Codec, N, Turn, codec_for, register_codec
from solver.envs.zsy_actions import ZsyCodec
from solver.errors import IllegalActionError
from solver.melds import Meld, meld_effect, meld_kinds, resolve_roles

__all__ = [
    "MAX_CANCELS",
    "MAX_MELDS",
    "Codec",
    "ContractCodec",
    "ManipulationCodec",
    "Turn",
    "ZsyCodec",
    "codec_for",
    "env_meld",
]


class _ManipulationPosition:
    """A Manipulation position's listed plays by the cards they play, and the answers found per selection."""

    __slots__ = ("built", "can", "draw", "found", "listed", "need", "pass_", "plays")

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
                same = self.listed.setdefault(played, [])
                if _with_effect(same, a.table) is None:  # a second play of the same effect gets no index
                    same.append(a)
            elif kind is m_draw and self.draw is None:
                self.draw = a
            elif kind is m_pass and self.pass_ is None:
                self.pass_ = a
        self.plays = bool(self.listed)  # cards may be selected
        self.can: dict[Cards, bool] = {}  # selection -> ``play`` is legal
        self.need = -1  # the fewest cards a play must hold (the engine's ``required()``), once asked
        self.found: dict[Cards, Any] = {}  # selection -> its play (or None)
        self.built: dict[tuple[Any, ...], bool] = {}  # a table built meld by meld -> it is a legal play


class ManipulationCodec(Codec):
    """Manipulation Shanghai: select hand cards, then the solver lays them out with least change.

    Whether ``play`` is legal for a selection is asked without laying the
    play out (see :meth:`_can_play`); the play itself is worked out when it
    is carried out.
    """

    GAME = "manipulation"
    PLAY, CANCEL, DRAW, PASS, ALT = N, N + 1, N + 2, N + 3, N + 4
    ALTS = 40
    BUILD = ALT + ALTS
    PUT = BUILD + 1
    CLOSE = PUT + N
    COMMIT = CLOSE + 1
    ROLE = COMMIT + 1
    size = ROLE + ROLE_CODES
    MIN_MELD = 3  # the shortest meld (sets and runs alike): a first play from the hand holds at least this
    MAX_VALUE = 14  # the most a card counts towards ``initial_meld`` (a joker: the card it stands for)
    # the solver questions of the ``play`` mask and of the play it carries out have no time limit (not
    # the game's, 2 s; no guard either): CP-SAT then always proves its answer, so the mask is the
    # same on any machine under any load (a time limit that bit would leave a legal play out)
    NO_LIMIT = math.inf

    def name(self, index: int) -> str:
        index = self.check(index)
        if index < N:
            return f"select {ALL_CARDS[index]}"
        if index >= self.ROLE:
            code = index - self.ROLE
            return ROLE_NAMES.get(code) or f"role {ALL_CARDS[code]}"
        if index >= self.PUT:
            return {self.CLOSE: "close", self.COMMIT: "commit"}.get(index) or f"put {ALL_CARDS[index - self.PUT]}"
        if index == self.BUILD:
            return "build"
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
        if turn.building:
            return self._building(turn, pos)
        out: list[int] = []
        if pos.plays:
            out.extend(self._selectable(turn, game.hands[game.current_player()], 0))
            if turn.picks and self._can_play(turn, pos):
                out.append(self.PLAY)
                others = len(pos.listed.get(turn.selection, ())) - 1
                out.extend(self.ALT + k for k in range(min(others, self.ALTS)))
            if not turn.picks and turn.cancels < MAX_CANCELS:  # a build can always be left by a cancel
                out.append(self.BUILD)
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
                time_limit=self.NO_LIMIT,
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
                found = best_play(game.table, sel, game.rules, time_limit=self.NO_LIMIT)
                table = tuple(found.table)
            else:
                found = best_play((), sel, game.rules, objective="value", time_limit=self.NO_LIMIT)
                table = (*game.table, *found.table)
            if found.status != "none" and found.played:
                action = MPlay(p, tuple(env_meld(m, game.table, game.rules) for m in table))
                action = (_same_effect(pos, game, action) or action) if game.is_legal(action) else None
        pos.found[sel] = action
        return action

    def _building(self, turn: Turn, pos: _ManipulationPosition) -> list[int]:
        """The indexes of a table being built: a card of the pool (the table's and the hand's cards
        not yet put), ``close`` when the open cards are a valid meld, ``commit`` when the melds
        closed are a legal play, ``cancel``."""
        from solver.manipulation.game import MPlay

        game: Any = turn.game
        if turn.reading is not None:  # the meld closed names its jokers' roles
            codes, _ = narrow(self._keys(turn), turn.reading[1])
            return sorted([*(self.ROLE + c for c in codes), *([self.CANCEL] if turn.cancels < MAX_CANCELS else [])])
        p = game.current_player()
        pool = game._table_cards() + game.hands[p]
        used = turn.selection
        out = [self.PUT + i for i in compress(range(N), map(gt, pool.counts, used.counts))]
        open_ = turn.picks[turn.closed :]
        if open_:
            meld = Meld(tuple(ALL_CARDS[i] for i in open_))
            if meld_kinds(meld, game.rules.meld_spec):
                out.append(self.CLOSE)
        elif turn.built:
            ok = pos.built.get(turn.built)
            if ok is None:
                ok = pos.built[turn.built] = game.is_legal(MPlay(p, turn.built))
            if ok:
                out.append(self.COMMIT)
        if turn.cancels < MAX_CANCELS:
            out.append(self.CANCEL)
        return sorted(out)

    def step(self, turn: Turn, index: int) -> Any:
        if index == self.CANCEL and turn.building:
            turn.cancel()
            turn.building = False
            return None
        if self._select_or_cancel(turn, index, 0, self.CANCEL):
            return None
        if index == self.BUILD:
            turn.building = True
            return None
        if self.PUT <= index < self.CLOSE:
            turn.select(index - self.PUT)
            return None
        if index == self.CLOSE:
            self._name_role(turn, ())
            return None
        if index >= self.ROLE:
            assert turn.reading is not None
            self._name_role(turn, (*turn.reading[1], index - self.ROLE))
            return None
        if index == self.COMMIT:
            from solver.manipulation.game import MPlay

            return MPlay(turn.game.current_player(), turn.built)
        if index in (self.DRAW, self.PASS):  # the engine's listed draw or pass is this value: no listing
            m_draw, m_pass, _ = _manipulation_kinds()
            return (m_draw if index == self.DRAW else m_pass)(turn.game.current_player())
        if index >= self.ALT:
            return self._position(turn).listed[turn.selection][index - self.ALT + 1]
        return self._play(turn)

    @staticmethod
    def _readings(turn: Turn) -> list[Meld]:
        """The readings of the open cards of a build (:func:`~solver.envs.readings.manipulation_readings`)."""
        game: Any = turn.game
        cards = tuple(ALL_CARDS[i] for i in turn.picks[turn.closed :])
        return _readings(cards, game.table, game.rules)

    def _keys(self, turn: Turn) -> list[tuple[int, ...]]:
        game: Any = turn.game
        return reading_keys(self._readings(turn), game.rules.meld_spec)

    def _name_role(self, turn: Turn, prefix: tuple[int, ...]) -> None:
        """Close the open cards as the meld the roles ``prefix`` single out, or wait for more roles."""
        _, k = narrow(self._keys(turn), prefix)
        if k is None:
            turn.reading = (-1, prefix)
            return
        turn.reading = None
        turn.built = (*turn.built, self._readings(turn)[k])
        turn.closed = len(turn.picks)

    def encode(self, game: Game, action: Any) -> list[int]:
        from solver.manipulation.game import MDraw, MPass

        if isinstance(action, MDraw):
            return [self.DRAW]
        if isinstance(action, MPass):
            return [self.PASS]
        play: Any = action
        kind: Any = _manipulation_kinds()[2]
        if not isinstance(play, kind) or not game.is_legal(play):
            raise IllegalActionError(f"{action}: not a legal Manipulation Shanghai action here")
        cards = _played(game, play.table)
        for k, a in enumerate(_ManipulationPosition(game).listed.get(cards, ())[: self.ALTS + 1]):
            if a.table == play.table:  # a listed play: the short way
                return [*self._select_all(0, cards), self.PLAY if k == 0 else self.ALT + k - 1]
        out = [self.BUILD]  # else the very table built meld by meld, each meld's cards in its order
        g: Any = game
        for meld in play.table:
            out.extend(self.PUT + c.index for c in meld.cards)
            readings = _readings(meld.cards, g.table, g.rules)
            want = meld_effect(meld)
            at = next((k for k, m in enumerate(readings) if meld_effect(m) == want), None)
            if at is None:
                raise IllegalActionError(f"{action}: the meld {meld} is no reading of its cards")
            keys = reading_keys(readings, g.rules.meld_spec)
            out.extend([self.CLOSE, *(self.ROLE + c for c in role_path(keys, at))])
        return [*out, self.COMMIT]


def table_effect(table: Any) -> tuple[tuple[tuple[int, int], ...], ...]:
    """A Manipulation table as its effect: its melds as cards with their roles (:func:`solver.melds.meld_effect`:
    a run's jokers' roles count, ``JK=8D 9D 10D`` is not ``9D 10D JK=JD``, worth 27 and 30 to an
    opening; a set's joker's suit is cosmetic; a joker left open is another meld than one with its
    role written, as the engine keeps them: its role moves when the meld grows), in any order (the
    order of the melds and of a meld's cards is presentation)."""
    return tuple(sorted(meld_effect(m) for m in table))


def _readings(cards: tuple[Card, ...], table: Any, rules: Any) -> list[Meld]:
    """The readings of a meld of ``cards`` built on ``table``'s position, the action space's own first."""
    return manipulation_readings(cards, env_meld(Meld(cards), table, rules), rules)


def env_meld(meld: Meld, table: Any, rules: Any) -> Meld:
    """A meld as the action space lays it out: a meld of the table ``table`` as it is (its cards in
    the same order: its wilds' roles kept), any other meld with each wild's role written, the one
    :func:`solver.melds.resolve_roles` gives (the order of a meld's cards is the player's).

    The plays the codec makes (``play``, and a table built meld by meld) are laid out so, and so
    :meth:`ManipulationCodec.encode` gives for every play it made the index path that makes that
    very play again: the put cards in the meld's order, the roles the ones closing writes."""
    for m in table:
        if m.cards == meld.cards:
            return m  # type: ignore[no-any-return]
    spec = rules.meld_spec
    if not any(map(spec.is_wild, meld.cards)):
        return Meld(meld.cards)
    roles = resolve_roles(Meld(meld.cards), spec)[1]
    default = Meld(meld.cards, tuple(r if spec.is_wild(c) else None for c, r in zip(meld.cards, roles)))
    if any(meld.roles):  # a run's written roles are the player's: the reading of the same effect
        want = meld_effect(meld)
        return next((m for m in manipulation_readings(meld.cards, default, rules) if meld_effect(m) == want), default)
    return default


def _with_effect(plays: Sequence[Any], table: Any) -> Any:
    """The first of ``plays`` whose table has the effect of ``table`` (:func:`table_effect`), or None.

    A position lists one play per effect (two would be two indexes of one engine action: a card added
    to either of two equal melds, say), and ``play`` carries out the listed play when the solver's
    play of the selection has the effect of one (the same melds in another order)."""
    effect = table_effect(table)
    return next((a for a in plays if table_effect(a.table) == effect), None)


def _same_effect(pos: _ManipulationPosition, game: Any, play: Any) -> Any:
    """The listed play reachable by ``play`` or ``play k`` with ``play``'s effect, or None."""
    listed = pos.listed.get(_played(game, play.table), [])
    return _with_effect(listed[: ManipulationCodec.ALTS + 1], play.table)


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


def _played(game: Any, table: Any) -> Cards:
    """The hand cards a Manipulation play puts on the table."""
    return Cards(c for m in table for c in m.cards) - Cards(c for m in game.table for c in m.cards)


_CODECS: dict[str, Codec] = {"zsy": ZsyCodec(), "contract": ContractCodec(), "manipulation": ManipulationCodec()}
for _game, _codec in _CODECS.items():
    register_codec(_game, _codec)
