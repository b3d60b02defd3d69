"""Contract Shanghai benchmark: ``python -m benchmarks.bench_contract [--n 500] [--seed 1]``.

Random positions under the default (``finnish``) rules:

* contract check + best lay-down of a 13-card hand with 0-4 wilds, a random
  round; split into the hands that cannot make the contract (turned down by
  the plain-Python pre-check) and those that can (CP-SAT lay-down); the
  pre-check alone (``contract_possible``) on every hand;
* distance to the contract for the same hands (missing count; and with the
  cards that would do);
* the best discards (distance after discarding each distinct card), against
  one distance call per card;
* best lay-off of an 8-card hand onto a table of 12 random melds with wilds
  (owners 0-3, so wild swaps are possible).

Peers in the same run, whose answers must agree: the exhaustive searches of
``solver/contract/brute.py`` (on a subset: they are slow), the CP-SAT
distance model (``method="cp-sat"``, on a subset) and one distance call per
card for the discards. Prints a rich table of medians and maxima in
milliseconds.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from solver.cards import Card, Cards, Rank, Suit
from solver.contract import best_discards, best_lay_down, best_layoff, distance_to_contract
from solver.contract.brute import exhaustive_lay_down, exhaustive_layoff
from solver.contract.search import contract_possible
from solver.errors import MeldError
from solver.melds import Meld, TableMeld, meld_kind
from solver.rules import ContractRules


def random_hand(rng: random.Random, rules: ContractRules, size: int = 13, max_wilds: int = 4) -> Cards:
    """``size`` cards from the decks, 0..``max_wilds`` of them wild."""
    deck = list(rules.deck)
    wilds = [c for c in deck if c in rules.wilds]
    naturals = [c for c in deck if c not in rules.wilds]
    w = rng.randint(0, max_wilds)
    return Cards(rng.sample(wilds, w) + rng.sample(naturals, size - w))


def random_table(rng: random.Random, rules: ContractRules, n: int = 12) -> list[TableMeld]:
    """``n`` valid melds (sets and runs, some with wilds, some roles written) within the decks."""
    spec = rules.meld_spec
    wild = sorted(rules.wilds, key=lambda c: c.index)
    used = Cards()
    out: list[TableMeld] = []
    while len(out) < n:
        if rng.random() < 0.5:
            rank = Rank(rng.randint(1, 13))
            cards = [Card(rank, rng.choice(list(Suit))) for _ in range(rng.randint(3, 4))]
            cards = [c for c in cards if c not in rules.wilds]
            if rng.random() < 0.4:
                cards.append(rng.choice(wild))
            roles: list[Card | None] = [None] * len(cards)
        else:
            suit = rng.choice(list(Suit))
            start = rng.randint(1, 10)
            cards, roles = [], []
            for p in range(start, min(14, start + rng.randint(4, 6))):
                card = Card(Rank(1 if p == 14 else p), suit)
                if card in rules.wilds or rng.random() < 0.15:
                    cards.append(rng.choice(wild))
                    roles.append(card if rng.random() < 0.5 else None)
                else:
                    cards.append(card)
                    roles.append(None)
        meld = Meld(tuple(cards), tuple(roles))
        try:
            meld_kind(meld, spec)
            (used + meld.multiset).check_against(rules.deck)
        except (MeldError, ValueError):
            continue
        used = used + meld.multiset
        out.append(TableMeld(meld, rng.randint(0, 3)))
    return out


def layoff_hand(rng: random.Random, rules: ContractRules, table: list[TableMeld], size: int = 8) -> Cards:
    """A hand of cards near the table's melds (and a wild or two), within what the decks still hold."""
    rest = rules.deck - Cards(c for t in table for c in t.meld.cards)
    near = [c for c in rest if c in rules.wilds or rng.random() < 0.25]
    return Cards(rng.sample(near, min(size, len(near))))


def timed(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[float, Any]:
    start = time.perf_counter()
    result = fn(*args, **kwargs)
    return (time.perf_counter() - start) * 1000, result


Row = tuple[str, list[float], str]
Hands = list[tuple[Cards, int]]


def main() -> None:
    """Run every question on random positions and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=500, help="random positions per question")
    parser.add_argument("--peer", type=int, default=60, help="positions also solved by exhaustive search")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rules = ContractRules()
    console = Console()

    hands = [(random_hand(rng, rules), rng.randint(1, 7)) for _ in range(args.n)]
    # warm the caches (shape tables, the deck) so the first position is not charged for them
    distance_to_contract(hands[0][0], rules, hands[0][1])
    best_lay_down(hands[0][0], rules, hands[0][1])
    rows = lay_down_rows(hands, rules, args.peer)
    rows += distance_rows(hands, rules, args.peer)
    rows += discard_rows(hands, rules)
    rows += layoff_rows(rng, rules, args.n, args.peer)

    table_out = Table(title=f"Contract Shanghai, {args.n} random positions (seed {args.seed}), ms")
    for col in ("question", "median", "max", "n", "note"):
        table_out.add_column(col, justify="right" if col in ("median", "max", "n") else "left")
    for name, times, note in rows:
        if times:
            table_out.add_row(name, f"{statistics.median(times):.2f}", f"{max(times):.1f}", str(len(times)), note)
    console.print(table_out)


def lay_down_rows(hands: Hands, rules: ContractRules, peer: int) -> list[Row]:
    """Contract check + best lay-down, split by the pre-check's answer; the first ``peer`` against brute force."""
    t_down: list[float] = []
    t_no: list[float] = []
    t_yes: list[float] = []
    t_pre: list[float] = []
    t_peer: list[float] = []
    for k, (hand, round_) in enumerate(hands):
        ms, down = timed(best_lay_down, hand, rules, round_)
        t_down.append(ms)
        (t_no if down is None else t_yes).append(ms)
        ms, _ = timed(contract_possible, hand, rules, rules.contract(round_))
        t_pre.append(ms)
        if k < peer:
            whole = round_ == rules.rounds and rules.last_round_all_at_once
            ms2, brute = timed(exhaustive_lay_down, hand, rules, round_, max_left=1 if whole else None)
            t_peer.append(ms2)
            assert (brute is None) == (down is None) and (brute is None or brute.points_left == down.points_left)
    return [
        ("contract check + best lay-down (13 cards, 0-4 wilds)", t_down, f"{len(t_yes)}/{len(hands)} can lay down"),
        ("  hands that cannot (pre-check turns them down)", t_no, "no CP-SAT model built"),
        ("  hands that can (CP-SAT best lay-down)", t_yes, ""),
        ("  pre-check alone (contract_possible)", t_pre, "exact, plain Python"),
        ("  peer: exhaustive search", t_peer, f"{len(t_peer)} positions, answers agree"),
    ]


def distance_rows(hands: Hands, rules: ContractRules, peer: int) -> list[Row]:
    """Distance to the contract (missing only, then with the cards); the first ``peer`` against the CP-SAT model."""
    t_dist: list[float] = []
    t_opts: list[float] = []
    t_cp: list[float] = []
    unproven = 0
    cp_unproven = 0
    missing: list[int] = []
    for k, (hand, round_) in enumerate(hands):
        ms, d = timed(distance_to_contract, hand, rules, round_, options=False, time_limit=2.0)
        t_dist.append(ms)
        missing.append(d.missing)
        unproven += d.status != "optimal"
        ms, full = timed(distance_to_contract, hand, rules, round_, time_limit=2.0)
        t_opts.append(ms)
        assert full.missing == d.missing
        if k < peer:
            ms, cp = timed(distance_to_contract, hand, rules, round_, time_limit=2.0, method="cp-sat")
            t_cp.append(ms)
            if cp.status == "optimal":
                assert cp.missing == full.missing and cp.options == full.options
            else:
                cp_unproven += 1
    note = f"median missing {statistics.median(missing)}, {unproven} not proven in 2 s"
    return [
        ("distance to contract (missing only)", t_dist, note),
        ("distance + the cards that would do", t_opts, f"{len(t_opts)} positions"),
        (
            "  peer: CP-SAT distance + cards",
            t_cp,
            f"{len(t_cp)} positions, {cp_unproven} not proven in 2 s, rest agree",
        ),
    ]


def discard_rows(hands: Hands, rules: ContractRules) -> list[Row]:
    """The best discards, against one distance call per card."""
    t_disc: list[float] = []
    t_each: list[float] = []
    for hand, round_ in hands:
        ms, ranked = timed(best_discards, hand, rules, round_)
        t_disc.append(ms)
        start = time.perf_counter()
        each = {c: distance_to_contract(hand - Cards([c]), rules, round_, options=False).missing for c, _ in ranked}
        t_each.append((time.perf_counter() - start) * 1000)
        assert each == dict(ranked)
    return [
        ("best discards (distance after each distinct card)", t_disc, f"{len(t_disc)} positions"),
        ("  peer: one distance call per card", t_each, "answers agree"),
    ]


def layoff_rows(rng: random.Random, rules: ContractRules, n: int, peer: int) -> list[Row]:
    """Best lay-off of ``n`` random hands onto random tables; the first ``peer // 2`` against brute force."""
    t_lay: list[float] = []
    t_lpeer: list[float] = []
    swaps = 0
    for k in range(n):
        table = random_table(rng, rules)
        hand = layoff_hand(rng, rules, table)
        ms, lay = timed(best_layoff, hand, table, rules, player=0)
        t_lay.append(ms)
        swaps += bool(lay.swaps)
        if k < peer // 2:
            ms2, brute = timed(exhaustive_layoff, hand, table, rules, player=0)
            t_lpeer.append(ms2)
            assert (brute.primary, brute.secondary) == (lay.points, len(lay.played))
    return [
        ("best lay-off, 12 melds, wild swaps (8 cards)", t_lay, f"{swaps} with swaps"),
        ("  peer: exhaustive search", t_lpeer, f"{len(t_lpeer)} positions, answers agree"),
    ]


if __name__ == "__main__":
    main()
