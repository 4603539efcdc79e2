"""Kill and resume for real: `mcr label`'s runner in its own process group, killed with SIGKILL while
workers are writing, leaves only whole files, and a rerun labels exactly the rest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.labels.records import RECORDS, read_record, record_path

PHOTOS = 40
SCRIPT = """
import sys, time
from pathlib import Path

from vision.labels.batch import Job, label_folder
from vision.detections import TileDetections


class Slow:
    def __call__(self, image):
        time.sleep(0.04)
        return TileDetections([[1, 2, 30, 40]], [0.8], [int(image.mean()) % 43])


if __name__ == "__main__":
    label_folder(Job(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], "slow", workers=2), Slow)
"""


def whole_files(out: Path) -> list[Path]:
    """Every file under ``out`` that a reader would open; each must parse completely."""
    found = [p for p in out.rglob("*") if p.is_file() and not p.name.endswith(".tmp")]
    for path in found:
        if path.suffix == ".json":
            json.loads(path.read_text())  # raises on a half-written file
    return found


@pytest.mark.parametrize("fmt", ["labelstudio", "yolo"])
def test_kill_mid_run_then_rerun_finishes_the_rest(tmp_path, fmt):
    photos, out = tmp_path / "photos", tmp_path / "out"
    photos.mkdir()
    for i in range(PHOTOS):
        cv2.imwrite(str(photos / f"p{i:02d}.png"), np.full((32, 32, 3), i, np.uint8))
    script = tmp_path / "label_slowly.py"
    script.write_text(SCRIPT)
    command = [sys.executable, str(script), str(photos), str(out), fmt]

    process = subprocess.Popen(command, start_new_session=True, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while len(list((out / RECORDS).glob("*.json"))) < 8:
        assert process.poll() is None, process.stderr.read().decode()
        assert time.monotonic() < deadline, "the runner made no progress"
        time.sleep(0.01)
    os.killpg(process.pid, signal.SIGKILL)  # the runner and its workers, at once
    process.wait()

    whole_files(out)
    done_before = {p.name.removesuffix(".json") for p in (out / RECORDS).glob("*.json")}
    assert 8 <= len(done_before) < PHOTOS, "the kill came too late to test anything"
    assert not (out / "summary.json").exists()

    rerun = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert not list(out.rglob("*.tmp")), "temporary files left behind"
    whole_files(out)
    summary = json.loads((out / "summary.json").read_text())
    assert (summary["images"], summary["skipped"], summary["labelled"]) == (
        PHOTOS, len(done_before), PHOTOS - len(done_before))
    assert all(read_record(record_path(out, f"p{i:02d}.png")) for i in range(PHOTOS))
    if fmt == "labelstudio":
        assert len(json.loads((out / "tasks.json").read_text())) == PHOTOS
    else:
        assert len(list((out / "labels").glob("*.txt"))) == PHOTOS
