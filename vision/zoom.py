"""Stage 2, locate, at a useful size and at any turn of the photo (a `Located` out). A hand is often a thin
strip in a large photo, and the detector reads its input at a few hundred pixels. When the first pass finds
small tiles, the region holding them is read again so that its tiles reach a useful size in the model's input:
in one pass at a larger input when the detector's input is free-shaped and the region fits `MAX_SIDE`, else in
windows just large enough (one when the region allows, else overlapping windows along the strip, only where
tiles were found).
When the first pass finds (almost) nothing in a large photo, the tiles may be too small to be seen at
all: the photo is read again in overlapping quarters.
A tile cut by a window's edge is dropped there: the overlap guarantees another window holds it whole.
`locate_turned` locates the tiles of the photo turned by quarter turns (`vision.views` reads from all sides).
"""

from __future__ import annotations

import math

import numpy as np

from vision.geometry import tile_size, tiles_region, turned, unturn_boxes
from vision.locate import Located, Locator

MIN_SIDE = 28.0  # model-input pixels: tiles whose short side is smaller are read again, zoomed
MARGIN = 1.5  # tile sizes of context kept around the tiles' region, and of overlap between windows
# Zoom only when the tiles are read at least this much larger: a tenth more pixels across a face already reads
# small faces better, and a pass that gains less is not worth its time.
MIN_GAIN = 1.1
MAX_WINDOWS = 6  # at most this many extra passes
MAX_SIDE = 2.0  # times the model's side: the longest input a free-shaped detector reads a zoomed region at
# (a 12-MP photo's hand strip: one 864x224 input in place of two 448x224 windows)
EDGE = 2.0  # pixels: a box this close to a window's inner edge is cut by it
FEW = 3  # a first pass finding fewer tiles than this in a large photo looks again in quarters
BLIND = 3.0  # "large": the long side at least this many times the model's input


def _windows(region: tuple[int, int, int, int], side: int, overlap: int) -> list[tuple[int, int, int, int]]:
    """Overlapping square-ish windows of at most ``side`` pixels covering the region."""
    x0, y0, x1, y1 = region
    boxes = []
    for a0, a1, axis in ((x0, x1, 0), (y0, y1, 1)):
        n = max(1, math.ceil((a1 - a0 - overlap) / max(side - overlap, 1)))
        step = (a1 - a0 - side) / (n - 1) if n > 1 else 0.0
        boxes.append([(round(a0 + k * step), round(a0 + k * step) + min(side, a1 - a0)) for k in range(n)])
    return [(xa, ya, xb, yb) for xa, xb in boxes[0] for ya, yb in boxes[1]]


def _inside(xyxy: np.ndarray, window: tuple[int, int, int, int], height: int, width: int) -> np.ndarray:
    """Which boxes (full-photo pixels) are not cut by an inner edge of the window."""
    x0, y0, x1, y1 = window
    keep = np.ones(len(xyxy), bool)
    if x0 > 0:
        keep &= xyxy[:, 0] > x0 + EDGE
    if y0 > 0:
        keep &= xyxy[:, 1] > y0 + EDGE
    if x1 < width:
        keep &= xyxy[:, 2] < x1 - EDGE
    if y1 < height:
        keep &= xyxy[:, 3] < y1 - EDGE
    return keep


def _locate_windows(image: np.ndarray, locator: Locator, windows: list[tuple[int, int, int, int]]) -> Located:
    """The tiles located in each window, in full-photo pixels, without the boxes a window's edge cuts (the
    overlap guarantees another window holds them whole)."""
    height, width = image.shape[:2]
    parts = []
    for window in windows:
        x0, y0, x1, y1 = window
        seen = locator(image[y0:y1, x0:x1]).shifted(x0, y0)
        parts.append(seen[_inside(seen.xyxy, window, height, width)])
    return Located.concat(parts)


def zoomed_side(length: float, tile: float, locator: Locator) -> int | None:
    """The input side at which ``length`` photo pixels show tiles of ``tile`` pixels at `MIN_SIDE` (never
    under the model's side); None when that is past what one pass may read (`MAX_SIDE`, or any side but
    its own for a fixed-square model)."""
    side = max(locator.size, math.ceil(length * MIN_SIDE / tile))
    limit = locator.size if locator.stride is None else MAX_SIDE * locator.size
    return side if side <= limit else None


def locate_tiles(image: np.ndarray, locator: Locator, tile: float | None = None) -> Located:
    """Where every tile in a BGR photo is, located again zoomed on the tiles' region when they are read
    small, after a look in quarters of a large photo where the first pass found (almost) nothing (the
    quarters too may show the tiles small): the last pass's candidates, whose faces are then read once
    (`vision.tilefaces.read_faces`), from the photo itself: the face reader never reads a pass that a zoomed one
    replaces. A tile found in two overlapping windows is one to the reading's NMS when both boxes read
    alike; read as two faces it comes back twice, and `vision.overlaps` keeps one.
    ``tile``: the tiles' size when known (a region of a photo whose tiles were found before, turned):
    one pass at the side that shows them at `MIN_SIDE`, when one pass may read it."""
    height, width = image.shape[:2]
    side = None if tile is None else zoomed_side(max(height, width), tile, locator)
    if side is not None:
        return locator(image, side)
    seen = max(height, width)  # photo pixels the model's input spanned
    located = locator(image)
    if len(located.tiles(locator.iou)) < FEW and seen >= BLIND * locator.size:
        seen = round(seen * 0.55)  # 2x2 windows (fewer for a long, thin photo)
        located = _locate_windows(image, locator, _windows((0, 0, width, height), seen, seen // 10))
    zoomed = _zoomed(image, locator, located.tiles(locator.iou), seen)
    return located if zoomed is None else zoomed


def _zoomed(image: np.ndarray, locator: Locator, tiles: np.ndarray, seen: int) -> Located | None:
    """The tiles located again in windows over their region, when the tiles found (``tiles``, xyxy, in a
    pass whose input spanned ``seen`` photo pixels) were read small; None when they were not."""
    if len(tiles) == 0:
        return None
    tile = tile_size(tiles)
    side = round(locator.size * tile / MIN_SIDE)  # a window this large shows tiles at MIN_SIDE
    if tile * locator.size / seen >= MIN_SIDE or seen / side < MIN_GAIN:
        return None
    height, width = image.shape[:2]
    margin = round(MARGIN * tile * 1.4)  # tiles are deeper than wide
    x0, y0, x1, y1 = tiles_region(tiles, margin, width, height)
    one_pass = zoomed_side(max(x1 - x0, y1 - y0), tile, locator)
    if one_pass is not None:
        return locator(image[y0:y1, x0:x1], one_pass).shifted(x0, y0)
    centres = (tiles[:, :2] + tiles[:, 2:]) / 2
    windows = [w for w in _windows((x0, y0, x1, y1), side, 2 * margin)
               if ((centres >= w[:2]) & (centres < w[2:])).all(axis=1).any()]
    if len(windows) > MAX_WINDOWS:  # too many: fewer, larger windows
        windows = [(int(x0), int(y0), int(x1), int(y1))]
    return _locate_windows(image, locator, windows)


def locate_turned(image: np.ndarray, locator: Locator, turns: int, zoom: bool = True,
                  tile: float | None = None) -> Located:
    """The tiles located in ``image`` turned ``turns`` quarter turns, in the pixels of ``image``; ``zoom``:
    small tiles located again zoomed (`vision.zoom`, ``tile`` their size when known), else the
    detector's one pass; a patterned cloth's hundreds of faint candidates left out (`Located.without_pattern`)."""
    photo = turned(image, turns)
    found = (locate_tiles(photo, locator, tile) if zoom else locator(photo)).without_pattern()
    return found.with_boxes(unturn_boxes(found.xyxy, turns, image.shape[1], image.shape[0]))
