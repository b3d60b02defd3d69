"""A player's record as a fixed-size part of the OpenSpiel information-state tensor.

A player's *record* (:class:`solver.envs.openspiel.ShanghaiState` keeps
it) is what they observed, in order, as text (the information-state
string lists it): the seed's bytes (``seed 7 0 0 0``, public: they fix
the hand sizes, the leader and the slot order, never a card), each deal
(``deal``) and the cards dealt to the player, slot by slot (``dealt 7H
2S ...``), every engine action (``player:action``, public) and, after
one, the cards it gave the player (``got 9D``: a draw, a call's penalty
card, a discard taken), then the player's own steps of the engine
action in progress (the turn: ``select 7H``, ``build``, ``put 3`` ...,
the cancels among them). A public observer's record has the public
entries only. Each entry becomes a run of integer tokens, in order, the
rest of the part zeros:

* ``seed b0 b1 b2 b3``: ``SEED + b`` each; ``deal``: :data:`DEAL`;
  ``dealt ...``: the cards' tokens; ``got ...``: :data:`GOT` then the
  cards' tokens; a step of the turn: ``OWN + index`` (the action index).

An engine action (``player:action`` text) is the run:

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

Its size is the most tokens a game can write (:func:`record_size`): the
seed's 4, per deal a ``deal`` and at most ``C`` dealt cards, per engine
action at most 3 for its gains (the most an action gives one player is
two cards: a call), the steps of one engine action
(:func:`solver.envs.openspiel_params.steps_per_action`), and the engine
actions' runs (:func:`history_size`), per hand (Contract: round) with
``E`` engine actions at most
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

import functools
from typing import Any

from solver.cards import Card
from solver.errors import ShanghaiError

__all__ = ["CARD", "DEAL", "GOT", "KINDS", "NUMBER", "OWN", "SEED", "WORDS", "history_size", "record_size", "tokens"]

WORDS: tuple[str, ...] = ("play", "pass", "offer", "take", "give", "discard", "decline", "call", "nocall")
WORDS += ("laydown", "layoff", "swap", "draw")
KINDS = ("single", "set", "straight", "parallel", "bomb", "pair", "triple")
_WORD = 9
_KIND = _WORD + 32
_MARKS = {"|": _KIND + 16, "/": _KIND + 17, "=": _KIND + 18}
NUMBER = _KIND + 20
CARD = NUMBER + 256
DEAL = CARD + 64  # a deal begins
GOT = DEAL + 1  # the cards an engine action gave the player follow
SEED = DEAL + 32  # a seed byte: SEED + 0..255
OWN = SEED + 512  # a step of the player's turn in progress: OWN + its action index
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


@functools.lru_cache(maxsize=65536)
def entry_tokens(text: str) -> tuple[int, ...]:
    """The tokens of one record entry (module docstring); an engine action is ``player:action``."""
    word, _, rest = text.partition(" ")
    if word == "seed":
        return tuple(SEED + int(b) for b in rest.split())
    if word == "deal":
        return (DEAL,)
    if word == "dealt":
        return tuple(CARD + Card.parse(c).index for c in rest.split())
    if word == "got":
        return (GOT, *(CARD + Card.parse(c).index for c in rest.split()))
    head, _, action = text.partition(":")
    return tuple(tokens(int(head), action))


def record_size(name: str, actions: int, cards: int, hands: int, steps: int) -> int:
    """The most tokens a player's record writes: ``hands`` deals of ``cards`` cards and ``actions`` engine
    actions at most, and a turn of at most ``steps`` steps."""
    return 4 + hands * (1 + cards + 3 * actions) + history_size(name, actions, cards, hands) + steps


def history_size(name: str, actions: int, cards: int, hands: int) -> int:
    """The most tokens a game's history writes: ``hands`` hands of ``actions`` engine actions at most."""
    if name == "zsy":
        per_hand = 3 * actions + 2 * cards + 6
    elif name == "contract":
        per_hand = 3 * actions + 12 * cards
    else:
        per_hand = cards * (4 * cards + 2) + 4 * actions
    return hands * per_hand


def write(out: Any, entries: list[str], turn: list[int]) -> None:
    """Write the tokens of the record ``entries`` then the turn's steps ``turn`` (action indexes) into
    ``out`` (zeros after them)."""
    at = 0
    for run in [*map(entry_tokens, entries), [OWN + a for a in turn]]:
        if at + len(run) > len(out):
            raise ValueError(f"the history is longer than its bound of {len(out)} tokens: a bug")
        out[at : at + len(run)] = run
        at += len(run)
    out[at:] = 0
