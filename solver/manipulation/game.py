"""Manipulation Shanghai as a game state: deal, play or draw, passing, scoring to a target.

The rules are ``../shared/rules/manipulation.md``. A play is the whole new
table: any arrangement the independent validator accepts is legal, so long
as it follows ``must_play`` and ``initial_meld``. ``legal_actions()`` lists
the plays that need no rearrangement (a new meld from the hand, or one card
added to a meld), the solver's best play when only a rearrangement reaches
what the rules demand, and the draw or the pass.

Whether a player *can* play (and how many cards) is the solver's question
:class:`solver.manipulation.Playable` (the stages of ``best_play`` without
least change), asked once per position with the greedy play as its lower
bound; the engine only caches it, and answers one case itself: a player
who could not play and drew a card no play can hold still cannot play (a
play from the new hand holds the new card, else the old hand had it), so
that card's own playable bound settles it. Every listed play meets every rule by
construction (the solver's play is checked by the validator before it is
listed), so ``verify`` accepts a listed play at once and checks any other
with the independent validator: it asks ``legal_actions()`` (a function of
the position), never a side effect of an earlier call.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import Any, ClassVar, Literal

from solver.cards import Card, Cards
from solver.engine.base import PenaltyGame, SimpleAction
from solver.errors import IllegalActionError, MeldError, ShanghaiError
from solver.manipulation.bound import card_playable
from solver.manipulation.engine_core import Facts, played_cards, position_facts, table_codes
from solver.manipulation.play import Most, Playable, best_play
from solver.manipulation.simple import additions, greedy_play, hand_melds, simple_plays
from solver.melds import Meld, format_table, parse_table, resolve_roles, validate_rearrangement
from solver.rules import ManipulationRules

__all__ = ["MPlay", "MDraw", "MPass", "ManipulationGame", "simple_plays", "greedy_play"]


@dataclass(frozen=True, slots=True)
class MPlay:
    """Play cards from hand: ``table`` is the whole new table."""

    player: int
    table: tuple[Meld, ...]

    def __str__(self) -> str:
        return f"play {format_table(self.table)}" if self.table else "play"


@dataclass(frozen=True, slots=True)
class MDraw(SimpleAction):
    """Draw one card from the stock."""

    WORD: ClassVar[str] = "draw"


@dataclass(frozen=True, slots=True)
class MPass(SimpleAction):
    """End the turn without playing (after a draw, or when the stock is empty)."""

    WORD: ClassVar[str] = "pass"


MAction = MPlay | MDraw | MPass


class _Position:
    """A player's position (table, hand, opened) as a cache key whose hash is computed once (from
    the table's hash, ``table_hash``, worked out once per table)."""

    __slots__ = ("_hash", "hand", "opened", "table")

    def __init__(self, table: tuple[Meld, ...], hand: Cards, opened: bool, table_hash: int) -> None:
        self.table = table
        self.hand = hand
        self.opened = opened
        self._hash = hash((table_hash, hand, opened))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Position)
            and self._hash == other._hash
            and self.opened == other.opened
            and self.hand == other.hand
            and self.table == other.table
        )


def _changed(old: tuple[Meld, ...], new: tuple[Meld, ...]) -> tuple[list[Meld], list[Meld]]:
    """The old and the new melds less the melds the new table keeps as the very same objects (valid
    old melds: the validator need not see them again)."""
    waiting: dict[int, int] = {}
    for m in old:
        waiting[id(m)] = waiting.get(id(m), 0) + 1
    fresh: list[Meld] = []
    for m in new:
        if waiting.get(id(m)):
            waiting[id(m)] -= 1
        else:
            fresh.append(m)
    gone: list[Meld] = []
    for m in old:
        if waiting[id(m)]:
            waiting[id(m)] -= 1
            gone.append(m)
    return gone, fresh


class ManipulationGame(PenaltyGame):
    """A game of Manipulation Shanghai: hands until a player reaches the target (and loses).

    ``max_hands`` (engine option) ends the game after that many hands;
    ``time_limit`` bounds the solver player's own search (its best play,
    :func:`~solver.manipulation.players.solver_decision`). The engine's
    questions that make the legal set (can the player play, how many cards a
    play must hold, the most an opened player can play, the opening) are
    asked with no time limit (:attr:`RULE_QUESTION_LIMIT`): CP-SAT proves
    each answer, so the legal actions are the same on any machine under any
    load, and a record made by one game replays through another.
    """

    GAME: ClassVar[str] = "manipulation"
    RULE_QUESTION_LIMIT: ClassVar[float] = math.inf
    """The time limit of the questions behind the legal set: none (a limit that bit would drop a
    legal play, or allow a draw to a player who can play, depending on the machine's load)."""
    rules: ManipulationRules

    def __init__(
        self,
        rules: ManipulationRules,
        num_players: int,
        seed: int = 0,
        *,
        max_hands: int | None = None,
        time_limit: float = 2.0,
    ) -> None:
        super().__init__(rules, num_players, seed)
        if rules.deal * num_players > len(rules.deck):
            raise IllegalActionError(f"{num_players} players x {rules.deal} cards is more than the deck holds")
        self.max_hands = max_hands
        self.time_limit = time_limit
        self.totals = [0] * num_players
        self.hand_number = 0
        self.dealer = num_players - 1
        self.hands: list[Cards] = []
        self.stock: list[Card] = []
        self.table: tuple[Meld, ...] = ()
        self.opened: list[bool] = []
        self.to_move = 0
        self.phase: Literal["turn", "drawn", "over"] = "turn"
        self.idle = 0
        self.last_hand: list[int] = []
        self._cache: dict[_Position, tuple[Meld, ...]] = {}  # greedy plays
        self._questions: dict[_Position, Playable] = {}
        self._openings: dict[_Position, Most] = {}
        self._keys: dict[int, _Position] = {}
        self._drawn: dict[int, tuple[tuple[Meld, ...], Cards, Card, list[bool]]] = {}  # see _drew_in_vain
        self._on_table: tuple[tuple[Meld, ...], Cards] = ((), Cards())
        self._table_hash: tuple[tuple[Meld, ...], int] = ((), hash(()))
        self._codes: tuple[tuple[Meld, ...] | None, list[int] | None] = (None, None)  # the table's, see _facts
        self._deal()

    def clear_caches(self) -> None:
        """Forget the greedy plays and solver answers cached per position (after a hand edit)."""
        super().clear_caches()
        self._cache.clear()
        self._questions.clear()
        self._openings.clear()
        self._keys.clear()
        self._drawn.clear()

    def _deal(self) -> None:
        self.hand_number += 1
        self.dealer = (self.dealer + 1) % self.num_players
        deck = list(self.rules.deck)
        self.rng.shuffle(deck)
        hands: list[list[Card]] = [[] for _ in range(self.num_players)]
        dealt = 0
        while dealt < self.rules.deal:
            batch = 1 if self.rules.deal - dealt == 1 else min(3, self.rules.deal - dealt)
            for k in range(1, self.num_players + 1):
                p = (self.dealer + k) % self.num_players
                for _ in range(batch):
                    hands[p].append(deck.pop())
            dealt += batch
        self.hands = [Cards(h) for h in hands]
        self.stock = deck
        self.table = ()
        self.opened = [self.rules.initial_meld == 0] * self.num_players
        self.to_move = (self.dealer + 1) % self.num_players
        self.phase = "turn"
        self.idle = 0
        self._cache.clear()
        self._questions.clear()
        self._openings.clear()
        self._drawn.clear()

    # --- solver questions, cached per position ------------------------------------

    def _key(self, p: int) -> _Position:
        """The cache key of player ``p``'s position: built once while the table and the hand stand."""
        table, hand, opened = self.table, self.hands[p], self.opened[p]
        last = self._keys.get(p)
        if last is not None and last.table is table and last.hand is hand and last.opened == opened:
            return last
        if self._table_hash[0] is not table:
            codes = self._table_codes()  # equal tables have equal codes: a hash without the melds'
            self._table_hash = (table, hash(table) if codes is None else hash(tuple(codes)))
        key = self._keys[p] = _Position(table, hand, opened, self._table_hash[1])
        return key

    def _table_codes(self) -> list[int] | None:
        """The core's codes of the table's melds (:func:`table_codes`), worked out once per table."""
        if self._codes[0] is not self.table:
            self._codes = (self.table, table_codes(self.table, self.rules.ace))
        return self._codes[1]

    def _greedy(self, p: int) -> tuple[Meld, ...]:
        """The greedy no-rearrangement play (a lower bound of the best play), once per position."""
        key = self._key(p)
        if key not in self._cache:
            self._cache[key] = greedy_play(self.table, self.hands[p], self.rules) if self.opened[p] else self.table
        return self._cache[key]

    def _playable(self, p: int) -> Playable:
        """The solver's question "how many cards can an opened player play?" for player ``p`` now,
        with the greedy play as its lower bound (each stage asked once per position)."""
        key = self._key(p)
        found = self._questions.get(key)
        if found is None:
            found = self._questions[key] = Playable(
                self.table,
                self.hands[p],
                self.rules,
                lower=partial(self._greedy, p),  # not a lambda: a game with its questions pickles
                time_limit=self.RULE_QUESTION_LIMIT,  # not the game's time_limit: legality is exact
                table_cards=self._table_cards(),
                facts=self._facts(p),
            )
        return found

    def _facts(self, p: int) -> Facts | None:
        """The playable bound, the greedy play's count and stage 3 for opened player ``p`` from the
        compiled core in one call (:mod:`solver.manipulation.engine_core`), or None: the Python answers."""
        return position_facts(self._table_codes(), self.table, self.hands[p], self.rules)

    def _opening(self, p: int) -> Most:
        """The best first play from the hand alone when it reaches ``initial_meld``, else nothing.

        The value objective's best play, with its value counted as the opening
        rule counts it (a joker is worth the card it stands for).
        """
        key = self._key(p)
        found = self._openings.get(key)
        if found is None:
            play = best_play(
                (),
                self.hands[p],
                self.rules,
                objective="value",
                time_limit=self.RULE_QUESTION_LIMIT,  # the legal set: exact, whatever the load
                least_change=False,
            )
            if play.played and self.opening_value(play.table) >= self.rules.initial_meld:
                found = Most(play.cards, (*self.table, *play.table), play.status)
            else:
                found = Most(0, self.table, play.status)
            self._openings[key] = found
        return found

    def max_playable(self, player: int | None = None) -> int:
        """Most hand cards the player can play now (``initial_meld`` respected): a solver question."""
        p = self.to_move if player is None else player
        return self._playable(p).most().cards if self.opened[p] else self._opening(p).cards

    def can_play(self, at_least: int = 1) -> bool:
        """True if the player to move can play ``at_least`` cards (a solver question: the greedy
        play and the playable bound settle most positions, see :class:`Playable`)."""
        p = self.to_move
        if self.opened[p]:
            return not self._drew_in_vain(p) and self._playable(p).at_least(at_least)
        return self._opening(p).cards >= at_least

    def _drew_in_vain(self, p: int) -> bool:
        """True if player ``p``, unable to play, drew a card that no play can hold: then they still
        cannot play (a play from the new hand holds the new card, else the old hand could make it),
        and the bound of that one card settles it (no other question asked)."""
        drawn = self._drawn.get(p)
        if drawn is None or drawn[0] is not self.table or drawn[1] is not self.hands[p]:
            return False
        _, hand, card, verdict = drawn
        if not verdict:
            verdict.append(not card.is_joker and not card_playable(self._table_cards(), hand, card, self.rules))
        return verdict[0]

    def _table_cards(self) -> Cards:
        """The table's cards (worked out once per table)."""
        if self._on_table[0] is not self.table:
            self._on_table = (self.table, Cards(c for m in self.table for c in m.cards))
        return self._on_table[1]

    def required(self) -> int:
        """Fewest cards a play must hold now."""
        if self.rules.must_play == "more_than_one" and self.can_play(2):
            return 2
        return 1

    # --- the OpenSpiel shape ---------------------------------------------------------

    def current_player(self) -> int:
        return -1 if self.phase == "over" else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _may_skip(self) -> bool:
        """True if the player may draw or pass instead of playing."""
        return self.rules.must_play == "never" or not self.can_play()

    def _legal_actions(self) -> list[Any]:
        if self.phase == "over":
            return []
        p = self.to_move
        actions: list[Any] = []
        able = self.can_play()
        if able:
            need = self.required()
            opened = self.opened[p]
            plays = [t for t in self._simple(p, need) if opened or self.opening_ok(t)]
            if not plays:  # only a rearrangement (or a bigger opening) reaches what the rules demand
                best = self._playable(p).most().table if opened else self._opening(p).table
                plays = [best] if self._play_error(MPlay(p, best)) is None else []
            actions.extend(MPlay(p, t) for t in plays)
        if self.rules.must_play == "never" or not able:  # the player may draw or pass (_may_skip)
            draw_allowed = bool(self.stock) and not (self.phase == "drawn" and self.rules.draw_rule == "one")
            actions.append(MDraw(p) if draw_allowed else MPass(p))
        return actions

    def _simple(self, p: int, need: int) -> list[tuple[Meld, ...]]:
        """The simple plays (:func:`simple_plays`, in order: the additions, then the new melds)
        adding at least ``need`` cards: an addition adds one card, a new meld from the hand three or
        more. The hand's melds are not looked for where the core found it makes none."""
        table, hand = self.table, self.hands[p]
        facts = self._playable(p).facts if self.opened[p] else None
        melds = hand_melds(hand, self.rules) if facts is None or facts.melds else ()
        if need > 1:
            return [(*table, m) for m in melds if len(m) >= need]
        out = [(*table[:i], m, *table[i + 1 :]) for i, m in additions(table, hand, self.rules)]
        out.extend((*table, m) for m in melds)
        return out

    def cards_played(self, table: tuple[Meld, ...]) -> int:
        """How many hand cards the table ``table`` holds beyond the current table."""
        return sum(len(m) for m in table) - sum(len(m) for m in self.table)

    def opening_value(self, melds: Sequence[Meld]) -> int:
        """The points of melds for ``initial_meld``: A=1 ... K=13, a joker the card it stands for."""
        spec = self.rules.meld_spec
        return sum(self.rules.card_value(r) for m in melds for r in resolve_roles(m, spec)[1])

    def opening_ok(self, table: Sequence[Meld]) -> bool:
        """A first play keeps every old meld as it is and adds melds worth ``initial_meld``.

        Neither the order of the melds nor the order of cards in a meld
        matters: the old melds are found in ``table`` by their cards, the rest
        are the new melds (a joker counts the value of the card it stands for).
        """
        waiting = Counter(m.multiset for m in self.table)
        new: list[Meld] = []
        for m in table:
            if waiting[m.multiset]:
                waiting[m.multiset] -= 1
            else:
                new.append(m)
        if any(waiting.values()):
            return False
        try:
            return self.opening_value(new) >= self.rules.initial_meld
        except MeldError:  # not valid melds: the validator rejects the play anyway
            return False

    def verify(self, action: Any) -> None:
        if isinstance(action, MDraw):
            if not self._may_skip():
                raise IllegalActionError("a player who can play must play")
            if not self.stock:
                raise IllegalActionError("the stock is empty: pass instead")
            if self.phase == "drawn" and self.rules.draw_rule == "one":
                raise IllegalActionError("only one card may be drawn (draw_rule one): play or pass")
            return
        if isinstance(action, MPass):
            if not self._may_skip():
                raise IllegalActionError("a player who can play must play")
            if self.stock and not (self.phase == "drawn" and self.rules.draw_rule == "one"):
                raise IllegalActionError("the stock is not empty: draw instead of passing")
            return
        if not isinstance(action, MPlay):
            raise IllegalActionError(f"{action} is not a play, a draw or a pass")
        self.legal_actions()  # listed for this position (computed once, then cached)
        if self._listed(action):  # listed plays meet every rule by construction
            return
        error = self._play_error(action)
        if error is not None:
            raise IllegalActionError(error)

    def _play_error(self, action: MPlay) -> str | None:
        """Why a play is illegal now, or None: the validator, then ``must_play`` and ``initial_meld``."""
        old, new = _changed(self.table, action.table)
        played = played_cards(old, new, self.hands[action.player], self.rules.ace)  # the core, if it can
        if played is None:
            try:
                played = validate_rearrangement(old, self.hands[action.player], new, self.rules.meld_spec)
            except MeldError as exc:
                return f"illegal play: {exc}"
        if not played:
            return "a play must add at least one card from the hand"
        if len(played) < self.required():
            return "a player able to play more than one card must play more than one"
        if not self.opened[action.player] and not self.opening_ok(action.table):
            return f"the first play must be new melds from the hand worth at least {self.rules.initial_meld} points"
        return None

    def _apply(self, action: Any) -> None:
        p = self.to_move
        if isinstance(action, MDraw):
            card = self.stock.pop()
            counts = list(self.hands[p].counts)  # the hand plus the card (Cards + Cards, in counts)
            counts[card.index] += 1
            self.hands[p] = Cards._make(tuple(counts))
            self.phase = "drawn"
            if self.opened[p] and self.rules.must_play != "never":  # a draw was legal: the player could not play
                self._drawn[p] = (self.table, self.hands[p], card, [])
            return
        if isinstance(action, MPass):
            if not self.stock:
                self.idle += 1
                if self.idle >= self.num_players:
                    self._end_hand(None)
                    return
            self._next_turn()
            return
        new_cards = Cards(chain.from_iterable([m.cards for m in action.table]))
        played = new_cards - self._table_cards()
        self.hands[p] = self.hands[p] - played
        self.table = action.table
        self._on_table = (self.table, new_cards)
        self.opened[p] = True
        self.idle = 0
        if not self.hands[p]:
            self._end_hand(p)
            return
        self._next_turn()

    def _next_turn(self) -> None:
        self.to_move = (self.to_move + 1) % self.num_players
        self.phase = "turn"

    def _end_hand(self, winner: int | None) -> None:
        self.last_hand = [0 if p == winner else len(self.hands[p]) for p in range(self.num_players)]
        for p, pts in enumerate(self.last_hand):
            self.totals[p] += pts
        done = max(self.totals) >= self.rules.target
        if self.max_hands is not None and self.hand_number >= self.max_hands:
            done = True
        if done:
            self.phase = "over"
        else:
            self._deal()

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "player": player,
            "hand": [c.code for c in self.hands[player]],  # a list of card codes, as every JSON answer (docs/json.md)
            "table": [str(m) for m in self.table],
            "hand_sizes": [len(h) for h in self.hands],
            "stock": len(self.stock),
            "to_move": self.current_player(),
            "phase": self.phase,
            "opened": list(self.opened),
            "scores": self.scores(),
            "hand_number": self.hand_number,
        }

    def parse_action(self, text: str) -> Any:
        p = self.to_move
        word, _, rest = text.strip().partition(" ")
        word = word.lower()
        if word == "draw":
            return MDraw(p)
        if word == "pass":
            return MPass(p)
        if word == "play":
            try:
                return MPlay(p, parse_table(rest))
            except ShanghaiError as exc:
                raise IllegalActionError(f"bad play {text!r}: {exc}") from None
        raise IllegalActionError(f"unknown action {text!r} (play TABLE, draw, pass)")

    def all_cards(self) -> Cards:
        out = Cards(self.stock) + Cards(c for m in self.table for c in m.cards)
        for h in self.hands:
            out = out + h
        return out

    def options(self) -> dict[str, Any]:
        return {"max_hands": self.max_hands} if self.max_hands is not None else {}
