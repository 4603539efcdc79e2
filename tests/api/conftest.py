"""API test fixtures: the app with small limits, a fake detector, and photos encoded in memory."""

from __future__ import annotations

import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.deps import get_detector
from api.settings import MB, Settings
from models.measure.http_load import FAKE_APP, FAKE_TILES, encode  # noqa: F401 - encode: the API tests' photos
from models.measure.http_load import LiveServer as Served
from scoring.tiles import CLASS_NAMES, tile
from tests.conftest import StandIn, jpeg_declaring  # noqa: F401 - jpeg_declaring: the API tests' photos
from vision.detections import TileDetections

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 200_000  # bytes: small, so over-limit uploads stay cheap to build
HAND = FAKE_TILES  # what the fake reads: a pure straight, 5s set apart
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


UPRIGHT = 50  # brightness the right edge of an upright `encode` photo has over its left edge


class FakeDetector(StandIn):
    """Stands in for the ONNX detector: the same faces, in a row across the photo, for any photo the right
    way up (brighter to the right, as `encode` paints it; turned, as `scan` reads an unsure photo again,
    it sees nothing). ``1p/4p`` reads a 1p whose runner-up face is a 4p (scored 0.6)."""

    classes = CLASS_NAMES
    version = "fake-1"
    size = 640

    def __init__(self, codes: str = "", delay: float = 0.0) -> None:
        self.codes, self.delay, self.calls = codes.split(), delay, 0
        self.running = self.most_running = 0
        self._lock = threading.Lock()

    def __call__(self, image: np.ndarray) -> TileDetections:
        """Tile-shaped boxes left to right across the middle of the photo; ``|`` in the codes is a gap."""
        with self._lock:
            self.calls += 1
            self.running += 1
            self.most_running = max(self.most_running, self.running)
        time.sleep(self.delay)  # inference time, with the GIL released as onnxruntime releases it
        with self._lock:
            self.running -= 1
        height, width = image.shape[:2]
        if float(image[:, -1].mean()) - float(image[:, 0].mean()) < UPRIGHT:
            return TileDetections.empty()
        step = width / (len(self.codes) + 1)
        w, h = 0.95 * step, 1.3 * step
        slots = [i for i, code in enumerate(self.codes) if code != "|"]
        boxes = [[(i + 0.5) * step, (height - h) / 2, (i + 0.5) * step + w, (height + h) / 2] for i in slots]
        readings = [(self.codes[i].split("/") + [""])[:2] for i in slots]
        faces = [tile(first).index for first, _ in readings]
        seconds = [tile(second).index if second else -1 for _, second in readings]
        return TileDetections(np.array(boxes, np.float32).reshape(-1, 4), np.full(len(slots), 0.9, np.float32),
                              np.array(faces, np.int64), np.array(seconds, np.int64), np.full(len(slots), 0.6))


def make_client(detector: FakeDetector | None = None, **settings: object) -> TestClient:
    app = create_app(Settings(**{"max_upload_bytes": LIMIT, **settings}))
    if detector is not None:
        app.dependency_overrides[get_detector] = lambda: detector
    return TestClient(app)


@pytest.fixture
def fake() -> FakeDetector:
    return FakeDetector("1m 2m 3m 5p")


@pytest.fixture
def client(fake: FakeDetector) -> Iterator[TestClient]:
    with make_client(fake) as c:
        yield c


class LiveServer(Served):
    """The service (default: `tests.api.fake_app`, the fake detector set by ``env``) in a process of its own on a
    loopback port while the block runs, with the suite's upload limit (`models.measure.http_load.LiveServer`)."""

    def __init__(self, factory: str = FAKE_APP, **env: str) -> None:
        super().__init__(factory, **{"MCR_MAX_UPLOAD_MB": str(LIMIT / MB), **env})

    def stats(self) -> dict[str, int]:
        """The fake detector's counters, from inside the server process."""
        import httpx

        return httpx.get(f"{self.url}/fake/stats", timeout=10).json()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's `chromium`, driven by Playwright) for the pages' end-to-end tests; skipped,
    saying how to install it, where it is absent."""
    if not Path(CHROMIUM).is_file():
        pytest.skip("Chromium not installed: apt-get install chromium (.ci/run does); never `playwright install`")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield launched
        launched.close()
