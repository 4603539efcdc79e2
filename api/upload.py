"""Upload size limits, enforced while the request streams in rather than after it is stored.

`BodyLimit` is ASGI middleware: a declared ``Content-Length`` over the limit is refused before a byte
is read, and a body that grows past it (chunked, or lying about its length) is cut off at that point.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import HTTPException, Request, UploadFile
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.deps import in_pool
from api.images import decode
from api.settings import MB, Settings
from vision.imagefile import Photo

FORM_OVERHEAD = 64 * 1024  # multipart boundaries and the situation fields around the photo


def too_large(limit: int) -> str:
    return f"the upload is over the {limit / MB:g} MB limit; send a smaller photo"


class BodyLimit:
    """Refuse request bodies over ``limit() + FORM_OVERHEAD`` bytes as they arrive (413)."""

    def __init__(self, app: ASGIApp, limit: Callable[[], int]) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit()
        declared = dict(scope["headers"]).get(b"content-length", b"").decode()
        if declared.isdigit() and int(declared) > limit + FORM_OVERHEAD:
            response = JSONResponse({"error": "too_large", "detail": too_large(limit)}, status_code=413,
                                    headers={"Connection": "close"})
            await response(scope, receive, send)
            return
        received = 0

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit + FORM_OVERHEAD:
                raise HTTPException(413, too_large(limit))
            return message

        await self.app(scope, limited, send)


async def read_photo(request: Request, photo: UploadFile, settings: Settings, min_side: int | None = None) -> Photo:
    """The uploaded photo decoded (on the worker pool; a large JPEG maybe reduced to ``min_side``, see
    `decode_photo`), or the 4xx that says what is wrong with it."""
    data = await photo.read(settings.max_upload_bytes + 1)
    if len(data) > settings.max_upload_bytes:
        raise HTTPException(413, too_large(settings.max_upload_bytes))
    return await in_pool(request, decode, data, settings.max_pixels, min_side)
