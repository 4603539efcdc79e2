"""An added kong's fourth tile stacked on its turned tile, seen by the detector as one box.

Laid on the turned tile and partly hiding it, the added tile makes one outline with it: a box as long along the
row as a turned tile and some 1.6 times as deep, which the detector (trained on few such stacks) reads as one
tile of their face. Its area gives it away: the pair is half as large again as the tiles of its row and as those
beside it (a box's size, the square root of its area, 1.1 times theirs or more, drawn loosely; a row photographed
at a slant grows towards the camera, and its nearest pung outgrows the row's median, not its neighbours; a tile
read alone stays under 1.13 times in 99 % of rows, and a box merely large is offered cut alone too, so that it cannot keep a true pair from
being read; a meld alone in a row of its own, in front of or behind the hand, is sized by the hand's row and
must stand out from its own row's others too). Near 45°, where a box is as wide as it is high whichever way its tile
lies, the pair is told by its extent across the row instead: the box's projection on the row's normal, less what a
turned tile's length adds to it at that angle, is a turned tile's depth half as much again (`_pairs_near_diagonal`).
`split_pairs` offers the photo with each such box read as the two tiles it covers, the turned one in
the row and the added one beside it across the row, for the layout to read both ways (`vision.layout`): the
pair is taken only where the hand read with it holds it as an added kong and is clearly the more plausible
(`vision.layout.STACKED_GAIN`), or complete where the hand read without it is not. Each cut costs a whole
reading of the photo (a table's photo, 50 boxes and more, a fifth of a second), so a box is offered only where its
kong's other two tiles may lie beside it in its row (`_kong_beside`).

The detector reads the pair's box as one tile, and not always as the pair's face: two tiles of two dots, one over
the other, show four. The pair lies in its kong beside the kong's other two tiles, which show the face whole; where
two tiles beside the box (both on one side, or one on each) agree on a face the box was not read as, the cut is
offered a second time with both halves read as that face, and the box's own face as their runner-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from scoring.tiles import Tile
from vision.detections import TileDetections
from vision.geometry import box_iou, centres_and_sizes
from vision.overlaps import SAME_TILE
from vision.rows import SIDEWAYS_ASPECT, Row, extents, row_direction

STACKED_PAIR = 1.10  # a box this many times its row's median tile size (square root of area), deeper than a turned
# tile by as much, may be two tiles ...
PAIR_LENGTH = 1.0  # ... when it is this many upright tiles' widths long along the row, or more: a turned tile is
# 1.33, but the detector boxes a pair loosely, down to 1.02 widths on dev composed scenes (a standing tile's box as
# long is offered too, and kept whole unless the hand read with it cut is the clearly more plausible)
MIN_ROW = 4  # tiles a row needs for its median size to be known (a shorter row takes the longest row's)
KONG_REACH = 3  # places along the row within which a pair's kong has its other two tiles: beside it, or one place
# further where a stray box or a sliver lies between
UPRIGHT = 0.3  # sideways evidence (`vision.rows.Row`) under which a box is as deep as a tile or deeper: an upright
# tile, whose length along the row is a tile's width, or a pair, whose length is a turned tile's (`PAIR_LENGTH` widths)


Split = tuple[TileDetections, tuple[tuple[int, int], ...]]  # detections with boxes cut, the pairs in them


def split_pairs(detections: TileDetections, rows: list[Row], within: set[int] | None = None) -> list[Split]:
    """The detections with each box that may cover a stacked pair (`STACKED_PAIR`) cut in two, and where more
    than one may, with each alone cut (a box merely large among them must not keep the true pair from being read):
    each with its pairs (the turned tile, the added one) as indices into it; none when no box may. The detector
    often draws a box on one of the two beside the pair's: such a box, one tile with a half
    (`vision.overlaps.SAME_TILE`), is dropped. ``rows``: the detections' rows (`vision.rows.find_rows`), as the
    layout has already found them; ``within``: the boxes that may be cut (None: any)."""
    centres, wh = centres_and_sizes(detections.xyxy)
    size = np.sqrt(wh.prod(axis=1))
    angle = row_direction(centres)
    along, across, posed = extents(wh, angle)
    if posed:
        cut = _pairs_posed(detections, rows, size, along, across)
    else:  # near 45° a box tells no depth from length
        cut, along, across = _pairs_near_diagonal(detections, rows, wh, size, angle)
    row_of = {i: row for row in rows for i in row.tiles}  # every box offered lies in a row
    kin = {i: face for i in cut if (face := _kong_face(detections, row_of[i], i)) is not None}
    cut = {i: line for i, line in cut.items() if (within is None or i in within)
           and _kong_beside(detections, row_of[i], i, kin.get(i))}
    choices = [list(cut)] + ([[i] for i in cut] if len(cut) > 1 else [])
    splits = []
    for chosen in filter(None, choices):
        faces = {i: kin[i] for i in chosen if i in kin}
        for read_as in [{}] + ([faces] if faces else []):
            splits.append(_cut(detections, {i: cut[i] for i in chosen}, angle, centres, along, across, read_as))
    return splits


Sizes = tuple[float, ...]  # a row's tile sizes as a look for stacked pairs works them out


def _sized_rows(detections: TileDetections, rows: list[Row], size: np.ndarray,
                sizes: Callable[[list[int]], Sizes | None]) -> Iterator[tuple[Row, set[int], Sizes]]:
    """Each row with its tiles that may be a pair's box (a kong's tiles) and the sizes that ``sizes`` works out from a
    row of `MIN_ROW` tiles or more (None: the row cannot tell them), longest row first. A shorter row of 3 or more, a
    meld alone in its row in front of or behind the hand, takes the longest row's sizes that told them, and only a
    box standing out from its own row's others (a row nearer the camera is larger as a whole)."""
    known = None
    for row in sorted(rows, key=lambda r: -len(r.tiles)):
        tiles = list(row.tiles)
        eligible = {i for i in tiles if detections.tiles[i].is_playable}
        own = sizes(tiles) if len(tiles) >= MIN_ROW else None
        if own is not None:
            known = known or own
        elif known is None or len(tiles) < 3:
            continue
        else:
            own = known
            eligible = {i for i in eligible if all(size[i] >= STACKED_PAIR * size[j] for j in tiles if j != i)}
        yield row, eligible, own


def _pairs_posed(detections: TileDetections, rows: list[Row], size: np.ndarray, along: np.ndarray,
                 across: np.ndarray) -> dict[int, tuple[float, float]]:
    """The boxes that may cover a stacked pair, where the boxes tell a tile's length along its row from its depth:
    each with a turned tile's depth across its row and its row's line."""
    sideways = {i: float(evidence) for row in rows for i, evidence in zip(row.tiles, row.sideways, strict=True)}

    def sizes(tiles: list[int]) -> tuple[float, float, float] | None:  # median size, upright width and depth
        upright = [i for i in tiles if sideways[i] < UPRIGHT]
        return (float(np.median(size[tiles])), float(np.median(along[upright])),
                float(np.median(across[upright]))) if upright else None

    cut: dict[int, tuple[float, float]] = {}
    for row, eligible, (median, width, upright_depth) in _sized_rows(detections, rows, size, sizes):
        # a turned tile is as deep as a tile is wide: its length over the aspect, or less where the photo,
        # taken at a slant, shortens the row's tiles across it (the upright tiles' depth over the aspect)
        depth = np.minimum(along, upright_depth) / SIDEWAYS_ASPECT
        cut.update((i, (float(depth[i]), row.across)) for i in row.tiles
                   if i in eligible and size[i] >= STACKED_PAIR * median and sideways[i] < UPRIGHT
                   and along[i] >= PAIR_LENGTH * width and across[i] >= STACKED_PAIR * depth[i]
                   and size[i] >= STACKED_PAIR * _beside_size(row, i, size))
    return cut


def _pairs_near_diagonal(detections: TileDetections, rows: list[Row], wh: np.ndarray, size: np.ndarray,
                         angle: float) -> tuple[dict[int, tuple[float, float]], np.ndarray, np.ndarray]:
    """The boxes that may cover a stacked pair in a row near 45°, where an upright box and a turned one are alike:
    a tile's width is its row's boxes' mean side over (1 + aspect) (|cos| + |sin|), and a box's extent across the
    row is its projection on the row's normal less what a turned tile's length adds to it at this angle (2 |cos sin|
    times it); a pair is as large as in `split_pairs` and that much deeper than a turned tile. With each such box's
    turned tile's depth and its row's line, and the extents `_cut` asks for: a turned tile's length along the row and
    the pair's depth across it."""
    c, s = abs(np.cos(angle)), abs(np.sin(angle))

    def sizes(tiles: list[int]) -> tuple[float, float]:  # median size, tile width
        return float(np.median(size[tiles])), float(np.median(wh[tiles].sum(axis=1))) / ((1 + SIDEWAYS_ASPECT) * (c + s))

    along, across = np.zeros(len(wh)), np.zeros(len(wh))
    cut: dict[int, tuple[float, float]] = {}
    for row, eligible, (median, width) in _sized_rows(detections, rows, size, sizes):
        length = SIDEWAYS_ASPECT * width
        for i in eligible:
            deep = float(wh[i, 0] * s + wh[i, 1] * c) - 2 * c * s * length
            if size[i] >= STACKED_PAIR * median and deep >= STACKED_PAIR * width \
                    and size[i] >= STACKED_PAIR * _beside_size(row, i, size):
                cut[i], along[i], across[i] = (width, row.across), length, deep
    return cut, along, across


def _beside_size(row: Row, box: int, size: np.ndarray) -> float:
    """The median size of the tiles within `KONG_REACH` places of ``box`` in its row (0 with none): a pair is
    larger than the tiles beside it too, where a row seen in perspective grows towards the camera and its nearest
    tiles outgrow the row's median."""
    k = row.tiles.index(box)
    beside = [j for j in row.tiles[max(k - KONG_REACH, 0):k + KONG_REACH + 1] if j != box]
    return float(np.median(size[beside])) if beside else 0.0


def _kong_beside(detections: TileDetections, row: Row, box: int, kin: Tile | None) -> bool:
    """Whether the pair ``box`` may cover can be an added kong's: two tiles within `KONG_REACH` places of it in its
    row ``row`` read as a face it may be (its face, its runner-up, or the kong's face its neighbours agree on,
    `_kong_face`), as face or runner-up: a kong's other two tiles lie beside its pair. A box with no such neighbours
    (a tile merely large, nearer the camera) is not offered cut: each cut costs a whole reading of the photo."""
    faces, runner_ups = detections.tiles, detections.runner_ups
    k = row.tiles.index(box)
    beside = [j for j in row.tiles[max(k - KONG_REACH, 0):k + KONG_REACH + 1] if j != box]
    return any(sum(face in (faces[j], runner_ups[j]) for j in beside) >= 2
               for face in {faces[box], runner_ups[box], kin} - {None})


def _kong_face(detections: TileDetections, row: Row, box: int) -> Tile | None:
    """The face two tiles beside ``box`` in its row agree on (the next on each side, else the next two after it,
    else the two before), when the box was read as no face of those: the face of the kong its stacked pair would
    complete; else None."""
    k, tiles, faces = row.tiles.index(box), row.tiles, detections.tiles
    beside = [(k - 1, k + 1), (k + 1, k + 2), (k - 2, k - 1)]
    agreed = [faces[tiles[a]] for a, b in beside if 0 <= a and b < len(tiles) and faces[tiles[a]] is faces[tiles[b]]]
    if any(face is faces[box] for face in agreed):
        return None
    return next((face for face in agreed if face.is_playable), None)


def _cut(detections: TileDetections, cut: dict[int, tuple[float, float]], angle: float, centres: np.ndarray,
         along: np.ndarray, across: np.ndarray, faces: dict[int, Tile]) -> Split:
    """The detections with the boxes of ``cut`` (each with the turned tile's depth and its row's line) cut in two,
    the turned tile on the row's line, the added one beside it across the row; the boxes doubling a half dropped.
    The halves of a box in ``faces`` are read as its face there, as sure as the box, with the box's face as
    runner-up just as sure: a face the photo leaves in doubt."""
    normal = np.array([-np.sin(angle), np.cos(angle)])
    boxes = detections.xyxy.astype(np.float64)
    added = []
    c, s = abs(np.cos(angle)), abs(np.sin(angle))
    for i, (depth, line) in cut.items():
        offset = (across[i] - depth) / 2
        toward = 1.0 if line >= centres[i] @ normal else -1.0
        half = np.array([along[i] * c + depth * s, along[i] * s + depth * c]) / 2
        turned, on_top = centres[i] + toward * offset * normal, centres[i] - toward * offset * normal
        boxes[i] = np.concatenate([turned - half, turned + half])
        added.append(np.concatenate([on_top - half, on_top + half]))
    on_tops = detections[np.array(list(cut))].with_boxes(np.array(added, np.float32))
    whole = TileDetections.concat([detections.with_boxes(boxes.astype(np.float32)), on_tops])
    if faces:
        read_as = {half: faces[i].index for k, i in enumerate(cut) if i in faces for half in (i, len(detections) + k)}
        whole = whole.with_guesses(read_as, as_sure=True).with_runner_up(list(read_as))
    halves = [*cut, *range(len(detections), len(whole))]
    overlap = box_iou(whole.xyxy, whole.xyxy[halves])
    keep = np.array([i in halves or not (overlap[i] > SAME_TILE).any() for i in range(len(whole))])
    index = np.cumsum(keep) - 1
    pairs = tuple((int(index[i]), int(index[len(detections) + k])) for k, i in enumerate(cut))
    return whole[keep], pairs
