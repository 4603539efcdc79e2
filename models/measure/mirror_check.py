"""Has the detector learned the chirality of the faces that have one? A figure, not a test.

For each held-out real photo, the shipped detector reads the photo and its mirror image (labels
mirrored with it); for every labelled tile of a chiral face (characters, winds, green dragon, flowers
and seasons) the score is the best confidence of its labelled face among the boxes overlapping it
(IoU > 0.5). A model that knows chirality scores the photos far above their mirrors; one that does not
scores both alike. ``uv run python -m models.measure.mirror_check [--data DIR]``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from models.measure import measured
from scoring.tiles import TILES
from vision.detector import Detector, default_model_path
from vision.evaluation import HELD_OUT, Truth, read_truth, yolo_pairs
from vision.geometry import box_iou
from vision.imagefile import load_image

CHIRAL = np.array([t.kind == "m" or t.kind in ("wind", "flower", "season") or t.code == "F" for t in TILES])


def agreement(detector: Detector, image: np.ndarray, truth: Truth) -> list[float]:
    """Per labelled chiral tile: the best confidence of its labelled face among the boxes over it."""
    found = detector(image)
    chiral = np.flatnonzero(CHIRAL[truth.class_id])
    if len(found) == 0:
        return [0.0] * len(chiral)
    iou = box_iou(truth.xyxy[chiral], found.xyxy)
    same = found.class_id[None, :] == truth.class_id[chiral][:, None]
    return np.where((iou > 0.5) & same, found.confidence[None, :], 0.0).max(axis=1).tolist()


def measure(data: Path, detector: Detector) -> None:
    """Prints the mean confidence of the labelled chiral faces in ``data``, as photographed and mirrored."""
    as_is, mirrored = [], []
    for image_path, label_path in yolo_pairs(data):
        image = load_image(image_path)
        height, width = image.shape[:2]
        truth = read_truth(label_path, width, height)
        flipped = truth.xyxy.copy()
        flipped[:, [0, 2]] = width - truth.xyxy[:, [2, 0]]
        as_is += agreement(detector, image, truth)
        mirrored += agreement(detector, np.ascontiguousarray(image[:, ::-1]), Truth(flipped, truth.class_id))
    print(f"{len(as_is)} labelled chiral tiles: mean confidence of the labelled face {np.mean(as_is):.3f} "
          f"as photographed, {np.mean(mirrored):.3f} mirrored")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.measure.mirror_check", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=HELD_OUT, help="YOLO folder (default: the held-out split)")
    parser.add_argument("--model", type=Path, help="ONNX model (default: the shipped one)")
    args = parser.parse_args(argv)
    return measured(lambda: measure(args.data, Detector(args.model or default_model_path())))


if __name__ == "__main__":
    sys.exit(main())
