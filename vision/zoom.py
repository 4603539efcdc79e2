"""Detection at a useful size: a hand is often a thin strip in a large photo, so when the first pass
finds small tiles, the region holding them is cropped and read again at a higher zoom."""

from __future__ import annotations

import numpy as np

from vision.detections import TileDetections
from vision.detector import Detector

MIN_SIDE = 28.0  # model-input pixels: tiles whose short side is smaller are read again, zoomed
MARGIN = 1.5  # tile sizes of context kept around the tiles' region
MIN_GAIN = 1.4  # zoom only when the crop is read at least this much larger


def tiles_region(detections: TileDetections, height: int, width: int) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) around every tile found, with a margin, inside the photo."""
    xyxy = detections.xyxy
    side = float(np.median(np.minimum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])))
    x0, y0 = np.maximum(xyxy[:, :2].min(axis=0) - MARGIN * side, 0)
    x1, y1 = np.minimum(xyxy[:, 2:].max(axis=0) + MARGIN * side, [width, height])
    return int(x0), int(y0), int(np.ceil(x1)), int(np.ceil(y1))


def detect_tiles(image: np.ndarray, detector: Detector) -> TileDetections:
    """Every tile in a BGR photo, zooming in once on the tiles' region when they are read small."""
    found = detector(image)
    if len(found) == 0:
        return found
    height, width = image.shape[:2]
    scale = detector.size / max(height, width)
    short = np.minimum(found.xyxy[:, 2] - found.xyxy[:, 0], found.xyxy[:, 3] - found.xyxy[:, 1])
    if float(np.median(short)) * scale >= MIN_SIDE:
        return found
    x0, y0, x1, y1 = tiles_region(found, height, width)
    if max(height, width) / max(x1 - x0, y1 - y0) < MIN_GAIN:
        return found
    zoomed = detector(image[y0:y1, x0:x1])
    shift = np.array([x0, y0, x0, y0], np.float32)
    return TileDetections(zoomed.xyxy + shift, zoomed.confidence, zoomed.class_id)
