"""Procedural table surfaces: felt, wood, cloth, printed mats and plain tables (no image files needed).

Noise is drawn at low resolution and scaled up, which is both fast and what real textures look like
once a phone has smoothed them.
"""

from __future__ import annotations

import numpy as np
import cv2

# BGR base colours seen under real games.
FELT = ((48, 110, 36), (70, 120, 20), (40, 80, 30), (110, 70, 30), (120, 90, 40), (40, 40, 120),
        (50, 50, 50), (90, 110, 60), (60, 140, 110))
WOOD = (((40, 80, 140), (25, 50, 95)), ((70, 120, 170), (45, 85, 125)), ((30, 50, 80), (15, 30, 50)),
        ((150, 170, 190), (120, 135, 150)), ((90, 130, 180), (60, 95, 140)))
PLAIN = ((200, 200, 200), (220, 225, 230), (160, 165, 170), (235, 235, 235), (120, 125, 130), (40, 40, 40))


def _noise(rng: np.random.Generator, w: int, h: int, cell: int) -> np.ndarray:
    """Smooth noise in [-1, 1] with features about ``cell`` pixels wide."""
    small = rng.standard_normal((max(2, h // cell), max(2, w // cell))).astype(np.float32)
    return np.clip(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) / 2.0, -1.0, 1.0)


def _grid(w: int, h: int) -> tuple[np.ndarray, np.ndarray]:
    return np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))


def _jitter(rng: np.random.Generator, colour: tuple[int, int, int], amount: float = 18) -> np.ndarray:
    return np.clip(np.array(colour, np.float32) + rng.uniform(-amount, amount, 3), 0, 255).astype(np.float32)


def felt(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _jitter(rng, FELT[int(rng.integers(len(FELT)))])
    shade = 1 + 0.08 * _noise(rng, w, h, 30) + 0.05 * _noise(rng, w, h, 2)
    return base[None, None, :] * shade[:, :, None]


def wood(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    light, dark = (_jitter(rng, c, 12) for c in WOOD[int(rng.integers(len(WOOD)))])
    x, y = _grid(w, h)
    a = float(rng.uniform(0, np.pi))
    cos, sin = np.float32(np.cos(a)), np.float32(np.sin(a))
    freq = np.float32(rng.uniform(0.08, 0.3))
    across = -x * sin + y * cos
    # rings: straight grain bent gently, with fine fibres across the boards
    grain = np.sin(across * freq + 2.5 * _noise(rng, w, h, 80) + 0.4 * _noise(rng, w, h, 4))
    t = (0.5 + 0.5 * grain) ** np.float32(rng.uniform(1.0, 3.0))
    out = light[None, None, :] * (1 - t[:, :, None]) + dark[None, None, :] * t[:, :, None]
    if rng.random() < 0.5:  # planks
        plank = (np.floor(across / np.float32(rng.uniform(30, 100))) % 2)[:, :, None]
        out *= 1 - 0.08 * plank
    return out * (1 + 0.04 * _noise(rng, w, h, 2))[:, :, None]


def cloth(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    out = felt(rng, w, h)
    x, y = _grid(w, h)
    period = np.float32(rng.uniform(1.5, 3.5))
    step = np.float32(2 * np.pi) / period
    weave = np.sin(x * step) * np.sin(y * step)
    out *= (1 + 0.07 * weave)[:, :, None]
    if rng.random() < 0.5:  # a plaid of coloured bands
        stripe = np.float32(rng.uniform(15, 60))
        bands = ((np.floor(x / stripe) + np.floor(y / stripe)) % 2)[:, :, None]
        out = out * (1 - 0.25 * bands) + _jitter(rng, (200, 200, 200), 60)[None, None, :] * 0.25 * bands
    return out


def mat(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A felt mat with a printed border, as sold for home games."""
    out = felt(rng, w, h)
    colour = tuple(float(c) for c in _jitter(rng, (200, 210, 220), 50))
    for inset in rng.uniform(0.03, 0.3, size=int(rng.integers(1, 3))):
        ix, iy = int(w * inset), int(h * inset)
        cv2.rectangle(out, (ix, iy), (w - ix, h - iy), colour, int(rng.integers(1, 4)), cv2.LINE_AA)
    return out


def plain(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    base = _jitter(rng, PLAIN[int(rng.integers(len(PLAIN)))], 10)
    return base[None, None, :] * (1 + 0.05 * _noise(rng, w, h, 60) + 0.02 * _noise(rng, w, h, 2))[:, :, None]


SURFACES = (felt, felt, wood, wood, cloth, mat, plain)


def _surface(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    return SURFACES[int(rng.integers(len(SURFACES)))](rng, w, h).astype(np.float32)


def background(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A random table surface (float32 BGR, 0–255), drawn at half size: the camera blurs it anyway.

    Sometimes the table ends in the photo: beyond a straight edge lies another surface (the floor, a
    tray, the table's rim), darker or lighter.
    """
    hw, hh = max(2, w // 2), max(2, h // 2)
    out = _surface(rng, hw, hh)
    if rng.random() < 0.3:
        beyond = _surface(rng, hw, hh) * np.float32(rng.uniform(0.35, 1.3))
        x, y = _grid(hw, hh)
        a = float(rng.uniform(0, 2 * np.pi))
        side = x * np.float32(np.cos(a)) + y * np.float32(np.sin(a))
        cut = float(rng.uniform(0.75, 0.95)) * float(side.max()) + 0.05 * float(side.min())
        mask = cv2.GaussianBlur((side > cut).astype(np.float32), (0, 0), 1.0)[:, :, None]
        out = out * (1 - mask) + beyond * mask
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)
