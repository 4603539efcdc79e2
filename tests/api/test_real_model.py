"""The service end to end with the shipped ONNX detector on a real held-out photo (never trained on).
Skipped until `models/mcr-tiles.onnx` exists and the shared dataset is readable."""

from __future__ import annotations

from pathlib import Path

import pytest

from api.app import create_app
from api.settings import Settings
from scoring.tiles import CLASS_NAMES
from tests.api.conftest import ROOT

MODEL = ROOT / "models" / "mcr-tiles.onnx"
PHOTOS = ROOT.parent / "shared" / "datasets" / "chinese-mahjong-v4" / "train"

pytestmark = pytest.mark.skipif(not MODEL.is_file(), reason=f"no shipped model at {MODEL} yet")


def held_out_hand_photo() -> Path:
    """The first held-out photo (by name) that shows at least 13 tiles: a hand, not a single tile."""
    from models.real_data import is_held_out, source_name

    for image in sorted((PHOTOS / "images").glob("*.jpg")):
        labels = PHOTOS / "labels" / f"{image.stem}.txt"
        if is_held_out(source_name(image)) and labels.is_file() and len(labels.read_text().split("\n")) >= 13:
            return image
    pytest.skip(f"no held-out hand photo under {PHOTOS}")


@pytest.fixture(scope="module")
def client():
    from fastapi.testclient import TestClient

    with TestClient(create_app(Settings(model_path=MODEL))) as client:
        yield client


def test_model_info(client):
    info = client.get("/v1/model").json()
    assert info["name"] == MODEL.name and info["input_size"] >= 320
    assert set(info["classes"]) <= set(CLASS_NAMES)
    assert client.get("/healthz").json() == {"status": "ok", "model": "loaded"}


def test_detect_and_scan_a_real_photo(client):
    photo = held_out_hand_photo()
    files = {"photo": (photo.name, photo.read_bytes())}
    detected = client.post("/v1/detect", files=files)
    assert detected.status_code == 200
    body = detected.json()
    assert len(body["tiles"]) >= 10
    assert all(0 <= t["box"][0] < t["box"][2] <= body["width"] for t in body["tiles"])
    scanned = client.post("/v1/scan", files=files, data={"annotate": "true"})
    assert scanned.status_code == 200
    scan = scanned.json()
    assert len(scan["tiles"]) >= 10 and scan["annotated"].startswith("data:image/jpeg;base64,")
    assert (scan["hand"] is None) == (scan["score"] is None) or scan["doubts"]
