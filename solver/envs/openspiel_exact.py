"""An exact sampler of the deals that fit a history: per constrained block, then disjoint.

A resample must draw a deal of the hidden cards uniformly among the deals
that fit what the player saw (every deal of the chance model is equally
likely, so the chance model conditioned on the history is uniform over
them). The history constrains a deal through *checks*
(:class:`solver.envs.openspiel_resample.Judge`): before another player's
draw, pass or tribute, that player's hand as the deal makes it must make
the action legal. A check asks only the slots the mover's hand then held.

Joining the slots of one check, the constrained slots fall into *blocks*
(connected components: in Manipulation, each other player's hidden hand);
the other hidden slots (the stock's) are free. Tell the copies of a card
apart (label the pool's cards ``0 .. n-1``): a deal is then a permutation
of the labels over the slots, each equally likely, and it fits if and only
if each block's labels pass the block's checks. For a fixed choice of
every block's labels the free slots take the rest in any of the same
number of orders, so the blocks' labels of a fitting deal are uniform over
the tuples of *pairwise disjoint* label sequences each passing its own
checks. :func:`sample` draws that: each block's labels on their own,
uniformly among the sequences of distinct labels that pass its checks (a
block is dealt from the whole pool until its checks pass), then the tuple
is kept if no label is used twice, else every block is drawn again (the
product distribution conditioned on disjointness is the wanted one); the
free slots take the remaining labels in a uniformly random order. Every
deal kept is an exact draw: nothing is started from the true deal and
nothing is accepted for want of another.

The cost is the blocks' own acceptance (a hand of five that could not
play: a few tries) and the chance that the blocks' labels are disjoint
(the hands' hidden cards are few beside the stock), not the product of
every check's chance, which is what dealing the whole deal anew pays. A
count of judge calls bounds the work; past it :func:`sample` gives
``None`` and the caller falls back (``openspiel_resample``: its chain).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import Any

from solver.cards import NATURAL_CARDS, Cards
from solver.manipulation.simple import additions

__all__ = ["BUDGET", "blocks", "forbidden", "sample"]

BUDGET = 600  # judge calls one sample may make before giving up (a count, so load does not change it)

_NATURALS = Cards(NATURAL_CARDS)  # one of each natural card: what a meld may take
Fits = Callable[[dict[int, int], tuple[int, ...]], bool]


def blocks(checks: Sequence[set[int]], slots: Sequence[int]) -> list[tuple[int, ...]]:
    """The hidden ``slots`` joined by the checks that ask them (union-find), the free ones left out;
    each block in slot order, the blocks by their first slot."""
    hidden = set(slots)
    parent = {k: k for k in hidden}

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    asked: set[int] = set()
    for check in checks:
        mine = sorted(k for k in check if k in hidden)
        asked.update(mine)
        for k in mine[1:]:
            parent[root(k)] = root(mine[0])
    out: dict[int, list[int]] = {}
    for k in sorted(asked):
        out.setdefault(root(k), []).append(k)
    return sorted((tuple(b) for b in out.values()), key=lambda b: b[0])


def forbidden(checks: Sequence[tuple[Any, Any, Any]]) -> list[frozenset[int]]:
    """Per Manipulation check (the engine game before the action, the action, ...), the cards whose
    presence in the mover's hand fails it: before an opened player's draw or pass (``must_play`` not
    ``never``: the player could not play), every card the table's melds take as they stand (that card
    alone was a play). Other checks forbid nothing. Worked out once per table."""
    out: list[frozenset[int]] = []
    seen: dict[int, tuple[Any, frozenset[int]]] = {}
    for game, action, _ in checks:
        kind = type(action).__name__
        if kind not in ("MDraw", "MPass") or game.rules.must_play == "never" or not game.opened[action.player]:
            out.append(frozenset())
            continue
        known = seen.get(id(game.table))
        if known is None or known[0] is not game.table:
            known = seen[id(game.table)] = (game.table, _takes(game.table, game.rules))
        out.append(known[1])
    return out


def _takes(table: tuple[Any, ...], rules: Any) -> frozenset[int]:
    """The natural cards that some meld of ``table`` takes as it stands (one card added)."""
    return frozenset(
        c.index for n, grown in additions(table, _NATURALS, rules) for c in Cards(grown.cards) - Cards(table[n].cards)
    )


def sample(
    slots: Sequence[int],
    cards: Sequence[int],
    checks: Sequence[set[int]],
    fits: Fits,
    rng: random.Random,
    forbidden: Sequence[frozenset[int]] = (),
    budget: int = BUDGET,
) -> dict[int, int] | None:
    """A uniform draw of the deals of ``cards`` over ``slots`` that fit (module docstring), or None
    past ``budget`` judge calls.

    ``cards[i]`` is the card the slot ``slots[i]`` holds now (the true deal, which fits); ``checks``
    the slots each check asks; ``fits(outcomes, changed)`` whether the deal ``outcomes`` (slot: card,
    the true cards elsewhere) passes the checks that ask a slot of ``changed`` (the others untouched).
    ``forbidden[n]``: cards that fail check ``n`` whenever a slot it asks holds one (a hint that only
    narrows the draws, :func:`_allowed`; the checks still decide).
    """
    truth = dict(zip(slots, cards))
    parts = blocks(checks, slots)
    free = [k for k in slots if not any(k in b for b in parts)]
    labels = range(len(cards))
    narrowed = [_allowed(block, cards, checks, forbidden) for block in parts]
    calls = [0]
    while True:
        chosen: list[list[int]] = []
        for block, allowed in zip(parts, narrowed):
            got = _block(block, allowed, cards, truth, fits, rng, calls, budget)
            if got is None:
                return None
            chosen.append(got)
        used = [i for got in chosen for i in got]
        if len(set(used)) == len(used):
            break
    taken = set(used)
    rest = [i for i in labels if i not in taken]
    rng.shuffle(rest)
    out = {k: cards[i] for block, got in zip(parts, chosen) for k, i in zip(block, got)}
    out.update((k, cards[i]) for k, i in zip(free, rest))
    return out


def _allowed(
    block: tuple[int, ...], cards: Sequence[int], checks: Sequence[set[int]], forbidden: Sequence[frozenset[int]]
) -> list[tuple[int, list[int]]]:
    """Per slot of ``block`` (most narrowed first), the labels it may hold: those whose card no check
    asking the slot forbids. Every fitting sequence keeps to them, and a uniform draw of distinct
    labels within them is easy when the lists are nested (each within the next: a hand's slots, the
    older ones asked by more checks); otherwise every label is allowed (still exact, only slower)."""
    out = []
    for k in block:
        barred: set[int] = set()
        for n, check in enumerate(checks):
            if k in check and n < len(forbidden):
                barred |= forbidden[n]
        out.append((k, [i for i, c in enumerate(cards) if c not in barred]))
    out.sort(key=lambda entry: len(entry[1]))
    if all(set(a) <= set(b) for (_, a), (_, b) in itertools.pairwise(out)):
        return out
    return [(k, list(range(len(cards)))) for k in block]


def _block(
    block: tuple[int, ...],
    allowed: list[tuple[int, list[int]]],
    cards: Sequence[int],
    truth: dict[int, int],
    fits: Fits,
    rng: random.Random,
    calls: list[int],
    budget: int,
) -> list[int] | None:
    """Labels for ``block`` (in its slot order) drawn uniformly among the sequences of distinct labels
    that pass its checks, or None past the budget. A proposal takes, slot by slot along ``allowed``
    (nested), a label uniformly among the slot's allowed ones not yet taken: their number does not
    depend on the earlier picks (those lie in every later list), so each sequence within the lists is
    equally likely; it is kept when the checks pass (rejection from a uniform superset: exact)."""
    while calls[0] < budget:
        calls[0] += 1
        taken: dict[int, int] = {}
        used: set[int] = set()
        for k, labels in allowed:
            pick = _pick(labels, used, rng)
            if pick is None:
                return None  # (cannot happen: the true deal keeps to the lists)
            taken[k] = pick
            used.add(pick)
        deal = dict(truth)
        deal.update((k, cards[i]) for k, i in taken.items())
        if fits(deal, block):
            return [taken[k] for k in block]
    return None


def _pick(labels: list[int], used: set[int], rng: random.Random) -> int | None:
    """A label of ``labels`` not in ``used``, uniformly (a label drawn again while it is used: the
    first one free is uniform among the free ones; the free ones listed when most are used)."""
    if 2 * len(used) < len(labels):
        while True:
            pick = labels[rng.randrange(len(labels))]
            if pick not in used:
                return pick
    left = [i for i in labels if i not in used]
    return rng.choice(left) if left else None
