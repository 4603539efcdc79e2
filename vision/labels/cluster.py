"""Batch labelling on a Ray cluster (`mcr label --engine ray`): the same two phases as `vision.labels.batch`, with
phase 1 run by Ray Data, so one command labels a folder on a laptop, on a Ray cluster or on a cloud one.

Phase 1 is ``from_items`` (the names of the photos still to do, a block per batch) -> ``map_batches`` over a pool
of actors: each actor loads the models once, reads each photo of its batch from the photo folder, labels it and
writes its record to the output folder itself, as the local engine's workers do.
The records are the resume markers, as in the local engine: a driver killed mid-run loses only the batches in
flight, and the rerun labels the rest. Ray restarts a lost actor and retries its batch (Ray Data's actor pools
set ``max_restarts`` and ``max_task_retries`` to -1), so a lost worker costs only its batch. Phase 2 runs in
the driver from all records, through `vision.labels.batch.finish`: the same files and summary as the local
engine. The photo and output folders are local paths or any URI pyarrow or fsspec opens (`vision.labels.folders`).

Needs the ``cluster`` extra (ray[data]); `vision.labels.batch` never imports this module.
"""

from __future__ import annotations

import functools
import logging
import math
import os
import pickle
import socket
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from vision.labels import labelstudio
from vision.labels.batch import (
    FORMATS,
    Detect,
    Outcome,
    check_yolo_names,
    finish,
    label_photo,
    reusable,
    split_photos,
)
from vision.labels.folders import Folder
from vision.labels.records import parse_record, record_name
from vision.labels.summary import Failure

# Under `uv run`, Ray would start every worker through `uv run` in an environment of its own, which lacks this
# extra; the workers use the driver's interpreter instead. Usage statistics would be sent to the network.
os.environ.setdefault("RAY_ENABLE_UV_RUN_RUNTIME_ENV", "0")
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")

import ray  # noqa: E402  (after the environment above, which Ray reads on import)

# Ray runs its workers at niceness 15, under the driver and everything else on the node. The labelling actors do the
# job's work, so they run at the driver's priority, as the local engine's workers do: on a node that other programs
# share, at 15 they got about half the CPU of a worker at 0 (merged with the job's own runtime environment).
ACTOR_ENV = {"env_vars": {"RAY_worker_niceness": "0"}}

CONNECT_SECONDS = 10.0  # a cluster's head that accepts no connection in this long is taken as not there

ThreadedFactory = Callable[[int], Detect]
"""Makes a detector running on the given number of threads; called once per actor, so it must pickle."""


@dataclass(frozen=True)
class ClusterJob:
    """What to label and how, on Ray. ``src`` and ``dst`` are local folders or URIs (``s3://bucket/photos``);
    ``address`` is the cluster's (None: ``RAY_ADDRESS``, else a Ray instance started for this run);
    ``actors`` None is one per CPU of the cluster; ``batch_size`` photos go to an actor at a time."""

    src: str
    dst: str
    fmt: str
    model: str
    conf: float = 0.25
    force: bool = False
    url_prefix: str = labelstudio.LOCAL_FILES_PREFIX
    address: str | None = None
    actors: int | None = None
    batch_size: int = 16

    def __post_init__(self) -> None:
        if self.fmt not in FORMATS:
            raise ValueError(f"unknown format {self.fmt!r}: use one of {', '.join(FORMATS)}")
        if self.actors is not None and self.actors < 1:
            raise ValueError(f"actors must be at least 1, got {self.actors}")
        if self.batch_size < 1:
            raise ValueError(f"batch size must be at least 1, got {self.batch_size}")


class Labeller:
    """One actor of the pool: makes its detector once, then labels batches of photos, writing each record to
    the output folder as it goes. A detector that does not load is answered per photo (``broken``), so the
    driver stops with its reason instead of Ray restarting the actor for ever."""

    def __init__(self, job: ClusterJob, factory: ThreadedFactory, threads: int) -> None:
        self.job, self.src, self.dst = job, Folder.open(job.src), Folder.open(job.dst)
        self.detect: Detect | None = None
        self.broken = ""
        try:
            self.detect = factory(threads)
        except Exception as exc:  # told to the driver with the first batch
            self.broken = f"the detector did not load: {exc}"

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        rows: dict[str, list[Any]] = {"image": [], "record": [], "error": [], "broken": []}
        for image in map(str, batch["image"]):
            outcome = Outcome(image, reused=False, broken=self.broken) if self.detect is None else label_photo(
                self.job, self.detect, image, functools.partial(self.src.read_bytes, image), self.dst.write_text,
                self.src.path(image))
            rows["image"].append(image)
            # the record whole (a record file rounds its boxes): the same files as the local engine's first run
            rows["record"].append(pickle.dumps(outcome.record) if outcome.record is not None else b"")
            rows["error"].append(outcome.failure.error if outcome.failure is not None else "")
            rows["broken"].append(outcome.broken or "")
        return {key: np.array(values, dtype=object) for key, values in rows.items()}


def _outcome(row: dict[str, Any]) -> Outcome:
    image = str(row["image"])
    if row["broken"]:
        raise ValueError(str(row["broken"]))
    if row["error"]:
        return Outcome(image, reused=False, failure=Failure(image, str(row["error"])))
    return Outcome(image, reused=False, record=pickle.loads(row["record"]))


def _connect(address: str | None) -> None:
    """Join the cluster at ``address`` (or ``RAY_ADDRESS``), or start a Ray instance for this run: never the
    last cluster started on this machine, which Ray would otherwise pick and may be someone else's."""
    address = address or os.environ.get("RAY_ADDRESS")
    if address:
        _answers(address)
        ray.init(address=address, logging_level=logging.WARNING)
    else:
        ray.init(address="local", include_dashboard=False, logging_level=logging.WARNING)


def _answers(address: str) -> None:
    """Refuse a head's address (``HOST:PORT``, or ``ray://HOST:PORT``) where nothing accepts a connection within
    `CONNECT_SECONDS`: Ray itself would retry it for minutes, printing its own warnings. Other forms (``auto``)
    are left to Ray."""
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=CONNECT_SECONDS).close()
    except OSError as exc:
        raise ConnectionError(f"no Ray cluster answers at {address} ({exc.strerror or exc}): is its head "
                              "started (`ray start --head`), and is this its address?") from None


def _pool_shape(actors: int | None) -> tuple[int, float, int]:
    """Actors, the CPUs each reserves and the threads each runs: the cluster's CPUs shared out evenly, an actor
    never reserving more than the largest node holds (it must fit on one)."""
    cpus = ray.cluster_resources().get("CPU", 1.0)
    largest = max((n["Resources"].get("CPU", 0.0) for n in ray.nodes() if n["Alive"]), default=cpus)
    actors = actors or max(1, int(cpus))
    share = min(cpus / actors, largest)
    return actors, share, max(1, int(share))


def _labelled(job: ClusterJob, factory: ThreadedFactory, todo: list[str]) -> Iterator[Outcome]:
    """Phase 1 on Ray for the photos still to do, outcomes as batches finish; Ray shut down after, or when
    interrupted, even while it starts (a Ray instance started for this run stopped with it)."""
    try:
        _connect(job.address)
        actors, share, threads = _pool_shape(job.actors)
        # Names, not the photos' bytes: the actors read each photo themselves, so the driver neither looks up every
        # file's size before the job (one request per photo on a bucket) nor passes photos through the object store,
        # and a photo that cannot be read is a failure by name, not a failed read task. One block per batch.
        photos = ray.data.from_items([{"image": image} for image in todo],
                                     override_num_blocks=math.ceil(len(todo) / job.batch_size))
        labelled = photos.map_batches(Labeller, fn_constructor_args=(job, factory, threads), batch_size=None,
                                      batch_format="numpy", num_cpus=share, runtime_env=ACTOR_ENV,
                                      compute=ray.data.ActorPoolStrategy(size=min(actors, len(todo))))
        for row in labelled.iter_rows():
            yield _outcome(row)
    finally:
        ray.shutdown()


def label_on_ray(job: ClusterJob, factory: ThreadedFactory,
                 on_outcome: Callable[[Outcome, int, int], None] | None = None) -> dict[str, Any]:
    """Label every photo of ``job.src`` on Ray; returns the summary (also written to ``summary.json``), the
    same as `vision.labels.batch.label_folder` gives for the same photos."""
    src, dst = Folder.open(job.src), Folder.open(job.dst)
    if not src.exists():
        raise FileNotFoundError(f"{job.src}: no such folder")
    if src.same_as(dst):
        raise ValueError(f"{job.dst}: the output folder must not be the photo folder itself "
                         "(a folder inside it is fine)")
    images, others = split_photos(src.files(exclude=dst))
    if job.fmt == "yolo":
        check_yolo_names(images)
    dst.remove_stale()
    start = time.perf_counter()
    with ThreadPoolExecutor(16) as pool:  # a bucket answers each read in tens of ms: many at once
        stored = list(pool.map(lambda image: dst.read_text(record_name(image)), images))
    outcomes: dict[str, Outcome] = {}
    for image, text in zip(images, stored, strict=True):
        record = reusable(job, parse_record(text) if text is not None else None)
        if record is not None:
            outcomes[image] = Outcome(image, reused=True, record=record)
    todo = [image for image in images if image not in outcomes]
    for outcome in _labelled(job, factory, todo) if todo else ():
        outcomes[outcome.path] = outcome
        if on_outcome is not None:
            on_outcome(outcome, len(outcomes), len(images))
    files, summary = finish(job, images, outcomes, others, time.perf_counter() - start, src.relative_from(dst))
    for name, text in files.items():
        dst.write_text(name, text)
    return summary
