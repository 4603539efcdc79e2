"""Sorting a hand photo's differences from its labels: misread faces, boxes off their tile, tiles at the edge,
tiles found nowhere, and tiles read where no label is."""

import sys
from dataclasses import fields
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.measure.hand_misses import HandMiss, hand_miss, main
from scoring.tiles import CLASS_NAMES
from vision.detections import TileDetections
from vision.evaluation import Truth

ROW = np.array([[100.0 + 40 * i, 100.0, 140.0 + 40 * i, 160.0] for i in range(4)])  # four tiles side by side
FACES = ["1m", "2m", "3m", "E"]


def ids(codes: list[str]) -> np.ndarray:
    return np.array([CLASS_NAMES.index(c) for c in codes])


def reading(xyxy: np.ndarray, codes: list[str]) -> TileDetections:
    return TileDetections(xyxy, np.full(len(codes), 0.9), ids(codes))


def test_a_photo_read_exactly_has_no_miss_even_with_its_boxes_shifted() -> None:
    truth = Truth(ROW, ids(FACES))
    assert hand_miss(reading(ROW + 25, FACES), truth, 640, 480) is None  # the faces' multiset is what counts


def test_each_difference_is_sorted_by_its_cause() -> None:
    labels = np.vstack([ROW, [[0.0, 300.0, 40.0, 360.0], [400.0, 300.0, 440.0, 360.0]]])
    truth = Truth(labels, ids([*FACES, "S", "N"]))  # S at the photo's left edge, N on the table
    read = np.vstack([ROW[:2], ROW[2] + [20, 0, 20, 0], ROW[3], [[500.0, 50.0, 540.0, 110.0]]])
    miss = hand_miss(reading(read, ["1m", "5m", "3m", "E", "9p"]), truth, 640, 480)
    assert miss == HandMiss(misread=(("2m", "5m"),), off_box=("3m",), at_edge=("S",), unfound=("N",), twice=(),
                            unlabelled=("9p",))
    assert miss.cause == "misread"


def test_the_cause_is_a_missed_tile_before_unlabelled_ones() -> None:
    truth = Truth(ROW, ids(FACES))
    missed = hand_miss(reading(ROW[:3], FACES[:3]), truth, 640, 480)
    assert missed is not None and missed.unfound == ("E",) and missed.cause == "missed"
    extra = hand_miss(reading(np.vstack([ROW, [[500.0, 50.0, 540.0, 110.0]]]), [*FACES, "C"]), truth, 640, 480)
    assert extra is not None and extra.unlabelled == ("C",) and extra.cause == "unlabelled"


def test_a_second_box_over_a_found_tile_is_a_tile_read_twice() -> None:
    truth = Truth(ROW, ids(FACES))
    miss = hand_miss(reading(np.vstack([ROW, ROW[1] + [15, 0, 15, 0]]), [*FACES, "3m"]), truth, 640, 480)
    assert miss is not None and miss.twice == ("3m",) and miss.cause == "twice"
    assert any(getattr(miss, field.name) for field in fields(miss))  # a photo not read exactly names why


def test_a_photo_without_labels_reads_every_tile_as_unlabelled() -> None:
    miss = hand_miss(reading(ROW[:2], ["1m", "1m"]), Truth(np.zeros((0, 4)), ids([])), 640, 480)
    assert miss is not None and miss.unlabelled == ("1m", "1m") and miss.cause == "unlabelled"


def test_a_folder_without_hand_photos_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "table.jpg"), np.zeros((32, 32, 3), np.uint8))
    (tmp_path / "labels" / "table.txt").write_text("0 0.5 0.5 0.2 0.4\n")
    monkeypatch.setattr(sys, "argv", ["hand_misses", "--data", str(tmp_path)])
    assert main() == 2
    assert "no hand photos" in capsys.readouterr().err
    monkeypatch.setattr(sys, "argv", ["hand_misses", "--data", str(tmp_path / "missing")])
    assert main() == 2
    assert "no such folder" in capsys.readouterr().err
