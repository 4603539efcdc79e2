"""The YOLO folder layout: ``images/`` (JPEG), ``labels/`` (``class cx cy w h``, normalised) and
``data.yaml`` naming our 43 classes in model order."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import yaml

from scoring.tiles import CLASS_NAMES

Box = tuple[float, float, float, float]


def names_yaml() -> str:
    """The ``nc`` and ``names`` lines of a ``data.yaml``: our 43 classes in model order."""
    names = "\n".join(f"  {i}: '{name}'" for i, name in enumerate(CLASS_NAMES))
    return f"nc: {len(CLASS_NAMES)}\nnames:\n{names}\n"


def declared_names(text: str) -> list[str] | None:
    """The class names a ``data.yaml`` text lists under ``names`` (a list, or a mapping from class id), in class
    order; None when it lists none. A ValueError when the text is not YAML."""
    try:
        config = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ValueError(f"not YAML ({str(exc).splitlines()[0]})") from None
    names = config.get("names") if isinstance(config, dict) else None
    if isinstance(names, dict):  # by class id; ids that are not numbers as listed
        numbered = all(str(key).isdigit() for key in names)
        return [str(names[key]) for key in (sorted(names, key=lambda k: int(k)) if numbered else names)]
    return [str(name) for name in names] if isinstance(names, list) else None


def check_our_classes(root: Path) -> None:
    """Refuse a YOLO folder whose labels count classes another way than ours: one with the source dataset's
    ``classes.tsv``, or a ``data.yaml`` naming other classes (or ours in another order), in ``root`` (the folder
    holding ``images/``) or, where it has neither, its parent (a Roboflow export's ``data.yaml`` lies beside its
    ``train/``, ``valid/``, ``test/``). Scored as ours, such labels give wrong numbers without a word."""
    folder = next((f for f in (root, root.parent) if (f / "classes.tsv").is_file() or (f / "data.yaml").is_file()), None)
    if folder is None:
        return
    if (folder / "classes.tsv").is_file():
        raise ValueError(f"{folder}: its labels use the source dataset's class ids (classes.tsv); "
                         "`mcr train --prepare-only` converts them to ours under data/real")
    config = folder / "data.yaml"
    try:
        names = declared_names(config.read_text(errors="replace"))
    except ValueError as exc:
        raise ValueError(f"{config}: {exc}") from None
    if names is not None and tuple(names) != CLASS_NAMES:
        raise ValueError(f"{config}: names {len(names)} classes ({', '.join(names[:5])}, ...), not our "
                         f"{len(CLASS_NAMES)} in model order ({', '.join(CLASS_NAMES[:5])}, ...)")


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
        try:
            cls, (cx, cy, w, h) = int(values[0]), (float(v) for v in values[1:])
        except ValueError:
            raise ValueError(f"{path}:{number}: expected numbers for 'cx cy w h', got {line.strip()!r}") from None
        x, y, bw, bh = cx * width, cy * height, w * width, h * height
        out.append((cls, (x - bw / 2, y - bh / 2, x + bw / 2, y + bh / 2)))
    return out
