"""`mcr label`: label a folder of tile photos with the detector, for review in the tools people use.

Every photo under IN_DIR (jpg, jpeg, png, webp; recursive; EXIF orientation honoured) is read by the
detector. OUT_DIR receives, by --format:
  yolo         labels/<photo path>.txt (class cx cy w h, normalised) and data.yaml with our class names
  coco         annotations.json (boxes in pixels, with the detector's score)
  labelstudio  tasks.json (boxes as predictions with scores) and labeling_config.xml for the project
and always detections/ (one record per photo: the resume cache) and summary.json (counts, tiles per
class, doubtful images first). A rerun skips photos already labelled unless --force; every file is
written atomically, so a kill at any moment leaves no half-written file. Exit status 1 if any photo
could not be read. --all-sides reads each photo from its four sides (as `mcr detect --all-sides`).

--engine ray labels through Ray Data on a Ray cluster (the `cluster` extra): the same outputs and resume;
IN_DIR and OUT_DIR may then be any URI pyarrow or fsspec opens (s3://bucket/photos). See
docs/cluster-labelling.md.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from api.cli import CliError
from vision.detector_options import usable_cores

if TYPE_CHECKING:
    import numpy as np

    from vision.detections import TileDetections

FORMATS = ("yolo", "coco", "labelstudio")  # vision.labels.batch.FORMATS, kept here so --help stays fast
ENGINES = ("local", "ray")
INSTALL_CLUSTER = ("--engine ray needs the cluster extra (Ray): pip install 'mcr-lens[cluster]', "
                   "or in a checkout uv sync --extra cluster")


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("label", help="label a folder of photos (YOLO, COCO, Label Studio)",
                                   description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("in_dir", metavar="IN_DIR", help="folder of photos (searched recursively)")
    parser.add_argument("--out", required=True, metavar="OUT_DIR", help="folder for the labels")
    parser.add_argument("--format", choices=FORMATS, default="yolo", help="label format (default yolo)")
    parser.add_argument("--conf", type=float, default=0.25, help="confidence threshold (default 0.25)")
    parser.add_argument("--workers", type=int, default=usable_cores(),
                        help="worker processes, each loading the model once (default: one per core)")
    parser.add_argument("--engine", choices=ENGINES, default="local",
                        help="local: worker processes on this machine (default); ray: Ray Data on a Ray cluster")
    parser.add_argument("--address", help="ray: the cluster's address (default RAY_ADDRESS, else a Ray instance "
                        "started for this run)")
    parser.add_argument("--actors", type=int, help="ray: actors, each loading the models once (default: one per "
                        "CPU of the cluster)")
    parser.add_argument("--batch-size", type=int, default=16, help="ray: photos an actor labels at a time, and "
                        "what a lost worker costs (default 16)")
    parser.add_argument("--force", action="store_true", help="label again photos already labelled")
    parser.add_argument("--model", type=Path, help="ONNX model (default: the shipped one)")
    parser.add_argument("--all-sides", action="store_true",
                        help="read each photo from its four sides and let the readings vote (~4x the time, "
                        "fewer misread and stray tiles)")
    parser.add_argument("--url-prefix", help="Label Studio: prefix of each photo's URL before its relative "
                        "path (default '/data/local-files/?d=', Label Studio's local file serving)")
    parser.set_defaults(run=run)


def model_id(path: Path) -> str:
    """The model's name and content hash: records made by another model are redone, not reused."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
    return f"{path.name}@{digest}"


class Progress:
    """A one-line progress bar with rate and ETA on a terminal; a line every few seconds otherwise."""

    def __init__(self, stream: TextIO | None = None, width: int = 30, every_s: float = 5.0) -> None:
        # the standard error as it is when the bar is made (a default argument would keep the one at import)
        self.stream, self.width, self.every_s = stream or sys.stderr, width, every_s
        self.live = self.stream.isatty()
        self.start = self.last = time.perf_counter()
        self.fresh = 0  # images actually processed, for the rate (reused ones cost nothing)

    def update(self, fresh: bool, finished: int, total: int) -> None:
        self.fresh += fresh
        now = time.perf_counter()
        if finished < total and now - self.last < (0.1 if self.live else self.every_s):
            return
        self.last = now
        rate = self.fresh / (now - self.start) if now > self.start else 0.0
        left = total - finished
        eta = time.strftime("%H:%M:%S", time.gmtime(left / rate)) if rate > 0 else "--:--:--"
        filled = self.width * finished // max(total, 1)
        bar = "#" * filled + "." * (self.width - filled)
        line = f"[{bar}] {finished}/{total} {100 * finished // max(total, 1)}% {rate:.1f} img/s ETA {eta}"
        self.stream.write(f"\r{line}" if self.live else f"{line}\n")
        if self.live and finished == total:
            self.stream.write("\n")
        self.stream.flush()


def labelling_reader(model: Path, threads: int, conf: float, all_sides: bool) -> Callable[[np.ndarray], TileDetections]:
    """The reader each labelling worker or actor makes for itself (a module-level function: the pool pickles it)."""
    from vision.detector import Detector
    from vision.views import photo_reader

    return photo_reader(Detector(model, threads=threads, conf=conf), all_sides)


def run(args: argparse.Namespace) -> int:
    if not 0.0 < args.conf < 1.0:
        raise ValueError(f"--conf must be between 0 and 1, got {args.conf}")
    import functools

    from vision.detector import default_model_path
    from vision.faces import face_model_path, reader_paths
    from vision.labels.summary import summary_text
    from vision.weights import BOX_REFINER

    model = args.model if args.model is not None else default_model_path()
    if not model.is_file():
        raise FileNotFoundError(f"{model}: no such model file")
    face, looks = reader_paths()  # the readers and the box refiner each worker's Detector loads beside the model
    refiner = face_model_path(name=BOX_REFINER)
    readers = [path for path in (face, *looks.values(), refiner) if path is not None]
    models = model_id(model) + "".join(f"+{model_id(path)}" for path in readers) + \
        ("+all-sides" if args.all_sides else "")  # records made another way are redone
    prefix = {} if args.url_prefix is None else {"url_prefix": args.url_prefix}
    reader = functools.partial(labelling_reader, model, conf=args.conf, all_sides=args.all_sides)
    if args.engine == "ray":
        try:
            from vision.labels.cluster import ClusterJob, label_on_ray
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.split(".")[0] in ("ray", "pyarrow"):
                raise CliError(INSTALL_CLUSTER) from None
            raise
        summary = label_on_ray(ClusterJob(args.in_dir, args.out, args.format, models, conf=args.conf,
                                          force=args.force, address=args.address, actors=args.actors,
                                          batch_size=args.batch_size, **prefix), reader)
    else:
        from vision.labels.batch import Job, label_folder

        job = Job(Path(args.in_dir), Path(args.out), args.format, models, conf=args.conf, workers=args.workers,
                  force=args.force, **prefix)
        threads = max(1, usable_cores() // job.workers)  # workers x threads = cores
        progress = Progress()
        summary = label_folder(job, functools.partial(reader, threads),
                               lambda o, done, total: progress.update(not o.reused, done, total))
    print(summary_text(summary))
    print(f"labels in {args.out} ({', '.join(summary['outputs'])}); summary in {args.out.rstrip('/')}/summary.json")
    return 1 if summary["failed"] else 0
