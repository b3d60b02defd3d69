"""The Contract Shanghai referee, in plain Python: is a lay-down or a lay-off legal?

Nothing here shares code with the solver (:mod:`solver.contract.search`,
:mod:`solver.contract.model`, :mod:`solver.contract.layoff`) or the graph
layer they use: the referee checks answers with the meld validator of
:mod:`solver.melds` and brute force over wild roles. The engine uses it to
verify actions; the tests check every solver answer with it. The exhaustive
searches that the tests and the benchmark compare the solver with are test
oracles (``solver/contract/brute.py``).

>>> from solver.rules import ContractRules
>>> rules = ContractRules()
>>> check_lay_down(Cards.parse("5H 5D 5S 6C 7C 8C 9C KD"), [Meld.parse("5H 5D 5S"), Meld.parse("6C 7C 8C 9C")], rules, 1)
10
>>> from solver.melds import TableMeld
>>> old = [TableMeld(Meld.parse("10D 10H 2S"), owner=1), TableMeld(Meld.parse("6S 7S 8S 9S"), owner=1)]
>>> new = [TableMeld(Meld.parse("10D 10H 10C"), owner=1), TableMeld(Meld.parse("6S 7S 8S 9S 2S=10S"), owner=1)]
>>> check_layoff(old, Cards.parse("10C 4H"), new, rules, player=0)
Cards.parse('10C')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from solver.cards import Card, Cards, Rank, Suit
from solver.errors import MeldError
from solver.melds import Meld, MeldKind, TableMeld, cards_added, meld_kind
from solver.rules.contract import ContractRules, min_length

__all__ = [
    "check_lay_down",
    "check_layoff",
    "fix_run_wilds",
    "hand_points",
    "swap_possible",
    "is_kind",
    "set_rank",
]


def is_kind(meld: Meld, rules: ContractRules, kind: MeldKind) -> bool:
    """True if ``meld`` is a valid meld of ``kind`` under ``rules``."""
    try:
        meld_kind(meld, rules.meld_spec, kind)
    except MeldError:
        return False
    return True


def set_rank(meld: Meld, rules: ContractRules) -> Rank | None:
    """The rank of a set's natural cards (None when it holds none)."""
    for c in meld.cards:
        if c not in rules.wilds:
            return c.rank
    return None


def hand_points(cards: Cards, rules: ContractRules) -> int:
    """Points of ``cards`` left in hand."""
    return sum(rules.points(c) for c in cards)


def check_lay_down(
    hand: Cards, melds: Sequence[Meld], rules: ContractRules, round_: int, *, max_left: int | None = None
) -> int:
    """Referee a lay-down: the melds are the round's contract, made from the hand; returns points left.

    Each meld must be valid (roles included) and match one requirement of
    the contract, at least its minimum length; sets of one contract differ
    in rank under ``distinct_set_ranks``. With ``max_left``, at most that
    many cards may stay in hand (the last round's whole-hand rule).
    """
    contract = rules.contract(round_)
    if len(melds) != len(contract):
        raise MeldError(
            f"round {round_} needs {len(contract)} melds ({' + '.join(map(str, contract))}), not {len(melds)}"
        )
    used = Cards(c for m in melds for c in m.cards)
    if not used <= hand:
        extra = Cards.from_counts({c: n - hand.count(c) for c, n in used.items() if n > hand.count(c)})
        raise MeldError(f"the melds use cards not in the hand: {extra}")
    ok = False
    for perm in itertools.permutations(range(len(melds))):
        if all(
            len(melds[j]) >= min_length(req, rules) and is_kind(melds[j], rules, req.kind)
            for j, req in zip(perm, contract)
        ):
            if rules.distinct_set_ranks:
                ranks = [set_rank(melds[j], rules) for j, req in zip(perm, contract) if req.kind == "set"]
                if len(set(ranks)) != len(ranks):
                    continue
            ok = True
            break
    if not ok:
        raise MeldError(
            f"the melds {' | '.join(map(str, melds))} do not make the contract {' + '.join(map(str, contract))}"
        )
    left = hand - used
    if max_left is not None and len(left) > max_left:
        raise MeldError(f"{len(left)} cards stay in hand, more than {max_left}")
    return hand_points(left, rules)


# ------------------------------------------------------------------ lay-off referee


def _kind_of(meld: Meld, rules: ContractRules) -> MeldKind:
    """A table meld's kind: a set where both fit, unless its roles make it a run."""
    return meld_kind(meld, rules.meld_spec)


def _readings(meld: Meld, rules: ContractRules, kind: MeldKind) -> Iterator[tuple[Card | None, ...]]:
    """Every full role assignment of a meld's wilds (written roles kept), by brute force."""
    wilds = rules.wilds
    open_idx = [i for i, (c, r) in enumerate(zip(meld.cards, meld.roles)) if c in wilds and r is None]
    if kind == "set":
        rank = set_rank(meld, rules)
        assert rank is not None
        yield tuple(Card(rank, Suit.HEARTS) if i in open_idx else r for i, r in enumerate(meld.roles))
        return
    suit = next(c.suit for c in meld.cards if c not in wilds)
    assert suit is not None
    options = [Card(r, suit) for r in Rank]
    for roles in itertools.permutations(options, len(open_idx)):
        full = list(meld.roles)
        for i, role in zip(open_idx, roles):
            full[i] = role
        if is_kind(Meld(meld.cards, tuple(full)), rules, "run"):
            yield tuple(full)


def fix_run_wilds(meld: Meld, rules: ContractRules) -> Meld:
    """A run with the roles of its fixed open wilds written (the rule book: a wild inside a run stands
    for exactly one card, and moving it is a swap), by brute force over every reading.

    A role is fixed when every full reading of the run gives the open wilds that card; an open
    wild at an end that may still move stays open. Any other meld comes back unchanged.
    """
    wilds = rules.wilds
    open_idx = [i for i, (c, r) in enumerate(zip(meld.cards, meld.roles)) if c in wilds and r is None]
    if not open_idx:
        return meld
    try:
        if _kind_of(meld, rules) != "run":
            return meld
    except MeldError:
        return meld
    common: Cards | None = None
    for roles in _readings(meld, rules, "run"):
        got = Cards(r for r in (roles[i] for i in open_idx) if r is not None)
        common = got if common is None else Cards.from_counts({c: min(n, common.count(c)) for c, n in got.items()})
    fixed = list(common or ())
    full = list(meld.roles)
    for i, role in zip(open_idx, fixed):
        full[i] = role
    return Meld(meld.cards, tuple(full))


def swap_possible(old: Meld, freed: Sequence[int], added: Cards, rules: ContractRules, kind: MeldKind) -> bool:
    """Can the wilds at indices ``freed`` of ``old`` have been replaced by naturals in ``added``?"""
    if not freed:
        return True
    if kind == "set":
        rank = set_rank(old, rules)
        return sum(n for c, n in added.items() if c.rank == rank and c not in rules.wilds) >= len(freed)
    for roles in _readings(old, rules, kind):
        need = Cards(r for r in (roles[i] for i in freed) if r is not None)
        if need <= added:
            return True
    return False


def _meld_change_ok(old: TableMeld, new: TableMeld, rules: ContractRules, player: int, index: int) -> None:
    """Raise :class:`MeldError` unless ``new`` is ``old`` grown by a lay-off and legal swaps."""
    wilds = rules.wilds
    where = f"meld {index} ({old.meld})"
    fixed_here = fix_run_wilds(old.meld, rules) != old.meld
    old = TableMeld(fix_run_wilds(old.meld, rules), old.owner)
    new = TableMeld(fix_run_wilds(new.meld, rules), new.owner)
    if new.owner != old.owner:
        raise MeldError(f"{where}: owner changed from {old.owner} to {new.owner}")
    kind = _kind_of(old.meld, rules)
    try:
        meld_kind(new.meld, rules.meld_spec, kind)
    except MeldError as exc:
        raise MeldError(f"{where}: after the lay-off, {exc}") from None
    old_nat = Cards(c for c in old.meld.cards if c not in wilds)
    new_nat = Cards(c for c in new.meld.cards if c not in wilds)
    if not old_nat <= new_nat:
        raise MeldError(f"{where}: natural cards left the meld")
    added = new_nat - old_nat
    old_w = [(i, c, r) for i, (c, r) in enumerate(zip(old.meld.cards, old.meld.roles)) if c in wilds]
    new_pairs = [(c, r) for c, r in zip(new.meld.cards, new.meld.roles) if c in wilds]
    gone, choices = _wild_departures(old_w, new_pairs)
    allowed = rules.wild_swap and (old.owner != player or rules.wild_swap_own)
    if gone and not allowed:
        raise MeldError(f"{where}: a wild left the meld, but {_why_no_swap(rules)}")
    for combo in itertools.product(*choices):
        out = {k for part in combo for k in part}
        if out and not allowed:
            continue
        if not _written_roles_kept(old_w, out, new_pairs):
            continue
        if swap_possible(old.meld, [old_w[k][0] for k in out], added, rules, kind):
            return
    if gone:
        raise MeldError(f"{where}: a wild left the meld without a natural card from hand taking its place")
    if not allowed and fixed_here:
        raise MeldError(
            f"{where}: a wild inside a run stands for one card; moving it is a wild swap, and {_why_no_swap(rules)}"
        )
    raise MeldError(f"{where}: a wild's written role changed")


_OldWild = tuple[int, Card, Card | None]  # a wild of the old meld: its index, the card, its written role


def _wild_departures(
    old_w: Sequence[_OldWild], new_pairs: Sequence[tuple[Card, Card | None]]
) -> tuple[dict[Card, int], list[list[tuple[int, ...]]]]:
    """How many wilds of each type left the meld, and per type every choice of which ones may have left.

    At least ``gone`` wilds of a type left; more may have left and come back (or been replaced), so
    each type's choices are its wilds' combinations of every size from that many up.
    """
    new_count = Cards(c for c, _ in new_pairs)
    gone: dict[Card, int] = {}
    for _, c, _r in old_w:
        gone[c] = gone.get(c, 0) + 1
    gone = {c: n - new_count.count(c) for c, n in gone.items() if n > new_count.count(c)}
    # choose which wilds of each type left; the rest stay (a written role must stay written)
    by_type: dict[Card, list[int]] = {}
    for k, (_, c, _r) in enumerate(old_w):
        by_type.setdefault(c, []).append(k)
    choices = [
        [combo for n in range(gone.get(c, 0), len(ks) + 1) for combo in itertools.combinations(ks, n)]
        for c, ks in by_type.items()
    ]
    return gone, choices


def _written_roles_kept(
    old_w: Sequence[_OldWild], out: set[int], new_pairs: Sequence[tuple[Card, Card | None]]
) -> bool:
    """Is every staying wild (not in ``out``) with a written role still in the new meld with that role?"""
    kept_written = [(old_w[k][1], old_w[k][2]) for k in range(len(old_w)) if k not in out and old_w[k][2] is not None]
    pairs = list(new_pairs)
    for pair in kept_written:
        if pair not in pairs:
            return False
        pairs.remove(pair)
    return True


def _why_no_swap(rules: ContractRules) -> str:
    """Why these rules allow no wild swap here."""
    return "wild swaps are off" if not rules.wild_swap else "wilds may not be swapped out of one's own melds"


def check_layoff(
    old_table: Sequence[TableMeld], hand: Cards, new_table: Sequence[TableMeld], rules: ContractRules, player: int = 0
) -> Cards:
    """Referee a lay-off (wild swaps included); returns the hand cards played.

    Every new meld is valid and of its old kind; each old meld keeps its
    natural cards and its written wild roles, except wilds swapped out
    (only from melds the rules allow) for a natural from hand that the wild
    stood for; the table gains only cards from the hand, so every freed
    wild is back on the table.
    """
    if len(new_table) != len(old_table):
        raise MeldError(f"a lay-off keeps the {len(old_table)} melds on the table, not {len(new_table)}")
    old = Cards(c for t in old_table for c in t.meld.cards)
    played = cards_added(old, hand, Cards(c for t in new_table for c in t.meld.cards))
    for i, (o, n) in enumerate(zip(old_table, new_table)):
        _meld_change_ok(o, n, rules, player, i)
    return played
