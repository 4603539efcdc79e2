"""An added kong's fourth tile stacked on its turned tile, seen by the detector as one box.

Laid on the turned tile and partly hiding it, the added tile makes one outline with it: a box as long along the
row as a turned tile and some 1.6 times as deep, which the detector (trained on few such stacks) reads as one
tile of their face. Its area gives it away: the pair is half as large again as the tiles of its row (a box's
size, the square root of its area, 1.15 times theirs or more; a tile read alone stays under 1.13 times in 99 %
of rows). `split_pairs` offers the photo with each such box read as the two tiles it covers, the turned one in
the row and the added one beside it across the row, for the layout to read both ways (`vision.layout`): the
pair is taken only where the hand read with it is complete, holds it as an added kong and is clearly the more
plausible (`vision.layout.STACKED_GAIN`).
"""

from __future__ import annotations

import numpy as np

from vision.detections import TileDetections
from vision.rows import SIDEWAYS_ASPECT, Row, extents, row_direction

STACKED_PAIR = 1.15  # a box this many times its row's median tile size (square root of area), as long as a turned
# tile and deeper than one by as much, may be two tiles
MIN_ROW = 4  # tiles a row needs for its median size to be known
UPRIGHT = 0.3  # sideways evidence (`vision.rows.Row`) under which a box is as deep as a tile or deeper: an upright
# tile, whose length along the row is a tile's width, or a pair, whose length is a turned tile's (`STACKED_PAIR` widths)


def split_pairs(detections: TileDetections, rows: list[Row]) -> tuple[TileDetections, tuple[int, ...]] | None:
    """The detections with each box that may cover a stacked pair (`STACKED_PAIR`) cut in two, the turned tile
    kept at the box's index and the added one appended, and the indices of the boxes cut; None when no box may.
    ``rows``: the detections' rows (`vision.rows.find_rows`), as the layout has already found them."""
    xyxy = detections.xyxy.astype(np.float64)
    centres = (xyxy[:, :2] + xyxy[:, 2:]) / 2
    wh = np.maximum(xyxy[:, 2:] - xyxy[:, :2], 1.0)
    size = np.sqrt(wh.prod(axis=1))
    angle = row_direction(centres)
    along, across, posed = extents(wh, angle)
    if not posed:  # near 45° a box tells no depth from length
        return None
    normal = np.array([-np.sin(angle), np.cos(angle)])
    cut: list[int] = []
    line: dict[int, float] = {}  # a tile's row's line, across the rows
    for row in rows:
        line.update((i, row.across) for i in row.tiles)
        if len(row.tiles) < MIN_ROW:
            continue
        tiles = list(row.tiles)
        upright = [i for k, i in enumerate(tiles) if row.sideways[k] < UPRIGHT]
        if not upright:
            continue
        median, width = float(np.median(size[tiles])), float(np.median(along[upright]))
        cut += [i for k, i in enumerate(tiles) if size[i] >= STACKED_PAIR * median and row.sideways[k] < UPRIGHT
                and along[i] >= STACKED_PAIR * width and across[i] >= STACKED_PAIR * along[i] / SIDEWAYS_ASPECT]
    if not cut:
        return None
    boxes = xyxy.copy()
    added = []
    c, s = abs(np.cos(angle)), abs(np.sin(angle))
    for i in cut:
        depth = along[i] / SIDEWAYS_ASPECT  # a turned tile's depth across the row
        offset = (across[i] - depth) / 2
        toward = 1.0 if line[i] >= centres[i] @ normal else -1.0  # the turned tile lies on the row's line
        half = np.array([along[i] * c + depth * s, along[i] * s + depth * c]) / 2
        turned, on_top = centres[i] + toward * offset * normal, centres[i] - toward * offset * normal
        boxes[i] = np.concatenate([turned - half, turned + half])
        added.append(np.concatenate([on_top - half, on_top + half]))
    on_tops = detections[np.array(cut)].with_boxes(np.array(added, np.float32))
    return TileDetections.concat([detections.with_boxes(boxes.astype(np.float32)), on_tops]), tuple(cut)
