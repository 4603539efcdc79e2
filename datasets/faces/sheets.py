"""Tile faces cut from sprite sheets: xmahjongg's ``real.gif`` (scans of real tiles) and its two
"Dorothy" sets, and the ``gnome-mahjongg`` themes. The cell orders below were read off each sheet by eye.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.faces.source import FaceSource, Faces, rsvg, stretch_face

_SUITS = [f"{r}{s}" for s in "psm" for r in range(1, 10)]
# xmahjongg real.gif: 9 x 5 cells; the 9th cell of row 4 holds credits and row 5's last is blank.
XMAHJONGG_ORDER = (*_SUITS, "5f", "6f", "7f", "8f", "N", "S", "E", "W", None,
                   "1f", "2f", "3f", "4f", "F", "P", "C")
# xmahjongg dorothys.gif / dorwhite.gif: 21 x 4 cells (2 rows plain, 2 highlighted); the bonus tiles are
# named on their faces: spring summer autumn winter, white dragon, bamboo orchid plum chrysanthemum.
DOROTHY_ORDER = (*[f"{r}p" for r in range(1, 10)], "N", "W", "S", "E", "C", "F",
                 *[f"{r}m" for r in range(1, 10)], *[f"{r}s" for r in range(1, 10)],
                 "5f", "6f", "7f", "8f", "P", "4f", "2f", "1f", "3f")
# gnome-mahjongg themes: 43 cells in a row (2 rows: plain, highlighted).
GNOME_ORDER = (*[f"{r}p" for r in range(1, 10)], "N", "W", "S", "E", "C", "F",
               *[f"{r}m" for r in range(1, 10)], *[f"{r}s" for r in range(1, 10)],
               "2f", "3f", "1f", "4f", "P", "5f", "6f", "7f", "8f")


@dataclass(frozen=True)
class Sheet:
    """A grid of equal cells; ``crop`` is the face inside a cell as fractions (x0, y0, x1, y1)."""

    path: Path
    columns: int
    rows: int
    order: tuple[str | None, ...]
    crop: tuple[float, float, float, float]
    skip: frozenset[str] = frozenset()  # faces whose art does not show which tile it is

    def faces(self) -> Faces:
        img = self._read()
        cw, ch = img.shape[1] / self.columns, img.shape[0] / self.rows
        faces: Faces = {}
        for i, code in enumerate(self.order):
            if code is None or code in self.skip:
                continue
            cx, cy = (i % self.columns) * cw, (i // self.columns) * ch
            x0, y0, x1, y1 = self.crop
            cell = img[round(cy + y0 * ch):round(cy + y1 * ch), round(cx + x0 * cw):round(cx + x1 * cw)]
            faces[code] = stretch_face(cell)
        return faces

    def _read(self) -> np.ndarray:
        img = rsvg(self.path) if self.path.suffix == ".svg" else cv2.imread(str(self.path), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise OSError(f"cannot read tile sheet {self.path}")
        if img.ndim == 3 and img.shape[2] == 4:  # transparent edges: flatten on white
            alpha = img[:, :, 3:4].astype(np.float32) / 255.0
            img = (img[:, :, :3] * alpha + 255 * (1 - alpha)).astype(np.uint8)
        return img


def _source(name: str, package: str, sheet: Sheet) -> FaceSource:
    return FaceSource(name=name, package=package, requires=(sheet.path,), render=sheet.faces,
                      licence=f"GPL-2.0-or-later ({package}: /usr/share/doc/{package}/copyright)")


GNOME = Path("/usr/share/gnome-mahjongg/themes")
XMAHJONGG = Path("/usr/share/games/xmahjongg/tiles")
SOURCES: tuple[FaceSource, ...] = (
    _source("xmahjongg-real", "xmahjongg", Sheet(
        XMAHJONGG / "real.gif", 9, 5, XMAHJONGG_ORDER, (0.06, 0.05, 0.94, 0.95))),
    _source("xmahjongg-dorothy", "xmahjongg", Sheet(
        XMAHJONGG / "dorothys.gif", 21, 4, DOROTHY_ORDER, (0.02, 0.02, 0.82, 0.85))),
    _source("xmahjongg-dorwhite", "xmahjongg", Sheet(
        XMAHJONGG / "dorwhite.gif", 21, 4, DOROTHY_ORDER, (0.02, 0.02, 0.82, 0.85))),
    _source("gnome-smooth", "gnome-mahjongg", Sheet(
        GNOME / "smooth.png", 43, 2, GNOME_ORDER, (0.11, 0.03, 0.97, 0.86))),
    # postmodern's flowers and seasons are numbered pictures with no name, its white dragon a logo.
    _source("gnome-postmodern", "gnome-mahjongg", Sheet(
        GNOME / "postmodern.svg", 43, 2, GNOME_ORDER, (0.12, 0.03, 0.97, 0.88),
        skip=frozenset({"P", "1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"}))),
)
