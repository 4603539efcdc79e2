"""The tile detector at run time: our YOLO model as ONNX, run by onnxruntime (never torch).

`Detector` loads the session once; each call letterboxes the photo (aspect ratio kept, grey padding, as
Ultralytics trains), decodes the output (`decode`: boxes, or the box distributions of a head exported without
its box decoding, `BoxBins`, and class scores per anchor), applies class-aware NMS, maps boxes back to the
original pixels (`Detector.locate`), lets the face reader (`vision.faces`) read each tile again from the photo
itself and the box refiner (`vision.boxes`) redraw its box (`Detector.read`), and returns each tile's best face
(and its runner-up) as a `TileDetections`. The two steps are apart so that a pass whose tiles will be read again zoomed
(`vision.zoom`) costs the detector only.
"""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from scoring.tiles import TILES
from vision.boxes import BoxRefiner
from vision.detections import TileDetections
from vision.faces import FaceReader, checked_views, face_model_path, reader_paths
from vision.geometry import box_area, box_iou
from vision.imagefile import Photo, decode_photo
from vision.onnxmodel import PAD_VALUE, OnnxModel, to_blob
from vision.weights import BOX_REFINER, DETECTOR, shipped

MAX_CANDIDATES = 30_000  # boxes entering NMS at most (Ultralytics' max_nms)
RUNNER_UP_FLOOR = 0.05  # a second face scored under this is not worth naming
NMS_BLOCK = 1024  # boxes whose overlaps `nms` works out at once (a 1024² matrix, 1 MB of flags)
SAME_CROP = 0.9  # IoU over which two candidate boxes show the face reader the same crop: a looser bound would read
# fewer crops (a quarter fewer at 0.7), but each box's own crop is a second look at its tile, and faces read from a
# nearly identical crop add nothing
DETECTOR_WEIGHT = 0.5  # exponent of the detector's face scores beside the face reader's probabilities
NMS_IOU = 0.5  # IoU over which two boxes of one face are one tile: tiles standing in a row overlap far less, and at
# 0.6 a tile read twice (two boxes a few pixels apart) stayed twice, which no hand can hold
SAME_READ = 0.7  # IoU over which a box shows the reader the crop of a box read before (`FaceMemory`), whose reading
# it takes: boxes that close frame the same tile with most of the same context, so reading it again adds nothing
SHOWN = 0.25  # the least share of a box that lies in the image for it to be a candidate (`Letterbox.shown`): a
# detector may draw faint boxes in the input's padding, which clipped to the photo's edge have no height, and a
# scan divides by tile sizes


def default_model_path() -> Path:
    """The shipped detector (`vision.weights`); a clear error if this checkout has none yet."""
    path = shipped(DETECTOR)
    if not path.is_file():
        raise FileNotFoundError(f"no shipped detector at {path}: train one (`mcr train`) or pass --model")
    return path


def load_image(path: str | Path) -> np.ndarray:
    """A photo as a BGR uint8 array, EXIF orientation applied; a clear error for anything else."""
    return load_photo(path).pixels


def load_photo(path: str | Path, min_side: int | None = None) -> Photo:
    """A photo file, EXIF-upright, a large JPEG maybe decoded reduced (`decode_photo`); a clear error
    naming the file for anything else."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path}: a folder, not a photo file")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise OSError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        return decode_photo(data, min_side)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


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


def nms(xyxy: np.ndarray, scores: np.ndarray, iou_threshold: float) -> np.ndarray:
    """Indices kept by greedy non-maximum suppression, best score first. The overlaps are worked out a
    block of `NMS_BLOCK` boxes at a time (against each other and the boxes kept before), so that only a
    kept box costs a vector operation: 3-5x faster than one box at a time at a scan's few hundred candidates."""
    order = np.argsort(-scores, kind="stable")
    boxes = xyxy[order]
    keep = np.zeros(len(order), bool)
    for start in range(0, len(order), NMS_BLOCK):
        part = boxes[start:start + NMS_BLOCK]
        free = ~(box_iou(part, boxes[:start][keep[:start]]) > iou_threshold).any(axis=1)
        over = box_iou(part, part) > iou_threshold
        for k in range(len(part)):
            if free[k]:
                keep[start + k] = True
                free[k + 1:] &= ~over[k, k + 1:]
    return order[keep].astype(np.int64)


def class_aware_nms(xyxy: np.ndarray, scores: np.ndarray, class_id: np.ndarray, iou: float) -> np.ndarray:
    """NMS within each class only: boxes of different classes are shifted apart so they never overlap."""
    if len(xyxy) == 0:
        return np.zeros(0, np.int64)
    offset = class_id[:, None].astype(np.float32) * (float(xyxy.max()) + 1.0)
    return nms(xyxy + offset, scores, iou)


def checked_conf(conf: float) -> float:
    """A confidence threshold, refused outside (0, 1) where it would keep every box or none."""
    if not 0.0 < conf < 1.0:
        raise ValueError(f"need 0 < conf < 1 (got {conf})")
    return conf


def checked_iou(iou: float) -> float:
    """An NMS overlap threshold, refused outside (0, 1] where no box would be kept or merged."""
    if not 0.0 < iou <= 1.0:
        raise ValueError(f"need 0 < iou <= 1 (got {iou})")
    return iou


def tile_there(class_scores: np.ndarray, axis: int) -> np.ndarray:
    """How sure a model is of a tile, whatever its face: the noisy-or of its independent per-face
    scores along ``axis``. A tile the detector hesitates over between faces (a flower of a set it has
    not seen, eight faces at 0.1 each) is still surely a tile: its best face alone would drop it."""
    return 1.0 - np.prod(1.0 - class_scores, axis=axis)


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


def top_two(class_scores: np.ndarray) -> tuple[np.ndarray, ...]:
    """Per row of scores (at least two classes), in `TileDetections`' column order: the best score and
    its class, the second best class (-1 when it scores under `RUNNER_UP_FLOOR`) and its score."""
    rows = np.arange(len(class_scores))
    best = class_scores.argmax(axis=1)
    others = class_scores.copy()
    others[rows, best] = -np.inf
    second = others.argmax(axis=1)
    second_score = others[rows, second].astype(np.float32)
    second = np.where(second_score >= RUNNER_UP_FLOOR, second, -1)
    return class_scores[rows, best].astype(np.float32), best, second, second_score


def in_tile_order(scores: np.ndarray, tile_index: np.ndarray) -> np.ndarray:
    """A model's per-class columns placed in the tile vocabulary's order (faces it lacks score 0)."""
    placed = np.zeros((len(scores), len(TILES)), np.float32)
    placed[:, tile_index] = scores
    return placed


def crop_owners(xyxy: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """For each box, the surest box (by ``scores``) overlapping it by more than `SAME_CROP`: the box NMS
    at that threshold kept in its place (itself when kept). Class-aware NMS leaves a box per face the
    detector hesitates between, nearly the same box each time, and zoomed windows overlap (12-MP
    benchmark: 43 candidates, 18 crops): one crop is read for them all."""
    if len(xyxy) == 0:
        return np.zeros(0, np.int64)
    kept = nms(xyxy, scores, SAME_CROP)  # surest first: the first kept box over the threshold suppressed it
    return kept[(box_iou(xyxy, xyxy[kept]) > SAME_CROP).argmax(axis=1)]


def fuse(detector_scores: np.ndarray, face_probs: np.ndarray) -> np.ndarray:
    """Per tile and face: how sure we are of a tile there, whatever its face, times the face's share of
    the product of the face reader's probability and the detector's score (weighted by
    `DETECTOR_WEIGHT`): the reader, which sees the tile at full resolution, leads. "A tile, whatever
    its face" is the noisy-or of the detector's independent per-face scores: a tile it hesitates over
    between two faces is still surely a tile."""
    joint = face_probs * (detector_scores + 1e-6) ** DETECTOR_WEIGHT
    joint /= joint.sum(axis=1, keepdims=True)
    return (joint * tile_there(detector_scores, axis=1)[:, None]).astype(np.float32)


@dataclass(frozen=True)
class Located:
    """The detector's candidate tiles in one image, before their faces are read: boxes (n×4, the image's
    pixels) and the detector's score of every face in the tile vocabulary's order (n×len(TILES)). Its
    class-aware NMS keeps a box per face it hesitates between, so one tile may have several boxes here."""

    xyxy: np.ndarray
    scores: np.ndarray

    def __getitem__(self, keep: np.ndarray) -> Located:
        return Located(self.xyxy[keep], self.scores[keep])

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


@dataclass
class FaceMemory:
    """The faces the readers read in one photo: the boxes read (the photo's pixels) and their reading (n ×
    len(TILES)). Another reading of the photo (a turn of it, `vision.views`) takes a tile's faces from
    here when its box shows the reader nearly the same crop (`SAME_READ`) instead of reading it again:
    the first reading read each crop in doubt at four quarter turns, which is what the turns would add. `remember`
    builds new arrays, so a copy (`copy.copy`) is a reading's own memory: what it adds, the original lacks."""

    xyxy: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    faces: np.ndarray = field(default_factory=lambda: np.zeros((0, len(TILES)), np.float32))

    def recall(self, xyxy: np.ndarray) -> np.ndarray:
        """For each box, the index of the remembered box that shows the same crop; -1 where none does."""
        if len(self.xyxy) == 0 or len(xyxy) == 0:
            return np.full(len(xyxy), -1, np.int64)
        overlap = box_iou(xyxy, self.xyxy)
        best = overlap.argmax(axis=1)
        return np.where(overlap[np.arange(len(xyxy)), best] >= SAME_READ, best, -1)

    def remember(self, xyxy: np.ndarray, faces: np.ndarray) -> None:
        self.xyxy = np.concatenate([self.xyxy, xyxy])
        self.faces = np.concatenate([self.faces, faces])


class Detector:
    """Finds and reads every tile in a photo with our ONNX model, each face read again by the face
    reader (`vision.faces`) when there is one; load once, call per image.

    ``face_model``: a face reader's ONNX file; None takes the shipped one when the checkout has it.
    ``second_looks``: likewise, by name (`vision.faces.SECOND_LOOKS`), the readers that look again at tiles
    read as one of their few faces (flowers and seasons, characters). ``faces=False`` reads faces with the
    detector alone. ``views``: the quarter turns at which the readers read each crop one view leaves in doubt
    (1, 2 or 4: `FaceReader.__call__`, `vision.faces.SURE_VIEW`); 1 by default, as `mcr detect`, `eval` and
    `label` read (`scan` reads its first reading at `vision.scan.SCAN_VIEWS`). ``box_model``: the box
    refiner's ONNX file (`vision.boxes`), None the shipped one when the checkout has it; ``refine=False``
    keeps the boxes as the detector drew them."""

    def __init__(
        self,
        model_path: str | Path | None = None,
        threads: int = 2,
        conf: float = 0.25,
        iou: float = NMS_IOU,
        max_det: int = 300,
        face_model: str | Path | None = None,
        faces: bool = True,
        second_looks: Mapping[str, str | Path | None] | None = None,
        views: int = 1,
        box_model: str | Path | None = None,
        refine: bool = True,
    ) -> None:
        if threads < 1:
            raise ValueError(f"need threads >= 1 (got {threads})")
        checked_conf(conf)
        checked_iou(iou)
        self.views = checked_views(views)
        path = Path(model_path) if model_path is not None else default_model_path()
        self._model = OnnxModel.load(path, threads, "model", "models.training.export")
        self.size, self.classes = self._model.size, self._model.classes
        self.bins = BoxBins.of(self._model.metadata)
        self.conf, self.iou, self.max_det = conf, iou, max_det
        face_path, look_paths = reader_paths(face_model, second_looks, faces)
        self.faces = FaceReader(face_path, threads) if face_path is not None else None
        self.second_looks = {name: FaceReader(path, threads) for name, path in look_paths.items()}
        refiner_path = face_model_path(box_model, refine, BOX_REFINER)
        self.refiner = BoxRefiner(refiner_path, threads) if refiner_path is not None else None

    def __call__(self, image: np.ndarray) -> TileDetections:
        """Detections for one BGR image (as `load_image` or cv2 gives it), in its own pixel coordinates."""
        return self.read(image, self.locate(image))

    def tuned(self, views: int | None = None, conf: float | None = None, iou: float | None = None,
              refine: bool | None = None) -> Detector:
        """The same detector (its sessions shared, nothing loaded again) reading each crop at ``views``
        quarter turns, keeping tiles surer than ``conf`` and boxes of one face overlapping less than ``iou``,
        each as before when not given; ``refine=False``: its boxes as drawn, no refiner."""
        other = copy.copy(self)
        if refine is False:
            other.refiner = None
        if iou is not None:
            other.iou = checked_iou(iou)
        if views is not None:
            other.views = checked_views(views)
        if conf is not None:
            other.conf = checked_conf(conf)
        return other

    @property
    def version(self) -> str:
        """The detector's version and those of the models it reads with (``+faces-…``, a second look's, ``+boxes-…``)."""
        version = self._model.version
        if self.faces is not None:
            version += f"+faces-{self.faces.version}"
        version += "".join(f"+{name}-{reader.version}" for name, reader in self.second_looks.items())
        return version + (f"+boxes-{self.refiner.version}" if self.refiner is not None else "")

    @property
    def stride(self) -> int | None:
        """The multiple of which a free-shaped model's input sides are; None for a fixed square input,
        which reads every image at ``size``."""
        return self._model.stride

    def locate(self, image: np.ndarray, side: int | None = None) -> Located:
        """Where the detector sees tiles in a BGR image, before the face reader reads them: enough to
        decide whether the photo must be read again zoomed (`vision.zoom`), at the cost of the detector only.
        ``side``: the input's long side, when not the model's ``size`` (a free-shaped model only)."""
        if image.ndim != 3 or image.shape[2] != 3:
            raise ValueError(f"expected a colour image (h, w, 3), got shape {image.shape}")
        if side is not None and side != self.size and self.stride is None:
            raise ValueError(f"this model reads a fixed {self.size}x{self.size} input, not one of side {side}")
        height, width = image.shape[:2]
        box = Letterbox.fit(height, width, side or self.size, self.stride)
        output = self._model.run(to_blob(box.apply(image)[None]))[0]
        xyxy, class_scores = decode(output, self.conf, self.iou, self.max_det, self.bins, (box.height, box.width))
        original = box.to_original(xyxy, height, width)
        shown = box.shown(xyxy, original)
        return Located(original[shown], in_tile_order(class_scores[shown], self._model.tile_index))

    def read(self, image: np.ndarray, located: Located, turn: int = 0, memory: FaceMemory | None = None,
             ) -> TileDetections:
        """The faces of the tiles `locate` found in ``image``: each read again by the face reader and fused
        with the detector's scores (`fuse`), boxes of one tile read alike merged, tiles held to ``conf``, the boxes
        kept redrawn by the box refiner when there is one (`vision.boxes`). ``turn``: the crops read as in the photo turned that many quarter turns (`FaceReader.__call__`);
        ``memory``: faces read before in this photo, taken from there where a box was read, and added to (the
        crops read here)."""
        xyxy, scores = located.xyxy, located.scores
        if self.faces is None:  # the best face is the confidence: held to `conf` like the tile
            kept = np.flatnonzero(scores.max(axis=1) >= self.conf)
        else:
            readers, which = np.unique(crop_owners(xyxy, tile_there(scores, axis=1)), return_inverse=True)
            faces = self._faces(self.faces, image, xyxy[readers], turn,
                                memory if memory is not None else FaceMemory())
            scores = fuse(scores, faces[which])  # near-identical boxes read once
            best = scores.max(axis=1)
            kept = np.sort(class_aware_nms(xyxy, best, scores.argmax(axis=1), self.iou))
            kept = kept[best[kept] >= self.conf]  # boxes of one tile read alike by the reader: one stays
        xyxy, scores = xyxy[kept], scores[kept]  # and every tile given scores at least `conf`
        if self.refiner is not None:  # each kept box redrawn from the photo
            xyxy = self.refiner(image, xyxy)
        return TileDetections(xyxy, *top_two(scores))

    def _faces(self, reader: FaceReader, image: np.ndarray, xyxy: np.ndarray, turn: int,
               memory: FaceMemory) -> np.ndarray:
        """The faces (n × len(TILES)) of the crops at ``xyxy``, read by ``reader`` and the second looks:
        remembered, or read and remembered."""
        known = memory.recall(xyxy)
        new = np.flatnonzero(known < 0)
        read = xyxy[new]
        faces = in_tile_order(reader(image, read, self.views, turn), reader.tile_index)
        for look in self.second_looks.values():  # each rereads the crops read mostly as its faces
            faces = look.second_look(image, read, faces, self.views, turn)
        memory.remember(read, faces)
        every = np.zeros((len(xyxy), len(TILES)), np.float32)
        every[new] = faces
        every[known >= 0] = memory.faces[known[known >= 0]]
        return every
