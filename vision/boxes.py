"""A second look at each tile's outline: a small network redraws every kept box from the photo itself.

The detector draws its boxes from the whole photo shrunk to 448 pixels, through coarse anchors; the
labels' outlines are finer than that (the median box meets its label at an IoU near 0.7, few at 0.9). The
box refiner sees each box's region, the box with `MARGIN` of its width and
height on every side, warped from the full-resolution photo to a `BoxRefiner.size` square (`region_view`),
and regresses where the tile's four edges lie in that region (`edges_in_region`); the box kept is the mean
of the detector's box and the refiner's (`BLEND`). Training (`models/training/boxes.py`) uses the same view, of
boxes jittered around the real photos' labels and of the detector's own boxes, turned by quarter turns.
"""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision.faces import shrunk, window
from vision.onnxmodel import PAD_VALUE, OnnxModel, to_blob

MARGIN = 0.35  # of the box's width (height), seen beyond its left and right (top and bottom) edges
BLEND = 0.5  # the refiner's share of the box kept, the detector's the rest: the two err in different ways (one
# from the whole photo through coarse anchors, one from the tile's region at full resolution), so their mean errs
# less than either


def regions(xyxy: np.ndarray) -> np.ndarray:
    """The region (x, y, width, height) each box's refiner view covers: the box and `MARGIN` around it; a box under
    a pixel wide (or high) is taken as one pixel, so that its view is never scaled past any bound."""
    xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
    size = np.maximum(xyxy[:, 2:] - xyxy[:, :2], 1.0)
    return np.concatenate([xyxy[:, :2] - MARGIN * size, size * (1 + 2 * MARGIN)], axis=1)


def edges_in_region(xyxy: np.ndarray, outlines: np.ndarray) -> np.ndarray:
    """Where the ``outlines`` (n × 4, xyxy) lie in the regions of the boxes ``xyxy``: 0 the region's left
    (top) side, 1 its right (bottom): what the refiner regresses."""
    region = regions(xyxy)
    origin, size = np.tile(region[:, :2], 2), np.tile(region[:, 2:], 2)
    return ((np.asarray(outlines, np.float32).reshape(-1, 4) - origin) / size).astype(np.float32)


def outlines_from(xyxy: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """The outlines (xyxy, image pixels) that ``edges`` (as `edges_in_region` gives them) put in the regions
    of the boxes ``xyxy``."""
    region = regions(xyxy)
    return (np.tile(region[:, :2], 2) + np.asarray(edges, np.float32) * np.tile(region[:, 2:], 2)).astype(np.float32)


def turned_edges(edges: np.ndarray, turns: int) -> np.ndarray:
    """``edges`` (n × 4) as they lie in a view turned ``turns`` quarter turns counter-clockwise (`np.rot90`)."""
    x1, y1, x2, y2 = np.asarray(edges, np.float32).reshape(-1, 4).T
    for _ in range(turns % 4):
        x1, y1, x2, y2 = y1, 1 - x2, y2, 1 - x1
    return np.stack([x1, y1, x2, y2], axis=1)


def region_view(image: np.ndarray, box: np.ndarray, size: int) -> np.ndarray:
    """The region of ``box`` (`regions`) warped to a ``size`` square, grey beyond the photo: the region's
    left edge on the view's left edge, its right on the right, whatever the scale. A region more than twice the
    view's side is shrunk by area to twice the view's first, so a 12-MP photo's tile does not alias: a region four
    times the view or more by a whole factor before that (`vision.faces.shrunk`, the window grown to a multiple of
    it), as area resampling by any other factor costs in proportion to the pixels it starts from."""
    rx, ry, rw, rh = (float(v) for v in regions(box)[0])
    sx, sy = size / rw, size / rh
    if min(sx, sy) < 0.5:
        x0, y0, x1, y1 = math.floor(rx), math.floor(ry), math.ceil(rx + rw), math.ceil(ry + rh)
        whole_x, whole_y = max(1, int(0.5 / sx)), max(1, int(0.5 / sy))
        x1, y1 = x0 + -(-(x1 - x0) // whole_x) * whole_x, y0 + -(-(y1 - y0) // whole_y) * whole_y
        new_w, new_h = max(1, round((x1 - x0) * sx * 2)), max(1, round((y1 - y0) * sy * 2))
        image = window(image, x0, y0, x1, y1)
        if max(whole_x, whole_y) > 1:
            image = shrunk(image, whole_x, whole_y)
        image = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_AREA)
        kx, ky = new_w / (x1 - x0), new_h / (y1 - y0)
        matrix = np.array([[sx / kx, 0, (x0 - rx) * sx], [0, sy / ky, (y0 - ry) * sy]], np.float32)
    else:
        matrix = np.array([[sx, 0, -rx * sx], [0, sy, -ry * sy]], np.float32)
    # The matrix maps pixel edges (a pixel i spans i to i + 1); warpAffine maps pixel centres (i + 0.5)
    matrix[:, 2] += 0.5 * matrix[:, :2].diagonal() - 0.5
    return cv2.warpAffine(image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderValue=(PAD_VALUE,) * 3)


class BoxRefiner:
    """The box refiner (ONNX: views in, four edges out); load once, call with a photo and its boxes."""

    def __init__(self, model_path: str | Path, threads: int = 2) -> None:
        self._model = OnnxModel.load(Path(model_path), threads, "box model", "models.training.boxes", classes=False)
        self.size, self.version = self._model.size, self._model.version
        values = self._model.session.get_outputs()[0].shape[-1]
        if values != 4:  # a face reader given for a box model, say
            raise ValueError(f"{model_path}: not a box model (it gives {values} values per view, not 4 edges)")
        margin = float(self._model.metadata.get("margin", MARGIN))
        if margin != MARGIN:  # its edges would be read in regions of another size
            raise ValueError(f"{model_path}: a box model that learned regions with margin {margin}, not {MARGIN}")

    def __call__(self, image: np.ndarray, xyxy: np.ndarray) -> np.ndarray:
        """The boxes ``xyxy`` (n × 4, pixels of ``image``) redrawn: each the `BLEND` of itself and the outline
        the refiner reads in its region."""
        xyxy = np.asarray(xyxy, np.float32).reshape(-1, 4)
        if len(xyxy) == 0:
            return xyxy
        views = np.stack([region_view(image, box, self.size) for box in xyxy])
        edges = self._model.run(to_blob(views)).astype(np.float32)
        height, width = image.shape[:2]
        redrawn = np.clip(BLEND * outlines_from(xyxy, edges) + (1 - BLEND) * xyxy, 0, [width, height, width, height])
        empty = (redrawn[:, 2] <= redrawn[:, 0]) | (redrawn[:, 3] <= redrawn[:, 1])  # never seen; a box stays a box
        redrawn[empty] = xyxy[empty]
        return redrawn.astype(np.float32)
