"""Reading a photo from all four sides (`vision.views`): boxes found in a turned photo map back exactly,
the turns' readings vote, and `scan` reads the other sides only when its first reading is not sure."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from models.measure.layout_scenes import SIZE
from scoring import Situation, format_hand
from scoring.tiles import BACK, TILES, tile
from tests.conftest import StandIn
from tests.vision.conftest import SHORT_HAND as HAND
from tests.vision.conftest import Read, lay, shoot
from vision.detections import TileDetections
from vision.geometry import turned, unturn_boxes
from vision.layout import CLOSE, read_hand
from vision.overlaps import MIN_VOTE, vote
from vision.scan import BACK_FLOOR, SCAN_CONF, SURE_CONF, _without_faint_backs, scan, scan_detections
from vision.tilefaces import FaceMemory, read_faces
from vision.views import OTHER_TURNS, read_all_sides


def test_boxes_found_in_a_turned_photo_map_back_exactly() -> None:
    photo = np.zeros((50, 80, 3), np.uint8)
    photo[7:40, 12:31] = 1  # the box (12, 7, 31, 40)
    photo[7, 12] = (1, 2, 3)  # a corner marked: the turn is by cv2, the same pixels as numpy's turn
    for turns in range(4):
        assert np.array_equal(turned(photo, turns), np.rot90(photo, turns)), turns
        ys, xs, _ = np.nonzero(turned(photo, turns))
        found = np.array([[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]], np.float32)
        assert unturn_boxes(found, turns, 80, 50).tolist() == [[12, 7, 31, 40]], turns


def _reading(rows: list[tuple[tuple[float, ...], float, str, str | None, float]]) -> TileDetections:
    """Detections from (box, confidence, face, runner-up face or None, its confidence) rows."""
    return TileDetections.from_json([
        {"box": list(box), "confidence": c, "code": code, "runner_up": {"code": r, "confidence": rc} if r else None}
        for box, c, code, r, rc in rows])


def test_the_turns_vote_on_each_tile_and_its_face() -> None:
    a = _reading([((0, 0, 10, 14), 0.8, "5p", None, 0.0), ((40, 0, 50, 14), 0.5, "E", None, 0.0)])
    b = _reading([((1, 0, 11, 14), 0.6, "6p", "5p", 0.3), ((80, 0, 90, 14), 0.08, "C", None, 0.0)])
    voted = vote([a, b])
    order = np.argsort(voted.xyxy[:, 0])
    assert [voted.tiles[i].code for i in order] == ["5p", "E"]  # C: seen once at 0.08, under MIN_VOTE x 2
    first = order[0]
    assert voted.confidence[first] == np.float32((0.8 + 0.3) / 2)  # 5p: read by one turn, runner-up of the other
    assert voted.runner_up[first] == tile("6p").index and voted.runner_up_confidence[first] == np.float32(0.3)
    assert voted.xyxy[first].tolist() == [0.5, 0, 10.5, 14]  # the mean of the two readings' boxes
    assert voted.confidence[order[1]] == np.float32(0.5 / 2) >= MIN_VOTE
    assert len(vote([TileDetections.empty(), TileDetections.empty()])) == 0


def _painted_tiles(image: np.ndarray) -> list[tuple[tuple[int, int, int, int], int, str]]:
    """The tiles `_painted` put on a photo, as found in ``image`` (that photo, cut or turned): box, face
    index and which way the tile stands ("up", "down" or "side")."""
    count, _, stats, _ = cv2.connectedComponentsWithStats((image[:, :, 0] > 0).astype(np.uint8))
    found = []
    for k in range(1, count):
        x, y, w, h = stats[k, :4]
        part = image[y:y + h, x:x + w]
        ends = [part[: h // 4, :, 1].mean(), part[-(h // 4):, :, 1].mean()]
        way = "up" if ends[0] > 128 else "down" if ends[1] > 128 and h > w else "side"
        found.append(((x, y, x + w, y + h), int(np.median(part[:, :, 0])) - 1, way))
    return found


class ReadsUprightOnly(StandIn):
    """A stand-in detector for tiles painted on a photo (channel 0: face index + 1; channel 1: 255 on
    each tile's top half): it reads a tile surely when the tile stands upright in the image it is given,
    misreads it unsurely as upside down, and does not see it on its side. Its input size is the photo's,
    so nothing is read again zoomed."""

    size = max(SIZE)

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.calls += 1
        misread = tile("C").index
        return _reading([(box, 0.9, TILES[face].code, None, 0.0) if way == "up"
                         else (box, 0.3, TILES[misread if face != misread else 0].code, None, 0.0)
                         for box, face, way in _painted_tiles(image) if way != "side"])


def _painted(truth: TileDetections, upside_down: bool) -> np.ndarray:
    photo = np.zeros((SIZE[1], SIZE[0], 3), np.uint8)
    for (x1, y1, x2, y2), face in zip(truth.xyxy.round().astype(int), truth.class_id, strict=True):
        x1, y1, x2, y2 = x1 + 3, y1 + 3, x2 - 3, y2 - 3  # apart, so each tile is one component
        photo[y1:y2, x1:x2, 0] = face + 1
        middle = (y1 + y2) // 2
        photo[middle:y2, x1:x2, 1] = 255 if upside_down else 0
        photo[y1:middle, x1:x2, 1] = 0 if upside_down else 255
    return photo


def test_the_other_turns_read_faces_from_the_photo_itself_at_their_turn(reads: list[Read]) -> None:
    """The other turns locate tiles in the turned region of the tiles, shrunk (tiles of 94 px to
    `TILE_PIXELS`), and read them in the photo, at the photo's boxes of the tiles, each turn with the
    memory of the first reading only."""
    truth = shoot(lay(HAND), 0, scale=100)
    photo = _painted(truth, upside_down=True)
    read_all_sides(photo, ReadsUprightOnly(), memory=FaceMemory())  # type: ignore[arg-type]
    assert [turn for turn, *_ in reads] == [0, *OTHER_TURNS]
    assert all(shape == photo.shape for _, shape, _, _ in reads)  # every face read from the photo
    assert [size for *_, size in reads] == [0, len(truth), len(truth), len(truth)]  # the first's only
    painted = np.array([box for box, _, _ in _painted_tiles(photo)], np.float32)
    for turn, _, boxes, _ in reads:  # turns 1 and 3 see the tiles on their side: none
        assert len(boxes) == (len(truth) if turn % 2 == 0 else 0)
        if len(boxes):  # each box within 2 px of a painted tile's (the shrunk region's rounding)
            assert np.abs(boxes[:, None] - painted[None]).max(axis=2).min(axis=1).max() <= 2, turn


def test_a_photo_read_unsurely_is_read_from_its_other_sides() -> None:
    truth = shoot(lay(HAND), 0, scale=60)
    expected = format_hand(scan_detections(truth, Situation()).hand)
    detector = ReadsUprightOnly()
    result = scan(_painted(truth, upside_down=True), detector, Situation())  # type: ignore[arg-type]
    assert detector.calls == 4  # upright (every face misread at 0.3), then three quarter turns
    assert result.hand is not None and format_hand(result.hand) == expected
    assert sorted(t.code for t in result.detections.tiles) == sorted(t.code for t in truth.tiles)
    sure = ReadsUprightOnly()
    upright = scan(_painted(truth, upside_down=False), sure, Situation())  # type: ignore[arg-type]
    assert sure.calls == 1 and upright.hand == result.hand  # a sure first reading is the only one


class ReadsAsPainted(StandIn):
    """A stand-in detector for painted tiles that reads every tile's face rightly at ``confidence`` (the last
    one found at ``last``, when given), the first one found with a red dragon as its runner-up, at
    ``runner_up`` times that."""

    size = max(SIZE)

    def __init__(self, confidence: float, runner_up: float = 0.0, last: float | None = None) -> None:
        self.confidence, self.runner_up, self.last, self.calls = confidence, runner_up, last, 0

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.calls += 1
        tiles = _painted_tiles(image)
        confidence = [self.confidence] * len(tiles)
        if self.last is not None and tiles:
            confidence[-1] = self.last
        return _reading([(box, c, TILES[face].code, "C" if k == 0 and self.runner_up else None,
                          self.runner_up * self.confidence)
                         for k, ((box, face, _), c) in enumerate(zip(tiles, confidence, strict=True))])


CLAIMED = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1p | 1p | 5p~ 5p 5p"


@pytest.mark.parametrize(("spec", "confidence", "runner_up", "sure"), [
    (HAND, SURE_CONF + 0.05, 0.0, True),  # under the layout's LOW_CONFIDENCE (a doubt), yet sure
    (HAND, SURE_CONF - 0.05, 0.0, False),
    (HAND, 0.9, CLOSE - 0.05, True),
    (HAND, 0.9, CLOSE + 0.05, False),  # a close runner-up face
    (CLAIMED, 0.9, 0.0, True),
    (CLAIMED.replace("~", ""), 0.9, 0.0, False),  # no tile of the meld sideways: its discarder guessed
])
def test_a_first_reading_is_sure_when_every_tile_of_its_hand_is(spec: str, confidence: float, runner_up: float,
                                                                  sure: bool) -> None:
    truth = shoot(lay(spec), 0, scale=60)
    detector = ReadsAsPainted(confidence, runner_up)
    result = scan(_painted(truth, upside_down=False), detector, Situation())  # type: ignore[arg-type]
    assert (detector.calls == 1) == sure  # an unsure one: the other sides read, until their vote is sure
    assert result.hand is not None and result.hand == scan_detections(truth, Situation()).hand


def test_a_first_reading_that_leaves_a_box_out_as_a_stray_is_not_sure() -> None:
    """One tile too many, the last one found read faintly: the layout leaves it out (a box where there is no
    tile) to make the hand, which the other sides must confirm, though every tile of the hand is sure and
    the reading lists the same faces in the same order."""
    photo = _painted(shoot(lay(HAND + " 7s"), 0, scale=60), upside_down=False)
    read = ReadsAsPainted(0.9, last=0.2)(photo)
    first = read_hand(read)
    assert first.hand is not None and any("one tile too many" in d.message for d in first.doubts) and first.guessed
    assert np.array_equal(first.detections.class_id, read.class_id)  # listed last, as it was found: the same faces
    detector = ReadsAsPainted(0.9, last=0.2)
    scan(photo, detector, Situation())  # type: ignore[arg-type]
    assert detector.calls == 4


class FaintAtFirst(ReadsAsPainted):
    """`ReadsAsPainted` at 0.9 that reads the first tile of the photo as given faintly (under `SURE_CONF`)."""

    def __init__(self) -> None:
        super().__init__(0.9)

    def __call__(self, image: np.ndarray) -> TileDetections:
        reading = super().__call__(image)
        confidence = reading.confidence.copy()
        if self.calls == 1:
            confidence[0] = SURE_CONF - 0.1
        return TileDetections(reading.xyxy, confidence, reading.class_id, reading.runner_up,
                              reading.runner_up_confidence)


@pytest.mark.parametrize(("all_sides", "calls"), [(False, 2), (True, 4)])
def test_the_other_sides_are_read_until_their_vote_is_sure(all_sides: bool, calls: int) -> None:
    """The first other turn reads the faint tile surely: the vote of the two is sure, so the photo's last two
    sides are not read, unless every side was asked for."""
    truth = shoot(lay(HAND), 0, scale=60)
    detector = FaintAtFirst()
    photo = _painted(truth, upside_down=False)
    result = scan(photo, detector, Situation(), all_sides=all_sides)  # type: ignore[arg-type]
    assert detector.calls == calls
    assert result.hand is not None and result.hand == scan_detections(truth, Situation()).hand


class UnsureThenLost(StandIn):
    """A stand-in detector for painted tiles that reads the photo as given rightly, one tile unsurely
    (under `SURE_CONF`), and every tile of a turned photo surely as a red dragon: the vote makes no hand."""

    size = max(SIZE)

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, image: np.ndarray) -> TileDetections:
        self.calls += 1
        tiles = _painted_tiles(image)
        if self.calls == 1:
            return _reading([(box, SURE_CONF - 0.1 if k == 0 else 0.9, TILES[face].code, None, 0.0)
                             for k, (box, face, _) in enumerate(tiles)])
        return _reading([(box, 0.9, "C", None, 0.0) for box, _, _ in tiles])


def test_a_valid_first_reading_beats_a_vote_that_makes_no_hand() -> None:
    truth = shoot(lay(HAND), 0, scale=60)
    detector = UnsureThenLost()
    result = scan(_painted(truth, upside_down=False), detector, Situation())  # type: ignore[arg-type]
    assert detector.calls == 4  # not sure (a tile under SURE_CONF), so the other sides were read
    assert result.hand is not None and format_hand(result.hand) == format_hand(scan_detections(truth, Situation()).hand)
    assert "C" not in {t.code for t in result.detections.tiles}  # the first reading's faces


class FaintBacksWhenTurned(ReadsUprightOnly):
    """`ReadsUprightOnly`, and turned, also a face-down tile (0.3) just beside every tile it sees on its
    side: the sides of tiles, as one turn of a photo can take them."""

    def __call__(self, image: np.ndarray) -> TileDetections:
        read = super().__call__(image)
        if self.calls == 1:
            return read
        beside = [(box, 0.3, "back", None, 0.0) for box in
                  [(x1, y2, x2, y2 + (x2 - x1)) for (x1, y1, x2, y2), _, way in _painted_tiles(image) if way == "side"]]
        return TileDetections.concat([read, _reading(beside)])


def test_faint_face_down_tiles_of_the_vote_are_dropped() -> None:
    truth = shoot(lay(HAND), 0, scale=60)
    result = scan(_painted(truth, upside_down=True), FaintBacksWhenTurned(), Situation())  # type: ignore[arg-type]
    assert "back" not in {t.code for t in result.detections.tiles}  # 0.3 in one turn of four: 0.075, under BACK_FLOOR
    assert result.hand is not None and format_hand(result.hand) == format_hand(scan_detections(truth, Situation()).hand)


class FaintFlowers(StandIn):
    """A stand-in detector for painted tiles, held to the usual 0.25, that reads every tile surely at any
    turn but its flowers (a set whose flower art it never saw) at 0.15."""

    size = max(SIZE)
    conf = 0.25

    def __call__(self, image: np.ndarray) -> TileDetections:
        return _reading([(box, 0.15 if TILES[face].code.endswith("f") else 0.9, TILES[face].code, None, 0.0)
                         for box, face, _ in _painted_tiles(image)])


def test_scan_reads_tiles_fainter_than_the_detectors_threshold() -> None:
    truth = shoot(lay(HAND), 0, scale=60)
    photo = _painted(truth, upside_down=False)
    detector = FaintFlowers()
    located = detector.locator(photo)  # as `mcr detect` reads the photo, stage by stage: held to 0.25
    alone = read_faces(detector.readers, photo, located, detector.conf, detector.iou)
    assert "1f" not in [t.code for t in alone.tiles] and len(alone) == len(truth) - 1
    result = scan(photo, detector, Situation())  # type: ignore[arg-type]
    assert detector.conf == SCAN_CONF and result.hand is not None
    assert format_hand(result.hand) == format_hand(scan_detections(truth, Situation()).hand)
    assert [t.code for t in result.hand.flowers] == ["1f"]
    fainter = FaintFlowers()
    fainter.conf = 0.05
    scan(photo, fainter, Situation())  # type: ignore[arg-type]
    assert fainter.conf == 0.05  # a detector already held to less keeps its own threshold


@pytest.mark.parametrize("kong", ["6p back back 6p", "back 6p 6p back"])
def test_faint_face_down_tiles_of_a_concealed_kong_stay(kong: str) -> None:
    """Against a table of their colour a kong's face-down tiles are found by one turn alone: faint in the vote,
    they stay where they make a concealed kong with its two face-up tiles; a faint one ending a meld goes."""
    found = shoot(lay(f"1m 2m 3m 4m 5m 6m 9p | 9p | {kong} | 5s 5s 5s back"), 0, scale=60)
    backs = found.class_id == BACK.index
    faint = TileDetections(found.xyxy, np.where(backs, BACK_FLOOR / 2, 0.9).astype(np.float32), found.class_id)
    kept = _without_faint_backs(faint)
    assert int((kept.class_id == BACK.index).sum()) == 2
    reading = read_hand(kept)
    assert reading.hand is not None and format_hand(reading.hand) == "[6666p][555s,1]123456m9p9p"
