"""The stated solution of a puzzle, replayed by the referees and compared with the optimum.

A generated puzzle's ``[meta]`` states its solution (``solution``, and
``new_table``, ``swaps`` or ``then`` where the kind has them); a file's
``[answer]`` may name the cards (``cards``). ``shanghai solve --check``
compares more than the counts: each stated solution is replayed by the
independent checks, sharing no code with the models that found the optimum,
and must reach the optimum the solver proves:

- Manipulation "play": the ``new_table`` through the rearrangement referee
  (:func:`solver.melds.validate_rearrangement`: every meld valid, no table
  card lost), the cards it plays are the answer's, as many as the optimum;
  the ``solution`` moves account for every card that changes meld.
- Contract lay-off / go out: the ``new_table`` (owners kept) through the
  lay-off referee (:func:`solver.contract.referee.check_layoff`, swaps
  included); it plays the stated cards, as many as the optimum.
- Contract lay-down: the stated melds through the lay-down referee
  (:func:`solver.contract.referee.check_lay_down`), the ``new_table``
  (the table with the new melds) through the lay-off referee, then the
  ``discard``: the points left are the whole-turn optimum and the grouping
  is the plan's.
- Contract discard: the card is in the hand and leaves the fewest cards
  missing, by the CP-SAT distance model (not the search that ranked it),
  and no other card leaves as few and sheds more (a natural before a wild,
  then the most points: in a 13-card hand several discards keep the distance).
- Contract whole ("which discard lets the rest go down?", a last round
  played all at once): the stated ``melds`` through the lay-down referee
  (:func:`solver.contract.referee.check_lay_down`: every meld valid, wild
  roles included, and the round's contract), which must take exactly the
  hand less the stated discard, one card of the hand; the discard is the
  only one the solver finds (``whole_discards``).
- Zheng Shang You "out": every stated play is a combination of its kind, the
  plays use exactly the hand, and there are as many as the fewest.
- Zheng Shang You "reply": the reply is in the hand and beats the
  combination to beat (or is ``pass``), the plays after it use exactly the
  rest of the hand, and it is the best reply (:func:`solver.zsy.best_reply`).
- Zheng Shang You "lead" (a two-player endgame): the lead is a combination of
  its kind from the hand, it wins against every defence by a plain AND-OR
  replay of the game tree written here (not the endgame module's search;
  only the rule functions are shared), and it is the one winning lead the
  solver found.

Every other claim of the file is checked too: a Manipulation new table
must be a least change (as many old melds kept whole, then no more table
cards moved, than the solver's least-change answer; the features'
``moved_cards`` and ``melds_broken`` are its own), the numbers of the title
(:func:`title_problems`: "Play 3 of your 4 cards", "Out in 2 plays", the
round and its contract) are the answer's, and the ``[meta]`` difficulty is
re-measured (:func:`difficulty_problems`: the models that miss the answer
asked again, the level's rung, the idea, the score).

>>> from solver.puzzles import loads
>>> p = loads('game = "zsy"\\n[position]\\nhand = "3H 4H 5H"\\n[answer]\\nfewest_plays = 1\\n'
...           '[meta]\\nkind = "out"\\nsolution = ["straight:3H 4H 6H"]\\n')
>>> stated_problem(p, {"fewest_plays": 1})
'stated solution: straight:3H 4H 6H: 3H 4H 6H is not a legal straight'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from solver.cards import Cards
from solver.errors import ShanghaiError
from solver.generate.contract_proofs import last_round_discard, stated_outway, stated_turn, stated_twonear
from solver.puzzles import ContractPosition, ManipulationPosition, Puzzle, ZsyPosition

__all__ = ["stated_problem", "replay_moves", "title_problems", "difficulty_problems"]


def _plain(text: str) -> Cards:
    """A meld's cards from its text, dropping the roles wilds take (``2S=8H`` is the 2S)."""
    return Cards.parse(" ".join(token.split("=")[0] for token in text.split()))


def _inside(text: str, start: str) -> str:
    """The text between ``[`` and ``]`` after ``start`` in a move line."""
    head = text.index(start) + len(start)
    return text[head : text.index("]", head)]


def _parse_line(line: str, old: list[Cards], new: list[Cards]) -> tuple[Cards, list[int] | None, list[int]]:
    """A move line's cards, the old melds it may come from (None: the hand) and the new melds it may go to
    (every meld of the same cards: the text does not say which of two equal melds)."""
    cards = Cards.parse(line.split(" from ")[0].split(" to ")[0].split(" ", 1)[1])
    to = _plain(_inside(line, " to ["))
    targets = [j for j, m in enumerate(new) if m == to]
    if line.startswith("move "):
        source = _plain(_inside(line, " from ["))
        return cards, [i for i, m in enumerate(old) if m == source], targets
    if not line.startswith("play "):
        raise ValueError("neither a move nor a play")
    return cards, None, targets


def _stays(old: list[Cards], new: list[Cards], outgoing: list[Cards], incoming: list[Cards]) -> bool:
    """The cards no line moves stay together: each old meld's rest is one new meld's rest."""
    stayed_old = sorted(str(m - outgoing[i]) for i, m in enumerate(old) if m - outgoing[i])
    stayed_new = sorted(str(m - incoming[j]) for j, m in enumerate(new) if m - incoming[j])
    return stayed_old == stayed_new


def replay_moves(old: list[Cards], new: list[Cards], hand: Cards, lines: list[str]) -> tuple[Cards, str | None]:
    """Replay a Manipulation answer's move lines on the old and new tables (melds as multisets).

    Each ``move C from [OLD] to [NEW]`` takes cards of an old meld to a new
    one, each ``play C to [NEW]`` hand cards to a new meld; the cards that
    no line moves stay where they were. Where two melds have the same
    cards, every way of telling them apart is tried. Returns the hand cards
    played and the first inconsistency (None when the lines account for the
    new table).
    """
    parsed: list[tuple[Cards, list[int] | None, list[int]]] = []
    for line in lines:
        try:
            parsed.append(_parse_line(line, old, new))
        except (ValueError, IndexError, ShanghaiError):
            return Cards(), f"{line!r} is not a move or a play of cards"
        if not parsed[-1][2] or parsed[-1][1] == []:
            return Cards(), f"{line!r} names a meld that is not on the table before or after"
    played = Cards(c for cards, src, _ in parsed if src is None for c in cards)
    if not played <= hand:
        return played, f"the moves play {played}, not all in the hand"
    outgoing = [Cards() for _ in old]
    incoming = [Cards() for _ in new]

    def fits(k: int) -> bool:
        if k == len(parsed):
            return _stays(old, new, outgoing, incoming)
        cards, sources, targets = parsed[k]
        for i in sources if sources is not None else [None]:
            if i is not None and not outgoing[i] + cards <= old[i]:
                continue
            for j in targets:
                if not incoming[j] + cards <= new[j]:
                    continue
                saved = (outgoing[i] if i is not None else None, incoming[j])
                if i is not None:
                    outgoing[i] = outgoing[i] + cards
                incoming[j] = incoming[j] + cards
                if fits(k + 1):
                    return True
                if i is not None and saved[0] is not None:
                    outgoing[i] = saved[0]
                incoming[j] = saved[1]
        return False

    if not fits(0):
        return played, "the moves do not account for every card that changes meld"
    return played, None


def _manipulation(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    from solver.melds import Meld, validate_rearrangement

    pos = puzzle.position
    assert isinstance(pos, ManipulationPosition)
    new_text = puzzle.meta.get("new_table")
    if new_text is None:
        return []
    new = [Meld.parse(m) for m in new_text]
    rules: Any = puzzle.rules
    played = validate_rearrangement(pos.table, pos.hand, new, rules.meld_spec)
    out = []
    if "cards" in puzzle.answer and played != Cards.parse(str(puzzle.answer["cards"])):
        out.append(f"the new table plays {played}, the answer says {puzzle.answer['cards']}")
    best = puzzle.answer.get("played", data.get("cards"))
    if best is not None and len(played) != best:
        out.append(f"the new table plays {len(played)} cards, the best plays {best}")
    out += _least_change(puzzle, data, new, played)
    lines = puzzle.meta.get("solution")
    if isinstance(lines, list):
        moved, why = replay_moves([m.multiset for m in pos.table], [m.multiset for m in new], pos.hand, lines)
        if why is None and moved != played:
            why = f"the moves play {moved}, the new table {played}"
        if why is not None:
            out.append(why)
    return out


def _least_change(puzzle: Puzzle, data: Mapping[str, Any], new: list[Any], played: Cards) -> list[str]:
    """The new table changes the table least: it keeps as many old melds whole as the solver's
    least-change answer, then moves no more table cards (both measured by the same matching,
    :func:`solver.manipulation.moves.diff_tables`); ``[meta.features]``' ``moved_cards`` and
    ``melds_broken`` are the new table's."""
    from solver.manipulation.moves import diff_tables

    pos = puzzle.position
    assert isinstance(pos, ManipulationPosition)
    diff = diff_tables(pos.table, new, played)
    out = []
    if data.get("objective") == "cards" and len(played) == data.get("cards") and "kept_melds" in data:
        best = (int(data["kept_melds"]), -int(data["moved_cards"]))
        if (diff.kept_melds, -diff.moved_cards) < best:
            out.append(
                f"the new table keeps {diff.kept_melds} melds whole and moves {diff.moved_cards} table cards; "
                f"the least change keeps {best[0]} and moves {-best[1]}"
            )
    feats = puzzle.meta.get("features")
    if isinstance(feats, dict):
        if "moved_cards" in feats and feats["moved_cards"] != diff.moved_cards:
            out.append(f"the new table moves {diff.moved_cards} table cards, the features say {feats['moved_cards']}")
        broken = len(pos.table) - diff.kept_melds
        if "melds_broken" in feats and feats["melds_broken"] != broken:
            out.append(f"the new table breaks {broken} melds, the features say {feats['melds_broken']}")
    return out


def _contract_layoff(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    from solver.contract.referee import check_layoff
    from solver.melds import Meld, TableMeld

    pos = puzzle.position
    assert isinstance(pos, ContractPosition)
    new_text = puzzle.meta.get("new_table")
    if new_text is None or len(new_text) != len(pos.table):
        return [f"the new table has {len(new_text or [])} melds, the table {len(pos.table)}"]
    new = [TableMeld(Meld.parse(m), t.owner) for m, t in zip(new_text, pos.table)]
    played = check_layoff(pos.table, pos.hand, new, puzzle.rules, player=0)  # type: ignore[arg-type]
    out = []
    if played != Cards.parse(str(puzzle.meta.get("solution", ""))):
        out.append(f"the new table lays off {played}, the solution says {puzzle.meta.get('solution')}")
    layoff = data.get("layoff") or {}
    if len(played) != layoff.get("cards", 0):
        out.append(f"the new table lays off {len(played)} cards, the best lays off {layoff.get('cards', 0)}")
    swaps = puzzle.meta.get("swaps")
    if isinstance(swaps, list) and "swaps" in puzzle.answer and len(swaps) != puzzle.answer["swaps"]:
        out.append(f"{len(swaps)} swaps stated, the answer says {puzzle.answer['swaps']}")
    if puzzle.meta.get("kind") == "goout" and len(pos.hand) - len(played) > 1:
        out.append(f"the lay-off leaves {len(pos.hand) - len(played)} cards: it does not go out")
    return out


def _grouping(melds: Any) -> list[str]:
    """A lay-down's grouping: each meld's cards (roles dropped), in a canonical order."""
    return sorted(str(Cards(m.cards)) for m in melds)


def _contract_laydown(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    """The stated lay-down (``solution``: its melds) through the lay-down referee, then the ``new_table``
    (the table with the new melds, owners kept) through the lay-off referee, then the ``discard``: the
    points left must be the whole-turn optimum (:func:`solver.contract.plan_after_draw`), and the
    grouping the plan's (a lay-down puzzle's answer is unique)."""
    from solver.contract import plan_after_draw
    from solver.contract.referee import hand_points

    pos = puzzle.position
    rules: Any = puzzle.rules
    assert isinstance(pos, ContractPosition)
    melds, left, problem = stated_turn(pos, rules, puzzle.meta.get("solution"), puzzle.meta.get("new_table"))
    if problem:
        return [problem]
    discard = puzzle.meta.get("discard")
    if discard is not None:
        card = Cards.parse(str(discard))
        if len(card) != 1 or not card <= left:
            return [f"the discard {discard} is not one card left in hand ({left})"]
        left = left - card
    elif left:
        return [f"{len(left)} card(s) stay in hand and no discard is stated"]
    points = hand_points(left, rules)
    best = plan_after_draw(pos.hand, pos.table, rules, pos.round, seen=pos.dead)
    out = []
    if points != best.points_left:
        out.append(f"the stated turn leaves {points} points, the best turn {best.points_left}")
    if _grouping(melds) != _grouping(best.lay_down):
        out.append(
            f"the lay-down {' | '.join(map(str, melds))} is not the plan's {' | '.join(map(str, best.lay_down))}"
        )
    stated = puzzle.answer.get("plan_points_left")
    if stated is not None and stated != points:
        out.append(f"the stated turn leaves {points} points, the answer says {stated}")
    return out


def _contract_discard(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    from solver.contract import best_discards, distance_to_contract

    pos = puzzle.position
    rules: Any = puzzle.rules
    assert isinstance(pos, ContractPosition)
    card = Cards.parse(str(puzzle.meta.get("solution", "")))
    if len(card) != 1 or not card <= pos.hand:
        return [f"the discard {puzzle.meta.get('solution')} is not one card of the hand"]
    after = distance_to_contract(pos.hand - card, rules, pos.round, options=False, method="cp-sat").missing
    ranked = best_discards(pos.hand, rules, pos.round)
    best = ranked[0][1] if ranked else after
    out = []
    if after != best:
        out.append(f"discarding {card} leaves {after} cards missing, the best discard {best}")
    elif (better := _sheds_more(next(iter(card)), ranked, rules)) is not None:
        out.append(f"discarding {card} leaves {after} cards missing, but {better} does as well and sheds more points")
    stated = puzzle.meta.get("distance_after")
    if stated is not None and stated != after:
        out.append(f"discarding {card} leaves {after} cards missing, the file says {stated}")
    return out


def _sheds_more(card: Any, ranked: Any, rules: Any) -> str | None:
    """A card whose discard leaves as few cards missing and is ahead of ``card`` in the discard order
    (a natural before a wild, then the most points; :func:`solver.contract.discard_order`), or None."""
    from solver.contract import discard_order

    mine = next((d for c, d in ranked if c == card), None)
    key = (mine, *discard_order(card, rules)[:2])
    better = [c for c, d in ranked if (d, *discard_order(c, rules)[:2]) < key]
    return str(better[0]) if better else None


def _contract_whole(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    from solver.contract.referee import check_lay_down
    from solver.melds import Meld

    pos = puzzle.position
    rules: Any = puzzle.rules
    assert isinstance(pos, ContractPosition)
    card, problem = last_round_discard(puzzle)
    if problem:
        return [problem]
    texts = puzzle.meta.get("melds")
    if not isinstance(texts, list):
        return ["the melds are not a list"]
    melds = [Meld.parse(str(t)) for t in texts]
    rest = pos.hand - card
    check_lay_down(rest, melds, rules, pos.round, max_left=0)
    out = []
    best = data.get("whole_discards") or []
    if best != [c.code for c in card]:
        out.append(
            f"discarding {card} goes out, but the discards that let the rest go down are {' '.join(best) or 'none'}"
        )
    return out


def _zsy_plays(texts: list[Any], rest: Cards, rules: Any) -> tuple[int, str | None]:
    """How many stated plays, and why they are not a split of ``rest`` (None when they are)."""
    from solver.zsy import Combo

    used = Cards()
    for text in texts:
        try:
            used = used + Combo.parse(str(text), rules).cards
        except ShanghaiError as exc:
            return len(texts), str(exc)
    if used != rest:
        return len(texts), f"the plays use {used}, not the hand {rest}"
    return len(texts), None


def _zsy_out(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    pos = puzzle.position
    assert isinstance(pos, ZsyPosition)
    texts = puzzle.meta.get("solution")
    if not isinstance(texts, list):
        return ["the solution is not a list of plays"]
    count, why = _zsy_plays(texts, pos.hand, puzzle.rules)
    if why is not None:
        return [f"{' | '.join(map(str, texts))}: {why}"]
    if count != data["fewest_plays"]:
        return [f"{count} plays stated, the fewest are {data['fewest_plays']}"]
    return []


def _zsy_reply(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    from solver.zsy import best_reply, combo_from_position, legal_moves

    pos = puzzle.position
    rules: Any = puzzle.rules
    assert isinstance(pos, ZsyPosition) and pos.to_beat is not None
    to_beat = combo_from_position(pos.to_beat, pos.to_beat_kind, rules)
    text = str(puzzle.meta.get("solution", ""))
    best = best_reply(pos.hand, to_beat, rules)
    best_text = "pass" if best.combo is None else " ".join(c.code for c in best.combo.cards)
    if text == "pass":
        reply = Cards()
    else:
        reply = Cards.parse(text)
        if not any(m.cards == reply for m in legal_moves(pos.hand, to_beat, rules)):
            return [f"{text} is not a reply in the hand that beats {to_beat}"]
    count, why = _zsy_plays(list(puzzle.meta.get("then", [])), pos.hand - reply, rules)
    if why is not None:
        return [f"after {text}: {why}"]
    out = []
    if (best.combo is None) != (text == "pass") or (best.combo is not None and best.combo.cards != reply):
        out.append(f"{text} is not the best reply ({best_text}; {best.reason})")
    if count != best.after:
        out.append(f"{count} plays stated after {text}, the fewest after the best reply are {best.after}")
    return out


def _lead_wins(mover: Cards, other: Cards, to_beat: Any, rules: Any, seen: dict[Any, bool]) -> bool:
    """Does the player to move (``mover``) go out first? Some move wins (a pass when there is a
    combination to beat: the other player leads anew); a move wins when it empties the hand or
    every answer to it loses."""
    from solver.zsy import legal_moves

    key = (mover, other, to_beat)
    if key not in seen:
        answers: list[bool] = []
        for move in legal_moves(mover, to_beat, rules):
            rest = mover - move.cards
            answers.append(not rest or not _lead_wins(other, rest, move, rules, seen))
            if answers[-1]:
                break
        if to_beat is not None and not any(answers):
            answers.append(not _lead_wins(other, mover, None, rules, seen))
        seen[key] = any(answers)
    return seen[key]


def _zsy_lead(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    from solver.zsy import Combo

    pos = puzzle.position
    rules: Any = puzzle.rules
    assert isinstance(pos, ZsyPosition)
    if pos.opponent is None:
        return ["a lead puzzle needs the opponent's hand (position.opponent)"]
    stated = puzzle.meta.get("solution")
    if isinstance(stated, list) and len(stated) == 1:
        stated = stated[0]
    if not isinstance(stated, str):
        return ["the solution is not one lead"]
    lead = Combo.parse(stated, rules)
    if not lead.cards <= pos.hand:
        return [f"{lead} is not in the hand {pos.hand}"]
    rest = pos.hand - lead.cards
    if rest and _lead_wins(pos.opponent, rest, lead, rules, {}):
        return [f"{lead} loses: the opponent has a defence"]
    winning = (data.get("endgame") or {}).get("winning", [])
    found = [(sorted(w["cards"]), w["kind"]) for w in winning]
    if (sorted(c.code for c in lead.cards), lead.kind) not in found or len(found) != 1:
        return [f"{lead} is not the one winning lead ({len(found)} winning leads)"]
    return []


_CHECKS: dict[tuple[str, str], Callable[[Puzzle, Mapping[str, Any]], list[str]]] = {
    ("manipulation", "play"): _manipulation,
    ("contract", "layoff"): _contract_layoff,
    ("contract", "goout"): _contract_layoff,
    ("contract", "discard"): _contract_discard,
    ("contract", "whole"): _contract_whole,
    ("contract", "laydown"): _contract_laydown,
    ("contract", "outway"): stated_outway,
    ("contract", "twonear"): stated_twonear,
    ("zsy", "out"): _zsy_out,
    ("zsy", "reply"): _zsy_reply,
    ("zsy", "lead"): _zsy_lead,
}


def stated_problem(puzzle: Puzzle, data: Mapping[str, Any]) -> str | None:
    """Why the puzzle's stated solution is wrong (None when it replays to the optimum, or there is none).

    ``data`` is the solver's answer (:func:`solver.answers.solve_puzzle`),
    the optimum the stated solution must reach.
    """
    kind = puzzle.meta.get("kind") or ("play" if puzzle.game == "manipulation" else "")
    check = _CHECKS.get((puzzle.game, str(kind)))
    problems: list[str] = []
    if check is not None and ("solution" in puzzle.meta or "new_table" in puzzle.meta):
        try:
            problems = [f"stated solution: {p}" for p in check(puzzle, data)]
        except ShanghaiError as exc:
            problems = [f"stated solution: {exc}"]
    problems += [f"title: {p}" for p in title_problems(puzzle, data)]
    problems += [f"[meta] difficulty: {p}" for p in difficulty_problems(puzzle)]
    return "; ".join(problems) or None


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def title_problems(puzzle: Puzzle, data: Mapping[str, Any]) -> list[str]:
    """What the title promises that the solver's answer ``data`` does not bear out.

    The numbers of the generators' titles are claims: "Play 3 of your 4
    cards" (the best plays 3, the hand holds 4), "Out in 2 plays", "Best
    lay-off: 2 of 5 cards", "Go out this turn: lay off 3 cards", "... to
    leave 12 points" (the whole-turn plan), "(round 2: set + run)" (the
    position's round and its contract). A title with none of these makes no
    claim.

    >>> from solver.puzzles import loads
    >>> p = loads('game = "zsy"\\ntitle = "Out in 1 play"\\n[position]\\nhand = "3H 4H 5H 9S"\\n')
    >>> title_problems(p, {"fewest_plays": 2})
    ['it says 1 play, the fewest are 2 plays']
    """
    import re

    title = puzzle.title
    pos = puzzle.position
    out: list[str] = []
    hand = len(pos.hand)
    if isinstance(pos, ManipulationPosition):
        m = re.search(r"Play (\d+) of your (\d+) cards?", title)
        if m and data.get("objective") == "cards":
            if int(m[1]) != data.get("cards"):
                out.append(f"it says play {m[1]}, the best plays {_n(int(data.get('cards') or 0), 'card')}")
            if int(m[2]) != hand:
                out.append(f"it says {m[2]} cards in hand, the hand holds {hand}")
    elif isinstance(pos, ContractPosition):
        layoff = data.get("layoff") or {}
        best = int(layoff.get("cards", 0))
        m = re.search(r"Best lay-off: (\d+) of (\d+) cards?", title)
        if m and int(m[1]) != best:
            out.append(f"it says lay off {m[1]}, the best lays off {best}")
        if m and int(m[2]) != hand:
            out.append(f"it says {m[2]} cards in hand, the hand holds {hand}")
        m = re.search(r"Go out this turn: lay off (\d+) cards?", title)
        if m and (int(m[1]) != best or hand - best > 1):
            out.append(f"it says go out laying off {m[1]}, the best lays off {best} of {hand} cards")
        m = re.search(r"\(round (\d+): ([^)]*)\)", title)
        if m:
            rules: Any = puzzle.rules
            if int(m[1]) != pos.round:
                out.append(f"it says round {m[1]}, the position is round {pos.round}")
            elif m[2] != rules.contract_text(pos.round):
                out.append(f"it says the contract is {m[2]}, round {pos.round}'s is {rules.contract_text(pos.round)}")
        m = re.search(r"leave (\d+) points?", title)
        if m:
            from solver.contract import plan_after_draw

            left = plan_after_draw(pos.hand, pos.table, puzzle.rules, pos.round, seen=pos.dead).points_left  # type: ignore[arg-type]
            if int(m[1]) != left:
                out.append(f"it says {m[1]} points are left, the best turn leaves {left}")
    else:
        m = re.search(r"Out in (\d+) plays?", title)
        if m and "fewest_plays" in data and int(m[1]) != data["fewest_plays"]:
            out.append(f"it says {_n(int(m[1]), 'play')}, the fewest are {_n(int(data['fewest_plays']), 'play')}")
    return out


def difficulty_problems(puzzle: Puzzle) -> list[str]:
    """The ``[meta]`` difficulty re-measured: the models that miss the answer are asked again
    (:func:`solver.generate.calibrate.misses`) and must be the stated ``missed_by``, the puzzle must
    stand on a rung of the stated level (:func:`solver.generate.ladder.rung_for`: the level's models
    miss it, its decoys), its ``idea`` that rung's, and the ``score`` the features' weighted sum.
    A difficulty without its measured features is refused; no difficulty, no claim."""
    level = puzzle.meta.get("difficulty")
    if level is None:
        return []
    from solver.generate.calibrate import misses
    from solver.generate.difficulty import LEVELS, WEIGHTS, score
    from solver.generate.ladder import rung_for

    if level not in LEVELS:
        return [f"{level!r} is not a level ({', '.join(LEVELS)})"]
    feats = puzzle.meta.get("features")
    if not isinstance(feats, dict) or "missed_by" not in feats:
        return [f"{level} is stated without the measured features (missed_by)"]
    missed = misses(puzzle)
    out = []
    measured = [name for name, miss in missed.items() if miss]
    if sorted(map(str, feats["missed_by"])) != sorted(measured):
        out.append(
            f"missed by {', '.join(measured) or 'no model'}, the file says {', '.join(feats['missed_by']) or 'none'}"
        )
    rung = rung_for(puzzle, level, missed.__getitem__)
    if rung is None:
        at = [lv for lv in LEVELS if rung_for(puzzle, lv, missed.__getitem__) is not None]
        out.append(
            f"{level} is not the measured level ({', '.join(at) or 'none'}: missed by {', '.join(measured) or 'no model'})"
        )
    elif "idea" in feats and feats["idea"] != rung.idea:
        out.append(f"the idea is {rung.idea!r}, the file says {feats['idea']!r}")
    numbers = {k: v for k, v in feats.items() if k in WEIGHTS[puzzle.game]}
    if "score" in puzzle.meta and numbers and score(puzzle.game, numbers) != puzzle.meta["score"]:
        out.append(f"the features score {score(puzzle.game, numbers)}, the file says {puzzle.meta['score']}")
    return out
