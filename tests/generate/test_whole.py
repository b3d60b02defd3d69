"""Contract "whole" puzzles: the last round all at once, which discard lets the rest go down?

Every answer is proven unique twice: by the solver (:func:`solver.contract.whole_discards`)
and by the brute force of ``tests/oracles/contract_turn.py`` (every lay-down of the round's
contract, its wilds' roles written every way), which shares no code with it; the stated melds
go through the lay-down referee.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.answers import SolveOptions, solve_puzzle
from solver.cards import Card, Cards, Rank, Suit
from solver.contract import whole_discards
from solver.contract.referee import check_lay_down
from solver.generate import GenerateError, generate, plain_title
from solver.generate.calibrate import misses
from solver.generate.contract import candidate
from solver.generate.ladder import LADDER, questions_at
from solver.generate.players import finds_answer
from solver.generate.post import answer_words
from solver.legality import position_problem
from solver.melds import Meld
from solver.picture import answer_notes, puzzle_svg
from solver.puzzles import ContractPosition, Puzzle, dumps, load, loads
from solver.rules import ContractRules
from tests.oracles.contract_turn import _lay_downs

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "puzzles" / "contract" / "round7-whole-which-discard.toml"
runner = CliRunner()


def assert_another_discard_fails_the_check(path: Path) -> None:
    """The puzzle file at ``path`` with another card of the hand as its ``solution`` fails ``solve --check``."""
    text = path.read_text(encoding="utf-8")
    solution = load(path).meta["solution"]
    other = next(c for c in load(path).position.hand if str(c) != solution)
    path.write_text(text.replace(f'solution = "{solution}"', f'solution = "{other}"'), encoding="utf-8")
    failed = runner.invoke(app, ["solve", str(path), "--check"])
    assert failed.exit_code == 1 and "stated solution" in failed.output


@cache
def sample(level: str, count: int = 3, seed: int = 7) -> tuple[Puzzle, ...]:
    return tuple(generate("contract", level, count, seed, question="whole"))


def brute_discards(hand: Cards, rules: ContractRules, round_: int) -> set[Card]:
    """Every card left alone by some lay-down of the contract from the whole hand (the oracle)."""
    out: set[Card] = set()
    for used, _ in _lay_downs(hand, rules, round_):
        left = hand - used
        if len(left) == 1:
            out.add(next(iter(left)))
    return out


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_generated_whole_puzzles_are_unique_by_brute_force(level: str) -> None:
    for p in sample(level):
        pos = p.position
        assert isinstance(pos, ContractPosition) and isinstance(p.rules, ContractRules)
        assert p.meta["kind"] == "whole" and p.meta["difficulty"] == level
        assert pos.round == p.rules.rounds and not pos.table and not pos.laid_down
        assert len(pos.hand) == p.rules.deal + 1  # the deal and the drawn card
        assert position_problem(pos, p.rules) is None
        answer = Card.parse(p.meta["solution"])
        assert brute_discards(pos.hand, p.rules, pos.round) == {answer}
        assert whole_discards(pos.hand, p.rules, pos.round) == (answer,)
        melds = [Meld.parse(m) for m in p.meta["melds"]]
        assert check_lay_down(pos.hand - Cards([answer]), melds, p.rules, pos.round, max_left=0) == 0
        assert loads(dumps(p)) == p


def test_whole_discards_agree_with_the_brute_force_on_random_hands() -> None:
    # dealt as the generator deals, then one card changed now and then: hands with no discard, one, or several
    from solver.generate.contract_whole import _whole_hand

    rules = ContractRules()
    rng = random.Random(11)
    counts = {0: 0, 1: 0, 2: 0}
    for _ in range(24):
        hand = _whole_hand(rng, rules, 7)
        assert hand is not None
        if rng.random() < 0.4:
            cards = list(hand)
            cards[rng.randrange(len(cards))] = Card(Rank(rng.randint(1, 13)), rng.choice(list(Suit)))
            hand = Cards(cards)
        if any(n > rules.deck.count(c) for c, n in hand.items()) or sum(c in rules.wilds for c in hand) > 2:
            continue  # more copies than the decks hold, or too many wilds for the brute force (minutes at 4)
        found = whole_discards(hand, rules, 7)
        assert set(found) == brute_discards(hand, rules, 7), hand
        assert len(set(found)) == len(found)
        counts[min(len(found), 2)] += 1
    assert all(counts.values()), counts  # the sample holds every case


def test_levels_stand_on_their_rungs() -> None:
    for level in ("easy", "medium"):
        rung = next(r for r in LADDER["contract"][level] if "whole" in r.kinds)
        for p in sample(level):
            missed = misses(p)
            assert p.meta["features"]["missed_by"] == [m for m, v in missed.items() if v]
            assert p.meta["features"]["idea"] == rung.idea
            assert all(missed[m] for m in rung.miss) and not any(missed[m] for m in rung.find)
    for p in sample("medium"):  # a wild stands in one of the melds (not thrown)
        assert isinstance(p.rules, ContractRules)
        wilds = [c for m in p.meta["melds"] for c in Meld.parse(m).cards if c in p.rules.wilds]
        assert len(wilds) == p.meta["features"]["wilds"] >= 1
    # medium: the glance rule ("throw the costliest lone card") throws something else
    assert all(misses(p)["glance"] for p in sample("medium"))


def test_each_model_answers_the_whole_kind() -> None:
    p = load(EXAMPLE)
    assert finds_answer("greedy", p) and finds_answer("solver", p)
    assert misses(p) == {"greedy": False, "no-swap": False, "glance": True, "one-look": False, "solver": False}
    # a stated discard the players do not throw: every player misses it
    wrong = replace(p, meta={**p.meta, "solution": "QS"})
    assert not finds_answer("greedy", wrong) and not finds_answer("solver", wrong)


def test_asked_on_request_only_and_where_a_rung_holds() -> None:
    assert "whole" not in questions_at("contract", "easy")  # the level's turns (and the gallery) stay
    assert {p.meta["kind"] for p in generate("contract", "medium", 2, seed=3, question="whole")} == {"whole"}
    with pytest.raises(GenerateError, match="no hard contract 'whole'"):
        generate("contract", "hard", 1, question="whole")
    with pytest.raises(GenerateError, match="unknown question 'lead' for contract"):
        generate("contract", "easy", 1, question="lead")
    with pytest.raises(GenerateError, match="not played all at once"):
        generate("contract", "easy", 1, rules={"preset": "last_round_normal"}, question="whole")
    with pytest.raises(GenerateError, match="all at once"):
        candidate(random.Random(1), ContractRules.preset("last_round_normal"), "easy", "whole")


def test_same_seed_same_files() -> None:
    a = [dumps(p) for p in generate("contract", "easy", 2, seed=5, question="whole")]
    assert a == [dumps(p) for p in generate("contract", "easy", 2, seed=5, question="whole")]


def test_solve_json_names_the_discard_and_the_melds() -> None:
    answer = solve_puzzle(load(EXAMPLE), SolveOptions())
    assert answer.mismatch is None
    assert answer.data["whole_discards"] == ["QH"] and answer.data["whole_hand"] is True
    assert answer.data["lay_down"] == [["9S", "10S", "JS", "QS"], ["JD", "QD", "KD", "AD"], ["JC", "QC", "2C=KC", "AC"]]
    # a position with no whole lay-down lists no discard; an earlier round has no such field
    none = loads('game = "contract"\n[position]\nround = 7\nhand = "3H 4H 5H 6H 8S 9S 10S JS 4C 5C 7C 9C KD"\n')
    assert solve_puzzle(none).data["whole_discards"] == []
    early = loads('game = "contract"\n[rules]\ndeal = 8\n[position]\nround = 1\nhand = "5H 5D 5S 6S 7S 8S 9S KD"\n')
    assert "whole_discards" not in solve_puzzle(early).data


def test_the_answer_key_discard_is_compared() -> None:
    p = load(EXAMPLE)
    wrong = replace(p, answer={**p.answer, "discard": "QS"})
    mismatch = solve_puzzle(wrong).mismatch
    assert mismatch is not None and "discard: expected 'QS', got 'QH'" in mismatch


def _stated(p: Puzzle, **meta: object) -> str | None:
    return solve_puzzle(replace(p, meta={**p.meta, **meta})).mismatch


def test_solve_check_replays_the_stated_melds_and_discard() -> None:
    p = load(EXAMPLE)
    assert _stated(p) is None
    melds = list(p.meta["melds"])
    # a wrong discard: the melds then do not take the hand less that card
    wrong = _stated(p, solution="QS")
    assert wrong is not None and "stated solution" in wrong and "cards not in the hand" in wrong
    # a card not in the hand, or two cards
    assert "not one card of the hand" in (_stated(p, solution="5H") or "")
    assert "not one card of the hand" in (_stated(p, solution="QH QS") or "")
    # invalid melds of the right cards (two queens change places)
    bad = _stated(p, melds=["9S 10S JS QD", "JD QS KD AD", melds[2]])
    assert bad is not None and "do not make the contract" in bad
    # a wild's written role that breaks its run
    role = _stated(p, melds=[*melds[:2], "JC QC 2C=9C AC"])
    assert role is not None and "stated solution" in role
    # too few melds for the contract
    assert "needs 3 melds" in (_stated(p, melds=melds[:2]) or "")
    assert "not a list" in (_stated(p, melds="9S 10S JS QS") or "")


def test_solve_check_fails_melds_that_do_not_cover_the_hand() -> None:
    # a deal of 13: the five-card run stated four long is the contract, but leaves a card besides the discard
    p = loads(
        'game = "contract"\n[rules]\ndeal = 13\n[position]\nround = 7\n'
        'hand = "3H 4H 5H 6H 7H 8S 9S 10S JS 4C 5C 6C 7C KD"\n[answer]\ndiscard = "KD"\n'
        '[meta]\nkind = "whole"\nsolution = "KD"\nmelds = ["3H 4H 5H 6H 7H", "8S 9S 10S JS", "4C 5C 6C 7C"]\n'
    )
    assert _stated(p) is None
    short = _stated(p, melds=["3H 4H 5H 6H", "8S 9S 10S JS", "4C 5C 6C 7C"])
    assert short is not None and "1 cards stay in hand, more than 0" in short


def test_cli_generate_question_whole_then_check(tmp_path: Path) -> None:
    r = runner.invoke(
        app,
        [
            "generate",
            "contract",
            "--difficulty",
            "medium",
            "--count",
            "2",
            "--seed",
            "2",
            "--question",
            "whole",
            "-o",
            str(tmp_path),
            "-q",
        ],
    )
    assert r.exit_code == 0, r.output
    files = sorted(p.name for p in tmp_path.glob("*.toml"))
    assert files == ["medium-whole-01.toml", "medium-whole-02.toml"]
    solved = runner.invoke(app, ["solve", str(tmp_path), "--check", "--json"])
    assert solved.exit_code == 0, solved.output
    lines = [json.loads(x) for x in solved.stdout.splitlines()]
    assert [x["check"] for x in lines] == ["ok", "ok"] and all(len(x["whole_discards"]) == 1 for x in lines)
    # a tampered file fails --check
    assert_another_discard_fails_the_check(tmp_path / files[0])
    bad = runner.invoke(app, ["generate", "contract", "--difficulty", "hard", "--question", "whole", "-q"])
    assert bad.exit_code == 2


def test_cli_solve_prints_the_discards() -> None:
    r = runner.invoke(app, ["solve", str(EXAMPLE)])
    assert r.exit_code == 0 and "discards Q♥" in r.stdout


def test_the_picture_names_the_discard_and_shows_the_melds_with_roles() -> None:
    p = load(EXAMPLE)
    svg = puzzle_svg(p, answer=True)
    assert "Answer: discard QH (the only one), and the rest goes down at once: 9S 10S JS QS" in svg
    assert svg.count('class="mark-played"') == 1 and ">discard<" in svg and ">lay down<" in svg
    assert 'data-role="KC"' in svg  # the 2C stands for the KC in its run
    assert answer_notes(p)[0].startswith("Answer: discard QH")
    assert answer_words(p) == answer_notes(p)  # the post's answer behind the spoiler


def test_post_writes_the_picture_and_hides_the_answer(tmp_path: Path) -> None:
    result = runner.invoke(app, ["post", str(EXAMPLE), "-o", str(tmp_path), "--format", "markdown"])
    assert result.exit_code == 0, result.output
    head = result.stdout.split("Answer</summary>")[0]
    assert "Answer: discard" not in head and "Answer: discard QH" in result.stdout  # the hand (QH too) is in the link
    assert (tmp_path / "round7-whole-which-discard.png").read_bytes()[:4] == b"\x89PNG"


def test_plain_title() -> None:
    p = sample("easy")[0]
    assert plain_title(p) == "All at once: which discard lets the rest go down?"
    assert p.meta["solution"] not in p.title


def test_solve_check_fails_a_discard_that_is_not_the_only_one() -> None:
    p = loads(
        'game = "contract"\n[position]\nround = 7\nhand = "3H 4H 5H 6H 8S 9S 10S JS 4C 5C 6C 7C 8C"\n'
        "[answer]\ncan_go_out = true\n"
        '[meta]\nkind = "whole"\nsolution = "8C"\nmelds = ["3H 4H 5H 6H", "8S 9S 10S JS", "4C 5C 6C 7C"]\n'
    )
    problem = solve_puzzle(p).mismatch
    assert problem is not None and "the discards that let the rest go down are 4C 8C" in problem


def test_solve_check_fails_a_whole_kind_outside_the_last_round() -> None:
    p = load(EXAMPLE)
    assert isinstance(p.rules, ContractRules)
    normal = replace(p, rules=replace(p.rules, last_round_all_at_once=False))
    problem = solve_puzzle(normal).mismatch
    assert problem is not None and "not a last round played all at once" in problem


def test_us_contracts_unique_by_brute_force() -> None:
    for p in generate("contract", "medium", 1, seed=1, rules={"preset": "us"}, question="whole"):
        pos = p.position
        assert isinstance(pos, ContractPosition) and isinstance(p.rules, ContractRules)
        assert p.rules.wild_limit == "fewer"
        assert brute_discards(pos.hand, p.rules, pos.round) == {Card.parse(p.meta["solution"])}
        assert solve_puzzle(p).mismatch is None


def test_the_picture_names_every_discard_when_two_do() -> None:
    # 2S stands for 6H (5H 7H 8H) or for 9H (7H 8H 10H): either end card goes; the one worth less is shown
    p = loads('game = "contract"\n[position]\nround = 7\nhand = "2S 5H 7H 8H 10H 8D 9D 10D JD 4C 5C 6C 7C"\n')
    notes = answer_notes(p)
    assert notes[0].startswith("Answer: discard 5H (as good: 10H), and the rest goes down at once: ")
    svg = puzzle_svg(p, answer=True)
    assert svg.count('class="mark-played"') == 1


def test_calibrate_with_a_question_skips_the_levels_without_its_rung(capsys: pytest.CaptureFixture[str]) -> None:
    # every level is asked by default; a question asked only where the ladder has a rung for it
    # (whole: easy and medium), not an error at hard
    from solver.generate.calibrate import main

    main(["--fresh", "1", "--seed", "3", "--games", "contract", "--levels", "easy,hard", "--question", "whole"])
    table = capsys.readouterr().out
    assert "| contract | easy | whole | 1 |" in table and "| contract | hard |" not in table
