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
from typing import TYPE_CHECKING, Any

from solver.cards import ALL_CARDS
from solver.envs.openspiel_deal import hidden_slots, install

if TYPE_CHECKING:
    from solver.envs.openspiel import ShanghaiState

__all__ = ["CHAIN_TRIES", "TRIES", "Judge", "fits", "replay", "resample"]

TRIES = 20
CHAIN_TRIES = 200
CHANCE = -1  # pyspiel.PlayerId.CHANCE
SEED = 4  # the seed's chance steps (solver.envs.openspiel.SEED_BYTES)


def resample(state: ShanghaiState, player: int, rng: random.Random) -> ShanghaiState:
    """A state ``player`` cannot tell from ``state``, its unseen cards dealt anew (module docstring)."""
    if state.turn is None or state.deal is not None or state.reshuffle is not None or state.start.value is None:
        return state.clone()  # type: ignore[no-any-return]
    groups = [g for g in _hidden(state, player) if len(g) >= 2]
    if not groups:
        return state.clone()  # type: ignore[no-any-return]
    seen = state.information_state_string(player)
    outcome = {k: a for k, (_, a) in enumerate(state.log)}
    judge = Judge(state, player)
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


def fits(state: ShanghaiState, player: int, outcomes: dict[int, int]) -> bool:
    """True if the chance ``outcomes`` (log index: card) fit the history ``player`` saw (:class:`Judge`)."""
    return Judge(state, player)(outcomes)


class Judge:
    """Whether chance outcomes fit the history a player saw, judged on the engine game alone.

    The current deal's engine actions are replayed from the deal's start with the new cards and must
    be legal. Only the other players' actions are checked (the player's own hand and every public
    card are the same, so theirs stay legal); a Manipulation play only under ``must_play``
    ``more_than_one`` (:meth:`~solver.manipulation.game.ManipulationGame._play_error`, without
    listing the position's plays: its cards, table and opening are public), and the Manipulation solver answers, cached by position (the table, the
    hand, opened or not), are shared by the deals one judge sees. No question of the env's action
    space is asked, so a deal is judged in a fraction of a replay's time; :func:`replay` then builds
    the state once.
    """

    def __init__(self, state: ShanghaiState, player: int) -> None:
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
        self.caches: tuple[dict[Any, Any], ...] = ({}, {}, {})

    def __call__(self, outcomes: dict[int, int]) -> bool:
        """True if the engine actions of the deal are legal with ``outcomes`` in place of the log's."""
        game: Any = self.start.clone()
        install(game, self.deal, [outcomes.get(self.last + i, d) for i, d in enumerate(self.dealt)])
        if self.manipulation:
            game._cache, game._questions, game._openings = self.caches
        pending = [[ALL_CARDS[outcomes.get(k, c)] for k, c in stock] for stock in self.stocks]
        for action in self.actions:
            if pending and getattr(game, "next_stock", None) is None:
                game.next_stock = pending[0]  # a Contract round's next reshuffle
            shuffles = getattr(game, "reshuffles", 0)
            if action.player != self.player:
                if self.manipulation and type(action).__name__ == "MPlay":
                    # its cards were public, its table valid and its opening public: only how many
                    # cards it must hold (``more_than_one``) asks about the rest of the hand
                    if game.rules.must_play == "more_than_one" and game._play_error(action) is not None:
                        return False
                elif not game.is_legal(action):
                    return False
            game.apply_listed(action)
            if pending and getattr(game, "reshuffles", 0) != shuffles:
                pending.pop(0)
        return True


def _hidden(state: ShanghaiState, player: int) -> list[list[int]]:
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


def _fitting(state: ShanghaiState, player: int, outcomes: dict[int, int], seen: str) -> ShanghaiState | None:
    """The game replayed with the chance ``outcomes``, or None when they contradict the history ``player`` saw."""
    try:
        new = replay(state, player, outcomes)
    except ValueError:  # IllegalActionError, or an action the new deal cannot encode
        return None
    return new if new.information_state_string(player) == seen else None


def _chain(
    state: ShanghaiState,
    player: int,
    groups: list[list[int]],
    outcome: dict[int, int],
    seen: str,
    rng: random.Random,
    judge: Judge,
) -> ShanghaiState:
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
        if judge(current):
            kept = dict(current)
        else:
            current[i], current[j] = current[j], current[i]
    new = _fitting(state, player, kept, seen) if kept is not None else None
    return new if new is not None else state.clone()


def replay(state: ShanghaiState, player: int, outcomes: dict[int, int]) -> ShanghaiState:
    """``state``'s game played again with the chance steps ``outcomes`` (log index: outcome) in place of
    the ones taken (module docstring)."""
    assert state.turn is not None
    history, log, completed = state.turn.game.history, state.log, state.completed
    snapshot = state.deal_start.value
    if snapshot is not None and all(k >= snapshot[0] for k in outcomes):  # from the current deal's start
        first: int = snapshot[0]
        new: ShanghaiState = snapshot[1].clone()
    else:
        first, new = 0, state.get_game().new_initial_state()
    group: list[int] = []  # the steps of the engine action in progress
    e = sum(1 for c in completed if c <= first)
    for k in range(first, len(log)):
        p, action = log[k]
        if p == CHANCE:
            new.apply_action(outcomes.get(k, action))
            continue
        group.append(action)
        if e < len(completed) and k + 1 == completed[e]:
            if p == player:
                _apply(new, group)
            else:
                assert new.turn is not None
                _apply(new, new.turn.codec.encode(new.turn.game, history[e]))
            group, e = [], e + 1
    if group and log[-1][0] == player:  # the player's selection in progress (another's is dropped)
        _apply(new, group)
    return new


def _apply(state: ShanghaiState, actions: list[int]) -> None:
    for a in actions:
        state.apply_action(int(a))


def _last_deal(state: ShanghaiState) -> int:
    """The log index of the current deal's first chance step (a reshuffle's steps start no deal)."""
    log, shuffles = state.log, set(state.shuffles)
    return max(k for k in range(len(log)) if _starts_deal(log, k) and k not in shuffles)


def _starts_deal(log: list[tuple[int, int]], k: int) -> bool:
    """True if step ``k`` is the first chance step of a deal or reshuffle: it follows the seed or a
    player's step."""
    return log[k][0] == CHANCE and (k == SEED or (k > SEED and log[k - 1][0] != CHANCE))


def _measure(names: list[str], states: int = 12) -> None:  # pragma: no cover - a measuring command
    """Print, per game, how often a resample dealt cards anew and its median time (docs/envs.md)."""
    import statistics
    import time

    import pyspiel

    for name in names:
        game = pyspiel.load_game(name)
        rng = random.Random(1)
        times: list[float] = []
        anew = later = 0
        for _ in range(states):
            state = game.new_initial_state()
            while state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            for _ in range(rng.choice((20, 60, 150, 300))):  # random steps (a later hand's deal included)
                if state.is_terminal():
                    break
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                else:
                    state.apply_action(rng.choice(state.legal_actions()))
            if state.is_terminal():
                continue
            assert state.turn is not None
            later += state.turn.game._epoch() > 1
            start = time.perf_counter()
            new = state.resample_from_infostate(state.current_player(), rng.random)
            times.append(time.perf_counter() - start)
            anew += new.history() != state.history()
        print(
            f"| `{name}` | {anew} of {len(times)} ({later} in a later hand) | {statistics.median(times) * 1000:.0f} ms |"
        )


if __name__ == "__main__":  # pragma: no cover
    import sys

    import solver.envs.openspiel  # noqa: F401  (registers the games)

    _measure(sys.argv[1:] or ["python_shanghai_zsy(hands=2)", "python_shanghai_contract(turn_limit=60)"])
