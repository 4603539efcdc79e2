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


def _streaks(rng: np.random.Generator, w: int, h: int, along: int, across: int) -> np.ndarray:
    """Smooth noise in [-1, 1] stretched along x: features ``along`` px long and ``across`` px wide."""
    small = rng.standard_normal((max(2, h // across), max(2, w // along))).astype(np.float32)
    return np.clip(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) / 2.0, -1.0, 1.0)


def wood(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Boards with grain lines that wander along their length, drawn level and then turned."""
    light, dark = (_jitter(rng, c, 12) for c in WOOD[int(rng.integers(len(WOOD)))])
    side = int(np.ceil(np.hypot(w, h)))
    x, y = _grid(side, side)
    wander = y + np.float32(rng.uniform(4, 14)) * _streaks(rng, side, side, 90, 12)
    grain = np.sin(wander * np.float32(rng.uniform(0.3, 0.9)))
    t = (0.5 + 0.5 * grain) ** np.float32(rng.uniform(1.5, 4.0))
    t = np.clip(t * 0.7 + 0.3 * (0.5 + 0.5 * _streaks(rng, side, side, 120, 20)), 0, 1)
    t += 0.15 * _streaks(rng, side, side, 40, 1)  # fibres
    out = light[None, None, :] * (1 - t[:, :, None]) + dark[None, None, :] * t[:, :, None]
    if rng.random() < 0.6:  # boards, each a little lighter or darker, with dark seams
        width = float(rng.uniform(25, 90))
        board = np.floor(y / np.float32(width)).astype(np.int32)
        tone = (1 + 0.1 * rng.standard_normal(int(board.max()) + 1)).astype(np.float32)
        seam = np.abs((y / np.float32(width)) % 1 - 0.5) > 0.49
        out *= (tone[board] * np.where(seam, np.float32(0.6), np.float32(1.0)))[:, :, None]
    turn = cv2.getRotationMatrix2D((side / 2, side / 2), float(rng.uniform(0, 180)), 1.0)
    turn[:, 2] -= ((side - w) / 2, (side - h) / 2)
    return cv2.warpAffine(out, turn, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


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
