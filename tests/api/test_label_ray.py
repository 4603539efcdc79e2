"""`mcr label --engine ray` against a Ray cluster this module starts on 127.0.0.1 (`ray start --head`) and stops:
the same labels as the local engine, failures reported by name, resume after the driver is killed, and a
worker killed mid-batch costing only its batch, photos and labels on an S3-compatible server. Slow (a Ray cluster starts in ~20 s on two busy cores) and
needing the ``cluster`` extra: CI runs them in its slow step, with the extra installed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.measure.label_ray_speed import free_port, local_head
from vision.labels.records import RECORDS, ImageRecord, parse_record, read_record, record_name, record_path

REPO = Path(__file__).resolve().parents[2]


pytest.importorskip("ray", reason="the cluster extra (uv sync --extra cluster)")
pytestmark = pytest.mark.slow

FAKE = """
import functools, os, sys, time
from pathlib import Path

from vision.detections import TileDetections
from vision.labels.cluster import ClusterJob, label_on_ray


class Slow:
    def __call__(self, image):
        time.sleep(0.15)
        return TileDetections([[1, 2, 30, 40]], [0.8], [int(image.mean()) % 43])


def make(folder, threads):
    (Path(folder) / f"actor-{os.getpid()}").write_text(str(os.nice(0)))  # who labels (to kill), at what niceness
    return Slow()


if __name__ == "__main__":
    summary = label_on_ray(ClusterJob(sys.argv[1], sys.argv[2], "yolo", "slow", batch_size=4),
                           functools.partial(make, sys.argv[3]))
    print(summary["images"], summary["labelled"], summary["skipped"], summary["failed"])
"""


@pytest.fixture(scope="module")
def cluster() -> Iterator[dict[str, str]]:
    """A two-CPU Ray head on 127.0.0.1, stopped after this module; the environment its drivers need."""
    with local_head() as env:
        yield env


def grey_photos(folder: Path, count: int) -> None:
    folder.mkdir()
    for i in range(count):
        cv2.imwrite(str(folder / f"p{i:02d}.png"), np.full((32, 32, 3), i, np.uint8))


def mcr_label(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "api.cli", "label", *args], env=env, cwd=REPO,
                          capture_output=True, text=True, timeout=600)


def assert_same_labels(mine: ImageRecord, theirs: ImageRecord) -> None:
    """The same photo size and tiles in the same order, each box within half a pixel."""
    assert (mine.path, mine.width, mine.height) == (theirs.path, theirs.width, theirs.height)
    assert [t.code for t in mine.detections.tiles] == [t.code for t in theirs.detections.tiles], mine.path
    np.testing.assert_allclose(mine.detections.xyxy, theirs.detections.xyxy, atol=0.5)


def test_same_labels_as_the_local_engine_and_failures_by_name(cluster, tmp_path):
    photos = tmp_path / "photos"
    (photos / "table").mkdir(parents=True)
    hand = cv2.imread(str(REPO / "examples" / "hand.jpg"))
    for i, scale in enumerate((1.0, 0.5, 0.3)):
        cv2.imwrite(str(photos / "table" / f"hand{i}.jpg"), cv2.resize(hand, None, fx=scale, fy=scale))
    cv2.imwrite(str(photos / "turned.png"), cv2.rotate(cv2.resize(hand, None, fx=0.4, fy=0.4), cv2.ROTATE_90_CLOCKWISE))
    (photos / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is no JPEG")
    (photos / "notes.txt").write_text("not a photo")

    local = mcr_label(cluster, str(photos), "--out", str(tmp_path / "local"), "--format", "labelstudio")
    ray = mcr_label(cluster, str(photos), "--out", str(tmp_path / "ray"), "--format", "labelstudio",
                    "--engine", "ray", "--actors", "2", "--batch-size", "2")
    assert (local.returncode, ray.returncode) == (1, 1), ray.stderr[-3000:]  # 1: a photo failed
    assert "failed: broken.jpg: corrupt JPEG image" in ray.stdout

    images = ["table/hand0.jpg", "table/hand1.jpg", "table/hand2.jpg", "turned.png"]
    for image in images:
        assert_same_labels(read_record(record_path(tmp_path / "ray", image)),
                           read_record(record_path(tmp_path / "local", image)))
    assert len(read_record(record_path(tmp_path / "ray", "table/hand0.jpg")).detections) >= 14  # a hand was read
    summaries = [json.loads((tmp_path / side / "summary.json").read_text()) for side in ("local", "ray")]
    for summary in summaries:
        del summary["seconds"], summary["images_per_second"]
    assert summaries[0] == summaries[1]
    assert (summaries[1]["images"], summaries[1]["failed"], summaries[1]["other_files"]) == (5, 1, 1)
    tasks = [json.loads((tmp_path / side / "tasks.json").read_text()) for side in ("local", "ray")]
    assert [t["data"] for t in tasks[0]] == [t["data"] for t in tasks[1]]


def start_fake(cluster: dict[str, str], tmp_path: Path, photos: int) -> tuple[list[str], Path, Path]:
    grey_photos(tmp_path / "photos", photos)
    (tmp_path / "actors").mkdir()
    script = tmp_path / "label_slowly.py"
    script.write_text(FAKE)
    return [sys.executable, str(script), str(tmp_path / "photos"), str(tmp_path / "out"), str(tmp_path / "actors")], \
        tmp_path / "out", tmp_path / "actors"


def wait_for_records(process: subprocess.Popen, out: Path, count: int) -> None:
    deadline = time.monotonic() + 240
    while len(list((out / RECORDS).glob("*.json"))) < count:
        assert process.poll() is None, process.stderr.read().decode()[-3000:]
        assert time.monotonic() < deadline, "the Ray run made no progress"
        time.sleep(0.05)


def check_all_labelled(out: Path, photos: int) -> None:
    assert all(read_record(record_path(out, f"p{i:02d}.png")) for i in range(photos))
    assert len(list((out / "labels").glob("*.txt"))) == photos
    assert not list(out.rglob("*.tmp")), "temporary files left behind"


def test_a_killed_driver_is_resumed_by_a_rerun(cluster, tmp_path):
    photos = 40
    command, out, _ = start_fake(cluster, tmp_path, photos)
    driver = subprocess.Popen(command, env=cluster, cwd=REPO, start_new_session=True, stderr=subprocess.PIPE)
    wait_for_records(driver, out, 8)
    os.killpg(driver.pid, signal.SIGKILL)
    driver.wait()
    done = len(list((out / RECORDS).glob("*.json")))
    assert 8 <= done < photos, "the kill came too late to test anything"
    assert not (out / "summary.json").exists()

    rerun = subprocess.run(command, env=cluster, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert rerun.returncode == 0, rerun.stderr[-3000:]
    images, labelled, skipped, failed = map(int, rerun.stdout.split()[-4:])
    assert (images, labelled + skipped, failed) == (photos, photos, 0)
    assert skipped >= done and labelled >= 1  # what was written before the kill is kept, the rest is labelled
    check_all_labelled(out, photos)


def test_a_killed_worker_costs_only_its_batch(cluster, tmp_path):
    photos = 32
    command, out, actors = start_fake(cluster, tmp_path, photos)
    driver = subprocess.Popen(command, env=cluster, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_records(driver, out, 6)
    victim = int(sorted(actors.iterdir())[0].name.removeprefix("actor-"))
    os.kill(victim, signal.SIGKILL)
    stdout, stderr = driver.communicate(timeout=600)
    assert driver.returncode == 0, stderr[-3000:]
    assert stdout.split()[-4:] == [str(photos), str(photos), "0", "0"]  # every photo labelled, none failed
    assert len(list(actors.iterdir())) >= 3, "the killed actor was not restarted"
    assert {marker.read_text() for marker in actors.iterdir()} == {str(os.nice(0))}  # the driver's, not Ray's 15
    check_all_labelled(out, photos)


@pytest.fixture
def bucket() -> Iterator[str]:
    """An S3-compatible server on 127.0.0.1 (moto) with an empty bucket; yields the URI options that reach it."""
    moto_server = pytest.importorskip("moto.server")
    boto3 = pytest.importorskip("boto3")
    port = free_port()
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        boto3.client("s3", endpoint_url=f"http://127.0.0.1:{port}", region_name="us-east-1",
                     aws_access_key_id="test", aws_secret_access_key="test").create_bucket(Bucket="tiles")
        yield f"endpoint_override=127.0.0.1:{port}&scheme=http&region=us-east-1"
    finally:
        server.stop()


def test_photos_and_labels_on_a_bucket(cluster, bucket, tmp_path):
    from vision.labels.folders import Folder

    photos = Folder.open(f"s3://test:test@tiles/photos?{bucket}")
    local = tmp_path / "photos"
    local.mkdir()
    hand = cv2.imread(str(REPO / "examples" / "hand.jpg"))
    for i, scale in enumerate((0.5, 0.3)):
        cv2.imwrite(str(local / f"hand{i}.jpg"), cv2.resize(hand, None, fx=scale, fy=scale))
    (local / "broken.jpg").write_bytes(b"\xff\xd8\xff\xe0 this is no JPEG")
    for path in local.iterdir():
        with photos.fs.open_output_stream(photos.path(path.name)) as stream:
            stream.write(path.read_bytes())

    out_uri = f"s3://test:test@tiles/labels?{bucket}"
    runs = [mcr_label(cluster, f"s3://test:test@tiles/photos?{bucket}", "--out", out_uri, "--format", "yolo",
                      "--engine", "ray") for _ in range(2)]
    assert [run.returncode for run in runs] == [1, 1], runs[0].stderr[-3000:]  # 1: the broken photo
    out = Folder.open(out_uri)
    summary = json.loads(out.read_text("summary.json"))
    assert (summary["images"], summary["skipped"], summary["failed"]) == (3, 2, 1)  # the rerun kept both records
    assert summary["failures"][0]["image"] == "broken.jpg"
    assert "train: s3://tiles/photos" in out.read_text("data.yaml")  # no credentials, no options

    assert mcr_label(cluster, str(local), "--out", str(tmp_path / "local"), "--format", "yolo").returncode == 1
    for image in ("hand0.jpg", "hand1.jpg"):
        assert_same_labels(parse_record(out.read_text(record_name(image))), read_record(record_path(tmp_path / "local", image)))
        assert out.read_text(f"labels/{image.replace('.jpg', '.txt')}").count("\n") >= 14  # a hand was read


def test_ray_is_shut_down_when_interrupted_while_it_starts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A Ray instance started for the run stops with it even when Ctrl-C comes while Ray starts."""
    from vision.labels import cluster as engine

    calls: list[str] = []

    def interrupted(address: str | None) -> None:
        calls.append("connect")
        raise KeyboardInterrupt

    monkeypatch.setattr(engine, "_connect", interrupted)
    monkeypatch.setattr(engine.ray, "shutdown", lambda: calls.append("shutdown"))
    job = engine.ClusterJob(str(tmp_path / "photos"), str(tmp_path / "labels"), "yolo", "m")
    with pytest.raises(KeyboardInterrupt):
        list(engine._labelled(job, lambda threads: None, ["a.png"]))
    assert calls == ["connect", "shutdown"]


def test_an_address_where_no_cluster_answers_is_refused_at_once(tmp_path: Path) -> None:
    """A mistyped head address is one error line within seconds, not Ray retrying it for minutes."""
    grey_photos(tmp_path / "photos", 2)
    address = f"127.0.0.1:{free_port()}"  # bound once and closed again: nothing listens there
    env = {key: value for key, value in os.environ.items() if key != "RAY_ADDRESS"}
    start = time.monotonic()
    done = mcr_label(env, str(tmp_path / "photos"), "--out", str(tmp_path / "labels"), "--engine", "ray",
                     "--address", address)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"mcr label: error: no Ray cluster answers at {address} (Connection refused): is its head started "
        "(`ray start --head`), and is this its address?"]
    assert time.monotonic() - start < 30
