"""CP-SAT model of Zheng Shang You's fewest plays: the peer and cross-check of the exact search.

:func:`solver.zsy.fewest_plays` answers with a memoised search (faster
on every hand measured, see ``docs/benchmarks.md``); this model answers the
same question from a different formulation and shares no code with it.
Suits never matter for the count, so the model works on counts: natural
cards per rank 3..A, 2s, jokers. Candidates are precomputed windows; copies
are integer multiplicities.

- a *group* per rank: the naturals of that rank not in a straight (a single
  or a set); groups take any wilds;
- a *set of 2s*: at least one 2, plus jokers;
- a lone *joker single*;
- *straights* per window (3..12 ranks within 3..A): an integer count, and
  per rank of the window the number of those straights that use a joker
  there (2s are never in straights);
- *parallel straights* per window and number of copies: a 0/1 choice, and
  per rank the naturals, jokers and 2s that fill it (fewer 2s than copies).

>>> from solver.cards import Cards
>>> fewest_plays_cpsat(Cards.parse("5S 5H 6D 2C 7S RJ 9H 10H JH QD 3C 3D"))
(3, <Status.OPTIMAL: 'optimal'>)
"""

from __future__ import annotations

from ortools.sat.python import cp_model

from solver.cards import Cards, Rank
from solver.cpsat import parameters, solver_for, status_of
from solver.errors import Status
from solver.rules import ZsyRules

__all__ = ["fewest_plays_cpsat"]

RANKS = range(3, 15)  # 3..A in Zheng Shang You order


def _counts(hand: Cards) -> tuple[dict[int, int], int, int]:
    nat = dict.fromkeys(RANKS, 0)
    twos = jokers = 0
    for card in hand:
        if card.is_joker:
            jokers += 1
        elif card.rank == Rank.TWO:
            twos += 1
        else:
            assert card.rank is not None
            nat[14 if card.rank == Rank.ACE else int(card.rank)] += 1
    return nat, twos, jokers


def fewest_plays_cpsat(hand: Cards, rules: ZsyRules | None = None, *, time_limit: float = 10.0) -> tuple[int, Status]:
    """The fewest plays for ``hand`` and the solver's status (count only, no split)."""
    hand.check_against((rules or ZsyRules()).deck, "hand")
    if not hand:
        return 0, Status.OPTIMAL
    nat, twos, jokers = _counts(hand)
    n = len(hand)
    m = cp_model.CpModel()
    plays: list[cp_model.LinearExprT] = []
    used_nat: dict[int, list[cp_model.LinearExprT]] = {r: [] for r in RANKS}
    used_twos: list[cp_model.LinearExprT] = []
    used_jokers: list[cp_model.LinearExprT] = []

    # groups, and the wilds they absorb
    groups = []
    for r in RANKS:
        if nat[r]:
            g = m.new_bool_var(f"g{r}")
            k = m.new_int_var(0, nat[r], f"gn{r}")
            m.add(k >= g)
            m.add(k <= nat[r] * g)
            groups.append(g)
            plays.append(g)
            used_nat[r].append(k)
    any_group = m.new_bool_var("any_group")
    if groups:
        m.add_max_equality(any_group, groups)
    else:
        m.add(any_group == 0)
    wj = m.new_int_var(0, jokers, "group_jokers")
    wt = m.new_int_var(0, twos, "group_twos")
    m.add(wj <= jokers * any_group)
    m.add(wt <= twos * any_group)
    used_jokers.append(wj)
    used_twos.append(wt)
    # the set of 2s, with jokers; lone jokers
    if twos:
        s2 = m.new_bool_var("twos_set")
        t2 = m.new_int_var(0, twos, "twos_in_set")
        j2 = m.new_int_var(0, jokers, "jokers_in_twos_set")
        m.add(t2 >= s2)
        m.add(t2 <= twos * s2)
        m.add(j2 <= jokers * s2)
        plays.append(s2)
        used_twos.append(t2)
        used_jokers.append(j2)
    lone = m.new_int_var(0, jokers, "lone_jokers")
    plays.append(lone)
    used_jokers.append(lone)

    for lo in RANKS:
        for length in range(3, 16 - lo):
            window = range(lo, lo + length)
            gaps = sum(1 for r in window if not nat[r])
            if gaps > jokers:
                continue
            # straights over this window
            x = m.new_int_var(0, n // length, f"s{lo}_{length}")
            plays.append(x)
            for r in window:
                z = m.new_int_var(0, jokers, f"sj{lo}_{length}_{r}")
                m.add(z <= x)
                used_jokers.append(z)
                used_nat[r].append(x - z)
            # parallel straights over this window
            for copies in range(2, n // length + 1):
                if any(nat[r] + twos + jokers < copies for r in window):
                    continue
                p = m.new_bool_var(f"p{lo}_{length}_{copies}")
                plays.append(p)
                for r in window:
                    q = m.new_int_var(0, min(copies, nat[r]), f"pn{lo}_{length}_{copies}_{r}")
                    a = m.new_int_var(0, min(copies, jokers), f"pj{lo}_{length}_{copies}_{r}")
                    b = m.new_int_var(0, min(copies - 1, twos), f"pt{lo}_{length}_{copies}_{r}")
                    m.add(q + a + b == copies * p)
                    used_nat[r].append(q)
                    used_jokers.append(a)
                    used_twos.append(b)

    for r in RANKS:
        m.add(sum(used_nat[r]) == nat[r])
    m.add(sum(used_twos) == twos)
    m.add(sum(used_jokers) == jokers)
    m.minimize(sum(plays))
    solver = solver_for(parameters(time_limit))
    status = status_of(solver.solve(m))
    if status in (Status.OPTIMAL, Status.FEASIBLE):
        return round(solver.objective_value), status
    return n, status
