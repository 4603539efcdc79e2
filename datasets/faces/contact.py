"""Contact sheets: every face of a style in one labelled image, to check the labels by eye."""

from __future__ import annotations

import cv2
import numpy as np

from datasets.faces import BY_NAME, FACE_CODES, FACE_H, FACE_W

COLUMNS = 14


def face_sheet(style: str) -> np.ndarray:
    """All 42 faces of ``style`` in class order, each captioned with its code (missing ones black)."""
    got = BY_NAME[style].faces()
    cells = []
    for code in FACE_CODES:
        cell = np.zeros((FACE_H + 16, FACE_W + 4, 3), np.uint8)
        if code in got:
            cell[16:, 2:-2] = got[code]
        cv2.putText(cell, code, (4, 12), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 255, 255), 1, cv2.LINE_AA)
        cells.append(cell)
    cells += [np.zeros_like(cells[0])] * (-len(cells) % COLUMNS)
    rows = [np.hstack(cells[i:i + COLUMNS]) for i in range(0, len(cells), COLUMNS)]
    return np.vstack(rows)
