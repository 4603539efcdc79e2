"""Reading a photo from all four sides. The detector and the face reader are not rotation-equivariant:
a tile missed or misread the photo's way up is often found when the photo is turned a quarter or a half
turn. Turning by right angles is exact (no resampling, boxes map back without loss), so the four readings
can vote: every tile any turn found, its face by the scores the turns summed, its confidence the mean
over the four turns (0 from a turn that did not see it). Read this way, a photo gives up far more of its
faces than read once; it costs three more detector passes (and reading the crops
only they find, with a `FaceMemory`), so `scan` spends them only on photos whose first reading is not sure,
and only until the vote of the turns read so far is (`turns_read`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import cv2
import numpy as np

from scoring.tiles import TILES
from vision.detections import TileDetections
from vision.detector import Detector, FaceMemory, Located
from vision.geometry import box_iou
from vision.overlaps import merge_overlaps
from vision.zoom import locate_tiles, tile_size, tiles_region

OTHER_TURNS = (1, 3, 2)  # quarter turns read besides the photo as given, in this order (`turns_read`)
SAME_TILE = 0.5  # IoU above which boxes from two turns are one tile
CONTEXT = 2.5  # tile sizes kept around the tiles the first reading found
TILE_PIXELS = 64.0  # short side the other turns see a tile at, at most
MIN_VOTE = 0.05  # scan's floor: the mean confidence over the turns under which a tile is dropped (one turn
# at 0.2 keeps it: on the held-out hand photos the union of what any turn saw reads most hands exactly)


def unturn_boxes(xyxy: np.ndarray, turns: int, width: int, height: int) -> np.ndarray:
    """Boxes found in ``np.rot90(photo, turns)`` (quarter turns counter-clockwise) in the pixels of the
    photo itself, ``width`` × ``height``."""
    x1, y1, x2, y2 = np.asarray(xyxy, np.float32).reshape(-1, 4).T
    for turn in range(turns, 0, -1):  # undo the last quarter turn first
        before = width if (turn - 1) % 2 == 0 else height  # the width of the image that turn was applied to
        x1, y1, x2, y2 = before - y2, x1, before - y1, x2
    return np.stack([x1, y1, x2, y2], axis=1)


ROTATIONS = {1: cv2.ROTATE_90_COUNTERCLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_CLOCKWISE}


def turned(image: np.ndarray, turns: int) -> np.ndarray:
    """``np.rot90(image, turns)`` (quarter turns counter-clockwise) as a contiguous image, by cv2: the same
    pixels 15-70x faster than numpy's copy of a turned view (a 1300x900 region: 10 -> 0.5 ms)."""
    turns %= 4
    return cv2.rotate(image, ROTATIONS[turns]) if turns else np.ascontiguousarray(image)


def locate_turned(image: np.ndarray, detector: Detector, turns: int, zoom: bool = True,
                  tile: float | None = None) -> Located:
    """The tiles located in ``image`` turned ``turns`` quarter turns, in the pixels of ``image``; ``zoom``:
    small tiles located again zoomed (`vision.zoom`, ``tile`` their size when known), else the
    detector's one pass."""
    photo = turned(image, turns)
    found = locate_tiles(photo, detector, tile) if zoom else detector.locate(photo)
    return found.with_boxes(unturn_boxes(found.xyxy, turns, image.shape[1], image.shape[0]))


def read_turned(image: np.ndarray, detector: Detector, turns: int, zoom: bool = True,
                tile: float | None = None, memory: FaceMemory | None = None) -> TileDetections:
    """The tiles found in the photo turned ``turns`` quarter turns (`locate_turned`), one reading per tile,
    their crops read as that turn shows them (``memory``: as `Detector.read`, added to)."""
    return merge_overlaps(detector.read(image, locate_turned(image, detector, turns, zoom, tile), turns, memory))


def vote(readings: list[TileDetections], floor: float = MIN_VOTE) -> TileDetections:
    """One reading from several of the same photo: tiles matched across readings by overlap, each face
    scored by the confidences the readings gave it (runner-ups included) over the number of readings;
    the best face is read, the second is its runner-up; the box is the mean of the readings' boxes (each
    turn's boxes have their own bias, and the layout tells sideways tiles by their boxes' shape: the mean
    cancels part of that bias, where the surest box keeps it). Tiles scored under ``floor`` are dropped."""
    every = TileDetections.concat(readings)
    if len(every) == 0:
        return every
    source = np.concatenate([np.full(len(r), k) for k, r in enumerate(readings)])
    overlap = box_iou(every.xyxy, every.xyxy)
    free = np.ones(len(every), bool)
    boxes, scores = [], []
    for seed in np.argsort(-every.confidence, kind="stable").tolist():
        if not free[seed]:
            continue
        members = np.union1d(np.flatnonzero(free & (overlap[seed] > SAME_TILE)), [seed])  # a 0-area box too
        free[members] = False
        score = np.zeros(len(TILES), np.float32)
        voters = []
        for k in np.unique(source[members]):  # each reading votes once: with its surest box here
            mine = members[source[members] == k]
            j = mine[np.argmax(every.confidence[mine])]
            voters.append(j)
            score[every.class_id[j]] += every.confidence[j]
            if every.runner_up[j] >= 0:
                score[every.runner_up[j]] += every.runner_up_confidence[j]
        boxes.append(every.xyxy[voters].mean(axis=0))
        scores.append(score / len(readings))
    score = np.array(scores)
    order = np.argsort(-score, axis=1)[:, :2]
    best, second = np.take_along_axis(score, order, axis=1).T
    voted = TileDetections(np.array(boxes), best, order[:, 0], np.where(second > 0, order[:, 1], -1), second)
    return voted[voted.confidence >= floor]


def photo_reader(detector: Detector, all_sides: bool) -> Detector | AllSides:
    """How `mcr detect`, `mcr eval` and `mcr label` read a photo: the detector's one pass, or with
    ``all_sides`` the four turns' vote (`AllSides`)."""
    return AllSides(detector) if all_sides else detector


class AllSides:
    """A detector that reads each photo from its four sides, whole (`read_all_sides` without zoom), its
    tiles held to the detector's threshold: what ``--all-sides`` reads with in `mcr detect`, `mcr eval`
    and `mcr label`."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.size = detector.size  # the model's input side, as a `Detector` tells it

    def __call__(self, image: np.ndarray) -> TileDetections:
        return read_all_sides(image, self.detector, zoom=False, floor=self.detector.conf)


def read_all_sides(image: np.ndarray, detector: Detector, upright: TileDetections | None = None,
                   zoom: bool = True, floor: float = MIN_VOTE, memory: FaceMemory | None = None) -> TileDetections:
    """The four turns' vote (`turns_read`, to its last turn); ``floor``: as in `vote`."""
    *_, readings = turns_read(image, detector, upright, zoom, memory)
    return vote(readings, floor)


def turns_read(image: np.ndarray, detector: Detector, upright: TileDetections | None = None, zoom: bool = True,
               memory: FaceMemory | None = None) -> Iterator[list[TileDetections]]:
    """The readings of the photo as given and of each other turn read so far, after each of `OTHER_TURNS` in
    turn: a caller sure of their vote reads no more turns. ``upright`` is the reading of the photo as given,
    when already made. With ``zoom`` (as `scan` reads) the other turns locate tiles only in the region of the
    tiles the first found (``CONTEXT`` tile sizes around, the whole photo when it found none), scaled down to
    tiles of ``TILE_PIXELS``: the detector needs no more, and a 12-megapixel photo would cost more to turn and
    shrink than to read; their faces are read from the photo itself. Without (as `mcr detect --all-sides`),
    each turn is the detector's one pass over the whole photo. ``memory``: the faces read so far in the photo
    (`FaceMemory`; a first reading made here adds to it): each other turn takes from it the faces of the tiles
    it finds again and reads the others as it sees them, for itself alone (a tile the first reading lacked is
    read by each turn that finds it: three views, not one remembered)."""
    first = upright if upright is not None else read_turned(image, detector, 0, zoom, memory=memory)
    height, width = image.shape[:2]
    x0, y0, x1, y1 = 0, 0, width, height
    part, tile = image, None
    if zoom and len(first):
        tile = tile_size(first.xyxy)
        x0, y0, x1, y1 = tiles_region(first.xyxy, round(CONTEXT * tile), width, height)
        part = image[y0:y1, x0:x1]
        if tile > TILE_PIXELS:
            part = cv2.resize(part, None, fx=TILE_PIXELS / tile, fy=TILE_PIXELS / tile, interpolation=cv2.INTER_AREA)
            tile = TILE_PIXELS
    to_photo = np.float32([(x1 - x0) / part.shape[1], (y1 - y0) / part.shape[0]] * 2)
    readings = [first]
    for k in OTHER_TURNS:
        seen = locate_turned(part, detector, k, zoom, tile)
        in_photo = seen.with_boxes(seen.xyxy * to_photo + np.float32([x0, y0, x0, y0]))
        readings.append(merge_overlaps(detector.read(image, in_photo, k, copy.copy(memory))))
        yield list(readings)
