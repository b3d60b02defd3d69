"""The OpenSpiel games' card-by-card deal, and the hidden cards a resample may deal anew.

Each deal (every hand, or Contract round) is a run of chance nodes, one
per card *slot*: the slots are the engine's dealt hands (player 0's
cards, then player 1's, ...) and then the stock, top card last (the
engine draws from the end). A slot's outcome is a card index (0..54),
with probability the copies of it left over the cards left, as
OpenSpiel's own card games deal. The engine deals first (its seed fixes
the hand sizes and who leads; a Contract reshuffle is chance nodes of
its own: :class:`solver.envs.openspiel.ShanghaiState`), then the chance
outcomes replace the cards of its deal. In teams6 the card shown before the first deal stays in its
holder's hand (it is public and decides the lead): it is no slot.

:func:`hidden_slots` works out which slots of the current deal hold
cards a player has not seen: it replays the deal's engine actions,
following each card from its slot (a card leaving a hand is the oldest
copy of it there; cards drawn from the stock are the stock's top slots;
a card from any public place, the reshuffled stock included, is no
slot). Dealing those slots' cards among themselves anew gives a deal
that looks the same to that player.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from solver.cards import ALL_CARDS, Card, Cards
from solver.engine.base import Game
from solver.engine.search import floor_sub

__all__ = ["Deal", "hidden_slots", "install", "start_deal"]


@dataclass(frozen=True)
class Deal:
    """One deal's slots: each hand's slot count, the stock's, the fixed cards, and the deck counts."""

    hand_slots: tuple[int, ...]
    stock_slots: int
    fixed: tuple[Cards, ...]  # per hand, cards that are no slot (teams6's shown card)
    counts: tuple[int, ...]  # per card index, the copies the slots hold

    @property
    def size(self) -> int:
        """How many chance nodes the deal takes."""
        return sum(self.hand_slots) + self.stock_slots

    def outcomes(self, dealt: list[int]) -> list[tuple[int, float]]:
        """The next slot's outcomes after ``dealt`` (card indexes so far), with their probabilities."""
        left = list(self.counts)
        for i in dealt:
            left[i] -= 1
        total = sum(left)
        return [(i, n / total) for i, n in enumerate(left) if n]

    def owner(self, slot: int) -> int:
        """The hand a slot belongs to, or -1 for the stock."""
        for q, n in enumerate(self.hand_slots):
            if slot < n:
                return q
            slot -= n
        return -1


def start_deal(game: Game) -> Deal:
    """The slots of the deal the engine has just made (before any action of the new hand)."""
    fixed = [Cards()] * len(game.hands)
    shown = getattr(game, "shown", None)
    if shown is not None and getattr(game, "hand_number", 0) == 1:
        leader = int(game.leader)  # type: ignore[attr-defined]
        fixed[leader] = Cards([shown])
    stock = list(getattr(game, "stock", ()))
    cards = Cards(stock)
    for q, hand in enumerate(game.hands):
        cards = cards + floor_sub(hand, fixed[q])
    return Deal(
        tuple(len(h) - len(f) for h, f in zip(game.hands, fixed)), len(stock), tuple(fixed), tuple(cards.counts)
    )


def install(game: Game, deal: Deal, dealt: list[int]) -> None:
    """Put the cards ``dealt`` (one card index a slot) into the engine's hands and stock."""
    at = 0
    hands: list[Cards] = []
    for q, n in enumerate(deal.hand_slots):
        hands.append(deal.fixed[q] + Cards(ALL_CARDS[i] for i in dealt[at : at + n]))
        at += n
    game.hands = hands
    if hasattr(game, "stock"):
        game.stock = [ALL_CARDS[i] for i in dealt[at:]]
    game.clear_caches()


def hidden_slots(
    start: Game,
    deal: Deal,
    dealt: tuple[int, ...],
    actions: list[Any],
    player: int,
    stocks: Sequence[list[Card]] = (),
) -> list[int]:
    """The slots whose cards ``player`` has not seen once ``actions`` (engine actions) follow ``start``.

    ``start`` is the engine game just after the cards ``dealt`` were installed; it is not changed.
    ``stocks`` are the orders the round's reshuffled stocks took (a Contract game's ``next_stock``
    each, in order), so the actions draw the cards they drew.
    """
    game = start.clone()
    pending = [list(s) for s in stocks]
    held: list[list[tuple[int | None, Card]]] = []
    slot = 0
    for q, n in enumerate(deal.hand_slots):
        cards = [ALL_CARDS[i] for i in dealt[slot : slot + n]]
        held.append([(slot + k if q != player else None, c) for k, c in enumerate(cards)])
        held[q].extend((None, c) for c in deal.fixed[q])
        slot += n
    stock: list[int | None] = list(range(slot, slot + deal.stock_slots))
    for action in actions:
        hands, before = list(game.hands), list(getattr(game, "stock", ()))
        pile = Cards(getattr(game, "pile", ()))
        shuffles = getattr(game, "reshuffles", 0)
        if pending and getattr(game, "next_stock", None) is None:
            game.next_stock = pending[0]  # type: ignore[attr-defined]  # a Contract game's next reshuffle
        game.apply_listed(action)
        after = list(getattr(game, "stock", ()))
        if getattr(game, "reshuffles", 0) == shuffles and len(after) <= len(before) and after == before[: len(after)]:
            popped = list(zip(stock[len(after) :], before[len(after) :]))
            del stock[len(after) :]
        else:  # reshuffled: the new stock is the public pile's cards
            popped, stock = [], [None] * len(after)
            if pending:
                pending.pop(0)
        follow_gains(
            held, hands, game, popped, action.player, player, floor_sub(pile, Cards(getattr(game, "pile", ())))
        )
    out = [s for q, cards in enumerate(held) if q != player for s, _ in cards if s is not None]
    return sorted(out + [s for s in stock if s is not None])


def follow_gains(
    held: list[list[tuple[int | None, Card]]],
    hands: list[Cards],
    game: Any,
    popped: list[tuple[Any, Card]],
    mover: int,
    player: int | None = None,
    pile: Cards | None = None,
) -> None:
    """Follow the cards an engine action moved: out of each hand (``hands`` before, ``game.hands`` after)
    and into it, each gained card from the stock slot it was drawn from (``popped``: (slot, card), the
    deepest first) or from no slot (the pile's, a public card). The mover draws first (a Contract call's
    penalty card, before the player in turn draws), so the mover is followed first and each card from
    the top of ``popped``; the cards the mover took from the pile (``pile``: the cards it lost) are no
    draw. Equal cards of two decks are so told apart (a call whose penalty card and the draw after it
    were two 4S gave the caller the deeper slot, and a resample dealt the caller's own card anew).
    ``player``'s cards are followed with no slot (their cards are seen)."""
    order = [mover, *(q for q in range(len(hands)) if q != mover)] if 0 <= mover < len(hands) else range(len(hands))
    for q in order:
        hand = game.hands[q]
        _lose(held[q], floor_sub(hands[q], hand))
        gained = floor_sub(hand, hands[q])
        if q == mover and pile:
            gained = floor_sub(gained, pile)
            held[q].extend((None, c) for c in floor_sub(floor_sub(hand, hands[q]), gained))
        for card in gained:
            got = next((k for k in range(len(popped) - 1, -1, -1) if popped[k][1] == card), None)
            source = popped.pop(got)[0] if got is not None else None
            held[q].append((source if q != player else None, card))


def _lose(held: list[tuple[int | None, Card]], lost: Cards) -> None:
    """Take ``lost`` out of a hand's cards, the oldest copy of each first."""
    for card in lost:
        k = next(k for k, (_, c) in enumerate(held) if c == card)
        del held[k]
