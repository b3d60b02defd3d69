"""Brute-force listings the soak (:mod:`benchmarks.soak_reachable`) compares the action space with.

* Contract Shanghai, a laid-down player's one-card moves: every lay-off of one hand card onto each
  table meld with every role a wild could be written with, and every swap (each wild a hand card
  replaces, each destination, every role), each kept when the engine's own rule check
  (``is_legal``) accepts it. The distinct effects (the tables they leave) must be exactly the
  effects reached by walking the mask from ``select c`` + ``layoff m`` + roles and from
  ``swap c m`` + ``dest m k``, each by one path; the engine lists exactly the one-card lay-offs'
  effects, each once, and every swap it lists has one of those effects.
* Manipulation Shanghai, the jokers' roles: each listed play whose new melds hold jokers, with
  every role each joker could be written with (left open, or any card of a natural's suit or rank:
  no other makes a valid meld), kept when the engine accepts it; each such play encodes to a path
  in the mask that makes its effect, distinct effects by distinct paths.
"""

from __future__ import annotations

import itertools
from typing import Any

from solver.cards import ALL_CARDS, Card
from solver.envs.actions import ContractCodec, Turn, codec_for
from solver.envs.turn import MAX_MELDS
from solver.melds import Meld

__all__ = ["contract_one_card_moves", "manipulation_joker_roles"]

NATURALS = ALL_CARDS[:52]


def _walk(turn: Turn, first: int, last: int, out: list[Any], state: Any) -> None:
    """Every index path from ``turn`` through indexes in ``first``..``last`` (and role steps) to an engine
    action: the states they leave, appended to ``out``."""
    codec = ContractCodec
    for index in turn.legal():
        if not first <= index < last:
            continue
        t = turn.clone()
        if t.apply(index) is not None:
            out.append(state(t.game))
        elif t.reading is not None:
            _walk(t, codec.ROLE, codec.SWAP, out, state)
        elif t.stage is not None:
            _walk(t, codec.DEST, codec.size, out, state)


def contract_one_card_moves(game: Any, after: Any, state: Any) -> int:
    """Compare the one-card lay-offs and swaps reachable in the mask with the brute-force listing
    (module docstring); returns the moves the listing found (0 outside a laid-down player's play)."""
    from solver.contract.game import CLayOff, CSwap
    from solver.contract.layoff import Swap

    p = game.current_player()
    if game.phase != "play" or not game.laid_down[p] or (game.laid_this_turn and not game.rules.layoff_same_turn):
        return 0
    spec = game.rules.meld_spec
    hand = sorted(set(game.hands[p]), key=lambda c: c.index)
    brute: set[str] = set()
    for m in range(min(len(game.table), MAX_MELDS)):
        for c in hand:
            for r in [None, *NATURALS] if spec.is_wild(c) else [None]:
                action = CLayOff(p, m, Meld((c,), (r,)))
                if game.is_legal(action):
                    brute.add(str(after(game, action)))
    listed = [str(after(game, a)) for a in game.legal_actions() if isinstance(a, CLayOff)]
    assert sorted(listed) == sorted(brute), "the engine's one-card lay-offs are not the brute-force listing's"
    for i, tm in enumerate(game.table[:MAX_MELDS]):
        for wild in {c for c in tm.meld.cards if spec.is_wild(c)}:
            for card in (c for c in hand if not spec.is_wild(c)):
                for dest, role in itertools.product(range(min(len(game.table), MAX_MELDS)), [None, *NATURALS]):
                    swap = CSwap(p, Swap(card, i, wild, dest), role)
                    if game.is_legal(swap):
                        brute.add(str(after(game, swap)))
    reached: list[Any] = []
    turn = Turn(game.clone())
    for c in hand:  # one card selected, then ``layoff m`` and its roles
        t = turn.clone()
        t.apply(ContractCodec.SELECT + c.index)
        _walk(t, ContractCodec.LAYOFF, ContractCodec.ROLE, reached, state)
    _walk(turn, ContractCodec.SWAP, ContractCodec.DEST, reached, state)
    texts = [str(s) for s in reached]
    assert len(texts) == len(set(texts)), "two index paths leave one table"
    assert set(texts) == brute, (
        f"reached but not legal: {len(set(texts) - brute)}; legal, not reached: {len(brute - set(texts))}"
    )
    swaps = {str(after(game, a)) for a in game.legal_actions() if isinstance(a, CSwap)}
    assert swaps <= brute
    return len(brute)


def _roles(meld: Meld, spec: Any) -> list[list[Card | None]]:
    """For each card of ``meld``, the roles it may be written with: a wild's open, or any card sharing a
    natural's suit or rank; a natural's none."""
    naturals = [c for c in meld.cards if not spec.is_wild(c)]
    fits = [r for r in NATURALS if any(r.suit == c.suit or r.rank == c.rank for c in naturals)]
    return [[None, *fits] if spec.is_wild(c) else [None] for c in meld.cards]


def manipulation_joker_roles(game: Any, after: Any, state: Any, most: int | None) -> int:
    """Every joker role of the listed plays' new melds reachable (module docstring); returns the
    plays checked."""
    from solver.manipulation.game import MPlay

    spec = game.rules.meld_spec
    codec = codec_for(game)
    old = set(game.table)
    checked = 0
    for play in [a for a in game.legal_actions() if isinstance(a, MPlay)][: most or None]:
        for at, meld in enumerate(play.table):
            if meld in old or not any(map(spec.is_wild, meld.cards)):
                continue
            paths: dict[tuple[int, ...], str] = {}
            for roles in itertools.product(*_roles(meld, spec)):
                variant = MPlay(play.player, (*play.table[:at], Meld(meld.cards, roles), *play.table[at + 1 :]))
                if not game.is_legal(variant):
                    continue
                path = tuple(codec.encode(game, variant))
                want = str(after(game, variant))
                turn = Turn(game.clone())
                for index in path:
                    assert index in turn.legal(), f"{variant}: {codec.name(index)} not in the mask"
                    turn.apply(index)
                assert str(state(turn.game)) == want, f"{variant}: {[codec.name(i) for i in path]}"
                assert paths.setdefault(path, want) == want, f"{variant}: a path shared by two effects"
                checked += 1
    return checked
