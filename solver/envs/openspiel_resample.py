"""``resample_from_infostate`` for the OpenSpiel games: a state whose history replays to it.

The cards of the current deal that the player has not seen
(:func:`solver.envs.openspiel_deal.hidden_slots`) are dealt among their
slots anew, uniformly, and so are the slots of each of the round's
Contract reshuffles that the player did not draw (the pile's cards are
public, their order is not); the game is replayed from the state kept
where the current deal began (``ShanghaiState.deal_start``: the same seed
and earlier deals as taken), with the new deal, the player's own
steps as taken (their selections and cancels are in their information
state), every other player's engine actions by their index paths
(:meth:`~solver.envs.turn.Codec.encode`: another player's picks and
cancels are private to them) and no selection in progress for another
player. The result is a state of the game reached by its own history,
so ``game.new_initial_state()`` and ``apply_action`` over its
``history()`` give it again.

A new deal is kept only if it fits the history: some actions tell more
than the cards they show (a Zheng Shang You tribute is the highest card;
a Manipulation draw says the player could not play), and a deal that
contradicts them is dealt again, up to :data:`TRIES` times. A deal is
judged on the engine game alone (:class:`Judge`: the deal's engine
actions replayed with the new cards, the other players' checked for
legality), and only the deal kept is replayed through the action space
(and its information state compared, as a guard). When none of those fits, a
Markov chain over the deals that fit, started from the true deal, swaps
hidden cards (:func:`_chain`, :data:`CHAIN_TRIES` proposals), so the true
hidden cards come back only when no swap fits the history.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, Protocol, Self, TypeVar

from solver.cards import ALL_CARDS, Card, Cards
from solver.engine.search import floor_sub
from solver.envs import openspiel_exact as exact
from solver.envs.openspiel_deal import Deal, follow_gains, hidden_slots, install
from solver.envs.turn import Turn

__all__ = ["CHAIN_TRIES", "TRIES", "Judge", "ResampleState", "fits", "replay", "resample"]


class ResampleState(Protocol):
    """What a resample reads and writes of an OpenSpiel state: :class:`solver.envs.openspiel.S`
    (which imports this module: the resample names the members it uses, not the class). The kept
    values (``start``, ``deal_start``, ``judges``) and the rule parameters are the state's own types."""

    turn: Turn | None
    deal: Deal | None
    reshuffle: Any
    start: Any
    deal_start: Any
    judges: Any
    params: Any
    log: list[tuple[int, int]]
    completed: list[int]
    shuffles: list[int]
    started: int
    trusted: bool
    known: Any

    def clone(self) -> Self: ...
    def apply_action(self, action: int) -> None: ...
    def information_state_string(self, player: int) -> str: ...
    def get_game(self) -> Any: ...


S = TypeVar("S", bound=ResampleState)

TRIES = 20
CHAIN_TRIES = 200
COUNTS: Counter[str] = Counter()  # resamples drawn exactly / by the chain (what the measuring command prints)
CHANCE = -1  # pyspiel.PlayerId.CHANCE
SEED = 4  # the seed's chance steps (solver.envs.openspiel.SEED_BYTES)


def resample(state: S, player: int, rng: random.Random) -> S:
    """A state ``player`` cannot tell from ``state``, its unseen cards dealt anew (module docstring)."""
    if state.turn is None or state.deal is not None or state.reshuffle is not None or state.start.value is None:
        return state.clone()
    judges = state.judges.value  # (one state asked again, as a search asks once a simulation)
    if judges.get("at") != len(state.log):
        judges.clear()  # (the state moved on)
        judges["at"] = len(state.log)
    groups = judges.get(("groups", player))
    if groups is None:
        groups = judges["groups", player] = [g for g in _hidden(state, player) if len(g) >= 2]
    if not groups:
        return state.clone()
    seen = state.information_state_string(player)
    outcome = {k: a for k, (_, a) in enumerate(state.log)}
    judge = judges.get(player)
    if judge is None:
        judge = judges[player] = Judge(state, player)
    if judge.manipulation and not judge.stocks:  # the exact sampler (openspiel_exact)
        drawn = _exact(groups, outcome, judge, rng)
        new = _fitting(state, player, drawn, seen) if drawn is not None else None
        COUNTS["exact" if new is not None else "chain"] += 1
        return new if new is not None else _chain(state, player, groups, outcome, seen, rng, judge)
    for _ in range(TRIES):
        new_outcomes: dict[int, int] = {}
        for group in groups:
            cards = [outcome[k] for k in group]
            rng.shuffle(cards)
            new_outcomes.update(zip(group, cards))
        if judge(new_outcomes):
            new = _fitting(state, player, new_outcomes, seen)
            if new is not None:
                return new
    return _chain(state, player, groups, outcome, seen, rng, judge)


def _exact(groups: list[list[int]], outcome: dict[int, int], judge: Judge, rng: random.Random) -> dict[int, int] | None:
    """Each group's cards dealt anew by :func:`solver.envs.openspiel_exact.sample` (the judge's checks),
    or None when a group's draw ran past its budget."""
    drawn: dict[int, int] = {}
    for group in groups:
        got = exact.sample(group, [outcome[k] for k in group], judge.slots, judge, rng, judge.forbidden)
        if got is None:
            return None
        drawn.update(got)
    return drawn


def fits(state: ResampleState, player: int, outcomes: dict[int, int]) -> bool:
    """True if the chance ``outcomes`` (log index: card) fit the history ``player`` saw (:class:`Judge`)."""
    return Judge(state, player)(outcomes)


class Judge:
    """Whether chance outcomes fit the history a player saw, judged on the engine game alone.

    Only the other players' actions can contradict a deal (the player's own hand and every public
    card are the same, so theirs stay legal). The judge follows the true deal once: before each
    other player's action that asks about hidden cards it keeps the engine game as it stood (a
    *check*) and which slots the mover's hand then held (a card is followed from its slot as
    :func:`~solver.envs.openspiel_deal.hidden_slots` follows it). A deal is judged by putting, at
    each check, the mover's hand as the deal makes it (the held slots' new cards, the rest as they
    were) and asking the engine whether the action is legal; nothing is replayed. (An action's
    legality asks only its mover's hand and public facts: a Zheng Shang You tribute is the giver's
    highest card, a Manipulation draw or pass says the mover could not play, the cards of a play
    were the mover's; ``tests/envs/test_resample.py`` compares the verdicts with a whole replay.)
    Checked: every other player's action, except a Manipulation play (its cards, table and
    opening are public), whose count is checked under ``must_play`` ``more_than_one`` only
    (:meth:`~solver.manipulation.game.ManipulationGame.required`). The Manipulation solver answers,
    cached by position (the table, the hand, opened or not), are shared by every check and deal one
    judge sees. A Contract action's legality asks nothing hidden (its cards are public and were the
    mover's; a lay-down's rules, a discard's, a lay-off's read those cards, the table and the hand's
    size: :meth:`~solver.contract.game.ContractGame.verify`), so every Contract deal fits; a round
    of another game with a reshuffle would be replayed on the engine game (:meth:`_replayed`).
    :func:`replay` then builds the kept deal's state once.
    """

    def __init__(self, state: ResampleState, player: int) -> None:
        assert state.turn is not None
        self.player = player
        self.deal, self.dealt, self.start = state.start.value
        self.last = _last_deal(state)
        log = state.log
        self.stocks: list[list[tuple[int, int]]] = []  # per reshuffle of the round: (log index, card)
        for f in (k for k in state.shuffles if k > self.last):
            end = next((k for k in range(f, len(log)) if log[k][0] != CHANCE), len(log))
            self.stocks.append([(k, log[k][1]) for k in range(f, end)])
        self.actions = state.turn.game.history[state.started :]
        self.manipulation = state.params.name == "manipulation"
        self.contract = state.params.name == "contract"
        self.caches: tuple[dict[Any, Any], ...] = ({}, {}, {})
        # per check: the game before the action, the action, and per other player the hand's cards
        # (the log index of the slot each came from, None for no slot, and the true card)
        self.checks: list[tuple[Any, Any, dict[int, list[tuple[int | None, Card]]]]] = []
        self.slots: list[set[int]] = []  # per check, the slots its hands hold
        if not self.stocks and not self.contract:
            self._follow()
        self.forbidden = exact.forbidden(self.checks) if self.manipulation else []
        self.order = list(range(len(self.checks)))  # the order the checks are asked in
        self.verdicts: dict[tuple[Any, ...], bool] = {}  # (check, the movers' hands): the verdict

    def _follow(self) -> None:
        """Keep the checks along the true deal (class docstring)."""
        game: Any = self.start.clone()
        deal, player = self.deal, self.player
        held: list[list[tuple[int | None, Card]]] = []
        slot = 0
        for q, n in enumerate(deal.hand_slots):
            held.append([(self.last + slot + k, ALL_CARDS[self.dealt[slot + k]]) for k in range(n)])
            held[q].extend((None, c) for c in deal.fixed[q])
            slot += n
        stock = [self.last + k for k in range(slot, slot + deal.stock_slots)]
        for action in self.actions:
            if action.player != player and self._asks(game, action):
                check = game.clone()
                if self.manipulation:
                    check._cache, check._questions, check._openings = self.caches
                cards = {action.player: list(held[action.player])}  # legality asks the mover's hand only
                self.checks.append((check, action, cards))
                self.slots.append({k for h in cards.values() for k, _ in h if k is not None})
            hands, before = list(game.hands), list(getattr(game, "stock", ()))
            pile = Cards(getattr(game, "pile", ()))
            game.apply_listed(action)
            after = list(getattr(game, "stock", ()))
            popped = list(zip(stock[len(after) :], before[len(after) :]))
            del stock[len(after) :]
            follow_gains(
                held, hands, game, popped, action.player, None, floor_sub(pile, Cards(getattr(game, "pile", ())))
            )

    def _asks(self, game: Any, action: Any) -> bool:
        """True if the legality of ``action`` (another player's) may depend on hidden cards."""
        if self.manipulation and type(action).__name__ == "MPlay":
            return bool(game.rules.must_play == "more_than_one")
        if self.manipulation:  # a draw or pass: under must_play never its legality asks no hand
            return bool(game.rules.must_play != "never")
        return True

    def __call__(self, outcomes: dict[int, int], changed: tuple[int, ...] = ()) -> bool:
        """True if the engine actions of the deal are legal with ``outcomes`` in place of the log's.

        ``changed``: the log indexes in which ``outcomes`` differ from a deal known to fit; only the
        checks whose hands hold one of them are asked (the others are as in that deal).
        """
        if self.contract:
            return True  # (class docstring)
        if self.stocks:
            return self._replayed(outcomes)
        for n in self.order:  # the check that failed last is asked first (every check must pass)
            if changed and not any(k in self.slots[n] for k in changed):
                continue
            game, action, cards = self.checks[n]
            hands = {
                q: [c if k is None or k not in outcomes else ALL_CARDS[outcomes[k]] for k, c in held]
                for q, held in cards.items()
            }
            key = (n, *(tuple(sorted(c.index for c in h)) for h in hands.values()))
            verdict = self.verdicts.get(key)
            if verdict is None:
                verdict = self.verdicts[key] = self._asked(game, action, hands)
            if not verdict:
                self.order.remove(n)
                self.order.insert(0, n)
                return False
        return True

    def _asked(self, game: Any, action: Any, hands: dict[int, list[Card]]) -> bool:
        """Whether ``action`` is legal in the check's ``game`` with the movers' ``hands``."""
        for q, hand in hands.items():
            game.hands[q] = Cards(hand)
        game._legal_key = -1  # the listing cache is per position, and the hands changed
        if self.manipulation and type(action).__name__ == "MPlay":
            played = len(Cards(c for m in action.table for c in m.cards) - game._table_cards())
            return bool(played >= game.required())
        return bool(game.is_legal(action))

    def _replayed(self, outcomes: dict[int, int]) -> bool:
        """The deal's engine actions replayed on the engine game with ``outcomes``: the other players'
        legal (a round with a reshuffle, whose stocks' slots the checks do not follow)."""
        game: Any = self.start.clone()
        install(game, self.deal, [outcomes.get(self.last + i, d) for i, d in enumerate(self.dealt)])
        pending = [[ALL_CARDS[outcomes.get(k, c)] for k, c in stock] for stock in self.stocks]
        for action in self.actions:
            if pending and getattr(game, "next_stock", None) is None:
                game.next_stock = pending[0]  # a Contract round's next reshuffle
            shuffles = getattr(game, "reshuffles", 0)
            if action.player != self.player and not game.is_legal(action):
                return False
            game.apply_listed(action)
            if pending and getattr(game, "reshuffles", 0) != shuffles:
                pending.pop(0)
        return True


def _hidden(state: ResampleState, player: int) -> list[list[int]]:
    """The chance steps (log indexes) whose cards ``player`` has not seen, in groups whose cards may be
    dealt among themselves: the current deal's hidden slots, and per reshuffled stock of the current
    round (Contract) the slots ``player`` did not draw (its cards are the public pile's, their order
    is not; an earlier stock of the round was drawn to its end, by the other players in part)."""
    assert state.turn is not None
    deal, dealt, start = state.start.value
    last = _last_deal(state)
    firsts = [k for k in state.shuffles if k > last]  # this round's reshuffles, each with its draws
    sizes = [
        next((k for k in range(f, len(state.log)) if state.log[k][0] != CHANCE), len(state.log)) - f for f in firsts
    ]
    stocks = [[ALL_CARDS[state.log[k][1]] for k in range(f, f + n)] for f, n in zip(firsts, sizes)]
    actions = state.turn.game.history[state.started :]
    groups = [[last + s for s in hidden_slots(start, deal, dealt, actions, player, stocks)]]
    round_draws = list(getattr(state.turn.game, "round_draws", ()))
    if len(firsts) != len(round_draws):
        return groups
    for first, size, draws in zip(firsts, sizes, round_draws):
        top = [state.log[first + size - 1 - k][1] for k in range(len(draws))]
        if len(draws) <= size and top == [c.index for _, c in draws]:  # the k-th draw took the k-th slot from the top
            mine = {first + size - 1 - k for k, (q, _) in enumerate(draws) if q == player}
            groups.append([k for k in range(first, first + size) if k not in mine])
    return groups


def _fitting(state: S, player: int, outcomes: dict[int, int], seen: str) -> S | None:
    """The game replayed with the chance ``outcomes``, or None when they contradict the history ``player`` saw."""
    try:
        new = replay(state, player, outcomes)
    except ValueError:  # IllegalActionError, or an action the new deal cannot encode
        return None
    return new if new.information_state_string(player) == seen else None


def _chain(
    state: S,
    player: int,
    groups: list[list[int]],
    outcome: dict[int, int],
    seen: str,
    rng: random.Random,
    judge: Judge,
) -> S:
    """A Metropolis chain over the deals that fit the history, started from the true deal.

    Each step proposes swapping the cards of two hidden slots of one group, the pair drawn uniformly
    among all such pairs (the proposal does not depend on the deal, so it is symmetric), and keeps
    the swap when the replay still fits. The uniform distribution over the deals that fit is then
    stationary, as the chance model conditioned on the history is (every deal has the same chance
    probability). :data:`CHAIN_TRIES` proposals are made (a count, not a time, so the answer does
    not depend on load); the last deal kept is returned. When no swap fits, the true deal is the
    only one the chain reached, and the state itself comes back.
    """
    pairs = [len(g) * (len(g) - 1) for g in groups]
    current = {k: outcome[k] for g in groups for k in g}
    kept: dict[int, int] | None = None
    for _ in range(CHAIN_TRIES):
        group = rng.choices(groups, pairs)[0]
        i, j = rng.sample(group, 2)
        if current[i] == current[j]:
            continue  # the same card (two decks): the same deal
        current[i], current[j] = current[j], current[i]
        if judge(current, (i, j)):
            kept = dict(current)
        else:
            current[i], current[j] = current[j], current[i]
    new = _fitting(state, player, kept, seen) if kept is not None else None
    return new if new is not None else state.clone()


def replay(state: S, player: int, outcomes: dict[int, int]) -> S:
    """``state``'s game played again with the chance steps ``outcomes`` (log index: outcome) in place of
    the ones taken (module docstring)."""
    assert state.turn is not None
    history, log, completed = state.turn.game.history, state.log, state.completed
    snapshot = state.deal_start.value
    if snapshot is not None and all(k >= snapshot[0] for k in outcomes):  # from the current deal's start
        first: int = snapshot[0]
        new: S = snapshot[1].clone()
    else:
        first, new = 0, state.get_game().new_initial_state()
    e = sum(1 for c in completed if c <= first)
    new.trusted = True  # every step below was legal (taken, or another player's legal action's path)
    try:
        _replay_from(new, player, outcomes, first, e, history, log, completed)
    finally:
        new.trusted = False
    return new


def _replay_from(
    new: ResampleState,
    player: int,
    outcomes: dict[int, int],
    first: int,
    e: int,
    history: list[Any],
    log: list[tuple[int, int]],
    completed: list[int],
) -> None:
    """:func:`replay`'s steps from log index ``first`` (the ``e``-th engine action) on."""
    group: list[int] = []  # the steps of the engine action in progress
    for k in range(first, len(log)):
        p, action = log[k]
        if p == CHANCE:
            new.apply_action(outcomes.get(k, action))
            continue
        group.append(action)
        if e < len(completed) and k + 1 == completed[e]:
            assert new.turn is not None
            path = group if p == player else new.turn.codec.encode(new.turn.game, history[e])
            _apply(new, path[:-1])
            new.known = history[e]  # the last step completes it: carried out as taken (no solver asked)
            try:
                new.apply_action(int(path[-1]))
            finally:
                new.known = None
            group, e = [], e + 1
    if group and log[-1][0] == player:  # the player's selection in progress (another's is dropped)
        _apply(new, group)


def _apply(state: ResampleState, actions: list[int]) -> None:
    for a in actions:
        state.apply_action(int(a))


def _last_deal(state: ResampleState) -> int:
    """The log index of the current deal's first chance step (a reshuffle's steps start no deal)."""
    log, shuffles = state.log, set(state.shuffles)
    return max(k for k in range(len(log)) if _starts_deal(log, k) and k not in shuffles)


def _starts_deal(log: list[tuple[int, int]], k: int) -> bool:
    """True if step ``k`` is the first chance step of a deal or reshuffle: it follows the seed or a
    player's step."""
    return log[k][0] == CHANCE and (k == SEED or (k > SEED and log[k - 1][0] != CHANCE))
