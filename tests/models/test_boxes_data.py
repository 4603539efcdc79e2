"""The box refiner's training inputs (`models.training.boxes`): labelled tiles held in memory and the detector's own boxes
paired with them."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from models.training.boxes import FOUND_IOU, Tiles, found_boxes
from tests.conftest import held_out_labelled
from vision.detector import Detector
from vision.geometry import box_iou
from vision.labels.yolo import label_lines


@pytest.mark.real
def test_the_detectors_boxes_are_paired_with_the_labels_they_overlap_most(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    image, truth = next(held_out_labelled())  # skips without ../shared
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "hand.png"), image)
    rows = zip(truth.class_id.tolist(), truth.xyxy.tolist(), strict=True)
    (tmp_path / "labels" / "hand.txt").write_text(label_lines(rows, image.shape[1], image.shape[0]))
    tiles = Tiles([tmp_path])
    assert len(tiles) == len(truth) and len(tiles.images) == 1
    assert tiles.labels == pytest.approx(truth.xyxy, abs=0.01)

    tile, box = found_boxes(tiles, tmp_path / "found.npz")
    drawn = Detector(conf=0.05, refine=False)(tiles.images[0]).xyxy  # as drawn, never refined
    iou = box_iou(box, tiles.labels)
    assert len(tile) >= 0.9 * len(truth), (len(tile), len(truth))
    assert (iou[np.arange(len(tile)), tile] > FOUND_IOU).all() and (iou.argmax(axis=1) == tile).all()
    assert (box_iou(box, drawn).max(axis=1) > 0.999).all()

    def no_detector(*args: object, **kwargs: object) -> None:
        raise AssertionError("the cached pairs are read, not worked out again")

    monkeypatch.setattr("vision.detector.Detector", no_detector)
    again = found_boxes(tiles, tmp_path / "found.npz")
    assert (again[0] == tile).all() and (again[1] == box).all()
