"""Write N scenes as a YOLO folder, in parallel, with a progress bar: what ``mcr synth`` runs.

Scene ``i`` is named ``{i:06d}`` and depends only on (seed, i), so any number of workers gives the same
files. Scenes with a hand also get ``layouts/{i:06d}.json``: the hand and where each of its tiles is.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import cv2

from datasets.layouts import LAYOUTS
from datasets.scenes import Renderer, Scene
from vision.labels.yolo import data_yaml, label_lines


@dataclass(frozen=True)
class Job:
    out: Path
    seed: int
    styles: tuple[str, ...]
    layouts: tuple[str, ...] = LAYOUTS
    size: int = 640
    restyle: float = 0.0  # share of scenes whose faces are redrawn (`datasets.faces.strokes`)


_renderer: Renderer | None = None
_job: Job | None = None


def _init(job: Job) -> None:
    """Set up a rendering process. Each renders on one OpenCV thread: ``--workers`` is the parallelism,
    and workers do not contend for cores."""
    global _renderer, _job
    cv2.setNumThreads(1)
    _job, _renderer = job, Renderer(job.styles, job.layouts, job.size, job.restyle)


def write_scene(out: Path, stem: str, scene: Scene) -> None:
    """The scene's JPEG, its YOLO labels and, for a hand, its layout side file."""
    h, w = scene.image.shape[:2]
    ok, jpeg = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, scene.quality])
    if not ok:
        raise OSError(f"cannot encode scene {stem}")
    (out / "images" / f"{stem}.jpg").write_bytes(jpeg.tobytes())
    (out / "labels" / f"{stem}.txt").write_text(label_lines(((lab.cls, lab.box) for lab in scene.labels), w, h))
    if scene.ground_truth is not None:
        truth = {"image": f"images/{stem}.jpg", "labels": f"labels/{stem}.txt", **scene.ground_truth}
        (out / "layouts" / f"{stem}.json").write_text(json.dumps(truth, indent=1))


def _one(index: int) -> int:
    assert _renderer is not None and _job is not None
    scene = _renderer.scene(_job.seed, index)
    write_scene(_job.out, f"{index:06d}", scene)
    return len(scene.labels)


def generate(job: Job, n: int, workers: int = 1, progress: Callable[[int, int], None] | None = None) -> int:
    """Render scenes 0..n-1 into ``job.out``; returns the number of labelled tiles."""
    for sub in ("images", "labels", "layouts"):
        (job.out / sub).mkdir(parents=True, exist_ok=True)
    (job.out / "data.yaml").write_text(data_yaml(job.out))
    if workers <= 1:
        _init(job)
        return _count(map(_one, range(n)), n, progress)
    Renderer(job.styles, job.layouts, job.size)  # fills the face cache once, before the workers start
    # spawn, not fork: a process forked after OpenCV started its thread pool can hang
    with mp.get_context("spawn").Pool(workers, _init, (job,)) as pool:
        return _count(pool.imap(_one, range(n), chunksize=4), n, progress)


def _count(results: Iterator[int], n: int, progress: Callable[[int, int], None] | None) -> int:
    total = 0
    for done, count in enumerate(results, 1):
        total += count
        if progress:
            progress(done, n)
    return total


class ProgressBar:
    """A one-line progress bar with the rate, redrawn on stderr; into a log file (not a terminal) it
    writes a plain line at every tenth instead."""

    def __init__(self, width: int = 30) -> None:
        self.width, self.start = width, time.monotonic()
        self.live = sys.stderr.isatty()

    def __call__(self, done: int, total: int) -> None:
        rate = done / max(time.monotonic() - self.start, 1e-9)
        if self.live:
            fill = round(self.width * done / max(total, 1))
            end = "\n" if done == total else ""
            print(f"\r[{'#' * fill}{'.' * (self.width - fill)}] {done}/{total} {rate:.1f} scenes/s", end=end,
                  file=sys.stderr, flush=True)
        elif done == total or done * 10 // total != (done - 1) * 10 // total:
            print(f"{done}/{total} scenes, {rate:.1f} scenes/s", file=sys.stderr, flush=True)
