"""The model options `mcr detect`, `mcr scan` and `mcr eval` share, and the detector they describe."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.detector import Detector


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, help="ONNX detector (default: the shipped one)")
    parser.add_argument("--face-model", type=Path, help="ONNX face reader (default: the shipped one, if any)")
    parser.add_argument("--flower-model", type=Path,
                        help="ONNX reader of flowers and seasons, a second look (default: the shipped one, if any)")
    parser.add_argument("--character-model", type=Path,
                        help="ONNX reader of the characters 1m-9m, a second look (default: the shipped one, if any)")
    parser.add_argument("--no-faces", action="store_true", help="read faces with the detector alone")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for inference (default 2)")
    parser.add_argument("--all-sides", action="store_true",
                        help="read each photo from its four sides and let the readings vote (4x the time; "
                        "mcr scan does so by itself when its first reading is not sure)")


def detector_from(args: argparse.Namespace, conf: float) -> Detector:
    from vision.detector import Detector

    return Detector(args.model, threads=args.threads, conf=conf, face_model=args.face_model,
                    faces=not args.no_faces,
                    second_looks={"flowers": args.flower_model, "characters": args.character_model})

