"""Could the rules have produced this Contract Shanghai position? (The melds on the table by owner.)

Only a player who has laid down owns melds, and what they own is the
round's contract (all its melds, each of its kind and at least its length;
lay-offs make melds longer, swaps change their cards, never their kind):
the referee's lay-down check (:func:`solver.contract.referee.check_lay_down`)
decides, on the melds as they lie. The player to move (owner 0) owns melds
exactly when the position says ``laid_down``. In the last round, when it
is played all at once, laying down goes out: no melds are on the table.

>>> from solver.rules import ContractRules
>>> from solver.melds import Meld, TableMeld
>>> rules = ContractRules()
>>> table = (TableMeld(Meld.parse("5H 5D 5S"), 1), TableMeld(Meld.parse("6S 7S 8S 9S"), 1))
>>> contract_problem(2, table, True, rules)
'p1 owns 5H 5D 5S | 6S 7S 8S 9S, which is not the round 2 contract (set + set); player 0 is laid down but owns no meld'
>>> contract_problem(1, table, False, rules) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence

from solver.cards import Cards
from solver.contract.referee import check_lay_down
from solver.errors import MeldError
from solver.melds import TableMeld
from solver.rules.contract import ContractRules

__all__ = ["contract_problem"]


def _owner_problem(owner: int, melds: Sequence[TableMeld], round_: int, rules: ContractRules) -> str | None:
    """Why ``owner``'s melds are not the round's contract (None when they are)."""
    contract = rules.contract_text(round_)
    shown = " | ".join(str(t.meld) for t in melds)
    try:
        check_lay_down(Cards(c for t in melds for c in t.meld.cards), [t.meld for t in melds], rules, round_)
    except MeldError:
        return f"p{owner} owns {shown}, which is not the round {round_} contract ({contract})"
    return None


def contract_problem(round_: int, table: Sequence[TableMeld], laid_down: bool, rules: ContractRules) -> str | None:
    """Every reason the position is illegal, joined by ``; `` (None when it is legal).

    ``table`` holds the melds with their owners (0 = the player to move),
    ``laid_down`` whether the player to move has laid down.
    """
    problems: list[str] = []
    owners: dict[int, list[TableMeld]] = {}
    for t in table:
        owners.setdefault(t.owner, []).append(t)
    too_high = sorted(o for o in owners if o >= rules.max_players)
    if too_high:
        problems.append(
            f"owner p{too_high[0]} is not a player (at most {rules.max_players} players: p0-p{rules.max_players - 1})"
        )
    if round_ == rules.rounds and rules.last_round_all_at_once and (table or laid_down):
        problems.append(f"round {round_} is played all at once: laying down goes out, so no melds are on the table")
    else:
        problems += [p for o in sorted(owners) if (p := _owner_problem(o, owners[o], round_, rules)) is not None]
        if laid_down and 0 not in owners:
            problems.append("player 0 is laid down but owns no meld")
        if not laid_down and 0 in owners:
            problems.append("player 0 owns melds but has not laid down (laid_down = false)")
    return "; ".join(problems) or None
