"""Manipulation Shanghai as a game state: deal, play or draw, passing, scoring to a target.

The rules are ``../shared/rules/manipulation.md``. A play is the whole new
table: any arrangement the independent validator accepts is legal, so long
as it follows ``must_play`` and ``initial_meld``. ``legal_actions()`` lists
the plays that need no rearrangement (a new meld from the hand, or one card
added to a meld), the solver's best play when only a rearrangement reaches
what the rules demand, and the draw or the pass.

Whether a player *can* play (and how many cards) is a solver question
(the best play of :func:`solver.manipulation.best_play`); the engine asks it once
per position and caches the answer.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from solver.cards import Card, Cards
from solver.engine.base import PenaltyGame, SimpleAction
from solver.errors import IllegalActionError, MeldError, ShanghaiError
from solver.manipulation import best_play
from solver.melds import Meld, format_table, meld_kinds, parse_table, validate_rearrangement
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


def _sorted_meld(cards: list[Card], rules: ManipulationRules) -> Meld:
    """A meld in display order: runs by rank position, sets by suit."""
    spec = rules.meld_spec
    meld = Meld.of(cards)
    kinds = meld_kinds(meld, spec)
    if "run" in kinds and "set" not in kinds and not any(spec.is_wild(c) for c in cards):
        high = rules.ace != "low" and any(c.rank == 13 for c in cards)

        def pos(c: Card) -> int:
            assert c.rank is not None
            return 14 if (c.rank == 1 and high) else int(c.rank)

        return Meld.of(sorted(cards, key=pos))
    return Meld.of(sorted(cards, key=lambda c: c.index))


def _valid(cards: list[Card], rules: ManipulationRules) -> bool:
    return bool(meld_kinds(Meld.of(cards), rules.meld_spec))


def simple_plays(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> Iterator[tuple[Meld, ...]]:
    """New tables reachable without rearranging: one card added to a meld, or one new meld from hand."""
    seen: set[tuple[str, ...]] = set()
    distinct = hand.distinct()
    for i, meld in enumerate(table):
        for card in distinct:
            grown = [*meld.cards, card]
            if len(grown) <= 13 and _valid(grown, rules):
                new = (*table[:i], _sorted_meld(grown, rules), *table[i + 1 :])
                key = tuple(str(m) for m in new)
                if key not in seen:
                    seen.add(key)
                    yield new
    for meld in hand_melds(hand, rules):
        yield (*table, meld)


def hand_melds(hand: Cards, rules: ManipulationRules) -> Iterator[Meld]:
    """Every distinct meld made of natural hand cards alone (sets of 3-4, runs of 3+)."""
    naturals = [c for c in hand.distinct() if not rules.meld_spec.is_wild(c)]
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for c in naturals:
        assert c.rank is not None and c.suit is not None
        by_rank.setdefault(int(c.rank), []).append(c)
        by_suit.setdefault(c.suit.value, []).append(c)
    for cards in by_rank.values():
        for size in (3, 4):
            for combo in itertools.combinations(cards, size):
                yield _sorted_meld(list(combo), rules)
    for cards in by_suit.values():
        ranks = {int(c.rank): c for c in cards if c.rank is not None}
        positions = dict(ranks)
        if rules.ace != "low" and 1 in ranks:
            positions[14] = ranks[1]
        if rules.ace == "high":
            positions.pop(1, None)
        keys = sorted(positions)
        for a in keys:
            run = [positions[a]]
            b = a + 1
            while b in positions and len(run) < 13:
                run.append(positions[b])
                if len(run) >= 3:
                    yield Meld.of(list(run))
                b += 1


def greedy_play(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> tuple[Meld, ...]:
    """Play as many cards as possible without rearranging: new melds, then additions, repeatedly."""
    current = table
    left = hand
    while True:
        best: tuple[Meld, ...] | None = None
        best_gain = 0
        for new in simple_plays(current, left, rules):
            gain = sum(len(m) for m in new) - sum(len(m) for m in current)
            if gain > best_gain:
                best, best_gain = new, gain
        if best is None:
            return current
        played = Cards(c for m in best for c in m.cards) - Cards(c for m in current for c in m.cards)
        left = left - played
        current = best


class ManipulationGame(PenaltyGame):
    """A game of Manipulation Shanghai: hands until a player reaches the target (and loses).

    ``max_hands`` (engine option) ends the game after that many hands;
    ``time_limit`` bounds each solver question the engine asks.
    """

    GAME: ClassVar[str] = "manipulation"
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
        self._cache: dict[tuple[Any, ...], int] = {}
        self._plays: dict[tuple[Any, ...], Any] = {}
        self._deal()

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
        self._plays.clear()

    # --- solver questions, cached per position ------------------------------------

    def _key(self, p: int) -> tuple[tuple[str, ...], Cards, bool]:
        return (tuple(str(m) for m in self.table), self.hands[p], self.opened[p])

    def _greedy_count(self, p: int) -> int:
        """Cards the greedy no-rearrangement play adds: a lower bound of the best play."""
        key = ("greedy", *self._key(p))
        if key not in self._cache:
            table = greedy_play(self.table, self.hands[p], self.rules) if self.opened[p] else self.table
            self._cache[key] = self._count(table)
        return self._cache[key]

    def max_playable(self, player: int | None = None) -> int:
        """Most hand cards the player can play now (``initial_meld`` respected): a solver question."""
        return len(self._best(self.to_move if player is None else player).played)

    def _best(self, p: int) -> Any:
        """The solver's best play for player ``p`` now (no least-change pass), asked once per position.

        Before a player's first play under ``initial_meld`` it is the best
        opening from the hand alone (``status == "none"`` when there is none).
        """
        key = ("best", *self._key(p))
        if key not in self._plays:
            if self.opened[p]:
                self._plays[key] = best_play(
                    self.table, self.hands[p], self.rules, time_limit=self.time_limit, least_change=False
                )
            else:
                self._plays[key] = self._opening(p)
        return self._plays[key]

    def can_play(self, at_least: int = 1) -> bool:
        """True if the player to move can play ``at_least`` cards; the solver is asked only
        when the greedy play (no rearrangement) does not already show it."""
        p = self.to_move
        if self.opened[p] and self._greedy_count(p) >= at_least:
            return True
        return self.max_playable() >= at_least

    def _opening(self, p: int) -> Any:
        """The best first play from the hand alone, or a play with ``status == "none"``
        when it does not reach ``initial_meld`` points."""
        play = best_play(
            (), self.hands[p], self.rules, objective="value", time_limit=self.time_limit, least_change=False
        )
        if play.status == "none" or play.value < self.rules.initial_meld:
            return best_play((), Cards(), self.rules, least_change=False)
        return play

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
        if self.can_play():
            need = self.required()
            hand = self.hands[p]
            if self.opened[p]:
                plays = [t for t in simple_plays(self.table, hand, self.rules) if self._count(t) >= need]
                if not plays:
                    plays = [self._solver_table(p)]
            else:
                plays = [
                    t
                    for t in simple_plays(self.table, hand, self.rules)
                    if self._count(t) >= need and self._opening_ok(t)
                ]
                if not plays:
                    plays = [self._solver_table(p)]
            actions.extend(MPlay(p, t) for t in plays)
        if self._may_skip():
            draw_allowed = bool(self.stock) and not (self.phase == "drawn" and self.rules.draw_rule == "one")
            actions.append(MDraw(p) if draw_allowed else MPass(p))
        return actions

    def _count(self, table: tuple[Meld, ...]) -> int:
        return sum(len(m) for m in table) - sum(len(m) for m in self.table)

    def _opening_ok(self, table: tuple[Meld, ...]) -> bool:
        """A first play keeps the old melds as they are and adds melds worth ``initial_meld``."""
        old = [str(m) for m in self.table]
        if [str(m) for m in table[: len(old)]] != old:
            return False
        return sum(self.rules.card_value(c) for m in table[len(old) :] for c in m.cards) >= self.rules.initial_meld

    def _solver_table(self, p: int) -> tuple[Meld, ...]:
        best = self._best(p)
        return tuple(best.table) if self.opened[p] else (*self.table, *best.table)

    def verify(self, action: Any) -> None:
        p = self.to_move
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
        try:
            played = validate_rearrangement(self.table, self.hands[p], action.table, self.rules.meld_spec)
        except MeldError as exc:
            raise IllegalActionError(f"illegal play: {exc}") from None
        if not played:
            raise IllegalActionError("a play must add at least one card from the hand")
        if len(played) < self.required():
            raise IllegalActionError("a player able to play more than one card must play more than one")
        if not self.opened[p] and not self._opening_ok(action.table):
            raise IllegalActionError(
                f"the first play must be new melds from the hand worth at least {self.rules.initial_meld} points"
            )

    def _apply(self, action: Any) -> None:
        p = self.to_move
        if isinstance(action, MDraw):
            self.hands[p] = self.hands[p] + Cards([self.stock.pop()])
            self.phase = "drawn"
            return
        if isinstance(action, MPass):
            if not self.stock:
                self.idle += 1
                if self.idle >= self.num_players:
                    self._end_hand(None)
                    return
            self._next_turn()
            return
        played = Cards(c for m in action.table for c in m.cards) - Cards(c for m in self.table for c in m.cards)
        self.hands[p] = self.hands[p] - played
        self.table = action.table
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
            "hand": str(self.hands[player]),
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
