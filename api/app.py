"""The HTTP service: `create_app()` assembles the routers, the error handlers, the upload limit and the
web pages (``api/static``: the scorer at ``/``, the match sheet at ``/match``). Run it with ``mcr serve``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from fastapi_offline import FastAPIOffline

from api import errors
from api.admission import PhotoQueue, photo_capacity
from api.deps import current_settings, get_detector
from api.errors import ApiError
from api.routers import detect, health, matches, scan, score, tiles, waits
from api.settings import Settings, get_settings
from api.upload import FORM_OVERHEAD, BodyLimit

STATIC = Path(__file__).resolve().parent / "static"
DESCRIPTION = """Photograph a Chinese mahjong hand and score it under the Mahjong Competition Rules (MCR).

Tile codes: `1m`-`9m`, `1p`-`9p`, `1s`-`9s`, `E S W N`, `C F P` (red, green, white dragon), `1f`-`8f`
(flowers and seasons), `back`. Every refusal is a 4xx with `{"error": code, "detail": message}`."""


@asynccontextmanager
async def _warm_up(app: FastAPI) -> AsyncIterator[None]:
    """Load the detector at start-up, so the first photo is not slowed down (none yet is fine)."""
    if get_detector not in app.dependency_overrides:
        try:
            get_detector(current_settings(app))
        except ApiError:
            pass
    yield


def match_page() -> FileResponse:
    """The referee's match sheet (``api/static/match.html``), at ``/match``."""
    return FileResponse(STATIC / "match.html")


def create_app(settings: Settings | None = None) -> FastAPI:
    """A new service; ``settings`` replaces the ones read from ``MCR_*`` environment variables. Its documentation
    pages (``/docs``, ``/redoc``) load their scripts and styles from this service (`fastapi_offline`), never from a
    CDN, so they render at a table without internet; no validator badge asks swagger.io about the schema."""
    app = FastAPIOffline(title="MCR Lens", version="1", description=DESCRIPTION, lifespan=_warm_up,
                         swagger_ui_parameters={"validatorUrl": None})
    if settings is not None:
        app.dependency_overrides[get_settings] = lambda: settings
    errors.install(app)
    app.add_middleware(BodyLimit, limit=lambda: current_settings(app).max_upload_bytes)
    app.add_middleware(PhotoQueue, capacity=lambda: photo_capacity(current_settings(app)),
                       drain=lambda: current_settings(app).max_upload_bytes + FORM_OVERHEAD)
    for module in (health, tiles, score, waits, detect, scan, matches):
        app.include_router(module.router)
    app.add_api_route("/match", match_page, include_in_schema=False)
    app.mount("/", StaticFiles(directory=STATIC, html=True), name="page")
    return app
