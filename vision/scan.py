"""Photo → scored hand in one call: the contract shared by `mcr scan`, ``POST /v1/scan`` and the web page.

`scan` detects the tiles (with a second, zoomed pass over the tiles' region when they are small in the
photo), reads the hand from their layout (`vision.layout`), applies the user's overrides and scores it.
When that first reading is not sure (no valid hand, a tile of it read faintly or with a close runner-up
face, a tile swapped for its runner-up, a meld's discarder guessed: `_sure`), the photo is read again from
its other sides, one after another, and the readings so far vote (`vision.views`) until their vote is sure or
all four have voted. A photo that cannot give a valid hand is
not an error: the result has ``hand`` and ``score`` None and doubts saying which tiles to check.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from scoring import Hand, HandError, ScoreResult, Situation, format_hand, is_complete, score
from scoring.tiles import BACK
from vision.blanks import settle_blanks
from vision.detections import TileDetections
from vision.detector import Detector
from vision.facedown import likeliest_faces
from vision.geometry import tile_size
from vision.imagefile import Photo
from vision.layout import (CLOSE, FACE_DOWN, WIN_NOT_APART, Doubt, LayoutReading, Overrides, TileGroup, face_down_doubt,
                           read_hand)
from vision.melds import in_concealed_kongs
from vision.overlaps import merge_row_doubles, vote
from vision.readings import STRAY
from vision.rows import find_rows
from vision.tilefaces import FaceMemory
from vision.views import read_turned, turns_read
from vision.winningtile import win_doubt

ScanOverrides = Overrides  # the contract's name: the winning tile, the melds, the flower count
BACK_FLOOR = 0.3  # the vote's score under which a face-down tile is dropped (other tiles: `overlaps.MIN_VOTE`)
SCAN_VIEWS = 4  # quarter turns at which the readers read each crop of the first reading (`Detector.views`): a
# tile photographed from another side is read as the readers learnt it in one of them; the other turns of an
# unsure photo take those readings for the tiles they find again (`FaceMemory`) and read only a tile they alone
# find, as they see it, which spares a second reading of every crop. `mcr label` reads one view, for speed.
SCAN_CONF = 0.1  # the tile threshold a scan reads at (lower when the detector's is): a flower of a set the models
# never saw, at the end of the hand's row, often scores 0.1-0.25, and the layout weighs faint tiles itself (stray
# boxes, doubts), so a faint box costs less here than a tile missed.
SCAN_IOU = 0.6  # boxes of one face overlapping more are one tile, in a scan: looser than `vision.detector.NMS_IOU`
# (0.5), for the layout sorts out a tile read twice itself (`vision.overlaps`), and two neighbours of one face in
# a photo turned near 45° overlap by up to half their boxes.
VOTE_MARGIN = 1.5  # plausibility by which a complete first reading beats a complete vote of the turns (`_stands`):
# more than a meld's quality (a meld's turned tile shown, +1, against none, -1, is 2), so that what keeps the first
# reading is a clearly likelier shape; a vote that is a valid hand but no win still replaces a complete first one
SURE_CONF = 0.3  # the confidence every tile of a first reading's hand has, at least, for it to be sure (`_sure`):
# the detector scores real photos' tiles lower than rendered ones (0.3-0.6 where their faces are read right), so
# asking 0.5 (`vision.layout.LOW_CONFIDENCE`) would read most right first readings again from four sides.
FAINT_CAP = 60  # faint boxes (under `vision.readings.STRAY`) a reading keeps at most: twice the most any photo of the
# development sets gives (30 in the 195 training hand photos' first readings, 25 in 2,000 composed scenes' readings);
# more is a patterned table or cloth read as tiles (533 boxes in a rendered scene on a grid-printed sheet). A pass
# locating hundreds of faint candidates drops them before their crops are read (`vision.locate.PATTERN`)
SCAN_SIDE = 2000  # long side (pixels) a photo is read at, at least: a 12-MP JPEG is decoded at half size,
# 3x faster than whole, its tiles (a hand across the photo) still larger than the zoomed pass and the readers need
SHARP_TILE = 48.0  # short side (pixels) of the tiles of a photo decoded reduced under which it is read whole: the
# face reader's crops need about that many pixels a tile, and the detector's first look at 640 px cannot tell the
# tiles' size (it sizes 30-50 px tiles anywhere from 35 to 230 px), so the zoomed first reading decides.


@dataclass(frozen=True)
class ScanResult:
    """What a photo shows: the tiles, the hand read from them (None when no valid reading exists),
    their groups, the score (None without a hand), the doubts, and the situation it was scored in."""

    detections: TileDetections
    hand: Hand | None
    groups: tuple[TileGroup, ...]
    score: ScoreResult | None
    doubts: tuple[Doubt, ...]
    situation: Situation = Situation()

    def to_json(self) -> dict[str, Any]:
        """The scan contract's JSON (see the README, "Scanning a photo"); ``score`` is exactly what
        `mcr score --json` prints for the hand."""
        hand = score = None
        if self.hand is not None:
            notation = format_hand(self.hand)
            hand = {"notation": notation, **self.hand.to_json(), "groups": [g.to_json() for g in self.groups]}
            if self.score is not None:
                score = {"ok": True, "hand": notation, "situation": self.situation.to_json(), **self.score.to_json()}
        return {"tiles": self.detections.to_json(), "hand": hand, "score": score,
                "doubts": [d.to_json() for d in self.doubts]}


def scan(image: np.ndarray, detector: Detector, situation: Situation,
         overrides: ScanOverrides | None = None, all_sides: bool = False) -> ScanResult:
    """Read and score the hand in a BGR photo, its tiles held to `SCAN_CONF`; ``all_sides``: from its four
    sides even when the first reading is sure."""
    faint = _faint(detector)
    first, memory = _first_reading(image, faint)
    return _scan(image, faint, situation, overrides, all_sides, first, memory)


def scan_photo(photo: Photo, detector: Detector, situation: Situation,
               overrides: ScanOverrides | None = None, all_sides: bool = False) -> ScanResult:
    """`scan` of a decoded photo (maybe reduced, see `SCAN_SIDE`), its boxes in the photo's own pixels. A
    photo decoded reduced whose first reading finds tiles smaller than `SHARP_TILE` is read decoded whole."""
    faint = _faint(detector)
    first, memory = _first_reading(photo.pixels, faint)
    if photo.source is not None and len(first) and tile_size(first.xyxy) < SHARP_TILE:
        photo = photo.whole()
        first, memory = _first_reading(photo.pixels, faint)
    result = _scan(photo.pixels, faint, situation, overrides, all_sides, first, memory)
    return replace(result, detections=photo.to_original(result.detections))


def _faint(detector: Detector) -> Detector:
    """The detector as a scan reads with it: tiles held to `SCAN_CONF` (or its own threshold, when lower), boxes
    of one face merged at `SCAN_IOU` whatever the detector's own, and left as drawn: the box refiner
    (`vision.boxes`) draws boxes closer to the labels' outlines, which the layout does not need, for a third more
    time a photo."""
    return detector.tuned(conf=min(detector.conf, SCAN_CONF), iou=SCAN_IOU, refine=False)


def _first_reading(image: np.ndarray, faint: Detector) -> tuple[TileDetections, FaceMemory]:
    """The photo as given, read at `SCAN_VIEWS`, and the faces read (for the other turns to take)."""
    memory = FaceMemory()
    read = read_turned(image, faint.tuned(views=SCAN_VIEWS), 0, memory=memory)
    return _one_per_tile(image, read), memory


def _one_per_tile(image: np.ndarray, detections: TileDetections) -> TileDetections:
    """The merge stage as a scan ends it: doubles along a row kept once (`vision.overlaps`), then white dragons
    and face-down tiles told apart by colour (`vision.blanks`), and a patterned table's faint boxes dropped
    (`FAINT_CAP`)."""
    merged = merge_row_doubles(detections)
    return _without_pattern(settle_blanks(image, merged))


def _without_pattern(detections: TileDetections) -> TileDetections:
    """The detections without their faint boxes (under `vision.readings.STRAY`) where there are more than
    `FAINT_CAP` of them: the detector reading a patterned cloth's squares as tiles by the hundred, whose rows the
    layout would weigh one against another for minutes."""
    faint = detections.confidence < STRAY
    return detections[~faint] if int(faint.sum()) > FAINT_CAP else detections


def _scan(image: np.ndarray, faint: Detector, situation: Situation, overrides: ScanOverrides | None,
          all_sides: bool, first: TileDetections, memory: FaceMemory) -> ScanResult:
    """`scan` after its first reading: the other sides read when it is not sure, until the vote of the sides
    read so far is (an unsure first reading is often settled by one or two more turns), the hand scored."""
    reading = read_hand(first, overrides)
    if all_sides or not _sure(reading):
        for readings in turns_read(image, faint, first, memory=memory):
            merged = _one_per_tile(image, vote(readings))
            voted = read_hand(_without_faint_backs(merged), overrides)
            if not all_sides and _sure(voted):  # the turns read so far settle it
                break
        # a valid first reading beats an invalid vote, and a complete one clearly more plausible a complete vote
        if (voted.hand is not None or reading.hand is None) and not _stands(reading, voted):
            reading = voted
    return _scored(reading, situation)


def _stands(first: LayoutReading, voted: LayoutReading) -> bool:
    """Whether a first reading stands against the vote of the other turns, both complete winning hands: when it is
    clearly the more plausible (`VOTE_MARGIN`). The turns vote on faces, but their boxes are merged too, and a box
    the first reading cut in two (an added kong's stacked pair, `vision.stacks`) or read as its own tile may be
    merged into one the layout reads another way."""
    return (first.hand is not None and voted.hand is not None and is_complete(first.hand)
            and is_complete(voted.hand) and first.plausibility > voted.plausibility + VOTE_MARGIN)


def scan_detections(detections: TileDetections, situation: Situation,
                    overrides: ScanOverrides | None = None) -> ScanResult:
    """The part of `scan` after detection: one reading per tile, layout, overrides, checks and score."""
    return _scored(read_hand(merge_row_doubles(detections), overrides), situation)


def _without_faint_backs(detections: TileDetections) -> TileDetections:
    """The vote's tiles without face-down ones it scored under ``BACK_FLOOR``: a tile's side, the rack,
    the edge of the wall or a patch of felt beside a meld reads as a face-down tile to a turn of the
    photo easily, and such a box beside the hand's row breaks its reading. A face-down tile the photo
    shows is seen by most turns: 0.3 (a mean over the four) takes two turns at 0.6 or three at 0.4. A faint one
    that makes a concealed kong with two face-up tiles (`vision.melds.in_concealed_kongs`) stays: the turns that
    miss a kong's face-down tiles against a table of their colour leave a face-up pair that no meld can be."""
    faint = (detections.class_id == BACK.index) & (detections.confidence < BACK_FLOOR)
    if faint.any():
        faint[list(in_concealed_kongs(detections, find_rows(detections)))] = False
    return detections[~faint]


def _sure(reading: LayoutReading) -> bool:
    """Whether a reading needs no second look: a valid hand that leans on no guess another look may settle
    (`LayoutReading.guessed`: a runner-up face, a stray box, a meld's discarder), every tile of it read at
    `SURE_CONF` or more with no close runner-up face (`vision.layout.CLOSE`). A doubt on a tile outside the
    hand, a stray on the table, does not matter."""
    in_hand = sorted({i for group in reading.groups for i in group.tiles})
    confidence = reading.detections.confidence[in_hand]
    runner_up = reading.detections.runner_up_confidence[in_hand]
    return (reading.hand is not None and not reading.guessed and bool(np.all(confidence >= SURE_CONF))
            and not bool(np.any(runner_up >= CLOSE * confidence)))


def _scored(reading: LayoutReading, situation: Situation) -> ScanResult:
    """The reading scored in the situation (a situation that contradicts the hand is a doubt, not an error)."""
    result = None
    doubts, hand = reading.doubts, reading.hand
    if hand is not None and reading.face_down:
        hand, alike = likeliest_faces(hand, tuple(k for k, _ in reading.face_down), situation)
        settled = {tiles: face_down_doubt(tiles, hand.melds[k].first, alike[k]) for k, tiles in reading.face_down
                   if k in alike}
        doubts = tuple(settled.get(d.tiles, d) if d.message.startswith(FACE_DOWN) else d for d in doubts)
    if hand is not None:
        try:
            result = score(hand, situation)
        except HandError as exc:  # the situation contradicts the hand read
            doubts = (*doubts, Doubt("impossible", (), f"the situation does not fit the hand read: {exc}"))
        else:
            doubts = tuple(win_doubt(d, hand, result, situation) if d.message.startswith(WIN_NOT_APART) else d
                           for d in doubts)
    return ScanResult(reading.detections, hand, reading.groups, result, doubts, situation)
