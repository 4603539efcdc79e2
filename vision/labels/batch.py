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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Protocol
from urllib.parse import quote

import numpy as np

from vision.detections import TileDetections
from vision.imagefile import decode_photo
from vision.labels import coco, labelstudio, yolo
from vision.labels.atomic import write_text_atomic
from vision.labels.records import RECORDS, ImageRecord, read_record, record_name, record_path
from vision.labels.summary import Failure, summarise

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".heic", ".heif", ".avif"})  # the photos read, and
# AVIF, which is not (`vision.imagefile.UnreadFormat`): each such photo a failure saying so by name, where a folder of
# them would be passed over as other files
FORMATS = ("yolo", "coco", "labelstudio")

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


@dataclass(frozen=True)
class Outcome:
    """What happened to one image in phase 1: exactly one of ``record``, ``failure`` and ``broken`` (the
    reason the worker's detector did not load, which stops the batch) is set."""

    path: str
    reused: bool
    record: ImageRecord | None = None
    failure: Failure | None = None
    broken: str | None = None


def split_photos(names: Iterable[str]) -> tuple[list[str], int]:
    """The photos among relative POSIX file names (by suffix, any case), sorted, and how many others there are."""
    photos, others = [], 0
    for name in names:
        if PurePosixPath(name).suffix.lower() in IMAGE_SUFFIXES:
            photos.append(name)
        else:
            others += 1
    return sorted(photos), others


def discover(in_dir: Path, exclude: Path | None = None) -> tuple[list[str], int]:
    """Photos under ``in_dir`` (recursive) as sorted relative POSIX paths, and how many other files were
    passed over. Files under ``exclude`` (the output folder) are not looked at."""
    excluded = exclude.resolve() if exclude is not None else None
    names = []
    for root, dirs, files in os.walk(in_dir):
        if excluded is not None:
            dirs[:] = [d for d in dirs if (Path(root) / d).resolve() != excluded]
        names += [(Path(root) / name).relative_to(in_dir).as_posix() for name in files]
    return split_photos(names)


class Settings(Protocol):
    """What both engines (this module's processes, `vision.labels.cluster`'s Ray actors) label with."""

    fmt: str
    model: str
    conf: float
    force: bool
    url_prefix: str


def reusable(settings: Settings, record: ImageRecord | None) -> ImageRecord | None:
    """The stored record if a rerun may keep it: made by the same models and threshold, and no --force."""
    if settings.force or record is None or record.model != settings.model or record.conf != settings.conf:
        return None
    return record


def label_photo(settings: Settings, detect: Detect, image: str, read: Callable[[], bytes],
                save: Callable[[str, str], None], location: str) -> Outcome:
    """Phase 1 for one photo, in either engine: ``read`` its bytes, decode them upright, detect, ``save`` the
    record (relative path, text). Any error with the photo becomes a reported failure so the batch goes on;
    ``location`` (where the photo lies) is replaced by its relative name in the message."""
    try:
        # a large JPEG decoded as small as still fills the model's input: what it would see of the whole photo
        photo = decode_photo(read(), getattr(detect, "size", None))
        detections = photo.to_original(detect(photo.pixels))
        record = ImageRecord(image, photo.width, photo.height, detections, settings.conf, settings.model)
        save(record_name(image), json.dumps(record.to_json()))
    except Exception as exc:  # a bad photo must never stop the batch: report it and go on
        error = str(exc).replace(location, image) or type(exc).__name__  # paths stay relative
        return Outcome(image, reused=False, failure=Failure(image, error))
    return Outcome(image, reused=False, record=record)


def write_local(out_dir: Path, name: str, text: str) -> None:
    """Write ``OUT/name`` atomically, leaving a file that already holds ``text`` untouched."""
    path = out_dir / name
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        write_text_atomic(path, text)


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
    """Phase 1 for one photo in a worker process (a detector that did not load stops the batch with its
    reason: `run_phase_one`)."""
    if _detector is None:
        return Outcome(image, reused=False, broken=_detector_error)
    path = job.in_dir / image
    return label_photo(job, _detector, image, path.read_bytes, functools.partial(write_local, job.out_dir),
                       str(path))


def check_yolo_names(images: list[str]) -> None:
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
        record = reusable(job, read_record(record_path(job.out_dir, image)))
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


def _yolo_files(settings: Settings, records: list[ImageRecord], photos: str) -> dict[str, str]:
    files = {}
    for r in records:
        boxes = zip(r.detections.class_id.tolist(), r.detections.xyxy.tolist(), strict=True)
        files[f"labels/{PurePosixPath(r.path).with_suffix('.txt')}"] = yolo.label_lines(boxes, r.width, r.height)
    header = f"# mcr label: labels/ mirrors the photo folder {photos}\ntrain: {photos}\nval: {photos}\n"
    return {**files, "data.yaml": header + yolo.names_yaml()}


def _coco_files(settings: Settings, records: list[ImageRecord], photos: str) -> dict[str, str]:
    images, annotations = [], []
    for image_id, r in enumerate(records, start=1):
        images.append(coco.image_record(image_id, r.path, r.width, r.height))
        annotations += coco.to_annotations(r.detections, image_id, len(annotations) + 1)
    return {"annotations.json": coco.dumps(coco.dataset(images, annotations, f"mcr label, model {settings.model}"))}


def _labelstudio_files(settings: Settings, records: list[ImageRecord], photos: str) -> dict[str, str]:
    tasks = [
        labelstudio.task(settings.url_prefix + quote(r.path),
                         labelstudio.to_prediction(r.detections, r.width, r.height, settings.model))
        for r in records
    ]
    return {"tasks.json": labelstudio.tasks_text(tasks), "labeling_config.xml": labelstudio.labeling_config()}


# Phase 2 per format: every file's text from all records, by its path relative to the output folder. ``photos``
# names the photo folder as the output's data.yaml points at it.
WRITERS: dict[str, Callable[[Settings, list[ImageRecord], str], dict[str, str]]] = {
    "yolo": _yolo_files, "coco": _coco_files, "labelstudio": _labelstudio_files,
}


def finish(settings: Settings, images: list[str], outcomes: dict[str, Outcome], other_files: int, seconds: float,
           photos: str) -> tuple[dict[str, str], dict[str, Any]]:
    """Phase 2, in either engine: the output files' texts (``summary.json`` last, so a summary means the rest
    is written) and the summary, from every image's outcome in the photo folder's order."""
    ordered = [outcomes[image] for image in images]
    records = [o.record for o in ordered if o.record is not None]
    files = WRITERS[settings.fmt](settings, records, photos)
    summary = summarise(
        records,
        failures=[o.failure for o in ordered if o.failure is not None],
        reused=sum(o.reused for o in ordered),
        other_files=other_files,
        seconds=seconds,
    )
    outputs = list(dict.fromkeys(name.split("/")[0] for name in files))  # labels/ as one output
    summary = {"format": settings.fmt, "model": settings.model, "conf": settings.conf, "outputs": outputs, **summary}
    return {**files, "summary.json": json.dumps(summary, indent=1, ensure_ascii=False)}, summary


def label_folder(
    job: Job, factory: DetectorFactory, on_outcome: Callable[[Outcome, int, int], None] | None = None
) -> dict[str, Any]:
    """Label every photo of ``job.in_dir``; returns the summary (also written to ``summary.json``).

    ``on_outcome(outcome, finished, total)`` is called as each image finishes (for a progress bar).
    """
    images, others = discover(job.in_dir, exclude=job.out_dir)
    if job.fmt == "yolo":
        check_yolo_names(images)
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
    photos = Path(os.path.relpath(job.in_dir.resolve(), out.resolve())).as_posix()
    files, summary = finish(job, images, outcomes, others, time.perf_counter() - start, photos)
    for name, text in files.items():
        write_local(out, name, text)
    return summary
