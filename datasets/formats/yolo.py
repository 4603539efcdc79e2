"""The YOLO folder layout: ``images/`` (JPEG), ``labels/`` (``class cx cy w h``, normalised) and
``data.yaml`` naming our 43 classes in model order."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from scoring.tiles import CLASS_NAMES

Box = tuple[float, float, float, float]


def names_yaml() -> str:
    """The ``nc`` and ``names`` lines of a ``data.yaml``: our 43 classes in model order."""
    names = "\n".join(f"  {i}: '{name}'" for i, name in enumerate(CLASS_NAMES))
    return f"nc: {len(CLASS_NAMES)}\nnames:\n{names}\n"


def data_yaml(root: Path) -> str:
    """The ``data.yaml`` text for a YOLO folder at ``root`` (all images double as the val split)."""
    return f"path: {root.resolve()}\ntrain: images\nval: images\n{names_yaml()}"


def label_lines(labels: Iterable[tuple[int, Box]], width: int, height: int) -> str:
    """YOLO label text for pixel boxes (x0, y0, x1, y1) in a ``width`` x ``height`` image."""
    lines = []
    for cls, (x0, y0, x1, y1) in labels:
        cx, cy = (x0 + x1) / 2 / width, (y0 + y1) / 2 / height
        lines.append(f"{cls} {cx:.6f} {cy:.6f} {(x1 - x0) / width:.6f} {(y1 - y0) / height:.6f}")
    return "".join(line + "\n" for line in lines)


def read_labels(path: Path, width: int, height: int) -> list[tuple[int, Box]]:
    """Parse a YOLO label file back into pixel boxes; blank lines are skipped, a malformed row is a
    `ValueError` naming the file and line."""
    out = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        values = line.split()
        if not values:
            continue
        if len(values) != 5 or not values[0].isdigit() or int(values[0]) >= len(CLASS_NAMES):
            raise ValueError(f"{path}:{number}: expected 'class cx cy w h' with class 0-{len(CLASS_NAMES) - 1}")
        cls, (cx, cy, w, h) = int(values[0]), (float(v) for v in values[1:])
        x, y, bw, bh = cx * width, cy * height, w * width, h * height
        out.append((cls, (x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)))
    return out
