"""The measuring programs (`models.measure`) run as their commands do and print their figures on a few inputs;
a missing data folder is an error line, not a traceback."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from models.measure import (
    differential,
    hand_misses,
    label_check,
    label_ray_speed,
    layout_scenes,
    mirror_check,
    score_speed,
)


def test_the_layout_figure_counts_every_scene(capsys: pytest.CaptureFixture[str]) -> None:
    layout_scenes.main(["--n", "40", "--seed", "3"])
    out = capsys.readouterr().out
    assert out.startswith("40 scenes in ") and "whose hand the photo can show" in out


def test_the_scorer_is_timed_beside_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    score_speed.main(["--n", "200"])
    out = capsys.readouterr().out
    assert len(re.findall(r"hard hand .* cold [\d.]+ ms, warm [\d.]+ ms", out)) == len(score_speed.HARD_HANDS)
    assert re.search(r"ours: +\d+ hands/s", out) and re.search(r"reference: +\d+ hands/s", out)


def test_the_differential_run_reports_agreement(capsys: pytest.CaptureFixture[str]) -> None:
    differential.main(["--n", "50", "--seed", "5"])
    assert capsys.readouterr().out.strip().endswith("50 of 50 hands agree fan for fan; 0 differ")


@pytest.mark.parametrize("program", [hand_misses, label_check, mirror_check], ids=lambda m: m.__name__)
def test_a_missing_data_folder_is_an_error_line(program: object, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert program.main(["--data", str(tmp_path / "nowhere")]) == 2  # type: ignore[attr-defined]
    assert capsys.readouterr().err == f"error: {tmp_path / 'nowhere'}: no such folder\n"


def test_a_labelling_runs_timeline_reads_its_records_times(tmp_path: Path) -> None:
    """First record 2 s after the start, one record every 0.1 s (10 a second), the command ending 0.5 s after the
    last: what `label_ray_speed` prints for each run."""
    records = tmp_path / "detections" / "sub"
    records.mkdir(parents=True)
    started = 1_000_000.0
    for k in range(50):
        path = records / f"p{k}.json"
        path.write_text("{}")
        os.utime(path, (started + 2 + 0.1 * k, started + 2 + 0.1 * k))
    line = label_ray_speed.timeline(tmp_path, started, seconds=2 + 4.9 + 0.5)
    assert line == ("first record at 2.00 s, 10.0 images/s between the 10th and 90th percentile records, "
                    "ended 0.50 s after the last")
