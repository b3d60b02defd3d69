"""Game review (issue 40): each decision of a seat scored against the solver in the game's own measure."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.engine import new_game
from solver.engine.base import GameRecord, play_game
from solver.engine.players import make_players
from solver.engine.review import Review, loss_svg, review_game
from solver.melds import validate_rearrangement
from solver.puzzles import dumps, loads

runner = CliRunner()

# Manipulation under "must_play = never": a player may draw instead of playing, so a seat has choices to get wrong
RULES: dict[str, dict[str, Any]] = {"manipulation": {"must_play": "never"}, "zsy": {}, "contract": {}}
OPTIONS: dict[str, dict[str, Any]] = {
    "manipulation": {"max_hands": 1},
    "zsy": {"max_hands": 1},
    "contract": {"max_rounds": 1},
}
KINDS = ["solver", "greedy", "random", "random"]


def played(game: str, seed: int, kinds: list[str]) -> GameRecord:
    """A short game of ``kinds`` (seats rotate with the seed), as its record."""
    shift = seed % len(kinds)
    seats = kinds[shift:] + kinds[:shift]
    g = new_game(game, RULES[game], len(seats), seed, options=OPTIONS[game])
    play_game(g, make_players(seats, seed))
    return g.record(seats)


def reviews(game: str, seeds: range, kinds: list[str]) -> dict[str, list[Review]]:
    out: dict[str, list[Review]] = {}
    for seed in seeds:
        record = played(game, seed, kinds)
        for seat, kind in enumerate(record.players):
            out.setdefault(kind, []).append(review_game(record, seat, time_limit=1.0))
    return out


def mean_loss(rs: list[Review]) -> float:
    moves = [m for r in rs for m in r.moves]
    return sum(m.loss for m in moves) / len(moves)


@pytest.mark.parametrize("game", ["manipulation", "zsy", "contract"])
def test_the_solver_seat_loses_nothing(game: str) -> None:
    record = played(game, 1, ["solver", "greedy", "random", "random"])
    seat = record.players.index("solver")
    review = review_game(record, seat, time_limit=2.0)
    assert review.moves, "no decision was judged"
    assert [m for m in review.moves if m.loss] == []
    assert review.accuracy == 100.0 and review.total == 0
    if game != "contract":  # one action a decision: the best is the solver's own choice, replayed
        assert all(m.taken == m.best and m.taken_value == m.best_value for m in review.moves)
    # every decision of the seat is judged, or counted as not judged (tribute steps, a first discard)
    own = sum(1 for i, text in enumerate(record.actions) if _player_of(record, i) == seat)
    turns = {m.index for m in review.moves}
    assert len(turns) + review.unjudged <= own


def _player_of(record: GameRecord, index: int) -> int:
    from solver.engine import replay

    return replay(record, index).current_player()


def test_manipulation_best_plays_pass_the_referee() -> None:
    """The review's best action, replayed through the independent rearrangement referee, plays as many
    cards as the review says; the loss is the cards the move taken left in hand against it."""
    from solver.engine import replay
    from solver.manipulation.game import MPlay

    record = played("manipulation", 2, ["solver", "greedy", "random", "random"])
    seat = record.players.index("random")
    review = review_game(record, seat)
    assert any(m.loss for m in review.moves)
    for m in review.moves:
        game: Any = replay(record, m.index)
        best = game.parse_action(m.best)
        n = (
            len(validate_rearrangement(game.table, game.hands[seat], best.table, game.rules.meld_spec))
            if isinstance(best, MPlay)
            else 0
        )
        taken = game.parse_action(m.taken)
        t = game.cards_played(taken.table) if isinstance(taken, MPlay) else 0
        assert (-m.best_value, -m.taken_value, m.loss) == (n, t, max(0, n - t))


@pytest.mark.parametrize(("game", "seeds"), [("manipulation", 4), ("zsy", 6), ("contract", 1)])
def test_mean_loss_orders_random_greedy_solver(game: str, seeds: int) -> None:
    by_kind = reviews(game, range(seeds), KINDS)
    assert mean_loss(by_kind["random"]) > mean_loss(by_kind["greedy"]) > mean_loss(by_kind["solver"]) == 0


@pytest.mark.slow
@pytest.mark.parametrize("game", ["manipulation", "zsy", "contract"])
def test_mean_loss_orders_over_50_games(game: str) -> None:
    by_kind = reviews(game, range(50), KINDS)
    assert mean_loss(by_kind["random"]) > mean_loss(by_kind["greedy"]) > mean_loss(by_kind["solver"])


@pytest.mark.parametrize("game", ["manipulation", "zsy", "contract"])
def test_mistakes_exported_as_puzzles_pass_solve_check(game: str, tmp_path: Path) -> None:
    seed = {"manipulation": 2, "zsy": 1, "contract": 0}[game]
    record = played(game, seed, ["random", "greedy", "solver", "random"])
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    seat = record.players.index("random")
    result = runner.invoke(app, ["review", str(path), "--seat", str(seat), "--mistakes", str(tmp_path / "m"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["puzzles"], "no mistake was exported"
    by_index = {m["index"]: m for m in data["moves"]}
    for file in data["puzzles"]:
        puzzle = loads(Path(file).read_text())
        assert puzzle.meta["source"] == "shanghai review"
        assert loads(dumps(puzzle)) == puzzle
    checked = runner.invoke(app, ["solve", "--check", "--json", str(tmp_path / "m")])
    assert checked.exit_code == 0, checked.output
    rows = [json.loads(line) for line in checked.stdout.splitlines() if line.strip()]
    assert len(rows) == len(data["puzzles"]) and all(r.get("check") != "mismatch" for r in rows)
    assert all(by_index[i]["loss"] > 0 for i in data["mistakes"])


def test_a_wrong_answer_in_an_exported_mistake_fails_the_check(tmp_path: Path) -> None:
    """The check the export relies on can fail: the same puzzle with another answer is refused."""
    record = played("zsy", 1, ["random", "greedy", "solver", "random"])
    review = review_game(record, record.players.index("random"))
    move = review.mistakes(1, exportable=True)[0]
    puzzle = move.puzzle
    wrong = {**puzzle.answer, "fewest_plays": puzzle.answer["fewest_plays"] + 1}
    path = tmp_path / "wrong.toml"
    path.write_text(dumps(type(puzzle)(puzzle.game, puzzle.rules, puzzle.position, "", wrong, "", puzzle.meta)))
    assert runner.invoke(app, ["solve", "--check", str(path)]).exit_code == 1


def test_cli_text_plot_and_note(tmp_path: Path) -> None:
    record = played("zsy", 1, ["random", "greedy", "solver", "random"])
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    svg = tmp_path / "loss.svg"
    result = runner.invoke(app, ["review", str(path), "--seat", "0", "--plot", str(svg), "-q"])
    assert result.exit_code == 0, result.output
    assert "judged on what the player knew" in result.stdout and "accuracy" in result.stdout
    assert svg.read_text().startswith("<svg") and svg.read_text().count("<rect") > 2
    png = tmp_path / "loss.png"
    assert runner.invoke(app, ["review", str(path), "--seat", "0", "--plot", str(png), "-q"]).exit_code == 0
    assert png.read_bytes().startswith(b"\x89PNG")


def test_the_human_seat_is_the_default(tmp_path: Path) -> None:
    record = played("zsy", 1, ["random", "greedy", "solver", "random"])
    mine = GameRecord(
        record.game,
        record.rules,
        record.num_players,
        record.seed,
        record.actions,
        tuple("you" if k == "greedy" else k for k in record.players),
        record.options,
    )
    assert review_game(mine).seat == record.players.index("greedy")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--seat", "7"], "seats 0-3"),
        (["--plot", "x.gif"], ".svg or .png"),
        (["--time-limit", "0"], "time-limit"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], words: str, tmp_path: Path) -> None:
    record = played("zsy", 1, ["random", "greedy", "solver", "random"])
    path = tmp_path / "game.json"
    path.write_text(record.to_json())
    result = runner.invoke(app, ["review", str(path), *args])
    assert result.exit_code == 2 and words in result.output and "Traceback" not in result.output


def test_a_bad_record_is_one_line_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text('{"game": "zsy", "num_players": 3, "seed": 1, "actions": ["play single:XX"]}')
    result = runner.invoke(app, ["review", str(path)])
    assert result.exit_code == 2 and "Traceback" not in result.output


def test_the_plot_marks_losses() -> None:
    record = played("zsy", 1, ["random", "greedy", "solver", "random"])
    review = review_game(record, record.players.index("random"))
    assert loss_svg(review).count("#c0392b") == sum(1 for m in review.moves if m.loss)


def test_sampled_offers_are_judged_by_expected_points_from_the_seats_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``samples`` a take or call is judged by the mean points over deals resampled from the seat's
    view (``Game.resample``: never the real hidden cards), reproducibly, and marked "best found"."""
    from solver.contract.game import ContractGame

    record = played("contract", 0, KINDS)
    seat = record.players.index("greedy")
    calls: list[int] = []
    real = ContractGame.resample

    def spy(self: ContractGame, player: int, rng: Any) -> ContractGame:
        calls.append(player)
        return real(self, player, rng)

    monkeypatch.setattr(ContractGame, "resample", spy)
    first = review_game(record, seat, samples=3, time_limit=1.0)
    offers = [m for m in first.moves if m.kind == "offer"]
    assert offers and calls and set(calls) == {seat} and len(calls) == 3 * len(offers)
    assert all(not m.proven and m.loss == max(0.0, m.taken_value - m.best_value) for m in offers)
    assert all(m.best_value <= m.taken_value or m.taken == m.best for m in offers)
    again = review_game(record, seat, samples=3, time_limit=1.0)
    assert [m.to_json() for m in again.moves] == [m.to_json() for m in first.moves]
    plain = review_game(record, seat, time_limit=1.0)
    assert [m.taken_value for m in plain.moves if m.kind == "offer"] != [m.taken_value for m in offers]


def test_samples_out_of_range_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(played("zsy", 1, KINDS).to_json())
    result = runner.invoke(app, ["review", str(path), "--samples", "-1"])
    assert result.exit_code == 2 and "samples" in result.output and "Traceback" not in result.output
