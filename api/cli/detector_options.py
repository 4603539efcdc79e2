"""The model options `mcr detect`, `mcr scan` and `mcr eval` share, and the detector they describe."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from models import SECOND_LOOK_FACES

if TYPE_CHECKING:
    from vision.detector import Detector


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", type=Path, help="ONNX detector (default: the shipped one)")
    parser.add_argument("--face-model", type=Path, help="ONNX face reader (default: the shipped one, if any)")
    for name, faces in SECOND_LOOK_FACES.items():  # --flower-model, --character-model...
        parser.add_argument(f"--{name[:-1]}-model", type=Path, dest=f"{name}_model", metavar="ONNX",
                            help=f"ONNX reader of the {faces}, a second look (default: the shipped one, if any)")
    parser.add_argument("--no-faces", action="store_true", help="read faces with the detector alone")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for inference (default 2)")
    parser.add_argument("--all-sides", action="store_true",
                        help="read each photo from its four sides and let the readings vote (4x the time; "
                        "mcr scan does so by itself when its first reading is not sure)")


def detector_from(args: argparse.Namespace, conf: float) -> Detector:
    from vision.detector import Detector

    return Detector(args.model, threads=args.threads, conf=conf, face_model=args.face_model,
                    faces=not args.no_faces,
                    second_looks={name: getattr(args, f"{name}_model") for name in SECOND_LOOK_FACES})

