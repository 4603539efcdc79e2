"""Physical tile bodies drawn on the table plane: a rounded face, its visible thickness (an ivory layer
over a coloured back layer), and face-down tiles showing the back colour.

The thickness is drawn toward the camera (+y on the plane): after the camera's perspective it reads as
the near side of a tile lying on the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.faces import Faces
from datasets.layouts import Placed

# BGR colours of tile backs in real sets: green, blue, yellow, orange, pink, black, white, red, purple.
BACKS = ((60, 140, 40), (70, 150, 70), (160, 90, 30), (40, 170, 220), (40, 110, 220), (140, 110, 220),
         (40, 40, 40), (220, 220, 215), (130, 160, 60), (40, 40, 180), (130, 50, 120), (170, 60, 90))
# Two-tone backs (a panel of the second colour framed by the first), as on some riichi and Hong Kong sets.
TWO_TONE = (((160, 90, 30), (225, 225, 220)), ((60, 140, 40), (40, 180, 225)), ((40, 40, 180), (40, 175, 225)),
            ((130, 50, 120), (220, 220, 215)), ((40, 40, 40), (40, 150, 220)))
TWO_TONE_SHARE = 0.15
RIM = 6  # pixels of plain ground added around each face before it is warped onto a tile


@dataclass(frozen=True)
class Body:
    """How the tiles of one scene look beyond their faces."""

    back: tuple[float, float, float]
    ivory: tuple[float, float, float]
    thickness: float  # visible side depth, in tile widths
    back_share: float  # share of the thickness that is the coloured back layer
    corner: float  # corner radius as a share of the face width
    ccw: bool  # sideways tiles turned counter-clockwise (top to the left)
    panel: tuple[float, float, float] | None = None  # a two-tone back's inner panel colour

    @staticmethod
    def random(rng: np.random.Generator, elevation: float) -> Body:
        """A random look; the visible side grows as the camera gets lower (``elevation`` in degrees):
        a tile about half its width thick shows ``thickness · cot(elevation)`` on the table plane."""
        back = np.clip(np.array(BACKS[int(rng.integers(len(BACKS)))], float) + rng.uniform(-15, 15, 3), 0, 255)
        ivory = np.clip(np.array((215, 232, 240), float) + rng.uniform(-20, 12, 3), 0, 255)
        side = float(rng.uniform(0.4, 0.62)) / np.tan(np.deg2rad(elevation))
        panel = None
        if rng.random() < TWO_TONE_SHARE:
            frame, inner = TWO_TONE[int(rng.integers(len(TWO_TONE)))]
            back, panel = np.array(frame, float), tuple(float(c) for c in inner)
        return Body(tuple(back), tuple(ivory), side,
                    float(rng.uniform(0.3, 0.65)), float(rng.uniform(0.06, 0.16)), bool(rng.random() < 0.5), panel)


def rounded_alpha(w: int, h: int, radius: float) -> np.ndarray:
    """A float mask of a rounded rectangle, 1 inside."""
    mask = np.zeros((h, w), np.uint8)
    r = max(1, int(radius))
    cv2.rectangle(mask, (r, 0), (w - 1 - r, h - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (w - 1, h - 1 - r), 255, -1)
    for cx, cy in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask.astype(np.float32) / 255.0


def _bevel(alpha: np.ndarray, w: int) -> np.ndarray:
    """Shading of a tile's rounded top: edges fall away from the light, the far-left edge catches it."""
    inside = cv2.distanceTransform((alpha > 0.5).astype(np.uint8), cv2.DIST_L2, 3)
    edge = np.clip(inside / max(1.0, 0.07 * w), 0, 1)
    shade = 0.8 + 0.2 * edge
    h = alpha.shape[0]
    shade += 0.06 * np.linspace(1, -1, h, dtype=np.float32)[:, None] * (1 - edge)
    return shade[:, :, None].astype(np.float32)


def tops(faces: Faces, body: Body, size: tuple[int, int]) -> dict[str, np.ndarray]:
    """Each face framed by a rim of its own ground colour, scaled to ``size`` (w, h) with rounded
    corners, as BGRA float32; plus ``back``, the top of a face-down tile."""
    w, h = size
    alpha = rounded_alpha(w, h, body.corner * w)
    bevel = _bevel(alpha, w)
    out: dict[str, np.ndarray] = {}
    for code, face in faces.items():
        ground = np.median(np.concatenate([face[0], face[-1], face[:, 0], face[:, -1]]), axis=0)
        framed = cv2.copyMakeBorder(face, RIM, RIM, RIM, RIM, cv2.BORDER_CONSTANT, value=ground.tolist())
        top = np.empty((h, w, 4), np.float32)
        top[:, :, :3] = cv2.resize(framed, (w, h), interpolation=cv2.INTER_AREA) * bevel
        top[:, :, 3] = alpha
        out[code] = top
    back = np.empty((h, w, 4), np.float32)
    back[:, :, :3] = body.back
    if body.panel is not None:
        inset = rounded_alpha(w - 2 * (w // 6), h - 2 * (w // 6), body.corner * w)[:, :, None]
        inner = back[w // 6:h - w // 6, w // 6:w - w // 6, :3]
        inner[:] = inner * (1 - inset) + np.array(body.panel, np.float32) * inset
    back[:, :, :3] *= bevel * (1.0 + 0.05 * np.linspace(1, -1, h, dtype=np.float32))[:, None, None]
    back[:, :, 3] = alpha
    out["back"] = back
    return out


def footprint(tile: Placed, aspect: float, ccw: bool = True) -> np.ndarray:
    """The tile's top surface corners in tile units, in the face's own order: TL, TR, BR, BL of the art."""
    w, d = (aspect, 1.0) if tile.sideways else (1.0, aspect)
    x0, y0 = tile.x, tile.y
    corners = np.array([(x0, y0), (x0 + w, y0), (x0 + w, y0 + d), (x0, y0 + d)], np.float32)
    if tile.sideways:  # the art's top edge lies along the left side (ccw) or the right side (cw)
        corners = np.roll(corners, 1 if ccw else -1, axis=0)
    if tile.angle:
        c = corners.mean(axis=0)
        a = np.deg2rad(tile.angle)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        corners = (corners - c) @ rot.T + c
    return corners


def _hull(points: np.ndarray) -> np.ndarray:
    return cv2.convexHull(np.round(points * 4).astype(np.int32))


def draw_tile(plane: np.ndarray, top: np.ndarray, corners: np.ndarray, body: Body, face_down: bool,
              thickness_px: float, layers: int = 1) -> None:
    """Draw one tile (corners in plane pixels) onto the BGRA float plane, thickness first; ``layers`` tiles
    stacked alike (an automatic table's raised wall) show that many sides, the lowest nearest the camera."""
    upper, lower = (body.back, body.ivory) if face_down else (body.ivory, body.back)
    split = 1 - body.back_share
    # the side in strips, far to near, each a little darker: the rounded edge turns away from the light
    strips = ((0.0, 0.12, upper, 0.95), (0.12, split, upper, 0.8), (split, split + 0.5 * body.back_share, lower, 0.78),
              (split + 0.5 * body.back_share, 1.0, lower, 0.66))
    for layer in reversed(range(layers)):
        for a, b, colour, shade in reversed(strips):
            pts = np.vstack([corners + (0, (layer + a) * thickness_px),
                             corners + (0, (layer + b) * thickness_px)]).astype(np.float32)
            cv2.fillConvexPoly(plane, _hull(pts), (*(c * shade for c in colour), 1.0), cv2.LINE_AA, shift=2)
    _warp_top(plane, top, corners)


def _warp_top(plane: np.ndarray, top: np.ndarray, corners: np.ndarray) -> None:
    h, w = top.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, plane.shape[1]), min(y1, plane.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    src = np.array([(0, 0), (w, 0), (0, h)], np.float32)
    dst = np.array([corners[0], corners[1], corners[3]], np.float32) - np.array([x0, y0], np.float32)
    m = cv2.getAffineTransform(src, dst)
    warped = cv2.warpAffine(top, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                            borderValue=(0, 0, 0, 0))
    a = warped[:, :, 3:4]
    roi = plane[y0:y1, x0:x1]
    roi[:, :, :3] = roi[:, :, :3] * (1 - a) + warped[:, :, :3] * a
    roi[:, :, 3:4] = np.maximum(roi[:, :, 3:4], a)
