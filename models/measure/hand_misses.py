"""Why hand photos are not read exactly in one pass: each difference from the labels, by cause.

`mcr eval`'s "hand photos read exactly" asks the faces read at the operating confidence to be the labelled
faces, as a multiset. A photo fails it when a face is misread, but also when its labels and the photo
disagree: a labelled tile the reading has only under a box off by more than IoU 0.5 (the source's turned
copies moved some labels off their tiles), a labelled tile at the photo's edge (cut by the copy's turn), a
labelled tile found nowhere (a discard on the table, half hidden), or a tile read where no label is (the
labels leave out some table tiles and include others), or a tile read twice. This sorts each failed photo's differences so, and
says how many photos fail for a misread face at all.

``uv run python -m models.measure.hand_misses [--data DIR] [--conf C] [--model M]`` (default: the held-out split at
`mcr eval`'s 0.25, the shipped models).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np

from models.measure import measured
from scoring.tiles import TILES
from vision.detections import TileDetections
from vision.detector import Detector, checked_conf
from vision.evaluation import (
    HELD_OUT,
    Truth,
    match,
    read_exactly,
    read_truth,
    yolo_pairs,
)
from vision.geometry import box_iou
from vision.imagefile import load_image

NEAR_IOU = 0.2  # a reading overlapping a labelled tile this much (under 0.5) is taken for that tile, its box off
EDGE = 4.0  # pixels from the photo's edge within which an unfound labelled tile counts as cut off


@dataclass(frozen=True)
class HandMiss:
    """How one photo's reading differs from its labels: faces as tile codes."""

    misread: tuple[tuple[str, str], ...]  # (labelled, read): a tile found (IoU >= 0.5) with another face
    off_box: tuple[str, ...]  # labelled tiles read only by a box off them (NEAR_IOU <= IoU < 0.5)
    at_edge: tuple[str, ...]  # labelled tiles not found, within EDGE pixels of the photo's edge
    unfound: tuple[str, ...]  # labelled tiles found nowhere near
    twice: tuple[str, ...]  # tiles read again over labelled tiles found already (a second box, maybe another face)
    unlabelled: tuple[str, ...]  # tiles read where no label is near (IoU < NEAR_IOU with every label)

    @property
    def cause(self) -> str:
        """What fails the photo first: a misread face, a labelled tile missed, a tile read twice, or else tiles
        the labels leave out."""
        if self.misread:
            return "misread"
        if self.off_box or self.at_edge or self.unfound:
            return "missed"
        return "twice" if self.twice else "unlabelled"


def hand_miss(sure: TileDetections, truth: Truth, width: int, height: int) -> HandMiss | None:
    """How ``sure`` (the reading at the operating confidence) differs from ``truth``; None: read exactly."""
    if read_exactly(sure, truth):
        return None
    found = match(sure, truth, same_class=False)[:, 0]  # IoU 0.5, any face
    codes = [TILES[c].code for c in truth.class_id]
    misread = tuple((codes[t], sure.tiles[i].code) for i, t in enumerate(found) if t >= 0 and codes[t] != sure.tiles[i].code)
    loose = np.flatnonzero(found < 0)  # readings of no labelled tile at IoU 0.5
    near = box_iou(truth.xyxy, sure.xyxy[loose]) >= NEAR_IOU  # labelled tiles × loose readings
    missed = sorted(set(range(len(codes))) - set(found[found >= 0].tolist()))
    x1, y1, x2, y2 = truth.xyxy.reshape(-1, 4).T
    edge = np.minimum(np.minimum(x1, y1), np.minimum(width - x2, height - y2)) < EDGE
    off_box = [t for t in missed if near[t].any()]
    at_edge = [t for t in missed if not near[t].any() and edge[t]]
    return HandMiss(
        misread=misread,
        off_box=tuple(codes[t] for t in off_box),
        at_edge=tuple(codes[t] for t in at_edge),
        unfound=tuple(codes[t] for t in missed if t not in off_box and t not in at_edge),
        twice=tuple(sure.tiles[i].code for k, i in enumerate(loose) if near[:, k].any() and not near[missed, k].any()),
        unlabelled=tuple(sure.tiles[i].code for k, i in enumerate(loose) if not near[:, k].any()),
    )


def describe(name: str, miss: HandMiss) -> str:
    """One line: the photo, its cause and its differences."""
    def code(item: str | tuple[str, str]) -> str:
        return item if isinstance(item, str) else " as ".join(item)

    parts = [f"{field.name} {', '.join(map(code, getattr(miss, field.name)))}" for field in fields(miss)
             if getattr(miss, field.name)]
    return f"{name}: {miss.cause}; " + "; ".join(parts)


def measure(data: Path, detector: Detector, conf: float) -> None:
    """Print each hand photo of ``data`` not read exactly, then the counts by cause."""
    checked_conf(conf)
    photos = [(image, label) for image, label in yolo_pairs(data) if image.name.startswith("hand_")]
    if not photos:
        raise ValueError(f"{data}: no hand photos (names starting hand_)")
    causes: Counter[str] = Counter()
    tiles: Counter[str] = Counter()
    for image_path, label_path in photos:
        image = load_image(image_path)
        reading = detector(image)
        miss = hand_miss(reading[reading.confidence >= conf], read_truth(label_path, image.shape[1], image.shape[0]),
                         image.shape[1], image.shape[0])
        if miss is None:
            continue
        causes[miss.cause] += 1
        tiles.update({field.name: len(getattr(miss, field.name)) for field in fields(miss)})
        print(describe(image_path.name, miss))
    print(f"{data}: {len(photos)} hand photos, {len(photos) - sum(causes.values())} read exactly; the others: "
          f"{causes['misread']} with a face misread, {causes['missed']} with a labelled tile missed (no face misread), "
          f"{causes['twice']} reading a found tile twice (no tile missed), {causes['unlabelled']} only reading "
          "tiles the labels leave out")
    print("tiles: " + ", ".join(f"{field.name} {tiles[field.name]}" for field in fields(HandMiss)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.measure.hand_misses", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=HELD_OUT, help="YOLO folder (default: the held-out split)")
    parser.add_argument("--conf", type=float, default=0.25, help="operating confidence (default 0.25, as mcr eval)")
    parser.add_argument("--model", type=Path, help="the detector's ONNX file (default: the shipped one)")
    args = parser.parse_args(argv)
    return measured(lambda: measure(args.data, Detector(args.model, conf=0.001), args.conf))


if __name__ == "__main__":
    sys.exit(main())
