"""The Contract Shanghai judge of a game review (:mod:`solver.engine.review` lays out the measure): the
whole turn after the draw against the solver's whole-turn plan, and a take, decline, call or no call by
the distance to the contract it leaves (or, with ``samples``, by the expected points of the round over
deals resampled from the seat's view).
"""

from __future__ import annotations

from typing import Any

from solver.cards import Cards
from solver.engine.review_judge import DISTANCE_POINTS, ROLLOUT_ACTIONS, Move, _Judge
from solver.errors import SolverTimeout

__all__: list[str] = []


class _Contract(_Judge):
    def __init__(self, game: Any, seat: int, time_limit: float) -> None:
        super().__init__(game, seat, time_limit)
        self.turn: dict[str, Any] | None = None

    def judge(self, index: int, action: Any) -> None:
        game = self.game
        phase = game.phase
        if phase in ("offer", "call"):
            self._offer(index, action)
            return
        if phase != "play":
            self.unjudged += 1
            game.apply(action)
            return
        if self.turn is None:
            self._open(index)
        assert self.turn is not None
        self.turn["taken"].append(str(action))
        before = game.hands[self.seat]
        epoch = game._epoch()
        laid = game.laid_down[self.seat]
        game.apply(action)
        if game._epoch() != epoch or game.is_terminal():  # the seat went out (or the round was cut off)
            removed = _removed(action)
            self._close(before - removed if removed is not None else before, True, laid or bool(removed))
        elif game.current_player() != self.seat or game.phase != "play":
            self._close(game.hands[self.seat], False, game.laid_down[self.seat])

    def finish(self) -> None:
        if self.turn is not None:
            g = self.game
            self._close(g.hands[self.seat], False, g.laid_down[self.seat])

    def _open(self, index: int) -> None:
        from solver.contract.advice import turn_actions

        game = self.game
        p = self.seat
        plan = game.turn_plan()
        if plan is None:  # the solver ran out of time: the hint's choice and no plan
            best_text, best_value, proven = str(self.best().action), None, False
        else:
            steps = turn_actions(game.table, plan, p) or ["pass"]
            distance = plan.distance or 0
            best_value = DISTANCE_POINTS * distance + plan.points_left
            best_text, proven = "; ".join(steps), str(plan.status) == "optimal"
        self.turn = {
            "index": index,
            "deal": self.deal(),
            "round": game.round,
            "taken": [],
            "best": best_text,
            "best_value": best_value,
            "proven": proven,
            "puzzle": _contract_puzzle(game, p, plan),
            "seen": Cards(game.pile),
        }

    def _close(self, hand: Cards, out: bool, laid: bool) -> None:
        from solver.contract import distance_to_contract

        turn = self.turn
        assert turn is not None
        self.turn = None
        game = self.game
        points = 0 if out else sum(game.rules.points(c) for c in hand)
        distance = 0
        if not laid and not out:
            try:
                distance = distance_to_contract(
                    hand, game.rules, turn["round"], seen=turn["seen"], time_limit=self.time_limit, options=False
                ).missing
            except SolverTimeout:
                distance = 0
        taken_value = DISTANCE_POINTS * distance + points
        best_value = turn["best_value"] if turn["best_value"] is not None else taken_value
        loss = max(0, taken_value - best_value)
        self.moves.append(
            Move(
                turn["index"],
                turn["deal"],
                "turn",
                "; ".join(turn["taken"]),
                turn["best"],
                taken_value,
                best_value,
                loss,
                turn["proven"],
                turn["puzzle"] if loss else None,
            )
        )

    def _offer(self, index: int, action: Any) -> None:
        from solver.contract import best_turn
        from solver.contract.actions import CCall, CTake
        from solver.contract.players import call_penalty, discard_on_offer
        from solver.contract.turn import call_decision

        game = self.game
        p = self.seat  # the player to move: the offer or the call is the seat's decision
        args, kwargs = discard_on_offer(game, self.time_limit)
        best_action = self.best().action
        wants = isinstance(best_action, (CTake, CCall))
        takes = isinstance(action, (CTake, CCall))
        try:
            if game.phase == "offer":
                plan = best_turn(*args, **kwargs)
                now, with_card = plan.distance, plan.distance_take
                proven = str(plan.status) == "optimal"
            else:
                call = call_decision(*args, penalty=call_penalty(game), **kwargs)
                now, with_card = call.distance, call.distance_call
                proven = True
        except SolverTimeout:
            now, with_card, proven = 0, 0, False
        if with_card is None:
            with_card = now
        value: dict[bool, float] = {True: DISTANCE_POINTS * with_card, False: DISTANCE_POINTS * now}
        if self.samples:
            value = self._expected_points(index)
            wants = value[True] < value[False]
            best_action = type(action)(p) if wants == takes else _other(action)
            proven = False  # a sample's mean: best found
        loss = max(0.0, value[takes] - value[wants])
        self.moves.append(
            Move(index, self.deal(), "offer", str(action), str(best_action), value[takes], value[wants], loss, proven)
        )
        game.apply(action)

    def _expected_points(self, index: int) -> dict[bool, float]:
        """The seat's mean penalty points for the round, taking (True) or not (False) the discard on offer,
        over ``samples`` deals resampled from the seat's view, both choices played on from the same deal
        with the same future by ``greedy`` players (paired deals)."""
        import random

        from solver.contract.actions import CCall, CDecline, CNoCall, CTake
        from solver.engine.players import GreedyPlayer

        game = self.game
        p = self.seat
        rng = random.Random(game.seed * 1_000_003 + index)
        choices = {True: CTake(p), False: CDecline(p)} if game.phase == "offer" else {True: CCall(p), False: CNoCall(p)}
        total = {True: 0.0, False: 0.0}
        for k in range(self.samples):
            deal = game.resample(p, rng)
            for want, choice in choices.items():
                g = deal.clone()
                before = g.totals[p]
                epoch = g._epoch()
                g.apply(choice)
                players = [GreedyPlayer(k * 31 + q) for q in range(g.num_players)]
                for _ in range(ROLLOUT_ACTIONS):
                    if g.is_terminal() or g._epoch() != epoch:
                        break
                    g.apply(players[g.current_player()].choose(g))
                ended = g.is_terminal() or g._epoch() != epoch
                held = sum(g.rules.points(c) for c in g.hands[p])
                total[want] += g.totals[p] - before if ended else held
        return {want: total[want] / self.samples for want in total}


def _other(action: Any) -> Any:
    """The other choice of an offer: take for decline, call for no call, and back."""
    from solver.contract.actions import CCall, CDecline, CNoCall, CTake

    other = {CTake: CDecline, CDecline: CTake, CCall: CNoCall, CNoCall: CCall}[type(action)]
    return other(action.player)


def _removed(action: Any) -> Cards | None:
    """The cards a Contract action takes out of the hand (None: none)."""
    from solver.contract.actions import CDiscard, CLayDown, CLayOff, CSwap

    if isinstance(action, (CDiscard, CSwap)):
        return Cards([action.card])
    if isinstance(action, CLayDown):
        return Cards(c for m in action.melds for c in m.cards)
    if isinstance(action, CLayOff):
        return Cards(action.cards.multiset)
    return None


def _contract_puzzle(game: Any, p: int, plan: Any) -> Any:
    """The turn's position as a Contract puzzle with the plan as its stated solution: a ``laydown`` puzzle
    when the plan lays down, a ``discard`` puzzle when it only discards; None otherwise (a player who has
    laid down, a barred discard, a last round played all at once: positions a puzzle file cannot state)."""
    from solver.melds import TableMeld
    from solver.puzzles import ContractPosition, Puzzle

    if plan is None or game.laid_down[p] or game.no_discard is not None or game.all_at_once():
        return None
    n = game.num_players
    table = tuple(TableMeld(t.meld, (t.owner - p) % n) for t in game.table)
    drawn = True if game.phase == "play" else None  # the turn's plan comes after the draw
    pos = ContractPosition(game.round, game.hands[p], table, False, None, Cards(game.pile), game.calls[p], drawn)
    meta: dict[str, Any] = {"source": "shanghai review"}
    if plan.lay_down:
        if plan.layoff is not None:
            new_table = [str(t.meld) for t in plan.layoff.table]
        else:
            new_table = [str(t.meld) for t in table] + [str(m) for m in plan.lay_down]
        meta.update(kind="laydown", solution=[str(m) for m in plan.lay_down], new_table=new_table)
        if plan.discard is not None:
            meta["discard"] = str(plan.discard)
        return Puzzle("contract", game.rules, pos, answer={"plan_points_left": plan.points_left}, meta=meta)
    if plan.discard is None or plan.layoff is not None:
        return None
    meta.update(kind="discard", solution=str(plan.discard))
    if plan.distance is not None:
        meta["distance_after"] = plan.distance
    return Puzzle("contract", game.rules, pos, answer={"plan_points_left": plan.points_left}, meta=meta)
