"""Procedural table surfaces: felt, wood, cloth, printed mats and plain tables (no image files needed).

Noise is drawn at low resolution and scaled up, which is both fast and what real textures look like
once a phone has smoothed them.
"""

from __future__ import annotations

import numpy as np
import cv2

from datasets.occluders import SKIN

# BGR base colours seen under real games.
FELT = ((48, 110, 36), (70, 120, 20), (40, 80, 30), (110, 70, 30), (120, 90, 40), (40, 40, 120),
        (50, 50, 50), (90, 110, 60), (60, 140, 110))
WOOD = (((40, 80, 140), (25, 50, 95)), ((70, 120, 170), (45, 85, 125)), ((30, 50, 80), (15, 30, 50)),
        ((150, 170, 190), (120, 135, 150)), ((90, 130, 180), (60, 95, 140)))
PLAIN = ((200, 200, 200), (220, 225, 230), (160, 165, 170), (235, 235, 235), (120, 125, 130), (40, 40, 40))
AUTOMATIC = ((120, 70, 20), (60, 110, 30), (90, 90, 90), (40, 30, 110), (110, 90, 40), (50, 90, 60))
SHEETS = ((235, 235, 240), (225, 230, 215), (200, 215, 235), (230, 215, 220), (215, 225, 210), (190, 200, 210))



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


def automatic(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """An automatic table: fine, even felt (blue, green, grey or wine) with the raised plastic rim of its
    centre console or its edge crossing the view, a little glossy."""
    base = _jitter(rng, AUTOMATIC[int(rng.integers(len(AUTOMATIC)))], 10)
    out = base[None, None, :] * (1 + 0.03 * _noise(rng, w, h, 80) + 0.03 * _noise(rng, w, h, 2))[:, :, None]
    x, y = _grid(w, h)
    a = float(rng.uniform(0, 2 * np.pi))
    side = x * np.float32(np.cos(a)) + y * np.float32(np.sin(a))
    at = float(rng.uniform(0.1, 0.9)) * (float(side.max()) - float(side.min())) + float(side.min())
    width = float(rng.uniform(0.04, 0.12)) * min(w, h)
    rim = np.clip(1 - np.abs(side - at) / width, 0, 1) ** 0.3  # a rounded ledge, brightest along its crest
    plastic = _jitter(rng, (40, 40, 45), 25)
    out = out * (1 - rim[:, :, None]) + plastic[None, None, :] * (0.7 + 0.6 * rim[:, :, None]) * rim[:, :, None]
    return out


def bed_sheet(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A bed sheet: pale cotton with soft folds, each lit on one side and shaded on the other, sometimes
    a printed pattern of small dots or stripes."""
    base = _jitter(rng, SHEETS[int(rng.integers(len(SHEETS)))], 12)
    folds = _streaks(rng, w, h, int(rng.integers(60, 200)), int(rng.integers(6, 20)))
    shade = 1 + 0.12 * folds + 0.06 * np.gradient(folds, axis=0) * 8
    out = base[None, None, :] * shade[:, :, None]
    if rng.random() < 0.5:
        x, y = _grid(w, h)
        period = np.float32(rng.uniform(8, 24))
        if rng.random() < 0.5:
            mark = ((x % period < period * 0.3) & (y % period < period * 0.3)).astype(np.float32)
        else:
            mark = ((x + y) % period < period * 0.25).astype(np.float32)
        ink = _jitter(rng, (150, 120, 190), 60)
        out = out * (1 - 0.5 * mark[:, :, None]) + ink[None, None, :] * 0.5 * mark[:, :, None] * shade[:, :, None]
    return out


def keyboard(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A computer keyboard: rows of keycaps with gaps between them and a light legend on each."""
    dark = rng.random() < 0.6
    cap = _jitter(rng, (40, 40, 42) if dark else (225, 225, 222), 12)
    gap = cap * np.float32(0.45 if dark else 0.7)
    out = np.empty((h, w, 3), np.float32)
    out[:] = gap
    letters = np.zeros((h, w), np.uint8)  # the legends, drawn apart: OpenCV writes text into 8-bit images only
    pitch = float(rng.uniform(0.07, 0.16)) * max(w, h)
    legend = _jitter(rng, (210, 210, 210), 20) if dark else _jitter(rng, (50, 50, 50), 20)
    for row, y in enumerate(np.arange(-pitch, h + pitch, pitch)):
        for x in np.arange(-pitch + (row % 3) * pitch / 3, w + pitch, pitch):
            x0, y0, x1, y1 = int(x + pitch * 0.08), int(y + pitch * 0.08), int(x + pitch * 0.92), int(y + pitch * 0.92)
            cv2.rectangle(out, (x0, y0), (x1, y1), tuple(float(c) for c in cap), -1)
            cv2.rectangle(out, (x0 + 2, y0 + 2), (x1 - 2, y1 - 2), tuple(float(c) * 1.08 for c in cap), -1)
            letter = chr(65 + int(rng.integers(26)))
            cv2.putText(letters, letter, (x0 + int(pitch * 0.15), y0 + int(pitch * 0.4)), cv2.FONT_HERSHEY_SIMPLEX,
                        pitch / 90, 255, max(1, int(pitch / 40)), cv2.LINE_AA)
    ink = letters.astype(np.float32)[:, :, None] / 255
    return out * (1 - ink) + legend[None, None, :] * ink


def palm(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A palm filling most of the view, seen from above: skin with its creases, the fingers' roots along
    one side, and whatever lies beyond (a floor, a table) at the edges."""
    out = _surface(rng, w, h) * np.float32(rng.uniform(0.4, 0.9))
    skin = _jitter(rng, SKIN[int(rng.integers(len(SKIN)))], 10)
    mask = np.zeros((h, w), np.float32)
    centre = (int(w * rng.uniform(0.45, 0.55)), int(h * rng.uniform(0.5, 0.6)))
    cv2.ellipse(mask, centre, (int(w * rng.uniform(0.55, 0.75)), int(h * rng.uniform(0.5, 0.7))),
                float(rng.uniform(-20, 20)), 0, 360, 1.0, -1)
    for k in range(4):  # the fingers leave the palm at its top
        fx = int(centre[0] + (k - 1.5) * w * 0.2)
        cv2.line(mask, (fx, centre[1]), (fx + int(rng.normal(0, w * 0.03)), 0), 1.0, int(w * 0.17))
    mask = cv2.GaussianBlur(mask, (0, 0), 3)[:, :, None]
    depth = cv2.GaussianBlur(mask[:, :, 0], (0, 0), max(w, h) * 0.08)
    shade = 0.75 + 0.35 * depth + 0.04 * _noise(rng, w, h, 3)
    creases = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(2, 5))):  # the palm's lines: long shallow arcs
        axes = (int(w * rng.uniform(0.2, 0.5)), int(h * rng.uniform(0.1, 0.3)))
        start = float(rng.uniform(0, 360))
        cv2.ellipse(creases, centre, axes, float(rng.uniform(-40, 40)), start, start + float(rng.uniform(40, 90)),
                    1.0, int(rng.integers(1, 3)), cv2.LINE_AA)
    shade *= 1 - 0.15 * cv2.GaussianBlur(creases, (0, 0), 1.5)
    return out * (1 - mask) + skin[None, None, :] * shade[:, :, None] * mask


def studio(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """A product photo's ground: white or light grey, lighter toward the middle."""
    base = _jitter(rng, (238, 238, 238), 14)
    x, y = _grid(w, h)
    fall = 1 - 0.12 * (((x - w / 2) / w) ** 2 + ((y - h / 2) / h) ** 2) * 4
    return base[None, None, :] * fall[:, :, None]


SURFACES = (felt, felt, wood, wood, cloth, mat, plain, automatic, bed_sheet, keyboard)
KINDS = {"table": None, "automatic": automatic, "palm": palm, "studio": studio}
"""What a scene stands on: any of `SURFACES` (``table``), or one kind of surface."""


def _surface(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    return SURFACES[int(rng.integers(len(SURFACES)))](rng, w, h).astype(np.float32)


def background(rng: np.random.Generator, w: int, h: int, kind: str = "table") -> np.ndarray:
    """A surface (float32 BGR, 0–255) of a `KINDS` kind, drawn at half size: the camera blurs it anyway.

    Sometimes a table ends in the photo: beyond a straight edge lies another surface (the floor, a
    tray, the table's rim), darker or lighter.
    """
    hw, hh = max(2, w // 2), max(2, h // 2)
    draw = KINDS[kind]
    out = _surface(rng, hw, hh) if draw is None else draw(rng, hw, hh).astype(np.float32)
    if kind == "table" and rng.random() < 0.3:
        beyond = _surface(rng, hw, hh) * np.float32(rng.uniform(0.35, 1.3))
        x, y = _grid(hw, hh)
        a = float(rng.uniform(0, 2 * np.pi))
        side = x * np.float32(np.cos(a)) + y * np.float32(np.sin(a))
        cut = float(rng.uniform(0.75, 0.95)) * float(side.max()) + 0.05 * float(side.min())
        mask = cv2.GaussianBlur((side > cut).astype(np.float32), (0, 0), 1.0)[:, :, None]
        out = out * (1 - mask) + beyond * mask
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_LINEAR)
