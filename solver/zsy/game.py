"""Zheng Shang You as a game state: tricks, passing, pit and tribute, scoring.

The rules are ``../shared/rules/zheng-shang-you.md``; combinations and their
comparison come from :mod:`solver.zsy` (the engine never re-implements
them). Seats are numbered in playing order: ``p + 1`` plays after ``p``.

>>> from solver.rules import ZsyRules
>>> g = ZsyGame(ZsyRules(), 4, seed=1)
>>> g.current_player(), len(g.hands[0]) + len(g.hands[1]) + len(g.hands[2]) + len(g.hands[3])
(0, 54)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from solver.cards import Card, Cards
from solver.engine.base import Game, SimpleAction
from solver.errors import IllegalActionError, ShanghaiError
from solver.rules import ZsyRules
from solver.zsy.combos import Combo, zsy_value
from solver.zsy.moves import LeadTable, legal_moves

__all__ = ["ZPlay", "ZPass", "Tribute", "ZsyGame"]


@dataclass(frozen=True, slots=True)
class ZPlay:
    """Play a combination."""

    player: int
    combo: Combo

    def __str__(self) -> str:
        return f"play {self.combo}"


_new = object.__new__
_SET_PLAYER, _SET_COMBO = vars(ZPlay)["player"].__set__, vars(ZPlay)["combo"].__set__


def _play(player: int, combo: Combo) -> ZPlay:
    """``ZPlay(player, combo)`` without the frozen dataclass's ``__init__`` (a lead table makes many)."""
    play = _new(ZPlay)
    _SET_PLAYER(play, player)
    _SET_COMBO(play, combo)
    return play


@dataclass(frozen=True, slots=True)
class ZPass(SimpleAction):
    """Pass (the player may still play later in the trick)."""

    WORD: ClassVar[str] = "pass"


TributeStep = Literal["offer", "take", "give"]


@dataclass(frozen=True, slots=True)
class Tribute:
    """A tribute step: a pit player offers their best card, a winner takes or gives one."""

    player: int
    step: TributeStep
    card: Card

    def __str__(self) -> str:
        return f"{self.step} {self.card}"


ZAction = ZPlay | ZPass | Tribute


class ZsyGame(Game):
    """A game of Zheng Shang You: hands until a player (or team) reaches the target.

    ``max_hands`` (engine option) ends the game after that many hands
    instead; ``max_hands=1`` is one hand, as self-play measures it. In
    teams6 a card is drawn and shown before the first deal and its holder
    leads (``shown``, in the observation and the record; a replayed record's
    ``shown`` must be the card its seed shows).
    """

    GAME: ClassVar[str] = "zsy"
    rules: ZsyRules
    time_limit: ClassVar[float] = 1.0  # seconds for each fewest-plays question of the solver player

    def __init__(
        self,
        rules: ZsyRules,
        num_players: int,
        seed: int = 0,
        *,
        max_hands: int | None = None,
        shown: str | None = None,
    ) -> None:
        super().__init__(rules, num_players, seed)
        if rules.teams == "pairs" and num_players != 4:
            raise IllegalActionError("the pairs variant takes 4 players")
        if rules.teams == "teams6" and num_players != 6:
            raise IllegalActionError("the teams6 variant takes 6 players")
        self.max_hands = max_hands
        self.totals = [0] * num_players if rules.teams == "none" else [0, 0]
        self.hand_number = 0
        self.hands: list[Cards] = []
        self.places: list[int] = []
        self.last_places: list[int] = []
        self.leader = 0
        self.trick: Combo | None = None
        self.trick_player = -1
        self.passes = 0
        self.to_move = 0
        self.phase: Literal["tribute", "trick", "over"] = "trick"
        self.tribute_queue: list[tuple[int, TributeStep]] = []
        self.offered: list[tuple[int, Card]] = []
        self.given: list[tuple[int, Card]] = []
        self.played = Cards()
        self.pending = Cards()
        self.shown: Card | None = None  # teams6: the card shown before the first deal
        # per player, every lead of their hand as plays, built at their first lead (see _plays)
        self._tables: list[LeadTable[ZPlay] | None] = [None] * num_players
        self._passes = tuple(ZPass(p) for p in range(num_players))  # actions are immutable: one each
        self._deal(first=True)
        if shown is not None:
            self._check_shown(shown)

    # --- dealing and tribute ---------------------------------------------------

    def _check_shown(self, shown: str) -> None:
        """A record's ``shown`` card must be the one this seed draws (the deal depends on it)."""
        try:
            card = Card.parse(str(shown))
        except ShanghaiError as exc:
            raise IllegalActionError(f"bad shown card: {exc}") from None
        if card != self.shown:
            seeded = f"this seed shows {self.shown}" if self.shown else "only teams6 shows a card"
            raise IllegalActionError(f"the record's shown card {card} does not match: {seeded}")

    def team(self, player: int) -> int:
        """The player's team (0 or 1) in the team variants, else the player."""
        return player % 2 if self.rules.teams != "none" else player

    def _deal(self, first: bool) -> None:
        self.hand_number += 1
        deck = list(self.rules.deck)
        self.rng.shuffle(deck)
        n = self.num_players
        start = dealer = 0  # the seat that gets the first card; the seat that leads
        if first and self.rules.teams == "teams6":
            # a card drawn at random and shown before the deal: its holder leads the first hand
            self.shown = self.rng.choice(deck)
            start = self.rng.randrange(n)
            dealer = (start + deck.index(self.shown)) % n
        elif not first:
            order = self.last_places
            start = dealer = order[4] if self.rules.teams == "teams6" else order[2]
        hands: list[list[Card]] = [[] for _ in range(n)]
        for i, card in enumerate(deck):
            hands[(start + i) % n].append(card)
        self.hands = [Cards(h) for h in hands]
        self.places = []
        self.leader = dealer
        self.trick = None
        self.trick_player = -1
        self.passes = 0
        self.offered = []
        self.given = []
        self.played = Cards()
        self.pending = Cards()
        if first:
            self._start_trick_phase()
            return
        last = self.last_places
        pit = [last[-2], last[-1]]
        self.tribute_queue = [
            (pit[0], "offer"),
            (pit[1], "offer"),
            (last[0], "take"),
            (last[0], "give"),
            (last[1], "give"),
            (pit[0], "take"),
        ]
        self.phase = "tribute"
        self.to_move = self.tribute_queue[0][0]

    def _start_trick_phase(self) -> None:
        self.phase = "trick"
        self.to_move = self.leader

    # --- the OpenSpiel shape -----------------------------------------------------

    def current_player(self) -> int:
        return -1 if self.phase == "over" else self.to_move

    def is_terminal(self) -> bool:
        return self.phase == "over"

    def _legal_actions(self) -> list[Any]:
        if self.phase == "over":
            return []
        p = self.to_move
        hand = self.hands[p]
        if self.phase == "tribute":
            step = self.tribute_queue[0][1]
            if step == "offer":
                top = max(zsy_value(c) for c in hand)
                return [Tribute(p, "offer", c) for c in hand.distinct() if zsy_value(c) == top]
            if step == "take":
                return [Tribute(p, "take", c) for c in self.pending.distinct()]
            return [Tribute(p, "give", c) for c in hand.distinct()]
        table = self._table(p)
        if self.trick is None:
            if table is None:
                table = self._tables[p] = LeadTable.build(hand, lambda m: _play(p, m))
            return list(table.items)
        if table is None:
            moves: list[Any] = [_play(p, m) for m in legal_moves(hand, self.trick, self.rules)]
        else:
            moves = table.replies(self.trick, self.rules)
        moves.append(self._passes[p])
        return moves

    def _table(self, p: int) -> LeadTable[ZPlay] | None:
        """Player ``p``'s lead table if it is of their current hand (hands are replaced, not edited)."""
        table = self._tables[p]
        if table is None or (table.hand is not self.hands[p] and table.hand != self.hands[p]):
            return None
        return table

    def verify(self, action: Any) -> None:
        p = self.to_move
        if self.phase == "tribute":
            if not isinstance(action, Tribute) or action.step != self.tribute_queue[0][1]:
                raise IllegalActionError(f"tribute: player {p} must {self.tribute_queue[0][1]} a card now")
            if action not in self.legal_actions():
                raise IllegalActionError(f"tribute: {action} is not allowed (choose from {self._choices()})")
            return
        if isinstance(action, ZPass):
            if self.trick is None:
                raise IllegalActionError("the leader cannot pass")
            return
        if not isinstance(action, ZPlay):
            raise IllegalActionError(f"{action} is not a play or a pass")
        if self._listed(action):
            return
        if not action.combo.cards <= self.hands[p]:
            raise IllegalActionError(f"player {p} does not hold {action.combo.cards}")
        if action.combo not in legal_moves(action.combo.cards, self.trick, self.rules):
            target = f" that beats {self.trick}" if self.trick else ""
            raise IllegalActionError(f"{action.combo} is not a legal combination{target}")

    def _choices(self) -> str:
        return " ".join(str(a.card) for a in self.legal_actions() if isinstance(a, Tribute))

    def _next_holder(self, p: int) -> int:
        for k in range(1, self.num_players + 1):
            q = (p + k) % self.num_players
            if self.hands[q]:
                return q
        return p

    def _apply(self, action: Any) -> None:
        p = self.to_move
        if isinstance(action, Tribute):
            self._apply_tribute(action)
            return
        if isinstance(action, ZPass):
            self.passes += 1
        else:
            cards = action.combo.cards
            table = self._table(p)
            hand = self.hands[p] = self.hands[p] - cards
            if table is not None:  # the smaller hand's leads are a filter of the larger one's
                self._tables[p] = table.without(cards, hand)
            self.played = self.played + cards
            self.trick = action.combo
            self.trick_player = p
            self.passes = 0
            if not hand:
                self.places.append(p)
        holders = [q for q, h in enumerate(self.hands) if h]
        if len(holders) <= 1:
            self.places.extend(holders)
            self._end_hand()
            return
        # everyone else still holding cards has passed since the last play: clear the trick
        others = len(holders) - (self.trick_player in holders)
        if self.passes >= others:
            self.trick = None
            self.passes = 0
            leader = self.trick_player
            self.to_move = leader if self.hands[leader] else self._next_holder(leader)
            return
        self.to_move = self._next_holder(p)

    def _apply_tribute(self, action: Tribute) -> None:
        p, step = self.tribute_queue.pop(0)
        card = Cards([action.card])
        last = self.last_places
        if step in ("offer", "give"):
            self.hands[p] = self.hands[p] - card
            self.pending = self.pending + card
            (self.offered if step == "offer" else self.given).append((p, action.card))
        else:
            # the taker gets the chosen card, the other receiver the remaining one:
            # offered cards go to the previous winner and second, given ones to the pit
            pool = [c for _, c in (self.given if self.given else self.offered)]
            pool.remove(action.card)
            other = last[1] if not self.given else last[-1]
            self.hands[p] = self.hands[p] + card
            self.hands[other] = self.hands[other] + Cards(pool)
            self.pending = Cards()
        if self.tribute_queue:
            self.to_move = self.tribute_queue[0][0]
        else:
            self._start_trick_phase()

    def _end_hand(self) -> None:
        self.last_places = list(self.places)
        self._score_hand(self.places)
        done = any(t >= self.rules.target for t in self.totals)
        if self.max_hands is not None and self.hand_number >= self.max_hands:
            done = True
        if done:
            self.phase = "over"
            self.trick = None
            return
        self._deal(first=False)

    def hand_points(self, places: list[int]) -> list[int]:
        """Points of one finished hand per scoring unit (player, or team in the variants)."""
        if self.rules.teams == "teams6":
            return self._teams6_points(places)
        points = [0] * self.num_players
        points[places[0]] += 2
        points[places[1]] += 1
        if self.rules.teams == "pairs":
            return [points[0] + points[2], points[1] + points[3]]
        return points

    def _teams6_points(self, places: list[int]) -> list[int]:
        team = [self.team(p) for p in places]
        out = [0, 0]
        top = team[0]
        if team[0] == team[1] == team[2]:
            out[top] = 10
            return out
        if team[0] == team[1]:
            out[top] = 5
            if team[-1] == top:  # the team's third player is last
                out[1 - top] += 2
            return out
        out[team[0]] += 3
        out[team[1]] += 2
        out[1 - team[-1]] += 2
        return out

    def _score_hand(self, places: list[int]) -> None:
        for unit, pts in enumerate(self.hand_points(places)):
            self.totals[unit] += pts

    def scores(self) -> list[int]:
        """Each player's score (in the team variants, their team's score)."""
        if self.rules.teams == "none":
            return list(self.totals)
        return [self.totals[self.team(p)] for p in range(self.num_players)]

    def winners(self) -> list[int]:
        if self.phase != "over":
            return []
        scores = self.scores()
        best = max(scores)
        return [p for p in range(self.num_players) if scores[p] == best]

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "game": self.GAME,
            "player": player,
            "hand": [c.code for c in self.hands[player]],  # a list of card codes, as every JSON answer (docs/json.md)
            "hand_sizes": [len(h) for h in self.hands],
            "to_move": self.current_player(),
            "phase": self.phase,
            "trick": str(self.trick) if self.trick else None,
            "trick_player": self.trick_player if self.trick else None,
            "places": list(self.places),
            "scores": self.scores(),
            "hand_number": self.hand_number,
            "offered": [str(c) for _, c in self.offered],
            "given": [str(c) for _, c in self.given],
            "shown": str(self.shown) if self.shown is not None else None,
        }

    def parse_action(self, text: str) -> Any:
        p = self.to_move
        word, _, rest = text.strip().partition(" ")
        word = word.lower()
        try:
            if word == "pass":
                return ZPass(p)
            if word == "play":
                return ZPlay(p, Combo.parse(rest))
            if word in ("offer", "take", "give"):
                return Tribute(p, word, Card.parse(rest))  # type: ignore[arg-type]
        except ShanghaiError as exc:
            raise IllegalActionError(f"bad action {text!r}: {exc}") from None
        raise IllegalActionError(f"unknown action {text!r} (play COMBO, pass, offer/take/give CARD)")

    def all_cards(self) -> Cards:
        out = self.played + self.pending
        for h in self.hands:
            out = out + h
        return out

    def options(self) -> dict[str, Any]:
        """``max_hands`` when set, and in teams6 the ``shown`` card (replay checks it against the seed)."""
        out: dict[str, Any] = {"max_hands": self.max_hands} if self.max_hands is not None else {}
        if self.shown is not None:
            out["shown"] = str(self.shown)
        return out

    # --- search support (see solver.engine.search) ----------------------------------

    def _note(self, action: Any) -> None:
        """A tribute taken is public: the taker's card and the other receiver's remaining one."""
        if isinstance(action, Tribute) and action.step == "take":
            pool = Cards(c for _, c in (self.given if self.given else self.offered))
            other = self.last_places[1] if not self.given else self.last_places[-1]
            index = len(self.history)
            self._gains.append((self.hand_number, index, action.player, Cards([action.card])))
            self._gains.append((self.hand_number, index, other, pool - Cards([action.card])))

    def _removed(self, action: Any) -> Cards | None:
        if isinstance(action, ZPlay):
            return action.combo.cards
        if isinstance(action, Tribute) and action.step != "take":
            return Cards([action.card])
        return None
