"""Batch labelling (`mcr label`): run a detector over a folder of photos, write labels a person reviews.

Two phases, so that a kill at any moment loses at most the images in flight:

1. Per image, in worker processes that each load the detector once: read the photo (EXIF-upright),
   detect, and write a record ``OUT/detections/<relative path>.json`` atomically. The record is the
   resume marker: a rerun skips an image whose record was made with the same model and threshold.
2. Once, from all records: the chosen format (YOLO txt files + ``data.yaml``, COCO
   ``annotations.json``, Label Studio ``tasks.json`` + ``labeling_config.xml``) and ``summary.json``,
   each written atomically, so an aggregate file is never half-written and is rebuilt on every run.

Paths in every output are relative (to the photo folder), so both folders can be moved together.
"""

from __future__ import annotations

import functools
import json
import multiprocessing
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote

import numpy as np

from vision.detections import TileDetections
from vision.imagefile import decode_photo
from vision.labels import coco, labelstudio, yolo
from vision.labels.atomic import write_text_atomic
from vision.labels.summary import Failure, summarise

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp"})
FORMATS = ("yolo", "coco", "labelstudio")
RECORDS = "detections"

Detect = Callable[[np.ndarray], TileDetections]
DetectorFactory = Callable[[], Detect]
"""Makes a detector (image -> detections); called once per worker process, so it must pickle."""


@dataclass(frozen=True)
class Job:
    """What to label and how. ``model`` names the detector (e.g. ``name@sha256``): records made by
    another model or threshold are redone."""

    in_dir: Path
    out_dir: Path
    fmt: str
    model: str
    conf: float = 0.25
    workers: int = 1
    force: bool = False
    url_prefix: str = labelstudio.LOCAL_FILES_PREFIX

    def __post_init__(self) -> None:
        if self.fmt not in FORMATS:
            raise ValueError(f"unknown format {self.fmt!r}: use one of {', '.join(FORMATS)}")
        if self.workers < 1:
            raise ValueError(f"workers must be at least 1, got {self.workers}")
        if not self.in_dir.is_dir():
            raise FileNotFoundError(f"{self.in_dir}: no such folder")
        if self.out_dir.resolve() == self.in_dir.resolve():
            raise ValueError(f"{self.out_dir}: the output folder must not be the photo folder itself "
                             "(a folder inside it is fine)")


@dataclass(frozen=True, eq=False)
class ImageRecord:
    """One labelled photo: its path relative to the photo folder, upright size and detections."""

    path: str
    width: int
    height: int
    detections: TileDetections
    conf: float
    model: str

    def to_json(self) -> dict[str, Any]:
        return {"image": self.path, "width": self.width, "height": self.height, "conf": self.conf,
                "model": self.model, "tiles": self.detections.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImageRecord:
        return cls(data["image"], int(data["width"]), int(data["height"]), TileDetections.from_json(data["tiles"]),
                   float(data["conf"]), str(data["model"]))


@dataclass(frozen=True)
class Outcome:
    """What happened to one image in phase 1: exactly one of ``record``, ``failure`` and ``broken`` (the
    reason the worker's detector did not load, which stops the batch) is set."""

    path: str
    reused: bool
    record: ImageRecord | None = None
    failure: Failure | None = None
    broken: str | None = None


def discover(in_dir: Path, exclude: Path | None = None) -> tuple[list[str], int]:
    """Photos under ``in_dir`` (recursive, by suffix, any case) as sorted relative POSIX paths, and
    how many other files were passed over. Files under ``exclude`` (the output folder) are not looked at."""
    excluded = exclude.resolve() if exclude is not None else None
    photos, others = [], 0
    for root, dirs, files in os.walk(in_dir):
        if excluded is not None:
            dirs[:] = [d for d in dirs if (Path(root) / d).resolve() != excluded]
        for name in files:
            if Path(name).suffix.lower() in IMAGE_SUFFIXES:
                photos.append((Path(root) / name).relative_to(in_dir).as_posix())
            else:
                others += 1
    return sorted(photos), others


def record_path(out_dir: Path, image: str) -> Path:
    return out_dir / RECORDS / f"{image}.json"


def read_record(path: Path) -> ImageRecord | None:
    """A stored record, or None if there is none or it cannot be read (the image is then redone)."""
    try:
        return ImageRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


_detector: Detect | None = None  # this worker process's detector, made once by _start_worker
_detector_error = "label_image runs in a worker started by _start_worker"


def _start_worker(factory: DetectorFactory) -> None:
    global _detector, _detector_error
    _detector = None
    try:
        _detector = factory()
    except Exception as exc:  # kept for label_image to raise: a pool restarts a failed start-up for ever
        _detector_error = f"the detector did not load: {exc}"


def label_image(job: Job, image: str) -> Outcome:
    """Phase 1 for one photo; any error with the photo becomes a reported failure so the batch goes on
    (a detector that did not load stops the batch with its reason: `run_phase_one`)."""
    if _detector is None:
        return Outcome(image, reused=False, broken=_detector_error)
    try:
        # a large JPEG decoded as small as still fills the model's input: what it would see of the whole photo
        photo = decode_photo((job.in_dir / image).read_bytes(), getattr(_detector, "size", None))
        detections = photo.to_original(_detector(photo.pixels))
        record = ImageRecord(image, photo.width, photo.height, detections, job.conf, job.model)
        write_text_atomic(record_path(job.out_dir, image), json.dumps(record.to_json()))
    except Exception as exc:  # a bad photo must never stop the batch: report it and go on
        error = str(exc).removeprefix(f"{job.in_dir / image}: ") or type(exc).__name__  # paths stay relative
        return Outcome(image, reused=False, failure=Failure(image, error))
    return Outcome(image, reused=False, record=record)


def _reusable(job: Job, image: str) -> ImageRecord | None:
    if job.force:
        return None
    record = read_record(record_path(job.out_dir, image))
    if record is None or record.model != job.model or record.conf != job.conf:
        return None
    return record


def _check_yolo_names(images: list[str]) -> None:
    """YOLO names a label after its photo's stem, so ``a.jpg`` and ``a.png`` in one folder would clash."""
    seen: dict[str, str] = {}
    for image in images:
        key = str(PurePosixPath(image).with_suffix(""))
        if key in seen:
            raise ValueError(f"{seen[key]} and {image} would share one YOLO label file: rename one")
        seen[key] = image


def run_phase_one(job: Job, images: list[str], factory: DetectorFactory) -> Iterator[Outcome]:
    """Outcomes as images finish: reused records first, then fresh ones from ``job.workers`` processes."""
    todo = []
    for image in images:
        record = _reusable(job, image)
        if record is None:
            todo.append(image)
        else:
            yield Outcome(image, reused=True, record=record)
    broken = None
    for outcome in _labelled(functools.partial(label_image, job), todo, job.workers, factory):
        if outcome.broken is None:
            yield outcome
        else:
            broken = outcome.broken
    if broken is not None:
        raise ValueError(broken)


def _labelled(work: Callable[[str], Outcome], todo: list[str], workers: int,
              factory: DetectorFactory) -> Iterator[Outcome]:
    """``work`` done on each image, in this process or in ``workers`` processes, every image's outcome
    returned. A worker whose detector did not load answers at once (`label_image`), so the pool is always
    drained and closed, never terminated with tasks in flight: that could hang for ever (CPython's
    ``Pool.terminate`` with its task thread blocked on the queue, as seen once in CI)."""
    if workers == 1 or len(todo) <= 1:
        _start_worker(factory)
        yield from map(work, todo)
        return
    with multiprocessing.Pool(min(workers, len(todo)), _start_worker, (factory,)) as pool:
        yield from pool.imap_unordered(work, todo)
        pool.close()
        pool.join()


def yolo_label_path(out_dir: Path, image: str) -> Path:
    return out_dir / "labels" / PurePosixPath(image).with_suffix(".txt")


def _write_yolo(job: Job, records: list[ImageRecord]) -> list[Path]:
    out = job.out_dir
    for r in records:
        path = yolo_label_path(out, r.path)
        boxes = zip(r.detections.class_id.tolist(), r.detections.xyxy.tolist(), strict=True)
        text = yolo.label_lines(boxes, r.width, r.height)
        if not path.is_file() or path.read_text() != text:
            write_text_atomic(path, text)
    photos = Path(os.path.relpath(job.in_dir.resolve(), out.resolve())).as_posix()
    header = f"# mcr label: labels/ mirrors the photo folder {photos}\ntrain: {photos}\nval: {photos}\n"
    write_text_atomic(out / "data.yaml", header + yolo.names_yaml())
    return [out / "labels", out / "data.yaml"]


def _write_coco(job: Job, records: list[ImageRecord]) -> list[Path]:
    images, annotations = [], []
    for image_id, r in enumerate(records, start=1):
        images.append(coco.image_record(image_id, r.path, r.width, r.height))
        annotations += coco.to_annotations(r.detections, image_id, len(annotations) + 1)
    path = job.out_dir / "annotations.json"
    coco.save(path, coco.dataset(images, annotations, f"mcr label, model {job.model}"))
    return [path]


def _write_labelstudio(job: Job, records: list[ImageRecord]) -> list[Path]:
    tasks = [
        labelstudio.task(job.url_prefix + quote(r.path),
                         labelstudio.to_prediction(r.detections, r.width, r.height, job.model))
        for r in records
    ]
    labelstudio.save_tasks(job.out_dir / "tasks.json", tasks)
    write_text_atomic(job.out_dir / "labeling_config.xml", labelstudio.labeling_config())
    return [job.out_dir / "tasks.json", job.out_dir / "labeling_config.xml"]


# Phase 2 per format: every file from all records, each atomic; returns what it wrote (for the summary).
WRITERS: dict[str, Callable[[Job, list[ImageRecord]], list[Path]]] = {
    "yolo": _write_yolo, "coco": _write_coco, "labelstudio": _write_labelstudio,
}


def label_folder(
    job: Job, factory: DetectorFactory, on_outcome: Callable[[Outcome, int, int], None] | None = None
) -> dict[str, Any]:
    """Label every photo of ``job.in_dir``; returns the summary (also written to ``summary.json``).

    ``on_outcome(outcome, finished, total)`` is called as each image finishes (for a progress bar).
    """
    images, others = discover(job.in_dir, exclude=job.out_dir)
    if job.fmt == "yolo":
        _check_yolo_names(images)
    job.out_dir.mkdir(parents=True, exist_ok=True)
    out = job.out_dir  # temporary files left by a run killed mid-write (never read), only where we write
    for stale in [*out.glob(".*.tmp"), *(out / RECORDS).rglob(".*.tmp"), *(out / "labels").rglob(".*.tmp")]:
        stale.unlink(missing_ok=True)
    start = time.perf_counter()
    outcomes: dict[str, Outcome] = {}
    for outcome in run_phase_one(job, images, factory):
        outcomes[outcome.path] = outcome
        if on_outcome is not None:
            on_outcome(outcome, len(outcomes), len(images))
    seconds = time.perf_counter() - start
    ordered = [outcomes[image] for image in images]
    records = [o.record for o in ordered if o.record is not None]
    files = WRITERS[job.fmt](job, records)
    summary = summarise(
        records,
        failures=[o.failure for o in ordered if o.failure is not None],
        reused=sum(o.reused for o in ordered),
        other_files=others,
        seconds=seconds,
    )
    summary = {"format": job.fmt, "model": job.model, "conf": job.conf,
               "outputs": [p.relative_to(job.out_dir).as_posix() for p in files], **summary}
    write_text_atomic(job.out_dir / "summary.json", json.dumps(summary, indent=1, ensure_ascii=False))
    return summary
