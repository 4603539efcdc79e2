"""Reading a photo from all four sides. The detector and the face reader are not rotation-equivariant:
a tile missed or misread the photo's way up is often found when the photo is turned a quarter or a half
turn. Turning by right angles is exact (no resampling, boxes map back without loss), so the four readings
can vote: every tile any turn found, its face by the scores the turns summed, its confidence the mean
over the four turns (0 from a turn that did not see it). Read this way, a photo gives up far more of its
faces than read once; it costs three more detector passes (and reading the crops
only they find, with a `FaceMemory`), so `scan` spends them only on photos whose first reading is not sure,
and only until the vote of the turns read so far is (`turns_read`).

Each reading runs the detection stages in order, with the values a `Detector` holds: locate
(`vision.zoom.locate_turned`, given its `Locator`), read faces (`vision.tilefaces.read_faces`, given its `Readers`),
merge (`vision.overlaps.merge_overlaps`; the turns' readings by `vision.overlaps.vote`).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator

import cv2
import numpy as np

from vision.detections import TileDetections
from vision.detector import Detector
from vision.geometry import tile_size, tiles_region
from vision.overlaps import MIN_VOTE, merge_overlaps, vote
from vision.tilefaces import FaceMemory, read_faces
from vision.zoom import locate_turned

OTHER_TURNS = (1, 3, 2)  # quarter turns read besides the photo as given, in this order (`turns_read`)
CONTEXT = 2.5  # tile sizes kept around the tiles the first reading found
TILE_PIXELS = 64.0  # short side the other turns see a tile at, at most


def read_turned(image: np.ndarray, detector: Detector, turns: int, zoom: bool = True,
                tile: float | None = None, memory: FaceMemory | None = None) -> TileDetections:
    """The tiles found in the photo turned ``turns`` quarter turns (`locate_turned`), one reading per tile,
    their crops read as that turn shows them (``memory``: as `read_faces`, added to)."""
    located = locate_turned(image, detector.locator, turns, zoom, tile)
    read = read_faces(detector.readers, image, located, detector.conf, detector.iou, turns, memory)
    return merge_overlaps(read)


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
        seen = locate_turned(part, detector.locator, k, zoom, tile)
        in_photo = seen.with_boxes(seen.xyxy * to_photo + np.float32([x0, y0, x0, y0]))
        read = read_faces(detector.readers, image, in_photo, detector.conf, detector.iou, k, copy.copy(memory))
        readings.append(merge_overlaps(read))
        yield list(readings)
