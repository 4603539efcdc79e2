from collections import Counter

import pytest

from scoring import Hand, Meld, MeldKind, Situation, parse_hand
from scoring.hand import (
    FifthCopyError,
    HandError,
    MeldError,
    SituationError,
    TileCountError,
)
from scoring.tiles import tile


def tiles(*codes: str):
    return tuple(tile(c) for c in codes)


@pytest.mark.parametrize(
    ("kind", "codes", "fields", "problem"),
    [
        (MeldKind.CHOW, ("5m", "6m", "8m"), {}, "consecutive"),
        (MeldKind.CHOW, ("8m", "9m", "1p"), {}, "consecutive"),
        (MeldKind.CHOW, ("E", "S", "W"), {}, "consecutive"),
        (MeldKind.CHOW, ("1m", "2m", "3m"), {"source": 2}, "left"),
        (MeldKind.CHOW, ("1m", "2m", "3m"), {"claimed": 3}, "index 0, 1 or 2"),
        (MeldKind.PUNG, ("1m", "1m", "2m"), {}, "copies of one tile"),
        (MeldKind.PUNG, ("1m", "1m", "1m"), {"concealed": True}, "only a kong"),
        (MeldKind.KONG, ("1m", "1m", "1m"), {}, "has 4 tiles"),
        (MeldKind.KONG, ("1m",) * 4, {"source": 4}, "comes from 1"),
        (MeldKind.PUNG, ("1f",) * 3, {}, "flowers"),
        (MeldKind.PUNG, ("2m",) * 3, {"added": True}, "only a kong"),
    ],
)
def test_impossible_melds_are_named(kind, codes, fields, problem):
    with pytest.raises(MeldError, match=problem):
        Meld(kind, tiles(*codes), **fields)


def test_wrong_tile_count_says_what_was_expected():
    with pytest.raises(TileCountError, match="expected 13 plus the winning tile"):
        parse_hand("123m456p789s11pEE")


def test_a_fifth_copy_spread_over_melds_is_refused():
    with pytest.raises(FifthCopyError, match="5 copies of 1m"):
        parse_hand("[111m,1][123m,1]1m456p789s9s")


@pytest.mark.parametrize("count", [9, -1])
def test_flower_count_bounds(count):
    with pytest.raises(HandError, match="0-8"):
        parse_hand("123m456p789s111p9s9s", flowers=count)


def test_standing_flower_is_refused():
    hand = parse_hand("123m456p789s111p9s9s")
    with pytest.raises(HandError, match="flowers go in flowers"):
        Hand(tiles("1f") + hand.concealed[1:], (), hand.win_tile)


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"robbing_kong": True, "self_drawn": True}, "cannot be self-drawn"),
        ({"kong_replacement": True}, "self-drawn win"),
        ({"robbing_kong": True, "last_wall_tile": True}, "last tile of the wall"),
        ({"self_drawn": True, "discarder": tile("S")}, "no discarder"),
        ({"discarder": tile("E")}, "cannot be the winner"),
        ({"seat_wind": tile("C")}, "must be a wind"),
    ],
)
def test_contradictory_situations_are_named(fields, problem):
    with pytest.raises(SituationError, match=problem):
        Situation(**fields)


@pytest.mark.parametrize(
    ("notation", "fields", "problem"),
    [
        ("123m456p789s111p9s9s", {"self_drawn": True, "kong_replacement": True}, "needs a kong"),
        ("123m456p789s111p9s9s", {"robbing_kong": True}, "other copies of 9s"),
        ("123m456p789s111p9s9s", {"last_of_kind": True}, "at most two others"),
    ],
)
def test_situations_that_contradict_the_hand(notation, fields, problem):
    with pytest.raises(SituationError, match=problem):
        Situation(**fields).check_against(parse_hand(notation))


def test_json_form_round_trips_and_matches_the_contract():
    hand = parse_hand("36f[567m,2][999s,3][8888p,1][SSSS]5p5p")
    data = hand.to_json()
    assert data["melds"][0] == {"kind": "chow", "tiles": ["5m", "6m", "7m"], "concealed": False, "from": 1,
                                "claimed": 1, "added": False}
    assert data["melds"][3]["concealed"] is True and data["melds"][3]["from"] is None
    assert (data["win_tile"], data["flowers"]) == ("5p", ["3f", "6f"])
    assert Hand.from_json(data) == hand


def test_json_flower_count_without_faces():
    hand = parse_hand("123m456p789s111p9s9s", flowers=3)
    assert hand.to_json()["flowers"] == 3
    assert Hand.from_json(hand.to_json()) == hand


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        ([], "JSON object"),
        ({"concealed": []}, "no win_tile"),
        ({"win_tile": "1m", "colour": 1}, "unknown hand field"),
        ({"win_tile": "1m", "melds": [{"kind": "set", "tiles": []}]}, "unknown meld kind"),
        ({"win_tile": "1m", "concealed": "123m"}, "list of tile codes"),
        ({"win_tile": "1m", "flowers": True}, "count or a list"),
        ({"win_tile": "1x"}, "unknown tile"),
    ],
)
def test_bad_json_is_a_named_value_error(data, problem):
    with pytest.raises(ValueError, match=problem):
        Hand.from_json(data)


def test_situation_json_round_trips():
    s = Situation(self_drawn=True, seat_wind=tile("W"), prevalent_wind=tile("S"), last_wall_tile=True)
    assert Situation.from_json(s.to_json()) == s


def test_a_hand_given_its_flower_count_keeps_the_faces_read_only_where_they_fit() -> None:
    hand = parse_hand("36f123456789m9p123s9p")
    assert hand.with_flower_count(3).flower_count == 3 and hand.with_flower_count(3).flowers == hand.flowers
    fewer = hand.with_flower_count(1)
    assert fewer.flower_count == 1 and fewer.flowers == ()
    with pytest.raises(HandError, match="flower count 9"):
        hand.with_flower_count(9)


def test_a_hand_won_on_another_standing_tile_holds_the_same_tiles() -> None:
    hand = parse_hand("EEE123456789m9p9p")
    other = hand.won_on(tile("3m"))
    assert other.win_tile == tile("3m") and Counter(other.all_tiles) == Counter(hand.all_tiles)
    assert hand.won_on(tile("9p")) is hand
    with pytest.raises(HandError, match="5s is not among the standing tiles"):
        hand.won_on(tile("5s"))
