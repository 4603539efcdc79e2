"""A second look at each tile's face: a small classifier reads every detected tile from the photo itself.

The detector reads faces from the whole photo shrunk to a few hundred pixels, where a hand's tiles are
some 25 pixels wide, and it misreads faces far more often than it misses tiles (held-out real photos:
AP50 0.80 for tiles located whatever face was read, 0.60 with the face). The face reader crops each
detected box from the full-resolution photo, square with a margin of context, and classifies it at
`FaceReader.size` pixels. Training (`models/training/faces.py`) uses the same crop (`square_crop`), with the box
jittered and the crop turned by multiples of 90° so a tile lying sideways or upside down reads alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np

from vision.onnxmodel import PAD_VALUE, OnnxModel, to_blob
from vision.weights import FACE_READER, SECOND_LOOKS, shipped

# The second-look readers (`FaceReader.second_look`, their files `SECOND_LOOKS`) a `Detector` loads beside the face
# reader each read a few faces the face reader confuses (flowers and seasons; the 萬 characters), at a larger size.
MARGIN = 0.12  # of the box's long side, kept around it on every side
SURE_VIEW = 0.8  # a crop whose first view a reader reads as one face at this probability is not read at its other
# views (`FaceReader.__call__`): most crops are read that surely, and the other turns change none of them, so their
# time (a quarter of a scan's reading) goes to the doubtful crops only. Each reader decides for itself: deciding on
# the readers' joint reading would read a doubtful crop's first view twice.
SURE_READ = 0.9  # a crop the reader before read as one face at this probability is not looked at again by a second
# look: about half the characters' second looks and a third of the flowers' are of crops that sure, and a second
# look changes none of them; a lower bound would skip second looks that still change some characters' readings
SECOND_LOOK = 0.5  # a crop whose reading puts this share on a second-look reader's faces is read again by it
VIEW_TURNS: dict[int, tuple[int, ...]] = {1: (0,), 2: (0, 2), 4: (0, 1, 2, 3)}
"""The quarter turns of each crop a reader reads for a number of views (`FaceReader.__call__`)."""


def checked_views(views: int) -> int:
    """``views`` when the readers read crops at that many quarter turns (`VIEW_TURNS`); else a ValueError."""
    if views not in VIEW_TURNS:
        raise ValueError(f"views must be one of {sorted(VIEW_TURNS)}, not {views}")
    return views


def default_face_model_path(name: str = FACE_READER) -> Path:
    """A shipped reader (`vision.weights`; it may be absent in a checkout without one)."""
    return shipped(name)


def face_model_path(face_model: str | Path | None = None, faces: bool = True,
                    name: str = FACE_READER) -> Path | None:
    """A model a `Detector` uses beside its own (the face reader, or with ``name`` a second look's file or the
    box refiner's, `vision.boxes`): ``face_model`` when given, else the shipped one when the checkout has it;
    None with ``faces=False`` (faces read by the detector alone, or boxes left as drawn)."""
    if not faces:
        return None
    if face_model is not None:
        return Path(face_model)
    shipped = default_face_model_path(name)
    return shipped if shipped.is_file() else None


def reader_paths(face_model: str | Path | None = None, second_looks: Mapping[str, str | Path | None] | None = None,
                 faces: bool = True) -> tuple[Path | None, dict[str, Path]]:
    """The face reader and the second-look readers (by name, `SECOND_LOOKS`) a `Detector` loads: each the
    file given in ``second_looks`` or else the shipped one (`face_model_path`); no second look without a
    face reader, as it looks again at the face reader's reading."""
    face = face_model_path(face_model, faces)
    given = second_looks or {}
    unknown = sorted(set(given) - set(SECOND_LOOKS))
    if unknown:
        raise ValueError(f"no second-look reader named {', '.join(unknown)} (known: {', '.join(SECOND_LOOKS)})")
    looks = {name: face_model_path(given.get(name), face is not None, file) for name, file in SECOND_LOOKS.items()}
    return face, {name: path for name, path in looks.items() if path is not None}


def crop_window(box: np.ndarray, margin: float = MARGIN) -> tuple[float, float, float]:
    """The square around a box the reader sees: centre x, centre y and side, in image pixels."""
    x1, y1, x2, y2 = (float(v) for v in box)
    return (x1 + x2) / 2, (y1 + y2) / 2, max(x2 - x1, y2 - y1, 1.0) * (1 + 2 * margin)


def window(image: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> np.ndarray:
    """The pixels of ``image`` in columns ``x0``..``x1`` and rows ``y0``..``y1`` (ends excluded): read in place
    when they lie inside it, else a copy, grey where they reach past it."""
    height, width = image.shape[:2]
    xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if (xa, ya, xb, yb) == (x0, y0, x1, y1):
        return image[ya:yb, xa:xb]
    patch = np.full((y1 - y0, x1 - x0, 3), PAD_VALUE, np.uint8)
    if xb > xa and yb > ya:
        patch[ya - y0:yb - y0, xa - x0:xb - x0] = image[ya:yb, xa:xb]
    return patch


def shrunk(patch: np.ndarray, kx: int, ky: int) -> np.ndarray:
    """``patch`` (its sides multiples of ``kx`` and ``ky``) shrunk by those whole factors, each pixel the mean of
    the ``kx`` × ``ky`` it replaces. Why: OpenCV's area resampling by a whole factor is a plain box average (a
    window of 200 pixels to 100: 11 µs), where by any other factor it costs in proportion to the pixels it starts
    from (the same window to 96: 189 µs); a large shrink made by a whole factor first leaves the rest, under 2 to
    1, to start from a quarter of the pixels or fewer."""
    height, width = patch.shape[:2]
    return cv2.resize(patch, (width // kx, height // ky), interpolation=cv2.INTER_AREA)


def square_crop(image: np.ndarray, cx: float, cy: float, side: float, size: int) -> np.ndarray:
    """The square window of ``side`` pixels centred at (cx, cy), resized to ``size``×``size``; parts
    outside the image are grey. Shrunk by area, so a 12-MP tile does not alias; a window of twice the crop or
    more by its whole factor first (`shrunk`; the window grown to a multiple of it, by under two of the crop's
    pixels, keeping its parity so that a window centred on a pixel edge stays so)."""
    x0, y0 = round(cx - side / 2), round(cy - side / 2)
    s = max(1, round(side))
    whole = s // size
    if whole >= 2:
        grown = -(-s // whole) * whole
        grown += whole if (grown - s) % 2 and whole % 2 else 0
        x0, y0, s = x0 - (grown - s) // 2, y0 - (grown - s) // 2, grown
    patch = window(image, x0, y0, x0 + s, y0 + s)
    if whole >= 2:
        patch = shrunk(patch, whole, whole)
    interpolation = cv2.INTER_AREA if patch.shape[0] > size else cv2.INTER_LINEAR
    return cv2.resize(patch, (size, size), interpolation=interpolation)


class FaceReader:
    """The face classifier (ONNX, softmax over its classes); load once, call with a photo and boxes."""

    def __init__(self, model_path: str | Path, threads: int = 2) -> None:
        self._model = OnnxModel.load(Path(model_path), threads, "face model", "models.training.faces")
        self.size, self.classes, self.version = self._model.size, self._model.classes, self._model.version
        self.tile_index = self._model.tile_index

    def __call__(self, image: np.ndarray, xyxy: np.ndarray, views: int = 1, turn: int = 0) -> np.ndarray:
        """Probabilities (n, classes) of each box's face, in the order of ``self.classes``. ``views`` (1, 2
        or 4, `VIEW_TURNS`): a crop whose first view reads no face at `SURE_VIEW` is read at that many
        quarter turns and the readings' geometric mean taken; the reader learnt faces at every quarter
        turn, and their errors differ from turn to turn, so their mean errs less. ``turn``: quarter turns (counter-clockwise, as `np.rot90`)
        added to each view, so that a crop reads as in the photo turned that way."""
        checked_views(views)
        if len(xyxy) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        crops = np.stack([square_crop(image, *crop_window(box), self.size) for box in xyxy])
        first, *others = [(k + turn) % 4 for k in VIEW_TURNS[views]]
        probs = self._model.run(to_blob(np.rot90(crops, first, axes=(1, 2)))).astype(np.float32)
        doubtful = np.flatnonzero(probs.max(axis=1) < SURE_VIEW) if others else np.zeros(0, np.int64)
        if len(doubtful):
            turned = np.concatenate([np.rot90(crops[doubtful], k, axes=(1, 2)) for k in others])
            every = np.concatenate([probs[doubtful], self._model.run(to_blob(turned))])
            mean = np.exp(np.log(every.reshape(views, len(doubtful), len(self.classes)) + 1e-12).mean(axis=0))
            probs[doubtful] = mean / mean.sum(axis=1, keepdims=True)
        return probs

    def second_look(self, image: np.ndarray, xyxy: np.ndarray, probs: np.ndarray, views: int = 1,
                    turn: int = 0) -> np.ndarray:
        """Tile-vocabulary probabilities (n, 43) of the boxes ``xyxy`` with the crops that another reader
        gave mostly (`SECOND_LOOK`) to this reader's few faces read again by it, at its own larger size:
        the share on those faces is kept and spread by both readings (their geometric mean, renormalised),
        so two readers agreeing make a surer reading than either. Why: the flowers and seasons of a set
        are one painting told apart by a small number and character, and the characters' numerals (三五
        七, 六九) a few strokes apart: details lost in the face reader's 48 px. A crop read as one face at
        `SURE_READ` or more is left as read. ``views``, ``turn``: as in `__call__`."""
        share = probs[:, self.tile_index].sum(axis=1)
        again = np.flatnonzero((share >= SECOND_LOOK) & (probs.max(axis=1) < SURE_READ))
        if len(again) == 0:
            return probs
        probs = probs.copy()
        both = np.sqrt(probs[np.ix_(again, self.tile_index)] * self(image, xyxy[again], views, turn)) + 1e-12
        probs[np.ix_(again, self.tile_index)] = share[again, None] * both / both.sum(axis=1, keepdims=True)
        return probs
