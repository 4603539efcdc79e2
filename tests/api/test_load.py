"""Under load: 16 concurrent clients on loopback all get answers; inference runs on a bounded pool
while the event loop keeps serving, and scoring never queues behind photos."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable

import httpx
import pytest

from tests.api.conftest import LiveServer, encode

CLIENTS = 16
DELAY = 0.75  # seconds of fake inference per photo: 16 photos, 2 at a time, take 6 s


async def _timed(start: float, request: Awaitable[httpx.Response]) -> tuple[int, float]:
    response = await request
    return response.status_code, time.monotonic() - start


async def _load(url: str) -> dict[str, list[tuple[int, float]]]:
    """16 photos and 16 hands at once, then /healthz while the pool is busy: statuses, finish times."""
    photo = encode(".jpg")
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=httpx.Limits(max_connections=64)) as http:
        start = time.monotonic()
        photos = asyncio.gather(*(_timed(start, http.post("/v1/detect", files={"photo": ("a.jpg", photo)}))
                                  for _ in range(CLIENTS)))
        hands = asyncio.gather(*(_timed(start, http.post("/v1/score", json={"hand": "123456789m1234p5p"}))
                                 for _ in range(CLIENTS)))
        await asyncio.sleep(0.3)  # the pool is now busy: every photo is queued or being read
        health = await _timed(start, http.get("/healthz"))
        return {"photos": await photos, "hands": await hands, "health": [health]}


@pytest.mark.slow
def test_sixteen_concurrent_clients_all_get_answers():
    with LiveServer(FAKE_TILES="1m 2m 3m", FAKE_DELAY=str(DELAY), MCR_INFERENCE_WORKERS="2") as server:
        answers = asyncio.run(_load(server.url))
        stats = server.stats()
    assert [status for kind in answers.values() for status, _ in kind] == [200] * (2 * CLIENTS + 1)
    photos = sorted(t for _, t in answers["photos"])
    last_photo, half_the_photos = photos[-1], photos[CLIENTS // 2]
    (_, health), = answers["health"]
    assert health < half_the_photos  # sent after all 16 photos, answered long before they are done
    assert last_photo >= CLIENTS / 2 * DELAY  # 2 at a time...
    # ...as the pool is bounded; and inference on the event loop would never run two at once.
    assert stats["calls"] == CLIENTS and stats["most_running"] == 2
    assert max(t for _, t in answers["hands"]) < last_photo  # scores do not wait for the photos
