"""The real service with `FakeDetector` in place of the model, for tests that run a server process.

``FAKE_TILES`` (space-separated codes) and ``FAKE_DELAY`` (seconds per photo) set the fake; the usual
``MCR_*`` variables set the limits. ``GET /fake/stats`` reports the fake's counters.
"""

from __future__ import annotations

import os

from fastapi import FastAPI

from api.app import create_app
from api.deps import get_detector
from tests.api.conftest import FakeDetector


def create() -> FastAPI:
    fake = FakeDetector(os.environ.get("FAKE_TILES", ""), float(os.environ.get("FAKE_DELAY", "0")))
    app = create_app()
    app.dependency_overrides[get_detector] = lambda: fake

    def stats() -> dict[str, int]:
        return {"calls": fake.calls, "most_running": fake.most_running}

    app.add_api_route("/fake/stats", stats)
    app.router.routes.insert(0, app.router.routes.pop())  # ahead of the page mounted at /
    return app
