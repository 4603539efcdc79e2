"""Benchmark `mcr label`: images per second on this machine for 640-px and 12-megapixel photos.

    uv run python -m models.measure.label_speed [--model M] [--photos 60] [--workers N]

Copies the first real photos of the shared dataset (640 x 640 JPEG) into a temporary folder as they
are and scaled to 4000 x 3000 (12 MP, JPEG quality 90), then labels each folder with the given model
exactly as `mcr label --format coco` does (worker start-up and model loading included in the time).
Besides the wall-clock rate it prints the workers' CPU time per photo and the rate that gives on idle
cores, which stays meaningful while other jobs share the machine.
"""

from __future__ import annotations

import argparse
import functools
import resource
import shutil
import tempfile
from pathlib import Path

import cv2

from vision.detector_options import usable_cores
from models.training.recipes import REAL_PHOTOS
from vision.detector import Detector, default_model_path
from vision.labels.batch import Job, label_folder

PHOTOS = REAL_PHOTOS / "train" / "images"


def prepare(root: Path, count: int) -> dict[str, Path]:
    """The two photo folders, ``640`` and ``12mp``, each with ``count`` photos."""
    sources = sorted(PHOTOS.glob("*.jpg"))[:count]
    if len(sources) < count:
        raise SystemExit(f"need {count} photos in {PHOTOS}, found {len(sources)}")
    folders = {"640": root / "640", "12mp": root / "12mp"}
    for folder in folders.values():
        folder.mkdir()
    for source in sources:
        shutil.copy(source, folders["640"] / source.name)
        big = cv2.resize(cv2.imread(str(source)), (4000, 3000), interpolation=cv2.INTER_CUBIC)
        cv2.imwrite(str(folders["12mp"] / source.name), big, [cv2.IMWRITE_JPEG_QUALITY, 90])
    return folders


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.label_speed", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--photos", type=int, default=60)
    parser.add_argument("--workers", type=int, default=usable_cores())
    args = parser.parse_args(argv)
    model = args.model or default_model_path()
    cores = usable_cores()
    threads = max(1, cores // args.workers)
    factory = functools.partial(Detector, model, threads=threads)
    with tempfile.TemporaryDirectory() as tmp:
        for name, folder in prepare(Path(tmp), args.photos).items():
            job = Job(folder, Path(tmp) / f"out-{name}", "coco", model.name, workers=args.workers)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            summary = label_folder(job, factory)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / summary["labelled"]
            print(f"{name}: {summary['labelled']} photos in {summary['seconds']} s = "
                  f"{summary['images_per_second']} images/s ({args.workers} workers x {threads} threads, "
                  f"{cores} cores, model {model.name}); {1000 * cpu:.0f} ms CPU per photo = "
                  f"{cores / cpu:.1f} images/s on idle cores", flush=True)


if __name__ == "__main__":
    main()
