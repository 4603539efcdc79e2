"""Box geometry shared by the pipeline's stages and its evaluation: boxes are ``xyxy`` rows (x0, y0, x1, y1)
in pixels, one per row of an n × 4 array."""

from __future__ import annotations

import numpy as np


def box_area(xyxy: np.ndarray) -> np.ndarray:
    """The area of each xyxy box (n × 4)."""
    return (xyxy[:, 2] - xyxy[:, 0]) * (xyxy[:, 3] - xyxy[:, 1])


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix (len(a) × len(b)) of xyxy boxes. Widths and heights as separate matrices: a product over an
    axis of two made NMS's overlaps 2-3x slower."""
    width = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    height = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    inter = np.maximum(width, 0) * np.maximum(height, 0)
    return inter / (box_area(a)[:, None] + box_area(b)[None, :] - inter + 1e-9)
