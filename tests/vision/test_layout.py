"""Layout reading on hands laid out by hand: rotations, sideways and face-down tiles, overrides, and
photos that cannot give a valid hand (a doubt report, never a crash)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from datasets.layouts import Placed
from scoring import Meld, MeldKind, format_hand, parse_hand, parse_melds
from scoring.tiles import BACK, TILES, tile
from tests.vision.conftest import ASPECT, HAND, NOTATION, lay, shoot
from vision.detections import TileDetections
from vision.layout import Overrides, _as_kong, read_hand


@pytest.mark.parametrize("angle", [0, 17, 90, 135, 180, 250, -60])
def test_reads_the_hand_at_any_rotation(angle: float) -> None:
    reading = read_hand(shoot(lay(HAND), angle))
    assert reading.hand is not None and format_hand(reading.hand) == NOTATION
    roles = [g.role for g in reading.groups]
    assert roles == ["flowers", "concealed", "win", "meld", "meld", "meld"]
    assert [len(g.tiles) for g in reading.groups] == [2, 4, 1, 3, 3, 4]
    assert not [d for d in reading.doubts if d.kind != "assumed"]
    assert not reading.guessed  # each claimed meld shows its sideways tile


@pytest.mark.parametrize(("spec", "source"), [("5p~ 5p 5p", 1), ("5p 5p~ 5p", 2), ("5p 5p 5p~", 3)])
def test_the_sideways_tile_says_who_discarded(spec: str, source: int) -> None:
    reading = read_hand(shoot(lay(f"1m 2m 3m 4m 5m 6m 7m 9p 9p 9p | 5p | {spec}"), 30))
    assert reading.hand is not None
    (meld,) = reading.hand.melds
    assert (meld.kind, meld.source) == (MeldKind.PUNG, source)


@pytest.mark.parametrize("angle", [0, 30, 45, 180])
def test_melds_with_no_tile_sideways_are_taken_from_the_left_and_doubted(angle: float) -> None:
    reading = read_hand(shoot(lay("1m 2m 3m 4m 5m 9p 9p | 5p | 5p 5p 5p | 7s 8s~ 9s"), angle))
    assert reading.hand is not None
    pung, chow = reading.hand.melds
    assert (pung.kind, pung.source, chow.kind, chow.claimed) == (MeldKind.PUNG, 1, MeldKind.CHOW, 1)
    meld_groups = [g.tiles for g in reading.groups if g.role == "meld"]
    assumed = [d.tiles for d in reading.doubts if d.kind == "assumed" and "sideways" in d.message]
    assert assumed == meld_groups[:1]  # the pung's tiles only: the chow shows its claimed 8s


def test_winning_tile_not_set_apart_is_the_rightmost_and_doubted() -> None:
    reading = read_hand(shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s 5s")))
    assert reading.hand is not None and reading.hand.win_tile is tile("5s")
    assert any(d.kind == "assumed" and "winning tile" in d.message for d in reading.doubts)


def test_overrides_replace_the_winning_tile_melds_and_flowers() -> None:
    detections = shoot(lay(HAND))
    melds = (Meld(MeldKind.PUNG, (tile("5p"),) * 3, source=3), Meld(MeldKind.CHOW, tuple(map(tile, ("7s", "8s", "9s"))),
             claimed=1), Meld(MeldKind.KONG, (tile("E"),) * 4, concealed=True))
    reading = read_hand(detections, Overrides(win_tile=tile("1m"), melds=melds, flowers=4))
    assert reading.hand is not None
    assert reading.hand.win_tile is tile("1m") and reading.hand.concealed.count(tile("9p")) == 2
    assert reading.hand.melds[0].source == 3 and reading.hand.flower_count == 4
    bad = read_hand(detections, Overrides(win_tile=tile("N")))
    assert bad.hand is None and any(d.kind == "impossible" and "N" in d.message for d in bad.doubts)


def test_a_fifth_copy_is_reported_with_the_tiles_to_check() -> None:
    detections = shoot(lay("1m 1m 1m 1m 2m 3m 4m 5m 6m 7m 8m 9m 1m | 9m"))
    weak = detections.confidence.copy()
    weak[12] = 0.3
    reading = read_hand(TileDetections(detections.xyxy, weak, detections.class_id))
    assert reading.hand is None
    (impossible,) = [d for d in reading.doubts if d.kind == "impossible"]
    assert "5 copies of 1m" in impossible.message and sorted(impossible.tiles) == [0, 1, 2, 3, 12]
    assert "9m" in impossible.alternatives  # nine gates once the doubtful 1m reads 9m
    assert any(d.kind == "low_confidence" and d.tiles == (12,) for d in reading.doubts)


def test_a_missing_tile_is_reported_with_the_faces_that_complete_the_hand() -> None:
    reading = read_hand(shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s")))
    assert reading.hand is None
    (impossible,) = [d for d in reading.doubts if d.kind == "impossible"]
    assert "13 standing" in impossible.message or "12 standing" in impossible.message
    assert impossible.alternatives == ("5s",)


def test_low_confidence_tiles_get_the_faces_that_also_complete_the_hand() -> None:
    detections = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    weak = detections.confidence.copy()
    weak[13] = 0.2  # the winning 7s: the hand waits on 4s or 7s
    reading = read_hand(TileDetections(detections.xyxy, weak, detections.class_id))
    assert reading.hand == parse_hand("123456789m55p56s7s")
    (low,) = [d for d in reading.doubts if d.kind == "low_confidence"]
    assert low.tiles == (13,) and low.alternatives == ("4s",)


def test_boxes_read_unsurely_and_left_out_of_a_hand_make_one_doubt() -> None:
    """Faint boxes the hand leaves out (a rack's edge, tiles' sides read as face-down tiles) are named in one doubt,
    not one each; where no hand is read, each tile read unsurely is still its own doubt."""
    hand = lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s")
    sides = [replace(p, y=p.y + 4.0 * ASPECT) for p in lay("1m 1m 1m")]  # a row far in front of the hand
    detections = shoot([*hand, *sides])
    faint = detections.confidence.copy()
    faint[14:] = (0.2, 0.15, 0.1)
    classes = detections.class_id.copy()
    classes[14:] = BACK.index
    reading = read_hand(TileDetections(detections.xyxy, faint, classes))
    assert reading.hand == parse_hand("123456789m55p56s7s")
    (low,) = [d for d in reading.doubts if d.kind == "low_confidence"]
    assert low.tiles == (14, 15, 16) and "3 boxes read unsurely, left out of the hand (back 0.20, back 0.15, " \
        "back 0.10)" in low.message
    classes[:3] = tile("5p").index  # five copies of 5p: no hand
    none = read_hand(TileDetections(detections.xyxy, faint, classes))
    assert none.hand is None
    assert {d.tiles for d in none.doubts if d.kind == "low_confidence"} >= {(14,), (15,), (16,)}


@pytest.mark.parametrize(("spec", "conf", "read"), [
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 5p 5p 5p 5p", 0.1, "123456789m55p11s5p"),  # a faint box beside the pung
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 5p 5p 5p 5p", 0.9, "[5555p,1]123456789m1s1s"),  # a sure fourth tile
    ("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s | 5p 5p 5p 5p", 0.1, "[5555p,1]123456789m1s1s"),  # a kong set apart
])
def test_a_faint_box_beside_a_pung_of_its_face_does_not_make_it_a_kong(spec: str, conf: float, read: str) -> None:
    """A box read faintly as the face of a pung it touches (a sliver at the photo's edge, a reflection) makes the
    count fit as a kong; where the hand without it reads as plausibly less what its confidence gives up, the box is
    left out, with a doubt; a sure fourth tile, or a faint one of four laid apart as a meld, is a kong."""
    detections = shoot(lay(spec))
    confidence = detections.confidence.copy()
    confidence[-1] = conf
    reading = read_hand(TileDetections(detections.xyxy, confidence, detections.class_id))
    assert reading.hand is not None and format_hand(reading.hand) == read
    left_out = [d for d in reading.doubts if d.message.startswith("one tile too many: left out the 5p")]
    assert len(left_out) == (read != "[5555p,1]123456789m1s1s")


def test_a_tile_left_out_as_no_tile_may_be_given_back_in_the_melds() -> None:
    """The melds given may hold a tile the reading left out as a box where there is no tile (the user says it is
    one); a claimed pung of its face names the kong to give in the doubt."""
    detections = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 5p 5p 5p 5p"))
    confidence = detections.confidence.copy()
    confidence[-1] = 0.1
    faint = TileDetections(detections.xyxy, confidence, detections.class_id)
    assert format_hand(read_hand(faint).hand) == "123456789m55p11s5p"
    given = read_hand(faint, Overrides(melds=parse_melds("[5555p,1]")))
    assert given.hand is not None and format_hand(given.hand) == "[5555p,1]123456789m1s1s"
    assert _as_kong(parse_hand("[555p,3]123456789m1s1s"), tile("5p")) == "; if it is a tile, give the melds: [5555p,3]"
    assert _as_kong(parse_hand("[555p,3]123456789m1s1s"), tile("6p")) == ""


def misread(detections: TileDetections, k: int, read: str, conf: float, second: float) -> TileDetections:
    """``detections`` with tile ``k`` read as ``read`` and its true face the runner-up."""
    class_id, confidence = detections.class_id.copy(), detections.confidence.copy()
    runner_up, runner_up_confidence = np.full(len(detections), -1), np.zeros(len(detections))
    runner_up[k], runner_up_confidence[k] = class_id[k], second
    class_id[k], confidence[k] = tile(read).index, conf
    return TileDetections(detections.xyxy, confidence, class_id, runner_up, runner_up_confidence)


def test_a_misread_tile_whose_runner_up_makes_the_win_is_swapped_and_reported() -> None:
    truth = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    reading = read_hand(misread(truth, 12, "8s", 0.45, 0.40))  # 6s read as 8s: no winning hand
    assert reading.hand == parse_hand("123456789m55p56s7s")
    assert reading.detections.tiles[12].code == "6s" and reading.detections.tiles == truth.tiles
    (swap,) = [d for d in reading.doubts if d.kind == "assumed" and d.tiles == (12,)]
    assert "8s (0.45)" in swap.message and "runner-up 6s (0.40)" in swap.message and swap.alternatives == ("8s",)
    assert not [d for d in reading.doubts if d.kind == "low_confidence" and d.tiles == (12,)]


def test_a_misread_tile_that_keeps_a_row_of_melds_from_being_read_is_swapped() -> None:
    """A kong's tile read as another face (not doubtfully: 0.58 against 0.25) leaves its row no melds, and the
    reading then leaves the row out altogether: the least sure tiles of the photo are tried, not the reading's."""
    standing = lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 9p | 9p")
    melds = [Placed(p.code, p.x + 1.0, p.y + 2.0 * ASPECT, p.sideways) for p in lay("4s 4s~ 4s 4s")]
    truth = shoot([*standing, *melds])
    k = len(standing) + 2
    reading = read_hand(misread(truth, k, "6s", 0.58, 0.25))
    assert reading.hand is not None and format_hand(reading.hand) == "[4444s,2]123456789m9p9p"
    assert any(d.kind == "assumed" and d.tiles == (k,) and "runner-up 4s" in d.message for d in reading.doubts)


def test_a_misread_tile_that_leaves_no_reading_at_all_is_swapped() -> None:
    """A concealed kong's face-up tile read as another face: the kong is no meld, and with its face-down tiles the
    row can be no hand's parts at all; the least sure tile's runner-up makes the win."""
    truth = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 9p | 9p | back E E back"))
    k = len(truth) - 2
    reading = read_hand(misread(truth, k, "S", 0.58, 0.25))
    assert reading.hand is not None and format_hand(reading.hand) == "[EEEE]123456789m9p9p"
    assert any(d.kind == "assumed" and d.tiles == (k,) and "runner-up E" in d.message for d in reading.doubts)


def test_a_misread_kong_tile_that_leaves_one_tile_too_many_is_swapped() -> None:
    """A kong laid on the standing tiles' line, one of its tiles read as another face: with no kong, its four tiles
    are a tile too many for a hand of standing tiles, and no box is unsure enough to be a stray; the doubtful tile's
    runner-up makes the kong, and the win."""
    truth = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 9p | 9p | 4s 4s~ 4s 4s"))
    k = len(truth) - 1
    reading = read_hand(misread(truth, k, "6s", 0.39, 0.25))
    assert reading.hand is not None and format_hand(reading.hand) == "[4444s,2]123456789m9p9p"
    assert any(d.kind == "assumed" and d.tiles == (k,) and "runner-up 4s" in d.message for d in reading.doubts)


@pytest.mark.parametrize(("confidence", "left_out"), [(0.1, True), (0.9, False)])
def test_an_unsure_tile_too_many_is_left_out_as_a_stray_box(confidence: float, left_out: bool) -> None:
    truth = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s 7s"))
    box = truth.xyxy[-1] + np.array([1, 0, 1, 0]) * (truth.xyxy[-1, 0] - truth.xyxy[-2, 0])  # one more, at the end
    stray = TileDetections(box[None], np.array([confidence]), np.array([tile("E").index]))
    reading = read_hand(TileDetections.concat([stray, truth]))  # listed first
    if not left_out:  # a surely read tile is not explained away: the photo shows one tile too many
        assert reading.hand is None and any("one tile too many" in d.message for d in reading.doubts)
        return
    assert reading.hand == parse_hand("123456789m55p56s7s")
    assert reading.detections.tiles[:-1] == truth.tiles and reading.detections.tiles[-1].code == "E"
    assert 14 not in {i for g in reading.groups for i in g.tiles}
    (doubt,) = [d for d in reading.doubts if d.tiles == (14,)]
    assert doubt.kind == "assumed" and "left out the E" in doubt.message and doubt.alternatives == ("E",)


@pytest.mark.parametrize("misread_tiles", [(4,), (4, 10)])
def test_tiles_of_the_hand_read_as_flowers_are_read_as_their_runner_up(misread_tiles: tuple[int, ...]) -> None:
    """A 5m and a 5p the reader took for seasons (unsurely, the tile second) are counted with the flowers, and the
    standing tiles come up one or two short: no hand until they are read as their runner-up."""
    truth = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    read = np.isin(np.arange(len(truth)), misread_tiles)
    reading = read_hand(TileDetections(truth.xyxy, np.where(read, 0.25, truth.confidence),
                                       np.where(read, tile("6f").index, truth.class_id),
                                       np.where(read, truth.class_id, -1), np.where(read, 0.1, 0.0)))
    assert reading.hand == parse_hand("123456789m55p56s7s")
    assert all(any(d.kind == "assumed" and d.tiles == (k,) and "runner-up" in d.message for d in reading.doubts)
               for k in misread_tiles)


def test_a_flower_read_as_a_tile_of_the_hand_is_read_as_its_runner_up_flower() -> None:
    truth = shoot(lay("2f 1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    reading = read_hand(misread(truth, 0, "W", 0.45, 0.30))  # 2f read as W: one tile too many
    assert reading.hand == parse_hand("2f123456789m55p56s7s")
    assert any(d.kind == "assumed" and d.tiles == (0,) and "runner-up 2f" in d.message for d in reading.doubts)


def test_a_flower_read_as_another_flower_of_the_hand_is_read_as_its_runner_up() -> None:
    truth = shoot(lay("1f 2f 1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    reading = read_hand(misread(truth, 0, "2f", 0.6, 0.1))  # two 2f: no hand, though the 1f is far second
    assert reading.hand == parse_hand("12f123456789m55p56s7s")


@pytest.mark.parametrize(("layout", "read_as", "notation"), [
    ("1f 7f 6f", "6f", "567f"),  # seasons: the first season no tile was read as
    ("3f 1f 4f", "4f", "124f"),  # flowers: the 1f was read, so the 2f is taken (the true 3f stays unknown)
])
def test_a_flower_read_twice_without_a_flower_runner_up_is_taken_as_an_unseen_one(
        layout: str, read_as: str, notation: str) -> None:
    truth = shoot(lay(f"{layout} 1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    misread_ = misread(truth, 0, read_as, 0.3, 0.0)  # no runner-up named: which flower it is, nobody knows
    lost = TileDetections(misread_.xyxy, misread_.confidence, misread_.class_id)
    reading = read_hand(lost)
    assert reading.hand == parse_hand(f"{notation}123456789m55p56s7s")  # three flowers: scored alike
    (doubt,) = [d for d in reading.doubts if d.kind == "assumed" and d.tiles == (0,)]
    assert f"read as {read_as} (0.30)" in doubt.message and "one of each" in doubt.message
    assert reading.detections.confidence[0] == 0.0  # a guess, not a reading


def test_a_sure_tile_is_not_swapped_to_make_a_win() -> None:
    truth = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    reading = read_hand(misread(truth, 12, "8s", 0.95, 0.20))  # a far second: the photo shows no win
    assert format_hand(reading.hand) == "123456789m55p58s7s" and reading.detections.tiles[12].code == "8s"
    assert not [d for d in reading.doubts if d.kind == "assumed" and d.tiles == (12,)]


@pytest.mark.parametrize(("second", "swapped"), [(0.40, True), (0.03, False)])
def test_a_runner_up_the_detector_hardly_considered_does_not_make_a_win(second: float, swapped: bool) -> None:
    truth = shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s"))
    reading = read_hand(misread(truth, 12, "8s", 0.45, second))  # unsure, yet its runner-up far behind
    assert format_hand(reading.hand) == ("123456789m55p56s7s" if swapped else "123456789m55p58s7s")
    assert any(d.kind == "assumed" and d.tiles == (12,) for d in reading.doubts) == swapped
    assert reading.guessed == swapped  # a runner-up face taken is a guess another look may settle


def widened(detections: TileDetections, factors: dict[int, float]) -> TileDetections:
    """``detections`` (a row along x) with some boxes longer along the row about their centres: the
    box noise that makes an upright tile look a little sideways."""
    xyxy = detections.xyxy.copy()
    for k, factor in factors.items():
        centre, half = xyxy[k, [0, 2]].mean(), (xyxy[k, 2] - xyxy[k, 0]) / 2 * factor
        xyxy[k, [0, 2]] = centre - half, centre + half
    return detections.with_boxes(xyxy)


@pytest.mark.parametrize(("factors", "source"), [({12: 1.3}, 2), ({12: 1.35, 13: 1.3}, 1)])
def test_a_meld_tile_shows_its_discarder_only_when_it_stands_out(factors: dict[int, float], source: int) -> None:
    upright = shoot(lay("1m 2m 3m 4m 5m 6m 7m 9p 9p 9p | 5p | 5p 5p 5p"))
    reading = read_hand(widened(upright, factors))  # evidence under SIDEWAYS: 0.26; together 0.17 and 0.12
    assert reading.hand is not None
    (meld,) = reading.hand.melds
    assert meld.source == source
    assert any("no tile of this meld lies sideways" in d.message for d in reading.doubts) == (source == 1)


def test_no_tiles_and_random_junk_never_crash() -> None:
    assert read_hand(TileDetections.empty()).hand is None
    rng = np.random.default_rng(5)
    for _ in range(40):
        n = int(rng.integers(1, 30))
        xy = rng.uniform(0, 3000, (n, 2))
        wh = rng.uniform(20, 200, (n, 2))
        detections = TileDetections(np.hstack([xy, xy + wh]), rng.uniform(0.1, 1, n), rng.integers(0, len(TILES), n))
        reading = read_hand(detections)
        assert reading.hand is not None or any(d.kind == "impossible" for d in reading.doubts)


def test_a_concealed_kong_all_face_down_is_an_assumption() -> None:
    reading = read_hand(shoot(lay(HAND.replace("E back back E", "back back back back"))))
    assert reading.hand is not None
    kong = reading.hand.melds[2]
    assert kong.concealed and kong.kind is MeldKind.KONG
    assert kong.first.code not in {"1m", "2m", "3m", "9p", "5p", "7s", "8s", "9s", "1f", "6f"}
    assert any(d.kind == "assumed" and "all face down" in d.message for d in reading.doubts)


def test_face_down_tiles_ending_the_row_need_not_be_the_hand() -> None:
    """A rack's edge or a wall tile read as ``back`` at a row's ends, no concealed kong: the hand without them."""
    reading = read_hand(shoot(lay("back 1m 2m 3m 4m 5m 6m 7m 8m 9m 5p 5p 5s 6s | 7s back"), 20))
    assert reading.hand == parse_hand("123456789m55p56s7s")
    assert {reading.detections.tiles[i] for g in reading.groups for i in g.tiles} == set(parse_hand(
        "123456789m55p56s7s").concealed) | {tile("7s")}
    kong = read_hand(shoot(lay("1m 2m 3m 4m 5m 6m 7m 8m 9m 5s | 5s | back 5p 5p back")))
    assert kong.hand is not None and kong.hand.melds[0].concealed  # face-down tiles that make a kong stay one


def test_standing_tiles_in_two_rows_are_one_hand() -> None:
    back, front = lay("1m 2m 3m 4m 5m"), lay("6m 7m 8m 9m 1p 2p 3p 5s | 5s")
    shifted = [Placed(p.code, p.x + 1.0, p.y - ASPECT - 0.3) for p in back]  # a row behind the first
    reading = read_hand(shoot(front + shifted, 20))
    assert reading.hand is not None and not reading.hand.melds
    assert sorted(t.code for t in reading.hand.all_tiles) == sorted("1m 2m 3m 4m 5m 6m 7m 8m 9m 1p 2p 3p 5s 5s".split())
    apart = [Placed(p.code, p.x + 1.0, p.y - 4 * ASPECT) for p in back]  # far behind: not the hand's tiles
    assert read_hand(shoot(front + apart, 20)).hand is None
