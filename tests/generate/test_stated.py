"""`solve --check` checks the stated solution itself: each tampered kind fails, the bundled files pass."""

from __future__ import annotations

import copy
from pathlib import Path

from typer.testing import CliRunner

from cli.main import app
from solver.answers import SolveOptions, solve_puzzle
from solver.cards import Cards
from solver.contract import best_discards
from solver.puzzles import ContractPosition, Puzzle, ZsyPosition, dumps, iter_puzzle_paths, load, loads
from solver.stated import replay_moves
from solver.zsy import combo_from_position, fewest_plays, legal_moves

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "puzzles" / "generated"
runner = CliRunner()


def first(game: str, kind: str, where: str = "") -> Puzzle:
    """The first bundled generated puzzle of ``game`` and ``kind`` (its file name holding ``where``)."""
    for path in iter_puzzle_paths(GENERATED / game):
        puzzle = load(path)
        if puzzle.meta.get("kind") == kind and where in path.name:
            return puzzle
    raise AssertionError(f"no generated {game} {kind} puzzle")


def tampered(puzzle: Puzzle, **meta: object) -> Puzzle:
    changed = copy.deepcopy(puzzle.meta)
    changed.update(meta)
    return Puzzle(puzzle.game, puzzle.rules, puzzle.position, puzzle.title, dict(puzzle.answer), "", changed)


def mismatch(puzzle: Puzzle) -> str | None:
    return solve_puzzle(puzzle, SolveOptions(time_limit=10.0)).mismatch


def test_a_wrong_discard_fails() -> None:
    puzzle = first("contract", "discard")
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    assert mismatch(puzzle) is None
    ranked = best_discards(pos.hand, puzzle.rules, pos.round)  # type: ignore[arg-type]
    worse = next(str(c) for c, d in ranked if d > ranked[0][1])
    problem = mismatch(tampered(puzzle, solution=worse))
    assert problem is not None and f"discarding {worse} leaves" in problem
    assert "not one card of the hand" in (mismatch(tampered(puzzle, solution="JK")) or "")


def test_a_wrong_zsy_reply_fails() -> None:
    puzzle = first("zsy", "reply")
    pos = puzzle.position
    assert isinstance(pos, ZsyPosition) and pos.to_beat is not None
    assert mismatch(puzzle) is None
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, puzzle.rules)  # type: ignore[arg-type]
    stated = puzzle.meta["solution"]
    other = next(m for m in legal_moves(pos.hand, to_beat, puzzle.rules) if " ".join(c.code for c in m.cards) != stated)  # type: ignore[arg-type]
    rest = Cards(pos.hand) - other.cards
    then = [str(p) for p in fewest_plays(rest, puzzle.rules).plays]  # type: ignore[arg-type]
    problem = mismatch(tampered(puzzle, solution=" ".join(c.code for c in other.cards), then=then))
    assert problem is not None and "is not the best reply" in problem
    if stated != "pass":
        whole = [str(p) for p in fewest_plays(pos.hand, puzzle.rules).plays]  # type: ignore[arg-type]
        assert "is not the best reply" in (mismatch(tampered(puzzle, solution="pass", then=whole)) or "")


def test_a_wrong_contract_layoff_fails() -> None:
    puzzle = first("contract", "layoff")
    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    assert mismatch(puzzle) is None
    # the solution names other cards than the new table lays off
    played = Cards.parse(puzzle.meta["solution"])
    other = next(c for c in pos.hand if c not in played)
    fewer = Cards.parse(puzzle.meta["solution"]) - Cards([next(iter(played))]) + Cards([other])
    assert "the solution says" in (mismatch(tampered(puzzle, solution=str(fewer))) or "")
    # a new table that lays off fewer cards than the best: the old table, one card laid off
    assert "the best lays off" in (
        mismatch(tampered(puzzle, new_table=[str(t.meld) for t in pos.table], solution="")) or ""
    )
    # a new table the referee refuses (a card from nowhere)
    bad = [*puzzle.meta["new_table"]]
    bad[0] = bad[0] + " KH KH"
    assert mismatch(tampered(puzzle, new_table=bad)) is not None


def test_an_out_split_with_an_invalid_parallel_straight_fails() -> None:
    puzzle = first("zsy", "out")
    assert mismatch(puzzle) is None
    pos = puzzle.position
    assert isinstance(pos, ZsyPosition)
    problem = mismatch(tampered(puzzle, solution=["parallel:3H 3D 4H 4D 6H 6D"]))
    assert problem is not None and "parallel" in problem
    # the right count but not the hand's cards
    count = len(puzzle.meta["solution"])
    wrong = [*puzzle.meta["solution"][:-1], "single:JK"][:count]
    assert mismatch(tampered(puzzle, solution=wrong)) is not None


def test_a_new_table_with_an_invalid_meld_fails() -> None:
    puzzle = first("manipulation", "play")
    assert mismatch(puzzle) is None
    new = [*puzzle.meta["new_table"]]
    new[0] = "4H 4H 5H 6H"
    problem = mismatch(tampered(puzzle, new_table=new))
    assert problem is not None and "stated solution" in problem and "4H 4H 5H 6H" in problem


def test_moves_that_do_not_match_the_new_table_fail() -> None:
    puzzle = first("manipulation", "play")
    lines = [*puzzle.meta["solution"]]
    assert mismatch(tampered(puzzle, solution=lines[1:])) is not None
    assert mismatch(tampered(puzzle, solution=[*lines, "dance 5H"])) is not None


def test_replay_moves_accounts_for_every_card() -> None:
    old = [Cards.parse("3H 4H 5H 6H"), Cards.parse("3C 4C 5C 6C")]
    new = [Cards.parse("3H 4H 5H"), Cards.parse("3C 4C 5C"), Cards.parse("6H 6C 6S")]
    lines = [
        "move 6H from [3H 4H 5H 6H] to [6H 6C 6S]",
        "move 6C from [3C 4C 5C 6C] to [6H 6C 6S]",
        "play 6S to [6H 6C 6S]",
    ]
    assert replay_moves(old, new, Cards.parse("6S KD"), lines) == (Cards.parse("6S"), None)
    _, why = replay_moves(old, new, Cards.parse("6S KD"), lines[1:])
    assert why == "the moves do not account for every card that changes meld"


def test_the_cli_check_fails_on_a_tampered_file(tmp_path: Path) -> None:
    puzzle = first("manipulation", "play")
    new = [*puzzle.meta["new_table"]]
    new[0] = "4H 4H 5H 6H"
    (tmp_path / "tampered.toml").write_text(dumps(tampered(puzzle, new_table=new)), encoding="utf-8")
    result = runner.invoke(app, ["solve", "--check", str(tmp_path / "tampered.toml")])
    assert result.exit_code == 1 and "stated solution" in result.output


def titled(puzzle: Puzzle, title: str) -> Puzzle:
    return Puzzle(puzzle.game, puzzle.rules, puzzle.position, title, dict(puzzle.answer), "", dict(puzzle.meta))


def test_a_new_table_that_moves_more_than_the_least_change_fails() -> None:
    text = (
        'game = "manipulation"\ntitle = "Play 1 of your 1 cards"\n[position]\ntable = ["3H 4H 5H 6H 7H"]\n'
        'hand = "8H"\n[answer]\nplayed = 1\ncards = "8H"\n[meta]\nkind = "play"\n'
    )
    least = loads(text + 'new_table = ["3H 4H 5H 6H 7H 8H"]\n')
    assert mismatch(least) is None
    split = loads(text + 'new_table = ["3H 4H 5H", "6H 7H 8H"]\n')  # the right card, two table cards moved
    problem = mismatch(split)
    assert problem is not None and "keeps 0 melds whole and moves 2 table cards" in problem, problem
    assert "the least change keeps 1 and moves 0" in problem
    bundled = first("manipulation", "play", "medium")
    assert mismatch(bundled) is None
    feats = {**bundled.meta["features"], "moved_cards": bundled.meta["features"]["moved_cards"] + 1}
    problem = mismatch(tampered(bundled, features=feats))
    assert problem is not None and "table cards, the features say" in problem


def test_a_difficulty_the_models_do_not_measure_fails() -> None:
    easy = first("manipulation", "play", "easy")
    assert mismatch(easy) is None
    problem = mismatch(tampered(easy, difficulty="expert"))
    assert problem is not None and "[meta] difficulty: expert is not the measured level (easy" in problem, problem
    feats = {**easy.meta["features"], "missed_by": ["greedy", "shallow-1", "shallow-2", "glance"]}
    problem = mismatch(tampered(easy, features=feats))  # "missed by every model" on an easy puzzle
    assert problem is not None and "missed by greedy, the file says greedy, shallow-1" in problem, problem
    problem = mismatch(tampered(easy, score=easy.meta["score"] + 5))
    assert problem is not None and "the features score" in problem
    bare = {k: v for k, v in easy.meta.items() if k != "features"}
    problem = mismatch(Puzzle(easy.game, easy.rules, easy.position, easy.title, dict(easy.answer), "", bare))
    assert problem is not None and "without the measured features" in problem
    expert = first("contract", "discard", "expert")
    assert mismatch(expert) is None
    problem = mismatch(tampered(expert, difficulty="easy"))
    assert problem is not None and "easy is not the measured level (expert" in problem, problem


def test_numbers_in_the_title_are_checked() -> None:
    play = first("manipulation", "play")
    n, hand = play.answer["played"], len(play.position.hand)
    assert play.title == f"Play {n} of your {hand} cards" and mismatch(play) is None
    problem = mismatch(titled(play, f"Play {n + 1} of your {hand} cards"))
    assert problem is not None and f"title: it says play {n + 1}, the best plays {n} card" in problem, problem
    problem = mismatch(titled(play, f"Play {n} of your {hand + 1} cards"))
    assert problem is not None and f"it says {hand + 1} cards in hand" in problem
    assert mismatch(titled(play, "Play as many cards as you can")) is None  # no claim
    out = first("zsy", "out")
    k = out.answer["fewest_plays"]
    problem = mismatch(titled(out, f"Out in {k - 1} plays"))
    assert problem is not None and f"the fewest are {k} plays" in problem, problem
    layoff = first("contract", "layoff")
    wrong = layoff.title.replace("Best lay-off: ", "Best lay-off: 1")
    problem = mismatch(titled(layoff, wrong))
    assert problem is not None and "title: it says lay off 1" in problem, problem
    discard = first("contract", "discard")
    pos = discard.position
    assert isinstance(pos, ContractPosition) and f"(round {pos.round}:" in discard.title
    problem = mismatch(titled(discard, discard.title.replace(f"(round {pos.round}:", f"(round {pos.round % 7 + 1}:")))
    assert problem is not None and f"the position is round {pos.round}" in problem, problem
