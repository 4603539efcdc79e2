"""One reading per tile (`vision.overlaps`): boxes of one tile merge, by overlap or, in a row, by their
distance against the row's pitch; neighbours never do, even where their upright boxes overlap (45°)."""

from __future__ import annotations

import numpy as np
import pytest

from scoring import format_hand
from scoring.tiles import tile
from tests.vision.conftest import HAND, NOTATION, lay, shoot
from vision.detections import TileDetections
from vision.layout import read_hand
from vision.overlaps import merge_overlaps, merge_row_doubles


def _doubled(found: TileDetections, index: int, shift: float, code: str, confidence: float) -> TileDetections:
    """``found`` plus a second box of tile ``index``, read as ``code``, moved ``shift`` of the way to the
    next tile's box."""
    box = found.xyxy[index]
    step = np.tile((found.xyxy[index + 1, :2] + found.xyxy[index + 1, 2:]) / 2 - (box[:2] + box[2:]) / 2, 2)
    extra = TileDetections(box[None] + shift * step, np.array([confidence]), np.array([tile(code).index]))
    return TileDetections.concat([found, extra])


def test_two_boxes_of_one_tile_become_one_with_the_other_face_as_runner_up() -> None:
    found = shoot(lay("1m 2m 3m 4m 5m"))
    doubled = merge_overlaps(_doubled(found, 2, 0.05, "8m", 0.4))  # boxes overlapping by 0.9
    assert [t.code for t in doubled.tiles] == ["1m", "2m", "3m", "4m", "5m"]
    assert doubled.runner_up[2] == tile("8m").index and doubled.runner_up_confidence[2] == np.float32(0.4)


@pytest.mark.parametrize("angle", [0, 45, 135, 200])
def test_a_row_double_half_a_tile_off_is_merged_and_the_hand_read(angle: float) -> None:
    found = shoot(lay(HAND), angle)
    concealed = 3  # the 2m of the hand's concealed part
    doubled = _doubled(found, concealed, 0.3, "3m", 0.3)  # a second box of it, 0.3 of the way to the 3m
    merged = merge_row_doubles(doubled)
    assert len(merged) == len(found) and merged.tiles[concealed].code == "2m"
    assert merged.runner_up[concealed] == tile("3m").index
    reading = read_hand(merged)
    assert reading.hand is not None and format_hand(reading.hand) == NOTATION


@pytest.mark.parametrize("angle", [0, 45, 90, 315])
def test_neighbours_and_stacked_tiles_are_never_merged(angle: float) -> None:
    found = shoot(lay("1m 2m 3m 4m~ 4m 4m | 5s 6s 7s"), angle)
    assert len(merge_row_doubles(found)) == len(found)


def test_only_rows_long_enough_to_know_their_pitch_are_merged_by_it() -> None:
    few = _doubled(shoot(lay("1m 2m")), 0, 0.3, "1m", 0.3)
    many = _doubled(shoot(lay("1m 2m 3m 4m")), 0, 0.3, "1m", 0.3)
    assert len(merge_overlaps(few)) == len(merge_overlaps(many)) - 2 == 3  # boxes overlapping by 0.54 only
    assert len(merge_row_doubles(few)) == 3 and len(merge_row_doubles(many)) == 4


@pytest.mark.parametrize("angle", [0, 45, 160])
def test_a_stray_box_squeezed_between_two_tiles_is_dropped(angle: float) -> None:
    found = shoot(lay("1m 2m 3m 4m 5m 6m"), angle)
    stray = _doubled(found, 2, 0.5, "9m", 0.1)  # half of the 3m and half of the 4m
    merged = merge_row_doubles(stray)
    assert [t.code for t in merged.tiles] == ["1m", "2m", "3m", "4m", "5m", "6m"]
    assert tile("9m").index in merged.runner_up[[2, 3]]  # the stray's face: a runner-up of the nearer tile


@pytest.mark.parametrize(("confidence", "merged"), [(0.2, True), (0.6, False)])
def test_a_faint_box_half_a_pitch_from_a_tile_is_its_double(confidence: float, merged: bool) -> None:
    found = shoot(lay("1m 2m 3m 4m 5m 6m"))
    doubled = _doubled(found, 4, 1.45, "7m", confidence)  # 0.45 of a pitch past the 6m, the row's end
    assert len(merge_row_doubles(doubled)) == (6 if merged else 7)
