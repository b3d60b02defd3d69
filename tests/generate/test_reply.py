"""One best reply in Zheng Shang You (passing included), shared by hint, the solver player, solve and the generator."""

from __future__ import annotations

from pathlib import Path

import pytest

from solver.cards import Cards
from solver.engine.hints import hint_for_puzzle
from solver.engine.players import SolverPlayer
from solver.generate import generate
from solver.generate.players import _zsy_game
from solver.puzzles import Puzzle, ZsyPosition, iter_puzzle_paths, load
from solver.zsy import Combo, best_reply, combo_from_position, fewest_plays

ROOT = Path(__file__).resolve().parents[2]


def replies() -> list[Puzzle]:
    found = [load(p) for p in iter_puzzle_paths(ROOT / "puzzles")]
    return [p for p in found if isinstance(p.position, ZsyPosition) and p.position.to_beat is not None]


def test_hint_passes_when_every_reply_costs_a_play() -> None:
    puzzle = load(ROOT / "puzzles" / "zsy" / "fourteen-cards-reply-pair.toml")
    decision = hint_for_puzzle(puzzle, time_limit=5.0)
    assert decision.action == "pass" and "every reply leaves 4 plays, more than 3" in decision.reason


@pytest.mark.parametrize("puzzle", replies(), ids=lambda p: Path(p.path).name)
def test_hint_solver_player_and_best_reply_agree(puzzle: Puzzle) -> None:
    pos = puzzle.position
    assert isinstance(pos, ZsyPosition) and pos.to_beat is not None
    rules: object = puzzle.rules
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, rules)  # type: ignore[arg-type]
    reply = best_reply(pos.hand, to_beat, rules, time_limit=30.0)  # type: ignore[arg-type]
    hint = hint_for_puzzle(puzzle, time_limit=30.0).action
    game = _zsy_game(rules, pos.hand, to_beat)  # type: ignore[arg-type]
    player = SolverPlayer().decide(game)
    if reply.combo is None:
        assert hint == "pass" and not hasattr(player.action, "combo"), (hint, player)
    else:
        assert hint == f"play {reply.combo}"
        assert Cards(player.action.combo.cards) == reply.combo.cards


def test_generated_replies_shorten_the_hand_or_pass() -> None:
    fresh = [p for level in ("medium", "hard") for p in generate("zsy", level, 4, seed=5) if p.meta["kind"] == "reply"]
    bundled = [p for p in replies() if p.meta.get("kind") == "reply"]
    assert fresh and bundled
    for p in fresh + bundled:
        pos = p.position
        assert isinstance(pos, ZsyPosition)
        now = p.answer["fewest_plays"]
        assert p.title.endswith(", or pass?")
        if p.meta["solution"] == "pass":
            assert len(p.meta["then"]) == now
            continue
        left = fewest_plays(pos.hand - Cards.parse(p.meta["solution"]), p.rules).count  # type: ignore[arg-type]
        assert left < now and left == len(p.meta["then"]), p.path


def test_best_reply_leads_without_passing() -> None:
    lead = best_reply(Cards.parse("5H 6H 7H"), None)
    assert lead.combo is not None and lead.combo.cards == Cards.parse("5H 6H 7H") and lead.after == 0
    assert best_reply(Cards.parse("5H 6H 7H"), Combo.parse("3C")).combo is None
    assert best_reply(Cards.parse("5H 6H 7H"), Combo.parse("3C"), threat=2).combo is not None
