"""The label check on copies made here with a known affine map: labels moved with it agree, moved labels do not."""

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from models.measure.label_check import (
    affine_maps,
    carried,
    ceiling,
    centre_offsets,
    iou_of_offset,
    main,
    pair_offsets,
    recentred,
    summary,
)
from vision.evaluation import Truth
from vision.labels.yolo import label_lines

# a rotation by 30 degrees about (200, 150), sheared, as the source's augmentation made its copies
MAP = np.array([[0.87, -0.40, 90.0], [0.50, 0.80, -60.0]])


def textured(seed: int = 0) -> np.ndarray:
    """A 320×400 photo with enough corners for SIFT: random blobs of colour, blurred a little."""
    rng = np.random.default_rng(seed)
    image = np.full((320, 400, 3), 90, np.uint8)
    for _ in range(260):
        x, y, r = rng.integers(0, 400), rng.integers(0, 320), int(rng.integers(3, 14))
        cv2.circle(image, (int(x), int(y)), r, tuple(int(c) for c in rng.integers(0, 256, 3)), -1)
    return cv2.GaussianBlur(image, (3, 3), 0)


def test_two_copies_of_a_photo_are_joined_by_their_affine_map_and_their_labels_agree() -> None:
    photo = textured()
    copy = cv2.warpAffine(photo, MAP, (400, 320))
    maps = affine_maps([photo, copy])
    assert set(maps) == {(0, 1), (1, 0)}
    assert np.allclose(maps[0, 1], MAP, atol=0.02 * np.abs(MAP).max())
    tiles = Truth(np.array([[150.0, 120.0, 190.0, 175.0], [200.0, 120.0, 240.0, 175.0]]), np.array([3, 4]))
    moved = carried(tiles, MAP)  # labels moved as the copy was
    offsets = pair_offsets(maps, [tiles, moved])
    assert offsets.shape == (4, 2) and offsets.max() < 0.03
    shifted = Truth(moved.xyxy + np.array([0.1, 0.0, 0.1, 0.0]) * (moved.xyxy[:, [2]] - moved.xyxy[:, [0]]),
                    moved.class_id)  # the copy's labels a tenth of a tile to the right
    assert np.allclose(pair_offsets(maps, [tiles, shifted])[:2, 0], 0.1, atol=0.03)


def test_unrelated_photos_are_not_joined() -> None:
    assert affine_maps([textured(0), textured(1)]) == {}


def test_a_carried_box_keeps_its_centre_and_grows_around_a_rotated_outline() -> None:
    box = np.array([[0.0, 0.0, 20.0, 40.0]])
    turn = np.array([[0.0, -1.0, 100.0], [1.0, 0.0, 0.0]])  # a quarter turn: the same box, turned
    assert np.allclose(carried(Truth(box, np.array([5])), turn).xyxy, [[60.0, 0.0, 100.0, 20.0]])
    assert carried(Truth(box, np.array([5])), turn).class_id.tolist() == [5]  # the face goes along
    tilt = cv2.getRotationMatrix2D((10.0, 20.0), 30.0, 1.0)
    tilted = carried(Truth(box, np.array([5])), tilt).xyxy[0]
    assert np.allclose((tilted[:2] + tilted[2:]) / 2, (10.0, 20.0))
    assert tilted[2] - tilted[0] > 20.0 and tilted[3] - tilted[1] > 40.0


def test_offsets_pair_boxes_of_one_class_only() -> None:
    there = Truth(np.array([[0.0, 0.0, 10.0, 10.0], [2.0, 0.0, 12.0, 10.0]]), np.array([1, 2]))
    moved = Truth(np.array([[1.0, 0.0, 11.0, 10.0], [50.0, 50.0, 60.0, 60.0]]), np.array([2, 2]))
    assert np.allclose(centre_offsets(moved, there), [[0.1, 0.0]])  # the far box has no counterpart


@pytest.mark.parametrize(("offset", "iou"), [((0.0, 0.0), 1.0), ((0.1, 0.0), 0.9 / 1.1), ((0.5, 0.5), 0.25 / 1.75)])
def test_iou_of_offset(offset: tuple[float, float], iou: float) -> None:
    assert iou_of_offset(np.array([offset]))[0] == pytest.approx(iou)


def test_the_ceiling_falls_as_labels_disagree() -> None:
    assert ceiling(np.zeros((5, 2))) == 1.0
    # pairs a fifth of a tile apart across: each label a seventh off, IoU 0.75, over 6 of the 10 thresholds
    assert ceiling(np.full((5, 2), [0.2, 0.0])) == pytest.approx(0.6)
    assert ceiling(np.array([[0.2, 0.0], [0.9, 0.0]]), np.array([0.5])) == 0.5  # AP50: the far pair fails it
    assert ceiling(np.zeros((0, 2))) == 0.0


def test_recentring_votes_down_the_one_copy_whose_labels_slid() -> None:
    identity, inverse = np.eye(2, 3), cv2.invertAffineTransform(MAP)
    maps = {(0, 1): MAP, (1, 0): inverse, (0, 2): identity, (2, 0): identity, (1, 2): inverse, (2, 1): MAP}
    tiles = Truth(np.array([[150.0, 120.0, 190.0, 175.0], [200.0, 120.0, 240.0, 175.0]]), np.array([3, 4]))
    slid = Truth(tiles.xyxy + [6.0, 0.0, 6.0, 0.0], tiles.class_id)  # copy 2: the photo as is, labels slid right
    copies = [tiles, carried(tiles, MAP), slid]
    fixed = recentred(maps, copies)
    assert np.allclose(fixed[2], tiles.xyxy, atol=0.01)  # two copies of three place them where they are
    assert np.allclose(fixed[0], tiles.xyxy, atol=0.01) and np.allclose(fixed[1], copies[1].xyxy, atol=0.01)


def copies_folder(root: Path) -> Path:
    """A YOLO folder of two copies of one photo (the second turned and sheared by `MAP`), labels moved along."""
    photo, tiles = textured(), Truth(np.array([[150.0, 120.0, 190.0, 175.0], [200.0, 120.0, 240.0, 175.0]]), np.array([3, 4]))
    (root / "images").mkdir(parents=True)
    (root / "labels").mkdir()
    for name, image, boxes in (("a", photo, tiles), ("b", cv2.warpAffine(photo, MAP, (400, 320)), carried(tiles, MAP))):
        cv2.imwrite(str(root / "images" / f"photo_jpg.rf.{name}.png"), image)
        (root / "labels" / f"photo_jpg.rf.{name}.txt").write_text(
            label_lines(zip(boxes.class_id.tolist(), boxes.xyxy.tolist(), strict=True), 400, 320))
    return root


def run(monkeypatch: pytest.MonkeyPatch, *args: str) -> int:
    monkeypatch.setattr(sys, "argv", ["label_check", "--no-detector", *args])
    return main()


def test_label_check_measures_a_folder_and_writes_the_recentred_labels_in_a_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    data, out = copies_folder(tmp_path / "data"), tmp_path / "out"
    assert run(monkeypatch, "--data", str(data), "--recentre", str(out)) == 0
    text = capsys.readouterr().out
    assert "2 copies of 1 photos; 2 of 2 ordered pairs" in text and "labels         4 boxes" in text
    assert sorted(p.name for p in (out / "images").iterdir()) == ["photo_jpg.rf.a.png", "photo_jpg.rf.b.png"]
    assert (out / "images" / "photo_jpg.rf.a.png").resolve() == (data / "images" / "photo_jpg.rf.a.png").resolve()
    assert len((out / "labels" / "photo_jpg.rf.b.txt").read_text().splitlines()) == 2
    for folder in (out, data):  # never over what is there: the photos themselves least of all
        assert run(monkeypatch, "--data", str(data), "--recentre", str(folder)) == 2
        assert "not a new or empty folder" in capsys.readouterr().err
    photo = data / "images" / "photo_jpg.rf.a.png"
    assert photo.is_file() and not photo.is_symlink()
    assert run(monkeypatch, "--data", str(tmp_path / "nowhere"), "--recentre", str(tmp_path / "new")) == 2
    assert "no such folder" in capsys.readouterr().err and not (tmp_path / "new").exists()


def test_a_summary_without_boxes_says_so() -> None:
    assert "no box found again" in summary("labels", np.zeros((0, 2)))
