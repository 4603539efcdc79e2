"""The model options `mcr detect`, `mcr scan`, `mcr eval` and the measuring programs share, the detector they
describe, and the cores a process may share out among its workers and threads."""

from __future__ import annotations

import argparse
import os
from pathlib import Path
from typing import TYPE_CHECKING

from vision.weights import SECOND_LOOK_FACES

if TYPE_CHECKING:
    from vision.detector import Detector


def add_model_arguments(parser: argparse.ArgumentParser, views: bool = True) -> None:
    """The shared options; ``views``: with ``--views`` and the box refiner's options (not for `mcr scan`, whose
    first reading takes four views and whose boxes stay as drawn, `vision.scan._faint`)."""
    parser.add_argument("--model", type=Path, help="ONNX detector (default: the shipped one)")
    parser.add_argument("--face-model", type=Path, help="ONNX face reader (default: the shipped one, if any)")
    for name, faces in SECOND_LOOK_FACES.items():  # --flower-model, --character-model...
        parser.add_argument(f"--{name[:-1]}-model", type=Path, dest=f"{name}_model", metavar="ONNX",
                            help=f"ONNX reader of the {faces}, a second look (default: the shipped one, if any)")
    parser.add_argument("--no-faces", action="store_true", help="read faces with the detector alone")
    parser.add_argument("--threads", type=int, default=2, help="CPU threads for inference (default 2)")
    if views:
        parser.add_argument("--box-model", type=Path, metavar="ONNX",
                            help="ONNX box refiner, which redraws each kept box (default: the shipped one, if any)")
        parser.add_argument("--no-refine", action="store_true", help="keep the boxes as the detector drew them")
        parser.add_argument("--views", type=int, choices=(1, 2, 4), default=1,
                            help="quarter turns at which the readers read each tile's crop, their readings "
                            "averaged (default 1; 4 reads more faces right in about 1.7x the time)")
    parser.add_argument("--all-sides", action="store_true",
                        help="read each photo from its four sides and let the readings vote (4x the time; "
                        "mcr scan does so by itself when its first reading is not sure)")


def detector_from(args: argparse.Namespace, conf: float) -> Detector:
    from vision.detector import Detector

    return Detector(args.model, threads=args.threads, conf=conf, face_model=args.face_model,
                    faces=not args.no_faces, views=getattr(args, "views", 1),
                    second_looks={name: getattr(args, f"{name}_model") for name in SECOND_LOOK_FACES},
                    box_model=getattr(args, "box_model", None),
                    refine=not getattr(args, "no_refine", True))  # none loaded for `mcr scan`, whose boxes stay as drawn


def usable_cores() -> int:
    """Cores this process may run on (its CPU affinity, which containers narrow), not the machine's count."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
