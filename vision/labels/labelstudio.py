"""Label Studio import format: tasks whose ``predictions`` hold our boxes for a person to review.

A task is ``{"data": {"image": URL}, "predictions": [{"model_version", "score", "result": [...]}]}``;
each ``result`` item is a ``rectanglelabels`` region with ``x``/``y``/``width``/``height`` in percent of
``original_width``/``original_height`` and its own ``score``. ``labeling_config()`` is the matching
project configuration: an ``Image`` named ``image`` and ``RectangleLabels`` named ``tile`` with our 43
codes, coloured by family.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

import numpy as np

from scoring.tiles import TILES, Kind, tile
from vision.detections import TileDetections

FROM_NAME = "tile"
TO_NAME = "image"
REGION_TYPE = "rectanglelabels"
DATA_KEY = "image"  # the task's data field holding the photo URL (``value="$image"`` in the config)
# Local files served by Label Studio itself (LABEL_STUDIO_LOCAL_FILES_SERVING_ENABLED=true, with
# LABEL_STUDIO_LOCAL_FILES_DOCUMENT_ROOT the photo folder): the task URL names the path relative to it.
LOCAL_FILES_PREFIX = "/data/local-files/?d="

_COLOURS = {
    Kind.CHARACTERS: "#d62728", Kind.DOTS: "#1f77b4", Kind.BAMBOO: "#2ca02c", Kind.WIND: "#9467bd",
    Kind.DRAGON: "#ff7f0e", Kind.FLOWER: "#e377c2", Kind.SEASON: "#bcbd22", Kind.BACK: "#7f7f7f",
}


def labeling_config() -> str:
    """The Label Studio project configuration (XML) for reviewing tile boxes."""
    labels = "\n".join(
        f"    <Label value={quoteattr(t.code)} background={quoteattr(_COLOURS[t.kind])}/>" for t in TILES
    )
    return (
        "<View>\n"
        f'  <Image name="{TO_NAME}" value="${DATA_KEY}" zoom="true" zoomControl="true"/>\n'
        f'  <RectangleLabels name="{FROM_NAME}" toName="{TO_NAME}" strokeWidth="2">\n'
        f"{labels}\n"
        "  </RectangleLabels>\n"
        "</View>\n"
    )


def to_prediction(detections: TileDetections, width: int, height: int, model_version: str) -> dict[str, Any]:
    """A Label Studio prediction for one image of ``width`` x ``height`` pixels.

    Its ``score`` is the weakest tile's confidence, so sorting tasks by prediction score in Label
    Studio puts the readings most in need of review first.
    """
    result = []
    for i, (box, score, tile_) in enumerate(
        zip(detections.xyxy.tolist(), detections.confidence.tolist(), detections.tiles, strict=True)
    ):
        x0, y0, x1, y1 = box
        result.append({
            "id": f"t{i}", "from_name": FROM_NAME, "to_name": TO_NAME, "type": REGION_TYPE,
            "original_width": width, "original_height": height, "image_rotation": 0,
            "value": {
                "x": round(100 * x0 / width, 4), "y": round(100 * y0 / height, 4),
                "width": round(100 * (x1 - x0) / width, 4), "height": round(100 * (y1 - y0) / height, 4),
                "rotation": 0, "rectanglelabels": [tile_.code],
            },
            "score": round(score, 4),
        })
    weakest = round(float(detections.confidence.min()), 4) if len(detections) else 0.0
    return {"model_version": model_version, "score": weakest, "result": result}


def from_result(result: list[dict[str, Any]]) -> TileDetections:
    """Detections (pixels) from a prediction's or annotation's ``result``; other region types are ignored.

    A region without a ``score`` (drawn by a person) reads as confidence 1.
    """
    regions = [r for r in result if r.get("type") == REGION_TYPE]
    if not regions:
        return TileDetections.empty()
    rows, confidence, class_id = [], [], []
    for region in regions:
        value, w, h = region["value"], region["original_width"], region["original_height"]
        if value.get("rotation", 0):
            raise ValueError(f"region {region.get('id')}: rotated boxes are not supported")
        x0, y0 = value["x"] * w / 100, value["y"] * h / 100
        rows.append([x0, y0, x0 + value["width"] * w / 100, y0 + value["height"] * h / 100])
        confidence.append(region.get("score", 1.0))
        class_id.append(tile(value["rectanglelabels"][0]).index)
    return TileDetections(np.array(rows, np.float32), np.array(confidence, np.float32), np.array(class_id))


def task(image_url: str, prediction: dict[str, Any]) -> dict[str, Any]:
    """One import task: the image URL and its prediction."""
    return {"data": {DATA_KEY: image_url}, "predictions": [prediction]}


def tasks_text(tasks: list[dict[str, Any]]) -> str:
    """A Label Studio import file's text (a JSON list of tasks)."""
    return json.dumps(tasks, ensure_ascii=False)


def load_tasks(path: Path) -> list[dict[str, Any]]:
    """Read a Label Studio import or export file (a JSON list of tasks)."""
    tasks = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(tasks, list) or not all(isinstance(t, dict) and "data" in t for t in tasks):
        raise ValueError(f"{path}: not a Label Studio task list")
    return tasks
