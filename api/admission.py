"""A bounded queue for photos: past it a photo is refused at once with 503 and ``Retry-After``.

Photos are read at most ``inference_workers`` at a time (`api.deps.in_pool`); without a bound every photo
beyond those waits, and under overload every client waits seconds for an answer that comes too late. So
`PhotoQueue`, ASGI middleware, counts the photo requests in the process (being read or waiting) and refuses
one more than ``inference_workers + photo_queue`` without waiting: the client hears at once that the service
is busy and when to try again, and a refused upload is dropped as it arrives, never stored or decoded.
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
    running mean of a photo request's duration, in whole seconds (at least 1). A refused upload is read and
    dropped as it arrives (up to ``drain()`` bytes, past which the connection is closed): a server that answers
    and closes while the client still sends has the client's network stack reset the connection, and the client
    never reads the answer."""

    def __init__(self, app: ASGIApp, capacity: Callable[[], int], drain: Callable[[], int]) -> None:
        self.app, self.capacity, self.drain = app, capacity, drain
        self.admitted = 0
        self.mean_seconds = 1.0

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] not in PHOTO_PATHS:
            await self.app(scope, receive, send)
            return
        if self.admitted >= self.capacity():
            wait = max(1, math.ceil(self.mean_seconds))
            whole = await _dropped(receive, self.drain())
            response = JSONResponse(
                {"error": "busy", "detail": f"{self.admitted} photos are being read or waiting, the most this "
                 f"service queues; try again in {wait} s"},
                status_code=503, headers={"Retry-After": str(wait), **({} if whole else {"Connection": "close"})})
            await response(scope, receive, send)
            return
        self.admitted += 1  # one event loop: no other request runs between the check and this count
        start = time.monotonic()
        try:
            await self.app(scope, receive, send)
        finally:
            self.admitted -= 1
            self.mean_seconds += SMOOTHING * (time.monotonic() - start - self.mean_seconds)


async def _dropped(receive: Receive, limit: int) -> bool:
    """Read the request's body and keep none of it; whether it ended within ``limit`` bytes."""
    received = 0
    while received <= limit:
        message = await receive()
        if message["type"] != "http.request":
            return False  # the client went away
        received += len(message.get("body", b""))
        if not message.get("more_body", False):
            return received <= limit
    return False
