"""Table melds of a game in progress: wild roles written for display, and the wilds a natural may replace.

Pure helpers of :class:`solver.contract.game.ContractGame`: they read a
meld and the rules, never the game state.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from solver.cards import Card, Cards
from solver.melds import Meld, meld_kind
from solver.ranks import ace_high
from solver.rules import ContractRules
from solver.rules.base import MeldSpec

__all__ = ["replaceable", "table_kind", "with_roles"]


def with_roles(meld: Meld, resolved: Sequence[Card], rules: ContractRules) -> Meld:
    """Write each wild's resolved role into the meld, ordered for display."""
    spec = rules.meld_spec
    pairs = [(c, r if spec.is_wild(c) else None) for c, r in zip(meld.cards, resolved)]
    kind = "run" if len({r.suit for r in resolved}) == 1 and len({r.rank for r in resolved}) == len(resolved) else "set"
    if kind == "run":
        high = ace_high(rules.ace, [int(r.rank) for r in resolved if r.rank is not None])

        def pos(pair: tuple[Card, Card | None]) -> int:
            card = pair[1] or pair[0]
            assert card.rank is not None
            return 14 if card.rank == 1 and high else int(card.rank)

        pairs.sort(key=pos)
    return Meld(tuple(c for c, _ in pairs), tuple(r for _, r in pairs))


@lru_cache(maxsize=4096)
def table_kind(meld: Meld, spec: MeldSpec) -> str:
    """The validator's kind of a table meld (memoised: the engine asks it for the same melds each turn)."""
    return meld_kind(meld, spec)


def replaceable(meld: Meld, hand: Cards, spec: MeldSpec) -> list[tuple[Card, Card]]:
    """The (wild, natural from ``hand``) pairs a swap in ``meld`` may make: in a set any
    natural of the set's rank replaces any of its wilds (the source: any ten for the 2S in
    10D 10H 2S), in a run the card a wild stands for. A wild never replaces a wild."""
    wilds = [(c, r) for c, r in zip(meld.cards, meld.roles) if spec.is_wild(c)]
    if not wilds:  # nothing to replace (and no need to validate the meld's kind)
        return []
    naturals = [c for c in hand.distinct() if not spec.is_wild(c)]
    if table_kind(meld, spec) == "set":
        rank = next(c.rank for c in meld.cards if not spec.is_wild(c))
        kinds = sorted({c for c, _ in wilds}, key=lambda c: c.index)
        return [(w, card) for w in kinds for card in naturals if card.rank == rank]
    return [(w, r) for w, r in wilds if r is not None and r in naturals]
