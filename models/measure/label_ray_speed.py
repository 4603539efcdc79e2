"""Benchmark `mcr label --engine ray` against the local engine on this machine, and check they write the same labels.

    uv run --extra cluster python -m models.measure.label_ray_speed [--photos 200] [--repeats 3] [--actors 1 2]

Copies the first real photos of the shared dataset (640 x 640 JPEG) into a temporary folder, starts a Ray head on
127.0.0.1 (`ray start --head`, as a user would before labelling) and runs one small Ray job on it (the first
Ray Data job on a cluster starts Ray Data's helper actors, which stay), then labels the folder with the whole command,
`mcr label --format coco`, once per engine in turn, ``--repeats`` times: the local engine (one worker per core)
and Ray with each ``--actors`` count, side by side (each engine first in turn) so that other jobs on a shared
machine weigh on each alike.
Prints each run's wall-clock rate (start-up, connection and model loading included: each engine's whole command,
as a user waits for it; the head's own start is not in it), whether its ``annotations.json`` equals the local
engine's byte for byte, and where its time went (`timeline`: the first record, the rate in between, the end).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from models.training.recipes import REAL_PHOTOS
from vision.labels.records import RECORDS
from vision.weights import REPOSITORY

PHOTOS = REAL_PHOTOS / "train" / "images"
RAY = Path(sys.executable).parent / "ray"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def local_head(cpus: int = 2) -> Iterator[dict[str, str]]:
    """A Ray head on 127.0.0.1 with a token of its own, in its own process group; yields the environment its
    drivers need (``RAY_ADDRESS`` and the token). Stopped by killing that group: `ray stop` would stop every Ray
    instance on the machine, other users' too. The group stays in this process's session: where the kernel shares
    the CPU out by session (autogroup scheduling), a head in a session of its own would give the Ray engine's
    actors a second share beside the one the local engine's workers get, on a machine others use too."""
    temp = tempfile.mkdtemp(prefix="ray-", dir="/tmp")  # Ray's socket paths must stay short
    port = free_port()
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(16),
           "RAY_ADDRESS": f"127.0.0.1:{port}", "RAY_USAGE_STATS_ENABLED": "0", "RAY_ENABLE_UV_RUN_RUNTIME_ENV": "0"}
    head = subprocess.Popen(
        [str(RAY), "start", "--head", "--block", "--node-ip-address=127.0.0.1", f"--port={port}", f"--num-cpus={cpus}",
         "--include-dashboard=false", f"--temp-dir={temp}", f"--dashboard-agent-listen-port={free_port()}"],
        env=env, process_group=0, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 180
        while subprocess.run([str(RAY), "status"], env=env, capture_output=True).returncode != 0:
            if head.poll() is not None:
                raise RuntimeError(f"the Ray head did not start: {head.stderr.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                raise RuntimeError("the Ray head did not start in 180 s")
            time.sleep(1)
        yield env
    finally:
        for sig in (signal.SIGTERM, signal.SIGKILL):  # the GCS and the raylet outlive a SIGTERM
            with contextlib.suppress(ProcessLookupError):
                os.killpg(head.pid, sig)
            time.sleep(3)
        head.wait()
        shutil.rmtree(temp, ignore_errors=True)


def label(env: dict[str, str], photos: Path, out: Path, *engine: str) -> float:
    """Seconds the whole `mcr label` command took."""
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "api.cli", "label", str(photos), "--out", str(out), "--format", "coco",
                           *engine], env=env, cwd=REPOSITORY, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"mcr label {' '.join(engine)} failed:\n{done.stderr[-3000:]}")
    return time.perf_counter() - start


def timeline(out: Path, started: float, seconds: float) -> str:
    """Where a run's time went, from its records' modification times (each written as its photo is labelled):
    the first record's time after the command's start, the labelling rate between the 10th and the 90th
    percentile record, and the time from the last record to the command's end."""
    times = sorted(path.stat().st_mtime - started for path in (out / RECORDS).rglob("*.json"))
    if len(times) < 10:
        return "too few records for a timeline"
    low, high = len(times) // 10, 9 * len(times) // 10
    rate = (high - low) / max(times[high] - times[low], 1e-9)
    return (f"first record at {times[0]:.2f} s, {rate:.1f} images/s between the 10th and 90th percentile records, "
            f"ended {seconds - times[-1]:.2f} s after the last")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m models.measure.label_ray_speed", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--photos", type=int, default=200)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--actors", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args(argv)
    sources = sorted(PHOTOS.glob("*.jpg"))[:args.photos]
    if len(sources) < args.photos:
        raise SystemExit(f"need {args.photos} photos in {PHOTOS}, found {len(sources)}")
    engines = {"local": ()} | {f"ray x{n}": ("--engine", "ray", "--actors", str(n)) for n in args.actors}
    with tempfile.TemporaryDirectory() as tmp, local_head() as env:
        photos = Path(tmp) / "photos"
        photos.mkdir()
        for source in sources:
            shutil.copy(source, photos / source.name)
        # Ray Data's first job on a cluster starts its helper actors (stats, autoscaling, actor locations), which
        # stay for later jobs: one small job first, so each timed run costs what a job on a running cluster does.
        warm = Path(tmp) / "warm"
        warm.mkdir()
        for source in sources[:4]:
            shutil.copy(source, warm / source.name)
        label(env, warm, Path(tmp) / "warm-out", "--engine", "ray")
        for repeat in range(args.repeats):
            runs = list(engines.items())
            seconds, labels, timelines = {}, {}, {}
            for name, engine in runs if repeat % 2 == 0 else runs[::-1]:  # each engine first in turn
                out = Path(tmp) / f"{name}-{repeat}".replace(" ", "")
                started = time.time()  # the records' clock
                seconds[name] = label(env, photos, out, *engine)
                labels[name] = (out / "annotations.json").read_bytes()
                timelines[name] = timeline(out, started, seconds[name])
            for name, _ in runs:
                same = "identical to" if labels[name] == labels["local"] else "DIFFER from"
                print(f"run {repeat + 1} {name:8s}: {args.photos} photos in {seconds[name]:5.1f} s = "
                      f"{args.photos / seconds[name]:5.2f} images/s, {seconds['local'] / seconds[name]:.2f}x the "
                      f"local engine; labels {same} the local engine's; {timelines[name]}", flush=True)

if __name__ == "__main__":
    main()
