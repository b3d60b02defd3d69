"""How many cards can the player to move hold? Contract hand sizes by the rule book.

Each player is dealt ``rules.deal`` cards (12; the first player gets one
more and opens the round by discarding it, so every player holds the deal
when their turn begins). A turn draws one card (from the stock or the
discard pile) and ends with a discard, and a "Shanghai!" call takes the
called discard and one penalty card: two cards a call. Laying down and
laying off (a wild swap included: the natural goes to the table) only
take cards out of the hand. So the player to move holds:

- not laid down: the deal and two a call, before the draw; one more after
  it (``drawn``), the first player's opening discard included;
- laid down: at most that less the contract's least cards, and one card
  at least (a player with none has gone out).

A position states what it assumes: ``calls`` (the player's calls this
round, each with its penalty card; at most ``rules.max_calls``) and
``drawn`` (true after the draw, false before it, unset: either).

>>> from solver.cards import Cards
>>> from solver.rules import ContractRules
>>> hand_size_problem(Cards.parse("5H 6H 7H"), 1, False, 0, None, ContractRules())
'hand holds 3 cards, but a player who has not laid down holds 12 before the draw or 13 after it (deal 12, +2 a call, calls = 0)'
>>> hand_size_problem(Cards.parse("5H 6H 7H"), 1, True, 0, True, ContractRules()) is None
True
"""

from __future__ import annotations

from solver.cards import Cards
from solver.rules.contract import ContractRules, min_length

__all__ = ["contract_min_cards", "fewest_calls", "hand_sizes", "hand_size_problem"]


def contract_min_cards(rules: ContractRules, round_: int) -> int:
    """The fewest cards the round's contract lays down (each meld at its least length)."""
    return sum(min_length(req, rules) for req in rules.contract(round_))


def hand_sizes(rules: ContractRules, round_: int, laid_down: bool, calls: int, drawn: bool | None) -> range:
    """Every hand size the player to move can hold (``drawn`` None: before or after the draw)."""
    low = rules.deal + 2 * calls + (1 if drawn else 0)
    high = rules.deal + 2 * calls + (0 if drawn is False else 1)
    if not laid_down:
        return range(low, high + 1)
    return range(1, high - contract_min_cards(rules, round_) + 1)


def _when(drawn: bool | None) -> str:
    return {None: "", True: " after the draw", False: " before the draw"}[drawn]


def hand_size_problem(
    hand: Cards, round_: int, laid_down: bool, calls: int, drawn: bool | None, rules: ContractRules
) -> str | None:
    """Why no game gives the player to move ``hand`` (None when one does), in one line."""
    if calls < 0:
        return f"calls = {calls}: a player makes 0 calls or more"
    if rules.max_calls is not None and calls > rules.max_calls:
        return f"calls = {calls}, but the rules allow {rules.max_calls} a round (rule option max_calls)"
    sizes = hand_sizes(rules, round_, laid_down, calls, drawn)
    n = len(hand)
    if n in sizes:
        return None
    held = f"hand holds {n} card{'' if n == 1 else 's'}"
    basis = f"(deal {rules.deal}, +2 a call, calls = {calls})"
    if not laid_down:
        if drawn is None:
            what = f"{sizes.start} before the draw or {sizes.stop - 1} after it"
        else:
            what = f"{sizes.start}{_when(drawn)}"
        return f"{held}, but a player who has not laid down holds {what} {basis}"
    least = contract_min_cards(rules, round_)
    return (
        f"{held}, but a player who has laid down the round {round_} contract "
        f"({least} cards at least) holds 1 to {sizes.stop - 1}{_when(drawn)} {basis}"
    )


def fewest_calls(rules: ContractRules, round_: int, size: int, *, laid_down: bool, drawn: bool = True) -> int | None:
    """The fewest calls that give the player to move ``size`` cards (None: no number of calls the rules
    allow does).

    >>> fewest_calls(ContractRules(), 4, 4, laid_down=True), fewest_calls(ContractRules(), 1, 14, laid_down=False)
    (1, None)
    """
    most = rules.max_calls if rules.max_calls is not None else size
    for calls in range(most + 1):
        if size in hand_sizes(rules, round_, laid_down, calls, drawn):
            return calls
    return None
