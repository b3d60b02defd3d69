"""The two-player Zheng Shang You endgame: which lead wins however the opponent defends?

You hold ``hand`` and lead; the last opponent holds ``opponent`` (both
hands known). Play alternates: the player to move beats the combination on
the table with a legal move (:func:`solver.zsy.legal_moves`: the one rules
engine) or passes; after a pass the other player, who played last, leads
anew (with two players left everybody else has passed); a lead is never
passed. Whoever empties their hand first wins: with two players left, the
other is last.

:func:`wins` is an exact negamax, memoised on (the hand to move, the other
hand, the combination to beat) and cut at the first winning move, so it
decides a position without searching the rest. :func:`solve_lead` rates
every lead (a lead wins when it wins against every defence) and, for the
first winning lead, gives the line: your plan (go out when you can, else
the biggest winning combination, else pass) against the defence that holds
out longest against it, by an exact longest-resistance search over the
positions the line reaches (the loser tries every move; the winner follows
its plan, so the search does not branch on the winner's side).

>>> from solver.cards import Cards
>>> e = solve_lead(Cards.parse("3S 4H 5D KC"), Cards.parse("AS 10H"))
>>> [str(m) for m in e.winning]
['straight:3S 4H 5D']
>>> [(who, str(m) if m else "pass") for who, m in e.line]
[('you', 'straight:3S 4H 5D'), ('opponent', 'pass'), ('you', 'single:KC')]
>>> wins(Cards.parse("3S"), Cards.parse("4S"), None)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, Literal

from solver.cards import Cards
from solver.errors import ComboError, ShanghaiError, SolverTimeout
from solver.native import core
from solver.rules import ZsyRules
from solver.zsy.combos import DEFAULT_RULES, Combo, check_cards
from solver.zsy.moves import _native_args, legal_moves

__all__ = ["EndgameTooBig", "Endgame", "Side", "wins", "winning_moves", "solve_lead", "MAX_NODES", "MAX_CARDS"]

Side = Literal["you", "opponent"]

MAX_NODES: Final = 2_000_000
"""Positions searched at most before :class:`EndgameTooBig` (a hint-sized endgame needs a few thousand)."""

MAX_CARDS: Final = 16
"""The most cards one hand may hold in an endgame search (the tree grows fast with the hand)."""


class EndgameTooBig(ComboError):
    """The endgame has too many positions to search exactly (hands too big)."""


@dataclass(frozen=True, slots=True)
class Endgame:
    """Every lead rated: ``leads`` (each legal lead and whether it wins), ``winning`` (the winning
    leads, in :func:`legal_moves` order), ``line`` (for the first winning lead: each play or pass,
    ``None``, by side, to the end of the hand; empty when no lead wins) and ``nodes`` (positions
    searched)."""

    leads: tuple[tuple[Combo, bool], ...]
    winning: tuple[Combo, ...]
    line: tuple[tuple[Side, Combo | None], ...]
    nodes: int


class _Search:
    """One search's memo and node count under one rule set."""

    def __init__(self, rules: ZsyRules, max_nodes: int, time_limit: float) -> None:
        self.rules = rules
        self.max_nodes = max_nodes
        self.time_limit = time_limit
        self.deadline = time.perf_counter() + time_limit
        self.nodes = 0
        self.memo: dict[tuple[Cards, Cards, Combo | None], bool] = {}
        self.dist: dict[tuple[Cards, Cards, Combo | None], int] = {}
        self.moves: Callable[[Cards, Combo | None], tuple[Combo, ...]] = lru_cache(maxsize=None)(self._moves)

    def _moves(self, hand: Cards, to_beat: Combo | None) -> tuple[Combo, ...]:
        return legal_moves(hand, to_beat, self.rules)

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise EndgameTooBig(f"the endgame has more than {self.max_nodes:,} positions to search")
        if not self.nodes & 255 and time.perf_counter() > self.deadline:
            raise SolverTimeout(f"the endgame search did not finish in {self.time_limit:g} s")

    def wins(self, mover: Cards, other: Cards, to_beat: Combo | None) -> bool:
        """Whether the player to move (holding ``mover``) goes out first."""
        key = (mover, other, to_beat)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self._count()
        won = False
        for move in self.moves(mover, to_beat):
            rest = mover - move.cards
            if not rest or not self.wins(other, rest, move):
                won = True
                break
        if not won and to_beat is not None:
            won = not self.wins(other, mover, None)  # pass: the other player leads anew
        self.memo[key] = won
        return won

    def distance(self, mover: Cards, other: Cards, to_beat: Combo | None) -> int:
        """Plies (plays and passes) to the end of the hand with best play: positive when the mover
        wins (the winner hurries), negative when it loses (the loser holds out)."""
        key = (mover, other, to_beat)
        hit = self.dist.get(key)
        if hit is not None:
            return hit
        self._count()
        best: int | None = None
        for _, value in self.options(mover, other, to_beat):
            if best is None or _better(value, best):
                best = value
        assert best is not None  # a lead always has a move; a reply may pass
        self.dist[key] = best
        return best

    def options(self, mover: Cards, other: Cards, to_beat: Combo | None) -> list[tuple[Combo | None, int]]:
        """Each move (``None``: pass) with its distance from the mover's side. A winner has one
        option, its plan (:meth:`plan`); a loser tries every move and the pass."""
        if self.wins(mover, other, to_beat):
            move = self.plan(mover, other, to_beat)
            if move is None:
                return [(None, _flip(self.distance(other, mover, None)))]
            rest = mover - move.cards
            return [(move, 1 if not rest else _flip(self.distance(other, rest, move)))]
        out: list[tuple[Combo | None, int]] = []
        for move in self.moves(mover, to_beat):
            rest = mover - move.cards
            out.append((move, 1 if not rest else _flip(self.distance(other, rest, move))))
        if to_beat is not None:
            out.append((None, _flip(self.distance(other, mover, None))))
        return out

    def plan(self, mover: Cards, other: Cards, to_beat: Combo | None) -> Combo | None:
        """The winner's move in the line: go out if it can, else the biggest winning combination
        (the first in :func:`legal_moves` order among equals), else pass."""
        moves = self.moves(mover, to_beat)
        for move in sorted(moves, key=lambda m: -m.size):  # stable: legal order among equal sizes
            rest = mover - move.cards
            if not rest or not self.wins(other, rest, move):
                return move
        return None


def _flip(d: int) -> int:
    """The other side's distance one ply earlier."""
    return -(d + 1) if d > 0 else -d + 1


def _better(a: int, b: int) -> bool:
    """A win beats a loss; a quicker win beats a slower one; a slower loss beats a quicker one."""
    if (a > 0) != (b > 0):
        return a > 0
    return a < b  # wins: fewer plies; losses: more plies (more negative)


def _check(hand: Cards, opponent: Cards) -> None:
    if not hand or not opponent:
        raise ComboError("an endgame needs cards in both hands")
    if max(len(hand), len(opponent)) > MAX_CARDS:
        raise EndgameTooBig(f"an endgame search takes hands of at most {MAX_CARDS} cards")


def wins(
    hand: Cards,
    opponent: Cards,
    to_beat: Combo | None,
    rules: ZsyRules = DEFAULT_RULES,
    *,
    max_nodes: int = MAX_NODES,
    time_limit: float = 60.0,
) -> bool:
    """Whether the player to move, holding ``hand`` against ``opponent``, goes out first with best play
    (``to_beat``: the opponent's combination on the table, or None to lead). Past ``max_nodes``
    positions :class:`EndgameTooBig`, past ``time_limit`` seconds :class:`SolverTimeout`."""
    _check(hand, opponent)
    native = _native(hand, opponent, to_beat, rules, max_nodes, time_limit, every=False)
    if native is not None:
        return native[0][0]
    return _Search(rules, max_nodes, time_limit).wins(hand, opponent, to_beat)


def winning_moves(
    hand: Cards,
    opponent: Cards,
    to_beat: Combo | None,
    rules: ZsyRules = DEFAULT_RULES,
    *,
    max_nodes: int = MAX_NODES,
    time_limit: float = 60.0,
) -> list[Combo | None]:
    """Every move of the player to move (holding ``hand``; ``to_beat``: the opponent's combination on
    the table, or None to lead) that goes out first however the opponent defends, in
    :func:`legal_moves` order, then ``None`` when passing wins (one search, one memo).

    >>> [str(m) for m in winning_moves(Cards.parse("3S 4H 5D KC"), Cards.parse("AS 10H"), None)]
    ['straight:3S 4H 5D']
    >>> from solver.zsy.combos import Combo
    >>> [str(m) for m in winning_moves(Cards.parse("5S 5H"), Cards.parse("4S"), Combo.parse("single:3S"))]
    ['single:5S', 'single:5H']
    """
    _check(hand, opponent)
    native = _native(hand, opponent, to_beat, rules, max_nodes, time_limit, every=True)
    if native is not None:
        flags, passing = native
        chosen: list[Combo | None] = [m for m, won in zip(legal_moves(hand, to_beat, rules), flags) if won]
        return [*chosen, None] if passing else chosen
    search = _Search(rules, max_nodes, time_limit)
    out: list[Combo | None] = []
    for move in search.moves(hand, to_beat):
        rest = hand - move.cards
        if not rest or not search.wins(opponent, rest, move):
            out.append(move)
    if to_beat is not None and not search.wins(opponent, hand, None):
        out.append(None)
    return out


def solve_lead(
    hand: Cards,
    opponent: Cards,
    rules: ZsyRules = DEFAULT_RULES,
    *,
    line: bool = True,
    max_nodes: int = MAX_NODES,
    time_limit: float = 60.0,
) -> Endgame:
    """Rate every lead from ``hand`` against ``opponent`` and, with ``line``, give the winning line
    (see the module; the line costs more than the rating). The answer is exact or none: past
    ``max_nodes`` positions :class:`EndgameTooBig`, past ``time_limit`` seconds :class:`SolverTimeout`."""
    _check(hand, opponent)
    search = _Search(rules, max_nodes, time_limit)
    leads: list[tuple[Combo, bool]] = []
    for move in search.moves(hand, None):
        rest = hand - move.cards
        leads.append((move, not rest or not search.wins(opponent, rest, move)))
    winning = tuple(m for m, won in leads if won)
    steps: list[tuple[Side, Combo | None]] = []
    if winning and line:
        first = winning[0]
        steps.append(("you", first))
        mover, other = opponent, hand - first.cards
        to_beat: Combo | None = first
        side: Side = "opponent"
        while other:  # the player who just played still holds cards
            options = search.options(mover, other, to_beat)
            step, _ = min(options, key=lambda mv: _rank(mv[1]))
            steps.append((side, step))
            if step is None:
                mover, other, to_beat = other, mover, None
            else:
                mover, other, to_beat = other, mover - step.cards, step
            side = "you" if side == "opponent" else "opponent"
    return Endgame(tuple(leads), winning, tuple(steps), search.nodes)


def _rank(d: int) -> tuple[int, int]:
    """Sort key: the best distance first (:func:`_better`)."""
    return (0, d) if d > 0 else (1, d)


def _native(
    hand: Cards,
    opponent: Cards,
    to_beat: Combo | None,
    rules: ZsyRules,
    max_nodes: int,
    time_limit: float,
    *,
    every: bool,
) -> tuple[list[bool], bool] | None:
    """:meth:`_Search.wins` on the compiled core (solver/native/src/zsy.cpp, endgame): the same negamax,
    moves, memo and node count. ``every``: one flag per legal move of ``hand`` (``winning_moves``), else
    ``[wins]``; and whether passing wins. None when the pure path must answer: no core, a combination
    whose fields are not a combination's, or a hand that is not a sub-multiset of the deck (the pure
    search raises for it only when it reaches it)."""
    mod = core("zsy")
    args = None if mod is None else _native_args(to_beat, rules)
    if mod is None or args is None or not (_in_deck(hand, rules) and _in_deck(opponent, rules)):
        return None
    deadline = time.perf_counter() + time_limit

    def expired() -> bool:
        return time.perf_counter() > deadline

    try:
        outcome, flags, passing, _ = mod.endgame(hand.counts, opponent.counts, *args, max_nodes, expired, every)
    except ValueError as exc:  # never for checked hands: the core re-checks what Python checked
        raise ComboError(f"the compiled core refused the endgame: {exc}") from None
    if outcome == 1:
        raise EndgameTooBig(f"the endgame has more than {max_nodes:,} positions to search")
    if outcome == 2:
        raise SolverTimeout(f"the endgame search did not finish in {time_limit:g} s")
    return flags, passing


def _in_deck(cards: Cards, rules: ZsyRules) -> bool:
    try:
        check_cards(cards, rules, "hand")
    except ShanghaiError:
        return False
    return True
