"""Contact sheets, to check by eye: every face of a style, or a grid of generated scenes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from datasets.faces import BY_NAME, FACE_CODES, FACE_H, FACE_W

COLUMNS = 14


def face_sheet(style: str) -> np.ndarray:
    """All 42 faces of ``style`` in class order, each captioned with its code (missing ones black), then its
    other drawings of a face (a red five: ``5m-red``)."""
    got = BY_NAME[style].faces()
    cells = []
    for code in (*FACE_CODES, *sorted(set(got) - set(FACE_CODES))):
        cell = np.zeros((FACE_H + 16, FACE_W + 4, 3), np.uint8)
        if code in got:
            cell[16:, 2:-2] = got[code]
        cv2.putText(cell, code, (4, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 255, 255), 1, cv2.LINE_AA)
        cells.append(cell)
    return _grid(cells, COLUMNS)


def scene_sheet(images: Sequence[Path], columns: int = 4, cell: int = 320) -> np.ndarray:
    """The photos side by side, each fitted into a ``cell``-pixel square."""
    cells = []
    for path in images:
        img = cv2.imread(str(path))
        if img is None:
            raise OSError(f"cannot read {path}")
        scale = cell / max(img.shape[:2])
        img = cv2.resize(img, (round(img.shape[1] * scale), round(img.shape[0] * scale)),
                         interpolation=cv2.INTER_AREA)
        square = np.full((cell, cell, 3), 24, np.uint8)
        y, x = (cell - img.shape[0]) // 2, (cell - img.shape[1]) // 2
        square[y:y + img.shape[0], x:x + img.shape[1]] = img
        cells.append(square)
    return _grid(cells, columns)


def _grid(cells: list[np.ndarray], columns: int) -> np.ndarray:
    if not cells:
        raise ValueError("nothing to put on a contact sheet")
    cells = cells + [np.zeros_like(cells[0])] * (-len(cells) % columns)
    return np.vstack([np.hstack(cells[i:i + columns]) for i in range(0, len(cells), columns)])
