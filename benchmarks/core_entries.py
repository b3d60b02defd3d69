"""The compiled core's entry points, reached through the public API, for the fuzz run and the RSS check.

Each :class:`Entry` names a public function the native code speeds (one of
:data:`solver.native.CORES` owns it), draws its arguments from a
:class:`Source` (random numbers, or a fuzzer's bytes) and calls it, giving
a plain comparable value. :func:`differ` runs one input on both paths
(native as the library decides, then inside :func:`solver.native.pure`)
and says how they differ: different answers, different typed errors, or a
crash (any exception that is not one of the library's typed errors). The
list is generic: whichever compiled modules are built are compared; where a
game's module is absent only its pure path runs (no crash, typed errors
only), and :func:`coverage` says so.

Inputs are small (the pure path is the oracle and must keep up) and are
sometimes bad on purpose (more copies than the decks hold, a card from
outside the game's deck), which must give the same typed ``ValueError``
subclass on both paths, checked in Python before anything crosses.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from solver import native
from solver.cards import Card, Cards
from solver.errors import ShanghaiError, SolverTimeout

__all__ = [
    "ENTRIES",
    "Entry",
    "Outcome",
    "RandomSource",
    "Source",
    "coverage",
    "differ",
    "outcome",
]


class Source(Protocol):
    """Where an input's choices come from: a seeded generator, or a fuzzer's bytes."""

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1`` (``n`` >= 1)."""
        ...


class RandomSource:
    """Choices from a seeded :class:`random.Random`."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def below(self, n: int) -> int:
        """A number from 0 to ``n - 1``."""
        return self.rng.randrange(n)


def _pick(src: Source, items: Sequence[Any]) -> Any:
    return items[src.below(len(items))]


def _cards(src: Source, deck: Cards, most: int) -> Cards:
    """Up to ``most`` cards: drawn from ``deck`` without replacement, or (one time in eight) from
    every card with replacement, which may hold more copies than the decks do or a card outside them."""
    n = src.below(most + 1)
    if src.below(8) == 0:
        every = [Card.parse(t) for t in ("AS", "KH", "7D", "2C", "10S", "JK", "RJ", "BJ")]
        universe = sorted(set(deck), key=str) + every
        return Cards([_pick(src, universe) for _ in range(n)])
    pool = [c for c, k in sorted(deck.items(), key=lambda ck: str(ck[0])) for _ in range(k)]
    out = []
    for _ in range(min(n, len(pool))):
        out.append(pool.pop(src.below(len(pool))))
    return Cards(out)


# --- the arguments of each game ------------------------------------------------------------------


def _manipulation_args(src: Source) -> tuple[Any, ...]:
    from benchmarks.positions import random_position
    from solver.rules import ManipulationRules

    rules = ManipulationRules(
        decks=1 + src.below(3), ace=_pick(src, ("low", "high", "both")), jokers=_pick(src, (0, 0, 1, 2, 4))
    )
    table, hand = random_position(rules, src.below(31), src.below(13), src.below(1 << 16))
    if src.below(8) == 0:  # a bad hand now and then: extra copies, foreign cards
        hand = hand + _cards(src, rules.deck, 4)
    return table, hand, rules


def _zsy_args(src: Source) -> tuple[Any, ...]:
    from solver.rules import ZsyRules

    rules = ZsyRules(bombs=bool(src.below(2)))
    hand = _cards(src, rules.deck, 10)
    return hand, rules


def _zsy_beat_args(src: Source) -> tuple[Any, ...]:
    from solver.zsy import legal_moves

    hand, rules = _zsy_args(src)
    to_beat = None
    if src.below(4):
        with native.pure():  # the combination to beat, from another small hand (the oracle's moves)
            other = legal_moves(_cards(src, rules.deck, 6), None, rules)
        to_beat = _pick(src, other) if other else None
    return hand, to_beat, rules


def _zsy_endgame_args(src: Source) -> tuple[Any, ...]:
    hand, to_beat, rules = _zsy_beat_args(src)
    return hand, _cards(src, rules.deck, 6), to_beat, rules


def _contract_args(src: Source) -> tuple[Any, ...]:
    from solver.rules import ContractRules

    rules = ContractRules(decks=1 + src.below(2), jokers=_pick(src, (0, 0, 2)))
    hand = _cards(src, rules.deck, 13)
    return hand, rules, 1 + src.below(len(rules.contracts))


def _contract_pool_args(src: Source) -> tuple[Any, ...]:
    hand, rules, round_ = _contract_args(src)
    return hand, _cards(src, rules.deck, 12), rules, round_


def _engine_args(game: str) -> Callable[[Source], tuple[Any, ...]]:
    def args(src: Source) -> tuple[Any, ...]:
        """A seed, a number of actions and one of the game's presets (every preset in turn)."""
        from solver.rules import GAMES

        presets = sorted(GAMES[game].PRESETS)
        return src.below(1 << 16), 1 + src.below(80), _pick(src, presets)

    return args


# --- the calls: a plain comparable value each ----------------------------------------------------


def _best_play(table: Any, hand: Cards, rules: Any) -> Any:
    from solver.manipulation import best_play

    play = best_play(table, hand, rules, least_change=False, time_limit=5)
    return play.cards, str(play.status)


def _can_play(table: Any, hand: Cards, rules: Any) -> Any:
    from solver.manipulation import can_play

    return can_play(table, hand, rules, time_limit=5)


def _max_cards(table: Any, hand: Cards, rules: Any) -> Any:
    from solver.manipulation import max_cards_playable

    return max_cards_playable(table, hand, rules, time_limit=5)


def _legal_moves(hand: Cards, to_beat: Any, rules: Any) -> Any:
    from solver.zsy import legal_moves

    return tuple(str(m) for m in legal_moves(hand, to_beat, rules))


def _fewest(hand: Cards, rules: Any) -> Any:
    from solver.zsy import fewest_plays

    split = fewest_plays(hand, rules, time_limit=5)
    return split.count, str(split.status)


def _plays_after(hand: Cards, rules: Any) -> Any:
    from solver.zsy import legal_moves, plays_after

    moves = legal_moves(hand, None, rules)
    counts, status = plays_after(hand, moves, rules, time_limit=5)
    return counts, str(status)


def _winning_moves(hand: Cards, opponent: Cards, to_beat: Any, rules: Any) -> Any:
    from solver.zsy.endgame import winning_moves

    return tuple(str(m) for m in winning_moves(hand, opponent, to_beat, rules, max_nodes=20_000, time_limit=5))


def _discards(hand: Cards, pool: Cards, rules: Any, round_: int) -> Any:
    from solver.contract.discards import discard_distances

    best, after, complete = discard_distances(hand, pool, rules, rules.contract(round_), time_limit=5)
    return best, sorted((str(c), d) for c, d in after.items()), complete


def _hand_lay_down(hand: Cards, rules: Any, round_: int) -> Any:
    from solver.contract.search import contract_possible, hand_lay_down

    contract = rules.contract(round_)
    melds = hand_lay_down(hand, rules, contract)
    return contract_possible(hand, rules, contract), None if melds is None else tuple(str(m) for m in melds)


def _distance(hand: Cards, rules: Any, round_: int) -> Any:
    from solver.contract import distance_to_contract

    d = distance_to_contract(hand, rules, round_, time_limit=5)
    return d.missing, str(d.options), str(d.status)


def _engine(game: str) -> Callable[..., Any]:
    def play(seed: int, steps: int, preset: str) -> Any:
        """Every legal-action list (as text) of a random game of ``preset``, up to ``steps`` actions."""
        from solver.engine import new_game
        from solver.rules import GAMES

        rules = GAMES[game].preset(preset)
        players = 4 if rules.min_players <= 4 <= rules.max_players else rules.min_players
        rng = random.Random(seed)
        g = new_game(game, rules, players, seed)
        seen = []
        for _ in range(steps):
            if g.is_terminal():
                break
            actions = g.legal_actions()
            seen.append(tuple(str(a) for a in actions))
            g.apply(rng.choice(actions))
        return tuple(seen)

    return play


@dataclass(frozen=True, slots=True)
class Entry:
    """One native entry point reached through the public API."""

    name: str
    core: str
    args: Callable[[Source], tuple[Any, ...]]
    call: Callable[..., Any]
    cheap: bool = True
    """Cheap enough to call a million times on the native path (the RSS check)."""


ENTRIES: tuple[Entry, ...] = (
    Entry("manipulation.best_play(least_change=False)", "manipulation", _manipulation_args, _best_play),
    Entry("manipulation.can_play", "manipulation", _manipulation_args, _can_play),
    Entry("manipulation.max_cards_playable", "manipulation", _manipulation_args, _max_cards),
    Entry(
        "manipulation engine: legal actions",
        "manipulation",
        _engine_args("manipulation"),
        _engine("manipulation"),
        False,
    ),
    Entry("zsy.legal_moves", "zsy", _zsy_beat_args, _legal_moves),
    Entry("zsy.fewest_plays", "zsy", _zsy_args, _fewest),
    Entry("zsy.plays_after", "zsy", _zsy_args, _plays_after),
    Entry("zsy.winning_moves", "zsy", _zsy_endgame_args, _winning_moves),
    Entry("zsy engine: legal actions", "zsy", _engine_args("zsy"), _engine("zsy"), False),
    Entry("contract.distance_to_contract", "contract", _contract_args, _distance),
    Entry("contract.discard_distances", "contract", _contract_pool_args, _discards),
    Entry("contract.hand_lay_down", "contract", _contract_args, _hand_lay_down),
    Entry("contract engine: legal actions", "contract", _engine_args("contract"), _engine("contract"), False),
)
"""Every entry point, by game (the native modules' owners: ``solver.native._<core>``)."""


# --- running one input on both paths -------------------------------------------------------------

Outcome = tuple[str, Any]
"""``("ok", value)``, ``("error", "TypeName: message")`` for a typed error, ``("timeout", None)``."""


class Crash(Exception):
    """A call raised something other than the library's typed errors (a bug, on that path)."""


def outcome(entry: Entry, args: tuple[Any, ...]) -> Outcome:
    """The call's value or typed error; any other exception is a :class:`Crash`."""
    try:
        return ("ok", entry.call(*args))
    except ShanghaiError as exc:  # the typed ValueError subclasses: bad input, refused before crossing
        return ("error", f"{type(exc).__name__}: {exc}")
    except SolverTimeout:
        return ("timeout", None)
    except Exception as exc:
        raise Crash(f"{entry.name}: {type(exc).__name__}: {exc}") from exc


def differ(entry: Entry, args: tuple[Any, ...]) -> str | None:
    """Run ``args`` on the native path (when built) and the pure one: None when they agree, else how.

    A crash on either path raises :class:`Crash`. Where the entry's module is not
    built only the pure path runs (None unless it crashes)."""
    with native.pure():
        pure = outcome(entry, args)
    if native.core(entry.core) is None:
        return None
    fast = outcome(entry, args)
    if "timeout" in (fast[0], pure[0]):
        return None  # a time limit cut one of them short: nothing to compare
    if fast != pure:
        return f"{entry.name}: native {_clip(fast)} != pure {_clip(pure)} for {_clip(args)}"
    return None


def _clip(value: Any, most: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most] + "..."


def coverage() -> list[str]:
    """One line per compiled module: compared with the pure path, or pure only (not built)."""
    lines = []
    for name in native.CORES:
        names = ", ".join(e.name for e in ENTRIES if e.core == name)
        if native.core(name) is not None:
            lines.append(f"solver.native._{name}: native == pure over {names}")
        else:
            lines.append(f"solver.native._{name}: not built, pure path only (no crash, typed errors) over {names}")
    return lines
