"""Issue 39: the search's own candidates (Contract's take/draw, call, hold-back and discard
alternatives; Manipulation's hold-backs, smallest play and draw), its reasons, its kind grammar
and the paired measure against its own default."""

from __future__ import annotations

from typing import Any

import pytest

from solver.cards import Cards
from solver.contract.tactics import tactical_action
from solver.engine import new_game
from solver.engine.candidates import CONTRACT_KINDS, contract_kind, describe, manipulation_alternatives
from solver.engine.ismcts import END, IsmctsPlayer, Paired, parse_kind, search_reason
from solver.engine.paired import paired
from solver.engine.players import SolverPlayer
from solver.errors import IllegalActionError
from solver.manipulation.game import MPlay
from solver.rules import ManipulationRules

ALL = frozenset(CONTRACT_KINDS)


def _contract_positions(seed: int, steps: int = 120) -> dict[str, Any]:
    """The first position of each kind of decision (the default's kind) with more than one legal action."""
    game: Any = new_game("contract", None, 4, seed, max_rounds=1)
    solver = SolverPlayer()
    found: dict[str, Any] = {}
    from solver.engine.search import clone_game

    for _ in range(steps):
        if game.is_terminal():
            break
        if len(game.legal_actions()) > 1:
            found.setdefault(contract_kind(tactical_action(game)), clone_game(game))
        game.apply(solver.choose(game))
    return found


def test_contract_candidates_include_take_draw_call_hold_back_and_discard_alternatives() -> None:
    positions = _contract_positions(3)
    assert {"offer", "call", "discard", "layoff"} <= set(positions), set(positions)
    player = IsmctsPlayer(seed=1, budget=4, search=ALL)
    for kind, game in positions.items():
        candidates = player._candidates(game)
        assert str(candidates[0]) == str(tactical_action(game))  # the default first
        assert len(candidates) > 1, kind
        assert all(game.is_legal(a) for a in candidates)
        words = {str(a).split(" ")[0] for a in candidates}
        if kind == "offer":
            assert words == {"take", "decline"}  # take the discard or draw from the stock
        elif kind == "call":
            assert words == {"call", "nocall"}
        elif kind == "discard":
            assert words == {"discard"} and len(candidates) == 3  # the default and two other discards
        elif kind == "layoff":
            assert "discard" in words  # holding the lay-offs back: the discard that ends the turn now


def test_contract_decisions_not_searched_keep_the_default_with_a_true_reason() -> None:
    positions = _contract_positions(3)
    for game in positions.values():
        legal = len(game.legal_actions())
        decision = IsmctsPlayer(seed=1, budget=4, search=frozenset()).decide(game)
        assert decision.facts["simulations"] == 0 and decision.action == tactical_action(game)
        assert "only legal action" not in decision.reason and f"one of {legal} legal actions" in decision.reason


def test_a_contract_search_is_deterministic_for_a_seed_and_says_its_deals_and_margin() -> None:
    game = _contract_positions(3)["offer"]
    first, second = (IsmctsPlayer(seed=7, budget=8, depth=12, search=ALL).decide(game) for _ in range(2))
    assert first.action == second.action and first.reason == second.reason
    assert first.reason.startswith(f"searched {first.facts['simulations']} deals, 2 candidates")
    assert "margin 0.02" in first.reason


def _manipulation_hold_back(seed: int) -> Any:
    """A seeded solver hand played until the player to move has a play that may hold cards back."""
    game: Any = new_game("manipulation", None, 4, seed, max_hands=1)
    solver = SolverPlayer()
    while not game.is_terminal():
        own = solver.choose(game)
        if isinstance(own, MPlay) and manipulation_alternatives(game, own):
            return game
        game.apply(own)
    raise AssertionError(f"no hold-back in seed {seed}")


def test_manipulation_candidates_hold_back_cards() -> None:
    game = _manipulation_hold_back(5)
    own = SolverPlayer().choose(game)
    alternatives = manipulation_alternatives(game, own)

    def size(action: Any) -> int:
        return sum(len(m.cards) for m in action.table)

    assert alternatives and all(game.is_legal(a) for a in alternatives)
    assert all(size(a) <= size(own) and describe(game, a) != describe(game, own) for a in alternatives)
    assert any(size(a) < size(own) for a in alternatives)  # cards held back
    # the smallest listed play, then the best plays holding back a card of "QS QH 6C 7C 8C QC"
    assert [describe(game, a) for a in alternatives] == [
        "play 3 cards: QS QH QC",
        "play 6 cards: 10H JH QH 6C 7C 8C",
        "play 3 cards: 6C 7C 8C",
    ]
    candidates = IsmctsPlayer(seed=1, budget=4)._candidates(game)
    assert str(alternatives[0]) in {str(a) for a in candidates}
    assert describe(game, own).startswith(f"play {size(own) - sum(len(m.cards) for m in game.table)} cards: ")


def test_manipulation_offers_the_draw_where_the_rules_allow() -> None:
    game: Any = new_game("manipulation", ManipulationRules.preset("rummikub"), 4, 5, max_hands=1)
    solver = SolverPlayer()
    while not isinstance(own := solver.choose(game), MPlay):  # must_play never: a player who can play may draw
        game.apply(own)
    assert game.stock and "draw" in {str(a) for a in manipulation_alternatives(game, own)}
    german: Any = _manipulation_hold_back(5)  # must_play more_than_one: a player who can play may not draw
    assert "draw" not in {str(a) for a in manipulation_alternatives(german, solver.choose(german))}


def test_search_reason_names_the_deals_the_gain_and_the_margin() -> None:
    stats = Paired(3)
    for r in [(0.5, 0.5, 0.4), (0.5, 0.6, 0.3), (0.4, 0.4, 0.4), (0.5, 0.5, 0.5)] * 3:
        stats.add(list(r))
    keep = search_reason(stats, ["a", "b", "c"], 0, 0.02, 1.64, 8)
    assert keep == (
        "searched 12 deals, 3 candidates: keeps the default a; the best alternative, b, gains +0.02"
        " over 12 deals (+0.00 to +0.05), not surely above the margin 0.02"
    )
    few = search_reason(stats, ["a", "b", "c"], 0, 0.02, 1.64, 20)
    assert few.endswith("(fewer than the 20 deals needed to deviate)")


def test_kinds_name_the_depth_and_the_contract_decisions_searched() -> None:
    player = parse_kind("ismcts:40::end:offer,discard", 0)
    assert player.budget == 40 and player.rollout is None and player.depth == END
    assert player.search == frozenset({"offer", "discard"})
    assert parse_kind("ismcts:40:solver:12:none", 0).search == frozenset()
    assert parse_kind("ismcts", 0).search == IsmctsPlayer().search
    for bad in ("ismcts:4::deep", "ismcts:4::0", "ismcts:4:::take", "ismcts:4:greedy:8:offer:more"):
        with pytest.raises(IllegalActionError):
            parse_kind(bad, 0)


def test_paired_against_a_named_base() -> None:
    same = paired("zsy", 3, "greedy", seed=5, base="greedy")
    assert same.gain == 0.0 and same.changed_games == 0 and same.base == "greedy"
    other = paired("zsy", 3, "greedy", seed=5)
    assert other.base == "solver" and other.win_rate == same.win_rate


def test_hold_back_is_cards() -> None:
    game = _manipulation_hold_back(5)
    own = SolverPlayer().choose(game)
    hand = game.hands[game.to_move]
    for action in manipulation_alternatives(game, own):
        added = Cards(c for m in action.table for c in m.cards) - Cards(c for m in game.table for c in m.cards)
        assert added <= hand
