"""The photo → scored hand contract: JSON shape, the score as `mcr score --json` gives it, the zoomed
second pass, `mcr scan` end to end with the shipped model (skipped without it)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from api.cli import main
from scoring import Hand, Situation, format_hand, parse_hand
from scoring.request import answer_request
from scoring.tiles import tile
from tests.conftest import StandIn
from tests.vision.conftest import HAND as LONG_HAND
from tests.vision.conftest import NOTATION as LONG_NOTATION
from tests.vision.conftest import SHORT_HAND as HAND
from tests.vision.conftest import SIZE, FixedTiles, Read, lay, shoot
from vision.detections import TileDetections
from vision.detector import NMS_IOU
from vision.locate import Located
from vision.layout import LayoutReading
from vision.scan import FAINT_CAP, SCAN_IOU, SCAN_VIEWS, ScanOverrides, _one_per_tile, _stands, scan, scan_detections

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "hand.jpg"


def test_json_is_the_scan_contract_with_the_score_of_mcr_score() -> None:
    situation = Situation.from_json({"win": "self_drawn", "seat_wind": "S"})
    result = scan_detections(shoot(lay(HAND)), situation)
    data = result.to_json()
    assert set(data) == {"tiles", "hand", "score", "doubts"}
    assert len(data["tiles"]) == 15 and set(data["tiles"][0]) == {"code", "confidence", "box", "runner_up"}
    hand = data["hand"]
    assert hand["notation"] == "1f123456789m123p5s5s" and hand["win_tile"] == "5s" and hand["flowers"] == ["1f"]
    assert [g["role"] for g in hand["groups"]] == ["flowers", "concealed", "win"]
    assert sorted(i for g in hand["groups"] for i in g["tiles"]) == list(range(15))
    expected = answer_request({"hand": hand["notation"], "win": "self_drawn", "seat_wind": "S"})
    assert data["score"] == json.loads(json.dumps(expected))
    assert all(set(d) == {"kind", "tiles", "message", "alternatives"} for d in data["doubts"])


def test_overrides_and_an_impossible_photo() -> None:
    result = scan_detections(shoot(lay(HAND)), Situation(), ScanOverrides(win_tile=tile("1m"), flowers=3))
    assert result.hand is not None and result.hand.win_tile is tile("1m") and result.hand.flower_count == 3
    short = scan_detections(shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s")), Situation())
    data = short.to_json()
    assert data["hand"] is None and data["score"] is None
    assert any(d["kind"] == "impossible" and d["alternatives"] == ["5s"] for d in data["doubts"])
    clash = scan_detections(shoot(lay(HAND)), Situation(self_drawn=True, kong_replacement=True))
    assert clash.score is None and any("situation" in d.message for d in clash.doubts)


class SmallTiles(StandIn):
    """A stand-in detector for a large photo holding a small hand: it reports the true boxes in the
    frame of whatever part of the photo it is given, and records the sizes it was given."""

    size = 640

    def __init__(self, photo: np.ndarray, truth: TileDetections) -> None:
        self.photo, self.truth = photo, truth
        self.inputs: list[tuple[int, ...]] = []
        self.sides: list[int | None] = []  # the input side each pass asked for (None: the model's own)

    def locate(self, image: np.ndarray, side: int | None = None) -> Located:
        self.sides.append(side)
        return super().locate(image, side)

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.inputs.append(image.shape[:2])
        start = image.__array_interface__["data"][0] - self.photo.__array_interface__["data"][0]
        y0, x0 = start // self.photo.strides[0], (start % self.photo.strides[0]) // self.photo.strides[1]
        shift = np.array([x0, y0, x0, y0], np.float32)
        return TileDetections(self.truth.xyxy - shift, self.truth.confidence, self.truth.class_id)


def _same_boxes(a: TileDetections, b: TileDetections) -> bool:
    order_a, order_b = np.lexsort(a.xyxy.T[::-1]), np.lexsort(b.xyxy.T[::-1])
    return len(a) == len(b) and np.allclose(a.xyxy[order_a], b.xyxy[order_b], atol=1) and \
        (a.class_id[order_a] == b.class_id[order_b]).all()


def test_small_tiles_are_read_again_zoomed_on_their_region(reads: list[Read]) -> None:
    truth = shoot(lay(HAND), 10, scale=30)  # a 4000x3000 photo with tiles about 30 px wide
    photo = np.zeros((3000, 4000, 3), np.uint8)
    detector = SmallTiles(photo, truth)
    result = scan(photo, detector, Situation())  # type: ignore[arg-type]
    assert detector.inputs[0] == (3000, 4000) and len(detector.inputs) == 2
    assert max(detector.inputs[1]) < 1000  # the hand's region, read at over 4 times the zoom
    assert len(reads) == 1  # the first pass only located the tiles: their faces were read zoomed
    assert _same_boxes(result.detections, truth)
    assert result.hand is not None and format_hand(result.hand) == "1f123456789m123p5s5s"
    big = SmallTiles(photo, shoot(lay(HAND), 10, scale=200))
    scan(photo, big, Situation())  # type: ignore[arg-type]
    assert len(big.inputs) == 1 and len(reads) == 2  # tiles read large enough the first time


def test_a_long_strip_is_read_in_overlapping_windows() -> None:
    truth = shoot(lay(LONG_HAND), 0, scale=40)  # 26 tile widths: more than one window can show
    photo = np.zeros((3000, 4000, 3), np.uint8)
    detector = SmallTiles(photo, truth)
    detector.size = 448
    result = scan(photo, detector, Situation())  # type: ignore[arg-type]
    assert len(detector.inputs) >= 3 and all(max(shape) <= 640 for shape in detector.inputs[1:])
    assert _same_boxes(result.detections, truth)  # tiles cut by a window's edge are dropped there
    assert result.hand is not None and format_hand(result.hand) == LONG_NOTATION


def test_a_free_shaped_detector_reads_the_region_in_one_larger_pass() -> None:
    """A detector whose input is free-shaped (as the shipped one) reads the strip of small tiles in one
    pass at a side past its own instead of in windows; read from its four sides, each other turn of the
    tiles' region is one pass too, the tiles' size known from the first reading."""
    truth = shoot(lay(LONG_HAND), 0, scale=40)
    photo = np.zeros((3000, 4000, 3), np.uint8)
    detector = SmallTiles(photo, truth)
    detector.size, detector.stride = 448, 32
    result = scan(photo, detector, Situation())  # type: ignore[arg-type]
    assert len(detector.inputs) == 2 and detector.sides[0] is None
    assert detector.sides[1] is not None and 448 < detector.sides[1] <= 2 * 448
    assert _same_boxes(result.detections, truth)
    assert result.hand is not None and format_hand(result.hand) == LONG_NOTATION
    turned = SmallTiles(photo, truth)
    turned.size, turned.stride = 448, 32
    scan(photo, turned, Situation(), all_sides=True)  # type: ignore[arg-type]
    assert len(turned.inputs) == 5 and all(side is not None for side in turned.sides[1:])


def test_scan_cli_reads_the_shipped_example(capsys: pytest.CaptureFixture[str]) -> None:
    """The README's main command: the shipped models read the example's exact hand (a scene picked
    among those they read, see the README), and the contract holds."""
    from vision.detector import default_model_path

    try:
        default_model_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    status = main(["scan", str(EXAMPLE), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"image", "width", "height", "tiles", "hand", "score", "doubts"}
    assert status == (0 if data["hand"] else 1) and (data["hand"] is not None or data["doubts"])
    truth = format_hand(Hand.from_json(json.loads(EXAMPLE.with_suffix(".json").read_text())["hand"]))
    read = data["hand"]["notation"] if data["hand"] else None
    assert read == truth, f"the shipped models read the example as {read} ({len(data['tiles'])} tiles)"
    assert data["score"]["is_win"]


def test_a_12_megapixel_jpeg_is_read_reduced_and_reported_in_its_own_pixels(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`mcr scan` decodes a 4000×3000 JPEG at half size (`SCAN_SIDE`): the same hand as the example it
    was enlarged from, with boxes and size in the 12-MP photo's pixels."""
    import cv2

    from models.measure.scan_speed import twelve_megapixels
    from vision.detector import default_model_path
    from vision.geometry import box_iou
    from vision.imagefile import load_photo
    from vision.scan import SCAN_SIDE

    try:
        default_model_path()
    except FileNotFoundError as exc:
        pytest.skip(str(exc))
    big = tmp_path / "big.jpg"
    cv2.imwrite(str(big), twelve_megapixels(), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert load_photo(big, SCAN_SIDE).pixels.shape == (1500, 2000, 3)
    assert main(["scan", str(big), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["width"], data["height"]) == (4000, 3000)
    truth = format_hand(Hand.from_json(json.loads(EXAMPLE.with_suffix(".json").read_text())["hand"]))
    assert data["hand"]["notation"] == truth
    assert main(["scan", str(EXAMPLE), "--json"]) == 0
    small = json.loads(capsys.readouterr().out)
    scale, pad = 3000 / 2000, (4000 - 1500 * 3000 / 2000) / 2  # the enlargement and its side borders

    def hand_boxes(scanned: dict) -> np.ndarray:  # the tiles the hand was read from (not a faint stray box)
        return np.array([scanned["tiles"][i]["box"] for g in scanned["hand"]["groups"] for i in g["tiles"]])

    expected = hand_boxes(small) * scale + [pad, 0, pad, 0]
    assert (box_iou(expected, hand_boxes(data)).max(axis=1) > 0.7).mean() > 0.9  # the same tiles, where they are


class ScaledTiles(StandIn):
    """Stands in for the detector on a plain 4000×3000 photo, decoded at any scale: the hand's tiles, in
    proportion to the image it is given (``scale`` pixels a tile in the whole photo), read at a size at
    which they never need a zoomed pass; it records the widths of the images it looked at."""

    size = 4000

    def __init__(self, scale: float) -> None:
        self.tiles, self.widths = shoot(lay(HAND), 0, scale=scale), []

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.widths.append(image.shape[1])
        return self.tiles.with_boxes(self.tiles.xyxy * (image.shape[1] / 4000))


def test_a_reduced_photo_whose_tiles_are_small_is_read_whole() -> None:
    """A 12-MP JPEG is decoded at half size, and read so when its tiles are large enough there; tiles under
    `SHARP_TILE` pixels send it to be read decoded whole. Either way the boxes are the photo's own."""
    import cv2

    from vision.imagefile import decode_photo
    from vision.scan import SCAN_SIDE, SHARP_TILE, scan_photo

    jpeg = cv2.imencode(".jpg", np.full((3000, 4000, 3), 128, np.uint8))[1].tobytes()
    for scale, whole in ((2 * SHARP_TILE - 10, True), (2 * SHARP_TILE + 10, False)):  # tiles of 38 / 58 px reduced
        detector, photo = ScaledTiles(scale), decode_photo(jpeg, SCAN_SIDE)
        assert photo.pixels.shape == (1500, 2000, 3) and photo.whole().pixels.shape == (3000, 4000, 3)
        result = scan_photo(photo, detector, Situation())  # type: ignore[arg-type]
        assert (4000 in detector.widths) is whole and detector.widths[0] == 2000, scale
        assert result.hand is not None and _same_boxes(result.detections, detector.tiles), scale


def test_scan_cli_errors_are_one_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["scan", str(tmp_path / "none.jpg")]) == 2
    assert "no such file" in capsys.readouterr().err
    (tmp_path / "junk.jpg").write_bytes(b"not a photo")
    assert main(["scan", str(tmp_path / "junk.jpg")]) == 2
    assert main(["scan", str(EXAMPLE), "--win-tile", "9z"]) == 2
    assert main(["scan", str(EXAMPLE), "--melds", "[123p,2"]) == 2
    assert "'[123p,2'" in capsys.readouterr().err.splitlines()[-1]


def test_scan_cli_takes_the_melds_given(capsys: pytest.CaptureFixture[str]) -> None:
    """The melds given replace those read (here: each chow's claimed tile its lowest) where the photo holds their
    tiles."""
    assert main(["scan", str(EXAMPLE), "--json"]) == 0
    read = json.loads(capsys.readouterr().out)["hand"]
    assert main(["scan", str(EXAMPLE), "--json", "--melds", "[123p,1][678p,1][567s,1][789p,1]"]) == 0
    given = json.loads(capsys.readouterr().out)["hand"]
    assert read["notation"] == "3f[123p,2][678p,1][567s,2][789p,3]CC"
    assert given["notation"] == "3f[123p,1][678p,1][567s,1][789p,1]CC"


def test_a_tile_found_twice_is_kept_once_with_its_runner_up() -> None:
    truth = shoot(lay(HAND))
    twin = truth[[5]]  # the 5m, also read as 6m with less confidence, nearly the same box
    doubled = TileDetections(np.vstack([truth.xyxy, twin.xyxy + 2]), np.append(truth.confidence * 0.9, 0.5),
                             np.append(truth.class_id, tile("6m").index))
    result = scan_detections(doubled, Situation())
    assert len(result.detections) == 15 and format_hand(result.hand) == "1f123456789m123p5s5s"
    (low,) = [d for d in result.doubts if d.kind == "low_confidence"]
    assert low.tiles == (5,) and low.alternatives[0] == "6m" and "runner-up 6m (0.50)" in low.message
    assert result.detections.to_json()[5]["runner_up"] == {"code": "6m", "confidence": 0.5}


def test_the_first_reading_reads_each_crop_at_scan_views_and_the_other_turns_do_not_ask_again() -> None:
    detector = FixedTiles()
    scan(np.full((3000, 4000, 3), 128, np.uint8), detector, Situation(), all_sides=True)  # its tiles inside
    assert [views for views, _ in detector.tunings] == [None, SCAN_VIEWS] and SCAN_VIEWS == 4
    # a scan merges a face's boxes less eagerly than `mcr detect` does: its layout sorts out a tile read twice
    assert detector.iou == SCAN_IOU > NMS_IOU


def test_scan_cli_prints_groups_notation_score_and_annotates(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import vision.detector

    monkeypatch.setattr(vision.detector, "Detector", FixedTiles)
    out = tmp_path / "annotated.jpg"
    assert main(["scan", str(EXAMPLE), "--self-drawn", "--annotate", str(out)]) == 0
    text = capsys.readouterr().out
    assert "hand: 1f123456789m123p5s5s" in text and "Pure Straight" in text and "flowers" in text
    import cv2

    drawn, photo = cv2.imread(str(out)), cv2.imread(str(EXAMPLE))
    assert drawn.shape == photo.shape and np.abs(drawn.astype(int) - photo).mean() > 1
    assert main(["scan", str(EXAMPLE), "--json", "--win-tile", "1m"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["image"], data["width"], data["height"]) == (str(EXAMPLE), 1500, 2000)
    assert data["hand"]["win_tile"] == "1m" and data["score"]["hand"] == data["hand"]["notation"]
    assert main(["scan", str(EXAMPLE), "--annotate", str(tmp_path / "no" / "dir.jpg")]) == 2
    assert "no such folder" in capsys.readouterr().err


class Myopic(SmallTiles):
    """Sees tiles only when they are at least 20 model pixels wide in what it is given."""

    def __call__(self, image: np.ndarray) -> TileDetections:
        seen = super().__call__(image)
        short = float(np.median(seen.xyxy[:, 2] - seen.xyxy[:, 0])) * self.size / max(image.shape[:2])
        return seen if short >= 20 else TileDetections.empty()


def test_a_large_photo_where_nothing_was_seen_is_read_in_quarters() -> None:
    truth = shoot(lay(HAND), 0, scale=100)  # 100 px tiles: 16 model pixels in the whole photo
    photo = np.zeros((3000, 4000, 3), np.uint8)
    detector = Myopic(photo, truth)
    result = scan(photo, detector, Situation())  # type: ignore[arg-type]
    assert len(detector.inputs) == 5 and all(max(shape) <= 2200 for shape in detector.inputs[1:])
    assert _same_boxes(result.detections, truth)
    assert result.hand is not None and format_hand(result.hand) == "1f123456789m123p5s5s"


@pytest.mark.parametrize(("first", "voted", "stands"), [(5.0, 3.4, True), (5.0, 3.6, False), (2.0, 5.0, False)])
def test_a_complete_first_reading_stands_against_the_vote_only_when_clearly_more_plausible(
        first: float, voted: float, stands: bool) -> None:
    def reading(hand: str | None, plausibility: float) -> LayoutReading:
        return LayoutReading(parse_hand(hand) if hand else None, (), (), TileDetections.empty(),
                             plausibility=plausibility)

    kong, pung = "[5555p,7]123456789m9p9p", "[555p,3]123456789m9p9p"
    assert _stands(reading(kong, first), reading(pung, voted)) is stands
    assert not _stands(reading(kong, first), reading(None, voted))  # an invalid vote is no rival: kept anyway
    assert not _stands(reading("123456789m5p5p5s7s9s", 9.0), reading(pung, voted))  # the first no win: the vote


@pytest.mark.parametrize(("squares", "kept"), [(FAINT_CAP + 1, False), (FAINT_CAP, True)])
def test_a_patterned_cloth_read_as_faint_tiles_by_the_hundred_is_dropped(squares: int, kept: bool) -> None:
    """Past `FAINT_CAP` faint boxes (a cloth's printed squares the detector takes for tiles at 0.1-0.3), a reading
    keeps its sure tiles alone, and the hand reads; up to it, every box stays (a faint flower, a heap's tile)."""
    hand = shoot(lay(HAND))
    corners = np.array([(60 * (k % 40), 60 * (k // 40)) for k in range(squares)], np.float32)  # above the hand
    cloth = TileDetections(np.hstack([corners, corners + 30]), np.full(squares, 0.15, np.float32),
                           np.full(squares, tile("2p").index))
    read = _one_per_tile(np.full((SIZE[1], SIZE[0], 3), 128, np.uint8), TileDetections.concat([hand, cloth]))
    assert len(read) == len(hand) + (squares if kept else 0)
    if not kept:
        assert format_hand(scan_detections(read, Situation()).hand) == "1f123456789m123p5s5s"
