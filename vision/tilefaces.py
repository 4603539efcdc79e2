"""Stage 3, read faces: each candidate tile the detector located (`vision.locate.Located`) read again from the
photo itself by the face reader and its second looks (`vision.faces`), the two readings fused (`fuse`), one box
kept per tile read alike, and the kept boxes redrawn by the box refiner when there is one (`vision.boxes`): a
`TileDetections` with each tile's best face and its runner-up. Near-identical boxes share one crop
(`crop_owners`), and a reading of the photo turned takes the faces read before for a box it finds again
(`FaceMemory`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from scoring.tiles import TILES
from vision.boxes import BoxRefiner
from vision.detections import TileDetections
from vision.faces import FaceReader
from vision.geometry import box_iou, class_aware_nms, nms
from vision.locate import Located
from vision.onnxmodel import in_tile_order, tile_there

RUNNER_UP_FLOOR = 0.05  # a second face scored under this is not worth naming
SAME_CROP = 0.9  # IoU over which two candidate boxes show the face reader the same crop: a looser bound would read
# fewer crops (a quarter fewer at 0.7), but each box's own crop is a second look at its tile, and faces read from a
# nearly identical crop add nothing
DETECTOR_WEIGHT = 0.5  # exponent of the detector's face scores beside the face reader's probabilities
SAME_READ = 0.7  # IoU over which a box shows the reader the crop of a box read before (`FaceMemory`), whose reading
# it takes: boxes that close frame the same tile with most of the same context, so reading it again adds nothing


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


@dataclass(frozen=True)
class Readers:
    """What stage 3 reads with: the face reader (None: the detector's faces are the reading), the second looks
    by name (`vision.faces.SECOND_LOOKS`), the box refiner (None: boxes as the detector drew them), and the
    quarter turns at which each crop one view leaves in doubt is read (``views``: 1, 2 or 4,
    `FaceReader.__call__`). Frozen, so a runner tuned to other views or without the refiner (`Detector.tuned`)
    holds another `Readers` over the same sessions."""

    faces: FaceReader | None
    second_looks: Mapping[str, FaceReader]
    refiner: BoxRefiner | None
    views: int = 1


def read_faces(readers: Readers, image: np.ndarray, located: Located, conf: float, iou: float, turn: int = 0,
               memory: FaceMemory | None = None) -> TileDetections:
    """The faces of the tiles located in ``image``: each read again by the face reader and fused with the
    detector's scores (`fuse`), boxes of one tile read alike merged (overlapping more than ``iou``), tiles held to
    ``conf`` (the thresholds the candidates were located at), the boxes kept redrawn by the box refiner when there
    is one (`vision.boxes`). ``turn``: the crops read as in the photo turned that many quarter turns
    (`FaceReader.__call__`); ``memory``: faces read before in this photo, taken from there where a box was read,
    and added to (the crops read here)."""
    xyxy, scores = located.xyxy, located.scores
    if readers.faces is None:  # the best face is the confidence: held to `conf` like the tile
        kept = np.flatnonzero(scores.max(axis=1) >= conf)
    else:
        owners, which = np.unique(crop_owners(xyxy, tile_there(scores, axis=1)), return_inverse=True)
        faces = _read_crops(readers, readers.faces, image, xyxy[owners], turn,
                            memory if memory is not None else FaceMemory())
        scores = fuse(scores, faces[which])  # near-identical boxes read once
        best = scores.max(axis=1)
        kept = np.sort(class_aware_nms(xyxy, best, scores.argmax(axis=1), iou))
        kept = kept[best[kept] >= conf]  # boxes of one tile read alike by the reader: one stays
    xyxy, scores = xyxy[kept], scores[kept]  # and every tile given scores at least `conf`
    if readers.refiner is not None:  # each kept box redrawn from the photo
        xyxy = readers.refiner(image, xyxy)
    return TileDetections(xyxy, *top_two(scores))


def _read_crops(readers: Readers, reader: FaceReader, image: np.ndarray, xyxy: np.ndarray, turn: int,
                memory: FaceMemory) -> np.ndarray:
    """The faces (n × len(TILES)) of the crops at ``xyxy``, read by ``reader`` (the face reader of ``readers``)
    and their second looks: remembered, or read and remembered."""
    known = memory.recall(xyxy)
    new = np.flatnonzero(known < 0)
    read = xyxy[new]
    faces = in_tile_order(reader(image, read, readers.views, turn), reader.tile_index)
    for look in readers.second_looks.values():  # each rereads the crops read mostly as its faces
        faces = look.second_look(image, read, faces, readers.views, turn)
    memory.remember(read, faces)
    every = np.zeros((len(xyxy), len(TILES)), np.float32)
    every[new] = faces
    every[known >= 0] = memory.faces[known[known >= 0]]
    return every
