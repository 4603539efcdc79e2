"""One reading per tile: the detector's NMS works within a class, so a tile it hesitates over can come
back as two boxes with different faces. The surer box stays; the other face is kept as that tile's
runner-up reading, which the layout's doubts offer as an alternative."""

from __future__ import annotations

import numpy as np

from vision.detections import TileDetections

SAME_TILE = 0.6  # IoU above which two boxes are one tile


def merge_overlaps(detections: TileDetections) -> tuple[TileDetections, dict[int, str]]:
    """The detections with each doubled tile kept once (its surest face), and the runner-up face of
    each such tile, by its index in the result."""
    n = len(detections)
    if n < 2:
        return detections, {}
    xyxy = detections.xyxy
    tl = np.maximum(xyxy[:, None, :2], xyxy[None, :, :2])
    br = np.minimum(xyxy[:, None, 2:], xyxy[None, :, 2:])
    inter = np.prod(np.clip(br - tl, 0, None), axis=2)
    area = np.prod(xyxy[:, 2:] - xyxy[:, :2], axis=1)
    iou = inter / (area[:, None] + area[None] - inter + 1e-9)
    kept: list[int] = []
    runner_up: dict[int, str] = {}  # by index in ``detections``
    for i in np.argsort(-detections.confidence, kind="stable").tolist():
        same = [j for j in kept if iou[i, j] > SAME_TILE]
        if not same:
            kept.append(i)
        elif same[0] not in runner_up and detections.class_id[i] != detections.class_id[same[0]]:
            runner_up[same[0]] = detections.tiles[i].code
    kept.sort()  # the detector's own order
    new_index = {old: new for new, old in enumerate(kept)}
    return detections[np.array(kept)], {new_index[old]: code for old, code in runner_up.items()}
