"""Contract Shanghai puzzles: best lay-off with swaps, go out this turn, which card to discard.

Lay-off ("layoff", or "goout" when it leaves at most the final discard):
the player has laid down; a few melds are on the table (black twos standing
for written cards, so swaps are possible) and the hand is dealt mostly
from cards that fit them. The puzzle needs the most cards laid off
(:func:`solver.contract.best_layoff`, objective cards) to come from exactly
one set of hand cards, proven by taking each card of the answer away in
turn (every best set must then be smaller), and the referee
(:func:`solver.contract.referee.check_layoff`, brute force
:func:`~solver.contract.brute.exhaustive_layoff`) to agree.

Discard ("discard"): the player has drawn, has not laid down and cannot; in
the 13 cards a game gives, exactly one card keeps the contract closest and
sheds the most points (:mod:`solver.generate.contract_discard`), checked
again by the CP-SAT distance model.

Every position holds a hand a game gives (:mod:`solver.contract.handsize`):
a lay-off hand larger than a laid-down player keeps states the fewest
``calls`` that explain it.

Whole ("whole"): the last round, played all at once (``last_round_all_at_once``):
after the draw the hand (the deal and the drawn card) goes down only as a
whole, and exactly one card (up to equal copies) is the discard that lets
the rest go down (:func:`solver.contract.whole_discards`, the contract's
melds taking every other card); the melds are checked by the lay-down
referee (:func:`solver.contract.referee.check_lay_down`).

Each kind lives in its own module (:mod:`~solver.generate.contract_layoff`,
:mod:`~solver.generate.contract_discard`, :mod:`~solver.generate.contract_whole`,
:mod:`~solver.generate.contract_laydown`, dealing shared in
:mod:`~solver.generate.contract_deal`); this module picks one per attempt
(:func:`candidate`) and re-exports their public names.
"""

from __future__ import annotations

import random

from solver.generate.contract_depth import depth_candidate
from solver.generate.contract_discard import discard_puzzle
from solver.generate.contract_laydown import LAYDOWN_SIZES, lay_down_ends, laydown_candidate, unique_lay_down
from solver.generate.contract_layoff import LAYOFF_SIZES, layoff_candidate, unique_layoff
from solver.generate.contract_looks import grouping
from solver.generate.contract_proofs import DEPTH_KINDS
from solver.generate.contract_whole import whole_candidate
from solver.generate.difficulty import Level
from solver.generate.errors import GenerateError
from solver.generate.ladder import kinds_at
from solver.puzzles import Puzzle
from solver.rules import ContractRules

__all__ = [
    "candidate",
    "unique_layoff",
    "unique_lay_down",
    "lay_down_ends",
    "grouping",
    "LAYOFF_SIZES",
    "LAYDOWN_SIZES",
]


def candidate(rng: random.Random, rules: ContractRules, level: Level, question: str | None = None) -> Puzzle | None:
    """One attempt at a puzzle of ``level``: ``question`` ``layoff`` (a lay-off or go-out position),
    ``discard`` or ``whole`` (the last round: which discard lets the rest go down); without one, a
    lay-off two times in three where the level has a lay-off rung."""
    if question is None:
        question = "layoff" if "layoff" in kinds_at("contract", level) and rng.random() < 2 / 3 else "discard"
    if question == "layoff":
        return layoff_candidate(rng, rules, level)
    if question == "whole":
        if not rules.last_round_all_at_once:
            raise GenerateError("a whole-hand puzzle needs the last round played all at once (last_round_all_at_once)")
        return whole_candidate(rng, rules, level)
    if question == "laydown":
        return laydown_candidate(rng, rules, level)
    if question in DEPTH_KINDS:
        return depth_candidate(rng, rules, level, question)
    return discard_puzzle(rng, rules, level)
