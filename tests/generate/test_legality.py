"""One legality check for every position: bundled files, generated puzzles, inline positions, the CLI."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.cards import Cards
from solver.errors import PuzzleError
from solver.generate import generate
from solver.legality import IllegalPositionError, position_problem
from solver.puzzles import ContractPosition, Puzzle, ZsyPosition, iter_puzzle_paths, load, loads
from solver.rules import ZsyRules

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

SOURCE_ROUND_2 = """
game = "contract"
[position]
round = 2
hand = "5C 5C 10S KD"
table = [{ cards = "5H 5D 5S", owner = 1 }, { cards = "6S 7S 8S 9S", owner = 1 }]
laid_down = true
"""


def contract(table: str, *, round_: int = 1, laid_down: bool = True, rules: str = "") -> str:
    """A Contract puzzle file with ``table`` (TOML list items) in ``round_``."""
    return (
        f'game = "contract"\n{rules}[position]\nround = {round_}\nhand = "KD"\n'
        f"table = [{table}]\nlaid_down = {str(laid_down).lower()}\n"
    )


P0_SET_RUN = '"5H 5D 5S", "6S 7S 8S 9S"'
P1_SET_RUN = '{ cards = "JH JD JC", owner = 1 }, { cards = "6C 7C 8C 9C", owner = 1 }'


def test_every_bundled_puzzle_is_legal() -> None:
    paths = iter_puzzle_paths(ROOT / "puzzles")
    assert len(paths) > 150
    for path in paths:
        puzzle = load(path)  # the parser runs the check; ask again to see the answer itself
        assert position_problem(puzzle.position, puzzle.rules) is None, path


@cache
def fresh(game: str, level: str, count: int, seed: int) -> tuple[Puzzle, ...]:
    return tuple(generate(game, level, count, seed))


@pytest.mark.parametrize(
    ("game", "level", "count", "seed", "kinds"),
    [
        ("contract", "hard", 4, 1, ({"layoff", "goout"}, {"discard"})),
        ("manipulation", "easy", 2, 3, ({"play"},)),
        ("zsy", "medium", 5, 1, ({"reply"}, {"out"})),
    ],
)
def test_freshly_generated_puzzles_of_every_kind_are_legal(
    game: str, level: str, count: int, seed: int, kinds: tuple[set[str], ...]
) -> None:
    # every question of the level comes up (puzzle i asks them in turn), each position legal
    puzzles = fresh(game, level, count, seed)
    found = {p.meta["kind"] for p in puzzles}
    assert found <= set().union(*kinds) and all(found & group for group in kinds)
    for p in puzzles:
        assert position_problem(p.position, p.rules) is None, p.title


def test_generated_contract_tables_are_each_owners_contract() -> None:
    for p in fresh("contract", "hard", 4, 1):
        pos = p.position
        assert isinstance(pos, ContractPosition)
        if p.meta["kind"] == "discard":
            assert not pos.table and not pos.laid_down
            continue
        contract = p.rules.contract(pos.round)  # type: ignore[union-attr]
        owners = {t.owner for t in pos.table}
        # a lay-down puzzle: the player has not laid down, the opponents have
        assert (0 in owners and pos.laid_down) or (
            p.meta["kind"] == "laydown" and 0 not in owners and not pos.laid_down
        )
        for owner in owners:
            assert sum(t.owner == owner for t in pos.table) == len(contract)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (SOURCE_ROUND_2, "p1 owns 5H 5D 5S | 6S 7S 8S 9S, which is not the round 2 contract (set + set)"),
        (contract(P1_SET_RUN), "player 0 is laid down but owns no meld"),
        (contract(P0_SET_RUN, laid_down=False), "player 0 owns melds but has not laid down"),
        (contract(f'{P0_SET_RUN}, {{ cards = "JH JD JC", owner = 1 }}'), "p1 owns JH JD JC, which is not the round 1"),
        (contract(P0_SET_RUN, round_=7), "round 7 is played all at once"),
        (contract(f'{P0_SET_RUN}, {{ cards = "JH JD JC", owner = 6 }}'), "owner p6 is not a player"),
        (
            contract('"5H 5D 5S", "5S 5D 5C", "6S 7S 8S 9S"', rules='[rules]\ncontracts = ["set run", "set set"]\n'),
            "p0 owns 5H 5D 5S | 5S 5D 5C | 6S 7S 8S 9S, which is not the round 1 contract (set + run)",
        ),
        (
            contract('"5H 5D 5S", "5S 5D 5C"', round_=2, rules="[rules]\ndistinct_set_ranks = true\n"),
            "p0 owns 5H 5D 5S | 5S 5D 5C, which is not the round 2 contract",
        ),
    ],
)
def test_illegal_contract_positions_name_the_reason(text: str, reason: str) -> None:
    with pytest.raises(IllegalPositionError, match=r"x\.toml: position: ") as caught:
        loads(text, "x.toml")
    assert reason in str(caught.value)
    assert isinstance(caught.value, PuzzleError) and isinstance(caught.value, ValueError)


def test_legal_variants_load() -> None:
    loads(contract(P0_SET_RUN))
    loads(contract(f"{P0_SET_RUN}, {P1_SET_RUN}"))
    loads(hand_file(TWELVE, table=P1_SET_RUN))  # not laid down: the deal, 12 cards
    loads(hand_file(TWELVE + " 7D", round_=7))
    runs = '"3H 4H 5H 6H", "3C 4C 5C 6C", "8D 9D 10D JD"'
    loads(contract(runs, round_=7, rules='[rules]\npreset = "last_round_normal"\n'))
    # a set laid off onto (longer) and a run with a wild swapped out stay the contract
    loads(contract('"5H 5D 5S 5C 2S", "6S 7S 8S 9S 10S JS"'))


def test_check_json_says_invalid_with_the_reason_and_exits_2(tmp_path: Path) -> None:
    (tmp_path / "illegal.toml").write_text(SOURCE_ROUND_2, encoding="utf-8")
    result = runner.invoke(app, ["check", "--json", str(tmp_path)])
    assert result.exit_code == 2
    row = json.loads(result.stdout.strip().splitlines()[-1])
    assert row["valid"] is False and "not the round 2 contract (set + set)" in row["error"]


def test_solve_refuses_an_illegal_file(tmp_path: Path) -> None:
    (tmp_path / "illegal.toml").write_text(SOURCE_ROUND_2, encoding="utf-8")
    result = runner.invoke(app, ["solve", str(tmp_path / "illegal.toml")])
    assert result.exit_code == 2
    assert "not the round 2 contract" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        (["--table", "5H 5D 5S | 6S 7S 8S 9S"], "player 0 owns melds but has not laid down"),
        (["--laid-down"], "player 0 is laid down but owns no meld"),
        (["--laid-down", "--table", "5H 5D 5S"], "p0 owns 5H 5D 5S, which is not the round 1 contract"),
    ],
)
def test_inline_positions_take_the_same_check(args: list[str], reason: str) -> None:
    result = runner.invoke(app, ["solve", "--game", "contract", "--hand", "KD", *args])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and reason in lines[0]


def test_web_page_check_refuses_an_illegal_position() -> None:
    from solver.puzzles import from_data

    with pytest.raises(IllegalPositionError, match="player 0 owns melds"):
        from_data(
            {"game": "contract", "position": {"round": 1, "hand": "KD", "table": ["5H 5D 5S", "6S 7S 8S 9S"]}},
            "puzzle",
        )


def test_card_counts_within_the_decks_in_every_game() -> None:
    from solver.cards import Cards
    from solver.puzzles import ManipulationPosition, ZsyPosition
    from solver.rules import ContractRules, ManipulationRules, ZsyRules

    assert position_problem(ZsyPosition(Cards.parse("5H 5H")), ZsyRules()) is not None
    manip = ManipulationPosition((), Cards.parse("5H 5H 5H"))
    assert "3 copies of 5H" in (position_problem(manip, ManipulationRules(decks=2)) or "")
    cpos = ContractPosition(1, Cards.parse("5H 5H 5H"))
    assert "3 copies of 5H" in (position_problem(cpos, ContractRules()) or "")


def test_a_zsy_hand_holds_no_more_than_a_deal_gives() -> None:
    fifteen = "3H 3D 4H 4D 5H 5D 6H 6D 7H 7D 8H 8D 9H 9D 10H"
    problem = position_problem(ZsyPosition(Cards.parse(fifteen)), ZsyRules())
    assert problem == (
        "hand holds 15 cards, but a deal of 54 cards among at least 4 players gives at most 14 (rule option min_players)"
    )
    with pytest.raises(IllegalPositionError, match="hand holds 15 cards"):
        loads(f'game = "zsy"\n[position]\nhand = "{fifteen}"\n')
    assert loads(f'game = "zsy"\n[rules]\nmin_players = 3\n[position]\nhand = "{fifteen}"\n').position.hand
    endgame = f'game = "zsy"\n[rules]\nmin_players = 6\n[position]\nhand = "3S"\nopponent = "{fifteen[:32]}"\n'
    with pytest.raises(
        IllegalPositionError, match=r"opponent holds 11 cards.*among at least 6 players gives at most 9"
    ):
        loads(endgame)
    result = runner.invoke(app, ["solve", "--game", "zsy", "--hand", fifteen.replace(" ", ","), "--check"])
    assert result.exit_code == 2 and "hand holds 15 cards" in result.output, result.output


def test_generated_zsy_hands_fit_the_deal() -> None:
    few = ZsyRules(min_players=6)  # 54 cards among 6: at most 9 a hand
    for puzzle in generate("zsy", "expert", 2, seed=3, rules=few):  # expert deals 11-14 cards by default
        assert len(puzzle.position.hand) <= 9 and position_problem(puzzle.position, few) is None


# ------------------------------------------------------------------ Contract hand sizes (issue 38)

TWELVE = "3H 4H 5H 6H 8S 9S 10S JS 4C 5C 9D KD"


def hand_file(hand: str, *, round_: int = 1, table: str = "", laid_down: bool = False, extra: str = "") -> str:
    """A Contract file whose player to move holds ``hand``."""
    return (
        f'game = "contract"\n[position]\nround = {round_}\nhand = "{hand}"\n'
        f"table = [{table}]\nlaid_down = {str(laid_down).lower()}\n{extra}"
    )


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (
            hand_file("5H 5D 5S 6C 7C 8C"),
            "hand holds 6 cards, but a player who has not laid down holds 12 before the draw or 13 after it "
            "(deal 12, +2 a call, calls = 0)",
        ),
        (hand_file(TWELVE + " 7D 8D"), "hand holds 14 cards, but a player who has not laid down holds 12 before"),
        (hand_file(TWELVE, extra="drawn = true\n"), "holds 13 after the draw (deal 12, +2 a call, calls = 0)"),
        (hand_file(TWELVE + " 7D", extra="drawn = false\n"), "holds 12 before the draw"),
        (hand_file(TWELVE + " 7D", extra="calls = 1\n"), "holds 14 before the draw or 15 after it"),
        (
            hand_file("KD QD JD 10D 9D 8D 7D", table=P0_SET_RUN, laid_down=True),
            "hand holds 7 cards, but a player who has laid down the round 1 contract (7 cards at least) "
            "holds 1 to 6 (deal 12, +2 a call, calls = 0)",
        ),
        (
            hand_file("KD QD JD 10D 9D 8D", table=P0_SET_RUN, laid_down=True, extra="drawn = false\n"),
            "holds 1 to 5 before the draw",
        ),
        (
            hand_file(TWELVE, extra="calls = 2\n[rules]\nmax_calls = 1\n"),
            "calls = 2, but the rules allow 1 a round (rule option max_calls)",
        ),
        (hand_file(TWELVE, extra="calls = -1\n"), "calls = -1: a player makes 0 calls or more"),
        (hand_file("5H 5D 5S", round_=7), "hand holds 3 cards, but a player who has not laid down"),
    ],
)
def test_contract_hand_sizes_no_game_gives_are_refused(text: str, reason: str) -> None:
    with pytest.raises(IllegalPositionError, match=r"x\.toml: position: ") as caught:
        loads(text, "x.toml")
    assert reason in str(caught.value)


def test_contract_hand_sizes_a_game_gives_load() -> None:
    loads(hand_file(TWELVE))  # before the draw
    loads(hand_file(TWELVE + " 7D"))  # after the draw (or the first player's opening discard)
    loads(hand_file(TWELVE + " 7D", extra="drawn = true\n"))
    loads(hand_file(TWELVE + " 7D 8D 9H", extra="calls = 1\ndrawn = true\n"))  # a call: the discard and a penalty
    loads(hand_file("KD QD JD 10D 9D 8D", table=P0_SET_RUN, laid_down=True))  # 13 less the contract's 7
    loads(hand_file("KD QD JD 10D 9D 8D 7D 6D", table=P0_SET_RUN, laid_down=True, extra="calls = 1\n"))
    few = loads(hand_file("5H 5D 5S 6C 7C 8C 9C", extra="[rules]\ndeal = 6\n"))  # a smaller deal: 6 or 7
    assert len(few.position.hand) == 7


def test_a_stated_assumption_round_trips() -> None:
    from solver.puzzles import dumps

    p = loads(hand_file(TWELVE + " 7D 8D 9H", extra="calls = 1\ndrawn = true\n"))
    assert isinstance(p.position, ContractPosition) and (p.position.calls, p.position.drawn) == (1, True)
    assert loads(dumps(p)) == p and "calls = 1" in dumps(p)


@pytest.mark.parametrize("command", [["check"], ["solve"], ["solve", "--check"]])
def test_the_cli_refuses_a_hand_no_game_gives_in_one_line(tmp_path: Path, command: list[str]) -> None:
    (tmp_path / "short.toml").write_text(hand_file("5H 5D 5S 6C 7C 8C"), encoding="utf-8")
    result = runner.invoke(app, [*command, str(tmp_path / "short.toml")])
    assert result.exit_code == 2, result.output
    said = [line for line in result.output.strip().splitlines() if "hand holds" in line]
    assert said == [said[0]] and "hand holds 6 cards, but a player who has not laid down holds 12" in said[0]
    assert said[0].startswith("error: ") and "Traceback" not in result.output


def test_every_bundled_contract_hand_is_one_a_game_gives() -> None:
    from solver.contract.handsize import hand_sizes

    paths = [p for p in iter_puzzle_paths(ROOT / "puzzles") if "contract" in p.parts or "contract" in p.name]
    checked = 0
    for path in paths:
        puzzle = load(path)
        pos = puzzle.position
        if not isinstance(pos, ContractPosition):
            continue
        sizes = hand_sizes(puzzle.rules, pos.round, pos.laid_down, pos.calls, pos.drawn)  # type: ignore[arg-type]
        assert len(pos.hand) in sizes, path
        checked += 1
    assert checked >= 80


@pytest.mark.parametrize(
    ("level", "question"),
    [("easy", "discard"), ("expert", "discard"), ("medium", "laydown"), ("hard", "laydown"), ("easy", "layoff")],
)
def test_generated_contract_hands_are_ones_a_game_gives(level: str, question: str) -> None:
    from solver.contract.handsize import hand_sizes

    for p in generate("contract", level, 2, seed=11, question=question):
        pos = p.position
        assert isinstance(pos, ContractPosition) and position_problem(pos, p.rules) is None
        assert len(pos.hand) in hand_sizes(p.rules, pos.round, pos.laid_down, pos.calls, pos.drawn)  # type: ignore[arg-type]
        if not pos.laid_down:  # the deal and the drawn card, and two a call
            assert pos.drawn and len(pos.hand) == 13 + 2 * pos.calls


def test_a_discard_that_keeps_the_distance_but_sheds_fewer_points_is_refused() -> None:
    # a 13-card hand always has spare cards: 9D, 6H and 5H each leave 1 card missing; 9D sheds the most
    from dataclasses import replace

    from solver.answers import solve_puzzle

    puzzle = load(ROOT / "puzzles" / "generated" / "contract" / "expert-discard-01.toml")
    assert puzzle.meta["solution"] == "9D" and solve_puzzle(puzzle).mismatch is None
    tampered = replace(puzzle, meta={**puzzle.meta, "solution": "6H"})
    mismatch = solve_puzzle(tampered).mismatch or ""
    assert "discarding 6H leaves 1 cards missing, but 9D does as well and sheds more points" in mismatch
