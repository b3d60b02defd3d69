"""Seats of a web game: who may act for whom, and what everyone else may see.

Every human seat gets a random token when the game starts; the store keeps
only its SHA-256, so whoever reads the store cannot act for a seat. A
request with a seat's token acts for that seat; one without sees the
public view: what every player sees (the table, the hand sizes, the
discard), never a hand.

An AI player's own reason often names cards only it holds ("with AC the
contract is 2 cards away"), so the web never shows it: :func:`reason_facts`
says what the move did in public terms (the action is public once made), and
:func:`public_reason` says it in English.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "HUMAN",
    "check_seats",
    "deal_seed",
    "hash_token",
    "new_tokens",
    "seat_of",
    "public_view",
    "public_reason",
    "reason_facts",
    "REASON_CODES",
    "hint_facts",
    "HINT_CODES",
    "public_table",
]

HUMAN = "human"
"""The seat kind of a person at the page (every other kind is an AI player)."""

_PRIVATE = ("hand",)
"""Fields of an observation that only their player may see."""


def hash_token(token: str) -> str:
    """The stored form of a token (its SHA-256, hex)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_tokens(seats: Sequence[str]) -> tuple[dict[str, str], dict[str, str]]:
    """A fresh token for each human seat: (seat number -> token, seat number -> its hash)."""
    tokens = {str(i): secrets.token_urlsafe(18) for i, kind in enumerate(seats) if kind == HUMAN}
    return tokens, {seat: hash_token(t) for seat, t in tokens.items()}


def seat_of(hashes: Mapping[str, str], token: str) -> int | None:
    """The seat ``token`` belongs to, or None (compared in constant time)."""
    digest = hash_token(token)
    found = None
    for seat, h in hashes.items():
        if hmac.compare_digest(h, digest):
            found = int(seat)
    return found


def hand_list(hand: Any) -> list[str]:
    """A hand as a list of card codes (the engine gives a string or a list)."""
    if isinstance(hand, str):
        return hand.split()
    return [str(c) for c in hand]


def public_view(observation: Mapping[str, Any]) -> dict[str, Any]:
    """An observation with every private field removed: what every player sees."""
    out = {k: v for k, v in observation.items() if k not in _PRIVATE}
    out["player"] = None
    return out


def public_table(observation: Mapping[str, Any]) -> tuple[list[list[str]], str | None]:
    """The table as lists of card codes, and the top discard (None if there is none)."""
    table: list[list[str]] = []
    for meld in observation.get("table", []) or []:
        text = meld["cards"] if isinstance(meld, Mapping) else meld
        table.append(str(text).split())
    if observation.get("game") == "zsy" and observation.get("trick"):
        table = [str(observation["trick"]).split()]
    discard = observation.get("discard")
    return table, str(discard) if discard else None


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


REASON_CODES = (
    "plays",
    "plays_cards",
    "draws",
    "passes",
    "discards",
    "takes_discard",
    "takes",
    "lets_go",
    "calls",
    "lays_down",
    "lays_off",
    "gives",
    "other",
)
"""The codes of an AI move's reason facts (:func:`reason_facts`), one per kind of move."""


def reason_facts(kind: str, action: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What an AI seat's move did, in public facts only: the action (public once made) and the
    public views before and after it (hand sizes, the table, the discard). A dict with ``code``
    (one of :data:`REASON_CODES`), ``ai`` (the seat's kind) and, as the move has them, ``cards``
    (the cards named, notation), ``count`` (cards put on the table) and ``left`` (cards left in
    the hand). The page writes it in the reader's language; :func:`public_reason` in English."""
    word, _, rest = action.strip().partition(" ")
    word = word.lower()
    rest = rest.strip()
    p = before.get("to_move", -1)
    sizes_before = before.get("hand_sizes") or []
    sizes_after = after.get("hand_sizes") or []
    left = sizes_after[p] if isinstance(p, int) and 0 <= p < len(sizes_after) else None
    shed = sizes_before[p] - left if left is not None and p < len(sizes_before) else None
    out: dict[str, Any] = {"ai": kind}
    with_left = {"left": left} if left is not None else {}
    if word == "play":
        if before.get("game") == "zsy":
            return {**out, "code": "plays", "cards": rest, **with_left}
        return {**out, "code": "plays_cards", "count": shed or 0, **with_left}
    if word == "draw":
        return {**out, "code": "draws"}
    if word == "pass":
        return {**out, "code": "passes"}
    if word == "discard":
        return {**out, "code": "discards", "cards": rest, **with_left}
    if word == "take":
        top = before.get("discard")
        return {**out, "code": "takes_discard", "cards": str(top)} if top else {**out, "code": "takes", "cards": rest}
    if word in ("decline", "nocall"):
        return {**out, "code": "lets_go"}
    if word == "call":
        return {**out, "code": "calls", "cards": str(before.get("discard"))}
    if word == "laydown":
        return {**out, "code": "lays_down", **with_left}
    if word in ("layoff", "swap"):
        return {**out, "code": "lays_off", **with_left}
    if word in ("offer", "give"):
        return {**out, "code": "gives", "cards": rest}
    return {**out, "code": "other", "cards": word}


_ENGLISH = {
    "plays": "{who} plays {cards}",
    "plays_cards": "{who} plays {count} from hand to the table",
    "draws": "{who} draws a card",
    "passes": "{who} passes",
    "discards": "{who} discards {cards}",
    "takes_discard": "{who} takes {cards} from the discard pile",
    "takes": "{who} takes {cards}",
    "lets_go": "{who} lets the discard go",
    "calls": "{who} calls Shanghai! for {cards}",
    "lays_down": "{who} lays down its contract",
    "lays_off": "{who} lays off on the table",
    "gives": "{who} gives {cards} in tribute",
    "other": "{who}: {cards}",
}


def public_reason(kind: str, action: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """:func:`reason_facts` as one English sentence ("the greedy player discards 7H; 9 cards
    left in hand")."""
    facts = reason_facts(kind, action, before, after)
    text = _ENGLISH[facts["code"]].format(
        who=f"the {kind} player", cards=facts.get("cards", ""), count=_count(int(facts.get("count", 0)), "card")
    )
    if "left" in facts:
        text += f"; {_count(int(facts['left']), 'card')} left in hand"
    return text


HINT_CODES = (
    "plays_to_go_out",
    "plays_most",
    "goes_out",
    "points_left",
    "take",
    "draw",
    "call",
    "no_call",
    "discard_distance",
    "only",
    "wins_endgame",
    "other",
)
"""The codes of a hint's facts (:func:`hint_facts`); ``other``: the page shows the English reason."""


def hint_facts(answer: Mapping[str, Any]) -> dict[str, Any]:
    """A hint's reason as a code and numbers (the page writes it in the reader's language): from the
    answer's ``action`` and ``facts`` (a game's hint or a puzzle's, whose facts are named apart).
    ``n`` is the number the sentence turns on (plays left, cards played, points left, the distance
    to contract with the card), ``now`` the one it is compared with."""
    action = str(answer.get("action", ""))
    facts: Mapping[str, Any] = answer.get("facts") or {}
    word = action.split(" ", 1)[0]
    if "winning" in facts:  # a two-player endgame's lead that wins (solver/engine/hints.py)
        return {"code": "wins_endgame", "n": len(facts["winning"])}
    if "fewest_after" in facts or ("after" in facts and "fewest_plays" in facts):
        after = facts.get("fewest_after", facts.get("after"))
        return {"code": "plays_to_go_out", "n": after, "now": facts.get("fewest", facts.get("fewest_plays"))}
    if "played" in facts and not isinstance(facts["played"], int):  # 0: nothing can be played (a draw)
        played = facts["played"]
        cards = played.split() if isinstance(played, str) else [str(c) for c in played]
        return {"code": "plays_most", "n": len(cards), "cards": " ".join(cards)}
    if word == "discard" and "distance" in facts:
        return {"code": "discard_distance", "n": facts["distance"]}
    if "points_left" in facts:
        if facts.get("goes_out", facts.get("can_go_out")):
            return {"code": "goes_out"}
        return {"code": "points_left", "n": facts["points_left"]}
    with_card = facts.get("distance_take", facts.get("distance_call"))
    if word in ("take", "decline", "call", "nocall") and with_card is not None and "distance" in facts:
        code = {"take": "take", "decline": "draw", "call": "call", "nocall": "no_call"}[word]
        return {"code": code, "n": with_card, "now": facts["distance"]}
    if answer.get("reason") == "the only action":
        return {"code": "only"}
    return {"code": "other"}


def check_seats(seats: Sequence[str] | None, players: int) -> list[str]:
    """The seats of a new game (``ValueError`` naming a bad one): one per player, each ``human``
    or an AI kind; at least one human (a game of AIs alone is ``shanghai selfplay``'s job)."""
    from solver.engine.players import PLAYER_KINDS

    if seats is None:
        return [HUMAN] + ["solver"] * (players - 1)
    if len(seats) != players:
        raise ValueError(f"seats must list {players} seats (one per player), not {len(seats)}")
    known = (HUMAN, *PLAYER_KINDS)
    for i, kind in enumerate(seats):
        if kind not in known:
            raise ValueError(f"seat {i}: unknown kind {kind[:40]!r} (known: {', '.join(known)})")
    if HUMAN not in seats:
        raise ValueError("at least one seat must be 'human'")
    return list(seats)


SEED_LIMIT = 2**63
"""Seeds are drawn from ``range(SEED_LIMIT)`` (the range ``new_game`` accepts)."""


def deal_seed(seats: Sequence[str], seed: int | None) -> int:
    """The seed a new game is dealt with. With two or more human seats the server draws it
    (:mod:`secrets`) and a client's seed is refused (``ValueError``): whoever chose the seed could
    replay the deal offline and read every other seat's hand. With one human seat the client may
    fix the deal (a game to replay, a test); without one it is drawn too. The seed is shown when
    the game ends."""
    if sum(1 for kind in seats if kind == HUMAN) >= 2:
        if seed is not None:
            raise ValueError(
                "a game with two or more human seats is dealt by the server: give no 'seed' "
                "(it is shown when the game ends)"
            )
        return secrets.randbelow(SEED_LIMIT)
    return secrets.randbelow(SEED_LIMIT) if seed is None else seed
