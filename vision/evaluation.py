"""Detector evaluation in numpy: mAP50, mAP50-95, precision/recall, confusions, and hand photos read exactly.

The definitions follow Ultralytics/COCO so our numbers compare with its validator: predictions are
matched greedily by confidence to the unmatched ground-truth box of the same class with the highest IoU;
AP is COCO's 101-point interpolated average precision; mAP50-95 averages
IoU thresholds 0.50, 0.55, ..., 0.95 over the classes that have ground truth. Precision, recall,
confusions and hand reading use the detections at the operating confidence (``conf``).

Hand photos are read twice: the faces of every tile found (one pass, against every labelled face, the
walls and discards a photo's labels include), and the hand as `mcr scan` reads it (`add_scan`, against the
hand the layout reads from the labelled boxes; a photo whose labels give no valid hand is counted apart).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scoring.hand import Hand
from scoring.tiles import TILES
from vision.detections import TileDetections
from vision.geometry import box_iou
from vision.labels.yolo import check_our_classes, read_labels
from vision.layout import read_hand
from vision.weights import REPOSITORY

IOU_THRESHOLDS = np.linspace(0.5, 0.95, 10)
HELD_OUT = REPOSITORY / "data" / "real" / "images" / "val"
"""The real photos never trained on, in a checkout, as `mcr train --prepare-only` builds them (a YOLO folder):
what `mcr eval` and the measuring programs read by default."""
IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".bmp", ".webp"})


@dataclass(frozen=True)
class Truth:
    """Ground truth of one image: boxes in pixels and our class ids."""

    xyxy: np.ndarray
    class_id: np.ndarray


def yolo_pairs(root: Path) -> list[tuple[Path, Path]]:
    """(image, label file) pairs of a YOLO folder: ``.../images/...`` beside ``.../labels/...``."""
    if not root.is_dir():
        raise FileNotFoundError(f"{root}: no such folder")
    pairs, roots = [], set()
    for image in sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES):
        parts = list(image.parts)
        if "images" not in parts:
            continue
        at = len(parts) - 1 - parts[::-1].index("images")  # the last 'images' folder of the path
        roots.add(Path(*parts[:at]))
        parts[at] = "labels"
        pairs.append((image, Path(*parts).with_suffix(".txt")))
    if not pairs:
        raise ValueError(f"{root}: no images under an 'images' folder (expected a YOLO dataset)")
    if not any(label.is_file() and label.read_text(errors="replace").strip() for _, label in pairs):
        raise ValueError(f"{root}: no labelled tiles (expected each image's .txt, a 'class cx cy w h' line a tile, "
                         "under a 'labels' folder beside 'images')")
    for folder in sorted(roots):
        check_our_classes(folder)
    return pairs


def read_truth(label_file: Path, width: int, height: int) -> Truth:
    """A YOLO label file (our class ids) as pixel boxes; no file = no tiles."""
    rows = read_labels(label_file, width, height) if label_file.exists() else []
    xyxy = np.array([box for _, box in rows], dtype=np.float32).reshape(-1, 4)
    return Truth(xyxy, np.array([cls for cls, _ in rows], dtype=np.int64))


def labelled_hand(truth: Truth) -> Hand | None:
    """The hand the labelled boxes show, read by the layout as a scan reads its tiles (None: no valid hand)."""
    return read_hand(TileDetections(truth.xyxy, np.ones(len(truth.class_id)), truth.class_id)).hand


def read_exactly(sure: TileDetections, truth: Truth) -> bool:
    """A photo read exactly: the faces read (at the operating confidence) are the labelled faces, as a multiset."""
    return Counter(t.code for t in sure.tiles) == Counter(TILES[c].code for c in truth.class_id)


def match(pred: TileDetections, truth: Truth, same_class: bool = True) -> np.ndarray:
    """For each IoU threshold, the ground-truth index each prediction matched (-1: none); (n_pred × 10).

    Predictions go in descending confidence; each takes the free truth box with the highest IoU.
    """
    order = np.argsort(-pred.confidence, kind="stable")
    matched = np.full((len(pred), len(IOU_THRESHOLDS)), -1, dtype=np.int64)
    if len(pred) == 0 or len(truth.class_id) == 0:
        return matched
    iou = box_iou(pred.xyxy, truth.xyxy)
    if same_class:
        iou = np.where(pred.class_id[:, None] == truth.class_id[None, :], iou, 0.0)
    for t, threshold in enumerate(IOU_THRESHOLDS):
        free = np.ones(len(truth.class_id), dtype=bool)
        for i in order:
            candidates = np.where(free & (iou[i] >= threshold), iou[i], -1.0)
            best = int(candidates.argmax())
            if candidates[best] >= 0:
                matched[i, t] = best
                free[best] = False
    return matched


def average_precision(recall: np.ndarray, precision: np.ndarray) -> float:
    """COCO's 101-point AP: the mean over recall levels 0, 0.01, ..., 1 of the best precision at that
    recall or beyond (0 past the highest recall reached). ``recall`` ascends, as a ranked list gives it."""
    if len(recall) == 0:
        return 0.0
    envelope = np.flip(np.maximum.accumulate(np.flip(precision)))
    at = np.searchsorted(recall, np.linspace(0, 1, 101), side="left")
    return float(np.where(at < len(recall), envelope[np.minimum(at, len(recall) - 1)], 0.0).mean())


def ranked_ap(scores: np.ndarray, hits: np.ndarray, n_truth: int) -> list[float]:
    """AP at each IoU threshold of predictions ranked by score; ``hits`` (n × thresholds) says which
    matched a truth box, ``n_truth`` is how many there were."""
    order = np.argsort(-scores, kind="stable")
    tp = np.cumsum(hits[order], axis=0)
    fp = np.cumsum(~hits[order], axis=0)
    recall, precision = tp / n_truth, tp / np.maximum(tp + fp, 1)
    return [average_precision(recall[:, t], precision[:, t]) for t in range(hits.shape[1])]


@dataclass(frozen=True)
class Report:
    """What `mcr eval` prints. Per-class AP covers the classes with ground truth."""

    images: int
    instances: int
    map50: float
    map50_95: float
    precision: float
    recall: float
    ap50: dict[str, float]
    ap50_95: dict[str, float]
    located_ap50: float  # tiles found at all, whatever face was read: what misses vs misreads cost
    located_ap50_95: float
    confusions: list[tuple[str, str, int]]  # (true code, predicted code, count), most frequent first
    hand_photos: int
    hands_exact: int
    hand_tiles: int
    hand_tiles_correct: int
    scanned_hands: int  # hand photos whose labels give a valid hand, read by `mcr scan` (`Evaluator.add_scan`)
    scanned_hands_exact: int


@dataclass
class Evaluator:
    """Accumulates images one at a time (`add`), then `report()`; ``conf`` is the operating threshold."""

    conf: float = 0.25
    _scores: list[np.ndarray] = field(default_factory=list)
    _classes: list[np.ndarray] = field(default_factory=list)
    _hits: list[np.ndarray] = field(default_factory=list)
    _located: list[np.ndarray] = field(default_factory=list)
    _truth_counts: Counter[int] = field(default_factory=Counter)
    _confusions: Counter[tuple[str, str]] = field(default_factory=Counter)
    _tp_at_conf: int = 0
    _pred_at_conf: int = 0
    _images: int = 0
    _hands: list[tuple[bool, int, int]] = field(default_factory=list)
    _scanned: list[bool] = field(default_factory=list)

    def add(self, pred: TileDetections, truth: Truth, is_hand: bool = False) -> None:
        """One image's detections (all confidences, for AP) against its ground truth."""
        self._images += 1
        matched = match(pred, truth)
        self._scores.append(pred.confidence)
        self._classes.append(pred.class_id)
        self._hits.append(matched >= 0)
        self._located.append(match(pred, truth, same_class=False) >= 0)
        self._truth_counts.update(truth.class_id.tolist())
        sure = pred[pred.confidence >= self.conf]
        sure_hits = match(sure, truth)[:, 0] >= 0
        self._tp_at_conf += int(sure_hits.sum())
        self._pred_at_conf += len(sure)
        located = match(sure, truth, same_class=False)[:, 0]
        for i in np.flatnonzero(located >= 0):
            true_code, got_code = TILES[truth.class_id[located[i]]].code, sure.tiles[i].code
            if true_code != got_code:
                self._confusions[(true_code, got_code)] += 1
        if is_hand:
            self._hands.append((read_exactly(sure, truth), len(truth.class_id), int(sure_hits.sum())))

    def add_scan(self, hand: Hand | None, truth: Truth) -> None:
        """A hand photo's hand as a scan read it (None: no valid hand) against the hand its labels show; a
        photo whose labels show none is left out (a tile hidden, discards labelled beside the hand)."""
        shown = labelled_hand(truth)
        if shown is not None:
            self._scanned.append(hand == shown)

    def report(self, top_confusions: int = 10) -> Report:
        scores = np.concatenate(self._scores) if self._scores else np.zeros(0)
        classes = np.concatenate(self._classes) if self._classes else np.zeros(0, np.int64)
        no_hits = np.zeros((0, len(IOU_THRESHOLDS)), bool)
        hits = np.concatenate(self._hits) if self._hits else no_hits
        located = np.concatenate(self._located) if self._located else no_hits
        ap = {
            TILES[cls].code: ranked_ap(scores[classes == cls], hits[classes == cls], n_truth)
            for cls, n_truth in sorted(self._truth_counts.items())
        }
        per_class = np.array(list(ap.values())).reshape(-1, len(IOU_THRESHOLDS))
        instances = sum(self._truth_counts.values())
        located_ap = ranked_ap(scores, located, instances) if instances else [0.0] * len(IOU_THRESHOLDS)
        return Report(
            images=self._images,
            instances=instances,
            map50=float(per_class[:, 0].mean()) if len(per_class) else 0.0,
            map50_95=float(per_class.mean()) if len(per_class) else 0.0,
            precision=self._tp_at_conf / max(self._pred_at_conf, 1),
            recall=self._tp_at_conf / max(instances, 1),
            ap50={code: v[0] for code, v in ap.items()},
            ap50_95={code: float(np.mean(v)) for code, v in ap.items()},
            located_ap50=located_ap[0],
            located_ap50_95=float(np.mean(located_ap)),
            confusions=[(a, b, n) for (a, b), n in self._confusions.most_common(top_confusions)],
            hand_photos=len(self._hands),
            hands_exact=sum(exact for exact, _, _ in self._hands),
            hand_tiles=sum(n for _, n, _ in self._hands),
            hand_tiles_correct=sum(c for _, _, c in self._hands),
            scanned_hands=len(self._scanned),
            scanned_hands_exact=sum(self._scanned),
        )
