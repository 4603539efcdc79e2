"""Photo → score speed on a 12-megapixel phone photo (`models.measure.scan_speed`, which prints the figures): the
suite checks a loose bound, as shared CI cores vary."""

from __future__ import annotations

import statistics

import pytest

from models.measure.scan_speed import timings, twelve_megapixels
from vision.detector import Detector, default_model_path


def test_a_12_megapixel_photo_scores_within_two_cpu_seconds() -> None:
    try:
        detector = Detector(default_model_path(), threads=2)
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    assert twelve_megapixels().shape == (3000, 4000, 3)
    walls, cpus, decodes = timings(detector, [twelve_megapixels()] * 3)
    assert len(walls) == len(cpus) == len(decodes) == 3 and all(d < w for d, w in zip(decodes, walls))
    assert statistics.median(cpus) < 2.0  # CPU seconds: the wall time on a busy machine says little
