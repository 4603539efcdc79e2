"""Build the YOLO dataset folder from the real photos: our class order, a held-out split, flips undone.

The source (`chinese-mahjong-v4`) labels in its own class indices, holds 5 augmented copies of each photo
(named ``<source>.rf.<hash>.jpg``) and mirrored some copies: mirrored characters are not real faces. We
  - remap labels to our 43 classes (``classes.tsv`` gives each source index our code; polygons -> boxes);
  - hold out whole source photos by a hash rule (`datasets.real_photos.is_held_out`), so no copy of a test photo
    is trained on;
  - find mirrored copies and mirror them back (image and boxes). Within a source's copies, SIFT matching
    against each copy and its mirror tells which copies share chirality (descriptors are not mirror
    invariant); the riichi model, summed over each chirality class, tells which class reads as real faces.
Images are symlinked (or written, when un-mirrored) under ``data/real`` outside git; never committed.
Runs in the training venv (needs PIL and onnxruntime besides numpy/opencv).
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from datasets.real_photos import class_map, is_held_out, read_labels, source_name
from models.training.riichi import MirrorJudge
from vision.labels.yolo import names_yaml

MATCH_SIZE = 400  # SIFT chirality matching resolution: plenty for whole-photo geometry, and fast


def write_labels(path: Path, labels: np.ndarray) -> None:
    path.write_text("".join(f"{int(c)} {x:.6f} {y:.6f} {w:.6f} {h:.6f}\n" for c, x, y, w, h in labels))


class CopyMatcher:
    """SIFT matches between copies of one photo and the affine map RANSAC fits to them: whether two copies are
    mirror images of each other (a mirrored copy matches few), and how a copy maps onto another (`label_check`)."""

    def __init__(self, features: int = 1500) -> None:
        self._sift = cv2.SIFT_create(nfeatures=features)
        self._matcher = cv2.BFMatcher(cv2.NORM_L2)

    def features(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keypoints, descriptors = self._sift.detectAndCompute(image, None)
        points = np.array([k.pt for k in keypoints], dtype=np.float32).reshape(-1, 2)
        return points, descriptors if descriptors is not None else np.zeros((0, 128), np.float32)

    def affine(self, a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray],
               reprojection: float = 4.0) -> tuple[np.ndarray | None, int]:
        """The 2×3 affine map from ``a``'s points to ``b``'s that RANSAC fits to their ratio-test matches, and
        how many matches agree with it within ``reprojection`` pixels (None, 0: too few matches)."""
        if len(a[1]) < 8 or len(b[1]) < 8:
            return None, 0
        pairs = self._matcher.knnMatch(a[1], b[1], k=2)
        good = [m for m, n in (p for p in pairs if len(p) == 2) if m.distance < 0.75 * n.distance]
        if len(good) < 6:
            return None, 0
        src = a[0][[m.queryIdx for m in good]]
        dst = b[0][[m.trainIdx for m in good]]
        matrix, mask = cv2.estimateAffine2D(src, dst, ransacReprojThreshold=reprojection)
        return matrix, int(mask.sum()) if mask is not None else 0


@dataclass(frozen=True)
class Orientation:
    """Verdict for one image: mirrored or not, and the evidence (riichi scores, SIFT inliers)."""

    image: str
    mirrored: bool
    riichi_as_is: float
    riichi_mirrored: float
    same_side_inliers: int
    other_side_inliers: int


def judge_group(
    images: list[Path], labels: list[np.ndarray], judge: MirrorJudge, matcher: CopyMatcher
) -> list[Orientation]:
    """Mirrored verdicts for the copies of one source photo (see module docstring)."""
    grays = [cv2.resize(cv2.imread(str(p), cv2.IMREAD_GRAYSCALE), (MATCH_SIZE, MATCH_SIZE)) for p in images]
    reference = matcher.features(grays[0])
    signs, evidence = [], []
    for gray in grays:
        same = matcher.affine(reference, matcher.features(gray))[1]
        other = matcher.affine(reference, matcher.features(np.ascontiguousarray(gray[:, ::-1])))[1]
        signs.append(1 if same >= other else -1)
        evidence.append((same, other))
    scores = [judge.scores(p, lab) for p, lab in zip(images, labels, strict=True)]
    vote = sum(sign * (as_is - flipped) for sign, (as_is, flipped) in zip(signs, scores, strict=True))
    reference_mirrored = vote < 0
    return [
        Orientation(p.name, reference_mirrored != (sign < 0), s[0], s[1], e[0], e[1])
        for p, sign, s, e in zip(images, signs, scores, evidence, strict=True)
    ]


def build(source_dir: Path, out_dir: Path, riichi_model: Path) -> dict[str, int]:
    """Write ``out_dir/{images,labels}/{train,val}``, ``data.yaml`` and ``orientation.jsonl``; return counts."""
    mapping = class_map(source_dir / "classes.tsv")
    groups: dict[str, list[Path]] = defaultdict(list)
    for image in sorted((source_dir / "train" / "images").iterdir()):
        groups[source_name(image)].append(image)
    judge, matcher = MirrorJudge(riichi_model), CopyMatcher()
    for split in ("train", "val"):
        for kind in ("images", "labels"):
            (out_dir / kind / split).mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = defaultdict(int)
    log_path = out_dir / "orientation.jsonl"
    done = {json.loads(line)["image"]: json.loads(line) for line in log_path.open()} if log_path.exists() else {}
    with log_path.open("a") as log:
        for source, images in groups.items():
            split = "val" if is_held_out(source) else "train"
            counts[f"{split}_sources"] += 1
            counts[f"{split}_hand_sources"] += source.startswith("hand_")
            labels = [read_labels(source_dir / "train" / "labels" / f"{p.stem}.txt", mapping) for p in images]
            if all(p.name in done for p in images):
                verdicts = [Orientation(**done[p.name]) for p in images]
            else:
                verdicts = judge_group(images, labels, judge, matcher)
                for v in verdicts:
                    log.write(json.dumps(v.__dict__) + "\n")
                log.flush()
            for image, verdict, boxes in zip(images, verdicts, labels, strict=True):
                target = out_dir / "images" / split / image.name
                target.unlink(missing_ok=True)
                if verdict.mirrored:
                    cv2.imwrite(str(target), cv2.imread(str(image))[:, ::-1])
                    boxes[:, 1] = 1.0 - boxes[:, 1]
                    counts[f"{split}_unmirrored"] += 1
                else:
                    os.symlink(image.resolve(), target)
                write_labels(out_dir / "labels" / split / f"{image.stem}.txt", boxes)
                counts[f"{split}_images"] += 1
    (out_dir / "data.yaml").write_text(
        f"path: {out_dir.resolve()}\ntrain: images/train\nval: images/val\n{names_yaml()}"
    )
    return dict(counts)

