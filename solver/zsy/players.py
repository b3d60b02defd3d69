"""Zheng Shang You's AI players: the greedy rule and the solver's choice (fewest plays)."""

from __future__ import annotations

import random
from typing import Any

from solver.cards import Cards
from solver.engine.base import Decision
from solver.zsy.combos import Combo, is_wild, zsy_value
from solver.zsy.game import Tribute, ZPass, ZPlay, ZsyGame
from solver.zsy.reply import MANY_CARDS, best_reply

__all__ = ["greedy_action", "solver_decision"]


def _combo_cost(combo: Combo) -> tuple[int, int]:
    """Lower is cheaper to give up: few wilds and low cards."""
    cards = list(combo.cards)
    wild = sum(1 for c in cards if is_wild(c))
    return (wild, sum(zsy_value(c) for c in cards) // max(1, len(cards)))


def _zsy_tribute(game: ZsyGame, legal: list[Tribute]) -> Tribute:
    step = legal[0].step
    if step == "give":
        return min(legal, key=lambda a: zsy_value(a.card))
    return max(legal, key=lambda a: zsy_value(a.card))


def greedy_action(game: ZsyGame, rng: random.Random) -> Any:
    """Lead the combination that sheds the most cards; reply with the cheapest that beats."""
    legal = game.legal_actions()
    if isinstance(legal[0], Tribute):
        return _zsy_tribute(game, legal)
    plays = [a for a in legal if isinstance(a, ZPlay)]
    if not plays:
        return next(a for a in legal if isinstance(a, ZPass))
    if game.trick is None:
        # lead the combination that sheds the most cards, cheapest first
        return min(plays, key=lambda a: (-len(a.combo.cards), _combo_cost(a.combo)))
    return min(plays, key=lambda a: _combo_cost(a.combo))


def solver_decision(game: ZsyGame) -> Decision:
    """Fewest plays to go out first; keep wilds and aces for later unless an opponent is close.

    Each move is scored by the fewest plays the hand needs after it
    (:func:`solver.zsy.plays_after`), ties broken towards keeping wilds and
    the combination harder to beat (fewest wild cards, pure before impure,
    fewest jokers), then low cards (:func:`solver.zsy.reply.reply_order`). While every opponent still holds enough cards, a
    reply is passed when it costs a play (leaves more plays than now: more
    than 2 cards each), spends a wild (more than 3) or an ace or better
    (more than 4). A reply that leaves as many plays as now is played: it
    sheds cards and may win the lead, and a player who only passes never
    leads (issue 12: it could end a hand still holding all its cards).
    Forcing a reply whenever the hand is far behind the closest opponent was
    measured and won less (docs/benchmarks.md): passing then wins more.
    In a two-player endgame small enough to search exactly, the move that
    wins it however the opponent defends comes first (:func:`_endgame`).
    """
    legal = game.legal_actions()
    if isinstance(legal[0], Tribute):
        action = _zsy_tribute(game, legal)
        return Decision(action, f"tribute: {action.step} the {'lowest' if action.step == 'give' else 'best'} card")
    p = game.to_move
    hand: Cards = game.hands[p]
    plays = [a for a in legal if isinstance(a, ZPlay)]
    passing = next((a for a in legal if isinstance(a, ZPass)), None)
    endgame = _endgame(game, plays, passing)
    if endgame is not None:
        return endgame
    threat = min((len(h) for q, h in enumerate(game.hands) if q != p and h), default=MANY_CARDS)
    reply = best_reply(
        hand,
        None,
        game.rules,
        moves=[a.combo for a in plays],
        can_pass=passing is not None,
        threat=threat,
        time_limit=game.time_limit,
    )
    if reply.combo is None:
        assert passing is not None
        reason = reply.reason if plays else "no combination beats the trick"
        return Decision(passing, reason, {"fewest": reply.now})
    chosen = next(a for a in plays if a.combo is reply.combo)
    return Decision(chosen, reply.reason, {"fewest_after": reply.after, "fewest": reply.now})


ENDGAME_CARDS = 12
"""The most cards both hands of a two-player endgame may hold together for the solver player to search
it exactly (a few thousand positions; :data:`ENDGAME_NODES` bounds it by a count, not a time)."""

ENDGAME_NODES = 50_000


def _endgame(game: ZsyGame, plays: list[ZPlay], passing: ZPass | None) -> Decision | None:
    """The move that wins a two-player endgame however the opponent defends, when the fewest-plays
    choice may not (:func:`solver.zsy.endgame.winning_moves`, the first winning move in the engine's
    order, as ``hint`` gives for a lead position); None outside such an endgame, when no move wins,
    or when the search is too big.

    With two players left every other card has been played in view, so the opponent's hand is known
    (every card is dealt). The search models the two players alone: it is asked when the player
    leads, or replies to the opponent's own combination (a combination left by a player who has gone
    out is played on by other rules).
    """
    from solver.zsy.endgame import EndgameTooBig, winning_moves

    p = game.to_move
    holding = [q for q, h in enumerate(game.hands) if h]
    if len(holding) != 2 or p not in holding:
        return None
    q = holding[0] if holding[1] == p else holding[1]
    hand, other = game.hands[p], game.hands[q]
    if len(hand) + len(other) > ENDGAME_CARDS or (game.trick is not None and game.trick_player != q):
        return None
    try:
        winning = winning_moves(hand, other, game.trick, game.rules, max_nodes=ENDGAME_NODES)
    except EndgameTooBig:
        return None
    if not winning:
        return None
    move = winning[0]
    # the facts name every winning move, as a puzzle's hint does (solver/engine/hints.py)
    facts = {"winning": ["pass" if m is None else str(m) for m in winning]}
    if move is None:
        assert passing is not None
        return Decision(passing, "pass: wins the two-player endgame however the opponent defends", facts)
    chosen = next(a for a in plays if a.combo == move)
    return Decision(chosen, "wins the two-player endgame however the opponent defends", facts)
