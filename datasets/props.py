"""Things on the table that are not tiles: a tray under the hand, and clutter beside it.

Neither is labelled. The tray is drawn on the table plane (so it shares the camera's perspective and
casts a shadow); clutter is drawn onto the table surface before the tiles.
"""

from __future__ import annotations

import cv2
import numpy as np

TRAYS = ((238, 240, 240), (215, 228, 232), (35, 35, 38), (40, 80, 120), (60, 120, 60), (150, 110, 60))
CLUTTER = ((30, 30, 160), (200, 200, 200), (30, 30, 30), (40, 140, 200), (140, 60, 40), (90, 160, 90))


def tray_extent(rng: np.random.Generator, extent: tuple[float, float, float, float]) -> tuple[float, ...]:
    """A tray around the content box (x0, y0, x1, y1), in tile widths, with a random margin."""
    x0, y0, x1, y1 = extent
    mx, my = rng.uniform(0.3, 1.0, 2)
    return x0 - mx, y0 - my, x1 + mx, y1 + my * float(rng.uniform(1.0, 2.0))


def tray_layer(rng: np.random.Generator, shape: tuple[int, int], rect: np.ndarray, thickness: float) -> np.ndarray:
    """A BGRA float layer holding a tray whose top is ``rect`` (x0, y0, x1, y1 in plane pixels)."""
    layer = np.zeros((*shape, 4), np.float32)
    colour = np.array(TRAYS[int(rng.integers(len(TRAYS)))], np.float32) + rng.uniform(-12, 12, 3).astype(np.float32)
    x0, y0, x1, y1 = (int(v) for v in rect)
    r = max(2, int(0.04 * min(x1 - x0, y1 - y0)))
    side = (*(colour * 0.7).tolist(), 1.0)
    cv2.rectangle(layer, (x0 + r, y0 + r), (x1 - r, y1 + int(thickness)), side, -1)
    _rounded(layer, (x0, y0, x1, y1), r, (*colour.tolist(), 1.0))
    rim = max(2, int(0.05 * (y1 - y0)))  # the raised rim, seen as a slightly darker inner border
    inner = (*(colour * 0.9).tolist(), 1.0)
    _rounded(layer, (x0 + rim, y0 + rim, x1 - rim, y1 - rim), r, inner)
    _rounded(layer, (x0 + rim + 2, y0 + rim + 2, x1 - rim, y1 - rim), r, (*colour.tolist(), 1.0))
    return layer


def _rounded(img: np.ndarray, rect: tuple[int, int, int, int], r: int, colour: tuple[float, ...]) -> None:
    x0, y0, x1, y1 = rect
    cv2.rectangle(img, (x0 + r, y0), (x1 - r, y1), colour, -1)
    cv2.rectangle(img, (x0, y0 + r), (x1, y1 - r), colour, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(img, (cx, cy), r, colour, -1)


def clutter(rng: np.random.Generator, surface: np.ndarray) -> None:
    """Draw 0–3 objects (cards, coins, a cup's rim, dice) with soft shadows onto a float BGR surface."""
    h, w = surface.shape[:2]
    for _ in range(int(rng.choice(4, p=[0.5, 0.25, 0.15, 0.1]))):
        size = float(rng.uniform(0.03, 0.15)) * min(w, h)
        reach = int(size) + 8  # the object, its shadow and the blur fit in this square around the centre
        cx, cy = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        x0, y0, x1, y1 = max(cx - reach, 0), max(cy - reach, 0), min(cx + reach, w), min(cy + reach, h)
        mask = np.zeros((y1 - y0, x1 - x0), np.float32)
        centre = (cx - x0, cy - y0)
        if rng.random() < 0.5:
            box = (centre, (size * float(rng.uniform(0.6, 1.6)), size), float(rng.uniform(0, 180)))
            cv2.fillConvexPoly(mask, cv2.boxPoints(box).astype(np.int32), 1.0, cv2.LINE_AA)
        else:
            cv2.circle(mask, centre, int(size / 2), 1.0, -1, cv2.LINE_AA)
        shift = np.float32([[1, 0, size * 0.05], [0, 1, size * 0.08]])
        shadow = cv2.GaussianBlur(cv2.warpAffine(mask, shift, mask.shape[::-1]), (0, 0), max(1.0, size * 0.06))
        colour = np.array(CLUTTER[int(rng.integers(len(CLUTTER)))], np.float32) * np.float32(rng.uniform(0.7, 1.2))
        roi = surface[y0:y1, x0:x1]
        roi *= (1 - 0.4 * shadow)[:, :, None]
        roi[:] = roi * (1 - mask[:, :, None]) + colour * mask[:, :, None]
