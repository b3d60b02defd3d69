"""Contract Shanghai engine: every rule in a scripted game (fixed hands, stock and pile)."""

from __future__ import annotations

import pytest

from solver.cards import Card, Cards
from solver.contract.game import CLayDown, ContractGame, CSwap
from solver.engine import new_game, replay
from solver.engine.base import GameRecord
from solver.engine.selfplay import check_invariants, play_one
from solver.errors import IllegalActionError
from solver.melds import Meld, TableMeld
from solver.rules import ContractRules


def scripted(
    hands: list[str],
    *,
    stock: str = "",
    pile: str = "",
    table: list[tuple[str, int]] | None = None,
    laid: list[bool] | None = None,
    round_: int = 1,
    phase: str = "offer",
    rules: ContractRules | None = None,
    **options: object,
) -> ContractGame:
    """A game in round ``round_`` with fixed hands; the stock's last card is drawn first."""
    game = ContractGame(rules or ContractRules(), len(hands), seed=0, **options)  # type: ignore[arg-type]
    game.round = round_
    game.hands = [Cards.parse(h) for h in hands]
    game.stock = [Card.parse(c) for c in stock.split()]
    game.pile = [Card.parse(c) for c in pile.split()]
    game.table = [TableMeld(Meld.parse(m), owner) for m, owner in (table or [])]
    game.laid_down = laid or [False] * len(hands)
    game.in_turn = game.to_move = 0
    game.phase = phase  # type: ignore[assignment]
    game.clear_caches()
    return game


def phase(game: ContractGame) -> str:
    """The game's phase (a plain string: mypy would keep its literal narrowed across actions)."""
    return game.phase


def do(game: ContractGame, *texts: str) -> None:
    for text in texts:
        game.apply(game.parse_action(text))


def test_deal_and_first_discard() -> None:
    game = new_game("contract", players=4, seed=2)
    assert isinstance(game, ContractGame)
    first = game.current_player()
    assert first == 1  # left of the dealer (player 0 deals the first round)
    assert sorted(len(h) for h in game.hands) == [12, 12, 12, 13] and len(game.hands[first]) == 13
    assert phase(game) == "first_discard" and not game.pile
    card = next(iter(game.hands[first]))
    game.apply(game.parse_action(f"discard {card}"))
    assert game.pile == [card] and game.to_move == 2 and phase(game) == "offer"
    check_invariants(game)


def test_take_the_discard() -> None:
    game = scripted(["5H 9C", "3S 4S", "KD QD"], stock="2H 7D", pile="8C")
    do(game, "take")
    assert game.hands[0] == Cards.parse("5H 9C 8C") and game.stock == [Card.parse("2H"), Card.parse("7D")]
    assert phase(game) == "play"


def test_shanghai_call_with_penalty_card_and_turn_order() -> None:
    game = scripted(["5H 9C", "3S 4S", "KD QD", "AS AC"], stock="10H 7D JC", pile="8C")
    do(game, "decline")
    assert game.to_move == 1 and phase(game) == "call"
    do(game, "nocall")
    assert game.to_move == 2
    do(game, "call")  # player 2 calls Shanghai!: the 8C and one penalty card (JC)
    assert game.hands[2] == Cards.parse("KD QD 8C JC")
    assert game.calls == [0, 0, 1, 0]
    # the turn goes back to the player in turn, who draws from the stock
    assert game.to_move == 0 and phase(game) == "play" and game.hands[0] == Cards.parse("5H 9C 7D")
    do(game, "discard 9C")
    assert game.to_move == 1 and game.pile == [Card.parse("9C")]


def test_first_caller_in_turn_order_wins_and_max_calls() -> None:
    rules = ContractRules(max_calls=1)
    game = scripted(["5H", "3S", "KD", "AS"], stock="10H 7D JC 4C", pile="8C", rules=rules)
    game.calls = [0, 1, 0, 0]  # player 1 has used their call
    do(game, "decline")
    assert game.to_move == 2  # player 1 is skipped: no calls left
    with pytest.raises(IllegalActionError):
        do(game, "take")
    do(game, "call")
    assert game.to_move == 0 and Card.parse("8C") in game.hands[2]


def test_nobody_calls_then_draw() -> None:
    game = scripted(["5H", "3S", "KD"], stock="10H 7D", pile="8C")
    do(game, "decline", "nocall", "nocall")
    assert game.hands[0] == Cards.parse("5H 7D") and game.pile == [Card.parse("8C")]


def test_lay_down_lay_off_and_go_out() -> None:
    hand = "5H 5S 5D 6S 7S 8S 9S 10S 5C KD"
    game = scripted([hand, "3S 4S", "KH QD"], stock="2H", phase="play")
    legal = game.legal_actions()
    downs = [a for a in legal if isinstance(a, CLayDown)]
    assert len(downs) == 1
    with pytest.raises(IllegalActionError, match="lay down the contract before"):
        do(game, "layoff 0 5C")
    do(game, "laydown 5H 5S 5D | 6S 7S 8S 9S")
    assert game.laid_down[0] and len(game.table) == 2
    do(game, "layoff 0 5C", "layoff 1 10S")  # the source's examples: fives onto 5-5-5, the ten of spades
    assert str(game.table[1].meld) == "6S 7S 8S 9S 10S"
    with pytest.raises(IllegalActionError):
        do(game, "laydown 5H 5S 5D | 6S 7S 8S 9S")
    do(game, "discard KD")  # the last card: out
    assert game.round == 2 and game.totals == [0, 3 + 4, 10 + 10]


def test_only_contract_melds() -> None:
    game = scripted(["5H 5S 5D 7C 7D 7H KD", "3S", "4S"], phase="play")
    with pytest.raises(IllegalActionError, match="illegal lay-down"):
        do(game, "laydown 5H 5S 5D | 7C 7D 7H")  # round 1 is a set and a run
    assert not [a for a in game.legal_actions() if isinstance(a, CLayDown)]


def test_wild_swap_the_freed_two_played_at_once() -> None:
    # the source: an opponent laid 10D 10H 2S; a ten from hand replaces the wild two
    table = [("10D 10H 2S=10C", 1), ("6S 7S 8S 9S", 0), ("4H 4C 4S", 0), ("JD QD KD AD", 1)]
    game = scripted(["10C 3C KC", "9H", "5D"], table=table, laid=[True, True, False], phase="play")
    swaps = [a for a in game.legal_actions() if isinstance(a, CSwap)]
    assert swaps and all(a.target == 0 and a.card == Card.parse("10C") for a in swaps)
    do(game, "swap 0 10C 1")
    assert game.table[0].meld.multiset == Cards.parse("10D 10H 10C")
    assert game.table[1].meld.multiset == Cards.parse("6S 7S 8S 9S 2S")  # the freed two went straight onto a meld
    assert game.hands[0] == Cards.parse("3C KC")
    check_table_roles(game)


def check_table_roles(game: ContractGame) -> None:
    spec = game.rules.meld_spec
    for t in game.table:
        for c, r in zip(t.meld.cards, t.meld.roles):
            assert (r is not None) == spec.is_wild(c)


def test_wild_swap_rules() -> None:
    table = [("10D 10H 2S=10C", 0), ("6S 7S 8S 9S", 1)]
    game = scripted(["10C 3C", "9H", "5D"], table=table, laid=[True, True, False], phase="play")
    assert not [a for a in game.legal_actions() if isinstance(a, CSwap)]  # own meld: wild_swap_own is off
    own = scripted(
        ["10C 3C", "9H", "5D"],
        table=table,
        laid=[True, True, False],
        phase="play",
        rules=ContractRules(wild_swap_own=True),
    )
    assert [a for a in own.legal_actions() if isinstance(a, CSwap)]
    table2 = [("10D 10H 2S=10C", 1), ("6S 7S 8S 9S", 1)]
    off = scripted(
        ["10C 3C", "9H", "5D"],
        table=table2,
        laid=[True, True, False],
        phase="play",
        rules=ContractRules.preset("no_wild_swap"),
    )
    assert not [a for a in off.legal_actions() if isinstance(a, CSwap)]
    wrong = scripted(["10C 3C", "9H", "5D"], table=table2, laid=[True, True, False], phase="play")
    with pytest.raises(IllegalActionError):
        do(wrong, "swap 0 3C 1")


def test_stock_reshuffle_and_the_drawn_card_stays() -> None:
    game = scripted(["5H 9C", "3S", "KD"], stock="", pile="7D 8C 4S")
    do(game, "decline", "nocall", "nocall")
    # the stock was empty: the discard pile became the stock, and a card was drawn from it
    assert game.reshuffled and len(game.stock) == 2 and not game.pile
    drawn = game.no_discard
    assert drawn is not None and drawn in game.hands[0]
    with pytest.raises(IllegalActionError, match="drawn from the stock"):
        do(game, f"discard {drawn}")
    do(game, "discard 9C")
    check_cards = game.hands[0] + Cards(game.stock) + Cards(game.pile)
    assert check_cards == Cards.parse("5H 9C 7D 8C 4S")  # no card created or lost


def test_stock_and_pile_empty_players_just_discard() -> None:
    game = scripted(["5H 9C", "3S 4S", "KD QD"], stock="", pile="", phase="play")
    do(game, "discard 9C")
    assert game.to_move == 1 and phase(game) == "offer"
    do(game, "decline")
    # player 0 discarded the 9C and may not call it back (the rule book): player 2 alone may
    assert game.to_move == 2 and phase(game) == "call"
    do(game, "call")  # no penalty card (the stock and pile are empty)
    assert game.hands[2] == Cards.parse("KD QD 9C")
    assert game.to_move == 1 and phase(game) == "play" and game.hands[1] == Cards.parse("3S 4S")


def test_last_round_whole_hand_at_once() -> None:
    runs = "3H 4H 5H 6H 3C 4C 5C 6C 9D 10D JD QD"
    game = scripted([runs + " KS", "3S", "4S"], round_=7, phase="play")
    downs = [a for a in game.legal_actions() if isinstance(a, CLayDown)]
    assert len(downs) == 1
    do(game, str(downs[0]))
    assert game.hands[0] == Cards.parse("KS")
    do(game, "discard KS")
    assert game.is_terminal() and game.totals[0] == 0
    # a hand that cannot go down whole may not lay down at all
    short = scripted([runs.replace("QD", "8S") + " KS AH", "3S", "4S"], round_=7, phase="play")
    assert not [a for a in short.legal_actions() if isinstance(a, CLayDown)]
    with pytest.raises(IllegalActionError):
        do(short, "laydown 3H 4H 5H 6H | 3C 4C 5C 6C | 8S 9D 10D JD")
    normal = scripted(
        [runs.replace("QD", "8S") + " KS AH", "3S", "4S"],
        round_=7,
        phase="play",
        rules=ContractRules.preset("last_round_normal"),
    )
    assert not [a for a in normal.legal_actions() if isinstance(a, CLayDown)]


def test_scoring_options() -> None:
    game = scripted(
        ["5H", "KD AS 2S 7C", "QC"],
        phase="play",
        rules=ContractRules(face_points="value", wild_two_points=50),
        laid=[True, False, False],  # only a player who has laid down goes out
    )
    do(game, "discard 5H")
    assert game.totals == [0, 13 + 15 + 50 + 7, 12]


@pytest.mark.parametrize("preset", ["finnish", "us", "poker_deck", "jokers_and_twos"])
def test_greedy_games_keep_every_card(preset: str) -> None:
    r = play_one("contract", {"preset": preset}, ["greedy"] * 4, 3, {"max_rounds": 2}, check=True)
    assert not r.error, r.error
    assert r.winners


def test_record_replays() -> None:
    game = new_game("contract", players=3, seed=6, max_rounds=1)
    from solver.engine.players import make_players

    players = make_players(["greedy", "random", "greedy"], 6)
    while not game.is_terminal():
        game.apply(players[game.current_player()].choose(game))
    again = replay(GameRecord.from_json(game.record().to_json()))
    assert again.scores() == game.scores() and again.observation(2) == game.observation(2)


def test_solver_plays_the_last_round_for_the_whole_hand() -> None:
    from solver.engine.players import SolverPlayer

    solver = SolverPlayer()
    made = "3H 4H 5H 6H 3C 4C 5C 6C 9D 10D JD QD"
    # the contract is made with KS and 8S left over: a left-over card goes, the costlier first
    game = scripted([made + " KS 8S", "3S", "4S"], round_=7, phase="play")
    assert str(solver.choose(game)) == "discard KS"
    # a discard that joins a meld is taken (a left-over card will go for it), one that does not is declined
    assert str(solver.choose(scripted([made + " KS", "3S", "4S"], pile="7H", round_=7))) == "take"
    assert str(solver.choose(scripted([made + " KS", "3S", "4S"], pile="KC", round_=7))) == "decline"
    # no Shanghai call in the last round: the penalty card would have to go down too
    near = "3H 4H 5H 3C 4C 5C 6C 9D 10D JD QD KS"
    for rules, want in ((ContractRules(), "nocall"), (ContractRules.preset("last_round_normal"), "call")):
        game = scripted(["8D 8C", near, "4S"], stock="AS AC AD", pile="6H", round_=7, rules=rules)
        do(game, "decline")
        assert game.to_move == 1 and phase(game) == "call"
        assert str(solver.choose(game)) == want


def test_best_lay_down_whole_hand_override() -> None:
    from solver.contract import best_lay_down

    rules = ContractRules()
    hand = Cards.parse("3H 4H 5H 6H 3C 4C 5C 6C 9D 10D JD QD KS 8S")
    assert best_lay_down(hand, rules, 7) is None  # two cards the runs cannot hold
    down = best_lay_down(hand, rules, 7, whole_hand=False)
    assert down is not None and down.hand == Cards.parse("KS 8S")
    assert best_lay_down(Cards.parse("5H 5D 5S 6C 6D 6S KD QC"), rules, 2, whole_hand=True) is None
    assert best_lay_down(Cards.parse("5H 5D 5S 6C 6D 6S KD QC"), rules, 2) is not None
