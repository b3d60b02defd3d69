"""Zheng Shang You "lead" puzzles (a two-player endgame) end to end: the position format, the
generator (checked by the independent minimax), solve, --check, the models, the picture, the post."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.answers import solve_puzzle
from solver.cards import Cards
from solver.errors import PuzzleError
from solver.generate import GenerateError, generate
from solver.generate.calibrate import misses
from solver.generate.post import page_link, post
from solver.picture import answer_notes, puzzle_svg
from solver.puzzles import ZsyPosition, dumps, load, loads
from solver.zsy import Combo
from tests.oracles.zsy_endgame import ref_winning_leads
from tests.oracles.zsy_reference import Key

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "puzzles" / "zsy" / "lead-endgame.toml"
runner = CliRunner()


def key(c: Combo) -> Key:
    return (c.kind, c.copies, c.length, c.top, c.flush, c.pure)


def lead_file(position: str) -> str:
    return f'game = "zsy"\n[position]\n{position}\n'


@pytest.mark.parametrize(
    ("position", "message"),
    [
        ('hand = "3S 4S"\nopponent = "5S"\nto_beat = "9H"', "position.opponent: an endgame is led by you"),
        ('hand = "3S 4S"\nopponent = ""', "position.opponent: empty"),
        ('hand = ""\nopponent = "5S"', "position.hand: empty"),
        ('hand = "3S 4S"\nopponent = "3S"', "hand and opponent together hold 2 copies of 3S"),
        ('hand = "3S 4S"\nopponent = "5X"', "position.opponent"),
    ],
)
def test_a_bad_lead_position_is_one_line_naming_the_key(position: str, message: str) -> None:
    with pytest.raises(PuzzleError, match=message) as info:
        loads(lead_file(position), "f.toml")
    assert "\n" not in str(info.value)


def test_the_position_round_trips_and_shows_the_opponent() -> None:
    p = load(EXAMPLE)
    assert isinstance(p.position, ZsyPosition) and p.position.opponent == Cards.parse("6H 10H AS")
    assert loads(dumps(p)) == p
    result = runner.invoke(app, ["check", str(EXAMPLE)])
    assert result.exit_code == 0 and "opponent" in result.stdout


def test_solve_names_the_winning_lead_and_the_line() -> None:
    result = runner.invoke(app, ["solve", str(EXAMPLE), "--check"])
    assert result.exit_code == 0, result.output
    assert "1 winning lead of 6" in result.stdout
    assert "opponent pass" in " ".join(result.stdout.split())
    answer = solve_puzzle(load(EXAMPLE))
    assert answer.mismatch is None
    assert [s["side"] for s in answer.data["endgame"]["line"]] == ["you", "opponent"] * 3 + ["you"]


def test_a_tampered_lead_or_count_fails_the_check(tmp_path: Path) -> None:
    text = EXAMPLE.read_text()
    for bad, why in [
        (text.replace('"straight:3S 4H 5D"', '"single:KC"'), "single:KC loses"),
        (text.replace('"straight:3S 4H 5D"', '"straight:3S 4H 6H"'), "not a legal straight"),
        (text.replace('"straight:3S 4H 5D"', '"single:QS"'), "not in the hand"),
        (text.replace("winning_leads = 1", "winning_leads = 2"), "winning_leads 1 != 2"),
    ]:
        path = tmp_path / "bad.toml"
        path.write_text(bad)
        result = runner.invoke(app, ["solve", str(path), "--check"])
        assert result.exit_code == 1, bad
        assert why in result.output


def test_a_stated_lead_that_wins_but_is_not_the_only_winner_fails() -> None:
    # KC and the straight both win when the opponent holds no ace: a puzzle with two answers
    p = loads(
        lead_file('hand = "3S 4H 5D KC"\nopponent = "9S 10H"') + "[answer]\nwinning_leads = 2\n"
        '[meta]\nkind = "lead"\nsolution = "single:KC"\n'
    )
    assert "is not the one winning lead (2 winning leads)" in (solve_puzzle(p).mismatch or "")


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_generated_leads_have_one_winning_lead_by_the_independent_minimax(level: str) -> None:
    puzzles = generate("zsy", level, 4, seed=3, question="lead")
    for p in puzzles:
        pos = p.position
        assert isinstance(pos, ZsyPosition) and pos.opponent is not None and pos.to_beat is None
        lead = Combo.parse(p.meta["solution"])
        assert ref_winning_leads(list(pos.hand), list(pos.opponent)) == {
            (tuple(sorted(c.code for c in lead.cards)), key(lead))
        }
        assert p.meta["kind"] == "lead" and p.meta["difficulty"] == level
        assert solve_puzzle(p).mismatch is None
        missed = misses(p)
        assert set(p.meta["features"]["missed_by"]) == {m for m, x in missed.items() if x}
        if level == "easy":
            assert not missed["glance"]
        else:
            assert missed["greedy"] and not missed["glance"]
    assert generate("zsy", level, 4, seed=3, question="lead") == puzzles  # reproducible


def test_hard_leads_are_missed_by_the_greedy_and_the_one_ply_look() -> None:
    (p,) = generate("zsy", "hard", 1, seed=1, question="lead")
    missed = misses(p)
    assert missed["greedy"] and missed["glance"]
    assert solve_puzzle(p).mismatch is None


def test_the_question_must_fit_the_game_and_the_rotation_keeps_its_kinds() -> None:
    with pytest.raises(GenerateError, match="unknown question 'lead' for contract"):
        generate("contract", "easy", 1, question="lead")
    assert {p.meta["kind"] for p in generate("zsy", "easy", 2, seed=1)} == {"out", "reply"}
    result = runner.invoke(app, ["generate", "zsy", "--question", "nope", "-q"])
    assert result.exit_code == 2 and "unknown question 'nope'" in result.output


def test_the_picture_draws_both_hands_and_names_the_lead_in_words() -> None:
    p = load(EXAMPLE)
    question = puzzle_svg(p)
    assert "opponent" in question and "Answer" not in question
    svg = puzzle_svg(p, answer=True)
    assert "Answer: lead the mixed straight 3-5 (3S 4H 5D)" in svg
    assert svg.count('class="mark-played"') == 3  # the lead's three cards are framed
    notes = answer_notes(p)
    assert notes[2] == "2. opponent: pass"


def test_the_post_links_the_opponent_and_hides_the_answer() -> None:
    p = load(EXAMPLE)
    link = page_link(p, "http://x")
    assert "opponent=AS+6H+10H" in link and "hand=" in link
    text = post(p, "markdown", "p.png", link, answer_notes(p))
    assert "<details>" in text and "lead the mixed straight" in text.split("<details>")[1]


def test_a_lead_with_no_winner_says_so() -> None:
    p = loads(lead_file('hand = "3S 4H"\nopponent = "AS"'))
    answer = solve_puzzle(p)
    assert answer.data["endgame"]["winning"] == [] and answer.data["endgame"]["line"] == []
    assert answer_notes(replace(p, title="x"))[0].startswith("Answer: no lead wins")


def test_an_inline_endgame_and_its_bad_input() -> None:
    result = runner.invoke(app, ["solve", "--game", "zsy", "--hand", "3S 4H 5D 7C KC", "--opponent", "6H 10H AS"])
    assert result.exit_code == 0 and "1 winning lead of 6" in result.stdout
    result = runner.invoke(app, ["solve", "--hand", "3S", "--opponent", "4S"])
    assert result.exit_code == 2 and "--opponent does not apply to manipulation" in result.output
    too_big = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3H 4H 5H 6H 7H"
    result = runner.invoke(app, ["solve", "--game", "zsy", "--hand", too_big, "--opponent", "4D"])
    assert result.exit_code == 2 and "hand holds 17 cards" in result.output  # no deal among 4 gives 17
    two = ["--rule", "min_players=2"]  # a deal between two players gives 27: the endgame's own limit
    result = runner.invoke(app, ["solve", "--game", "zsy", *two, "--hand", too_big, "--opponent", "4D"])
    assert result.exit_code == 2 and "hands of at most 16 cards" in result.output, result.output


def test_an_endgame_past_its_time_limit_is_a_timeout_not_a_guess() -> None:
    hand, opponent = "3S 4S 5H 6D 8C 9C 10D JS KH AH", "3D 4D 6H 7H 8S 9S JC QD KC 2S"
    result = runner.invoke(
        app, ["solve", "--json", "--game", "zsy", "--hand", hand, "--opponent", opponent, "--time-limit", "0.5"]
    )
    assert result.exit_code == 1
    assert '"status": "timeout"' in result.stdout and "the endgame search did not finish" in result.stdout


def test_the_hint_for_an_endgame_is_the_winning_lead_not_the_fewest_plays_lead(tmp_path: Path) -> None:
    path = tmp_path / "lead.toml"
    path.write_text(lead_file('hand = "3S 9S 3D 3C 7C 8C"\nopponent = "7H 10H 7D RJ"'))
    answer = solve_puzzle(load(path))
    assert [m["cards"] for m in answer.data["endgame"]["winning"]] == [["7C", "8C", "9S"]]
    assert answer.result["reply"].combo.cards != Cards.parse("7C 8C 9S")  # the fewest-plays choice differs
    result = runner.invoke(app, ["hint", str(path)])
    assert result.exit_code == 0 and "play straight:7C 8C 9S" in result.stdout
    assert "wins however the opponent defends" in result.stdout


def test_calibrate_measures_fresh_leads(capsys: pytest.CaptureFixture[str]) -> None:
    from solver.generate.calibrate import main

    main(["--fresh", "2", "--seed", "3", "--games", "zsy", "--levels", "easy", "--question", "lead"])
    table = capsys.readouterr().out
    assert "| zsy | easy | lead | 2 | greedy" in table and "glance 0%" in table


def test_the_stated_lead_may_be_a_list_of_one_and_needs_the_opponent() -> None:
    text = EXAMPLE.read_text()
    listed = loads(text.replace('solution = "straight:3S 4H 5D"', 'solution = ["straight:3S 4H 5D"]'))
    assert solve_puzzle(listed).mismatch is None
    two = loads(text.replace('solution = "straight:3S 4H 5D"', 'solution = ["straight:3S 4H 5D", "single:KC"]'))
    assert "the solution is not one lead" in (solve_puzzle(two).mismatch or "")
    alone = loads(text.replace('opponent = "6H 10H AS"\n', "").replace("winning_leads = 1", "fewest_plays = 3"))
    assert "a lead puzzle needs the opponent's hand" in (solve_puzzle(alone).mismatch or "")
