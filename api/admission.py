"""A bounded queue for photos: past it a photo is refused at once with 503 and ``Retry-After``.

Photos are read at most ``inference_workers`` at a time (`api.deps.in_pool`); without a bound every photo
beyond those waits, and under overload every client waits seconds for an answer that comes too late. So
`PhotoQueue`, ASGI middleware, counts the photo requests in the process (being read or waiting) and refuses
one more than ``inference_workers + photo_queue`` before reading a byte of its upload: the client hears at
once that the service is busy and when to try again, and the memory of a refused upload is never taken.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from api.settings import Settings

PHOTO_PATHS = frozenset({"/v1/scan", "/v1/detect"})
SMOOTHING = 0.2  # weight of the latest photo request in the running mean of their durations


def photo_capacity(settings: Settings) -> int:
    """Photo requests one process holds: those being read and those waiting for a worker."""
    return settings.inference_workers + settings.photo_queue


class PhotoQueue:
    """Admit at most ``capacity()`` photo requests at once; answer the others 503 with ``Retry-After``: the
    running mean of a photo request's duration, in whole seconds (at least 1)."""

    def __init__(self, app: ASGIApp, capacity: Callable[[], int]) -> None:
        self.app, self.capacity = app, capacity
        self.admitted = 0
        self.mean_seconds = 1.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in PHOTO_PATHS:
            await self.app(scope, receive, send)
            return
        capacity = self.capacity()
        if self.admitted >= capacity:
            wait = max(1, math.ceil(self.mean_seconds))
            response = JSONResponse(
                {"error": "busy", "detail": f"{self.admitted} photos are being read or waiting, the most this "
                 f"service queues; try again in {wait} s"},
                status_code=503, headers={"Retry-After": str(wait), "Connection": "close"})
            await response(scope, receive, send)
            return
        self.admitted += 1  # one event loop: no other request runs between the check and this count
        start = time.monotonic()
        try:
            await self.app(scope, receive, send)
        finally:
            self.admitted -= 1
            self.mean_seconds += SMOOTHING * (time.monotonic() - start - self.mean_seconds)
