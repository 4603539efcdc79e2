"""The phone: a homography from the table plane to the photo, and the photo's defects.

The camera is held above or in front of the tiles (far edge foreshortened), the photo may be turned to
any angle (upside down too), and the light, glare, blur, noise and JPEG quality vary.
"""

from __future__ import annotations

import cv2
import numpy as np


def homography(rng: np.random.Generator, extent: tuple[float, float, float, float], size: tuple[int, int],
               elevation: float, fill: float, level: bool = False) -> tuple[np.ndarray, float]:
    """Map the plane box ``extent`` (x0, y0, x1, y1) into a ``size`` (w, h) photo.

    ``elevation`` is the camera's angle above the table in degrees (90 looks straight down): depth is
    foreshortened by its sine and the far edge narrows. ``fill`` is the share of the photo the content
    spans (above 1 crops it). ``level``: the phone held level, as from a seat at the table (turned a few
    degrees at most). Also returns how far the photo is turned, in degrees clockwise.
    """
    x0, y0, x1, y1 = extent
    w, h = x1 - x0, y1 - y0
    src = np.array([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], np.float32)
    phi = np.deg2rad(elevation)
    squash = float(np.sin(phi))
    # the far edge narrows with the content's depth relative to the camera distance (about its size)
    narrow = 1.0 - float(np.cos(phi)) * float(rng.uniform(0.3, 0.7)) * h / max(w, h)
    quad = np.array([(-w / 2 * narrow, -h / 2 * squash), (w / 2 * narrow, -h / 2 * squash),
                     (w / 2, h / 2 * squash), (-w / 2, h / 2 * squash)], np.float32)
    quad += rng.normal(0, 0.03 * min(w, h), quad.shape).astype(np.float32)  # a hand is never level
    roll = rng.random()
    if level:
        angle = rng.normal(0, 4)
    elif roll < 0.45:
        angle = rng.normal(0, 12)
    elif roll < 0.65:
        angle = float(rng.choice([90.0, 180.0, 270.0])) + rng.normal(0, 8)
    else:
        angle = rng.uniform(-180, 180)
    a = np.deg2rad(angle)
    quad = quad @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]], np.float32)
    span = quad.max(axis=0) - quad.min(axis=0)
    scale = fill * min(size[0] / span[0], size[1] / span[1])
    quad = (quad - quad.min(axis=0)) * scale
    room = np.array(size, np.float32) - (quad.max(axis=0))
    quad += np.array([rng.uniform(min(0, r), max(0, r)) for r in room], np.float32)
    return cv2.getPerspectiveTransform(src, quad.astype(np.float32)), float((angle + 180) % 360 - 180)


def local_scale(hom: np.ndarray, point: tuple[float, float]) -> float:
    """Photo pixels per plane unit around ``point`` (square root of the Jacobian's determinant)."""
    x, y = point
    pts = np.array([[(x, y), (x + 1e-2, y), (x, y + 1e-2)]], np.float32)
    p = cv2.perspectiveTransform(pts, hom)[0]
    (ax, ay), (bx, by) = p[1] - p[0], p[2] - p[0]
    return float(np.sqrt(abs(ax * by - ay * bx)) / 1e-2)


BACKLIT = 0.08  # share of photos taken against the light
GRAIN = 0.3  # share of photos with a phone's coarse, coloured grain rather than fine sensor noise


def develop(rng: np.random.Generator, img: np.ndarray, gloss: np.ndarray, product: bool = False) -> np.ndarray:
    """Turn the scene (float BGR) into a phone photo (uint8): focus blur, motion blur or the phone's
    sharpening; coloured, uneven light with vignetting; sometimes a glare spot that shines most on the
    glossy tiles (``gloss``: 1 on tiles) or a light behind them (backlit); then sensor noise or grain.
    ``product``: a shop's product photo instead, evenly lit and small (`low_resolution`)."""
    if product:
        return low_resolution(rng, np.clip(img * np.float32(rng.uniform(0.95, 1.1)), 0, 255)).astype(np.uint8)
    img = _optics(rng, img)
    h, w = img.shape[:2]
    colour = np.array([rng.uniform(0.8, 1.1), rng.uniform(0.9, 1.05), rng.uniform(0.85, 1.15)], np.float32)
    colour *= np.float32(rng.uniform(0.7, 1.15))
    # the light's gain varies smoothly, so it is built at an eighth of the size
    sw, sh = w // 8 + 1, h // 8 + 1
    gx, gy = rng.normal(0, 0.35, 2).astype(np.float32)
    gain = 1 + gx * np.linspace(-0.5, 0.5, sw, dtype=np.float32)[None, :] \
        + gy * np.linspace(-0.5, 0.5, sh, dtype=np.float32)[:, None]
    if rng.random() < 0.4:  # lens vignetting
        fall = cv2.getGaussianKernel(sh, sh / 1.25) @ cv2.getGaussianKernel(sw, sw / 1.25).T
        gain *= (1 - float(rng.uniform(0.15, 0.45)) * (1 - fall / fall.max())).astype(np.float32)
    img *= colour
    img *= cv2.resize(gain, (w, h))[:, :, None]
    if rng.random() < 0.3:  # glare, drawn at quarter size: it is blurred anyway
        qw, qh = max(2, w // 4), max(2, h // 4)
        spot = np.zeros((qh, qw), np.float32)
        axes = (int(rng.uniform(0.03, 0.15) * qw) + 1, int(rng.uniform(0.02, 0.08) * qh) + 1)
        cv2.ellipse(spot, (int(rng.uniform(0, qw)), int(rng.uniform(0, qh))), axes, float(rng.uniform(0, 180)),
                    0, 360, 1.0, -1)
        spot = cv2.resize(cv2.GaussianBlur(spot, (0, 0), max(axes) / 2), (w, h))
        img += (spot * (0.2 + 0.8 * gloss) * np.float32(rng.uniform(60, 180)))[:, :, None]
    if rng.random() < BACKLIT:
        img = _backlit(rng, img, gloss)
    if rng.random() < GRAIN:
        img = _grain(rng, img)
    else:
        sigma = float(rng.uniform(0, 7))
        if sigma > 0.5:  # mostly luminance noise, as phone sensors show after their own processing
            noise = rng.standard_normal((h, w), dtype=np.float32)
            noise *= sigma
            img += noise[:, :, None]
    np.clip(img, 0, 255, out=img)
    return img.astype(np.uint8)


def _backlit(rng: np.random.Generator, img: np.ndarray, gloss: np.ndarray) -> np.ndarray:
    """A window or lamp beyond the tiles: the exposure set for the light, so the tiles fall dark and a veil of
    stray light lowers their contrast; the light itself washes out the table on its side."""
    h, w = img.shape[:2]
    a = float(rng.uniform(0, 2 * np.pi))
    ramp = np.linspace(-1, 1, w, dtype=np.float32)[None, :] * np.float32(np.cos(a)) \
        + np.linspace(-1, 1, h, dtype=np.float32)[:, None] * np.float32(np.sin(a))
    light = np.clip(ramp * 0.5 + np.float32(rng.uniform(0.0, 0.4)), 0, 1) ** 2 * np.float32(rng.uniform(150, 260))
    veil = np.float32(rng.uniform(15, 50))
    return img * np.float32(rng.uniform(0.4, 0.7)) + (light * (1 - 0.6 * gloss))[:, :, None] + veil


def _grain(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A phone's grain after its noise reduction: clumps of 2–3 pixels, stronger in the shadows, with some
    colour in it."""
    h, w = img.shape[:2]
    clump = float(rng.uniform(1.5, 3.0))
    small = (max(2, int(w / clump)), max(2, int(h / clump)))
    luma = cv2.resize(rng.standard_normal(small[::-1], dtype=np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    chroma = cv2.resize(rng.standard_normal((small[1] // 2 + 1, small[0] // 2 + 1, 3), dtype=np.float32), (w, h),
                        interpolation=cv2.INTER_LINEAR)
    dark = 1.6 - img.mean(axis=2, keepdims=True) / 255.0
    return img + (luma[:, :, None] * np.float32(rng.uniform(4, 12)) + chroma * np.float32(rng.uniform(1, 5))) * dark


def low_resolution(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """The photo as a small product picture (a long side of 140–320 px) enlarged back to its size: what a
    shop's listing shows once a page has scaled it."""
    h, w = img.shape[:2]
    scale = float(rng.uniform(140, 320)) / max(w, h)
    if scale >= 1:
        return img
    small = cv2.resize(img, (max(2, round(w * scale)), max(2, round(h * scale))), interpolation=cv2.INTER_AREA)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _optics(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    roll = rng.random()
    if roll < 0.35:
        return cv2.GaussianBlur(img, (0, 0), float(rng.uniform(0.4, 1.3)))
    if roll < 0.5:
        k = int(rng.integers(3, 7))
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        return cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    if roll < 0.75:  # the phone's own sharpening, with its faint halos
        soft = cv2.GaussianBlur(img, (0, 0), float(rng.uniform(1.0, 2.5)))
        return cv2.addWeighted(img, 1.5, soft, -0.5, 0)
    return img
