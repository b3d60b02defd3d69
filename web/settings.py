"""The web app's settings (:class:`Limits`) and its error type (:class:`EngineError`)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EngineError", "Limits"]


class EngineError(Exception):
    """An error answer: the protocol's code and message (the HTTP layer picks the status)."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.retry_after = retry_after


@dataclass(frozen=True, slots=True)
class Limits:
    """Server limits (docs/web.md lists them). ``workers`` 0 solves in threads of this process."""

    workers: int = 2
    """Solver worker processes of each server process (``shanghai serve --solvers``)."""
    max_time_limit: float = 10.0
    default_time_limit: float = 5.0
    max_pending: int = 256
    """Heavy requests waiting in all (more: 503 ``busy`` at once)."""
    max_games: int = 500
    """Running games in all (every client together)."""
    games_per_client: int = 20
    """Running games one client (seat token, else address) may have started."""
    game_ttl: float = 3600.0
    """Seconds a game is kept after its last use (its resume link works that long)."""
    record_ttl: float = 86400.0
    """Seconds a finished (or kept) game's record is kept."""
    live_ttl: float = 600.0
    """Seconds after its last use a running game counts against the quotas (an abandoned game stops
    counting long before it is forgotten)."""
    absent_after: float = 60.0
    """Seconds a human seat may be to move before the other human seats may hand it to an AI."""
    max_streams: int = 256
    """Live-update streams (``GET /api/events``) one server process holds at once."""
    max_body: int = 64 * 1024
    max_depth: int = 32
    """How deeply a request's JSON may nest (objects and lists)."""
    lease: float = 30.0
    """Seconds a process may hold a game's AI lease without renewing it (a dead holder's lapses)."""
    ai_wait: float = 120.0
    """Seconds an ``apply`` waits for another process playing the same game's AI seats."""
    max_ai_moves: int = 5000
    """AI moves played in one go at most (a safety bound; a human seat comes long before)."""
    cache_games: int = 256
    """Games each process keeps built in memory (the others are rebuilt from the store)."""
    solver_share: int = 0
    """Solver workers one client may occupy at once (0: half of them, at least 1); beyond it and
    ``client_queue``, 429 at once."""
    game_share: int = 0
    """Game threads (AI moves, game hints) one client may occupy at once (0: half of them)."""
    light_lane: int = 1
    """Solver workers (and game threads) kept for light clients: those with nothing running and
    little recent use (:class:`web.fair.FairGate`); heavy clients share the others."""
    client_queue: int = 4
    """Heavy requests one client may have waiting beyond its share (more: 429 at once)."""
    games_threads: int = 8
    """Threads of each server process that play games (AI moves, game hints)."""
