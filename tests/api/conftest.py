"""API test fixtures: the app with small limits, a fake detector, and photos encoded in memory."""

from __future__ import annotations

import time
from collections.abc import Iterator

import cv2
import numpy as np
import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.deps import get_detector
from api.settings import Settings
from scoring.tiles import CLASS_NAMES, tile
from vision.detections import TileDetections

LIMIT = 200_000  # bytes: small, so over-limit uploads stay cheap to build


class FakeDetector:
    """Stands in for the ONNX detector: the same faces, in a row across the photo, for any photo."""

    classes = CLASS_NAMES
    version = "fake-1"
    size = 640

    def __init__(self, codes: str = "", delay: float = 0.0) -> None:
        self.codes, self.delay, self.calls = codes.split(), delay, 0

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.calls += 1
        time.sleep(self.delay)
        height, width = image.shape[:2]
        n = len(self.codes)
        step = width / max(n, 1)
        boxes = [[i * step, height * 0.3, (i + 0.9) * step, height * 0.7] for i in range(n)]
        return TileDetections(np.array(boxes, np.float32).reshape(-1, 4), np.full(n, 0.9, np.float32),
                              np.array([tile(c).index for c in self.codes], np.int64))


def encode(ext: str, width: int = 320, height: int = 240) -> bytes:
    """A small photo-like image (a gradient with a rectangle) in the given format."""
    image = np.zeros((height, width, 3), np.uint8)
    image[:] = np.linspace(40, 200, width, dtype=np.uint8)[None, :, None]
    cv2.rectangle(image, (width // 4, height // 4), (width // 2, height // 2), (255, 255, 255), -1)
    ok, data = cv2.imencode(ext, image)
    assert ok
    return data.tobytes()


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


class LiveServer:
    """The app served by uvicorn on a free loopback port, in a thread, for as long as the block runs."""

    def __init__(self, app: object) -> None:
        import socket
        import threading

        import uvicorn

        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        self.port = sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self._server.should_exit = True
        self._thread.join(10)
