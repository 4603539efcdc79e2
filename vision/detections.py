"""`TileDetections`: the one value every vision stage passes on (detector → layout → API → labelling).

Parallel numpy columns, like supervision's ``Detections`` but frozen and tile-typed: row ``i`` is one
tile found at ``xyxy[i]`` (original image pixels) with face ``TILES[class_id[i]]``, and the face the
detector scored second there, ``runner_up[i]`` (-1: none worth naming), which is what a referee checks
first when the tile is doubtful. Indexing with a boolean mask, an integer array or a slice gives a new
value, so filtering is one expression::

    sure = detections[detections.confidence > 0.5]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from scoring.tiles import TILES, Tile, tile


@dataclass(frozen=True, eq=False)
class TileDetections:
    """Tiles found in one image: boxes ``xyxy`` (n×4, pixels), ``confidence`` (n), ``class_id`` (n),
    and optionally each tile's runner-up face ``runner_up`` (n, -1 for none) with its score
    ``runner_up_confidence`` (n)."""

    xyxy: np.ndarray
    confidence: np.ndarray
    class_id: np.ndarray
    runner_up: np.ndarray | None = None
    runner_up_confidence: np.ndarray | None = None

    def __post_init__(self) -> None:
        xyxy = np.asarray(self.xyxy, dtype=np.float32)
        if xyxy.size == 0:
            xyxy = xyxy.reshape(0, 4)
        if xyxy.ndim != 2 or xyxy.shape[1] != 4:
            raise ValueError(f"xyxy must have shape (n, 4), got {xyxy.shape}")
        n = len(xyxy)
        confidence = np.asarray(self.confidence, dtype=np.float32).reshape(-1)
        class_id = _class_column("class_id", self.class_id, n, allow_none=False)
        if (self.runner_up is None) != (self.runner_up_confidence is None):
            raise ValueError("runner_up and runner_up_confidence go together: give both or neither")
        if self.runner_up is None:
            runner_up, runner_up_confidence = np.full(n, -1, np.int64), np.zeros(n, np.float32)
        else:
            runner_up = _class_column("runner_up", self.runner_up, n, allow_none=True)
            runner_up_confidence = np.asarray(self.runner_up_confidence, dtype=np.float32).reshape(-1)
        lengths = {"confidence": len(confidence), "runner_up_confidence": len(runner_up_confidence)}
        if any(length != n for length in lengths.values()):
            found = ", ".join(f"{name} {length}" for name, length in lengths.items())
            raise ValueError(f"columns differ in length: xyxy {n}, class_id {n}, {found}")
        columns = {"xyxy": xyxy, "confidence": confidence, "class_id": class_id, "runner_up": runner_up,
                   "runner_up_confidence": np.where(runner_up >= 0, runner_up_confidence, 0).astype(np.float32)}
        for name, column in columns.items():
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
        return TileDetections(*(getattr(self, name)[index] for name in _COLUMNS))

    @classmethod
    def concat(cls, parts: list[TileDetections]) -> TileDetections:
        """All rows of ``parts``, in order."""
        if not parts:
            return cls.empty()
        return cls(*(np.concatenate([getattr(p, name) for p in parts]) for name in _COLUMNS))

    def with_boxes(self, xyxy: np.ndarray) -> TileDetections:
        """The same tiles at other boxes (moved or scaled into another image's pixels)."""
        return replace(self, xyxy=xyxy)

    def with_runner_up(self, rows: list[int]) -> TileDetections:
        """The tiles with ``rows`` read as their runner-up face (and the face read first as runner-up)."""
        swap = np.zeros(len(self), bool)
        swap[rows] = True
        if (self.runner_up[swap] < 0).any():
            raise ValueError(f"rows without a runner-up face: {np.flatnonzero(swap & (self.runner_up < 0)).tolist()}")
        return TileDetections(
            self.xyxy, np.where(swap, self.runner_up_confidence, self.confidence),
            np.where(swap, self.runner_up, self.class_id), np.where(swap, self.class_id, self.runner_up),
            np.where(swap, self.confidence, self.runner_up_confidence))

    def with_guesses(self, guesses: dict[int, int], as_sure: bool = False) -> TileDetections:
        """The tiles with each row of ``guesses`` given that face (a tile index) as its runner-up, scored 0: a face
        no reader scored but the hand's rules name (a flower not yet seen), for the layout to try as the others.
        ``as_sure``: scored as the face read, a face the photo's layout names as likely as the reader's (the
        kong of a stacked pair's box read as another face: `vision.stacks`)."""
        runner_up, runner_up_confidence = self.runner_up.copy(), self.runner_up_confidence.copy()
        for row, face in guesses.items():
            runner_up[row], runner_up_confidence[row] = face, self.confidence[row] if as_sure else 0.0
        return replace(self, runner_up=runner_up, runner_up_confidence=runner_up_confidence)

    @cached_property
    def tiles(self) -> tuple[Tile, ...]:
        """The face of each row, from the one tile vocabulary (worked out once: the columns are frozen, and the
        layout asks for faces tile by tile)."""
        return tuple(TILES[i] for i in self.class_id.tolist())

    @cached_property
    def runner_ups(self) -> tuple[Tile | None, ...]:
        """The runner-up face of each row, None where none is worth naming."""
        return tuple(TILES[i] if i >= 0 else None for i in self.runner_up.tolist())

    def to_json(self) -> list[dict[str, Any]]:
        """The `mcr detect` tile list: ``[{"code", "confidence", "box": [x1, y1, x2, y2], "runner_up":
        {"code", "confidence"} or null}, ...]``."""
        return [
            {"code": t.code, "confidence": round(float(c), 4), "box": [round(float(v), 1) for v in box],
             "runner_up": {"code": TILES[r].code, "confidence": round(float(rc), 4)} if r >= 0 else None}
            for t, c, box, r, rc in zip(self.tiles, self.confidence, self.xyxy, self.runner_up.tolist(),
                                        self.runner_up_confidence, strict=True)
        ]

    @classmethod
    def from_json(cls, tiles: list[dict[str, Any]]) -> TileDetections:
        """The inverse of `to_json` (``runner_up`` may be absent, as in files written before it existed)."""
        runner = [t.get("runner_up") for t in tiles]
        return cls(
            np.array([t["box"] for t in tiles], np.float32).reshape(-1, 4),
            np.array([t["confidence"] for t in tiles], np.float32),
            np.array([tile(t["code"]).index for t in tiles], np.int64),
            np.array([tile(r["code"]).index if r else -1 for r in runner], np.int64),
            np.array([r["confidence"] if r else 0.0 for r in runner], np.float32),
        )


_COLUMNS = ("xyxy", "confidence", "class_id", "runner_up", "runner_up_confidence")


def _class_column(name: str, values: Any, n: int, allow_none: bool) -> np.ndarray:
    """A column of tile class ids (-1 allowed for "none" where ``allow_none``), checked."""
    column = np.asarray(values).reshape(-1)
    if column.shape != (n,):
        raise ValueError(f"columns differ in length: xyxy {n}, {name} {len(column)}")
    if n and not np.issubdtype(column.dtype, np.integer):
        raise ValueError(f"{name} must hold integers, got {column.dtype}")
    column = column.astype(np.int64)
    low = -1 if allow_none else 0
    if n and (column.min() < low or column.max() >= len(TILES)):
        raise ValueError(f"{name} outside {low}..{len(TILES) - 1}: {sorted(set(column.tolist()))}")
    return column
