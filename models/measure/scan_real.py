"""End to end on the held-out real hand photos (`models/holdout.txt`, names starting ``hand_``), read from
``../shared``: ``uv run python -m models.measure.scan_real [--condition warm]``; ``--photos development``: the
training photos' hand photos instead, the set to choose a layout rule on.

The photos are labelled with tiles only, not hands, so the truth of a photo is the hand our layout reader gives on
its labelled boxes; a photo counts as read exactly when `scan` on the pixels gives that same hand. Photos whose
labels give no valid hand (a tile hidden, two rows of standing tiles) are counted apart.

``--condition`` (or ``--light``) reads the same photos relit as in another room (`CONDITIONS`: a tungsten or shade
cast, dim or washed-out light, no colour) or as a hurried phone takes them (out of focus, shaken): the photos are
one dataset's few rooms, all sharp, and a tile set photographed otherwise is what users bring.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from datasets.real_photos import class_map, read_labels, source_name
from models.training.recipes import HOLDOUT_LIST, REAL_PHOTOS
from models.training.train import streak
from scoring import Hand, Situation, score
from vision.detections import TileDetections
from vision.detector import Detector
from vision.detector_options import add_model_arguments, detector_from
from vision.imagefile import load_image
from vision.layout import read_hand
from vision.scan import scan

CONDITIONS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "as-shot": lambda image: image,
    "warm": lambda image: _gain(image, (0.7, 0.95, 1.15)),  # BGR gains: tungsten
    "cool": lambda image: _gain(image, (1.15, 1.0, 0.8)),  # shade, a daylight lamp
    "dim": lambda image: _curve(image, 1.8, 0.8),
    "washed": lambda image: _curve(image, 0.6, 1.0),
    "gray": lambda image: cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR),
    "soft": lambda image: cv2.GaussianBlur(image, (0, 0), 1.0),  # out of focus: sigma 1 px at the photos' 640
    "shaken": lambda image: cv2.filter2D(image, -1, streak(5, 0.0)),  # a 5-px streak along the photo's width
}


PHOTOS = ("held-out", "development")


def hand_photos(photos: str = "held-out") -> list[Path]:
    """Every copy of each ``hand_`` source photo, held out (`models/holdout.txt`) or of the training photos (the
    development set: where a layout constant or rule is chosen, the held-out photos only measuring it)."""
    sources = {line.strip() for line in HOLDOUT_LIST.read_text().splitlines() if not line.startswith("#")}
    held = photos == "held-out"
    return [p for p in sorted((REAL_PHOTOS / "train" / "images").glob("hand_*"))
            if (source_name(p) in sources) == held]


def labelled(image: Path, width: int, height: int, mapping: dict[int, int]) -> TileDetections:
    """A real photo's labelled tiles, as a perfect detector would give them."""
    rows = read_labels(REAL_PHOTOS / "train" / "labels" / f"{image.stem}.txt", mapping)
    cls, cx, cy, w, h = rows.T
    xyxy = np.stack([(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height], 1)
    return TileDetections(xyxy, np.ones(len(rows)), cls.astype(np.int64))


def _gain(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    return np.clip(image * np.array(gains), 0, 255).astype(np.uint8)


def _curve(image: np.ndarray, gamma: float, level: float) -> np.ndarray:
    return np.clip((image / 255.0) ** gamma * 255 * level, 0, 255).astype(np.uint8)


def points(hand: Hand) -> tuple[object, ...]:
    """The fans (ids and counts) and total a hand scores, in the situation the measures read photos in."""
    scored = score(hand).to_json()
    return sorted((f["id"], f["count"]) for f in scored["fans"]), scored["total"]


def unexplained(hand: Hand | None, doubts: list) -> bool:
    """A scan that gave no hand and no doubt saying why it cannot: what a photo must never get."""
    return hand is None and not any(d.kind == "impossible" for d in doubts)


def measure(detector: Detector, condition: str = "as-shot", all_sides: bool = False,
            photos: str = "held-out") -> Counter[str]:
    """The tally over the hand photos (`hand_photos`): ``photos``, ``tiles`` labelled and ``tiles_read`` (faces right,
    wherever they lie), ``readable`` (labels giving a valid hand), ``exact`` and ``scored_alike`` hands, and
    ``unexplained`` results (`unexplained`)."""
    mapping = class_map(REAL_PHOTOS / "classes.tsv")
    tally: Counter[str] = Counter()
    for path in hand_photos(photos):
        image = load_image(path)
        boxes = labelled(path, image.shape[1], image.shape[0], mapping)
        truth = read_hand(boxes).hand
        tally["photos"] += 1
        result = scan(CONDITIONS[condition](image), detector, Situation(), all_sides=all_sides)
        tally["unexplained"] += unexplained(result.hand, result.doubts)
        faces, read = Counter(t.code for t in boxes.tiles), Counter(t.code for t in result.detections.tiles)
        tally["tiles"] += sum(faces.values())
        tally["tiles_read"] += sum((faces & read).values())
        if truth is None:
            continue
        tally["readable"] += 1
        tally["exact"] += result.hand == truth
        # what a referee needs: the same fans and points (a flower read as another flower scores alike)
        tally["scored_alike"] += result.hand is not None and points(result.hand) == points(truth)
    return tally


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.scan_real", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--condition", "--light", choices=CONDITIONS, default="as-shot",
                        help="relight or blur the photos (default as shot)")
    parser.add_argument("--photos", choices=PHOTOS, default="held-out",
                        help="the held-out hand photos (default) or the training ones (the development set)")
    add_model_arguments(parser, views=False)  # the models as `mcr scan` takes them
    args = parser.parse_args(argv)
    if not REAL_PHOTOS.is_dir():
        raise SystemExit(f"{REAL_PHOTOS} is absent: the photos are read from ../shared")
    t = measure(detector_from(args, conf=0.25), args.condition, args.all_sides, args.photos)
    print(f"{args.condition}: {t['photos']} {args.photos} real hand photos, {t['readable']} whose labels give a valid "
          f"hand: exact hand on {t['exact']} ({t['exact'] / max(t['readable'], 1):.1%}), scored alike (fans and "
          f"points) on {t['scored_alike']} ({t['scored_alike'] / max(t['readable'], 1):.1%}); "
          f"{t['tiles_read']} of {t['tiles']} labelled tile faces read ({t['tiles_read'] / max(t['tiles'], 1):.1%})")


if __name__ == "__main__":
    main()
