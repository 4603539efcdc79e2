"""The labelled real photos (`chinese-mahjong-v4`, read from ``../shared``) as their files give them: which source
photo an augmented copy came from, which sources are held out, and the labels in our 43 classes."""

from __future__ import annotations

import csv
import hashlib
from pathlib import Path

import numpy as np

from scoring.tiles import tile

HOLDOUT_PERCENT = 10
HOLDOUT_SALT = "mcr-lens-holdout-v1"


def source_name(image: Path) -> str:
    """The source photo an augmented copy came from: the file name before ``.rf.``."""
    return image.name.split(".rf.")[0]


def is_held_out(source: str) -> bool:
    """Deterministic split by source photo: about HOLDOUT_PERCENT % of sources, stable as data is added."""
    digest = hashlib.sha256(f"{HOLDOUT_SALT}:{source}".encode()).digest()
    return int.from_bytes(digest[:4], "big") % 100 < HOLDOUT_PERCENT


def class_map(classes_tsv: Path) -> dict[int, int]:
    """Source class index -> our class index, through the tile code column."""
    with classes_tsv.open(newline="") as f:
        return {int(row["index"]): tile(row["code"]).index for row in csv.DictReader(f, delimiter="\t")}


def read_labels(path: Path, mapping: dict[int, int]) -> np.ndarray:
    """(n, 5) rows ``class cx cy w h`` in our classes; polygon rows become their bounding boxes."""
    rows = []
    for line in path.read_text().split("\n"):
        values = line.split()
        if not values:
            continue
        cls, coords = mapping[int(values[0])], np.array(values[1:], dtype=np.float64)
        if len(coords) == 4:
            rows.append([cls, *coords])
        else:
            xs, ys = coords[0::2], coords[1::2]
            x1, x2, y1, y2 = xs.min(), xs.max(), ys.min(), ys.max()
            rows.append([cls, (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1])
    return np.array(rows, dtype=np.float64).reshape(-1, 5)
