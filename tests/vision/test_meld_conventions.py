"""Each way a player lays a hand with melds down (issue #41) read from true boxes: a chow's claimed tile at
its left end, melds left of the standing tiles or far apart on one line, an added kong stacked or side by
side, concealed kongs face down in their forms, flowers in a row of their own, a sliver of a tile at the
row's end. End to end on composed real crops: ``uv run python -m models.measure.melds``."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from datasets.layouts import Placed
from models.measure.layout_scenes import judge, layout_scene
from scoring import MeldKind, format_hand, parse_melds
from scoring.tiles import tile
from tests.vision.conftest import ASPECT, chow_apart, lay, shoot
from vision.detections import TileDetections
from vision.layout import FLOWERS_UNSURE, MELDS_PAST_GAP, Overrides, _beside_the_hand, read_hand
from vision.mending import best_reading
from vision.readings import Reader
from vision.rows import find_rows
from vision.stacks import split_pairs

STANDING = "1m 2m 3m 4m 5m 6m 7m 8m 9m 9p | 9p"


def _read(tiles: list[Placed], angle: float = 0.0) -> str | None:
    reading = read_hand(shoot(tiles, angle))
    return format_hand(reading.hand) if reading.hand is not None else None


@pytest.mark.parametrize("angle", [0, 90, 200])
def test_a_chows_claimed_tile_turned_at_its_left_end(angle: float) -> None:
    reading = read_hand(shoot(lay(f"{STANDING} | 5s~ 3s 4s"), angle))
    assert reading.hand is not None and [m.kind for m in reading.hand.melds] == [MeldKind.CHOW]
    meld = reading.hand.melds[0]
    assert [t.code for t in meld.tiles] == ["3s", "4s", "5s"] and meld.claimed == 2


def test_melds_left_of_the_standing_tiles_set_apart() -> None:
    assert _read(lay(f"5s~ 3s 4s | {STANDING}")) == _read(lay(f"{STANDING} | 3s 4s 5s~"))


def test_melds_far_apart_on_one_line_are_still_the_hands() -> None:
    tiles = lay(f"{STANDING} | 5p~ 5p 5p")
    far = [replace(p, x=p.x + 4.0) if p.code == "5p" else p for p in tiles]  # four tile widths further
    assert _read(tiles) == _read(far) == "[555p,1]123456789m9p9p"


@pytest.mark.parametrize("angle", [0, 90])
def test_an_added_kong_stacked_on_its_turned_tile(angle: float) -> None:
    tiles = lay(f"{STANDING} | 5p~ 5p 5p")
    turned = next(p for p in tiles if p.sideways)
    stacked = replace(turned, y=turned.y - 0.62)  # on top, shifted toward the far side: partly over it
    reading = read_hand(shoot([*tiles, stacked], angle))
    assert reading.hand is not None
    (kong,) = reading.hand.melds
    assert kong.kind is MeldKind.KONG and kong.added and not kong.concealed


def _one_box(found: TileDetections, first: int, second: int) -> TileDetections:
    """The detections with two boxes drawn as one around both, as a detector sees a stacked pair."""
    xyxy = found.xyxy.copy()
    xyxy[first] = np.concatenate([np.minimum(xyxy[first, :2], xyxy[second, :2]), np.maximum(xyxy[first, 2:], xyxy[second, 2:])])
    keep = np.arange(len(found)) != second
    return found.with_boxes(xyxy)[keep]


@pytest.mark.parametrize("angle", [0, 40, 45, 90, 135, 200])
def test_an_added_kong_stacked_and_boxed_as_one_tile_is_read_as_two(angle: float) -> None:
    """At any angle: near 45° (40-50°) a box tells no tile's length from its depth, and the pair is told by its
    extent across the row (`vision.stacks._pairs_near_diagonal`)."""
    tiles = lay(f"{STANDING} | 5p~ 5p 5p")
    turned = next(k for k, p in enumerate(tiles) if p.sideways)
    found = _one_box(shoot([*tiles, replace(tiles[turned], y=tiles[turned].y - 0.62)], angle), turned, len(tiles))
    reading = read_hand(found)
    assert reading.hand is not None and format_hand(reading.hand) == "[5555p,5]123456789m9p9p"
    assert len(reading.detections) == len(tiles) + 1  # the box cut in two
    assert any("stacked" in d.message for d in reading.doubts)


def _stacked_pair(spec: str) -> tuple[TileDetections, int]:
    """The tiles of ``spec`` with the added tile stacked on the turned one and the two boxed as one, and the
    pair's index."""
    tiles = lay(spec)
    turned = next(k for k, p in enumerate(tiles) if p.sideways)
    return _one_box(shoot([*tiles, replace(tiles[turned], y=tiles[turned].y - 0.62)]), turned, len(tiles)), turned


def test_a_stacked_pairs_box_with_a_second_box_on_its_turned_tile_is_two_tiles_not_three() -> None:
    """The detector often draws a box on one tile of the pair besides the pair's own: one tile with it."""
    found, turned = _stacked_pair(f"{STANDING} | 5p~ 5p 5p")
    x0, y0, x1, y1 = found.xyxy[turned]
    on_turned = found[[turned]].with_boxes(np.array([[x0, y0 + 0.4 * (y1 - y0), x1, y1]], np.float32))
    reading = read_hand(TileDetections.concat([found, replace(on_turned, confidence=np.array([0.4], np.float32))]))
    assert reading.hand is not None and format_hand(reading.hand) == "[5555p,5]123456789m9p9p"
    assert sorted(i for g in reading.groups for i in g.tiles) == list(range(15))  # the second box left out


@pytest.mark.parametrize("turned_at", ["2p~ 2p 2p", "2p 2p~ 2p"])
def test_a_stacked_pair_read_as_another_face_takes_its_kongs(turned_at: str) -> None:
    """Two tiles of two dots, one over the other, show four: the box read as 4p is the kong's 2p twice."""
    found, pair = _stacked_pair(f"{STANDING} | {turned_at}")
    class_id = found.class_id.copy()
    class_id[pair] = tile("4p").index
    reading = read_hand(replace(found, class_id=class_id))
    assert reading.hand is not None and format_hand(reading.hand).startswith("[2222p,")
    assert any("stacked" in d.message for d in reading.doubts)
    assert any("runner-up 4p" in d.message for d in reading.doubts)  # the box's own reading stays in view


def test_a_stacked_pair_beside_a_pair_of_another_face_keeps_its_own() -> None:
    """Its kong's tiles on one side agree with the box: the pair of 2p on its other side lends it no face."""
    found, _ = _stacked_pair("1m 2m 3m 4m 5m 6m 7m 8m 9m 2p | 2p | 4p~ 4p 4p")
    reading = read_hand(found)
    assert reading.hand is not None and format_hand(reading.hand).startswith("[4444p,")
    assert not any("runner-up 2p" in d.message for d in reading.doubts)


def test_the_halves_of_a_box_cut_as_a_stacked_pair_are_an_added_kong_though_neither_looks_turned() -> None:
    """The cut says which half is the turned tile: its box, cut from a loosely drawn pair's, need not look sideways."""
    found = shoot(lay(f"{STANDING} | 5p 5p 5p"))  # three upright boxes: no tile shows the claim
    turned = len(found) - 1
    x0, y0, x1, y1 = found.xyxy[turned]
    added = found[[turned]].with_boxes(np.array([[x0, y0 - 0.62 * (y1 - y0), x1, y1 - 0.62 * (y1 - y0)]], np.float32))
    both = TileDetections.concat([found, added])
    kong = Reader(both, stacked={turned: len(found)}).best().hand
    assert kong is not None and format_hand(kong) == "[5555p,7]123456789m9p9p"
    assert format_hand(Reader(both).best().hand) != format_hand(kong)  # without the cut's word: no added kong


def test_a_stacked_pair_in_a_photo_taken_at_a_slant_is_two_tiles() -> None:
    """Taken at a slant, a photo shortens the tiles across their row: the turned tile's depth is told by the
    upright tiles' depth, not by its length alone."""
    found, _ = _stacked_pair(f"{STANDING} | 5p~ 5p 5p")
    middle = float(np.median(found.xyxy[:, [1, 3]]))
    xyxy = found.xyxy.copy()
    xyxy[:, [1, 3]] = middle + 0.7 * (xyxy[:, [1, 3]] - middle)
    reading = read_hand(found.with_boxes(xyxy))
    assert reading.hand is not None and format_hand(reading.hand) == "[5555p,5]123456789m9p9p"


def test_a_stacked_pair_boxed_short_of_a_turned_tiles_length_is_two_tiles() -> None:
    """The detector boxes a pair loosely: some 1.1 tile widths along the row where the turned tile is 1.33."""
    found, pair = _stacked_pair(f"{STANDING} | 5p~ 5p 5p")
    xyxy = found.xyxy.copy()
    x0, _, x1, _ = xyxy[pair]
    middle, width = (x0 + x1) / 2, float(np.median(found.xyxy[:, 2] - found.xyxy[:, 0]))
    xyxy[pair, [0, 2]] = middle - 0.56 * width, middle + 0.56 * width
    reading = read_hand(found.with_boxes(xyxy))
    assert reading.hand is not None and format_hand(reading.hand) == "[5555p,5]123456789m9p9p"


def test_a_stacked_pair_is_read_beside_a_standing_tile_boxed_as_large() -> None:
    """A standing tile's box as large as a pair's (a loose box) is offered for a cut too: cut alone, the pair reads."""
    found, _ = _stacked_pair(f"{STANDING} | 5p~ 5p 5p")
    first = int(np.argmin(found.xyxy[:, 0]))
    xyxy = found.xyxy.copy()
    x0, y0, x1, y1 = xyxy[first]
    xyxy[first] = [x0 - 0.35 * (x1 - x0), y0 - 0.3 * (y1 - y0), x1, y1]
    reading = read_hand(found.with_boxes(xyxy))
    assert reading.hand is not None and format_hand(reading.hand) == "[5555p,5]123456789m9p9p"


def test_a_pung_nearest_the_camera_is_not_cut_as_a_stacked_pair() -> None:
    """Photographed at a slant, a row grows towards the camera: the pung at its near end is boxed 1.2 times the
    row's median size, as large as a stacked pair is against it, but no larger than the tiles beside it, so no box
    is cut and the pung is not read as an added kong (`vision.stacks._beside_size`)."""
    found = shoot(lay(f"{STANDING} | 5p 5p 5p"))
    x = found.xyxy.astype(np.float64)
    slant = 2e-4  # per pixel along the row: the right end 1.2 times the median's size
    corners = np.stack([x[:, [0, 1]], x[:, [2, 1]], x[:, [0, 3]], x[:, [2, 3]]], axis=1)
    seen = corners / (1 + slant * (x[:, 2].max() - corners[..., :1]))  # a homography that leaves y to scale alike
    slanted = found.with_boxes(np.concatenate([seen.min(axis=1), seen.max(axis=1)], axis=1).astype(np.float32))
    size = np.sqrt(np.prod(slanted.xyxy[:, 2:] - slanted.xyxy[:, :2], axis=1))
    assert size.max() >= 1.15 * np.median(size)
    assert split_pairs(slanted, find_rows(slanted)) == []
    reading = read_hand(slanted)
    assert reading.hand is not None and format_hand(reading.hand) == "[555p,1]123456789m9p9p"


def test_only_a_box_with_its_kongs_tiles_beside_it_is_offered_cut() -> None:
    """Each cut costs a whole reading of the photo: a standing tile's box as large as a pair's, with no tile of its
    face beside it, is not offered (`vision.stacks._kong_beside`); the pair's box, two of its face beside, is."""
    found, pair = _stacked_pair(f"{STANDING} | 5p~ 5p 5p")
    first = int(np.argmin(found.xyxy[:, 0]))
    xyxy = found.xyxy.copy()
    x0, y0, x1, y1 = xyxy[first]
    xyxy[first] = [x0 - 0.35 * (x1 - x0), y0 - 0.3 * (y1 - y0), x1, y1]
    large = found.with_boxes(xyxy)
    splits = split_pairs(large, find_rows(large))
    assert splits and {turned for _, pairs in splits for turned, _ in pairs} == {pair}
    twin = replace(large, class_id=np.where(np.arange(len(large)) == first + 1, large.class_id[first], large.class_id))
    twin = replace(twin, class_id=np.where(np.arange(len(large)) == first + 2, large.class_id[first], twin.class_id))
    offered = {turned for _, pairs in split_pairs(twin, find_rows(twin)) for turned, _ in pairs}
    assert first in offered  # two tiles of its face beside it: it may be a kong's pair


def test_a_pung_on_the_table_far_from_the_hand_is_not_offered_cut() -> None:
    """A photo of the whole table shows the other players' melds: a box of theirs large enough for a stacked pair, two
    of its face beside it, is not the hand's (`vision.layout._beside_the_hand`); the hand's own meld row is."""
    tiles = [*lay(STANDING), *(replace(p, x=p.x + 2.0, y=p.y + 2.0 * ASPECT) for p in lay("5p~ 5p 5p")),
             *(replace(p, y=p.y + 12.0 * ASPECT) for p in lay("8s~ 8s 8s"))]  # a row twelve tiles off the hand's
    found = shoot(tiles)
    near = _beside_the_hand(best_reading(found))
    codes = {found.tiles[i].code for i in near}
    assert {"1m", "9p", "5p"} <= codes and "8s" not in codes


def _meld_in_front(meld: str) -> list[Placed]:
    """`STANDING` with ``meld`` laid in a row of its own in front of the standing tiles."""
    return [*lay(STANDING), *(replace(p, x=p.x + 2.0, y=p.y + 2.0 * ASPECT) for p in lay(meld))]


def test_a_stacked_pair_in_a_meld_alone_in_its_row_is_two_tiles() -> None:
    """A row of three tells no tile size of its own: the hand's row does."""
    tiles = _meld_in_front("5p~ 5p 5p")
    turned = next(k for k, p in enumerate(tiles) if p.sideways)
    found = _one_box(shoot([*tiles, replace(tiles[turned], y=tiles[turned].y - 0.62)]), turned, len(tiles))
    reading = read_hand(found)
    assert reading.hand is not None and format_hand(reading.hand) == "[5555p,5]123456789m9p9p"


def test_a_pung_alone_in_a_row_nearer_the_camera_stays_a_pung() -> None:
    """A row nearer the camera is larger as a whole: no box of it stands out from its others."""
    found = shoot(_meld_in_front("5p 5p 5p"))
    xyxy = found.xyxy.copy()
    meld = np.flatnonzero(found.class_id == found.class_id[-1])[-3:]
    middle = (xyxy[meld, :2] + xyxy[meld, 2:]) / 2
    half = 0.6 * (xyxy[meld, 2:] - xyxy[meld, :2])  # a fifth larger each way
    xyxy[meld] = np.hstack([middle - half, middle + half])
    reading = read_hand(found.with_boxes(xyxy))
    assert reading.hand is not None and format_hand(reading.hand) == "[555p,1]123456789m9p9p"


def test_a_stacked_pair_is_two_tiles_in_a_hand_no_win_for_another_misread_tile() -> None:
    found, _ = _stacked_pair("1m 2m 3m 4m 5m 6m 7m 8m 9m 9p | 1s | 5p~ 5p 5p")
    reading = read_hand(found)
    assert reading.hand is not None and reading.hand.melds[0].added and len(reading.detections) == len(found) + 1


def test_a_tile_boxed_larger_than_its_neighbours_in_a_pung_stays_a_pung() -> None:
    """A box as large as a pair but as deep as an upright tile (a tilted photo, the photo's edge) is one tile."""
    found = shoot(lay(f"{STANDING} | 5p~ 5p 5p"))
    last = int(np.argmax(found.xyxy[:, 2]))
    xyxy = found.xyxy.copy()
    xyxy[last, 2] += 0.3 * (xyxy[last, 2] - xyxy[last, 0])  # a third larger, along the row
    reading = read_hand(found.with_boxes(xyxy))
    assert reading.hand is not None and format_hand(reading.hand) == "[555p,1]123456789m9p9p"


def test_an_added_kong_laid_beside_its_turned_tile_turned_too() -> None:
    reading = read_hand(shoot(lay(f"{STANDING} | 5p~ 5p~ 5p 5p")))
    assert reading.hand is not None
    (kong,) = reading.hand.melds
    assert kong.kind is MeldKind.KONG and not kong.concealed


@pytest.mark.parametrize("kong", ["back E E back", "E back back E"])
def test_concealed_kongs_with_two_tiles_face_down(kong: str) -> None:
    assert _read(lay(f"{STANDING} | {kong}")) == "[EEEE]123456789m9p9p"


def test_a_concealed_kong_all_face_down_is_read_with_a_doubt() -> None:
    reading = read_hand(shoot(lay(f"{STANDING} | back back back back")))
    assert reading.hand is not None and reading.hand.melds[0].concealed
    assert any("all face down" in d.message for d in reading.doubts)


def test_flowers_in_a_row_of_their_own_beside_the_hand() -> None:
    tiles = lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 9p | 9p")
    flowers = [Placed(code, 1.0 + k, -1.6 * ASPECT) for k, code in enumerate(("1f", "6f"))]  # a row behind
    assert _read([*tiles, *flowers]) == "16f123456789m9p123s9p"


def test_a_row_of_flowers_each_unsure_which_flower_it_is_is_the_hands() -> None:
    """Flowers of a set drawn in its own hand split the reader's confidence between them: each read under
    `vision.readings.STRAY` but with another flower second is surely a flower, and their row is the hand's; with
    a suit tile second, the row stays a heap's misread tiles."""
    tiles = shoot([*lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 9p | 9p"),
                   *(Placed(code, 1.0 + k, -1.6 * ASPECT) for k, code in enumerate(("5f", "7f")))])
    flowers = np.isin(tiles.class_id, [tile("5f").index, tile("7f").index])
    confidence = np.where(flowers, 0.2, 0.9)

    def read_with(second: str) -> str:
        unsure = TileDetections(tiles.xyxy, confidence, tiles.class_id, np.where(flowers, tile(second).index, -1),
                                np.where(flowers, 0.15, 0.0))
        reading = read_hand(unsure)
        assert reading.hand is not None
        return format_hand(reading.hand)

    assert read_with("8f") == "57f123456789m9p123s9p"
    assert read_with("1s") == "123456789m9p123s9p"


def test_a_row_of_flowers_read_unsurely_is_left_out_with_a_doubt_the_flower_count_answers() -> None:
    """A row of flowers beside the hand with no tile of it read surely may be the table's: left out of the hand,
    and said so, with the count to give where they are the player's; given, the hand holds them."""
    tiles = shoot([*lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 9p | 9p"), Placed("3f", 3.0, -1.6 * ASPECT)])
    flower = tiles.class_id == tile("3f").index
    unsure = TileDetections(tiles.xyxy, np.where(flower, 0.26, 0.9), tiles.class_id)
    reading = read_hand(unsure)
    assert reading.hand is not None and reading.hand.flower_count == 0
    (doubt,) = [d for d in reading.doubts if d.message.startswith(FLOWERS_UNSURE)]
    assert doubt.tiles == tuple(np.flatnonzero(flower)) and "3f 0.26" in doubt.message
    assert doubt.message.endswith("give the flowers drawn (1)")
    assert doubt.kind == "low_confidence" and sum(d.tiles == doubt.tiles for d in reading.doubts) == 1  # said once
    given = read_hand(unsure, Overrides(flowers=1))
    assert given.hand is not None and given.hand.flower_count == 1
    assert not any(d.message.startswith(FLOWERS_UNSURE) for d in given.doubts)
    sure = read_hand(TileDetections(tiles.xyxy, np.full(len(tiles), 0.9), tiles.class_id))
    assert sure.hand is not None and format_hand(sure.hand) == "3f123456789m9p123s9p"
    assert not any(d.message.startswith(FLOWERS_UNSURE) for d in sure.doubts)


@pytest.mark.parametrize("row", [-1.9, 1.9])
def test_a_lone_flower_in_its_own_row_a_tile_and_a_gap_away(row: float) -> None:
    """A row of flowers lies a tile's depth plus a gap of up to another depth off the hand's line, behind or
    in front; one flower alone is such a row too."""
    tiles = lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 9p | 9p")
    assert _read([*tiles, Placed("5f", 4.0, row * ASPECT)]) == "5f123456789m9p123s9p"


def test_a_sliver_of_a_tile_at_the_rows_end_is_no_tile_of_the_hand() -> None:
    found = shoot(lay(f"{STANDING} | 5p~ 5p 5p"))
    x0, y0, x1, y1 = found.xyxy[int(np.argmax(found.xyxy[:, 2]))]
    sliver = TileDetections(np.array([[x1 + 5, y0, x1 + 5 + 0.3 * (x1 - x0), y1]]), np.array([0.6]),
                            np.array([found.class_id[int(np.argmax(found.xyxy[:, 2]))]]))
    reading = read_hand(TileDetections.concat([found, sliver]))
    assert reading.hand is not None and format_hand(reading.hand) == "[555p,1]123456789m9p9p"


def test_a_kong_face_up_with_nothing_turned_beside_a_turned_pung_is_concealed() -> None:
    standing = "1m 2m 3m 4m 5m 6m 9p | 9p"  # 7 standing + the winning tile: two melds beside
    claimed = read_hand(shoot(lay(f"{standing} | 5p~ 5p 5p | E E E E")))
    assert claimed.hand is not None
    kong = next(m for m in claimed.hand.melds if m.kind is MeldKind.KONG)
    assert kong.concealed  # this player turns a claimed tile: an untouched kong was not claimed
    assert any("four tiles face up, none turned" in d.message for d in claimed.doubts)  # a guess all the same
    unturned = read_hand(shoot(lay(f"{standing} | 5p 5p 5p | E E E E")))
    assert unturned.hand is not None and not any(m.concealed for m in unturned.hand.melds)
    assert any("concealed kong shown face up" in d.message for d in unturned.doubts)


def test_two_tiles_turned_side_by_side_are_an_added_kong() -> None:
    reading = read_hand(shoot(lay(f"{STANDING} | 5p 5p~ 5p~ 5p")))
    assert reading.hand is not None and reading.hand.melds[0].added


@pytest.mark.parametrize("angle", [0, 180])
def test_a_flower_read_as_a_tile_among_the_flowers_set_apart_is_a_flower(angle: float) -> None:
    """A season the reader takes for 1s, lying with the flowers at the hand's end: one tile too many, read as a
    flower (the count scores, not which), with a doubt."""
    reading = read_hand(shoot(lay("1f 6f 1s | 1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 9p | 9p"), angle))
    assert reading.hand is not None and reading.hand.flower_count == 3
    assert format_hand(reading.hand).endswith("123456789m9p123s9p")
    assert any("among the flowers" in d.message for d in reading.doubts)


def test_a_flower_read_as_a_tile_in_the_flowers_own_row_is_a_flower() -> None:
    tiles = lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 2s 3s 9p | 9p")
    flowers = [Placed(code, 1.0 + k, -1.6 * ASPECT) for k, code in enumerate(("1f", "6f", "1s"))]  # a row behind
    reading = read_hand(shoot([*tiles, *flowers]))
    assert reading.hand is not None and reading.hand.flower_count == 3
    assert format_hand(reading.hand).endswith("123456789m9p123s9p")
    assert any("among the flowers" in d.message for d in reading.doubts)


def test_an_added_kong_beside_its_turned_tile_alone_in_its_row_is_an_added_kong() -> None:
    """Alone in a row, the two turned tiles pull the row's typical evidence up to theirs: boxed a little short,
    each stays under `vision.melds.SIDEWAYS`, standing out from the two upright ones all the same."""
    found = shoot(_meld_in_front("5p 5p~ 5p~ 5p"))
    xyxy = found.xyxy.copy()
    turned = (xyxy[:, 2] - xyxy[:, 0]) > (xyxy[:, 3] - xyxy[:, 1])
    middle, half = (xyxy[turned, 0] + xyxy[turned, 2]) / 2, 0.45 * (xyxy[turned, 2] - xyxy[turned, 0])
    xyxy[turned, 0], xyxy[turned, 2] = middle - half, middle + half  # a tenth short along the row
    reading = read_hand(found.with_boxes(xyxy))
    assert reading.hand is not None
    (kong,) = reading.hand.melds
    assert kong.kind is MeldKind.KONG and kong.added and not kong.concealed and kong.source == 2


@pytest.mark.parametrize("angle", [0, 90, 180])
def test_a_row_of_melds_a_third_of_a_tile_apart_beside_the_flowers_and_the_pair_is_the_melds(angle: float) -> None:
    """Four melds in front of the flowers and the pair, nothing turned but the added kong's: read as fourteen
    standing tiles, the melds' row would leave the flowers' row with the pair out of the hand."""
    melds: list[Placed] = []
    for part in "9s 9s~ 9s~ 9s | 5p 6p 7p | 9p 9p 9p | 3p 3p 3p 3p".split(" | "):
        x = melds[-1].x + (ASPECT if melds[-1].sideways else 1.0) + 0.35 if melds else 0.0  # a third of a tile apart
        melds += [replace(p, x=p.x + x) for p in lay(part)]
    behind = [replace(p, x=p.x + 1.0, y=p.y + 1.8 * ASPECT) for p in lay("6f 7f 8f | P P")]
    assert _read([*melds, *behind], angle) == "678f[9999s,6][567p,1][999p,1][3333p,1]PP"


@pytest.mark.parametrize("angle", [0, 90, 180])
def test_sorted_standing_tiles_tell_the_left_end_where_the_flowers_lie_at_the_right(angle: float) -> None:
    """The winning tile, not set apart, ends the sorted row unsorted (2s after 9s): read from the other end it
    would begin the row and blunt its order, and the flowers at the right end would turn the hand round."""
    reading = read_hand(shoot(lay("2p 3p 4p 9p 9p 9p 2s 6s 7s 7s 8s 8s 9s 2s 4f 7f 8f"), angle))
    assert reading.hand is not None and format_hand(reading.hand) == "478f234999p2677889s2s"


@pytest.mark.parametrize("index", [28, 628])
def test_a_short_sorted_row_beside_its_melds_keeps_its_left_end(index: int) -> None:
    """Four or five standing tiles beside three melds, sorted, the winning tile not set apart: between the row's
    end tiles too few are left to tell an order, so the order is judged on all but the last (generated scenes of
    `models.measure.layout_scenes`, seed 1, which the order between the ends read backwards)."""
    scene = layout_scene(1, index)
    assert judge(scene, read_hand(scene.detections)) == (True, True)


def test_a_row_far_off_the_hands_line_is_not_its_melds() -> None:
    """A pung two tile depths in front of the standing tiles is the hand's; the same pung five depths away (over
    `SIDE_ROWS` tile widths between the lines) lies on the table, another player's, and no hand is made of it."""
    near = [*lay(STANDING), *(replace(p, x=p.x + 2.0, y=p.y + 2.0 * ASPECT) for p in lay("5p~ 5p 5p"))]
    assert _read(near) == "[555p,1]123456789m9p9p"
    far = [*lay(STANDING), *(replace(p, x=p.x + 2.0, y=p.y + 5.0 * ASPECT) for p in lay("5p~ 5p 5p"))]
    assert _read(far) is None


@pytest.mark.parametrize(("gap", "doubted"), [(0.25, False), (0.45, True)])
def test_tiles_past_a_gap_among_the_standing_tiles_that_make_melds_are_doubted(gap: float, doubted: bool) -> None:
    """Read as standing tiles, a chow laid apart with nothing turned is named in a doubt, with the melds to give;
    standing tiles as close as loose boxes leave them are not."""
    reading = read_hand(shoot(chow_apart(gap)))
    assert reading.hand is not None and format_hand(reading.hand) == "46m234p34555678s5m"
    found = [d for d in reading.doubts if d.message.startswith(MELDS_PAST_GAP)]
    assert bool(found) is doubted
    if doubted:
        (doubt,) = found
        assert sorted(reading.detections.tiles[i].code for i in doubt.tiles) == ["3s", "4s", "5s"]
        assert "give the melds: [345s,1]" in doubt.message
        given = read_hand(shoot(chow_apart(gap)), Overrides(melds=parse_melds("[345s,1]")))
        assert given.hand is not None and format_hand(given.hand) == "[345s,1]46m234p55678s5m"


def test_a_meld_read_with_nothing_turned_names_how_to_say_its_tiles_stand() -> None:
    """A chow set a tile apart with nothing turned is read as a meld; its doubt names what to give if its tiles
    stand (`none`, the hand's only meld), and given so, the hand reads with them standing."""
    reading = read_hand(shoot(chow_apart(1.0)))
    assert reading.hand is not None and format_hand(reading.hand) == "[345s,1]46m234p55678s5m"
    (doubt,) = [d for d in reading.doubts if d.message.startswith("no tile of this meld lies sideways")]
    assert doubt.message.endswith("(if its tiles stand: none)")
    given = read_hand(shoot(chow_apart(1.0)), Overrides(melds=parse_melds("none")))
    assert given.hand is not None and format_hand(given.hand) == "46m234p34555678s5m"
    assert not any(d.message.startswith("no tile of this meld") for d in given.doubts)


def test_melds_right_of_standing_tiles_past_a_gap_with_no_winning_tile_apart_are_doubted() -> None:
    """With the winning tile not set apart, the rightmost tile taken as it may be the last of melds laid after a gap:
    the melds named run to the row's end."""
    tiles = lay("4m 4m 4s 5s 6s | 5s 6s 7s 8p 8p 8p 4p 4p 4p")
    reading = read_hand(shoot([replace(t, x=t.x - 0.15) if k >= 5 else t for k, t in enumerate(tiles)]))
    assert reading.hand is not None and format_hand(reading.hand) == "44m44888p455667s4p"
    (doubt,) = [d for d in reading.doubts if d.message.startswith(MELDS_PAST_GAP)]
    assert len(doubt.tiles) == 9 and "[567s,1][888p,1][444p,1]" in doubt.message
