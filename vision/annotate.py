"""The picture a referee shows the table: the photo with every tile's box and code, each group outlined
and named, the hand's notation, the fans and the total (or what is doubtful)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.scan import ScanResult

COLOURS = {  # BGR per group role
    "concealed": (60, 180, 60),
    "win": (40, 40, 230),
    "meld": (220, 120, 30),
    "flowers": (200, 60, 200),
}
UNGROUPED = (150, 150, 150)
DOUBTFUL = (0, 200, 255)
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _text(image: np.ndarray, text: str, origin: tuple[int, int], scale: float, colour: tuple[int, int, int]) -> None:
    """Text with a dark outline, readable on any background."""
    thick = max(1, round(scale * 2))
    cv2.putText(image, text, origin, FONT, scale, (0, 0, 0), thick + 2, cv2.LINE_AA)
    cv2.putText(image, text, origin, FONT, scale, colour, thick, cv2.LINE_AA)


def _summary(result: ScanResult) -> list[str]:
    data = result.to_json()
    if data["hand"] is None:
        return ["no valid hand read", *(d["message"] for d in data["doubts"])]
    lines = [data["hand"]["notation"]]
    if data["score"] is not None:
        score = data["score"]
        lines += [f"{f['en']} {f['points'] * f['count']}" for f in score["fans"]]
        verdict = "" if score["is_win"] else " (false win)"
        lines.append(f"total {score['total']}{verdict}")
    lines += [f"check: {d['message']}" for d in data["doubts"] if d["kind"] != "low_confidence"]
    return lines


def annotate(image: np.ndarray, result: ScanResult) -> np.ndarray:
    """A copy of the BGR photo with the scan drawn on it."""
    out = image.copy()
    height, width = out.shape[:2]
    scale = max(width, height) / 1600
    det = result.detections
    colour = {i: COLOURS.get(g.role, UNGROUPED) for g in result.groups for i in g.tiles}
    doubtful = {i for d in result.doubts for i in d.tiles}
    for i, (box, face) in enumerate(zip(det.xyxy.astype(int), det.tiles, strict=True)):
        x0, y0, x1, y1 = box.tolist()
        cv2.rectangle(out, (x0, y0), (x1, y1), colour.get(i, UNGROUPED), max(1, round(2 * scale)))
        if i in doubtful:
            cv2.rectangle(out, (x0 - 3, y0 - 3), (x1 + 3, y1 + 3), DOUBTFUL, max(1, round(scale)))
        _text(out, face.code, (x0 + 2, y0 + round(22 * scale)), 0.7 * scale, (255, 255, 255))
    for g in result.groups:
        if not g.tiles:
            continue
        boxes = det.xyxy[list(g.tiles)]
        corners = np.concatenate([boxes[:, :2], boxes[:, 2:], boxes[:, [0, 3]], boxes[:, [2, 1]]])
        rect = cv2.boxPoints(cv2.minAreaRect(corners.astype(np.float32))).astype(np.int32)
        cv2.polylines(out, [rect], True, COLOURS.get(g.role, UNGROUPED), max(1, round(3 * scale)))
        label = g.kind.value if g.kind else g.role
        if g.source:
            label += f" from {g.source}"
        top = rect[rect[:, 1].argmin()]
        _text(out, label, (int(top[0]), max(int(top[1]) - round(8 * scale), round(20 * scale))), 0.8 * scale,
              COLOURS.get(g.role, UNGROUPED))
    line = round(34 * scale)
    for k, text in enumerate(_summary(result)):
        _text(out, _fit(text, width - round(24 * scale), 0.9 * scale), (round(12 * scale), line * (k + 1)),
              0.9 * scale, (255, 255, 255))
    return out


def _fit(text: str, width: int, scale: float) -> str:
    """The text, cut short with '...' where it would run past ``width`` pixels."""
    thick = max(1, round(scale * 2))
    if cv2.getTextSize(text, FONT, scale, thick)[0][0] <= width:
        return text
    while text and cv2.getTextSize(text + "...", FONT, scale, thick)[0][0] > width:
        text = text[:-1]
    return text + "..."


def save_image(path: Path, image: np.ndarray) -> None:
    """Write an image; the format follows the suffix. A clear error when it cannot be written."""
    if not path.parent.is_dir():
        raise FileNotFoundError(f"{path.parent}: no such folder for {path.name}")
    try:
        written = cv2.imwrite(str(path), image)
    except cv2.error:
        written = False
    if not written:
        raise ValueError(f"{path}: cannot write an image there (use a .jpg or .png name)")
