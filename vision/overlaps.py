"""One reading per tile: the detector's NMS works within a class, so a tile it hesitates over can come
back as two boxes with different faces. The surer box stays; the other face becomes that tile's
runner-up reading when it scored higher than the runner-up the detector gave the surer box."""

from __future__ import annotations

import numpy as np

from vision.detections import TileDetections
from vision.evaluation import box_iou

SAME_TILE = 0.6  # IoU above which two boxes are one tile


def merge_overlaps(detections: TileDetections) -> TileDetections:
    """The detections with each doubled tile kept once: its surest face, the other as runner-up."""
    n = len(detections)
    if n < 2:
        return detections
    xyxy = detections.xyxy
    iou = box_iou(xyxy, xyxy)
    runner_up, runner_up_confidence = detections.runner_up.copy(), detections.runner_up_confidence.copy()
    kept: list[int] = []
    for i in np.argsort(-detections.confidence, kind="stable").tolist():
        same = [j for j in kept if iou[i, j] > SAME_TILE]
        if not same:
            kept.append(i)
            continue
        j = same[0]
        if detections.class_id[i] != detections.class_id[j] and detections.confidence[i] > runner_up_confidence[j]:
            runner_up[j], runner_up_confidence[j] = detections.class_id[i], detections.confidence[i]
    kept.sort()  # the detector's own order
    merged = TileDetections(xyxy, detections.confidence, detections.class_id, runner_up, runner_up_confidence)
    return merged[np.array(kept)]
