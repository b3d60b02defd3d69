"""Does a decision maker find a puzzle's answer? The engine's players, put in the puzzle's position.

The ``greedy`` and ``solver`` players of :mod:`solver.engine.players` decide
from a game state, so each puzzle position is set into a fresh engine game
(the player to move is seat 0) and the player's own actions are applied
until its turn's answer is known:

- Manipulation: the play the player chooses (with ``must_play = "one"``:
  under ``more_than_one`` the engine may list only the solver's play, which
  would hand it to every player); found when it plays exactly the answer's
  hand cards. ``shallow`` (one loosening move, then greedy,
  :mod:`solver.generate.shallow`) is a third, in-between decision maker;
- Contract lay-off: the player's lay-offs and swaps until it discards;
  found when it laid off exactly the answer's cards (go out: when it goes
  out, the last card laid off or discarded). Discard: found when it
  discards the answer's card; whole (the last round, all at once): found
  when it lays down every card but the answer's, and discards that.
  Lay-down: found when its first action lays down the answer's grouping
  (the melds' cards, wild roles aside);
- Zheng Shang You "out in K": the player leads again and again, unopposed;
  found when it goes out in K plays. "Which reply": found when it plays the
  answer's cards. "Which lead" (a two-player endgame): the opponent's hand
  is set into seat 1 and the other seats are empty (gone out), so the
  solver player sees the endgame and searches it as it does in a game;
  found when the player leads the answer's cards.

Setting a position into a game touches the game's state attributes (the
engine has no "start from a position" call); that is kept to this module.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from solver.cards import Card, Cards
from solver.engine import new_game
from solver.engine.players import make_player
from solver.generate.difficulty import SOLVE_SECONDS
from solver.generate.shallow import shallow_play
from solver.melds import Meld
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition
from solver.rules import ContractRules, ManipulationRules, ZsyRules
from solver.zsy import combo_from_position

__all__ = [
    "DECIDERS",
    "finds_answer",
    "manipulation_played",
    "contract_turn",
    "contract_lay_down",
    "zsy_out_plays",
    "zsy_reply",
    "zsy_lead",
]

DECIDERS = ("greedy", "shallow", "solver")
"""The decision makers the benchmark compares (``shallow``: Manipulation only)."""


def manipulation_played(kind: str, table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules) -> Cards:
    """The hand cards decision maker ``kind`` plays in the position (empty: it draws or passes)."""
    if kind == "shallow":
        return shallow_play(table, hand, rules, 1)
    # the puzzle asks for the most cards: the must-play rule (which can list only the solver's play) is set aside
    plain = replace(rules, must_play="one")
    game: Any = new_game("manipulation", plain, players=max(2, rules.min_players), seed=0, time_limit=SOLVE_SECONDS)
    game.table = table
    game.hands[0] = hand
    game.opened[0] = True
    game.to_move = 0
    game.phase = "turn"
    game.clear_caches()
    action = make_player(kind, 0).choose(game)
    new_table = getattr(action, "table", None)
    if new_table is None:
        return Cards()
    return Cards(c for m in new_table for c in m.cards) - Cards(c for m in table for c in m.cards)


def _contract_game(rules: ContractRules, pos: ContractPosition) -> Any:
    game: Any = new_game("contract", rules, players=max(2, rules.min_players), seed=0, time_limit=SOLVE_SECONDS)
    game.round = pos.round
    game.hands[0] = pos.hand
    game.table = list(pos.table)
    game.laid_down[0] = pos.laid_down
    game.laid_this_turn = False
    game.pile = []
    game.no_discard = None
    game.in_turn = game.to_move = 0
    game.phase = "play"
    game.clear_caches()
    return game


def contract_turn(kind: str, rules: ContractRules, pos: ContractPosition) -> tuple[Cards, Card | None]:
    """The cards decision maker ``kind`` lays down or off this turn, and the card it then discards (None: went
    out, or stopped)."""
    game = _contract_game(rules, pos)
    player = make_player(kind, 0)
    laid = Cards()
    for _ in range(40):
        action = player.choose(game)
        name = type(action).__name__
        if name == "CDiscard":
            return laid, action.card
        if name == "CLayDown":  # the last round's whole hand (other puzzles are laid down, or cannot)
            laid = laid + Cards(c for m in action.melds for c in m.cards)
        elif name == "CLayOff":
            laid = laid + Cards(action.cards.cards)
        elif name == "CSwap":
            laid = laid + Cards([action.card])
        else:
            return laid, None
        if laid == pos.hand:
            return laid, None
        game.apply(action)
    return laid, None  # pragma: no cover - a turn has fewer actions than cards


def contract_lay_down(kind: str, rules: ContractRules, pos: ContractPosition) -> tuple[Meld, ...]:
    """The melds decision maker ``kind`` lays down first this turn (empty: it does not lay down)."""
    game = _contract_game(rules, pos)
    action = make_player(kind, 0).choose(game)
    return tuple(action.melds) if type(action).__name__ == "CLayDown" else ()


def _zsy_game(rules: ZsyRules, hand: Cards, to_beat: Any) -> Any:
    game: Any = new_game("zsy", rules, players=max(4, rules.min_players), seed=0)
    game.time_limit = SOLVE_SECONDS  # the solver player's searches finish (a 27-card hand needs seconds)
    game.phase = "trick"
    game.hands[0] = hand
    # the opponents keep their dealt hands: as in a puzzle (solver.zsy.reply.MANY_CARDS) nobody is about to go out
    game.trick = to_beat
    game.trick_player = 1 if to_beat is not None else -1
    game.to_move = 0
    game.clear_caches()
    return game


def zsy_out_plays(kind: str, hand: Cards, rules: ZsyRules, most: int = 30) -> int:
    """How many leads decision maker ``kind`` needs to play out ``hand``, unopposed."""
    player = make_player(kind, 0)
    plays = 0
    while hand and plays < most:
        game = _zsy_game(rules, hand, None)
        action = player.choose(game)
        hand = hand - action.combo.cards
        plays += 1
    return plays


def zsy_reply(kind: str, hand: Cards, to_beat: Any, rules: ZsyRules) -> Cards | None:
    """The cards decision maker ``kind`` replies with (None: it passes)."""
    action = make_player(kind, 0).choose(_zsy_game(rules, hand, to_beat))
    combo = getattr(action, "combo", None)
    return None if combo is None else Cards(combo.cards)


def zsy_lead(kind: str, hand: Cards, opponent: Cards, rules: ZsyRules) -> Cards:
    """The cards decision maker ``kind`` leads in a two-player endgame against ``opponent``."""
    game = _zsy_game(rules, hand, None)
    game.hands[1] = opponent
    for q in range(2, len(game.hands)):  # the others have gone out: a two-player endgame
        game.hands[q] = Cards()
    game.clear_caches()
    action = make_player(kind, 0).choose(game)
    return Cards(action.combo.cards)


def finds_answer(kind: str, puzzle: Puzzle) -> bool:
    """Whether decision maker ``kind`` finds a generated puzzle's answer (see the module docstring)."""
    pos = puzzle.position
    meta = puzzle.meta
    if isinstance(pos, ManipulationPosition):
        assert isinstance(puzzle.rules, ManipulationRules)
        return manipulation_played(kind, pos.table, pos.hand, puzzle.rules) == Cards.parse(puzzle.answer["cards"])
    if kind == "shallow":
        raise ValueError("the shallow decision maker plays Manipulation only")
    if isinstance(pos, ContractPosition):
        assert isinstance(puzzle.rules, ContractRules)
        if meta.get("kind") == "laydown":  # the grouping of the melds laid down, wild roles aside
            down = contract_lay_down(kind, puzzle.rules, pos)
            return sorted(str(Cards(m.cards)) for m in down) == sorted(
                str(Cards(Meld.parse(m).cards)) for m in meta["solution"]
            )
        laid, discard = contract_turn(kind, puzzle.rules, pos)
        if meta.get("kind") == "discard":
            return discard is not None and str(discard) == meta["solution"]
        if meta.get("kind") == "whole":  # the rest laid down, the answer discarded
            return discard is not None and str(discard) == meta["solution"] and laid == pos.hand - Cards([discard])
        if meta.get("kind") == "goout":  # laying off the last card or discarding it both go out
            return len(pos.hand - laid) <= 1
        return laid == Cards.parse(meta["solution"])
    assert isinstance(pos, ZsyPosition) and isinstance(puzzle.rules, ZsyRules)
    if pos.opponent is not None:
        from solver.zsy import Combo

        return zsy_lead(kind, pos.hand, pos.opponent, puzzle.rules) == Combo.parse(meta["solution"], puzzle.rules).cards
    if pos.to_beat is None:
        return bool(zsy_out_plays(kind, pos.hand, puzzle.rules) == puzzle.answer["fewest_plays"])
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, puzzle.rules)
    reply = zsy_reply(kind, pos.hand, to_beat, puzzle.rules)
    if meta["solution"] == "pass":
        return reply is None
    return reply is not None and reply == Cards.parse(meta["solution"])
