"""The shipped ONNX model end to end: metadata, a real held-out photo, and the `mcr detect` contract."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import main
from scoring.tiles import CLASS_NAMES
from vision.detector import Detector, default_model_path

REAL = Path(__file__).resolve().parents[2].parent / "shared" / "datasets" / "chinese-mahjong-v4" / "train"
HOLDOUT = Path(__file__).resolve().parents[2] / "models" / "holdout.txt"


@pytest.fixture(scope="module")
def detector() -> Detector:
    return Detector(default_model_path())


def held_out_hand_photo() -> Path:
    """A held-out `hand_` photo (never trained on) that the source did not mirror; skip without ../shared."""
    if not REAL.is_dir():
        pytest.skip(f"real photos not found at {REAL}")
    sources = [s for s in HOLDOUT.read_text().split() if s.startswith("hand_")]
    return sorted(REAL.glob(f"images/{sources[0]}.rf.*"))[0]


def test_metadata(detector: Detector) -> None:
    assert detector.classes == CLASS_NAMES
    assert detector.size % 32 == 0


def test_non_square_photo_maps_back_to_its_pixels(detector: Detector) -> None:
    image = cv2.imread(str(held_out_hand_photo()))
    wide = cv2.resize(image, (1280, 480))  # letterboxed with padding above and below
    found = Detector(default_model_path(), conf=0.05)(wide)
    assert len(found) > 0
    assert (found.xyxy[:, [0, 2]] <= 1280).all() and (found.xyxy[:, [1, 3]] <= 480).all()
    assert found.xyxy[:, 2].max() > 640  # boxes spread over the whole width, not the model's input


def test_mcr_detect_json_contract_and_bad_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), np.full((300, 500, 3), 90, np.uint8))
    junk = tmp_path / "junk.jpg"
    junk.write_text("not an image")
    status = main(["detect", "--json", str(photo), str(junk), str(tmp_path / "missing.jpg")])
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert status == 1
    assert lines[0]["image"] == str(photo) and (lines[0]["width"], lines[0]["height"]) == (500, 300)
    assert isinstance(lines[0]["tiles"], list)
    assert lines[1] == {"image": str(junk), "error": f"{junk}: not an image (unreadable, truncated or unsupported format)"}
    assert lines[2]["image"] == str(tmp_path / "missing.jpg") and "no such file" in lines[2]["error"]
