"""Stage 2, locate: where the detector sees tiles in an image, before any face is read (`Located`).

One pass of our YOLO model (ONNX, run by onnxruntime, never torch): the image letterboxed (aspect ratio kept,
grey padding, as Ultralytics trains), the output decoded (`decode`: boxes, or the box distributions of a head
exported without its box decoding, `BoxBins`, and class scores per anchor), class-aware NMS applied, boxes mapped
back to the image's pixels: a `Locator`, the pass as a value. Where to look again (zoomed, in quarters, turned) is
`vision.zoom`'s, given the `Locator`; the faces of the candidates are read by the next stage, `vision.tilefaces`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np

from scoring.tiles import TILES
from vision.geometry import box_area, class_aware_nms, nms
from vision.onnxmodel import PAD_VALUE, OnnxModel, in_tile_order, tile_there, to_blob

MAX_CANDIDATES = 30_000  # boxes entering NMS at most (Ultralytics' max_nms)
PATTERN = 400  # candidates scored under `FAINT` that a pass keeps at most: more are a patterned cloth or table read
# as tiles (1,624 in one pass over a rendered hand on a sheet printed with squares), whose crops the face reader would
# read at four views for seconds; the development photos give at most 145 a pass (the 156 training hand photos' scans),
# the composed scenes 55 (`Located.without_pattern`). Fewer, in turned passes, still read as hundreds of faint tiles:
# the scan's `vision.scan.FAINT_CAP` bounds what the layout weighs (without it that scene takes 49 s, not 0.7)
FAINT = 0.3  # ... the detector's score under which a candidate counts as faint (the layout's `vision.readings.STRAY`)
SHOWN = 0.25  # the least share of a box that lies in the image for it to be a candidate (`Letterbox.shown`): a
# detector may draw faint boxes in the input's padding, which clipped to the photo's edge have no height, and a
# scan divides by tile sizes


def _scaled(length: int, scale: float) -> int:
    """A side after scaling, never 0 pixels (a 1×3000 strip still makes a valid input)."""
    return max(1, round(length * scale))


@dataclass(frozen=True)
class Letterbox:
    """How an image fits the model input (``height`` × ``width``): ``input = original * scale + (left, top)``."""

    scale: float
    left: int
    top: int
    height: int
    width: int

    @classmethod
    def fit(cls, height: int, width: int, size: int, stride: int | None = None) -> Letterbox:
        """Aspect ratio kept, the long side at ``size``, padding split as Ultralytics splits it (the odd
        pixel right/bottom): to a ``size`` square, or with ``stride`` only up to its next multiple."""
        scale = min(size / height, size / width)
        new_w, new_h = _scaled(width, scale), _scaled(height, scale)
        in_w, in_h = (size, size) if stride is None else (-(-new_w // stride) * stride, -(-new_h // stride) * stride)
        return cls(scale, round((in_w - new_w) / 2 - 0.1), round((in_h - new_h) / 2 - 0.1), in_h, in_w)

    def apply(self, image: np.ndarray) -> np.ndarray:
        """The image resized and padded to the input's ``height`` × ``width``."""
        height, width = image.shape[:2]
        new_w, new_h = _scaled(width, self.scale), _scaled(height, self.scale)
        if (new_w, new_h) != (width, height):
            image = cv2.resize(image, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
        bottom, right = self.height - new_h - self.top, self.width - new_w - self.left
        return cv2.copyMakeBorder(
            image, self.top, bottom, self.left, right, cv2.BORDER_CONSTANT, value=(PAD_VALUE,) * 3
        )

    def to_original(self, xyxy: np.ndarray, height: int, width: int) -> np.ndarray:
        """Boxes in input pixels back to original pixels, clipped to the image."""
        shift = np.array([self.left, self.top, self.left, self.top], np.float32)
        return np.clip((xyxy - shift) / self.scale, 0, [width, height, width, height]).astype(np.float32)

    def shown(self, xyxy: np.ndarray, original: np.ndarray) -> np.ndarray:
        """Which boxes (input pixels, and as `to_original` maps them) have at least `SHOWN` of their area in the
        image: a tile cut by the photo's edge does, a box the model drew in the padding, clipped to a line along
        the edge, does not."""
        inside = box_area(original)
        return (inside > 0) & (inside >= SHOWN * box_area(xyxy) / self.scale**2)


@dataclass(frozen=True)
class BoxBins:
    """How a detector exported without its box decoding (`models.training.export.split_head`) gives boxes: per anchor,
    four distributions (left, top, right, bottom) over ``bins`` distances from the anchor point, in units of its
    level's stride (``strides``, finest first). The graph decoded them for every anchor, a softmax across rows
    that took 13 % of a pass (3.7 of 29 ms at 448×352); `decode` does it for the few candidates only."""

    bins: int
    strides: tuple[int, ...]

    @classmethod
    def of(cls, metadata: Mapping[str, str]) -> BoxBins | None:
        """The model's box bins from its metadata (``box_bins``, ``strides``); None for boxes decoded in the graph."""
        if "box_bins" not in metadata:
            return None
        return cls(int(metadata["box_bins"]), tuple(json.loads(metadata["strides"])))

    @property
    def rows(self) -> int:
        """The output rows of the box distributions, before the class scores."""
        return 4 * self.bins

    def boxes(self, output: np.ndarray, anchors: np.ndarray, shape: tuple[int, int] | None) -> np.ndarray:
        """The xyxy boxes (input pixels) of the ``anchors`` (indices into the output's columns) of an output for
        an input of ``shape`` (height, width): each side at the distance its distribution expects (softmax ·
        bin), as Ultralytics' DFL. A ValueError when the output is not for that input."""
        if shape is None:
            raise ValueError("box distributions are decoded for an input shape: give `shape`")
        points, strides = anchor_points(*shape, self.strides)
        if output.shape[1] != len(strides):
            raise ValueError(f"the model gives {output.shape[1]} anchors for a {shape[0]}x{shape[1]} input, "
                             f"not the {len(strides)} of strides {self.strides}")
        logits = output[:self.rows, anchors].reshape(4, self.bins, -1)
        weights = np.exp(logits - logits.max(axis=1, keepdims=True))
        distance = (weights * np.arange(self.bins, dtype=np.float32)[:, None]).sum(axis=1) / weights.sum(axis=1)
        (x, y), stride = points[:, anchors], strides[anchors]
        left, top, right, bottom = distance
        return np.stack([(x - left) * stride, (y - top) * stride, (x + right) * stride, (y + bottom) * stride],
                        axis=1).astype(np.float32, copy=False)


@functools.lru_cache(maxsize=64)
def anchor_points(height: int, width: int, strides: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """The anchors of an input, in the head's order (level by level, finest first; row by row): their centres
    (2 × anchors, in strides of their level) and their level's stride."""
    points, levels = [], []
    for stride in strides:
        y, x = np.mgrid[0:height // stride, 0:width // stride].astype(np.float32) + 0.5
        points.append(np.stack([x.ravel(), y.ravel()]))
        levels.append(np.full(x.size, stride, np.float32))
    cached = np.concatenate(points, axis=1), np.concatenate(levels)
    for array in cached:  # shared by every later call: never written to
        array.setflags(write=False)
    return cached


def decode(output: np.ndarray, conf: float, iou: float, max_det: int, bins: BoxBins | None = None,
           shape: tuple[int, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """YOLO output -> the xyxy boxes of a tile surer than ``conf`` (`tile_there`) kept by class-aware NMS,
    and their score of every class (kept × classes). The output is per anchor its centre box and class scores
    (``4 + classes`` rows), or with ``bins`` its box distributions and class scores (``4·bins + classes``
    rows) for an input of ``shape`` (height, width)."""
    scores_all = output[4 if bins is None else bins.rows:]
    class_id = scores_all.argmax(axis=0)
    scores = tile_there(scores_all, axis=0)
    sure = np.flatnonzero(scores > conf)
    if len(sure) > MAX_CANDIDATES:  # an unsure model at a low threshold: NMS only the best, as Ultralytics
        sure = sure[np.argsort(-scores[sure], kind="stable")[:MAX_CANDIDATES]]
    if bins is None:
        cx, cy, w, h = output[:4, sure]
        xyxy = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1).astype(np.float32)
    else:
        xyxy = bins.boxes(output, sure, shape)
    kept = class_aware_nms(xyxy, scores[sure], class_id[sure], iou)[:max_det]
    return xyxy[kept], np.ascontiguousarray(scores_all[:, sure[kept]].T)


@dataclass(frozen=True)
class Located:
    """The detector's candidate tiles in one image, before their faces are read: boxes (n×4, the image's
    pixels) and the detector's score of every face in the tile vocabulary's order (n×len(TILES)). Its
    class-aware NMS keeps a box per face it hesitates between, so one tile may have several boxes here."""

    xyxy: np.ndarray
    scores: np.ndarray

    def __getitem__(self, keep: np.ndarray) -> Located:
        return Located(self.xyxy[keep], self.scores[keep])

    def without_pattern(self) -> Located:
        """The candidates without their faint ones (under `FAINT`) where there are more than `PATTERN` of them: a
        pattern read as tiles, not tiles, and the sure ones are the hand."""
        faint = self.scores.max(axis=1, initial=0.0) < FAINT
        return self[~faint] if int(faint.sum()) > PATTERN else self

    def with_boxes(self, xyxy: np.ndarray) -> Located:
        """The same candidates at other boxes: the same ones in another image's pixels."""
        return Located(np.asarray(xyxy, np.float32), self.scores)

    def shifted(self, dx: float, dy: float) -> Located:
        """The same candidates with boxes moved by (dx, dy): from a window's pixels to the photo's."""
        return self.with_boxes(self.xyxy + np.float32([dx, dy, dx, dy]))

    @staticmethod
    def concat(parts: list[Located]) -> Located:
        """The candidates of several passes over one photo, in its pixels."""
        if not parts:
            return Located(np.zeros((0, 4), np.float32), np.zeros((0, len(TILES)), np.float32))
        return Located(np.concatenate([p.xyxy for p in parts]), np.concatenate([p.scores for p in parts]))

    def tiles(self, iou: float) -> np.ndarray:
        """One box per tile (xyxy): the candidates kept by NMS whatever their face, surest (`tile_there`)
        first; what a reading would keep, to decide where to look again without reading faces."""
        return self.xyxy[nms(self.xyxy, tile_there(self.scores, axis=1), iou)]


@dataclass(frozen=True)
class Locator:
    """Stage 2's one pass, as a value: the detector's model (its boxes decoded as ``bins`` says) and what a pass
    keeps (tiles surer than ``conf``, at most ``max_det``, boxes of one face overlapping less than ``iou``).
    Frozen, so a runner tuned to other thresholds (`Detector.tuned`) holds another `Locator` over the same model,
    and the passes that look again (`vision.zoom`) are given it alone, never the runner."""

    model: OnnxModel
    bins: BoxBins | None
    conf: float
    iou: float
    max_det: int

    @property
    def size(self) -> int:
        """The model's input side (the long side an image is read at by default)."""
        return self.model.size

    @property
    def stride(self) -> int | None:
        """The multiple of which a free-shaped model's input sides are; None for a fixed square input,
        which reads every image at ``size``."""
        return self.model.stride

    def __call__(self, image: np.ndarray, side: int | None = None) -> Located:
        """The candidates one pass finds in a BGR image, in its pixels. ``side``: the input's long side, when not
        the model's ``size`` (a free-shaped model only)."""
        model = self.model
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(f"expected a colour image (h, w, 3), got shape {image.shape}")
        if side is not None and side != model.size and model.stride is None:
            raise ValueError(f"this model reads a fixed {model.size}x{model.size} input, not one of side {side}")
        height, width = image.shape[:2]
        box = Letterbox.fit(height, width, side or model.size, model.stride)
        output = model.run(to_blob(box.apply(image)[None]))[0]
        xyxy, class_scores = decode(output, self.conf, self.iou, self.max_det, self.bins, (box.height, box.width))
        original = box.to_original(xyxy, height, width)
        shown = box.shown(xyxy, original)
        return Located(original[shown], in_tile_order(class_scores[shown], model.tile_index))
