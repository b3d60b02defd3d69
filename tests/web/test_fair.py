"""Fair to every client: a share of the solver workers and a quota of games each, 429 with
Retry-After at once beyond them, and one client's heavy requests never hold up another's light ones."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

import web.engine
from web.app import create_app
from web.engine import EngineError, Limits, WebEngine
from web.fair import FairGate

from .conftest import run_async

SIX = {
    "game": "manipulation",
    "rules": {"preset": "norwegian"},
    "position": {"table": ["3H 4H 5H 6H", "3C 4C 5C 6C"], "hand": "6S KD"},
}


def test_the_gate_keeps_shares_and_takes_clients_in_turn() -> None:
    gate = FairGate(capacity=2, share=1, queue=2, max_waiting=5)
    order: list[str] = []

    async def job(client: str, name: str, seconds: float) -> str:
        async with gate.slot(client, 3):
            order.append(name)
            await asyncio.sleep(seconds)
        return name

    async def run() -> None:
        a = [asyncio.create_task(job("a", f"a{i}", 0.05)) for i in range(3)]
        await asyncio.sleep(0)
        with pytest.raises(EngineError) as refused:  # a has 1 running and 2 waiting: its share and queue
            await job("a", "a3", 0)
        assert refused.value.code == "rate_limited" and refused.value.retry_after == 3
        b = [asyncio.create_task(job("b", f"b{i}", 0.05)) for i in range(2)]
        c = asyncio.create_task(job("c", "c0", 0.05))
        await asyncio.gather(*a, *b, c)
        # a0 and b0 start at once (one each); then the waiting ones in turn: c before a's and b's second
        assert order[:2] == ["a0", "b0"] and order.index("c0") < order.index("a2"), order
        assert gate.total == 0 and not gate.running and not gate.waiting

    run_async(run)


def test_a_cancelled_wait_gives_its_place_back() -> None:
    gate = FairGate(capacity=1, share=1, queue=3, max_waiting=1)

    async def run() -> None:
        async def hold() -> None:
            async with gate.slot("a", 1):
                await asyncio.sleep(0.2)

        first = asyncio.create_task(hold())
        await asyncio.sleep(0)
        waiting = asyncio.create_task(hold())
        await asyncio.sleep(0)
        with pytest.raises(EngineError, match="busy"):  # one waits already: max_waiting
            async with gate.slot("b", 1):
                pass
        waiting.cancel()
        await asyncio.sleep(0)
        assert gate.load("a") == (1, 0)
        await first
        assert gate.total == 0

    run_async(run)


def test_heavy_solves_of_one_client_never_hold_up_anothers_light_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Six 1.5 s solves from one client on four solver threads: two run (its share), four wait
    (its queue) or are refused with 429 at once; the other client's light solves answer at once."""
    real = web.engine._worker_handle

    def slow(request: dict[str, Any]) -> dict[str, Any]:
        if request.get("puzzle", {}).get("title") == "heavy":
            time.sleep(1.5)
        return real(request)

    monkeypatch.setattr(web.engine, "_worker_handle", slow)
    engine = WebEngine(Limits(workers=0, client_queue=2))
    heavy = {"cmd": "solve", "puzzle": {**SIX, "title": "heavy"}}

    async def run() -> None:
        engine.start()
        await engine.stateless({"cmd": "solve", "puzzle": SIX}, "10.0.0.2")  # warm: the solver imported
        tasks = [asyncio.create_task(engine.stateless(heavy, "10.0.0.1")) for _ in range(6)]
        await asyncio.sleep(0.1)
        light = []
        for _ in range(5):
            start = time.perf_counter()
            assert (await engine.stateless({"cmd": "solve", "puzzle": SIX}, "10.0.0.2"))["played"] == ["6S"]
            light.append(time.perf_counter() - start)
        results = await asyncio.gather(*tasks, return_exceptions=True)
        refused = [r for r in results if isinstance(r, EngineError)]
        assert [r.code for r in refused] == ["rate_limited"] * 2 and all(r.retry_after for r in refused)
        assert sum(isinstance(r, dict) for r in results) == 4
        assert max(light) < 1.0, light

    try:
        run_async(run)
    finally:
        engine.stop()


def test_a_quota_of_games_per_client() -> None:
    with TestClient(
        create_app(Limits(workers=0, games_per_client=2)), base_url="http://localhost", raise_server_exceptions=False
    ) as c:
        for _ in range(2):
            assert c.post(
                "/api/new_game", json={"game": "zsy", "seats": ["human", "random", "random", "random"]}
            ).is_success
        r = c.post("/api/new_game", json={"game": "zsy"})
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) > 0
        engine = c.app.state.engine  # type: ignore[attr-defined]

        async def other() -> dict[str, Any]:
            result: dict[str, Any] = await engine.new_game({"game": "zsy"}, ["human"] + ["random"] * 3, "10.9.9.9")
            return result

        assert c.portal.call(other)["tokens"]  # type: ignore[union-attr]


@pytest.mark.parametrize("heavy_clients", [1, 3, 6])
def test_a_light_client_starts_at_once_beside_any_number_of_heavy_ones(heavy_clients: int) -> None:
    """Two workers, one kept for light work: however many heavy clients keep two long requests
    each in flight, a light client's request starts at once; the heavy ones share the other worker."""
    gate = FairGate(capacity=2, share=1, queue=4, max_waiting=100, reserved=1, light_seconds=0.05)
    most = {"heavy": 0}
    waited: list[float] = []

    async def job(client: str, seconds: float) -> None:
        asked = time.monotonic()
        async with gate.slot(client, 1):
            if client == "light":
                waited.append(time.monotonic() - asked)
            else:
                most["heavy"] = max(most["heavy"], sum(n for c, n in gate.running.items() if c != "light"))
            await asyncio.sleep(seconds)

    async def run() -> None:
        heavy = [f"h{i}" for i in range(heavy_clients)]
        await asyncio.gather(*(job(h, 0.08) for h in heavy))  # each has used the pool: heavy now
        assert all(not gate.light(h) for h in heavy) and gate.light("light")
        most["heavy"] = 0
        tasks = [asyncio.create_task(job(h, 0.3)) for h in heavy for _ in range(2)]
        await asyncio.sleep(0.02)
        for _ in range(5):
            await job("light", 0.01)
            await asyncio.sleep(0.03)
        await asyncio.gather(*tasks)

    run_async(run)
    assert len(waited) == 5 and max(waited) < 0.05, waited
    assert most["heavy"] == 1  # the heavy clients never take the light lane
