"""Contract Shanghai's action space: every distinct lay-down, lay-off and swap reachable, exactly.

A turn builds its melds from hand cards picked one at a time (``select c``):

* before the contract is down, ``meld`` closes the cards picked since the
  last ``meld`` as one meld, and ``laydown`` lays down the melds closed, in
  the order closed (legal when the engine's referee accepts them);
* once down, ``layoff m`` lays the picked cards off onto table meld m (one
  card or several in one action);
* ``swap c m`` (card c replaces the wild standing for it in meld m) then
  ``dest m k`` (the freed wild goes onto meld m, the k-th distinct way).

A *reading* is the meld as it lies on the table afterwards, its wild roles
written (``4H 5H 2S=6H 7H`` + ``2C``: the 3H or the 8H). When the cards of a
``meld`` or ``layoff m`` have more than one reading, the player then names
the roles, one wild at a time (``role r``: the wild stands for natural card
r, or ``role set`` for a set's rank), in ascending card order of the wilds
whose role differs between the readings, until one reading is left (see
:func:`reading_keys`); so every reading is reachable, however many there are
(``5H 2S 2C JK JK`` has 61), and the action space keeps a fixed size. Two
engine actions get the same indexes exactly when they leave the same table
and hands (*distinct in effect*), and :meth:`ContractCodec.encode` /
:meth:`ContractCodec.step` are inverse on the legal set. No solver and no
time limit decides what is listed: the readings come from the meld
validator, a lay-down from the referee.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import permutations
from typing import Any, ClassVar

from solver.cards import ALL_CARDS, Card
from solver.engine.base import Game
from solver.envs.readings import ROLE_CODES, ROLE_NAMES, narrow, reading_keys, role_path
from solver.envs.turn import MAX_MELDS, Codec, N, Turn
from solver.errors import IllegalActionError, MeldError
from solver.melds import Meld, TableMeld, meld_kinds, resolve_roles

__all__ = ["DESTS", "ContractCodec", "canon", "display", "meld_options"]

DESTS = 16  # the distinct ways a freed wild may go onto one table meld (the k of ``dest m k``)


@lru_cache(maxsize=65536)
def meld_options(base: Meld, added: tuple[Card, ...], rules: Any) -> tuple[tuple[Meld, Meld], ...]:
    """The distinct readings of ``base`` (a table meld, roles written; empty for a new meld) with
    ``added`` laid onto it: pairs (the added cards with the roles written that give the reading,
    the table meld that results), the engine's own reading (roles left open) first."""
    from solver.contract.tablemelds import with_roles
    from solver.contract.wilds import position_card, run_shapes

    spec = rules.meld_spec
    combined = Meld((*base.cards, *added), (*base.roles, *(None,) * len(added)))
    candidates: list[tuple[Card | None, ...]] = [(None,) * len(added)]
    try:
        kinds = meld_kinds(combined, spec)
    except MeldError:
        kinds = ()
    if "run" in kinds:
        wild_at = [i for i, c in enumerate(added) if spec.is_wild(c)]
        for shape in run_shapes(combined, spec):
            for window in shape.windows:
                gaps = shape.gaps(window)
                for order in sorted(set(permutations(wild_at))):
                    roles: list[Card | None] = [None] * len(added)
                    for i, pos in zip(order, gaps):
                        roles[i] = position_card(pos, shape.suit)
                    candidates.append(tuple(roles))
    out: list[tuple[Meld, Meld]] = []
    seen: set[Meld] = set()
    for roles_ in candidates:
        meld = Meld((*base.cards, *added), (*base.roles, *roles_))
        try:
            _, resolved = resolve_roles(meld, spec)
        except MeldError:
            continue
        table = with_roles(meld, resolved, rules)
        if table not in seen:
            seen.add(table)
            out.append((Meld(added, roles_), table))
    return tuple(out)


def display(added: Meld, table: Meld, spec: Any) -> Meld:
    """A new meld as the table shows it and the engine's players write it: a run's cards in rank
    order, a set's naturals then its wilds (each in card order), the wilds' roles written
    (``2H 3H 4H 2C=5H 6H``, ``8H 8D 2C=8H``);
    but the engine's own reading of cards that also make a run is left open (``5H 2S 2C`` written
    as a set would no longer be the run a contract may read it as)."""
    is_set = len({(r or c).rank for c, r in zip(table.cards, table.roles)}) == 1
    if not is_set:
        return table
    pairs = sorted(zip(table.cards, table.roles), key=lambda p: (spec.is_wild(p[0]), p[0].index))
    if all(r is None for r in added.roles) and "run" in meld_kinds(Meld(table.cards), spec):
        return Meld(tuple(c for c, _ in pairs))
    return Meld(tuple(c for c, _ in pairs), tuple(r for _, r in pairs))


class ContractCodec(Codec):
    """Contract Shanghai: discards and words, melds built card by card, each reading its own path."""

    GAME = "contract"
    K = DESTS
    DISCARD, SELECT, LAYDOWN, CANCEL = 0, N, 2 * N, 2 * N + 1
    TAKE, DECLINE, CALL, NOCALL = 2 * N + 2, 2 * N + 3, 2 * N + 4, 2 * N + 5
    MELD = 2 * N + 6
    LAYOFF = MELD + 1
    ROLE = LAYOFF + MAX_MELDS
    SWAP = ROLE + ROLE_CODES
    DEST = SWAP + N * MAX_MELDS
    size = DEST + K * MAX_MELDS
    WORDS: ClassVar[dict[int, str]] = {
        2 * N: "laydown",
        2 * N + 1: "cancel",
        2 * N + 2: "take",
        2 * N + 3: "decline",
        2 * N + 4: "call",
        2 * N + 5: "nocall",
    }

    def name(self, index: int) -> str:
        index = self.check(index)
        if index < self.SELECT:
            return f"discard {ALL_CARDS[index]}"
        if index < self.LAYDOWN:
            return f"select {ALL_CARDS[index - self.SELECT]}"
        if index in self.WORDS:
            return self.WORDS[index]
        if index == self.MELD:
            return "meld"
        if index < self.ROLE:
            return f"layoff {index - self.LAYOFF}"
        if index < self.SWAP:
            code = index - self.ROLE
            return ROLE_NAMES.get(code) or f"role {ALL_CARDS[code]}"
        if index < self.DEST:
            m, c = divmod(index - self.SWAP, N)
            return f"swap {ALL_CARDS[c]} {m}"
        m, k = divmod(index - self.DEST, self.K)
        return f"dest {m} {k}"

    # --- what the turn holds ----------------------------------------------------------------------

    @staticmethod
    def _open(turn: Turn) -> tuple[Card, ...]:
        """The cards picked since the last closed meld, ascending."""
        return tuple(sorted((ALL_CARDS[i] for i in turn.picks[turn.closed :]), key=lambda c: c.index))

    def _words(self, game: Any) -> dict[int, Any]:
        """Discards and words: index -> the engine's listed action."""
        from solver.contract.game import CCall, CDecline, CDiscard, CNoCall, CTake

        words = {CTake: self.TAKE, CDecline: self.DECLINE, CCall: self.CALL, CNoCall: self.NOCALL}
        out: dict[int, Any] = {}
        for a in game.legal_actions():
            if isinstance(a, CDiscard):
                out.setdefault(self.DISCARD + a.card.index, a)
            elif type(a) in words:
                out.setdefault(words[type(a)], a)
        return out

    def _position(self, turn: Turn) -> dict[str, Any]:
        pos: dict[str, Any] | None = turn.position_memo()
        if pos is None:
            game: Any = turn.game
            p = game.current_player()
            phase = game.phase
            build = (
                phase == "play"
                and not game.laid_down[p]
                and (game.all_at_once() or any(type(a).__name__ == "CLayDown" for a in game.legal_actions()))
            )
            meld = phase == "play" and game.laid_down[p] and (not game.laid_this_turn or game.rules.layoff_same_turn)
            pos = turn.set_position_memo(
                {"words": self._words(game), "build": build, "meld": meld, "swaps": None, "found": {}}
            )
        return pos

    def _swaps(self, turn: Turn, pos: dict[str, Any]) -> list[Any]:
        if pos["swaps"] is None:
            pos["swaps"] = [a for a in turn.game.legal_actions() if type(a).__name__ == "CSwap"]
        return pos["swaps"]  # type: ignore[no-any-return]

    @staticmethod
    def _layoff_readings(game: Any, m: int, cards: tuple[Card, ...]) -> tuple[tuple[Meld, Meld], ...]:
        """The readings of ``cards`` laid off onto table meld m that the engine accepts."""
        options = meld_options(game.table[m].meld, cards, game.rules)
        return tuple((added, grown) for added, grown in options if game.grown(m, added) == grown)

    def _readings(self, turn: Turn, target: int) -> tuple[tuple[Meld, Meld], ...]:
        """The readings of the open cards: a new meld (``target`` -1) or a lay-off onto table meld ``target``."""
        game: Any = turn.game
        cards = self._open(turn)
        if target < 0:
            return meld_options(Meld(()), cards, game.rules)
        return self._layoff_readings(game, target, cards)

    def _choose(self, turn: Turn, target: int, prefix: tuple[int, ...]) -> tuple[list[int], Any]:
        """A meld or lay-off's reading so far: (the next role codes, or [] when ``prefix`` singles
        out one reading; that reading's (added, table) pair then, else None)."""
        game: Any = turn.game
        readings = self._readings(turn, target)
        codes, k = narrow(reading_keys([t for _, t in readings], game.rules.meld_spec), prefix)
        return codes, None if k is None else readings[k]

    def _complete(self, turn: Turn, target: int, reading: tuple[Meld, Meld]) -> Any:
        """Close the open cards as a meld read so (None), or the lay-off read so (the engine action)."""
        from solver.contract.game import CLayOff

        added, table = reading
        turn.reading = None
        if target < 0:
            turn.built = (*turn.built, display(added, table, turn.game.rules.meld_spec))
            turn.closed = len(turn.picks)
            return None
        return CLayOff(turn.game.current_player(), target, added)

    def _dests(self, turn: Turn, pos: dict[str, Any]) -> dict[int, Any]:
        """A staged swap's destinations and readings: index -> engine action."""
        from solver.contract.game import CSwap

        game: Any = turn.game
        assert turn.stage is not None
        target, card = turn.stage
        out: dict[int, Any] = {}
        seen: dict[int, list[Any]] = {}  # per destination, the effects listed (the wild freed and its reading)
        # a wild that goes back onto the meld it left, the natural in its place, may leave the table a
        # lay-off of the natural leaves: that effect is the lay-off's (one path an effect), not listed here
        layoffs = self._layoff_effects(game, target, card)
        for a in self._swaps(turn, pos):
            if (a.target, a.card) != (target, card) or a.dest >= MAX_MELDS:
                continue
            base = game.table[a.dest].meld
            if a.dest == a.target:  # the wild goes back onto the meld it left, the natural in its place
                base = game._melds.swapped(base, a.swap.wild, a.card) or base
            roles = [None, *(added.roles[0] for added, _ in meld_options(base, (a.swap.wild,), game.rules))]
            effects = seen.setdefault(a.dest, [])
            for role in roles:
                action = a if role is None else CSwap(a.player, a.swap, role)
                result = _table_effect(game._swap_result(action))
                if result is None or result in effects or (a.dest == target and result in layoffs):
                    continue
                effects.append(result)
                if len(effects) <= self.K:
                    out[self.DEST + self.K * a.dest + len(effects) - 1] = action
        return out

    def _layoff_effects(self, game: Any, target: int, card: Card) -> list[Any]:
        """The tables (as effects) a lay-off of ``card`` onto table meld ``target`` may leave."""
        out = []
        for _, grown in self._layoff_readings(game, target, (card,)):
            table = list(game.table)
            table[target] = TableMeld(grown, table[target].owner)
            out.append(_table_effect(table))
        return out

    def _lay_down(self, turn: Turn) -> Any:
        """The lay-down of the closed melds (the engine's listed object when it is the same), or None."""
        from solver.contract.game import CLayDown

        if turn.closed != len(turn.picks) or not turn.built:
            return None
        game: Any = turn.game
        action = CLayDown(game.current_player(), turn.built)
        for a in game.legal_actions():
            if isinstance(a, CLayDown) and _canon_all(self._laid(game, a)) == _canon_all(self._laid(game, action)):
                return a
        return action if game.is_legal(action) else None

    @staticmethod
    def _laid(game: Any, action: Any) -> tuple[Meld, ...] | None:
        """The table melds a lay-down adds (its effect), or None if one is no valid meld."""
        from solver.contract.tablemelds import with_roles

        out = []
        for m in action.melds:
            try:
                out.append(with_roles(m, resolve_roles(m, game.rules.meld_spec)[1], game.rules))
            except MeldError:
                return None
        return tuple(out)

    # --- the codec --------------------------------------------------------------------------------

    def legal(self, turn: Turn) -> list[int]:
        game: Any = turn.game
        pos = self._position(turn)
        if turn.stage is not None:
            return sorted(self._dests(turn, pos))
        if turn.reading is not None:  # a meld or lay-off naming its wilds' roles
            codes, _ = self._choose(turn, *turn.reading)
            return sorted([*(self.ROLE + c for c in codes), *([self.CANCEL] if turn.can_cancel() else [])])
        # a discard ends the turn: not with cards picked (one index path an action), unless the
        # picks can no longer be cancelled (then the turn can always end)
        words = pos["words"]
        out = [*words] if not turn.picks or not turn.can_cancel() else [i for i in words if i >= self.TAKE]
        hand = game.hands[game.current_player()]
        if pos["build"] or pos["meld"]:
            out.extend(self._selectable(turn, hand, self.SELECT))
        cards = self._open(turn)
        if pos["build"]:
            if cards:
                if meld_options(Meld(()), cards, game.rules):
                    out.append(self.MELD)
            elif self._lay_down(turn) is not None:
                out.append(self.LAYDOWN)
        if pos["meld"]:
            if cards:
                n = min(len(game.table), MAX_MELDS)
                out.extend(self.LAYOFF + m for m in range(n) if self._layoff_readings(game, m, cards))
            else:
                for a in self._swaps(turn, pos):
                    if a.target < MAX_MELDS:
                        out.append(self.SWAP + N * a.target + a.card.index)
        if turn.can_cancel():
            out.append(self.CANCEL)
        return sorted(set(out))

    def step(self, turn: Turn, index: int) -> Any:
        pos = self._position(turn)
        if index < self.SELECT or self.TAKE <= index < self.MELD:
            return pos["words"][index]
        if self._select_or_cancel(turn, index, self.SELECT, self.CANCEL):
            turn.built = () if not turn.picks else turn.built
            turn.closed = 0 if not turn.picks else turn.closed
            return None
        if index == self.LAYDOWN:
            return self._lay_down(turn)
        if index < self.ROLE:  # ``meld`` or ``layoff m``: the reading, or the roles to name first
            target = index - self.LAYOFF
            return self._name_role(turn, target, ())
        if index < self.SWAP:
            assert turn.reading is not None
            target, prefix = turn.reading
            return self._name_role(turn, target, (*prefix, index - self.ROLE))
        if index < self.DEST:
            m, c = divmod(index - self.SWAP, N)
            turn.stage = (m, ALL_CARDS[c])
            return None
        return self._dests(turn, pos)[index]

    def _name_role(self, turn: Turn, target: int, prefix: tuple[int, ...]) -> Any:
        """Carry the reading on with the roles ``prefix``: complete it when they single one out."""
        _, reading = self._choose(turn, target, prefix)
        if reading is None:
            turn.reading = (target, prefix)
            return None
        return self._complete(turn, target, reading)

    def encode(self, game: Game, action: Any) -> list[int]:
        from solver.contract.game import CDiscard, CLayDown, CLayOff, CSwap

        g: Any = game
        if isinstance(action, CDiscard):
            return [self.DISCARD + action.card.index]
        if isinstance(action, CLayDown):
            laid = self._laid(g, action)
            if laid is None:
                raise IllegalActionError(f"{action}: not valid melds")
            out: list[int] = []
            for meld, table in zip(action.melds, laid):
                cards = tuple(sorted(meld.cards, key=lambda c: c.index))
                out.extend(self._select_all(self.SELECT, cards))
                out.extend(self._reading(Meld(()), cards, table, g, action, self.MELD))
            return [*out, self.LAYDOWN]
        if isinstance(action, CLayOff):
            if not 0 <= action.target < min(len(g.table), MAX_MELDS):
                raise IllegalActionError(f"{action}: no table meld {action.target} in the action space")
            cards = tuple(sorted(action.cards.cards, key=lambda c: c.index))
            grown = g.grown(action.target, action.cards)
            path = self._reading(g.table[action.target].meld, cards, grown, g, action, self.LAYOFF + action.target)
            return [*self._select_all(self.SELECT, cards), *path]
        if isinstance(action, CSwap):
            if action.target >= MAX_MELDS or action.dest >= MAX_MELDS:
                raise IllegalActionError(f"{action}: the action space holds {MAX_MELDS} table melds")
            first = self.SWAP + N * action.target + action.card.index
            turn = Turn(game)
            turn.stage = (action.target, action.card)
            effect = _table_effect(g._swap_result(action))
            for index, a in self._dests(turn, self._position(turn)).items():
                if a.dest == action.dest and _table_effect(g._swap_result(a)) == effect:
                    return [first, index]
            raise IllegalActionError(f"{action}: not a legal swap here (or a lay-off's effect: encode the lay-off)")
        words = {"take": self.TAKE, "decline": self.DECLINE, "call": self.CALL, "nocall": self.NOCALL}
        if str(action) not in words:
            raise IllegalActionError(f"{action}: not a Contract Shanghai action")
        return [words[str(action)]]

    def _reading(
        self, base: Meld, cards: tuple[Card, ...], table: Meld | None, game: Any, action: Any, commit: int
    ) -> list[int]:
        """The indexes (``commit``, then the roles to name) of the reading of ``cards`` on ``base``
        that gives the table meld ``table``."""
        want = canon(table)
        if base.cards:
            readings = self._layoff_readings(game, commit - self.LAYOFF, cards)
        else:
            readings = meld_options(base, cards, game.rules)
        for k, (_, result) in enumerate(readings):
            if canon(result) == want:
                keys = reading_keys([t for _, t in readings], game.rules.meld_spec)
                return [commit, *(self.ROLE + c for c in role_path(keys, k))]
        raise IllegalActionError(f"{action}: not a legal meld here")


def canon(meld: Meld | None) -> tuple[tuple[int, int], ...] | None:
    """A table meld as its effect (:func:`solver.contract.tablemelds.canon`, imported on first use)."""
    from solver.contract.tablemelds import canon as effect

    return effect(meld)


def _table_effect(table: list[Any] | None) -> Any:
    """A table (of :class:`~solver.melds.TableMeld`) as its effect (see :func:`canon`)."""
    return None if table is None else tuple((canon(tm.meld), tm.owner) for tm in table)


def _canon_all(melds: tuple[Meld, ...] | None) -> Any:
    return None if melds is None else tuple(canon(m) for m in melds)
