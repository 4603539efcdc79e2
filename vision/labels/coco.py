"""COCO detection format: one ``annotations.json`` with ``images``, ``annotations`` and ``categories``.

Category ids are our class ids plus one (``1m`` is 1, ``back`` is 43): many COCO tools treat id 0 as
background. Boxes are ``[x, y, width, height]`` in pixels of the upright (EXIF-rotated) image; each
annotation carries the detector's ``score`` so a reviewer can sort by it (COCO result files do the same).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from scoring.tiles import TILES
from vision.detections import TileDetections

CATEGORIES: tuple[dict[str, Any], ...] = tuple(
    {"id": t.index + 1, "name": t.code, "supercategory": t.kind.name.lower()} for t in TILES
)


def image_record(image_id: int, file_name: str, width: int, height: int) -> dict[str, Any]:
    """The ``images`` entry for one photo (``file_name`` relative to the photo folder)."""
    return {"id": image_id, "file_name": file_name, "width": width, "height": height}


def to_annotations(detections: TileDetections, image_id: int, first_id: int) -> list[dict[str, Any]]:
    """COCO annotations for one image's detections, numbered from ``first_id``."""
    records = []
    for offset, (box, score, class_id) in enumerate(
        zip(detections.xyxy.tolist(), detections.confidence.tolist(), detections.class_id.tolist(), strict=True)
    ):
        x0, y0, x1, y1 = box
        w, h = x1 - x0, y1 - y0
        records.append({
            "id": first_id + offset, "image_id": image_id, "category_id": class_id + 1,
            "bbox": [round(x0, 2), round(y0, 2), round(w, 2), round(h, 2)], "area": round(w * h, 2),
            "iscrowd": 0, "score": round(score, 4),
        })
    return records


def from_annotations(annotations: list[dict[str, Any]]) -> TileDetections:
    """Detections from COCO annotations of one image; a missing ``score`` (human label) reads as 1."""
    if not annotations:
        return TileDetections.empty()
    known = {c["id"] for c in CATEGORIES}
    unknown = sorted({a["category_id"] for a in annotations} - known)
    if unknown:
        raise ValueError(f"COCO category ids {unknown} are not tile classes (1..{len(CATEGORIES)})")
    xywh = np.array([a["bbox"] for a in annotations], dtype=np.float32)
    xyxy = np.concatenate([xywh[:, :2], xywh[:, :2] + xywh[:, 2:]], axis=1)
    confidence = np.array([a.get("score", 1.0) for a in annotations], dtype=np.float32)
    return TileDetections(xyxy, confidence, np.array([a["category_id"] - 1 for a in annotations]))


def dataset(images: list[dict[str, Any]], annotations: list[dict[str, Any]], description: str) -> dict[str, Any]:
    """A whole COCO file: our 43 categories, the given images and annotations."""
    return {
        "info": {"description": description},
        "licenses": [],
        "images": images,
        "annotations": annotations,
        "categories": list(CATEGORIES),
    }


def dumps(data: dict[str, Any]) -> str:
    """A COCO file's text (written atomically by whichever folder holds it: `vision.labels.batch`)."""
    return json.dumps(data, ensure_ascii=False)


def load(path: Path) -> dict[str, Any]:
    """Read a COCO file, with a clear error if it is not one."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    missing = [key for key in ("images", "annotations", "categories") if key not in data]
    if missing:
        raise ValueError(f"{path}: not a COCO file (no {', '.join(missing)})")
    return data
