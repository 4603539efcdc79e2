"""One labelled photo's record (``OUT/detections/<relative path>.json``): what `mcr label` keeps of each photo, the
marker a rerun resumes from, and what the label files and the summary are made of."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from vision.detections import TileDetections

RECORDS = "detections"


@dataclass(frozen=True, eq=False)
class ImageRecord:
    """One labelled photo: its path relative to the photo folder, upright size and detections."""

    path: str
    width: int
    height: int
    detections: TileDetections
    conf: float
    model: str

    def to_json(self) -> dict[str, Any]:
        return {"image": self.path, "width": self.width, "height": self.height, "conf": self.conf,
                "model": self.model, "tiles": self.detections.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImageRecord:
        return cls(data["image"], int(data["width"]), int(data["height"]), TileDetections.from_json(data["tiles"]),
                   float(data["conf"]), str(data["model"]))


def record_name(image: str) -> str:
    """Where a photo's record lies, relative to the output folder."""
    return f"{RECORDS}/{image}.json"


def record_path(out_dir: Path, image: str) -> Path:
    return out_dir / record_name(image)


def parse_record(text: str) -> ImageRecord | None:
    """A record from its text, or None if it cannot be read (the image is then redone)."""
    try:
        return ImageRecord.from_json(json.loads(text))
    except (ValueError, KeyError, TypeError):
        return None


def read_record(path: Path) -> ImageRecord | None:
    """A stored record, or None if there is none or it cannot be read (the image is then redone)."""
    try:
        return parse_record(path.read_text(encoding="utf-8"))
    except OSError:
        return None
