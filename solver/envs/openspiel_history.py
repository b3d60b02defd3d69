"""The public history as a fixed-size part of the OpenSpiel information-state tensor.

Every engine action of the history (``player:action`` text, as the
information-state string lists it) becomes a run of integer tokens, in
order, the rest of the part zeros:

* the player: ``1 + player`` (1..8), which also starts the run;
* a word (``play``, ``discard``, ...): :data:`WORDS`;
* a combination's kind (``single:`` ...): :data:`KINDS`; parallel
  straights declared with their shape (``parallel-2x6:``, the same cards
  can be ``parallel-3x4:``) are the parallel kind's token, then the copies
  and the length as numbers (``NUMBER + 2``, ``NUMBER + 6``);
* ``|``, ``/`` and ``=`` (meld separators, a wild's role);
* a number (a table meld): ``NUMBER + n``;
* a card: ``CARD + index`` (0..54).

A token is written as its value (exact in float32). Runs start with a
player token and no other token is below 9, so the part decodes back to
the history's text: distinct histories give distinct parts.

Its size is the most tokens a game can write (:func:`history_size`), per
hand (Contract: round) with ``E`` engine actions at most
(:func:`solver.envs.openspiel_params.actions_per_hand`) and ``C`` cards:
Zheng Shang You ``3E + 2C + 6`` (a run is the player, the word, a kind and
the cards played, each card played once; a declared shape adds two
tokens to a play of at least four cards; tribute names one card);
Contract ``3E + 12C`` (a run of no cards is at most 3 tokens; a lay-down
or lay-off writes at most four tokens a card laid, a swap at most eight,
and a card leaves the hand once); Manipulation ``C (4C + 2) + 4E`` (a play
writes the whole table, at most four tokens a card, and sheds a card).
"""

from __future__ import annotations

from typing import Any

from solver.cards import Card
from solver.errors import ShanghaiError

__all__ = ["CARD", "KINDS", "NUMBER", "WORDS", "history_size", "tokens"]

WORDS: tuple[str, ...] = ("play", "pass", "offer", "take", "give", "discard", "decline", "call", "nocall")
WORDS += ("laydown", "layoff", "swap", "draw")
KINDS = ("single", "set", "straight", "parallel", "bomb", "pair", "triple")
_WORD = 9
_KIND = _WORD + 32
_MARKS = {"|": _KIND + 16, "/": _KIND + 17, "=": _KIND + 18}
NUMBER = _KIND + 20
CARD = NUMBER + 256
_WORDS = {w: _WORD + i for i, w in enumerate(WORDS)}
_KINDS = {k: _KIND + i for i, k in enumerate(KINDS)}


def tokens(player: int, text: str) -> list[int]:
    """The tokens of one engine action ``text`` by ``player`` (``ValueError`` for a form not listed)."""
    out = [1 + player]
    for piece in text.replace("=", " = ").replace(":", ": ").split():
        if piece.startswith("parallel-") and piece.endswith(":"):  # a declared shape: the kind, copies, length
            copies, _, length = piece[len("parallel-") : -1].partition("x")
            if copies.isdigit() and length.isdigit():
                out += [_KINDS["parallel"], _token(copies, text), _token(length, text)]
                continue
        out.append(_token(piece, text))
    return out


def _token(piece: str, text: str) -> int:
    if piece in _WORDS:
        return _WORDS[piece]
    if piece in _MARKS:
        return _MARKS[piece]
    if piece.endswith(":") and piece[:-1] in _KINDS:
        return _KINDS[piece[:-1]]
    if piece.isdigit() and int(piece) < CARD - NUMBER:
        return NUMBER + int(piece)
    try:
        return CARD + Card.parse(piece).index
    except ShanghaiError:
        raise ValueError(f"the history encoding has no token for {piece!r} (in {text!r})") from None


def history_size(name: str, actions: int, cards: int, hands: int) -> int:
    """The most tokens a game's history writes: ``hands`` hands of ``actions`` engine actions at most."""
    if name == "zsy":
        per_hand = 3 * actions + 2 * cards + 6
    elif name == "contract":
        per_hand = 3 * actions + 12 * cards
    else:
        per_hand = cards * (4 * cards + 2) + 4 * actions
    return hands * per_hand


def write(out: Any, strings: list[str]) -> None:
    """Write the tokens of ``strings`` (``player:action`` texts) into ``out`` (zeros after them)."""
    at = 0
    for entry in strings:
        head, _, text = entry.partition(":")
        run = tokens(int(head), text)
        if at + len(run) > len(out):
            raise ValueError(f"the history is longer than its bound of {len(out)} tokens: a bug")
        out[at : at + len(run)] = run
        at += len(run)
    out[at:] = 0
