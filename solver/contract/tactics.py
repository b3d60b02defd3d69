"""Tactics for going out first: no "Shanghai!" calls, and which card to shed when the solver's measure is indifferent.

A round is won by going out first, and most of a round is spent after the
lay-downs, shedding one card a turn: a card that cannot be laid off leaves
the hand only by a discard, so each such card held costs turns.
:func:`tactical_action` is the solver player's choice with two changes:

- **No call.** A call brings the discard and a penalty card from the stock,
  with no discard for them: two cards for one (after the lay-down the
  ``solver-old`` player calls for a card it can lay off, and the penalty
  card is then one more card to shed unless it can be laid off too).
- **The discard.** The solver discards by the distance to the contract,
  then the most points (a lower score when someone else goes out). Among the
  cards the solver's measure ranks equal (after the lay-down: every card),
  :func:`shed_order` sheds first the cards least likely ever to leave the
  hand by a lay-off, and last those that fit a table meld now (discarding
  one hands any laid-down player a free lay-off, and gives up one's own
  once down):

0. a wild is kept while any natural card can go (a discarded wild helps
   the next player or a caller);
1. a card that fits a table meld now is kept longest;
2. before the lay-down, then the discard that leaves the most **outs**
   (:func:`outs_after`: the unseen copies of the cards that would bring the
   contract one card closer) is made first (session 6);
3. then a card one card away from fitting (a run's suit, its rank one past
   the card that would extend the run), by the copies of that card still
   unseen;
4. before the lay-down, a card that pairs with or runs next to a card in
   hand (it may join the contract's melds) is kept before an unconnected one.

The search player (:mod:`solver.engine.ismcts`) takes it as its default
in Contract Shanghai; the ``solver`` player is unchanged (it is the
reference opponent). Measured in docs/engine.md.
"""

from __future__ import annotations

from solver.cards import ALL_CARDS, Card, Cards
from solver.contract.actions import CCall, CDiscard, CNoCall, ContractAction
from solver.contract.api import best_discards, discard_order, distance_to_contract
from solver.contract.game import ContractGame
from solver.contract.players import solver_decision, useful_card
from solver.contract.tablemelds import single
from solver.errors import SolverTimeout
from solver.melds import Meld

__all__ = ["fits_table", "keep_score", "outs_after", "shed_order", "tactical_action"]


def _neighbours(card: Card) -> list[Card]:
    """The cards of ``card``'s suit one rank below and above it (ace low or high is the validator's call)."""
    if card.rank is None or card.suit is None:
        return []
    rank = int(card.rank)
    # the ace sits below the two and above the king (never both in one run: the validator decides)
    return [ALL_CARDS[card.index - rank + (rank + step - 1) % 13 + 1] for step in (-1, 1)]


def fits_table(game: ContractGame, card: Card) -> bool:
    """True when ``card`` can be laid off onto some table meld now."""
    return any(game.grown(i, single(card.index)) is not None for i in range(len(game.table)))


def keep_score(game: ContractGame, card: Card) -> tuple[int, int, int]:
    """How much ``card`` is worth keeping in the hand of the player to move (higher: keep).

    (fits a table meld now, unseen copies of the cards that would make it fit,
    pairs with or runs next to another card in hand before the lay-down).
    """
    p = game.to_move
    hand = game.hands[p]
    melds = range(len(game.table))
    fits = fits_table(game, card)
    seen = game.seen_cards(p) + hand
    near = 0
    if not fits:
        for n in _neighbours(card):
            if n not in game.rules.wilds and any(game.grown(i, Meld((n, card))) is not None for i in melds):
                near += max(0, game.rules.decks - seen.count(n))  # its copies still unseen
    connected = not game.laid_down[p] and useful_card(hand - Cards([card]), card, game)
    return (int(fits), near, int(connected))


def outs_after(game: ContractGame, card: Card) -> int:
    """The outs left when the player to move discards ``card`` before the lay-down: the copies still
    unseen of the cards that would bring the contract one card closer (raises :class:`SolverTimeout`)."""
    p = game.to_move
    after = game.hands[p] - Cards([card])
    found = distance_to_contract(after, game.rules, game.round, seen=game.seen_cards(p), time_limit=game.time_limit)
    return len(found.options)


def shed_order(game: ContractGame, ranked: list[CDiscard], outs: dict[Card, int] | None = None) -> list[CDiscard]:
    """The discards of ``ranked`` (in the solver's order): every natural card before a wild (a
    discarded wild helps the next player or a caller), then by :func:`keep_score`, least worth keeping
    first (the solver's order breaks ties); ``outs`` (a card's :func:`outs_after`, before the lay-down)
    ranks right after fitting the table: the discard leaving the most outs first."""

    def key(action: CDiscard) -> tuple[bool, int, int, int, int]:
        fits, near, connected = keep_score(game, action.card)
        return (action.card in game.rules.wilds, fits, -outs[action.card] if outs else 0, near, connected)

    return sorted(ranked, key=key)


def tactical_action(game: ContractGame) -> ContractAction:
    """The solver player's action, without its calls and with the discard of :func:`shed_order`.

    The discards compared are those the solver's measure ranks as good as
    its choice: before the lay-down the discards that keep the distance to
    the contract (the last round's whole-hand discard is kept as it is),
    ranked by the outs they leave too, after it every card (the solver
    sheds the most points, which does not make going out sooner). A solver
    question out of time keeps the solver's discard.
    """
    action: ContractAction = solver_decision(game).action
    p = game.to_move
    if isinstance(action, CCall):
        return CNoCall(p)
    if not isinstance(action, CDiscard) or (game.all_at_once() and not game.laid_down[p]):
        return action
    allowed = [a for a in game.legal_actions() if isinstance(a, CDiscard)]
    outs: dict[Card, int] | None = None
    if game.laid_down[p]:
        tied = allowed
    else:
        try:
            after = dict(
                best_discards(
                    game.hands[p], game.rules, game.round, seen=game.seen_cards(p), time_limit=game.time_limit
                )
            )
            tied = [a for a in allowed if after.get(a.card) == after.get(action.card)]
            outs = {c: outs_after(game, c) for c in {a.card for a in tied}} if len(tied) > 1 else None
        except SolverTimeout:
            return action
    tied.sort(key=lambda a: discard_order(a.card, game.rules))
    return shed_order(game, tied, outs)[0]
