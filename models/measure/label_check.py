"""How far the real photos' labels can be trusted to a few pixels: what caps mAP50-95 against them.

The source (chinese-mahjong-v4) augmented each photo into copies turned, rotated up to 45 degrees and
sheared, and moved the labels with them. Each copy is one affine map of the same photo, so the map between
two copies can be measured from the pixels (SIFT matches, RANSAC) and a label of one copy carried into the
other. Where labels are right, a carried label's centre lands on the other copy's label of that tile (the
centre of a mapped box is the mapped centre, whatever the rotation does to its size); how far it lands is
how far the labels disagree. The same measure of the detector's boxes says how steady the detector is.

``uv run python -m models.measure.label_check [--data DIR] [--no-detector] [--recentre NEW_DIR]`` (default: the
held-out split; ``--recentre``: also write its photos with re-centred labels, a diagnosis, see `recentred`).
"""

from __future__ import annotations

import argparse
import itertools
import sys
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

from datasets.real_photos import source_name
from models.measure import measured
from models.training.real_data import CopyMatcher
from vision.detector import Detector
from vision.evaluation import HELD_OUT, IOU_THRESHOLDS, Truth, read_truth, yolo_pairs
from vision.geometry import box_iou
from vision.imagefile import load_image
from vision.labels.yolo import label_lines

MIN_INLIERS = 30  # matches agreeing with the affine map, below which two copies are not compared
REPROJECTION = 3.0  # pixels a match may miss the affine map by and agree with it
MIN_OVERLAP = 0.1  # IoU under which a carried box has no counterpart (another tile, or off the copy)
FEATURES = 4000  # SIFT points a copy is matched by: the more, the surer the map (1,500 tell mirrored copies)


def carried(boxes: Truth, matrix: np.ndarray) -> Truth:
    """Boxes carried by an affine map, faces kept: the upright box around each mapped outline (same centre as
    the map's)."""
    x1, y1, x2, y2 = np.asarray(boxes.xyxy, np.float64).reshape(-1, 4).T
    corners = np.stack([np.stack(c, axis=1) for c in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))], axis=1)
    mapped = corners @ matrix[:, :2].T + matrix[:, 2]
    return Truth(np.concatenate([mapped.min(axis=1), mapped.max(axis=1)], axis=1), boxes.class_id)


def counterparts(moved: Truth, there: Truth) -> np.ndarray:
    """Per box of ``moved``, the index of its counterpart in ``there`` (same class, the best overlap), -1
    where none overlaps it by `MIN_OVERLAP`. Not one to one: a label off by over half a tile in a row of one
    face (a pung) finds its neighbour, so the largest offsets read somewhat low."""
    if not len(moved.xyxy) or not len(there.xyxy):
        return np.full(len(moved.xyxy), -1)
    overlap = box_iou(moved.xyxy, there.xyxy)
    overlap[moved.class_id[:, None] != there.class_id[None, :]] = 0.0
    best = overlap.argmax(axis=1)
    return np.where(overlap[np.arange(len(best)), best] >= MIN_OVERLAP, best, -1)


def centres(xyxy: np.ndarray) -> np.ndarray:
    """The boxes' centres (n × 2)."""
    return (xyxy[:, :2] + xyxy[:, 2:]) / 2


def centre_offsets(moved: Truth, there: Truth) -> np.ndarray:
    """Per box of ``moved`` with a counterpart in ``there``: how far its centre is from the counterpart's,
    across and down, as shares of the counterpart's width and height (n × 2)."""
    which = counterparts(moved, there)
    a, b = moved.xyxy[which >= 0], there.xyxy[which[which >= 0]]
    return np.abs(centres(a) - centres(b)) / (b[:, 2:] - b[:, :2])


def recentred(maps: dict[tuple[int, int], np.ndarray], boxes: list[Truth]) -> list[np.ndarray]:
    """Each copy's boxes moved to the median of their centres as every copy places them (their own and the
    other copies' counterparts carried in), sizes kept: labels with the copies' disagreement voted down, a
    diagnosis of the boxes, not a new truth (each label's own error still counts a share)."""
    votes = [[[c] for c in centres(b.xyxy)] for b in boxes]
    for (k, j), matrix in maps.items():
        moved = carried(boxes[k], matrix)
        which, there = counterparts(boxes[j], moved), centres(moved.xyxy)
        for i in np.flatnonzero(which >= 0):
            votes[j][i].append(there[which[i]])
    out = []
    for b, copy_votes in zip(boxes, votes, strict=True):
        middle = np.array([np.median(v, axis=0) for v in copy_votes]).reshape(-1, 2)
        half = (b.xyxy[:, 2:] - b.xyxy[:, :2]) / 2
        out.append(np.concatenate([middle - half, middle + half], axis=1))
    return out


def iou_of_offset(offsets: np.ndarray) -> np.ndarray:
    """The IoU of a box with itself moved by ``offsets`` (shares of its width and height)."""
    inter = np.prod(np.clip(1.0 - offsets, 0.0, None), axis=1)
    return inter / (2.0 - inter)


def ceiling(pair_offsets: np.ndarray, thresholds: np.ndarray = IOU_THRESHOLDS) -> float:
    """The share of the IoU ``thresholds`` a detector drawing each tile's true box would reach against labels
    off as far as the pairs show: the two labels of a pair err independently and alike, so each is off by the
    pair's offset / √2. Sizes taken as right, so an upper bound: with perfect ranking, its AP50-95 (or AP50)."""
    iou = iou_of_offset(pair_offsets / np.sqrt(2.0))
    return float(np.mean([(iou >= t).mean() for t in thresholds])) if len(iou) else 0.0


def copies(root: Path) -> dict[str, list[tuple[Path, Path]]]:
    """A YOLO folder's (image, label) pairs by source photo (the part of the name before ``.rf.``)."""
    groups: dict[str, list[tuple[Path, Path]]] = defaultdict(list)
    for image, label in yolo_pairs(root):
        groups[source_name(image)].append((image, label))
    return groups


def affine_maps(images: list[np.ndarray]) -> dict[tuple[int, int], np.ndarray]:
    """The affine map between each ordered pair of copies of one photo (BGR) that `MIN_INLIERS` matches join."""
    matcher = CopyMatcher(FEATURES)
    found = [matcher.features(cv2.cvtColor(i, cv2.COLOR_BGR2GRAY)) for i in images]
    maps = {}
    for k, j in itertools.permutations(range(len(images)), 2):
        matrix, inliers = matcher.affine(found[k], found[j], REPROJECTION)
        if matrix is not None and inliers >= MIN_INLIERS:
            maps[k, j] = matrix
    return maps


def pair_offsets(maps: dict[tuple[int, int], np.ndarray], boxes: list[Truth]) -> np.ndarray:
    """The offsets of each copy's boxes carried into the other copy of each pair (n × 2)."""
    parts = [centre_offsets(carried(boxes[k], m), boxes[j])
             for (k, j), m in maps.items()]
    return np.concatenate(parts) if parts else np.zeros((0, 2))


def summary(name: str, offsets: np.ndarray) -> str:
    """One line: the centre offsets (share of the tile's side, as a length) and the ceiling they imply."""
    if not len(offsets):
        return f"{name:9s} no box found again in another copy (no pair of copies joined, or no boxes)"
    length = np.hypot(*offsets.T)
    return (f"{name:9s} {len(offsets):6d} boxes  centre offset median {np.median(length):.3f}, "
            f"p75 {np.percentile(length, 75):.3f}, p90 {np.percentile(length, 90):.3f} of the tile; "
            f"ceiling AP50-95 {ceiling(offsets):.3f}, AP50 {ceiling(offsets, IOU_THRESHOLDS[:1]):.3f}")


def write_recentred(folder: Path, pairs: list[tuple[Path, Path]], images: list[np.ndarray],
                    truths: list[Truth], maps: dict[tuple[int, int], np.ndarray]) -> None:
    """One photo's copies into a YOLO folder: each image linked, its labels re-centred (`recentred`)."""
    for (image, _), pixels, truth, xyxy in zip(pairs, images, truths, recentred(maps, truths), strict=True):
        (folder / "images" / image.name).symlink_to(image.resolve())
        (folder / "labels" / f"{image.stem}.txt").write_text(
            label_lines(zip(truth.class_id.tolist(), xyxy.tolist(), strict=True), pixels.shape[1], pixels.shape[0]))


def new_folder(folder: Path) -> Path:
    """``folder`` with empty ``images`` and ``labels`` in it; refused where it holds anything (a photo or a
    label there would be overwritten or mixed in)."""
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise ValueError(f"{folder}: not a new or empty folder; name one to write the re-centred labels in")
    for sub in ("images", "labels"):
        (folder / sub).mkdir(parents=True)
    return folder


def measure(data: Path, detector: Detector | None, recentre: Path | None) -> None:
    """Print how far the labels (and the detector's boxes) of ``data``'s copies disagree."""
    groups = copies(data)  # a missing or empty folder is refused before anything is written
    if recentre is not None:
        new_folder(recentre)
    found: dict[str, list[np.ndarray]] = defaultdict(list)
    joined = possible = 0
    for pairs in groups.values():
        images = [load_image(image) for image, _ in pairs]
        maps = affine_maps(images)
        joined, possible = joined + len(maps), possible + len(images) * (len(images) - 1)
        truths = [read_truth(label, i.shape[1], i.shape[0]) for (_, label), i in zip(pairs, images, strict=True)]
        found["labels"].append(pair_offsets(maps, truths))
        if recentre is not None:
            write_recentred(recentre, pairs, images, truths, maps)
        if detector is not None:
            readings = [detector(i) for i in images]
            found["detector"].append(pair_offsets(maps, [Truth(r.xyxy, r.class_id) for r in readings]))
    print(f"{data}: {sum(map(len, groups.values()))} copies of {len(groups)} photos; {joined} of {possible} "
          "ordered pairs of copies joined by the affine map their pixels give")
    for name, parts in found.items():
        print(summary(name, np.concatenate(parts)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m models.measure.label_check", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", type=Path, default=HELD_OUT, help="YOLO folder of Roboflow copies (default: the held-out split)")
    parser.add_argument("--no-detector", action="store_true", help="the labels only, not the shipped detector")
    parser.add_argument("--recentre", type=Path, metavar="DIR", help="also write a new YOLO folder of the photos "
                        "(linked) with their labels re-centred on the copies' median (`recentred`), for mcr eval")
    args = parser.parse_args(argv)
    return measured(lambda: measure(args.data, None if args.no_detector else Detector(), args.recentre))


if __name__ == "__main__":
    sys.exit(main())
