"""Manipulation Shanghai solver: validator on every answer, brute force on small positions, least change."""

from __future__ import annotations

from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import solver.manipulation.play as manipulation_module
from solver.cards import Card, Cards, Rank, Suit
from solver.manipulation import Play, all_best_plays, best_play, can_play, max_cards_playable, play_value
from solver.manipulation.moves import diff_tables
from solver.manipulation.natural import natural_play
from solver.manipulation.plain import native_stage
from solver.melds import Meld, format_table, meld_kind, parse_table, validate_rearrangement
from solver.puzzles import ManipulationPosition, load
from solver.rules import ManipulationRules
from tests.oracles.manip_brute import JOKER, best_by_brute_force, greedy_no_rearrangement


def check_play(table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules, play: Play) -> None:
    """Everything a play claims, checked by the independent validator and by replaying the moves."""
    played = validate_rearrangement(table, hand, play.table, rules.meld_spec)
    assert played == play.played
    assert play.hand == hand - played
    assert play.value == play_value(played, rules)
    for meld in play.table:  # runs whole in rank order: every wild has its role, cards in order
        kind = meld_kind(meld, rules.meld_spec)
        if kind == "run" and play.status != "infeasible":
            roles = [r or c for c, r in zip(meld.cards, meld.roles)]
            positions = [int(c.rank or 0) for c in roles]
            if positions[0] == 1 and len(positions) > 1 and positions[1] != 2:
                positions[0] = 14
            if positions[-1] == 1 and len(positions) > 1:
                positions[-1] = 14
            assert positions == list(range(positions[0], positions[0] + len(positions))), str(meld)
    # replay the moves on multisets: the old table becomes the new one
    state = [dict(m.multiset.items()) for m in table]
    new: list[dict[Card, int]] = [{} for _ in play.table]
    for i in range(len(table)):
        j = play.matching[i] if play.matching else None
        if j is not None:
            for card, n in list(state[i].items()):
                stay = min(n, play.table[j].multiset.count(card))
                new[j][card] = new[j].get(card, 0) + stay
                state[i][card] -= stay
    from_hand: dict[Card, int] = {}
    for move in play.moves:
        for card, n in move.cards.items():
            if move.source is None:
                from_hand[card] = from_hand.get(card, 0) + n
            else:
                assert state[move.source].get(card, 0) >= n
                state[move.source][card] -= n
            new[move.target][card] = new[move.target].get(card, 0) + n
    assert all(n == 0 for s in state for n in s.values())
    assert [Cards.from_counts(m) for m in new] == [m.multiset for m in play.table]
    assert Cards.from_counts(from_hand) == played
    assert play.moved_cards == sum(len(m.cards) for m in play.moves if m.source is not None)
    assert play.kept_melds == sum(play.kept)


def test_norwegian_six_of_spades() -> None:
    rules = ManipulationRules.preset("norwegian")
    table = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
    play = best_play(table, Cards.parse("6S KD"), rules)
    check_play(table, Cards.parse("6S KD"), rules, play)
    assert play.status == "optimal" and play.played == Cards.parse("6S")
    assert format_table(play.table) == "3H 4H 5H | 3C 4C 5C | 6S 6H 6C"
    assert (play.kept_melds, play.moved_cards) == (0, 2)
    assert [m.text for m in play.moves] == [
        "move 6H from [3H 4H 5H 6H] to [6S 6H 6C]",
        "move 6C from [3C 4C 5C 6C] to [6S 6H 6C]",
        "play 6S to [6S 6H 6C]",
    ]


def test_no_rearrangement_needed_keeps_every_meld() -> None:
    rules = ManipulationRules()
    table = parse_table("5H 6H 7H | 9S 9H 9D | 2C 3C 4C 5C 6C 7C 8C")
    hand = Cards.parse("4H 8H 9C 10C JC KS")
    play = best_play(table, hand, rules)
    check_play(table, hand, rules, play)
    assert play.played == Cards.parse("4H 8H 9C 10C JC")
    assert play.kept_melds == 3 and play.moved_cards == 0 and play.least_change == "optimal"
    assert "2C 3C 4C 5C 6C 7C 8C 9C 10C JC" in format_table(play.table)  # runs printed whole


def test_least_change_beats_a_plain_solve() -> None:
    """Without least change the solver may tear the table apart; with it, nothing moves."""
    rules = ManipulationRules(decks=2)
    table = parse_table("3H 4H 5H 6H 7H 8H 9H | 3S 4S 5S 6S 7S 8S 9S | 3D 4D 5D 6D 7D 8D 9D")
    hand = Cards.parse("10H 10S 10D")
    least = best_play(table, hand, rules)
    check_play(table, hand, rules, least)
    assert least.kept_melds == 3 and least.moved_cards == 0
    plain = best_play(table, hand, rules, least_change=False)
    check_play(table, hand, rules, plain)
    assert plain.cards == least.cards == 3


def test_nothing_playable() -> None:
    rules = ManipulationRules()
    table = parse_table("5H 6H 7H")
    play = best_play(table, Cards.parse("KD 2S"), rules)
    assert play.status == "infeasible" and not play.played and play.table == table and play.hand == Cards.parse("KD 2S")
    assert not can_play(table, Cards.parse("KD 2S"), rules)
    assert can_play(table, Cards.parse("KD 8H"), rules)
    assert max_cards_playable(table, Cards.parse("8H 9H 4H KD"), rules) == 3


def test_value_objective_prefers_high_cards() -> None:
    rules = ManipulationRules()
    table = parse_table("5H 6H 7H | JS JH JD")
    hand = Cards.parse("4H 3H JC")  # 2 cards (4H 3H = 7) or one jack (11)
    by_cards = best_play(table, hand, rules)
    by_value = best_play(table, hand, rules, objective="value")
    assert by_cards.cards == 3  # all three fit
    assert by_value.value == 18
    table2 = parse_table("5H 6H 7H | QS QH QD")
    hand2 = Cards.parse("3H 4H QC KC")
    assert best_play(table2, hand2, rules, objective="value").value == 19
    assert best_play(table2, hand2, rules).cards == 3


def test_jokers_move_and_keep_roles() -> None:
    rules = ManipulationRules(jokers=2)
    table = parse_table("5H 6H 7H | 9S 9H JK=9D")
    hand = Cards.parse("8H 9C KD JK 2C")
    play = best_play(table, hand, rules)
    check_play(table, hand, rules, play)
    assert play.cards == 4 and play.status == "optimal"
    best, _ = best_by_brute_force(table, hand, rules)
    assert best == 4


def test_all_best_plays_lists_distinct_hands() -> None:
    rules = ManipulationRules()
    table = parse_table("5H 6H 7H | 9S 9H 9D")
    plays = all_best_plays(table, Cards.parse("4H 8H 9C KD"), rules)
    assert plays == (Cards.parse("4H 8H 9C"),)
    plays = all_best_plays(table, Cards.parse("4H 8H KD"), rules)
    assert plays == (Cards.parse("4H 8H"),)
    two = all_best_plays(parse_table("5H 6H 7H"), Cards.parse("4H 8H 8H"), ManipulationRules(), limit=5)
    assert set(two) == {Cards.parse("4H 8H")}
    assert all_best_plays(table, Cards.parse("KD"), rules) == ()


def test_four_decks_six_jokers_big_table() -> None:
    from benchmarks.positions import random_position

    rules = ManipulationRules(decks=4, jokers=6)
    table, hand = random_position(rules, 150, 14, seed=3)
    assert sum(len(m) for m in table) >= 150
    play = best_play(table, hand, rules, least_change=False, time_limit=20)
    check_play(table, hand, rules, play)
    assert play.status == "optimal"


def test_hard_positions_beat_the_greedy() -> None:
    rules = ManipulationRules(decks=1, ace="both")
    table = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
    hand = Cards.parse("6S 6D KD")
    play = best_play(table, hand, rules)
    check_play(table, hand, rules, play)
    assert len(greedy_no_rearrangement(table, hand, rules)) < play.cards


# --- random small positions against exhaustive search -----------------------------------------


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[tuple[Meld, ...], Cards, ManipulationRules]:
    rules = ManipulationRules(
        decks=draw(st.integers(1, 2)),
        ace=draw(st.sampled_from(["low", "high", "both"])),
        jokers=draw(st.integers(0, 2)),
    )
    left = dict(rules.deck.items())
    melds: list[Meld] = []
    lo = 2 if rules.ace == "high" else 1
    hi = 13 if rules.ace == "low" else 14
    suits = draw(st.lists(st.sampled_from(list(Suit)), min_size=1, max_size=2, unique=True))
    ranks = draw(st.lists(st.integers(lo, hi - 2), min_size=1, max_size=2, unique=True))
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            start = draw(st.sampled_from(ranks))
            length = draw(st.integers(3, 4))
            if start + length - 1 > hi:
                continue
            suit = draw(st.sampled_from(suits))
            cards = [Card(Rank(1 if p == 14 else p), suit) for p in range(start, start + length)]
        else:
            rank = Rank(1 if (r := draw(st.sampled_from(ranks))) == 14 else r)
            cards = [
                Card(rank, s) for s in draw(st.lists(st.sampled_from(list(Suit)), min_size=3, max_size=3, unique=True))
            ]
        if any(left.get(c, 0) < cards.count(c) for c in cards):
            continue
        for c in cards:
            left[c] -= 1
        if rules.jokers and left.get(JOKER, 0) and draw(st.booleans()):
            k = draw(st.integers(0, len(cards) - 1))
            left[cards[k]] += 1
            left[JOKER] -= 1
            cards[k] = JOKER
        melds.append(Meld.of(cards))
    # the hand: near the table's cards, so that rearranging pays
    near = [
        Card(Rank(1 if p == 14 else p), s)
        for s in suits
        for p in range(lo, hi + 1)
        if any(abs(p - r) <= 3 for r in ranks)
    ]
    near += [JOKER] * left.get(JOKER, 0)
    pool = [c for c in near if left.get(c, 0) > 0]
    hand: list[Card] = []
    for c in draw(st.lists(st.sampled_from(pool), max_size=4)) if pool else []:
        if left[c] > 0:
            left[c] -= 1
            hand.append(c)
    return tuple(melds), Cards(hand), rules


@settings(max_examples=90, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(small_positions(), st.sampled_from(["cards", "value"]), st.booleans())
def test_solver_matches_exhaustive_search(
    position: tuple[tuple[Meld, ...], Cards, ManipulationRules], objective: str, program: bool
) -> None:
    """``program=False`` switches off the dynamic program, so CP-SAT answers joker-free positions too."""
    table, hand, rules = position
    best, plays = best_by_brute_force(table, hand, rules, objective)
    with patch.object(manipulation_module, "natural_play", natural_play if program else _none):
        play = best_play(table, hand, rules, objective=objective, time_limit=20)  # type: ignore[arg-type]
    check_play(table, hand, rules, play)
    assert play.status in ("optimal", "infeasible")
    score = play.cards if objective == "cards" else play.value
    assert score == best, (format_table(table), str(hand), str(play.played))
    if objective == "cards":
        assert play.played in plays
        assert set(all_best_plays(table, hand, rules, limit=50)) == (set(plays) if best else set())


def _none(*args: object, **kwargs: object) -> None:
    return None


def test_the_program_is_tried_up_to_its_size_for_each_answer() -> None:
    """36 table and playable hand cards: past the least-change limit (35), within the plain one
    (50); the same count both ways, the program asked only for the plain answer (in Python, or on
    the compiled core by ``plain.native_stage`` where it is built)."""
    table = parse_table("AS 2S 3S | 4S 5S 6S | 7C 8C 9C 10C | JS JH JC | JD QD KD | 9H 9S 9D | AC 2C 3C 4C 5C")
    hand = Cards.parse("7S 10S 3H 4H 5H 6H 2D 3D 5D 8D 10D 6C")
    rules = ManipulationRules(decks=1)
    calls: list[bool] = []

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(True)
        return natural_play(*args, **kwargs)  # type: ignore[arg-type]

    def counted_native(*args: object, **kwargs: object) -> object:
        calls.append(True)
        return native_stage(*args, **kwargs)  # type: ignore[arg-type]

    with (
        patch.object(manipulation_module, "natural_play", counted),
        patch.object(manipulation_module, "native_stage", counted_native),
    ):
        least = best_play(table, hand, rules)
        assert not calls
        plain = best_play(table, hand, rules, least_change=False)
        assert calls
    assert least.cards == plain.cards and least.status == plain.status == "optimal"


def test_diff_tables_doctest_case() -> None:
    old = parse_table("3H 4H 5H 6H | 3C 4C 5C 6C")
    new = parse_table("3H 4H 5H | 3C 4C 5C | 6H 6C 6S")
    diff = diff_tables(old, new, Cards.parse("6S"))
    assert diff.matching == (0, 1) and diff.moved_cards == 2 and diff.kept_melds == 0


# --- the bundled puzzles -------------------------------------------------------------------------

PUZZLES = sorted((Path(__file__).resolve().parents[2] / "puzzles" / "manipulation").glob("*.toml"))


@pytest.mark.parametrize("path", PUZZLES, ids=[p.stem for p in PUZZLES])
def test_puzzle_answers(path: Path) -> None:
    """Every [answer] holds, every play passes the validator; small ones by exhaustive search too."""
    puzzle = load(path)
    pos = puzzle.position
    rules = puzzle.rules
    assert isinstance(pos, ManipulationPosition) and isinstance(rules, ManipulationRules)
    answer = puzzle.answer
    assert "played" in answer
    play = best_play(pos.table, pos.hand, rules, time_limit=30)
    check_play(pos.table, pos.hand, rules, play)
    assert play.status in ("optimal", "infeasible")
    assert play.cards == answer["played"]
    plays = all_best_plays(pos.table, pos.hand, rules, time_limit=30, limit=20)
    if "distinct_plays" in answer:
        assert len(plays) == answer["distinct_plays"]
    if "cards" in answer:
        assert Cards.parse(answer["cards"]) in plays
    if "value" in answer:
        by_value = best_play(pos.table, pos.hand, rules, objective="value", time_limit=30)
        check_play(pos.table, pos.hand, rules, by_value)
        assert by_value.value == answer["value"]
    size = sum(len(m) for m in pos.table) + len(pos.hand)
    if path.stem.startswith("small") or size <= 12:
        best, brute = best_by_brute_force(pos.table, pos.hand, rules)
        assert best == answer["played"] and set(brute) == set(plays)
        if "value" in answer:
            assert best_by_brute_force(pos.table, pos.hand, rules, "value")[0] == answer["value"]
    if path.stem.startswith("hard"):
        assert len(greedy_no_rearrangement(pos.table, pos.hand, rules)) < answer["played"]


def test_puzzle_rules_are_spread() -> None:
    rules = [load(p).rules for p in PUZZLES]
    assert {r.decks for r in rules} >= {1, 2}  # type: ignore[union-attr]
    assert {r.ace for r in rules} == {"low", "high", "both"}  # type: ignore[union-attr]
    assert any(r.jokers for r in rules) and any(not r.jokers for r in rules)
    assert len(PUZZLES) >= 30


def _matching_weight(old: tuple[Meld, ...], new: tuple[Meld, ...], matching: tuple[int | None, ...]) -> int:
    big = sum(len(m) for m in old) + 1
    total = 0
    for i, j in enumerate(matching):
        if j is not None:
            share = sum(min(a, b) for a, b in zip(old[i].multiset.counts, new[j].multiset.counts))
            total += share + (big if share == len(old[i]) else 0)
    return total


def test_matching_shortcuts_keep_the_best_weight() -> None:
    """Pairs forced before networkx (whole and alone, or alone in their component) never cost weight:
    the matching weighs as much as networkx's maximum-weight matching of the whole share graph."""
    import networkx as nx

    from benchmarks.positions import random_position
    from solver.manipulation.moves import match_melds

    for seed in range(25):
        rules = ManipulationRules(decks=1 + seed % 2, jokers=seed % 3)
        table, hand = random_position(rules, 30, 10, seed)
        play = best_play(table, hand, rules, least_change=seed % 2 == 0)
        old, new = table, play.table
        matching = match_melds(old, new)
        assert len(set(j for j in matching if j is not None)) == sum(j is not None for j in matching)
        big = sum(len(m) for m in old) + 1
        graph = nx.Graph()
        for i, a in enumerate(old):
            for j, b in enumerate(new):
                share = sum(min(x, y) for x, y in zip(a.multiset.counts, b.multiset.counts))
                if share:
                    graph.add_edge(("o", i), ("n", j), weight=share + (big if share == len(a) else 0))
        best = sum(graph.edges[e]["weight"] for e in nx.max_weight_matching(graph))
        assert _matching_weight(old, new, matching) == best
