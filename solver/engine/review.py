"""Game review: every decision of one seat in a played game, scored against the solver (issue 40).

The record is replayed action by action; at each decision of the reviewed
seat the ``solver`` player's choice (:func:`solver.engine.hints.hint_for_game`)
is the *best* action, and both actions are measured in the game's own
measure (lower is better for each, so the loss is ``taken - best``, never
below 0):

- Manipulation Shanghai (``cards``): the cards the move plays; the loss is
  the cards the solver's play puts down that the move taken did not.
- Zheng Shang You (``plays``): the fewest plays the hand needs to go out
  after the move (:func:`solver.zsy.plays_after`; a pass keeps the hand's
  fewest plays); tribute steps are forced and not judged.
- Contract Shanghai: the whole turn after the draw (``turn``, the lay-down,
  lay-offs, swaps and discard taken as one decision) against the solver's
  whole-turn plan (:meth:`ContractGame.turn_plan`): ``10 x distance +
  points`` at the end of the turn (distance: the cards still missing for the
  contract, 0 once laid down; points: the penalty points left in hand, 0 when
  out), so a card further from the contract weighs 10 points. A take, decline,
  call or no call (``offer``) is judged by the distance to the contract the
  choice leaves (:func:`solver.contract.best_turn`, :func:`solver.contract.turn.call_decision`),
  10 points a card; with ``samples``, by the seat's expected penalty points for
  the round over deals resampled from its view (:meth:`Game.resample`), both
  choices played on from each deal by ``greedy`` players, and the best is the
  choice with fewer expected points (best found). The round's first discard is
  not judged.

Every measure reads only what the seat knew when it chose: its own hand and
the public cards (the table, the discard pile, the trick). No hidden card
(another hand, the stock) is looked at, so the review never judges with
hindsight. A best action whose search was not proven optimal (a time limit,
or a stage that only finds) is marked ``proven = False``: "best found".

Accuracy: the share of judged decisions with no loss, in per cent.

The Manipulation and Zheng Shang You judges are here; Contract Shanghai's is
:mod:`solver.engine.review_contract`, and what every judge shares (the
replay, :class:`Move`) is :mod:`solver.engine.review_judge`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from solver.cards import Cards
from solver.engine.base import Game, GameRecord
from solver.engine.review_contract import _Contract
from solver.engine.review_judge import DISTANCE_POINTS, Move, _Judge
from solver.errors import IllegalActionError, PuzzleError, Status

__all__ = ["DISTANCE_POINTS", "MAX_SAMPLES", "NOTE", "Move", "Review", "human_seat", "loss_svg", "review_game"]

MAX_SAMPLES = 1000
"""The most resampled deals a Contract take or call is judged over (``samples``)."""

UNITS = {"manipulation": "cards", "zsy": "plays", "contract": "points"}

NOTE = "judged on what the player knew: the own hand and the public cards only; no hidden card is used (no hindsight)"


@dataclass(frozen=True, slots=True)
class Review:
    """A whole review: every judged move of one seat, totals per deal and for the game."""

    game: str
    seat: int
    unit: str
    moves: tuple[Move, ...]
    seconds: float
    note: str = NOTE
    unjudged: int = 0  # decisions of the seat no measure judges (tribute steps, a round's first discard)
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def total(self) -> float:
        """The game's total loss."""
        return sum(m.loss for m in self.moves)

    @property
    def mean(self) -> float:
        """The mean loss per judged decision (0 with none)."""
        return self.total / len(self.moves) if self.moves else 0.0

    @property
    def accuracy(self) -> float:
        """Per cent of judged decisions with no loss (100 with none)."""
        if not self.moves:
            return 100.0
        return 100.0 * sum(1 for m in self.moves if m.loss == 0) / len(self.moves)

    def deals(self) -> list[dict[str, Any]]:
        """Per hand or round: its number, the decisions judged, the total loss and the accuracy."""
        out: dict[int, list[Move]] = {}
        for m in self.moves:
            out.setdefault(m.deal, []).append(m)
        return [
            {
                "deal": d,
                "decisions": len(ms),
                "loss": sum(m.loss for m in ms),
                "accuracy": 100.0 * sum(1 for m in ms if m.loss == 0) / len(ms),
            }
            for d, ms in sorted(out.items())
        ]

    def mistakes(self, count: int = 3, exportable: bool = False) -> list[Move]:
        """The ``count`` biggest losses, biggest first (the earlier first on ties); with ``exportable``
        only those whose position is a puzzle (:attr:`Move.puzzle`)."""
        bad = [m for m in self.moves if m.loss > 0 and (m.puzzle is not None or not exportable)]
        return sorted(bad, key=lambda m: (-m.loss, m.index))[:count]

    def to_json(self) -> dict[str, Any]:
        """The review as JSON data (docs/json.md, ``review``)."""
        return {
            "game": self.game,
            "seat": self.seat,
            "unit": self.unit,
            "note": self.note,
            "decisions": len(self.moves),
            "unjudged": self.unjudged,
            "total_loss": self.total,
            "mean_loss": self.mean,
            "accuracy": self.accuracy,
            "proven": all(m.proven for m in self.moves),
            "deals": self.deals(),
            "moves": [m.to_json() for m in self.moves],
            "mistakes": [m.index for m in self.mistakes()],
            "seconds": round(self.seconds, 3),
        }


def human_seat(record: GameRecord) -> int:
    """The record's human seat (``you``), else 0."""
    return record.players.index("you") if "you" in record.players else 0


def review_game(
    record: GameRecord,
    seat: int | None = None,
    *,
    time_limit: float = 2.0,
    samples: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Review ``seat``'s decisions (default :func:`human_seat`) in ``record``; ``time_limit`` seconds for
    each solver question; ``progress(done, total)`` after each action replayed. ``samples`` (Contract):
    judge each take or call by the expected points over that many deals resampled from the seat's view
    (:meth:`Game.resample`), played to the round's end by ``greedy`` players (0: by the distance to the
    contract). Raises :class:`~solver.errors.PuzzleError` for a seat the game does not have or a
    ``samples`` outside 0-:data:`MAX_SAMPLES`."""
    from solver.engine import new_game

    if seat is None:
        seat = human_seat(record)
    if not 0 <= seat < record.num_players:
        raise PuzzleError(f"--seat {seat}: the game has seats 0-{record.num_players - 1}")
    if not 0 <= samples <= MAX_SAMPLES:
        raise PuzzleError(f"--samples must be a whole number from 0 to {MAX_SAMPLES}, not {samples}")
    start = time.perf_counter()
    game = new_game(record.game, record.rules, record.num_players, record.seed, options=record.options)
    if hasattr(game, "time_limit"):
        game.time_limit = time_limit
    judge = _JUDGES[record.game](game, seat, time_limit)
    judge.samples = samples
    total = len(record.actions)
    for i, text in enumerate(record.actions):
        try:
            action = game.parse_action(text)
            judge.step(i, action)
        except IllegalActionError as exc:
            raise IllegalActionError(f"record action {i + 1} ({text[:40]}): {exc}") from None
        if progress is not None:
            progress(i + 1, total)
    judge.finish()
    seconds = time.perf_counter() - start
    note = NOTE
    if samples and record.game == "contract":
        note += (
            f"; a take or call by the expected points over {samples} deals of the hidden cards resampled "
            "from the player's view (best found)"
        )
    moves = tuple(judge.moves)
    return Review(record.game, seat, UNITS[record.game], moves, seconds, note=note, unjudged=judge.unjudged)


# --- Manipulation Shanghai -------------------------------------------------------------------------


class _Manipulation(_Judge):
    def judge(self, index: int, action: Any) -> None:
        from solver.manipulation.game import MPlay

        game = self.game
        p = self.seat
        decision = self.best()
        best_action = decision.action
        best_n = game.cards_played(best_action.table) if isinstance(best_action, MPlay) else 0
        taken_n = game.cards_played(action.table) if isinstance(action, MPlay) else 0
        status = decision.facts.get("status")
        listed = isinstance(best_action, MPlay) and status is None and game.opened[p]
        proven = (status is None and not listed) or status == Status.OPTIMAL or str(status) == "optimal"
        puzzle = None
        loss = max(0, best_n - taken_n)
        if loss and isinstance(best_action, MPlay) and game.opened[p]:
            puzzle = _manipulation_puzzle(game, best_action, best_n)
        self.moves.append(
            Move(index, self.deal(), "play", str(action), str(best_action), -taken_n, -best_n, loss, proven, puzzle)
        )
        game.apply(action)


def _manipulation_puzzle(game: Any, best: Any, best_n: int) -> Any:
    from solver.puzzles import ManipulationPosition, Puzzle

    pos = ManipulationPosition(tuple(game.table), game.hands[game.to_move])
    meta = {"kind": "play", "new_table": [str(m) for m in best.table], "source": "shanghai review"}
    return Puzzle("manipulation", game.rules, pos, title="", answer={"played": best_n}, meta=meta)


# --- Zheng Shang You --------------------------------------------------------------------------------


class _Zsy(_Judge):
    def judge(self, index: int, action: Any) -> None:
        from solver.zsy import fewest_plays, plays_after
        from solver.zsy.game import Tribute, ZPlay

        game = self.game
        if isinstance(action, Tribute):
            self.unjudged += 1
            game.apply(action)
            return
        hand = game.hands[self.seat]
        decision = self.best()
        best_action = decision.action
        split = fewest_plays(hand, game.rules, time_limit=self.time_limit)
        combos = [a.combo for a in (action, best_action) if isinstance(a, ZPlay)]
        after, status = plays_after(hand, combos, game.rules, time_limit=self.time_limit)
        values = iter(after)
        taken = next(values) if isinstance(action, ZPlay) else split.count
        best = next(values) if isinstance(best_action, ZPlay) else split.count
        proven = status is Status.OPTIMAL and str(split.status) == "optimal"
        loss = max(0, taken - best)
        puzzle = _zsy_puzzle(game, hand, best_action) if loss else None
        self.moves.append(
            Move(index, self.deal(), "play", str(action), str(best_action), taken, best, loss, proven, puzzle)
        )
        game.apply(action)


def _zsy_puzzle(game: Any, hand: Cards, best_action: Any) -> Any:
    """A reply puzzle (kind ``reply``) or, for a lead, an ``out`` puzzle whose split starts with the lead;
    None when the solver's choice is not the puzzle's own answer (a tactic: an opponent close to
    going out, a two-player endgame), so ``solve --check`` would not accept it."""
    from solver.puzzles import Puzzle, ZsyPosition
    from solver.zsy import best_reply, fewest_plays
    from solver.zsy.game import ZPlay

    rules = game.rules
    if game.trick is None:
        if not isinstance(best_action, ZPlay):
            return None
        rest = fewest_plays(hand - best_action.combo.cards, rules)
        whole = fewest_plays(hand, rules)
        if rest.count + 1 != whole.count or str(whole.status) != "optimal":
            return None
        plays = [best_action.combo, *rest.plays]
        meta = {"kind": "out", "solution": [f"{c.kind}:{c.cards}" for c in plays], "source": "shanghai review"}
        return Puzzle("zsy", rules, ZsyPosition(hand), answer={"fewest_plays": whole.count}, meta=meta)
    trick = game.trick
    reply = best_reply(hand, trick, rules)
    chosen = best_action.combo if isinstance(best_action, ZPlay) else None
    if (reply.combo is None) != (chosen is None) or (
        chosen is not None and reply.combo is not None and reply.combo.cards != chosen.cards
    ):
        return None
    left = hand - chosen.cards if chosen is not None else hand
    then = fewest_plays(left, rules).plays if left else ()
    meta = {
        "kind": "reply",
        "solution": "pass" if chosen is None else str(chosen.cards),
        "then": [f"{c.kind}:{c.cards}" for c in then],
        "source": "shanghai review",
    }
    pos = ZsyPosition(hand, to_beat=trick.cards, to_beat_kind=_kind_name(trick))
    return Puzzle("zsy", rules, pos, answer={"fewest_plays": fewest_plays(hand, rules).count}, meta=meta)


def _kind_name(combo: Any) -> str:
    """The puzzle file's ``to_beat_kind`` for a combination (``parallel-CxL`` for a parallel)."""
    if combo.kind == "parallel":
        return f"parallel-{combo.copies}x{combo.length}"
    return str(combo.kind)


_JUDGES: dict[str, Callable[[Game, int, float], _Judge]] = {
    "manipulation": _Manipulation,
    "zsy": _Zsy,
    "contract": _Contract,
}


def loss_svg(review: Review, width: int = 640, height: int = 200) -> str:
    """The per-move loss plot as an SVG document: one bar per judged decision (red where it lost),
    round boundaries as dashed lines; the axis names the game's unit."""
    from xml.sax.saxutils import escape

    moves = review.moves
    pad = 30
    top = max((m.loss for m in moves), default=0) or 1
    n = max(len(moves), 1)
    step = (width - 2 * pad) / n
    base = height - pad
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{pad}" y="18" font-family="Liberation Sans, sans-serif" font-size="12">'
        f"{escape(review.game)}, seat {review.seat}: loss per decision ({escape(review.unit)}); "
        f"total {review.total:g}, accuracy {review.accuracy:.1f}%</text>",
        f'<line x1="{pad}" y1="{base}" x2="{width - pad}" y2="{base}" stroke="black"/>',
        f'<text x="4" y="{pad + 4}" font-family="Liberation Sans, sans-serif" font-size="10">{top:g}</text>',
        f'<text x="4" y="{base}" font-family="Liberation Sans, sans-serif" font-size="10">0</text>',
    ]
    last = None
    for i, m in enumerate(moves):
        x = pad + i * step
        if last is not None and m.deal != last:
            parts.append(
                f'<line x1="{x:.1f}" y1="{pad}" x2="{x:.1f}" y2="{base}" stroke="#999" stroke-dasharray="3,3"/>'
            )
        last = m.deal
        h = (base - pad) * m.loss / top
        colour = "#c0392b" if m.loss > 0 else "#2e86c1"
        parts.append(
            f'<rect x="{x + step * 0.1:.1f}" y="{base - max(h, 1):.1f}" width="{max(step * 0.8, 1):.1f}" '
            f'height="{max(h, 1):.1f}" fill="{colour}"><title>decision {i + 1} (action {m.index + 1}): '
            f"{escape(m.taken[:80])}, loss {m.loss:g}</title></rect>"
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
