"""The model options `mcr detect`, `mcr scan` and `mcr eval` share, and the detector they describe."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

    from vision.detections import TileDetections
    from vision.detector import Detector


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, help="ONNX detector (default: the shipped one)")
    parser.add_argument("--face-model", type=Path, help="ONNX face reader (default: the shipped one, if any)")
    parser.add_argument("--no-faces", action="store_true", help="read faces with the detector alone")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for inference (default 2)")
    parser.add_argument("--all-sides", action="store_true",
                        help="read each photo from its four sides and let the readings vote (4x the time; "
                        "mcr scan does so by itself when its first reading is not sure)")


def detector_from(args: argparse.Namespace, conf: float) -> Detector:
    from vision.detector import Detector

    return Detector(args.model, threads=args.threads, conf=conf, face_model=args.face_model,
                    faces=not args.no_faces)


def photo_reader(args: argparse.Namespace, detector: Detector) -> Callable[[np.ndarray], TileDetections]:
    """How `mcr detect` and `mcr eval` read a photo: the detector once, or with ``--all-sides`` the vote
    of the photo's four right-angle turns (`vision.views`), its confidences held to the detector's threshold."""
    if not args.all_sides:
        return detector
    from vision.views import AllSides

    return AllSides(detector)
