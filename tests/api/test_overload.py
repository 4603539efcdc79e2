"""Overload: photos past the bounded queue are refused at once (503, ``Retry-After``) while the admitted ones
are read and scores keep being answered."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import httpx

from api.app import create_app
from api.deps import get_detector
from api.settings import Settings
from tests.api.conftest import LIMIT, FakeDetector, encode

DELAY = 0.4  # seconds of fake inference per photo
WORKERS, QUEUE, CLIENTS = 1, 2, 7


async def _burst(fake: FakeDetector) -> tuple[list[tuple[httpx.Response, float]], httpx.Response, httpx.Response]:
    """CLIENTS photos at once and a score among them; then, once they are done, one photo more."""
    app = create_app(Settings(max_upload_bytes=LIMIT, inference_workers=WORKERS, photo_queue=QUEUE))
    app.dependency_overrides[get_detector] = lambda: fake
    photo = encode(".jpg")
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test", timeout=30) as http:
        start = time.monotonic()

        async def timed(request):
            response = await request
            return response, time.monotonic() - start

        photos = asyncio.gather(*(timed(http.post("/v1/detect", files={"photo": ("a.jpg", photo)}))
                                  for _ in range(CLIENTS)))
        await asyncio.sleep(0.05)
        score = await http.post("/v1/score", json={"hand": "123456789m1234p5p"})
        answers = await photos
        after = await http.post("/v1/detect", files={"photo": ("a.jpg", photo)})
    return answers, score, after


def test_photos_past_the_queue_get_a_503_with_retry_after_at_once():
    fake = FakeDetector("1m 2m 3m", DELAY)
    with ThreadPoolExecutor(1) as thread:  # a loop of its own: a browser test may leave one running in this thread
        answers, score, after = thread.submit(asyncio.run, _burst(fake)).result()
    statuses = sorted(response.status_code for response, _ in answers)
    assert statuses == [200] * (WORKERS + QUEUE) + [503] * (CLIENTS - WORKERS - QUEUE)
    refused = [(response, took) for response, took in answers if response.status_code == 503]
    for response, took in refused:
        assert response.json()["error"] == "busy"
        assert int(response.headers["Retry-After"]) >= 1
        assert took < DELAY  # at once, not after a wait
    assert max(took for response, took in answers if response.status_code == 200) >= (WORKERS + QUEUE) * DELAY
    assert fake.calls == WORKERS + QUEUE + 1 and fake.most_running == WORKERS
    assert score.status_code == 200  # scoring does not queue with photos
    assert after.status_code == 200  # the queue empties: the next photo is admitted


def test_the_queue_is_a_setting():
    assert Settings.from_env({"MCR_PHOTO_QUEUE": "0"}).photo_queue == 0
    assert Settings.from_env({}).photo_queue == 16
