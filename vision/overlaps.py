"""Stage 4, merge: one reading per tile (a `TileDetections` in, one out). The detector's NMS works within a
class, so a tile it hesitates over can come back as two boxes with different faces. The surer box stays; the
other face becomes that tile's runner-up reading when it scored higher than the runner-up the detector gave the
surer box.

Two boxes of one tile do not always overlap much: in a photo turned about 45° the upright boxes of a
tile are large squares, and two readings of it (two zoom passes, two turns of the photo) can sit half a
tile apart, an overlap their neighbours' boxes have too. Along a row the tiles' pitch tells them apart:
neighbours lie a pitch apart, two boxes of one tile much closer (most doubles lie within 0.4 of a pitch,
hardly any neighbours do; a faint box, under 0.3, is taken for a double within half a pitch). A stray box
straddling two tiles (a turn of the photo that saw half of each) has no room between them.

The readings of the photo's turns (`vision.views`) are merged by `vote`."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from scoring.tiles import TILES
from vision.detections import TileDetections
from vision.geometry import box_iou
from vision.rows import find_rows

SAME_TILE = 0.6  # IoU above which two boxes are one tile
SAME_PLACE = 0.4  # share of a row's pitch under which two tiles in it are one
FAINT = 0.3  # a box read under this confidence ...
SAME_PLACE_FAINT = 0.5  # ... is one with a surer tile of its row closer than this share of the pitch
NO_ROOM = 1.5  # pitches between two tiles of a row under which a third between them is a stray box
MIN_ROW = 4  # tiles a row needs for its pitch to be known
SAME_TURNED = 0.5  # IoU above which boxes from two turns of the photo are one tile (`vote`)
MIN_VOTE = 0.05  # scan's floor: the mean confidence over the turns under which a tile is dropped (one turn
# at 0.2 keeps it: on the held-out hand photos the union of what any turn saw reads most hands exactly)


def merge_overlaps(detections: TileDetections) -> TileDetections:
    """The detections with each doubled tile kept once: its surest face, the other as runner-up."""
    n = len(detections)
    if n < 2:
        return detections
    iou = box_iou(detections.xyxy, detections.xyxy)
    return _merged(detections, lambda i, kept: [j for j in kept if iou[i, j] > SAME_TILE])


def merge_row_doubles(detections: TileDetections) -> TileDetections:
    """`merge_overlaps`, then tiles of one row closer than ``SAME_PLACE`` of its pitch (``SAME_PLACE_FAINT``
    for a box read under ``FAINT``) kept once, and a tile squeezed between two surer ones less than
    ``NO_ROOM`` pitches apart (no room for it) dropped."""
    detections = merge_overlaps(detections)
    place: dict[int, tuple[int, float, float]] = {}  # tile -> (row, position along it, the row's pitch)
    for r, row in enumerate(find_rows(detections)):
        if len(row.tiles) >= MIN_ROW:
            pitch = float(np.median(np.diff(row.along)))
            place.update((i, (r, a, pitch)) for i, a in zip(row.tiles, row.along.tolist(), strict=True))

    def same(i: int, kept: list[int]) -> list[int]:
        if i not in place:
            return []
        row, along, pitch = place[i]
        offsets = {j: place[j][1] - along for j in kept if j in place and place[j][0] == row}
        reach = (SAME_PLACE_FAINT if detections.confidence[i] < FAINT else SAME_PLACE) * pitch
        close = [j for j, d in offsets.items() if abs(d) < reach]
        left, right = [j for j, d in offsets.items() if d <= 0], [j for j, d in offsets.items() if d > 0]
        if close or not left or not right:
            return close
        a, b = max(left, key=offsets.__getitem__), min(right, key=offsets.__getitem__)
        if offsets[b] - offsets[a] < NO_ROOM * pitch:  # squeezed between two surer tiles: a stray box
            return [a if -offsets[a] < offsets[b] else b]
        return []

    return _merged(detections, same)


def _merged(detections: TileDetections, same: Callable[[int, list[int]], list[int]]) -> TileDetections:
    """The detections with each tile that ``same`` finds already kept (surest first) dropped, its face
    kept as the runner-up of the tile it doubles when it scored higher than that tile's runner-up."""
    runner_up, runner_up_confidence = detections.runner_up.copy(), detections.runner_up_confidence.copy()
    kept: list[int] = []
    for i in np.argsort(-detections.confidence, kind="stable").tolist():
        doubled = same(i, kept)
        if not doubled:
            kept.append(i)
            continue
        j = doubled[0]
        if detections.class_id[i] != detections.class_id[j] and detections.confidence[i] > runner_up_confidence[j]:
            runner_up[j], runner_up_confidence[j] = detections.class_id[i], detections.confidence[i]
    kept.sort()  # the detector's own order
    merged = TileDetections(detections.xyxy, detections.confidence, detections.class_id, runner_up,
                            runner_up_confidence)
    return merged[np.array(kept, dtype=np.int64)]


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
        members = np.union1d(np.flatnonzero(free & (overlap[seed] > SAME_TURNED)), [seed])  # a 0-area box too
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
