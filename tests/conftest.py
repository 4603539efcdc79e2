"""Helpers the test folders share: a base for stand-in detectors, the held-out real photos (read from ../shared
at test time, skipped without them), and a JPEG whose header lies about its size.

Loaded by every test, the training smoke test's venv included (torch, no web stack): the helpers import what
else they need when called."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.training.recipes import HOLDOUT_LIST, REAL_PHOTOS
from scoring.tiles import TILES
from vision.detections import TileDetections
from vision.detector import NMS_IOU
from vision.locate import Located, Locator
from vision.tilefaces import Readers

EXAMPLE_PHOTO = Path(__file__).resolve().parents[1] / "examples" / "hand.jpg"
HEIC_PHOTO = Path(__file__).resolve().parent / "data" / "hand.heic"  # the example at 480x640 as an iPhone saves it
GRADIENT_HEIC = HEIC_PHOTO.with_name("gradient.heic")  # `encode(".png", 960, 320)` as HEIC: the API's fake detector
# reads it


def held_out_hand_photos() -> list[Path]:
    """The first copy of each held-out `hand_` source photo (never trained on), in the list's order; skip
    without ../shared."""
    if not REAL_PHOTOS.is_dir():
        pytest.skip(f"real photos not found at {REAL_PHOTOS}")
    sources = [s for s in HOLDOUT_LIST.read_text().split() if s.startswith("hand_")]
    return [min((REAL_PHOTOS / "train").glob(f"images/{source}.rf.*")) for source in sources]


def held_out_hand_photo() -> Path:
    """A held-out `hand_` photo that the source did not mirror."""
    return held_out_hand_photos()[0]


def held_out_labelled() -> Iterator[tuple[np.ndarray, TileDetections]]:
    """Each held-out `hand_` photo (BGR) with its labelled tiles (`models.measure.scan_real.labelled`); skips
    without ../shared."""
    from datasets.real_photos import class_map
    from models.measure.scan_real import hand_photos, labelled

    held_out_hand_photo()
    mapping = class_map(REAL_PHOTOS / "classes.tsv")
    for photo in hand_photos():
        image = cv2.imread(str(photo))
        yield image, labelled(photo, image.shape[1], image.shape[0], mapping)


def jpeg_declaring(width: int, height: int) -> bytes:
    """A real JPEG with its frame header (SOF0) rewritten to claim another size."""
    from models.measure.http_load import encode

    data = bytearray(encode(".jpg"))
    sof = data.find(b"\xff\xc0")
    data[sof + 5:sof + 9] = struct.pack(">HH", height, width)
    return bytes(data)


# A base for stand-in detectors in tests: they answer a whole reading in one call, as `Detector.__call__` does, and
# this gives them the two stage values a runner takes from a `Detector` (`locator`, then `readers`) and its
# threshold (``conf``: none unless a stand-in sets one, so each keeps what it was given).
class StandIn:
    """Locating is the stand-in's call (its faces become the scores located, `locate`); its readers are none, so
    reading faces (`vision.tilefaces.read_faces`) gives the located faces back, held to ``conf``."""

    iou = NMS_IOU
    version = "stand-in"
    conf = 0.0
    stride: int | None = None  # a fixed square input, unless a test frees it
    readers = Readers(faces=None, second_looks={}, refiner=None)  # faces as located, boxes as given

    @property
    def locator(self) -> Locator:
        """The stand-in as stage 2 takes a `Locator`: its `locate`, at its size, stride and iou."""
        return _Locating(self)  # type: ignore[return-value]  # a `Locator` as far as `vision.zoom` asks

    def locate(self, image: np.ndarray, side: int | None = None) -> Located:
        reading: TileDetections = self(image)  # type: ignore[operator]  # the subclass's reading
        scores = np.zeros((len(reading), len(TILES)), np.float32)
        rows = np.arange(len(reading))
        second = reading.runner_up >= 0
        scores[rows[second], reading.runner_up[second]] = reading.runner_up_confidence[second]
        scores[rows, reading.class_id] = reading.confidence
        return Located(reading.xyxy, scores)

    def tuned(self, views: int | None = None, conf: float | None = None, iou: float | None = None,
              refine: bool | None = None) -> StandIn:
        """The stand-in itself (its reading of crops at any views is its reading; its counters stay
        in one place), held to ``conf`` and ``iou`` when given, noting the views and conf asked for in ``tunings``;
        it has no refiner to turn off."""
        self.tunings = [*getattr(self, "tunings", []), (views, conf)]
        self.conf = self.conf if conf is None else conf
        self.iou = self.iou if iou is None else iou
        return self


@dataclass(frozen=True)
class _Locating:
    """A stand-in's `locate` as a `Locator`: what `vision.zoom` calls and asks of one."""

    stand_in: StandIn

    def __call__(self, image: np.ndarray, side: int | None = None) -> Located:
        return self.stand_in.locate(image, side)

    @property
    def size(self) -> int:
        return self.stand_in.size  # type: ignore[attr-defined, no-any-return]  # each stand-in sets its size

    @property
    def stride(self) -> int | None:
        return self.stand_in.stride

    @property
    def iou(self) -> float:
        return self.stand_in.iou
