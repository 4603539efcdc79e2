"""`TileDetections`: the one value every vision stage passes on (detector → layout → API → labelling).

Parallel numpy columns, like supervision's ``Detections`` but frozen and tile-typed: row ``i`` is one
tile found at ``xyxy[i]`` (original image pixels) with face ``TILES[class_id[i]]``. Indexing with a
boolean mask, an integer array or a slice gives a new value, so filtering is one expression::

    sure = detections[detections.confidence > 0.5]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring.tiles import TILES, Tile


@dataclass(frozen=True, eq=False)
class TileDetections:
    """Tiles found in one image: boxes ``xyxy`` (n×4, pixels), ``confidence`` (n), ``class_id`` (n)."""

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32)
        if xyxy.size == 0:
            xyxy = xyxy.reshape(0, 4)
        confidence = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        class_id = np.asarray(self.class_id).reshape(-1)
        if xyxy.ndim != 2 or xyxy.shape[1] != 4:
            raise ValueError(f"xyxy must have shape (n, 4), got {xyxy.shape}")
        n = len(xyxy)
        if confidence.shape != (n,) or class_id.shape != (n,):
            raise ValueError(
                f"columns differ in length: xyxy {n}, confidence {len(confidence)}, class_id {len(class_id)}"
            )
        if n and not np.issubdtype(class_id.dtype, np.integer):
            raise ValueError(f"class_id must hold integers, got {class_id.dtype}")
        class_id = class_id.astype(np.int64)
        if n and (class_id.min() < 0 or class_id.max() >= len(TILES)):
            raise ValueError(f"class_id outside 0..{len(TILES) - 1}: {sorted(set(class_id.tolist()))}")
        for name, column in (("xyxy", xyxy), ("confidence", confidence), ("class_id", class_id)):
            column.flags.writeable = False  # frozen means frozen: no edits through the arrays either
            object.__setattr__(self, name, column)

    @classmethod
    def empty(cls) -> TileDetections:
        return cls(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int64))

    def __len__(self) -> int:
        return len(self.xyxy)

    def __getitem__(self, index: np.ndarray | slice | list[int] | int) -> TileDetections:
        """Rows picked by a boolean mask, integer indices or a slice (an int keeps one row)."""
        if isinstance(index, (int, np.integer)):
            index = [int(index)]
        index = np.asarray(index) if isinstance(index, list) else index
        if isinstance(index, np.ndarray) and index.dtype == bool and index.shape != (len(self),):
            raise IndexError(f"boolean mask of shape {index.shape} for {len(self)} detections")
        return TileDetections(self.xyxy[index], self.confidence[index], self.class_id[index])

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """The face of each row, from the one tile vocabulary."""
        return tuple(TILES[i] for i in self.class_id.tolist())

    def to_json(self) -> list[dict[str, Any]]:
        """The `mcr detect` tile list: ``[{"code", "confidence", "box": [x1, y1, x2, y2]}, ...]``."""
        return [
            {"code": t.code, "confidence": round(float(c), 4), "box": [round(float(v), 1) for v in box]}
            for t, c, box in zip(self.tiles, self.confidence, self.xyxy, strict=True)
        ]
