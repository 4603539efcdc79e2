"""Waits: the winning tiles of 13 held tiles, how each finishes the hand, the copies left, each win's value;
the shanten number when not ready; for 14 tiles, the discards best first; and the request's checks."""

from __future__ import annotations

import pytest

from scoring.hand import HandError, Situation
from scoring.notation import parse_held, parse_tiles
from scoring.request import answer_request
from scoring.waits import answer_waits, best_discards, ready_waits


def kinds(notation: str) -> list[tuple[str, str]]:
    return [(w.tile.code, w.kind) for w in ready_waits(parse_held(notation)).waits]


@pytest.mark.parametrize(("notation", "expected"), [
    ("12m456p789p123s55s", [("3m", "edge")]),
    ("13m456p789p123s55s", [("2m", "closed")]),
    ("123m456p789p123s5s", [("5s", "single")]),
    ("23m456p789p123s55s", [("1m", "two_sided"), ("4m", "two_sided")]),
    ("11m77s456p789p123s", [("1m", "pung"), ("7s", "pung")]),
    ("1122m3344p5566s7s", [("7s", "single")]),  # seven pairs, one single missing
    ("147m258p369s12m55s", [("3m", "edge")]),  # a knitted straight's set
    ("147m258p36s123m55s", [("9s", "knitted")]),
    ("147m258p369sESWC", [("N", "knitted"), ("F", "knitted"), ("P", "knitted")]),
    ("19m19p9sESWNCFPP", [("1s", "thirteen_orphans")]),
])
def test_each_winning_tile_and_how_it_finishes_the_hand(notation, expected):
    assert kinds(notation) == expected


def test_thirteen_orphans_waits_on_all_thirteen():
    assert [k for _, k in kinds("19m19p19sESWNCFP")] == ["thirteen_orphans"] * 13


def test_each_win_is_the_score_of_that_hand_on_a_discard_and_self_drawn():
    situation = Situation(seat_wind=tile_wind("S"), prevalent_wind=tile_wind("W"), discarder=tile_wind("N"))
    found = ready_waits(parse_held("[567m,2][567s,3]567p234p1s"), situation)
    (wait,) = found.waits
    base = {"hand": "[567m,2][567s,3]567p234p1s1s", "seat_wind": "S", "prevalent_wind": "W"}
    assert wait.discard == answer_request({**base, "discarder": "N"})
    assert wait.self_drawn == answer_request({**base, "win": "self_drawn"})
    assert wait.discard["payouts"]["N"] == -(8 + wait.discard["total"])


def tile_wind(code: str):
    from scoring.tiles import tile

    return tile(code)


def test_copies_seen_or_held_are_not_unseen_and_the_last_one_is_last_of_its_kind():
    held = parse_held("[333m,1]12m456p789p55s")  # waits on 3m (edge): three copies in the pung
    (wait,) = ready_waits(held).waits
    assert wait.unseen == 1 and "Last Tile" in {f["en"] for f in wait.discard["fans"]}
    (wait,) = ready_waits(parse_held("12m456p789p123s55s"), seen=parse_tiles("3m 3m")).waits
    assert wait.unseen == 2 and wait.discard["situation"]["last_of_kind"] is False
    (wait,) = ready_waits(parse_held("12m456p789p123s55s"), seen=parse_tiles("333m")).waits
    assert wait.unseen == 1 and wait.discard["situation"]["last_of_kind"] is True
    assert wait.discard["fan_points"] == ready_waits(parse_held("12m456p789p123s55s")).waits[0].discard[
        "fan_points"] + 4


def test_a_wait_under_eight_is_listed_but_leaves_no_tile_to_win_on():
    found = ready_waits(parse_held("12m456p789p123s55s"))  # Edge Wait, All Chows...: 7 points
    assert found.ready and not found.waits[0].discard["is_win"] and found.waits[0].self_drawn["is_win"]
    assert found.winning_tiles == 4  # self-drawn reaches 8 (Fully Concealed Hand)
    assert ready_waits(parse_held("[234m,1][678p,1][345s,1]67s99p")).winning_tiles == 0


@pytest.mark.parametrize(("notation", "shanten"), [
    ("123456789m1p1s33s", 1),
    ("13579m2468p1357s", 4),
    ("1111m234p567p789s", 1),  # the only tile it waits on is a fifth 1m: not ready
])
def test_not_ready_gives_the_shanten_number(notation, shanten):
    found = ready_waits(parse_held(notation))
    assert (found.ready, found.shanten, found.waits) == (False, shanten, ())
    assert answer_waits({"hand": notation}) == {"ready": False, "shanten": shanten, "waits": []}


def test_fourteen_tiles_list_each_discard_best_first_the_discard_counted_as_seen():
    options = best_discards(parse_held("11123455678999m"))
    best = options[0]
    assert best.tile.code == "5m" and len(best.waits.waits) == 9  # Nine Gates
    assert best.waits.winning_tiles == 22  # 1+3+3+3+2+3+3+3+1: the discarded 5m is gone
    assert [o.waits.winning_tiles for o in options] == sorted((o.waits.winning_tiles for o in options), reverse=True)
    answer = answer_waits({"hand": "11123455678999m", "seen": "9m"})
    assert answer["shanten"] == -1 and answer["discards"][0]["winning_tiles"] == 21


def test_the_json_answer_has_exactly_the_documented_fields():
    answer = answer_waits({"hand": "23m456p789p123s55s", "seat_wind": "S", "seen": ["1m"]})
    assert set(answer) == {"ready", "shanten", "waits"}
    assert [set(w) for w in answer["waits"]] == [{"tile", "kind", "unseen", "discard", "self_drawn"}] * 2
    assert [w["unseen"] for w in answer["waits"]] == [3, 4]
    assert answer["waits"][0]["discard"]["situation"]["seat_wind"] == "S"


@pytest.mark.parametrize(("request_", "problem"), [
    ({"hand": "123456789m23p55s", "win": "discard"}, "unknown request field(s): win"),
    ({"hand": "123456789m23p"}, "expected 13 or 14"),
    ({"hand": "123456789m23p55s", "seen": "5s5s5s"}, "3 copies of 5s seen and 2 held"),
    ({"hand": "123456789m23p55s", "seen": "[123m]"}, "without brackets"),
    ({"hand": "123456789m23p55s", "seen": ["1f"]}, "playable tiles only"),
    ({"hand": "123456789m23p55s", "seen": 5}, "seen must be"),
    ({"hand": {"concealed": ["1m"] * 5, "melds": []}}, "expected 13 or 14"),
    ({"seen": "1m"}, "no hand"),
])
def test_bad_requests_are_named(request_, problem):
    with pytest.raises(HandError) as raised:
        answer_waits(request_)
    assert problem in str(raised.value)


def test_the_hand_json_form_with_a_winning_tile_counts_it_as_held():
    json_hand = parse_held("123456789m23p55s").to_json() | {"win_tile": "5s"}
    assert answer_waits({"hand": json_hand}) == answer_waits({"hand": "123456789m23p555s"})
