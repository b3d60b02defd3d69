"""The three rule slips found at the table (issue 24), each a test that fails without its fix.

The rule book (``../shared/rules/contract.md``): the player who discarded a card may not call it
back; a wild inside a run stands for exactly one card, so moving it is a wild swap; only a player
who has laid down can go out, and a whole round of turns with no card leaving any hand ends the round.
"""

from __future__ import annotations

import dataclasses

import pytest

from solver.cards import Card, Cards
from solver.contract import best_layoff
from solver.contract.brute import exhaustive_layoff
from solver.contract.game import CCall, CDiscard, ContractGame
from solver.contract.layoff import Swap
from solver.contract.referee import check_layoff, fix_run_wilds
from solver.errors import IllegalActionError, MeldError
from solver.melds import Meld, TableMeld
from solver.rules import ContractRules
from tests.contract.test_engine_contract import do, phase, scripted

NO_SWAP = ContractRules.preset("no_wild_swap")
SWAP_OWN = dataclasses.replace(ContractRules(), wild_swap_own=True)


# --- the discarder may not call -------------------------------------------------------------


def test_the_discarder_is_not_asked_to_call() -> None:
    game = scripted(["5H 9C", "3S 4S", "KD QD"], stock="10H 7D 6C", pile="", phase="play")
    do(game, "discard 9C")  # player 0 discards; player 1 is in turn
    do(game, "decline")
    assert game.to_move == 2 and phase(game) == "call"
    do(game, "nocall")
    # player 0 discarded the 9C: nobody else may call, so player 1 draws
    assert game.to_move == 1 and phase(game) == "play" and Card.parse("9C") in game.pile


def test_no_self_call_in_random_play() -> None:
    import random

    for seed in range(3):
        game = ContractGame(ContractRules(), 4, seed=seed, max_rounds=1)
        rng = random.Random(seed)
        discarder = None
        while not game.is_terminal():
            legal = game.legal_actions()
            if any(isinstance(a, CCall) for a in legal):
                assert game.to_move != discarder
            action = rng.choice(legal)
            if isinstance(action, CDiscard):
                discarder = action.player
            game.apply(action)


# --- a wild inside a run is fixed -----------------------------------------------------------


def test_fixed_wild_written_by_the_referee() -> None:
    rules = ContractRules()
    assert str(fix_run_wilds(Meld.parse("5S 6S 2S 8S"), rules)) == "5S 6S 2S=7S 8S"
    assert str(fix_run_wilds(Meld.parse("2S 5S 6S 7S"), rules)) == "2S 5S 6S 7S"  # an end wild may move
    assert str(fix_run_wilds(Meld.parse("QS KS AS 2S"), rules)) == "QS KS AS 2S=JS"  # the ace fixes the end


@pytest.mark.parametrize("owner", [0, 1])
def test_moving_a_wild_inside_a_run_is_refused_without_swaps(owner: int) -> None:
    table = [TableMeld(Meld.parse("5S 6S 2S 8S"), owner=owner)]
    hand = Cards.parse("7S KD")
    lay = best_layoff(hand, table, NO_SWAP, player=0)
    assert not lay.played and not lay.swaps and not lay.can_go_out
    assert exhaustive_layoff(hand, table, NO_SWAP).primary == 0
    moved = [TableMeld(Meld.parse("2S=4S 5S 6S 7S 8S"), owner=owner)]
    with pytest.raises(MeldError, match="moving it is a wild swap"):
        check_layoff(table, hand, moved, NO_SWAP, player=0)
    with pytest.raises(MeldError):  # the role left open: the same move
        check_layoff(table, hand, [TableMeld(Meld.parse("2S 5S 6S 7S 8S"), owner=owner)], NO_SWAP, player=0)


def test_moving_a_wild_inside_a_run_is_a_listed_swap() -> None:
    table = [TableMeld(Meld.parse("5S 6S 2S 8S"), owner=1)]
    hand = Cards.parse("7S KD")
    lay = best_layoff(hand, table, ContractRules(), player=0)
    assert lay.played == Cards.parse("7S") and lay.swaps == (Swap(Card.parse("7S"), 0, Card.parse("2S"), 0),)
    check_layoff(table, hand, list(lay.table), ContractRules(), player=0)
    # one's own meld: a swap only with wild_swap_own
    own = [TableMeld(Meld.parse("5S 6S 2S 8S"), owner=0)]
    assert not best_layoff(hand, own, ContractRules(), player=0).played
    assert best_layoff(hand, own, SWAP_OWN, player=0).swaps


def test_an_end_wild_moves_without_a_swap() -> None:
    table = [TableMeld(Meld.parse("2S 5S 6S 7S"), owner=1)]
    lay = best_layoff(Cards.parse("8S KD"), table, NO_SWAP, player=0)
    assert lay.played == Cards.parse("8S") and not lay.swaps
    check_layoff(table, Cards.parse("8S KD"), list(lay.table), NO_SWAP, player=0)


# --- only a player who has laid down goes out; an idle round ends ----------------------------


def test_a_player_who_has_not_laid_down_never_discards_the_last_card() -> None:
    game = scripted(["KD", "3S 4S", "QD JD"], stock="", pile="", phase="play")
    game.exhausted = True
    assert not [a for a in game.legal_actions() if isinstance(a, CDiscard)]
    with pytest.raises(IllegalActionError, match="laid down"):
        do(game, "discard KD")
    laid = scripted(["KD", "3S 4S", "QD JD"], stock="", pile="", phase="play", laid=[True, False, False])
    do(laid, "discard KD")  # a player who has laid down goes out
    assert laid.round_scores[-1][0] == 0


def test_nobody_out_without_laying_down_and_the_idle_round_ends() -> None:
    game = scripted(["KD QD", "5H", "6H"], stock="", pile="", phase="play", max_rounds=1)
    game.exhausted = True
    do(game, "discard QD")
    # player 1 may take the QD or not; declined (nobody calls), they hold one card and pass
    do(game, "decline", "nocall")
    assert game.to_move == 2 and phase(game) == "offer" and game.hands[1] == Cards.parse("5H")
    do(game, "decline", "nocall")
    assert game.to_move == 0 and game.hands[2] == Cards.parse("6H")
    do(game, "decline", "nocall", "nocall")
    # a whole round of turns with no card leaving any hand: the round ends, nobody out
    assert game.is_terminal()
    assert game.round_scores[-1] == [10, 5, 6]


def _take_and_discard_forever(rules: ContractRules) -> ContractGame:
    """Nobody draws any more and every player in turn takes the discard and discards another card, for
    up to 40 turns (the hands never shrink; as random play did, 920 turns a round)."""
    game = scripted(["KD QD", "5H 6H", "7H 8H"], stock="", pile="", phase="play", rules=rules, max_rounds=1)
    game.exhausted = True
    do(game, "discard QD")
    for _ in range(40):
        if game.is_terminal():
            break
        p, top = game.to_move, game.pile[-1]
        do(game, "take")
        do(game, f"discard {next(c for c in game.hands[p] if c != top)}")
    return game


def test_the_idle_round_counts_the_cards_in_hands_taking_back_is_no_progress() -> None:
    """Rule option ``no_progress`` (docs/decisions-contract.md, decision 29): under the default ``net``
    a discard taken back leaves the hands as they were, so a whole round of such turns ends the round;
    under ``discard`` every discard is progress and the round goes on."""
    assert ContractRules().no_progress == "net"
    net = _take_and_discard_forever(ContractRules())
    assert net.is_terminal() and net.turns <= 4
    rules = ContractRules()
    assert net.round_scores[-1] == [sum(rules.points(c) for c in h) for h in net.hands]  # nobody out
    assert sum(len(h) for h in net.hands) == 5  # the hands as they were after the first discard
    literal = _take_and_discard_forever(dataclasses.replace(ContractRules(), no_progress="discard"))
    assert not literal.is_terminal() and literal.turns >= 40


def test_a_falling_total_is_progress_under_net() -> None:
    """A decline with no call sheds the discard for good: the count starts again."""
    game = scripted(["KD QD JD", "5H 6H 7H", "8H 9H 10H"], stock="", pile="", phase="play", max_rounds=1)
    game.exhausted = True
    do(game, "discard QD")  # 8 cards in hands
    do(game, "decline", "nocall", "discard 5H")  # 7: a new fewest
    do(game, "take", "discard 8H")
    do(game, "take", "discard KD")  # 7 twice: two idle turns
    assert not game.is_terminal() and game.idle == 2
    do(game, "decline", "nocall", "discard 6H")  # 6: the count starts again
    assert not game.is_terminal() and game.idle == 0
