"""Under load: 16 concurrent clients on loopback all get answers; inference runs on a bounded pool
while the event loop keeps serving."""

from __future__ import annotations

import asyncio
import time

import httpx

from tests.api.conftest import LiveServer, encode

CLIENTS = 16


async def _load(url: str) -> tuple[list[int], float]:
    """16 photos and 16 hands at once; meanwhile, how long /healthz takes. Returns statuses and that time."""
    photo = encode(".jpg")
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=64)) as http:
        photos = [http.post("/v1/detect", files={"photo": ("a.jpg", photo)}) for _ in range(CLIENTS)]
        hands = [http.post("/v1/score", json={"hand": "123456789m1234p5p"}) for _ in range(CLIENTS)]
        busy = asyncio.gather(*photos, *hands)
        await asyncio.sleep(0.3)  # the pool is now busy: 16 photos of 0.2 s each, 2 at a time
        start = time.monotonic()
        health = await http.get("/healthz")
        health_s = time.monotonic() - start
        answers = await busy
    return [r.status_code for r in [*answers, health]], health_s


def test_sixteen_concurrent_clients_all_get_answers():
    with LiveServer(FAKE_TILES="1m 2m 3m", FAKE_DELAY="0.2", MCR_INFERENCE_WORKERS="2") as server:
        statuses, health_s = asyncio.run(_load(server.url))
        stats = server.stats()
    assert statuses == [200] * (2 * CLIENTS + 1)
    assert health_s < 0.5, f"/healthz took {health_s:.2f} s while photos were processed"
    assert stats["calls"] == CLIENTS
    assert stats["most_running"] == 2  # the pool is bounded by inference_workers
