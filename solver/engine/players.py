"""AI players: ``random``, ``greedy`` (simple rules, no search) and ``solver``.

Every player sees the game only through what its seat may see (its hand,
the table, the discard, counts) and returns one of ``game.legal_actions()``
or another action the game accepts (a manipulation play from the solver).

>>> from solver.engine.players import PLAYER_KINDS
>>> sorted(PLAYER_KINDS)
['greedy', 'random', 'solver']
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solver.cards import Card, Cards
from solver.engine.base import Game
from solver.errors import IllegalActionError

__all__ = ["PLAYER_KINDS", "Decision", "RandomPlayer", "GreedyPlayer", "SolverPlayer", "make_player", "make_players"]


@dataclass(frozen=True, slots=True)
class Decision:
    """An action with the reason a player chose it (what a hint shows)."""

    action: Any
    reason: str
    facts: dict[str, Any] = field(default_factory=dict)


class RandomPlayer:
    """Uniformly random among the legal actions (seeded)."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        """A random legal action."""
        return self.rng.choice(game.legal_actions())


class GreedyPlayer:
    """Simple rules and no search: play the most cards now, keep pairs, shed high cards."""

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        """The greedy rule's action for the game."""
        return _GREEDY[game.GAME](game, self.rng)


class SolverPlayer:
    """Decisions from the solver: best rearrangement, contract distance, lay-off, fewest plays."""

    name = "solver"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Any:
        """The solver's action for the game."""
        return self.decide(game).action

    def decide(self, game: Game) -> Decision:
        """The solver's action with the reason for it (used by hints)."""
        return _SOLVER[game.GAME](game)


PLAYER_KINDS: dict[str, Callable[[int], Any]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
    "solver": SolverPlayer,
}


def make_player(kind: str, seed: int = 0) -> Any:
    """A player by name (``random``, ``greedy``, ``solver``)."""
    if kind not in PLAYER_KINDS:
        raise IllegalActionError(f"unknown player {kind!r} (known: {', '.join(PLAYER_KINDS)})")
    return PLAYER_KINDS[kind](seed)


def make_players(kinds: Sequence[str], seed: int = 0) -> list[Any]:
    """Players for the seats, each with its own seed derived from ``seed``."""
    return [make_player(k, seed * 1000 + i) for i, k in enumerate(kinds)]


# --- Manipulation Shanghai -------------------------------------------------------------


def _manip_greedy(game: Any, rng: random.Random) -> Any:
    from solver.engine.manipulation import MPlay, greedy_play

    legal = game.legal_actions()
    plays = [a for a in legal if isinstance(a, MPlay)]
    if not plays:
        return legal[0]
    p = game.to_move
    table = greedy_play(game.table, game.hands[p], game.rules)
    candidate = MPlay(p, table)
    if table != game.table and game.is_legal(candidate):
        return candidate
    return max(plays, key=lambda a: game._count(a.table))


def _manip_solver(game: Any) -> Decision:
    from solver.engine.manipulation import MPlay
    from solver.manipulation import best_play

    p = game.to_move
    legal = game.legal_actions()
    plays = [a for a in legal if isinstance(a, MPlay)]
    if not plays:
        action = legal[0]
        return Decision(action, "no card can be played: " + str(action), {"playable": 0})
    if game.opened[p]:
        play = best_play(game.table, game.hands[p], game.rules, time_limit=game.time_limit)
        action = MPlay(p, play.table)
        if game.is_legal(action):
            return Decision(
                action,
                f"plays {len(play.played)} card(s) ({play.played}), the most possible"
                f" ({play.status}); moves {play.moved_cards} table card(s)",
                {"played": str(play.played), "status": play.status, "moved_cards": play.moved_cards},
            )
    best = max(plays, key=lambda a: game._count(a.table))
    return Decision(best, f"plays {game._count(best.table)} card(s)", {})


# --- Zheng Shang You --------------------------------------------------------------------


def _zsy_strength(card: Card) -> int:
    if card.joker is not None:
        return 17 if card.code == "RJ" else 16
    assert card.rank is not None
    return {1: 14, 2: 15}.get(int(card.rank), int(card.rank))


def _combo_cost(combo: Any) -> tuple[int, int]:
    """Lower is cheaper to give up: few wilds and low cards."""
    cards = list(combo.cards)
    wild = sum(1 for c in cards if c.is_joker or c.rank == 2)
    return (wild, sum(_zsy_strength(c) for c in cards) // max(1, len(cards)))


def _zsy_tribute(game: Any, legal: list[Any]) -> Any:
    step = legal[0].step
    if step == "give":
        return min(legal, key=lambda a: _zsy_strength(a.card))
    return max(legal, key=lambda a: _zsy_strength(a.card))


def _zsy_greedy(game: Any, rng: random.Random) -> Any:
    from solver.engine.zsy import Tribute, ZPass, ZPlay

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


def _zsy_solver(game: Any) -> Decision:
    """Fewest plays to go out first; keep wilds and aces for later unless an opponent is close.

    Each move is scored by the fewest plays the hand needs after it
    (:func:`solver.climbing.plays_after`), ties broken towards spending few
    wilds and low cards. A reply that does not bring the hand closer to going
    out, spends a wild, or spends an ace or better is passed while every
    opponent still holds enough cards (more than 2, 3 and 4 respectively).
    """
    from solver.climbing import fewest_plays, plays_after
    from solver.engine.zsy import Tribute, ZPass, ZPlay

    legal = game.legal_actions()
    if isinstance(legal[0], Tribute):
        action = _zsy_tribute(game, legal)
        return Decision(action, f"tribute: {action.step} the {'lowest' if action.step == 'give' else 'best'} card")
    p = game.to_move
    hand: Cards = game.hands[p]
    now = fewest_plays(hand, game.rules).count
    plays = [a for a in legal if isinstance(a, ZPlay)]
    passing = next((a for a in legal if isinstance(a, ZPass)), None)
    if not plays:
        assert passing is not None
        return Decision(passing, "no combination beats the trick", {"fewest": now})
    left, _ = plays_after(hand, [a.combo for a in plays], game.rules, time_limit=game_time(game))
    scored = sorted(
        ((after, _combo_cost(a.combo), a.combo.top, i, a) for i, (after, a) in enumerate(zip(left, plays))),
        key=lambda t: t[:4],
    )
    after, (wilds, _), top, _, best = scored[0]
    threat = min((len(h) for q, h in enumerate(game.hands) if q != p and h), default=99)
    if passing is not None:
        why = ""
        if after >= now and threat > 2:
            why = f"every reply leaves {after} plays, no fewer than {now}"
        elif wilds and threat > 3 and after > 1:
            why = "the best reply spends a wild; keep it for later"
        elif top >= 14 and threat > 4 and after > 1:
            why = "the best reply spends an ace or better; keep it for later"
        if why:
            return Decision(passing, f"pass: {why}", {"fewest": now})
    return Decision(best, f"leaves {after} play(s) to go out (now {now})", {"fewest_after": after, "fewest": now})


def game_time(game: Any) -> float:
    """The per-question time limit of a game (1 s when it has none)."""
    return float(getattr(game, "time_limit", 1.0))


# --- Contract Shanghai ------------------------------------------------------------------


def _contract_points(game: Any, cards: Cards) -> int:
    return sum(game.rules.points(c) for c in cards)


def _contract_useful(hand: Cards, card: Card, game: Any) -> bool:
    """A simple rule: the card pairs with a held rank, or sits next to a held card of its suit, or is wild."""
    if card in game.rules.wilds:
        return True
    for c in hand.distinct():
        if c.rank == card.rank and c != card:
            return True
        if (
            c.suit == card.suit
            and c.rank is not None
            and card.rank is not None
            and abs(int(c.rank) - int(card.rank)) == 1
        ):
            return True
    return hand.count(card) > 0


def _contract_discard_greedy(game: Any, legal: list[Any]) -> Any:
    from solver.engine.contract import CDiscard

    discards = [a for a in legal if isinstance(a, CDiscard)]
    hand = game.hands[game.to_move]
    return max(
        discards,
        key=lambda a: (not _contract_useful(hand - Cards([a.card]), a.card, game), game.rules.points(a.card)),
    )


def _contract_greedy(game: Any, rng: random.Random) -> Any:
    from solver.engine.contract import CCall, CDecline, CDiscard, CLayDown, CLayOff, CNoCall, CSwap, CTake

    legal = game.legal_actions()
    kinds = {type(a) for a in legal}
    p = game.to_move
    hand = game.hands[p]
    if CTake in kinds:
        top = game.pile[-1]
        return CTake(p) if _contract_useful(hand, top, game) else CDecline(p)
    if CCall in kinds:
        return CNoCall(p)
    for kind in (CLayDown, CSwap, CLayOff):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return found[0]
    if CDiscard in kinds:
        return _contract_discard_greedy(game, legal)
    return legal[0]


def _contract_solver(game: Any) -> Decision:
    """Distance to contract for the discard and for taking or calling; best lay-down and lay-off."""
    from solver.contract import best_discards, best_layoff, distance_to_contract
    from solver.engine.contract import CCall, CDecline, CDiscard, CLayDown, CLayOff, CNoCall, CSwap, CTake

    legal = game.legal_actions()
    kinds = {type(a) for a in legal}
    p = game.to_move
    hand: Cards = game.hands[p]
    seen = game.seen_cards(p)
    limit = game.time_limit
    if CTake in kinds or CCall in kinds:
        top = game.pile[-1]
        if game.laid_down[p]:
            fits = any(game._grown(i, _single(top)) is not None for i in range(len(game.table)))
            want = fits
            reason = f"{top} {'can' if fits else 'cannot'} be laid off"
        elif not _contract_useful(hand, top, game):
            want = False
            reason = f"{top} neither pairs with nor runs next to any card in hand"
        elif (whole := _whole_hand_offer(game, hand, top, CCall in kinds)) is not None:
            want, reason = whole
        else:
            now = distance_to_contract(hand, game.rules, game.round, seen=seen, time_limit=limit, options=False)
            seen_without = seen - Cards([top])
            after = best_discards(hand + Cards([top]), game.rules, game.round, seen=seen_without, time_limit=limit)
            best_after = after[0][1] if after else now.missing
            want = best_after < now.missing
            reason = f"with {top} the contract is {best_after} card(s) away, now {now.missing}"
        if CTake in kinds:
            return Decision(CTake(p) if want else CDecline(p), ("take: " if want else "decline: ") + reason)
        return Decision(CCall(p) if want else CNoCall(p), ("call Shanghai!: " if want else "no call: ") + reason)
    if any(isinstance(a, CLayDown) for a in legal):
        best = game.lay_down_option()
        return Decision(
            CLayDown(p, tuple(best.melds)),
            f"the contract can be made: lay it down, leaving {best.points_left} points in hand",
            {"points_left": best.points_left},
        )
    if game.laid_down[p] and (CLayOff in kinds or CSwap in kinds):
        plan = best_layoff(hand, game.table, game.rules, player=p, time_limit=limit)
        first = _first_step(game, p, plan)
        if first is not None:
            return Decision(
                first,
                f"lay off {plan.played} ({plan.points} points)" + ("; goes out" if plan.can_go_out else ""),
                {"layoff": str(plan.played), "can_go_out": plan.can_go_out},
            )
    discards = [a for a in legal if isinstance(a, CDiscard)]
    if not discards:
        return Decision(legal[0], "the only action")
    if game.laid_down[p]:
        best = max(discards, key=lambda a: game.rules.points(a.card))
        return Decision(best, f"discard {best.card}: the most points in hand")
    allowed = {a.card: a for a in discards}
    if game._all_at_once():
        spare = _leftovers(game, hand)
        if spare is not None:
            shed = [c for c in spare.distinct() if c in allowed]
            if shed:
                card = max(shed, key=game.rules.points)
                return Decision(
                    allowed[card],
                    f"discard {card}: the contract is made and {card} is not in its melds"
                    f" ({len(spare)} card(s) left over; the whole hand must go down at once)",
                    {"distance": 0, "left_over": len(spare)},
                )
    for card, distance in best_discards(hand, game.rules, game.round, seen=seen, time_limit=limit):
        if card in allowed:
            return Decision(
                allowed[card], f"discard {card}: the contract stays {distance} card(s) away", {"distance": distance}
            )
    return Decision(discards[0], "the only discard allowed")


def _leftovers(game: Any, hand: Cards) -> Cards | None:
    """The cards the best lay-down of ``hand`` leaves in hand, ignoring the whole-hand rule (None: no lay-down)."""
    from solver.contract import best_lay_down

    down = best_lay_down(hand, game.rules, game.round, time_limit=game.time_limit, whole_hand=False)
    return None if down is None else down.hand


def _whole_hand_offer(game: Any, hand: Cards, top: Card, call: bool) -> tuple[bool, str] | None:
    """Take or call in a last round played all at once (None: decide by the distance to contract).

    The hand must go down whole, so every card the contract's melds cannot
    hold must be discarded, one a turn: a call brings an unseen penalty card
    and no discard for it, so it is declined. Once the contract is made, the
    discard is worth taking when it joins the melds (a left-over card goes
    instead); before that the distance to contract decides.
    """
    if not game._all_at_once():
        return None
    if call:
        return False, "every card in hand must go down at once; a call adds a penalty card and no discard"
    now = _leftovers(game, hand)
    if now is None:
        return None
    later = _leftovers(game, hand + Cards([top]))
    if later is None:  # pragma: no cover - a hand that makes the contract still does with one card more
        return None
    fits = len(later) <= len(now)
    return fits, f"the contract is made with {len(now)} card(s) left over; {top} {'joins' if fits else 'does not join'} its melds"


def _single(card: Card) -> Any:
    from solver.melds import Meld

    return Meld((card,))


def _first_step(game: Any, p: int, plan: Any) -> Any:
    """The first engine action that starts the lay-off plan (a swap first, else one card)."""
    from solver.engine.contract import CLayOff, CSwap

    legal = game.legal_actions()
    swaps = [a for a in legal if isinstance(a, CSwap)]
    if plan.swaps and swaps:
        return swaps[0]
    for action in legal:
        if isinstance(action, CLayOff) and action.cards.multiset <= plan.played:
            return action
    return None


_GREEDY: dict[str, Callable[[Any, random.Random], Any]] = {
    "manipulation": _manip_greedy,
    "zsy": _zsy_greedy,
    "contract": _contract_greedy,
}
_SOLVER: dict[str, Callable[[Any], Decision]] = {
    "manipulation": _manip_solver,
    "zsy": _zsy_solver,
    "contract": _contract_solver,
}
