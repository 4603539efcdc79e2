"""Things between the phone and the tiles: fingers reaching in from the edge, a pen, a sleeve.

An occluder may hide at most ``MAX_HIDDEN`` of any tile, so every labelled face stays readable; one that
would hide more is not drawn.
"""

from __future__ import annotations

import cv2
import numpy as np

MAX_HIDDEN = 0.35
SKIN = ((140, 170, 225), (110, 145, 200), (80, 110, 160), (60, 80, 120), (170, 190, 235))
THINGS = ((30, 30, 30), (160, 60, 20), (40, 40, 160), (200, 200, 200), (60, 100, 60))


def _shape(rng: np.random.Generator, w: int, h: int) -> tuple[np.ndarray, tuple[float, float, float]]:
    """A mask (uint8 0/255) of fingers or an object reaching in from one edge, and its colour."""
    mask = np.zeros((h, w), np.uint8)
    side = int(rng.integers(4))
    t = float(rng.uniform(0.1, 0.9))
    start = np.array([(t * w, -5), (w + 5, t * h), (t * w, h + 5), (-5, t * h)][side], np.float32)
    inward = np.array([(0, 1), (-1, 0), (0, -1), (1, 0)][side], np.float32)
    angle = rng.normal(0, 0.5)
    direction = np.array([inward[0] * np.cos(angle) - inward[1] * np.sin(angle),
                          inward[0] * np.sin(angle) + inward[1] * np.cos(angle)], np.float32)
    scale = min(w, h)
    if rng.random() < 0.7:  # fingers and the edge of a palm
        colour = SKIN[int(rng.integers(len(SKIN)))]
        width = scale * float(rng.uniform(0.05, 0.09))
        normal = np.array([-direction[1], direction[0]], np.float32)
        for k in range(int(rng.integers(1, 5))):
            base = start + normal * width * 1.05 * (k - 1.5)
            tip = base + direction * scale * float(rng.uniform(0.12, 0.35))
            cv2.line(mask, tuple(int(v) for v in base), tuple(int(v) for v in tip), 255, int(width), cv2.LINE_AA)
        cv2.circle(mask, tuple(int(v) for v in start - direction * width), int(width * 3), 255, -1, cv2.LINE_AA)
    else:  # a pen or a sleeve
        colour = THINGS[int(rng.integers(len(THINGS)))]
        width = scale * float(rng.uniform(0.015, 0.12))
        tip = start + direction * scale * float(rng.uniform(0.2, 0.6))
        cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in tip), 255, int(width), cv2.LINE_AA)
    return mask, tuple(float(c) + float(rng.uniform(-15, 15)) for c in colour)


def _hidden(mask: np.ndarray, quad: np.ndarray) -> float:
    """The share of a tile's quad (photo pixels) that the mask covers."""
    h, w = mask.shape
    x0, y0 = np.clip(np.floor(quad.min(axis=0)).astype(int), 0, [w, h])
    x1, y1 = np.clip(np.ceil(quad.max(axis=0)).astype(int), 0, [w, h])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    tile = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(tile, np.round(quad - (x0, y0)).astype(np.int32), 1)
    area = tile.sum()
    return float((tile * (mask[y0:y1, x0:x1] > 127)).sum() / area) if area else 0.0


def occlude(rng: np.random.Generator, photo: np.ndarray, coverage: np.ndarray,
            quads: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Maybe draw one occluder over the photo (float BGR) unless it would hide too much of a tile."""
    h, w = coverage.shape
    mask, colour = _shape(rng, w, h)
    if any(_hidden(mask, q) > MAX_HIDDEN for q in quads):
        return photo, coverage
    m = cv2.GaussianBlur(mask.astype(np.float32) / 255.0, (0, 0), 1.2)
    # rounded like a finger: darker toward the outline, a soft highlight along the middle, some mottling
    depth = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
    shade = 0.55 + 0.5 * np.sqrt(np.clip(depth / max(float(depth.max()), 1.0), 0, 1))
    shade *= 1 + 0.06 * cv2.resize(rng.standard_normal((h // 8 + 1, w // 8 + 1)).astype(np.float32), (w, h))
    body = np.empty_like(photo)
    body[:] = colour
    body *= shade[:, :, None]
    return photo * (1 - m[:, :, None]) + body * m[:, :, None], coverage * (1 - m)
