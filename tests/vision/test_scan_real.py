"""End to end on the held-out real hand photos (`models/holdout.txt`, names starting ``hand_``), read
from ``../shared`` at test time and skipped without it or without the shipped model.

The photos are labelled with tiles only, not hands, so the truth of a photo is the hand our layout
reader gives on its labelled boxes; a photo counts as read exactly when `scan` on the pixels gives that
same hand. Photos whose labels give no valid hand (a tile hidden, two rows of standing tiles) are counted
apart. The figure: ``uv run python -m tests.vision.test_scan_real``.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from models.real_data import class_map, read_labels, source_name
from scoring import Hand, Situation, score
from vision.detections import TileDetections
from vision.detector import Detector, default_model_path, load_image
from vision.layout import read_hand
from vision.scan import scan

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT.parent / "shared" / "datasets" / "chinese-mahjong-v4"
HOLDOUT = ROOT / "models" / "holdout.txt"
TARGET = 0.9
TILE_FLOOR = 0.9  # share of labelled tile faces the scan reads: 0.950 with the shipped models; raise it with them


def held_out_hands() -> list[Path]:
    sources = {line.strip() for line in HOLDOUT.read_text().splitlines() if not line.startswith("#")}
    return [p for p in sorted((REAL / "train" / "images").glob("hand_*")) if source_name(p) in sources]


def labelled(image: Path, width: int, height: int, mapping: dict[int, int]) -> TileDetections:
    rows = read_labels(REAL / "train" / "labels" / f"{image.stem}.txt", mapping)
    cls, cx, cy, w, h = rows.T
    xyxy = np.stack([(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height], 1)
    return TileDetections(xyxy, np.ones(len(rows)), cls.astype(np.int64))


def measure(detector: Detector) -> Counter[str]:
    mapping = class_map(REAL / "classes.tsv")
    tally: Counter[str] = Counter()
    for path in held_out_hands():
        image = load_image(path)
        boxes = labelled(path, image.shape[1], image.shape[0], mapping)
        truth = read_hand(boxes).hand
        tally["photos"] += 1
        result = scan(image, detector, Situation())
        assert result.hand is not None or any(d.kind == "impossible" for d in result.doubts)
        faces, read = Counter(t.code for t in boxes.tiles), Counter(t.code for t in result.detections.tiles)
        tally["tiles"] += sum(faces.values())
        tally["tiles_read"] += sum((faces & read).values())  # faces right, wherever they lie
        if truth is None:
            continue
        tally["readable"] += 1
        tally["exact"] += result.hand == truth
        # what a referee needs: the same fans and points (a flower read as another flower scores alike)
        tally["scored_alike"] += result.hand is not None and points(result.hand) == points(truth)
    return tally


def points(hand: Hand) -> tuple[object, ...]:
    """The fans (ids and counts) and total a hand scores, in the situation `measure` reads photos in."""
    scored = score(hand).to_json()
    return sorted((f["id"], f["count"]) for f in scored["fans"]), scored["total"]


def test_held_out_real_hands_are_read_exactly() -> None:
    if not REAL.is_dir():
        pytest.skip(f"{REAL} is absent: the real photos are read from ../shared at test time")
    try:
        detector = Detector(default_model_path())
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    tally = measure(detector)  # every photo gives a result, never an exception
    assert tally["readable"] >= 50
    # A floor that moves up with the detector, so a worse model fails here before the target is in reach.
    assert tally["tiles_read"] / tally["tiles"] >= TILE_FLOOR
    share = tally["exact"] / tally["readable"]
    if share < TARGET:  # the layout's part is measured on generated scenes; this is the detector's
        pytest.xfail(f"exact hand on {share:.1%} of {tally['readable']} held-out real hand photos with the "
                     f"shipped detector (target {TARGET:.0%})")


if __name__ == "__main__":
    t = measure(Detector(default_model_path()))
    print(f"{t['photos']} held-out real hand photos, {t['readable']} whose labels give a valid hand: "
          f"exact hand on {t['exact']} ({t['exact'] / max(t['readable'], 1):.1%}), scored alike (fans and "
          f"points) on {t['scored_alike']} ({t['scored_alike'] / max(t['readable'], 1):.1%}); "
          f"{t['tiles_read']} of {t['tiles']} labelled tile faces read ({t['tiles_read'] / max(t['tiles'], 1):.1%})")
