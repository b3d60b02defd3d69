"""Contract questions with depth (issue 38): go out only one way (``outway``), the last round's two
near-contracts (``twonear``).

Every answer is proven unique again by the brute force of ``tests/oracles/contract_turn.py``
(every lay-down with its wilds' roles written, every lay-off and swap one card at a time), which
shares no code with the generator's proofs; tampered answers are refused by ``solve --check``.
"""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from solver.cards import Card, Cards
from solver.contract.handsize import hand_size_problem
from solver.generate import GenerateError, generate
from solver.generate.calibrate import misses
from solver.generate.contract_proofs import go_out_discards, goes_down_whole, outs_by_discard, stated_outway
from solver.generate.difficulty import LEVELS
from solver.generate.ladder import BY_NAME, LADDER, ON_REQUEST, questions_at, rung_for
from solver.legality import position_problem
from solver.melds import TableMeld
from solver.picture import answer_notes
from solver.puzzles import ContractPosition, Puzzle, load, loads
from solver.rules import ContractRules
from solver.stated import stated_problem
from tests.generate.test_whole import assert_another_discard_fails_the_check
from tests.oracles.contract_turn import _lay_downs, _Search, _table_of

runner = CliRunner()


@cache
def outway(level: str) -> tuple[Puzzle, ...]:
    return tuple(generate("contract", level, 2, seed=3, question="outway"))


ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "puzzles" / "contract"


@cache
def twonear() -> tuple[Puzzle, ...]:
    # generating one takes a minute or more (docs/generate.md): the bundled example, written by the generator
    return (load(EXAMPLES / "round7-two-near-contracts.toml"),)


class _NoDiscard(_Search):
    """The oracle's search, where a turn ends well only when every card went to the table."""

    def final(self, hand: Cards) -> int:
        return sum(self.rules.points(c) for c in hand)


def oracle_out_discards(pos: ContractPosition, rules: ContractRules) -> list[str]:
    """Every card whose discard ends a turn that goes out, by the oracle: the hand less the card laid
    down and off to the last card (every lay-down, every lay-off and swap one card at a time)."""
    found = []
    start = _table_of(pos.table, rules)
    for card in pos.hand.distinct():
        rest = pos.hand - Cards([card])
        search = _NoDiscard(rules, 0, None)
        for used, melds in _lay_downs(rest, rules, pos.round):
            if search.value(rest - used, (*start, *((tuple(m), 0) for m in melds))) == 0:
                found.append(str(card))
                break
    return found


def oracle_goes_down(hand: Cards, rules: ContractRules, round_: int) -> bool:
    """The oracle's lay-downs: some grouping of the contract leaves at most one card (the discard)."""
    return any(len(hand - used) <= 1 for used, _ in _lay_downs(hand, rules, round_))


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_outway_goes_out_only_one_way(level: str) -> None:
    for p in outway(level):
        pos = p.position
        assert isinstance(pos, ContractPosition) and isinstance(p.rules, ContractRules)
        assert p.meta["kind"] == "outway" and p.meta["difficulty"] == level
        # a hand a game gives: 13 cards after the draw, not laid down
        assert len(pos.hand) == 13 and not pos.laid_down and pos.drawn
        assert hand_size_problem(pos.hand, pos.round, False, pos.calls, True, p.rules) is None
        assert position_problem(pos, p.rules) is None
        assert oracle_out_discards(pos, p.rules) == [p.meta["solution"]]
        assert [str(c) for c in go_out_discards(pos.hand, pos.table, p.rules, pos.round)] == [p.meta["solution"]]
        assert stated_problem(p, {}) is None
        rung = rung_for(p, level, misses(p).__getitem__)  # type: ignore[arg-type]
        assert rung is not None and rung.idea == p.meta["features"]["idea"]


def test_outway_levels_are_missed_by_their_models() -> None:
    assert outway("easy")[0].meta["features"]["missed_by"] == []
    assert all(p.meta["features"]["missed_by"] == ["one-look"] for p in outway("medium"))
    assert all(p.meta["features"]["missed_by"] == ["no-swap", "one-look"] for p in outway("hard"))
    assert all(p.meta["features"]["swaps"] >= 1 for p in outway("hard"))


def test_outway_tampered_answers_are_refused() -> None:
    p = outway("hard")[0]
    pos = p.position
    assert isinstance(pos, ContractPosition)
    other = next(c for c in pos.hand.distinct() if str(c) != p.meta["solution"])
    wrong = replace(p, meta={**p.meta, "solution": str(other)})
    assert "stated solution" in (stated_problem(wrong, {}) or "")
    short = replace(p, meta={**p.meta, "new_table": p.meta["new_table"][:-1]})
    assert "new table has" in (stated_problem(short, {}) or "")
    table = list(pos.table)
    kept = replace(p, meta={**p.meta, "new_table": [str(t.meld) for t in table] + p.meta["lay_down"]})
    assert "not the one discard" in (stated_problem(kept, {}) or "")
    easy = replace(p, meta={**p.meta, "difficulty": "easy"})
    assert "not the measured level" in (stated_problem(easy, {}) or "")


def test_outway_proof_sees_a_second_way() -> None:
    # two odd cards that fit nothing: neither discard goes out
    p = outway("easy")[0]
    pos = p.position
    assert isinstance(pos, ContractPosition)
    answer = Cards.parse(p.meta["solution"])
    two = replace(pos, hand=pos.hand - answer + Cards.parse("9S" if str(answer) != "9S" else "9H"))
    table: tuple[TableMeld, ...] = two.table
    ways = go_out_discards(two.hand, table, p.rules, two.round)  # type: ignore[arg-type]
    assert [str(c) for c in ways] == oracle_out_discards(two, p.rules)  # type: ignore[arg-type]


def oracle_outs(hand: Cards, card: Card, rules: ContractRules, round_: int) -> int:
    """The unseen copies of every card that, drawn after discarding ``card``, lets the hand go down whole
    (the oracle's lay-downs, every card of the decks tried)."""
    deck = Cards(rules.deck)
    rest = hand - Cards([card])
    live = 0
    for c in deck.distinct():
        copies = deck.count(c) - rest.count(c) - (1 if c == card else 0)
        if copies > 0 and oracle_goes_down(rest + Cards([c]), rules, round_):
            live += copies
    return live


def test_twonear_keeps_the_most_outs() -> None:
    (p,) = twonear()
    pos = p.position
    rules = p.rules
    assert isinstance(pos, ContractPosition) and isinstance(rules, ContractRules)
    assert len(pos.hand) == 13 and pos.round == rules.rounds and rules.last_round_all_at_once
    assert hand_size_problem(pos.hand, pos.round, False, pos.calls, True, rules) is None
    assert not oracle_goes_down(pos.hand, rules, pos.round)
    # every discard counted by the brute force (no distance cut), the answer's again by the oracle (and
    # every discard's in test_twonear_every_discard_by_the_oracle)
    outs = outs_by_discard(pos.hand, rules, pos.round)
    answer = Card.parse(p.meta["solution"])
    assert max(outs.values()) == outs[answer] == p.meta["outs"]
    assert sorted(outs.values()).count(p.meta["outs"]) == 1
    assert {str(c): n for c, n in outs.items()} == p.meta["outs_by_discard"]
    assert oracle_outs(pos.hand, answer, rules, pos.round) == p.meta["outs"]
    assert stated_problem(p, {"missing": p.answer["distance"]}) is None


def test_twonear_every_discard_by_the_oracle() -> None:
    (p,) = twonear()
    pos = p.position
    assert isinstance(pos, ContractPosition) and isinstance(p.rules, ContractRules)
    for card in pos.hand.distinct():
        assert oracle_outs(pos.hand, card, p.rules, pos.round) == p.meta["outs_by_discard"][str(card)], card


def test_twonear_tampered_answers_are_refused() -> None:
    (p,) = twonear()
    runner_up = next(k for k, v in p.meta["outs_by_discard"].items() if k != p.meta["solution"])
    count = p.meta["outs_by_discard"][runner_up]
    wrong = replace(p, meta={**p.meta, "solution": runner_up, "outs": count})
    problem = stated_problem(wrong, {}) or ""
    assert f"discarding {runner_up} keeps {count} outs, {p.meta['solution']} keeps {p.meta['outs']}" in problem
    count = replace(p, meta={**p.meta, "outs": p.meta["outs"] + 1})
    assert "the file says" in (stated_problem(count, {}) or "")


def test_goes_down_whole_agrees_with_the_oracle() -> None:
    rules = ContractRules()
    for text in (
        "3H 4H 5H 6H 8S 9S 10S JS 5D 6D 7D 8D KC",
        "3H 4H 5H 6H 8S 9S 10S JS 5D 6D 7D 9D KC",
        "3H 4H 2C 6H 8S 9S 10S JS 5D 6D 7D 8D 9D",
        "3H 4H 5H 6H 7H 9S 10S JS QS KS 5D 6D 2S",
    ):
        hand = Cards.parse(text)
        assert goes_down_whole(hand, rules, 7) == oracle_goes_down(hand, rules, 7), text


def test_cli_generates_and_checks(tmp_path: Path) -> None:
    args = ["generate", "contract", "--question", "outway", "--difficulty", "medium", "--count", "1"]
    r = runner.invoke(app, [*args, "--seed", "2", "-o", str(tmp_path), "-q"])
    assert r.exit_code == 0, r.output
    (path,) = sorted(tmp_path.glob("*.toml"))
    assert path.name == "medium-outway-01.toml"
    checked = runner.invoke(app, ["check", str(path), "--json"])
    assert checked.exit_code == 0 and json.loads(checked.stdout.splitlines()[0])["valid"] is True
    solved = runner.invoke(app, ["solve", str(path), "--check", "--json"])
    assert solved.exit_code == 0 and json.loads(solved.stdout.splitlines()[0])["check"] == "ok", solved.output
    assert_another_discard_fails_the_check(path)
    bad = runner.invoke(app, ["generate", "contract", "--difficulty", "expert", "--question", "outway", "-q"])
    assert bad.exit_code == 2 and "no expert contract 'outway' puzzles" in bad.output


def test_rungs_of_the_new_kinds() -> None:
    kinds = {k for level in LADDER["contract"].values() for r in level for k in r.kinds}
    assert {"outway", "twonear"} <= kinds


def test_outway_stated_turn_that_is_one_of_several_is_refused() -> None:
    # the stated turn goes out, but so do others: a nine, the six (7C to JC down) or the queen may be the discard
    p = loads(
        'game = "contract"\n[position]\nround = 1\nhand = "5S 5H 5D 6C 7C 8C 9C 9H 9D 10C JC QC 9S"\n'
        'table = [{ cards = "9C 9S 9H", owner = 1 }, { cards = "3D 4D 5D 6D", owner = 1 }]\n'
        'drawn = true\n[meta]\nkind = "outway"\nsolution = "QC"\nlay_down = ["5S 5H 5D", "6C 7C 8C 9C"]\n'
        'new_table = ["9C 9S 9H 9S 9H 9D", "3D 4D 5D 6D", "5S 5H 5D", "6C 7C 8C 9C 10C JC"]\n'
    )
    problems = stated_outway(p, {})
    assert problems == ["QC goes out, but the discards that go out are 9S 9H 9D 6C QC"], problems
    assert oracle_out_discards(p.position, p.rules) == ["9S", "9H", "9D", "6C", "QC"]  # type: ignore[arg-type]


def test_twonear_needs_the_last_round_all_at_once() -> None:
    with pytest.raises(GenerateError, match="no 'twonear' puzzles under these rules"):
        generate("contract", "hard", 1, question="twonear", rules={"last_round_all_at_once": False})


def test_answer_words_state_the_turn_and_the_outs() -> None:
    # the picture's words: the whole turn that goes out (not the best lay-down alone), the outs
    for p in outway("medium"):
        notes = answer_notes(p)
        assert f"and discard {p.meta['solution']}" in notes and "Out: nothing stays in hand." in notes, notes
        assert notes[0] == f"Answer: lay down {' | '.join(p.meta['lay_down'])}"
    (near,) = twonear()
    words = answer_notes(near)
    assert (
        words[0]
        == f"Answer: discard {near.meta['solution']}: {near.meta['outs']} unseen cards would then let the hand go down next turn."
    )


def test_new_kinds_stay_out_of_the_levels_turns_and_the_gallery() -> None:
    # asked only by name: the gallery, the daily puzzle and a level's turns stay as they were
    assert all(q not in questions_at("contract", lv) for lv in LEVELS for q in ("outway", "twonear"))
    assert not {"outway", "twonear"} & set(ON_REQUEST["contract"])
    assert BY_NAME["contract"] == ("outway", "twonear")
