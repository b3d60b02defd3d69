"""Contract Shanghai as a game state: seven rounds of contracts, "Shanghai!" calls, lay-off, wild swaps.

The rules are ``../shared/rules/contract.md``. The turn is a small state
machine::

    first_discard (round start) -> offer -> [call ...] -> play -> ... -> next offer

``offer``: the player in turn takes the top discard or declines it. ``call``:
after a decline, the other players in turn order may call "Shanghai!"; the
first to call takes the card and a penalty card; then the player in turn
draws from the stock (automatically: there is no choice in it). ``play``:
lay down the contract, lay off, swap a wild, and finally discard.

Table melds always carry their wilds' roles, so a swap knows what a wild
stands for. Contract questions (can the hand make the contract? the best
lay-down) come from :mod:`solver.contract`; legality is checked with the
plain validator of :mod:`solver.melds` and :mod:`solver.contract.referee`.
The moves listed and checked (lay-offs, wild swaps, the discards allowed,
:meth:`~solver.contract.game_moves.ContractMoves.verify`) are the base class,
:class:`~solver.contract.game_moves.ContractMoves`.
"""

from __future__ import annotations

from functools import cache
from itertools import compress
from typing import Any, ClassVar

from solver.cards import ALL_CARDS, Card, Cards
from solver.contract.actions import (
    CCall,
    CDecline,
    CDiscard,
    CLayDown,
    CLayOff,
    CNoCall,
    ContractAction,
    CSwap,
    CTake,
    parse_action,
)
from solver.contract.api import LayDown, best_lay_down
from solver.contract.game_moves import ContractMoves, Phase
from solver.contract.search import hand_lay_down
from solver.contract.tablemelds import MeldCache, replaceable, unit, with_roles
from solver.contract.turn import AfterDraw, plan_after_draw
from solver.errors import IllegalActionError, SolverTimeout
from solver.melds import Meld, TableMeld, resolve_roles
from solver.rules import ContractRules

__all__ = [
    "CCall",
    "CDecline",
    "CDiscard",
    "CLayDown",
    "CLayOff",
    "CNoCall",
    "CSwap",
    "CTake",
    "ContractAction",
    "ContractGame",
]


# actions are frozen values: the engine lists the same objects each time (a player's choice is then
# found by identity in the listed actions)
@cache
def _discards(p: int) -> tuple[CDiscard, ...]:
    """Player ``p`` discarding each card, by card index (``compress`` picks the hand's)."""
    return tuple(CDiscard(p, c) for c in ALL_CARDS)


@cache
def _offer(p: int) -> tuple[CTake, CDecline]:
    return CTake(p), CDecline(p)


@cache
def _call(p: int) -> tuple[CCall, CNoCall]:
    return CCall(p), CNoCall(p)


class ContractGame(ContractMoves):
    """A game of Contract Shanghai: every round of the rule set's contract list.

    Engine options: ``max_rounds`` stops early (``1`` plays one round);
    ``turn_limit`` ends a round that has gone on for that many turns with
    no one out (everyone scores their hand), a guard against endless
    rounds between players who never lay down.
    """

    GAME: ClassVar[str] = "contract"
    rules: ContractRules

    def __init__(
        self,
        rules: ContractRules,
        num_players: int,
        seed: int = 0,
        *,
        max_rounds: int | None = None,
        turn_limit: int = 1000,
        time_limit: float = 2.0,
    ) -> None:
        super().__init__(rules, num_players, seed)
        if rules.deal * num_players + 1 >= len(rules.deck):
            raise IllegalActionError(f"{num_players} players x {rules.deal} cards is more than the deck holds")
        self.max_rounds = rules.rounds if max_rounds is None else min(max_rounds, rules.rounds)
        self.turn_limit = turn_limit
        self.time_limit = time_limit
        self.totals = [0] * num_players
        self.round = 0
        self.dealer = num_players - 1
        self.hands: list[Cards] = []
        self.stock: list[Card] = []
        self.pile: list[Card] = []
        self.table: list[TableMeld] = []
        self.laid_down: list[bool] = []
        self.laid_this_turn = False
        self.calls: list[int] = []
        self.in_turn = 0
        self.to_move = 0
        self.phase: Phase = "first_discard"
        self.call_queue: list[int] = []
        self.discarder: int | None = None
        self.idle = 0
        self.fewest: int | None = None  # once nobody draws, the fewest cards the hands have held together
        self.reshuffled = False
        self.exhausted = False
        # the discard pile last reshuffled into the stock (public: its cards, not their order) and, per
        # reshuffle of the round, the draws from that stock, (player, card) each (a card is known to
        # its drawer only)
        self.reshuffled_cards: Cards | None = None
        self.round_draws: list[list[tuple[int, Card]]] = []
        self.reshuffles = 0  # the reshuffles of the game so far (every round's)
        # the order the next reshuffled stock takes (top card last), given from outside (the OpenSpiel
        # game deals it as chance nodes); None: the game's own shuffle
        self.next_stock: list[Card] | None = None
        self.no_discard: Card | None = None
        self.turns = 0
        self.round_scores: list[list[int]] = []
        self._laydown_cache: dict[Cards, LayDown | None] = {}
        self._found: dict[Cards, tuple[Meld, ...] | None] = {}
        self._plans: dict[tuple[Any, ...], AfterDraw | None] = {}
        self._deck = Cards(rules.deck)
        self._melds = MeldCache(rules)
        self._start_round()

    # --- rounds and the stock ---------------------------------------------------------

    def _start_round(self) -> None:
        self.round += 1
        self.dealer = (self.dealer + 1) % self.num_players
        deck = list(self.rules.deck)
        self.rng.shuffle(deck)
        first = (self.dealer + 1) % self.num_players
        hands: list[list[Card]] = [[] for _ in range(self.num_players)]
        for _ in range(self.rules.deal):
            for k in range(self.num_players):
                hands[(first + k) % self.num_players].append(deck.pop())
        hands[first].append(deck.pop())
        self.hands = [Cards(h) for h in hands]
        self.stock = deck
        self.pile = []
        self.table = []
        self.laid_down = [False] * self.num_players
        self.calls = [0] * self.num_players
        self.in_turn = first
        self.to_move = first
        self.phase = "first_discard"
        self.discarder = None
        self.idle = 0
        self.fewest = None
        self.reshuffled = False
        self.exhausted = False
        self.reshuffled_cards = None
        self.round_draws = []
        self.no_discard = None
        self.turns = 0
        self.clear_caches()

    def clear_caches(self) -> None:
        """Forget the answers cached per hand and meld (after the state was edited by hand, as tests do)."""
        super().clear_caches()
        self._laydown_cache.clear()
        self._found.clear()
        self._plans.clear()
        self._melds.clear()

    def _note_exhausted(self) -> None:
        """Once the stock and the pile are both empty, nobody draws again this round (the rule book)."""
        if not self.stock and not self.pile:
            self.exhausted = True

    def _draw(self, player: int) -> Card | None:
        """One card from the stock for ``player``, reshuffling the discard pile when the stock is empty;
        None once the stock and the pile have both been empty (then the pile is never shuffled again)."""
        self._note_exhausted()
        if self.exhausted:
            return None
        if not self.stock:
            self.stock = self.pile
            self.pile = []
            self.rng.shuffle(self.stock)  # drawn even when the order is given: the seed's later shuffles stay
            if self.next_stock is not None:
                if Cards(self.next_stock) != Cards(self.stock):
                    raise IllegalActionError(f"the stock given, {Cards(self.next_stock)}, is not the pile's cards")
                self.stock, self.next_stock = list(self.next_stock), None
            self.reshuffles += 1
            self.reshuffled = True
            self.reshuffled_cards = Cards(self.stock)
            self.round_draws.append([])
        card = self.stock.pop()
        if self.round_draws:
            self.round_draws[-1].append((player, card))
        return card

    @property
    def drawn_since(self) -> list[tuple[int, Card]]:
        """The draws, (player, card) each, from the stock the round last reshuffled (none before a reshuffle)."""
        return self.round_draws[-1] if self.round_draws else []

    # --- the OpenSpiel shape ------------------------------------------------------------

    def current_player(self) -> int:
        return -1 if self.phase == "over" else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def lay_down_option(self, player: int | None = None) -> LayDown | None:
        """The solver's best legal lay-down for the player's hand now, or None.

        In the last round (``last_round_all_at_once``) the lay-down must take
        the whole hand, or all of it but one card, which is then discarded.
        A lay-down the solver cannot find within ``time_limit`` (a hand of
        20-odd cards in the last round) counts as none: it is not listed, but
        still legal when written out (the referee checks it, not the solver).
        """
        p = self.to_move if player is None else player
        hand = self.hands[p]
        if hand not in self._laydown_cache:
            try:
                found = best_lay_down(hand, self.rules, self.round, time_limit=self.time_limit)
            except SolverTimeout:
                found = None
            self._laydown_cache[hand] = found
        return self._laydown_cache[hand]

    def turn_plan(self) -> AfterDraw | None:
        """The whole-turn plan (:func:`solver.contract.turn.plan_after_draw`) for the player to move in the
        play phase, from this position on: lay down, lay off, swap, discard. None outside the play phase
        or when the solver finds no answer within ``time_limit``. Cached per hand, table and barred card."""
        if self.phase != "play":
            return None
        p = self.to_move
        melds_now = self.laid_down[p] and (not self.laid_this_turn or self.rules.layoff_same_turn)
        key = (p, self.hands[p], tuple(self.table), self.no_discard, melds_now, self.laid_down[p])
        if key not in self._plans:
            try:
                table = self.table if (melds_now or not self.laid_down[p]) else []
                self._plans[key] = plan_after_draw(
                    self.hands[p],
                    table,
                    self.rules,
                    self.round,
                    player=p,
                    laid_down=self.laid_down[p],
                    seen=Cards(self.pile),
                    barred=self.no_discard,
                    time_limit=self.time_limit,
                )
            except SolverTimeout:
                self._plans[key] = None
            self._legal_key = -1  # list the plan's lay-down from now on (see _some_lay_down)
        return self._plans[key]

    def legal_actions(self) -> list[ContractAction]:
        """The actions the player to move may take (see the module docstring)."""
        return super().legal_actions()

    def _legal_actions(self) -> list[ContractAction]:
        p = self.to_move
        if self.phase == "over":
            return []
        if self.phase == "first_discard":
            return list(compress(_discards(p), self.hands[p].counts))
        if self.phase == "offer":
            return list(_offer(p))
        if self.phase == "call":
            return list(_call(p))
        hand = self.hands[p]
        actions: list[ContractAction] = []
        if not self.laid_down[p]:
            melds = self._some_lay_down()
            if melds is not None:
                actions.append(CLayDown(p, melds))
        elif not self.laid_this_turn or self.rules.layoff_same_turn:
            actions.extend(self._layoffs(p))
            actions.extend(self._swaps(p))
        if not (self.all_at_once() and self.laid_down[p] and len(hand) > 1):
            actions.extend(compress(_discards(p), self._discard_mask(p)))
        return actions

    def _some_lay_down(self) -> tuple[Meld, ...] | None:
        """A lay-down of the contract from the hand, if there is one (the legal action listed).

        The exact search of the distance to contract, with no card still to
        come (every card outside the hand counted as seen), finds one fast
        and depends on the hand alone (cached per hand; :func:`hand_lay_down`
        is that search's answer, computed for the empty pool). The best lay-down
        (fewest points left, a CP-SAT model) is :meth:`lay_down_option`,
        which the solver player uses. In the last round the whole-hand rule
        needs the solver's answer.
        """
        if self.all_at_once():
            option = self.lay_down_option()
            return tuple(option.melds) if option is not None else None
        hand = self.hands[self.to_move]
        if hand not in self._found:
            self._found[hand] = hand_lay_down(hand, self.rules, self.rules.contract(self.round))
        if self._found[hand] is None:
            return None
        # once the whole-turn plan has been asked for (a hint, the solver player), its lay-down is the one
        # listed, so the hint names a listed action; planning is not forced on every listing (random play)
        p = self.to_move
        melds_now = self.laid_down[p] and (not self.laid_this_turn or self.rules.layoff_same_turn)
        plan = self._plans.get((p, hand, tuple(self.table), self.no_discard, melds_now, self.laid_down[p]))
        if plan is not None and plan.lay_down:
            return plan.lay_down
        return self._found[hand]

    def _apply(self, action: ContractAction) -> None:
        self._note_exhausted()
        self._carry_out(action)
        self._note_exhausted()

    def _carry_out(self, action: ContractAction) -> None:
        p = self.to_move
        if isinstance(action, CDiscard):
            self.hands[p] = self.hands[p] - unit(action.card)
            self.pile.append(action.card)
            self.discarder = p
            if self.rules.no_progress == "discard":
                self.idle = 0
            if not self.hands[p]:
                self._end_round(p)
                return
            self._next_turn()
        elif isinstance(action, CTake):
            self.hands[p] = self.hands[p] + unit(self.pile.pop())
            self.phase = "play"
        elif isinstance(action, CDecline):
            # every other player but the one who discarded the card may call it (the rule book)
            others = ((p + k) % self.num_players for k in range(1, self.num_players))
            self.call_queue = [q for q in others if q != self.discarder]
            self._ask_next_caller()
        elif isinstance(action, CCall):
            self.calls[p] += 1
            self.hands[p] = self.hands[p] + unit(self.pile.pop())
            penalty = self._draw(p)
            if penalty is not None:
                self.hands[p] = self.hands[p] + unit(penalty)
            self.call_queue = []
            self._draw_for_turn()
        elif isinstance(action, CNoCall):
            self._ask_next_caller()
        elif isinstance(action, CLayDown):
            spec = self.rules.meld_spec
            for meld in action.melds:
                resolved = resolve_roles(meld, spec)[1]
                self.table.append(TableMeld(with_roles(meld, resolved, self.rules), p))
            self.hands[p] = self.hands[p] - Cards(c for m in action.melds for c in m.cards)
            self.laid_down[p] = True
            self.laid_this_turn = True
            self._after_meld(p)
        elif isinstance(action, CLayOff):
            grown = self.grown(action.target, action.cards)
            assert grown is not None
            self.table[action.target] = TableMeld(grown, self.table[action.target].owner)
            self.hands[p] = self.hands[p] - action.cards.multiset
            self._after_meld(p)
        elif isinstance(action, CSwap):
            table = self._swap_result(action)
            assert table is not None
            self.table = table
            self.hands[p] = self.hands[p] - unit(action.card)
            self._after_meld(p)

    def _after_meld(self, p: int) -> None:
        self._laydown_cache.clear()
        if not self.hands[p]:
            self._end_round(p)

    def _ask_next_caller(self) -> None:
        while self.call_queue:
            q = self.call_queue.pop(0)
            if self.rules.max_calls is None or self.calls[q] < self.rules.max_calls:
                self.to_move = q
                self.phase = "call"
                return
        self._draw_for_turn()

    def _draw_for_turn(self) -> None:
        p = self.in_turn
        self.to_move = p
        card = self._draw(p)
        if card is not None:
            self.hands[p] = self.hands[p] + unit(card)
            if self.reshuffled:
                self.no_discard = card
        elif len(self.hands[p]) == 1 and not self.laid_down[p]:
            self._pass_turn()
            return
        self.phase = "play"

    def _pass_turn(self) -> None:
        """Nobody draws any more and a player who has not laid down holds one card: they pass (the rule
        book; there is no choice in it). A whole round of turns with no card leaving any hand ends the round
        (rule option ``no_progress``: :meth:`_stalled` under ``net``)."""
        if self.rules.no_progress == "discard":
            self.idle += 1
            if self.idle >= self.num_players:
                self._end_round(None)
                return
        self._next_turn()

    def _stalled(self) -> bool:
        """Once nobody draws, under ``no_progress = net``: after a turn, True (the round ended, everyone
        scoring their hand) if a whole round of turns has passed without the cards in hands falling below
        their fewest (a discard taken back or called keeps them as they were; a call adds one)."""
        total = sum(len(h) for h in self.hands)
        if self.fewest is None or total < self.fewest:
            self.fewest, self.idle = total, 0
            return False
        self.idle += 1
        if self.idle >= self.num_players:
            self._end_round(None)
            return True
        return False

    def _next_turn(self) -> None:
        if self.exhausted and self.rules.no_progress == "net" and self._stalled():
            return
        self.turns += 1
        if self.turns >= self.turn_limit:
            self._end_round(None)
            return
        self.in_turn = (self.in_turn + 1) % self.num_players
        self.to_move = self.in_turn
        self.no_discard = None
        self.laid_this_turn = False
        if self.pile:
            self.phase = "offer"
        else:
            self._draw_for_turn()

    def _end_round(self, winner: int | None) -> None:
        pts = [0 if p == winner else sum(self.rules.points(c) for c in self.hands[p]) for p in range(self.num_players)]
        self.round_scores.append(pts)
        for p in range(self.num_players):
            self.totals[p] += pts[p]
        if self.round >= self.max_rounds:
            self.phase = "over"
        else:
            self._start_round()

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "player": player,
            "round": self.round,
            "contract": " ".join(str(r) for r in self.rules.contract(self.round)),
            "hand": [c.code for c in self.hands[player]],  # a list of card codes, as every JSON answer (docs/json.md)
            "hand_sizes": [len(h) for h in self.hands],
            "table": [{"cards": str(t.meld), "owner": t.owner} for t in self.table],
            "discard": str(self.pile[-1]) if self.pile else None,
            "pile": len(self.pile),
            "stock": len(self.stock),
            "laid_down": list(self.laid_down),
            "calls": list(self.calls),
            "to_move": self.current_player(),
            "in_turn": self.in_turn,
            "phase": self.phase,
            "scores": self.scores(),
        }

    def parse_action(self, text: str) -> ContractAction:
        """The player to move's action written as ``text`` (see :mod:`solver.contract.actions`)."""
        return parse_action(text, self.to_move, self._find_wild)

    def _find_wild(self, target: int, card: Card) -> Card | None:
        """The first wild of meld ``target`` that ``card`` may replace (a swap written without its wild)."""
        if not 0 <= target < len(self.table):
            return None
        found = replaceable(self.table[target].meld, unit(card), self.rules.meld_spec)
        return found[0][0] if found else None

    def seen_cards(self, player: int) -> Cards:
        """Cards ``player`` has seen outside their hand: the table and the discard pile."""
        del player  # every player sees the same public cards
        return Cards(self.pile) + Cards(c for t in self.table for c in t.meld.cards)

    def all_cards(self) -> Cards:
        out = Cards(self.stock) + Cards(self.pile) + Cards(c for t in self.table for c in t.meld.cards)
        for h in self.hands:
            out = out + h
        return out

    def options(self) -> dict[str, Any]:
        opts: dict[str, Any] = {}
        if self.max_rounds != self.rules.rounds:
            opts["max_rounds"] = self.max_rounds
        if self.turn_limit != 1000:
            opts["turn_limit"] = self.turn_limit
        return opts

    # --- search support (see solver.engine.search) ----------------------------------

    def _epoch(self) -> int:
        return self.round

    def _note(self, action: Any) -> None:
        """A discard taken or called is public (a call's penalty card is not)."""
        if isinstance(action, (CTake, CCall)):
            self._gains.append((self.round, len(self.history), action.player, unit(self.pile[-1])))

    def _removed(self, action: Any) -> Cards | None:
        if isinstance(action, (CDiscard, CSwap)):
            return unit(action.card)
        if isinstance(action, CLayDown):
            return Cards(c for m in action.melds for c in m.cards)
        if isinstance(action, CLayOff):
            return action.cards.multiset
        return None

    def _stock_source(self, player: int) -> Cards | None:
        """After a reshuffle, the cards the stock is known to ``player`` to come from: the reshuffled
        pile less ``player``'s own draws from it since (None before a reshuffle)."""
        if self.reshuffled_cards is None:
            return None
        from solver.engine.search import floor_sub

        return floor_sub(self.reshuffled_cards, Cards(c for q, c in self.drawn_since if q == player))

    def _redeal(self, hands: list[Cards], stock: list[Card], rng: Any) -> None:
        """New hands and stock; a card barred from discard (drawn after a reshuffle) is redrawn."""
        redrawn = self.no_discard is not None and hands[self.in_turn] is not self.hands[self.in_turn]
        self.hands = hands
        self.stock = stock
        if redrawn:  # the observer did not see which card the player in turn drew
            self.no_discard = rng.choice(list(hands[self.in_turn]))
