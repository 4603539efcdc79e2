"""Composed hand photos (`datasets.composed`): the layout generator independent of `mcr synth`, checked on a
bank of plain coloured crops (the real crops come from ../shared)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets import crops
from datasets.composed import Conventions, compose, meld_tiles
from datasets.crops import BANK_VERSION, CropBank, crop_split
from datasets.layouts import Placed
from datasets.real_photos import is_held_out
from models.measure import melds as measure
from scoring import Meld, MeldKind, Situation, parse_hand
from scoring.tiles import BACK, BONUS, PLAYABLE, TILES, tile
from tests.vision.conftest import ASPECT, chow_apart, lay, shoot
from vision.detections import TileDetections
from vision.scan import scan_detections


def _bank() -> CropBank:
    """One flat crop per face, each its own grey level, so that scenes compose without real photos."""
    return CropBank({t.code: [np.full((40, 30, 3), 20 + 5 * t.index, np.uint8)] for t in TILES})


@pytest.mark.parametrize("seed", range(12))
def test_a_scene_shows_its_hands_tiles(seed: int) -> None:
    scene = compose(_bank(), seed)
    hand = scene.hand
    expected = Counter(t.code for t in (*hand.concealed, hand.win_tile, *hand.flowers, *(t for m in hand.melds for t in m.tiles)))
    shown = Counter(scene.shown)
    backs = shown.pop(BACK.code, 0)
    assert sum(expected.values()) - sum(shown.values()) == backs  # face-down tiles hide faces of the hand
    assert not shown - expected
    assert len(scene.boxes) == len(scene.classes) >= len(scene.shown)
    height, width = scene.image.shape[:2]
    assert (scene.boxes[:, 2] <= width).all() and (scene.boxes[:, 3] <= height).all()


def test_a_chows_claimed_tile_is_laid_as_the_convention_says() -> None:
    chow = Meld(MeldKind.CHOW, (tile("3m"), tile("4m"), tile("5m")), claimed=2)
    rng = np.random.default_rng(0)
    draw = Conventions.draw(rng)
    left = meld_tiles(chow, Conventions(**{**draw.to_json(), "chow": "left"}), rng)[0]
    rank = meld_tiles(chow, Conventions(**{**draw.to_json(), "chow": "rank"}), rng)[0]
    upright = meld_tiles(chow, Conventions(**{**draw.to_json(), "chow": "upright"}), rng)[0]
    assert left == [("5m", True), ("3m", False), ("4m", False)]
    assert rank == [("3m", False), ("4m", False), ("5m", True)]
    assert not any(turned for _, turned in upright)


def test_the_crop_bank_saves_and_loads(tmp_path: Path) -> None:
    _bank().save(tmp_path / "bank.npz")
    loaded = CropBank.load(tmp_path / "bank.npz")
    assert sorted(loaded.crops) == sorted(t.code for t in TILES)


def _source(root: Path, labels: list[str]) -> str:
    """A source dataset in ``root`` of one photo, not held out and of the ``dev`` split: a flat tile of its own
    grey level for each of ``labels``, apart on a dark table. Returns the label file's stem."""
    stem = next(f"hand_{k}_jpg.rf.0" for k in range(1000)
                if not is_held_out(f"hand_{k}_jpg") and crop_split(f"hand_{k}_jpg") == "dev")
    (root / "train" / "images").mkdir(parents=True)
    (root / "train" / "labels").mkdir(parents=True)
    (root / "classes.tsv").write_text("index\tsource_name\tcode\tface\n"
                                      + "".join(f"{t.index}\tx\t{t.code}\tx\n" for t in TILES))
    image = np.full((450, 450, 3), 30, np.uint8)  # square, as the source photos are
    rows = []
    for k, code in enumerate(labels):
        x, y = 10 + 50 * (k % 9), 10 + 60 * (k // 9)
        image[y:y + 40, x:x + 30] = 80 + 3 * k
        rows.append(f"{tile(code).index} {(x + 15) / 450} {(y + 20) / 450} {30 / 450} {40 / 450}")
    cv2.imwrite(str(root / "train" / "images" / f"{stem}.jpg"), image)
    (root / "train" / "labels" / f"{stem}.txt").write_text("\n".join(rows))
    return stem


def test_the_bank_takes_the_corrected_labels(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop whose label is known wrong goes under the face it shows, or is left out when that is unsure."""
    faces = [t.code for t in (*PLAYABLE, *BONUS)]
    stem = _source(tmp_path, [*faces, "5f", "8f"])
    monkeypatch.setattr(crops, "LABEL_FIXES", {(stem, len(faces)): "7f", (stem, len(faces) + 1): None})

    class Reader:
        def __call__(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
            return np.full((len(boxes), len(TILES)), 1 / len(TILES), np.float32)

    bank = CropBank.from_source(tmp_path, "dev", Reader())  # type: ignore[arg-type]
    assert {code: len(bank.crops[code]) for code in ("5f", "7f", "8f")} == {"5f": 1, "7f": 2, "8f": 1}


class MirrorReader:
    """A face reader that reads every crop's mirror image likelier as its face."""

    def __call__(self, image: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        x0, y0, x1, y1 = (int(v) for v in boxes[0])
        third = (x1 - x0) // 3
        left, right = float(image[y0:y1, x0:x0 + third].mean()), float(image[y0:y1, x1 - third:x1].mean())
        return np.full((len(boxes), len(TILES)), 0.9 if left > right else 0.1, np.float32)


def test_the_bank_keeps_the_recorded_sides_of_its_crops_and_asks_the_reader_of_others(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A crop is kept as the record of its split says, whatever the reader now reads; where the record does not
    count the crops cut (another source), the reader sides them."""
    faces = [t.code for t in (*PLAYABLE, *BONUS)]
    stem = _source(tmp_path, faces)
    photo = tmp_path / "train" / "images" / f"{stem}.jpg"
    image = cv2.imread(str(photo))
    for k in range(len(faces)):  # each tile with a light mark right of its middle, its rim left as it is
        x, y = 10 + 50 * (k % 9), 10 + 60 * (k // 9)
        image[y + 10:y + 30, x + 19:x + 25] = 220
    cv2.imwrite(str(photo), image)
    record = tmp_path / "sides.json"
    monkeypatch.setattr(crops, "SIDES", record)

    def lighter_right(bank: CropBank) -> set[bool]:
        return {bool(crop[:, -9].mean() > crop[:, 8].mean()) for code in faces for crop in bank.crops[code]}

    record.write_text(json.dumps({"dev": "0"}))  # not these crops: the reader sides them
    assert lighter_right(CropBank.from_source(tmp_path, "dev", MirrorReader())) == {False}  # type: ignore[arg-type]
    record.write_text(json.dumps({"dev": "0" * len(faces)}))  # none mirrored
    assert lighter_right(CropBank.from_source(tmp_path, "dev", MirrorReader())) == {True}  # type: ignore[arg-type]


def test_a_bank_without_a_face_is_refused() -> None:
    with pytest.raises(ValueError, match="no crop of 1m"):
        CropBank({t.code: [np.zeros((4, 3, 3), np.uint8)] for t in (*PLAYABLE[1:], BACK)})


def test_the_measure_reads_true_boxes_per_convention(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _bank().save(tmp_path / f"composed-test-v{BANK_VERSION}.npz")
    assert measure.main(["--n", "6", "--boxes", "--cache", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["n"] == 6 and 0.5 <= report["grouped"] <= 1.0
    assert all(0 <= v["scored"] <= 1 for v in report["conventions"].values())


@pytest.mark.parametrize(("laid", "true"), [
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 9p | 9p | E E E E", "[EEEE]123456789m9p9p"),
    ("E E E 1m 2m 3m 4m 5m 6m 7m 8m 9m 9p 9p", "EEE12456789m9p9p3m"),
])
def test_what_the_reading_doubts_counts_once_its_doubt_is_answered(laid: str, true: str) -> None:
    """What a photo cannot tell is read one way with a doubt, and scores otherwise than the truth until the user
    answers that doubt: a kong shown face up with nothing turned anywhere (concealed or claimed), a winning tile not
    set apart (taken by its place, 9p, a single wait, where the truth is 3m, a closed wait). With no doubt on it,
    the reading stands."""
    result = scan_detections(shoot(lay(laid)), Situation())
    truth = parse_hand(true)
    assert result.hand is not None and measure._points(result.hand) != measure._points(truth)
    assert measure._points(measure._doubts_answered(result, truth)) == measure._points(truth)
    sure = replace(result, doubts=())
    assert measure._points(measure._doubts_answered(sure, truth)) != measure._points(truth)


def test_the_pictures_show_each_convention_and_all_of_them_on_one_sheet(tmp_path: Path) -> None:
    _bank().save(tmp_path / f"composed-dev-v{BANK_VERSION}.npz")
    assert measure.main(["--pictures", str(tmp_path / "out"), "--split", "dev", "--cache", str(tmp_path)]) == 0
    names = {p.name for p in (tmp_path / "out").iterdir()}
    assert names == {c.replace("=", "-").replace("_", "-").lower() + ".jpg" for c in measure.PICTURED} | {"sheet.jpg"}
    sheet = cv2.imread(str(tmp_path / "out" / "sheet.jpg"))
    rows = -(-len(measure.PICTURED) // measure.SHEET_COLUMNS)
    assert sheet.shape[1] == measure.SHEET_COLUMNS * measure.SHEET_CELL and sheet.shape[0] > rows * measure.SHEET_CELL


def test_tiles_past_a_gap_the_reading_doubts_count_once_the_melds_are_given() -> None:
    """A chow laid apart with nothing turned, read as standing tiles with a doubt: the user gives the melds."""
    result = scan_detections(shoot(chow_apart(0.45)), Situation())
    truth = parse_hand("[345s,1]46m234p55678s5m")
    assert result.hand is not None and measure._points(result.hand) != measure._points(truth)
    assert measure._points(measure._doubts_answered(result, truth)) == measure._points(truth)
    assert measure._points(measure._doubts_answered(replace(result, doubts=()), truth)) != measure._points(truth)


def test_flowers_left_out_as_unsure_count_once_the_user_gives_their_number() -> None:
    """A flower beside the hand read under `vision.readings.STRAY` is left out with a doubt: the user gives the
    flowers drawn."""
    tiles = shoot([*lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 9p | 9p"), Placed("3f", 3.0, -1.6 * ASPECT)])
    unsure = TileDetections(tiles.xyxy, np.where(tiles.class_id == tile("3f").index, 0.26, 0.9), tiles.class_id)
    result = scan_detections(unsure, Situation())
    truth = parse_hand("3f123456789m9p123s9p")
    assert result.hand is not None and measure._points(result.hand) != measure._points(truth)
    assert measure._points(measure._doubts_answered(result, truth)) == measure._points(truth)
    assert measure._points(measure._doubts_answered(replace(result, doubts=()), truth)) != measure._points(truth)
