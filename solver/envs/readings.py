"""Readings: the table melds one group of cards can make, and the role steps that choose among them.

A *reading* is a meld as it lies on the table, each wild's role written
(``JK=8D 9D 10D`` and ``9D 10D JK=JD`` are two readings of ``JK 9D 10D``).
When the cards a player commits have more than one reading, the action
spaces let the player name the wilds' roles one at a time (``role r``: the
wild stands for natural card r; ``role set``: a set's wild, which stands
for the set's rank, its suit cosmetic), in ascending card order of the
wilds whose roles differ between the readings, until one reading is left.
So every reading is reachable by exactly one path, however many there are,
and the action space keeps a fixed size (:data:`ROLE_CODES` indexes).

Contract Shanghai lists its readings with
:func:`solver.envs.contract_actions.meld_options`; Manipulation Shanghai
with :func:`manipulation_readings`.
"""

from __future__ import annotations

import itertools
from typing import Any

from solver.cards import Card, Rank
from solver.errors import MeldError
from solver.melds import Meld, meld_effect, meld_kind, meld_kinds

__all__ = [
    "OPEN_ROLE",
    "ROLE_CODES",
    "ROLE_NAMES",
    "SET_ROLE",
    "manipulation_readings",
    "meld_effect",
    "narrow",
    "reading_keys",
    "role_path",
]

SET_ROLE = 52  # the role code of a wild in a set (it stands for the set's rank: the suit is cosmetic)
OPEN_ROLE = 53  # the role code of a wild left open (Manipulation: the engine's listed plays leave it so)
ROLE_CODES = 54  # role codes: 0..51 the natural card a run's wild stands for, then SET_ROLE, OPEN_ROLE
ROLE_NAMES = {SET_ROLE: "role set", OPEN_ROLE: "role open"}


def _is_set(meld: Meld) -> bool:
    return len(meld.cards) > 1 and len({(r or c).rank for c, r in zip(meld.cards, meld.roles)}) == 1


def reading_keys(tables: list[Meld], spec: Any) -> list[tuple[int, ...]]:
    """Each reading's role codes (its key): the roles of the table meld's wilds at the positions
    (the wilds in ascending card order, each identical card's roles ascending) whose roles differ
    between the readings. Distinct readings have distinct keys of one length, so choosing the codes
    one at a time (``role r``) reaches each reading by exactly one path."""
    full: list[tuple[int, ...]] = []
    for table in tables:
        is_set = _is_set(table)
        wilds = sorted(
            (c.index, OPEN_ROLE if r is None else SET_ROLE if is_set else r.index)
            for c, r in zip(table.cards, table.roles)
            if spec.is_wild(c)
        )
        full.append(tuple(code for _, code in wilds))
    if not full:
        return []
    free = [i for i in range(len(full[0])) if len({key[i] for key in full}) > 1]
    return [tuple(key[i] for i in free) for key in full]


def role_path(keys: list[tuple[int, ...]], k: int) -> list[int]:
    """The role codes that single out reading ``k`` (none when it is the only one)."""
    prefix: list[int] = []
    while sum(1 for key in keys if key[: len(prefix)] == tuple(prefix)) > 1:
        prefix.append(keys[k][len(prefix)])
    return prefix


def narrow(keys: list[tuple[int, ...]], prefix: tuple[int, ...]) -> tuple[list[int], int | None]:
    """The readings left by the role codes ``prefix``: (the next codes to choose from, []) while
    several are left, else ([], the one reading's number)."""
    left = [k for k, key in enumerate(keys) if key[: len(prefix)] == prefix]
    if len(left) == 1:
        return [], left[0]
    return sorted({keys[k][len(prefix)] for k in left}), None


def manipulation_readings(cards: tuple[Card, ...], default: Meld, rules: Any) -> list[Meld]:
    """The distinct readings of a Manipulation meld of ``cards`` (in the order put): ``default`` (the
    action space's own: see :func:`solver.envs.actions.env_meld`) first, then the jokers left open
    (as the engine's listed plays leave them), then, when the cards are a run, each window from low
    to high, its missing cards given to the jokers in card order; then each of these with some of
    its jokers left open (the engine keeps an open joker open: its role may move), each kept when
    the validator accepts it and it is another table meld (:func:`meld_effect`)."""
    spec = rules.meld_spec
    wild_at = [i for i, c in enumerate(cards) if spec.is_wild(c)]
    full = [default, Meld(cards), *_windows(cards, wild_at, spec)] if wild_at else [default]
    out: list[Meld] = []
    seen: set[tuple[tuple[int, int], ...]] = set()
    for meld in full:
        for keep in itertools.product((True, False), repeat=len(wild_at)):  # all written first
            roles = list(meld.roles)
            for i, kept in zip(wild_at, keep):
                roles[i] = roles[i] if kept else None
            candidate = Meld(cards, tuple(roles))
            effect = meld_effect(candidate)
            if effect not in seen and meld_kinds(candidate, spec):
                seen.add(effect)
                out.append(candidate)
    return out


def _windows(cards: tuple[Card, ...], wild_at: list[int], spec: Any) -> list[Meld]:
    """The run readings of ``cards``: each window from low to high, its gaps given to the wilds
    (at ``wild_at``) in card order, kept when the validator accepts it."""
    if "run" not in meld_kinds(Meld(cards), spec):
        return []
    naturals = [c for c in cards if not spec.is_wild(c)]
    suit = naturals[0].suit if naturals else None
    if suit is None:
        return []
    n = len(cards)
    out = []
    for lo in range(1, 16 - n):
        have = {14 if c.rank == 1 and lo + n - 1 == 14 else int(c.rank or 0) for c in naturals}
        gaps = [p for p in range(lo, lo + n) if p not in have]
        if len(gaps) != len(wild_at) or not have <= set(range(lo, lo + n)):
            continue
        roles: list[Card | None] = [None] * n
        for i, p in zip(wild_at, gaps):
            roles[i] = Card(Rank(1 if p == 14 else p), suit)
        meld = Meld(cards, tuple(roles))
        try:
            meld_kind(meld, spec, "run")
        except MeldError:  # the validator refuses this window
            continue
        out.append(meld)
    return out
