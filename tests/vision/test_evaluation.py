"""Evaluation metrics on hand-made boxes: perfect, missing, misread and duplicate detections; `mcr eval`."""

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from api.cli import main
from scoring import parse_hand
from scoring.tiles import tile
from tests.vision.conftest import HAND, NOTATION, FixedTiles, lay, shoot
from vision.detections import TileDetections
from vision.evaluation import (
    Evaluator,
    Truth,
    average_precision,
    read_truth,
    yolo_pairs,
)
from vision.labels.yolo import data_yaml, label_lines

BOXES = np.array([[0, 0, 10, 10], [20, 0, 30, 10], [40, 0, 50, 10]], np.float32)
CODES = ["1m", "1m", "E"]


def truth() -> Truth:
    return Truth(BOXES, np.array([tile(c).index for c in CODES]))


def detections(codes: list[str], boxes: np.ndarray = BOXES, conf: list[float] | None = None) -> TileDetections:
    return TileDetections(boxes, conf or [0.9] * len(codes), [tile(c).index for c in codes])


def test_perfect_detections() -> None:
    ev = Evaluator()
    ev.add(detections(CODES), truth(), is_hand=True)
    r = ev.report()
    assert r.map50 == pytest.approx(1.0) and r.map50_95 == pytest.approx(1.0)
    assert (r.precision, r.recall, r.hands_exact, r.hand_photos) == (1.0, 1.0, 1, 1)
    assert r.confusions == []


def test_misread_tile_is_a_confusion_and_breaks_the_hand() -> None:
    ev = Evaluator()
    ev.add(detections(["1m", "2m", "E"]), truth(), is_hand=True)
    r = ev.report()
    assert r.confusions == [("1m", "2m", 1)]
    assert r.hands_exact == 0 and (r.hand_tiles, r.hand_tiles_correct) == (3, 2)
    assert r.precision == pytest.approx(2 / 3) and r.recall == pytest.approx(2 / 3)
    assert r.ap50["E"] == pytest.approx(1.0) and r.ap50["1m"] == pytest.approx(0.5, abs=0.01)
    assert r.located_ap50 == pytest.approx(1.0)  # every tile was found, one face misread


def test_missed_tile_lowers_located_ap() -> None:
    ev = Evaluator()
    ev.add(detections(CODES[:2], BOXES[:2]), truth())
    r = ev.report()
    assert r.located_ap50 == pytest.approx(2 / 3, abs=0.01) and r.ap50["E"] == 0.0


def test_low_confidence_duplicates_lower_ap_but_not_the_operating_point() -> None:
    ev = Evaluator(conf=0.5)
    boxes = np.vstack([BOXES, BOXES[:1] + 1])
    ev.add(detections(CODES + ["1m"], boxes, [0.9, 0.9, 0.9, 0.1]), truth())
    r = ev.report()
    assert r.precision == 1.0 and r.recall == 1.0
    assert r.ap50["1m"] == pytest.approx(1.0)  # the duplicate ranks after both true hits


def test_loose_boxes_count_at_50_not_at_95() -> None:
    ev = Evaluator()
    shifted = BOXES + np.array([2, 0, 2, 0], np.float32)  # IoU 80/120 = 0.67: passes 0.50-0.65
    ev.add(detections(CODES, shifted), truth())
    r = ev.report()
    assert r.map50 == pytest.approx(1.0) and r.map50_95 == pytest.approx(0.4)


def test_average_precision_of_half_recall() -> None:
    assert average_precision(np.array([0.5]), np.array([1.0])) == pytest.approx(0.5, abs=0.01)


def test_yolo_folder_reading(tmp_path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    (tmp_path / "images" / "a.png").write_bytes(b"")
    (tmp_path / "labels" / "a.txt").write_text(f"{tile('E').index} 0.5 0.5 0.2 0.4\n")
    [(image, label)] = yolo_pairs(tmp_path)
    t = read_truth(label, width=100, height=50)
    np.testing.assert_allclose(t.xyxy, [[40, 15, 60, 35]])
    assert t.class_id.tolist() == [tile("E").index]
    (tmp_path / "labels" / "a.txt").write_text("99 0.5 0.5 0.2 0.4\n")
    with pytest.raises(ValueError, match="a.txt:1"):
        read_truth(label, 100, 50)
    with pytest.raises(ValueError, match="no images"):
        yolo_pairs(tmp_path / "labels")
    (tmp_path / "labels" / "a.txt").write_text("4 0.5 a 0.2 0.4\n")
    with pytest.raises(ValueError, match=r"a.txt:1: expected numbers for 'cx cy w h', got '4 0.5 a 0.2 0.4'"):
        read_truth(label, 100, 50)


def test_a_yolo_folder_without_labels_or_with_other_classes_is_refused(tmp_path: Path) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "a.png").write_bytes(b"")
    with pytest.raises(ValueError, match="no labelled tiles"):
        yolo_pairs(tmp_path)
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "a.txt").write_text("0 0.5 0.5 0.2 0.4\n")
    (tmp_path / "data.yaml").write_text(data_yaml(tmp_path))
    assert len(yolo_pairs(tmp_path)) == 1  # our own data.yaml
    (tmp_path / "data.yaml").write_text("train: images\nnc: 3\nnames: ['1B', '1C', '1D']\n")  # a Roboflow export's
    with pytest.raises(ValueError, match=r"data.yaml: names 3 classes \(1B, 1C, 1D, ...\), not our 43"):
        yolo_pairs(tmp_path)
    (tmp_path / "data.yaml").unlink()
    source = tmp_path / "source"  # the source dataset's layout: classes.tsv beside train/images
    (source / "train").mkdir(parents=True)
    (tmp_path / "images").rename(source / "train" / "images")
    (tmp_path / "labels").rename(source / "train" / "labels")
    assert len(yolo_pairs(source)) == 1
    (source / "classes.tsv").write_text("index\tsource_name\tcode\n0\tbs1\t5f\n")
    for given in (source, source / "train", source / "train" / "images"):
        with pytest.raises(ValueError, match="source dataset's class ids"):
            yolo_pairs(given)
    (source / "classes.tsv").unlink()
    (source / "data.yaml").write_text("train: ../train/images\nnames:\n- 1B\n- 1C\n")  # a Roboflow export's, above
    with pytest.raises(ValueError, match=r"names 2 classes \(1B, 1C, ...\)"):
        yolo_pairs(source / "train")
    (source / "train" / "data.yaml").write_text(data_yaml(source / "train"))  # the nearest one counts
    assert len(yolo_pairs(source / "train")) == 1


def test_mcr_eval_refuses_labels_without_tiles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for sub in ("images", "labels"):
        (tmp_path / sub).mkdir()
    cv2.imwrite(str(tmp_path / "images" / "hand_1.png"), np.full((60, 80, 3), 128, np.uint8))
    (tmp_path / "labels" / "hand_1.txt").write_text("")
    assert main(["eval", "--data", str(tmp_path), "--no-scan"]) == 2
    assert f"{tmp_path}: no labelled tiles" in capsys.readouterr().err


def test_scanned_hands_count_against_the_hand_the_labels_show() -> None:
    shown = shoot(lay(HAND))
    labels = Truth(shown.xyxy, shown.class_id)
    evaluator = Evaluator()
    evaluator.add_scan(parse_hand(NOTATION), labels)  # read right
    evaluator.add_scan(None, labels)  # no valid hand read
    evaluator.add_scan(parse_hand("16f[555p,1][789s,2][WWWW]123m9p9p"), labels)  # a kong's face misread
    evaluator.add_scan(parse_hand(NOTATION), Truth(shown.xyxy[:5], shown.class_id[:5]))  # labels give no hand
    report = evaluator.report()
    assert (report.scanned_hands, report.scanned_hands_exact) == (3, 1)
    assert report.hand_photos == 0  # the one-pass reading is counted by `add` only


def test_mcr_eval_reports_both_readings_of_a_hand_photo(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A stand-in that finds exactly the labelled tiles: every measure perfect, the scan's hand included."""
    import vision.detector

    monkeypatch.setattr(vision.detector, "Detector", FixedTiles)
    tiles = FixedTiles().tiles
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "hand_1.png"), np.full((3000, 4000, 3), 128, np.uint8))
    (tmp_path / "labels" / "hand_1.txt").write_text(
        label_lines(zip(tiles.class_id.tolist(), tiles.xyxy.tolist(), strict=True), 4000, 3000))
    assert main(["eval", "--data", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["map50"] == pytest.approx(1.0) and report["hands_exact"] == report["hand_photos"] == 1
    assert report["scanned_hands_exact"] == report["scanned_hands"] == 1
    assert main(["eval", "--data", str(tmp_path), "--no-scan"]) == 0
    text = capsys.readouterr().out
    assert "hand photos read exactly: 1/1" in text and "mcr scan" not in text
