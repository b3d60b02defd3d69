"""The engine's per-position facts from the compiled core: the playable bound and the greedy count.

The engine asks every position "can the player play, and how many cards?"
(:class:`solver.manipulation.play.Playable`): the playable bound
(:func:`~solver.manipulation.bound.playable_bound`) and the greedy play's
count (:func:`~solver.manipulation.simple.greedy_play`) settle most
positions. When the compiled core is built (``core("manipulation")``) and no
joker is in play (none on the table, none in the hand), both come from one
call, ``engine_position`` (``solver/native/src/manipulation_engine.cpp``),
with exactly the Python's answer; otherwise :func:`position_facts` returns
None and the Python computes them (the fallback, and the oracle of
``tests/native/test_manipulation_engine.py``).

What crosses is checked first: a table meld crosses as a code, worked out
once per meld object by the core's ``meld_codes``, which accepts only a valid
natural set or run (a meld with a joker or a role, or one the core refuses,
keeps the position on the Python path); the hand crosses only without a
joker. A refusal by ``engine_position`` itself becomes a
:class:`~solver.errors.ShanghaiError` (a ``ValueError``), never an abort.

>>> from solver.melds import parse_table
>>> from solver.rules import ManipulationRules
>>> table = parse_table("5H 6H 7H | 9S 9H 9D")
>>> facts = position_facts(table_codes(table, "low"), table, Cards.parse("8H 9C KD"), ManipulationRules())
>>> facts is None or (str(facts.bound), facts.greedy) == ("8H 9C", 2)  # None without the core
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver import native
from solver.cards import Cards
from solver.errors import ShanghaiError
from solver.manipulation.natural import NaturalPlay, _meld_of
from solver.melds import Meld
from solver.ranks import N_NATURAL
from solver.rules import ManipulationRules

__all__ = ["Facts", "played_cards", "position_facts", "table_codes"]

_ACES = {"low": 0, "high": 1, "both": 2}  # the core's ace codes
_CODES: dict[tuple[int, str], tuple[Meld, int | None]] = {}  # by (id(meld), ace); the entry holds the meld
_CODES_SIZE = 1 << 14  # entries before the memo starts afresh


def _code(meld: Meld, ace: str) -> int | None:
    """The core's code of a natural meld, or None (a joker or a role in it, or the core refuses it:
    then the position stays on the Python path). Remembered by the meld object."""
    key = (id(meld), ace)
    found = _CODES.get(key)
    if found is not None and found[0] is meld:
        return found[1]
    mod = native.core("manipulation")
    code: int | None = None
    if mod is not None and not any(meld.roles) and all(c.index < N_NATURAL for c in meld.cards):
        try:
            code = mod.meld_codes([[c.index for c in meld.cards]], _ACES[ace])[0]
        except ValueError:  # not a valid natural meld: the Python path answers (as it always did)
            code = None
    if len(_CODES) >= _CODES_SIZE:
        _CODES.clear()
    _CODES[key] = (meld, code)
    return code


def table_codes(table: Sequence[Meld], ace: str) -> list[int] | None:
    """The core's codes of a table's melds, or None when the core does not answer for this table
    (no core, a joker or a role on the table, a meld it refuses)."""
    if native.core("manipulation") is None:
        return None
    codes: list[int] = []
    get = _CODES.get
    for meld in table:
        found = get((id(meld), ace))  # _code's memo, looked up here first (a table's melds stand)
        code = found[1] if found is not None and found[0] is meld else _code(meld, ace)
        if code is None:
            return None
        codes.append(code)
    return codes


@dataclass(frozen=True, slots=True)
class Facts:
    """What the core answered for one position: the playable bound, how many cards the greedy play
    adds, and, when ``asked``, stage 3 as :func:`solver.manipulation.play._natural_beyond` answers
    it (``natural``: the best play adding more than the greedy play, nothing played, or None when
    the next stages must answer); ``melds``, whether the hand makes a meld of its own."""

    bound: Cards
    greedy: int
    asked: bool
    natural: NaturalPlay | None
    melds: bool = True
    """Whether the hand makes a meld of its own (:func:`~solver.manipulation.simple.hand_melds`)."""


def position_facts(
    codes: list[int] | None, table: tuple[Meld, ...], hand: Cards, rules: ManipulationRules
) -> Facts | None:
    """The :class:`Facts` of the table of ``codes`` (:func:`table_codes` of ``table``) and ``hand``,
    stage 3 asked when a play of ``2`` cards (``must_play=more_than_one``, else ``1``) needs it;
    None when the Python is to answer (no core, no codes, a joker in the hand)."""
    mod = native.core("manipulation")
    if mod is None or codes is None:
        return None
    counts = hand.counts
    if any(counts[N_NATURAL:]):
        return None
    ask = 2 if rules.must_play == "more_than_one" else 1
    try:
        bound, _, greedy, stage3, melds = mod.engine_position(codes, counts, _ACES[rules.ace], rules.decks, ask)
    except ValueError as exc:  # the core refused its input (it checks again): typed, never a crash
        raise ShanghaiError(f"the compiled engine core refused its input: {exc}") from None
    if stage3 is None:
        return Facts(Cards._make(bound), greedy, False, None, melds)
    status, kept, rest, played = stage3
    if status < 0:
        natural = None
    elif status == 0:
        natural = NaturalPlay(Cards(), table)
    else:
        natural = NaturalPlay(Cards._make(played), (*[table[k] for k in kept], *map(_meld_of, rest)))
    return Facts(Cards._make(bound), greedy, True, natural, melds)


def _indexes(melds: Sequence[Meld]) -> list[list[int]] | None:
    """The melds' card indexes, or None when one holds a joker or a role."""
    out: list[list[int]] = []
    for meld in melds:
        indexes = [c.index for c in meld.cards]
        if any(meld.roles) or not indexes or max(indexes) >= N_NATURAL:
            return None
        out.append(indexes)
    return out


def played_cards(gone: Sequence[Meld], fresh: Sequence[Meld], hand: Cards, ace: str) -> Cards | None:
    """The hand cards a play adds, refereed by the core (what
    :func:`~solver.melds.validate_rearrangement` returns for the old melds the play drops, ``gone``,
    and its new ones, ``fresh``), or None when the Python is to referee it: no core, a joker in
    play, or anything wrong with the play (the Python then says what)."""
    mod = native.core("manipulation")
    if mod is None:
        return None
    old, new = _indexes(gone), _indexes(fresh)
    if old is None or new is None:
        return None
    try:
        played = mod.check_play(old, new, hand.counts, _ACES[ace])
    except ValueError as exc:  # the core refused its input (it checks again): typed, never a crash
        raise ShanghaiError(f"the compiled engine core refused its input: {exc}") from None
    return None if played is None else Cards._make(played)
