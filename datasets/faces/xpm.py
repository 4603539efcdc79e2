"""The ``mah-jong`` package's pixel-art tiles (XPM files, read by a small parser: OpenCV has no XPM): its
``tiles-v1`` set and ``tiles-numbered``, the same art with a corner index (a red numeral on the characters,
a red letter on the winds, a number on the flowers and seasons).

File names: ``<n>D`` dots, ``<n>B`` bamboo, ``<n>C`` characters, ``EW SW WW NW`` winds,
``RD GD WD`` red/green/white dragons, ``1F``–``4F`` plum, orchid, chrysanthemum, bamboo (the painted
numbers match), ``1S``–``4S`` spring–winter.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np

from datasets.faces.source import FACE_H, FACE_W, FaceSource, Faces

TILES = Path("/usr/share/mah-jong")
LICENCE = "GPL-2.0-or-later (mah-jong by Julian Bradfield: /usr/share/doc/mah-jong/copyright)"


def file_codes() -> dict[str, str]:
    """XPM file stem -> tile code."""
    names = {f"{r}{letter}": f"{r}{suit}" for r in range(1, 10) for letter, suit in zip("DBC", "psm")}
    names |= {f"{w}W": w for w in "ESWN"} | {"RD": "C", "GD": "F", "WD": "P"}
    names |= {f"{n}F": f"{n}f" for n in range(1, 5)} | {f"{n}S": f"{n + 4}f" for n in range(1, 5)}
    return names


def _colour(spec: str) -> tuple[int, int, int]:
    if not spec.startswith("#"):
        raise ValueError(f"unsupported XPM colour {spec!r}")
    digits = spec[1:]
    n = len(digits) // 3
    r, g, b = (int(digits[i * n:(i + 1) * n], 16) * 255 // (16 ** n - 1) for i in range(3))
    return b, g, r


def read_xpm(path: Path) -> np.ndarray:
    """Decode an XPM2/3 image with hex colours into BGR (transparent pixels become white)."""
    strings = re.findall(r'"((?:[^"\\]|\\.)*)"', path.read_text())
    width, height, ncolours, cpp = map(int, strings[0].split()[:4])
    palette: dict[str, tuple[int, int, int]] = {}
    for entry in strings[1:1 + ncolours]:
        key, words = entry[:cpp], entry[cpp:].split()
        spec = words[words.index("c") + 1]
        palette[key] = (255, 255, 255) if spec.lower() == "none" else _colour(spec)
    img = np.zeros((height, width, 3), np.uint8)
    for y, row in enumerate(strings[1 + ncolours:1 + ncolours + height]):
        img[y] = [palette[row[x * cpp:(x + 1) * cpp]] for x in range(width)]
    return img


def _render(folder: Path) -> Faces:
    faces: Faces = {}
    for stem, code in file_codes().items():
        pixels = read_xpm(folder / f"{stem}.xpm")[1:-1, 1:-1]  # drop the 1-pixel outline
        faces[code] = cv2.resize(pixels, (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)
    return faces


def _source(name: str, folder: Path) -> FaceSource:
    return FaceSource(name=name, package="mah-jong", requires=(folder / "1D.xpm",), render=lambda: _render(folder),
                      licence=LICENCE)


PIXEL = _source("mahjong-pixel", TILES / "tiles-v1")
NUMBERED = _source("mahjong-numbered", TILES / "tiles-numbered")
