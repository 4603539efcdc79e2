"""The service end to end with the shipped ONNX detector on the example photo (`examples/hand.jpg`,
one of our synthetic scenes). How well the model reads is `tests/vision`'s concern; this checks the
real session through every endpoint. Skipped until `models/mcr-tiles.onnx` exists."""

from __future__ import annotations

import pytest

from api.app import create_app
from api.settings import Settings
from scoring.tiles import CLASS_NAMES
from tests.api.conftest import ROOT

MODEL = ROOT / "models" / "mcr-tiles.onnx"
PHOTO = ROOT / "examples" / "hand.jpg"
CONF = 0.05  # low, so the whole path (zoom, layout, scoring) runs even with an early model

pytestmark = pytest.mark.skipif(not MODEL.is_file(), reason=f"no shipped model at {MODEL} yet")


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    with TestClient(create_app(Settings(model_path=MODEL, conf=CONF))) as client:
        yield client


def test_model_info(client):
    info = client.get("/v1/model").json()
    assert info["name"] == MODEL.name and info["input_size"] >= 320
    assert set(info["classes"]) <= set(CLASS_NAMES)
    assert client.get("/healthz").json() == {"status": "ok", "model": "loaded"}


def test_detect_and_scan_the_example_photo(client):
    files = {"photo": (PHOTO.name, PHOTO.read_bytes())}
    detected = client.post("/v1/detect", files=files)
    assert detected.status_code == 200
    body = detected.json()
    assert (body["width"], body["height"]) == (1500, 2000) and body["tiles"]
    assert all(t["code"] in CLASS_NAMES and t["confidence"] >= CONF for t in body["tiles"])
    assert all(0 <= t["box"][0] < t["box"][2] <= 1500 and 0 <= t["box"][1] < t["box"][3] <= 2000
               for t in body["tiles"])
    scanned = client.post("/v1/scan", files=files, data={"annotate": "true", "win": "self_drawn"})
    assert scanned.status_code == 200
    scan = scanned.json()
    assert scan["tiles"] and scan["annotated"].startswith("data:image/jpeg;base64,")
    if scan["hand"] is None:  # no valid reading: the answer must say what to check
        assert scan["score"] is None and scan["doubts"]
    else:
        assert scan["score"]["hand"] == scan["hand"]["notation"]
        assert scan["score"]["situation"]["win"] == "self_drawn"
