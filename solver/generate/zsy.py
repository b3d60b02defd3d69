"""Zheng Shang You puzzles: "out in K plays" (a unique fewest-plays split), "which reply" and
"which lead" (a two-player endgame with one winning lead).

"Out in K plays": the hand splits into K combinations and no fewer
(:func:`solver.zsy.fewest_plays`), and :func:`splits` proves by search
that exactly one set of K card groups does it. "Which reply": the one best
reply (:func:`solver.zsy.best_reply`) is a reply that shortens the hand
(exactly one set of cards leaves the fewest plays to go out, fewer than
now), or a pass when every reply leaves more plays than now; there are
other replies to choose from.

Hands are dealt from a window of neighbouring ranks (so combinations form),
with a wild now and then.

"Which lead": only about 1 random two-player deal in 40 has exactly one
winning lead, so a lead deal is built (:func:`lead_deal`): the opponent's
hand, then a control (a combination of yours the opponent cannot beat) and
one or more combinations the opponent can beat; the exact endgame
(:func:`solver.zsy.endgame.solve_lead`) then keeps it when exactly one
lead wins against every defence.
"""

from __future__ import annotations

import random

from solver.cards import Card, Cards
from solver.errors import ComboError
from solver.generate.difficulty import SOLVE_SECONDS, Level, measure
from solver.generate.ladder import fewest_decoys, place
from solver.generate.players import zsy_lead, zsy_out_plays, zsy_reply
from solver.legality import zsy_deal_size
from solver.puzzles import Puzzle, ZsyPosition
from solver.rules import ZsyRules
from solver.zsy import Combo, best_reply, classify, fewest_plays, legal_moves, plays_after, zsy_value

__all__ = [
    "HAND_SIZES",
    "LEAD_SIZES",
    "NEAR_BEST_CAP",
    "random_hand",
    "splits",
    "candidate",
    "verify_split",
    "lead_deal",
]

HAND_SIZES: dict[Level, tuple[int, int]] = {
    "easy": (5, 8),
    "medium": (7, 10),
    "hard": (9, 12),
    "expert": (11, 14),
}
"""Hand sizes per level (inclusive), within what a deal gives (:func:`_hand_size`)."""

LEAD_SIZES: dict[Level, tuple[tuple[int, int], tuple[int, int]]] = {
    "easy": ((2, 3), (1, 1)),
    "medium": ((3, 4), (1, 2)),
    "hard": ((3, 5), (1, 2)),
    "expert": ((4, 5), (2, 2)),
}
"""Per level, for a lead deal: the opponent's cards and the beatable combinations beside your control."""

NEAR_BEST_CAP = 8
"""Near-best moves counted at most (a big hand has dozens; past a few they add no difficulty)."""


def _order(card: Card) -> tuple[int, int]:
    return (zsy_value(card), card.index)


def random_hand(rng: random.Random, rules: ZsyRules, size: int, pool: Cards | None = None) -> Cards:
    """``size`` cards from a window of about ``size // 2 + 2`` neighbouring ranks, plus a wild now and then."""
    deck = sorted(pool if pool is not None else rules.deck, key=_order)
    naturals = [c for c in deck if zsy_value(c) <= 14]
    wilds = [c for c in deck if zsy_value(c) > 14]
    width = min(12, size // 2 + 2)
    low = rng.randint(3, 15 - width)
    window = [c for c in naturals if low <= zsy_value(c) < low + width]
    n_wild = min(len(wilds), rng.choice((0, 0, 1, 1, 2)))
    cards = rng.sample(wilds, n_wild) + rng.sample(window, min(len(window), size - n_wild))
    return Cards(cards)


def splits(hand: Cards, plays: int, rules: ZsyRules, limit: int = 2) -> list[tuple[Cards, ...]]:
    """Up to ``limit`` distinct splits of ``hand`` into ``plays`` combinations (as groups of cards).

    Each split is found once: the group holding the lowest card comes
    first, and only moves after which :func:`plays_after` leaves exactly the
    plays still allowed are followed. The same cards declared as two kinds
    are one group.
    """
    if not hand:
        return [()] if plays == 0 else []
    if plays <= 0:
        return []
    low = min(hand, key=_order)
    moves = [m for m in legal_moves(hand, None, rules) if low in m.cards]
    after, status = plays_after(hand, moves, rules, time_limit=SOLVE_SECONDS)
    if status != "optimal":  # pragma: no cover - small hands finish at once
        raise ComboError("the fewest-plays search did not finish")
    out: list[tuple[Cards, ...]] = []
    tried: set[Cards] = set()
    for move, left in zip(moves, after):
        if left != plays - 1 or move.cards in tried:
            continue
        tried.add(move.cards)
        for rest in splits(hand - move.cards, plays - 1, rules, limit - len(out)):
            out.append((move.cards, *rest))
            if len(out) >= limit:
                return out
    return out


def verify_split(hand: Cards, plays: tuple[Combo, ...], rules: ZsyRules) -> None:
    """Every play a combination of its cards, and together exactly the hand (ComboError otherwise)."""
    if Cards(c for p in plays for c in p.cards) != hand:
        raise ComboError("the split does not use exactly the hand")
    for p in plays:
        if not any(k.kind == p.kind for k in classify(p.cards, rules)):
            raise ComboError(f"{p} is not a {p.kind}")


def _hand_size(rng: random.Random, rules: ZsyRules, level: Level) -> int:
    """A hand size of the level's range that a deal can give: no more than the deck dealt among the
    fewest players the rules allow (:func:`solver.legality.zsy_deal_size`: 14 among 4)."""
    low, high = HAND_SIZES[level]
    most = zsy_deal_size(rules)
    return rng.randint(min(low, most), min(high, most))


def _codes(cards: Cards) -> str:
    return " ".join(c.code for c in sorted(cards, key=_order))


def _out(rng: random.Random, rules: ZsyRules, level: Level) -> Puzzle | None:
    hand = random_hand(rng, rules, _hand_size(rng, rules, level))
    split = fewest_plays(hand, rules, time_limit=SOLVE_SECONDS)
    k = split.count
    if split.status != "optimal" or k < 2 or len(hand) < k + 3:
        return None
    leads = legal_moves(hand, None, rules)
    after, _ = plays_after(hand, leads, rules, time_limit=SOLVE_SECONDS)
    feats = {
        "plays": k,
        "hand": len(hand),
        "wilds": sum(1 for c in hand if zsy_value(c) > 14),
        "greedy_shortfall": zsy_out_plays("greedy", hand, rules) - k,
        "near_best": min(NEAR_BEST_CAP, len({m.cards for m, a in zip(leads, after) if a == k})),
        "kinds": len({p.kind for p in split.plays}),
    }
    difficulty = measure("zsy", feats, level)
    if feats["near_best"] < fewest_decoys("zsy", level, "out"):
        return None
    puzzle = Puzzle(
        "zsy",
        rules,
        ZsyPosition(hand),
        f"Out in {k} plays",
        {"fewest_plays": k},
        meta={"kind": "out", **difficulty.as_dict(), "solution": [str(p) for p in split.plays]},
    )
    placed = place(puzzle, level)
    if placed is None or len(splits(hand, k, rules)) != 1:
        return None
    verify_split(hand, split.plays, rules)
    return placed


def _reply(rng: random.Random, rules: ZsyRules, level: Level) -> Puzzle | None:
    """A "which reply" puzzle whose answer is the one best reply (:func:`solver.zsy.best_reply`):
    a reply that shortens the hand (leaves fewer plays than now, and no other cards do), or a pass
    when every reply leaves more plays than now."""
    hand = random_hand(rng, rules, _hand_size(rng, rules, level))
    other = random_hand(rng, rules, 6, Cards(rules.deck) - hand)
    leads = [m for m in legal_moves(other, None, rules) if m.kind != "single" or rng.random() < 0.2]
    if not leads:
        return None
    to_beat = rng.choice(leads)
    moves = legal_moves(hand, to_beat, rules)
    if len({m.cards for m in moves}) < 2:
        return None
    reply = best_reply(hand, to_beat, rules, moves=moves, time_limit=SOLVE_SECONDS)
    if reply.status != "optimal":  # pragma: no cover
        return None
    best = reply.ranked[0][1]
    now = reply.now
    if reply.combo is None:
        if best <= now:  # kept for a reason of taste (a wild, an ace): not a puzzle with one answer
            return None
        answer, rest = Cards(), fewest_plays(hand, rules, time_limit=SOLVE_SECONDS)
    else:
        winners = {m.cards for m, a in reply.ranked if a == best}
        if best >= now or len(winners) != 1:
            return None
        answer = reply.combo.cards
        rest = fewest_plays(hand - answer, rules, time_limit=SOLVE_SECONDS)
        if rest.count != best:  # pragma: no cover - two searches agree
            raise ComboError("plays_after and fewest_plays disagree")
    greedy = zsy_reply("greedy", hand, to_beat, rules)
    feats = {
        "plays": (best if reply.combo is None else best + 1),
        "hand": len(hand),
        "wilds": sum(1 for c in hand if zsy_value(c) > 14),
        "greedy_shortfall": 0 if greedy == (answer or None) else 1,
        "near_best": min(NEAR_BEST_CAP, len({m.cards for m, a in reply.ranked if a == best + 1})),
        "kinds": len({p.kind for p in rest.plays} | {to_beat.kind}),
    }
    difficulty = measure("zsy", feats, level)
    if feats["near_best"] < fewest_decoys("zsy", level, "reply"):
        return None
    return place(
        Puzzle(
            "zsy",
            rules,
            ZsyPosition(hand, to_beat.cards, to_beat.kind),
            f"Reply to {to_beat}, or pass?",
            {"fewest_plays": now, "moves": len(moves)},
            meta={
                "kind": "reply",
                **difficulty.as_dict(),
                "solution": _codes(answer) if answer else "pass",
                "then": [str(p) for p in rest.plays],
            },
        ),
        level,
    )


def lead_deal(rng: random.Random, rules: ZsyRules, level: Level) -> tuple[Cards, Cards] | None:
    """A built two-player deal (your hand, the opponent's): a control the opponent cannot beat and
    combinations it can (None when the draw makes none)."""
    (low, high), (fewest, most) = LEAD_SIZES[level]
    opponent = random_hand(rng, rules, rng.randint(low, high))
    pool = Cards(rules.deck) - opponent
    controls = [m for m in legal_moves(random_hand(rng, rules, 8, pool), None, rules) if m.size >= 2]
    controls = [m for m in controls if not legal_moves(opponent, m, rules)]
    if not controls:
        return None
    hand = rng.choice(controls).cards
    for _ in range(rng.randint(fewest, most)):
        beatable = [m for m in legal_moves(random_hand(rng, rules, 5, pool - hand), None, rules)]
        beatable = [m for m in beatable if legal_moves(opponent, m, rules)]
        if not beatable:
            return None
        hand = hand + rng.choice(beatable).cards
    return hand, opponent


def _lead(rng: random.Random, rules: ZsyRules, level: Level) -> Puzzle | None:
    """A "which lead" puzzle: a built two-player deal with exactly one winning lead among several."""
    from solver.zsy.endgame import solve_lead

    deal = lead_deal(rng, rules, level)
    if deal is None:
        return None
    hand, opponent = deal
    endgame = solve_lead(hand, opponent, rules, line=False)
    if len(endgame.winning) != 1 or len({m.cards for m, _ in endgame.leads}) < 4:
        return None
    (answer,) = endgame.winning
    split = fewest_plays(hand, rules, time_limit=SOLVE_SECONDS)
    feats = {
        "plays": split.count,
        "hand": len(hand),
        "wilds": sum(1 for c in hand if zsy_value(c) > 14),
        "greedy_shortfall": 0 if zsy_lead("greedy", hand, opponent, rules) == answer.cards else 1,
        "near_best": min(NEAR_BEST_CAP, len(endgame.leads) - 1),
        "kinds": len({m.kind for m, _ in endgame.leads}),
    }
    difficulty = measure("zsy", feats, level)
    if feats["near_best"] < fewest_decoys("zsy", level, "lead"):
        return None
    return place(
        Puzzle(
            "zsy",
            rules,
            ZsyPosition(hand, opponent=opponent),
            "Which lead wins against the last opponent?",
            {"winning_leads": 1},
            meta={"kind": "lead", **difficulty.as_dict(), "solution": str(answer)},
        ),
        level,
    )


def candidate(rng: random.Random, rules: ZsyRules, level: Level, question: str | None = None) -> Puzzle | None:
    """One attempt at a puzzle of ``level``: ``question`` ``out`` ("out in K plays"), ``reply`` or
    ``lead`` (a two-player endgame); without one, out or reply, one in two each."""
    if question is None:
        question = "out" if rng.random() < 0.5 else "reply"
    if question == "out":
        return _out(rng, rules, level)
    if question == "lead":
        return _lead(rng, rules, level)
    return _reply(rng, rules, level)
