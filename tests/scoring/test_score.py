import random

import pytest

from models.measure.random_hands import random_hand
from scoring import (
    Hand,
    HandError,
    Meld,
    MeldKind,
    ScoreError,
    Situation,
    is_complete,
    parse_hand,
    score,
    winning_faces,
)
from scoring.decompose import waits
from scoring.request import read_request
from scoring.tiles import PLAYABLE, Tile, tile

WIN = "[567m,2][567s,3]567p234p1s1s"  # Mixed Triple Chow 8, All Chows 2, Short Straight 1, Single Wait 1


def test_discard_win_payouts_default_to_the_left_player_discarding():
    result = score(parse_hand(WIN), Situation(seat_wind=tile("S")))
    assert result.total == 12
    assert result.payouts == {"E": -20, "S": 36, "W": -8, "N": -8}


def test_named_discarder_pays():
    result = score(parse_hand(WIN), Situation(seat_wind=tile("S"), discarder=tile("N")))
    assert result.payouts == {"E": -8, "S": 36, "W": -8, "N": -20}


def test_self_drawn_each_other_seat_pays_eight_plus_value_with_flowers():
    result = score(parse_hand(WIN, flowers=2), Situation(self_drawn=True, seat_wind=tile("W")))
    assert (result.fan_points, result.total) == (13, 15)
    assert result.payouts == {"E": -23, "S": -23, "W": 69, "N": -23}


def test_incomplete_hand_is_a_false_win_not_an_exception():
    result = score(parse_hand("123m456p789s11pEE1s"), Situation(seat_wind=tile("N")))
    assert (result.is_win, result.error, result.fans, result.form) == (False, ScoreError.NOT_A_WIN, (), None)
    assert result.payouts == {"E": 10, "S": 10, "W": 10, "N": -30}


def test_is_complete_tells_what_score_tells_without_scoring_fans():
    rng = random.Random(7)
    wins = [random_hand(rng)[0] for _ in range(200)]  # regular, seven pairs, knitted, thirteen orphans...
    spoiled = []  # each hand won on another tile instead: mostly no win, now and then another wait
    for hand in wins:
        try:
            spoiled.append(Hand(hand.concealed, hand.melds, rng.choice(PLAYABLE), hand.flowers))
        except HandError:  # a fifth copy
            pass
    for hand in [*wins, *spoiled, parse_hand("123m456p789s11pEE1s"), parse_hand("19m19p19sESWNCFP1m")]:
        assert is_complete(hand) == (score(hand).error is not ScoreError.NOT_A_WIN), hand
    assert all(is_complete(h) for h in wins)
    assert 0 < sum(is_complete(h) for h in spoiled) < len(spoiled) / 2 and len(spoiled) > 150


def test_reading_lists_sets_and_how_they_score():
    result = score(parse_hand("[999s,3]123456789p5s5s"))
    assert result.form == "regular"
    sets = {(s.kind, s.tiles, s.concealed) for s in result.reading}
    assert sets == {("chow", "123p", True), ("chow", "456p", True), ("chow", "789p", True),
                    ("pair", "55s", True), ("pung", "999s", False)}


def test_a_pung_finished_by_a_discard_reads_as_melded():
    result = score(parse_hand("123m456p678s11p99s9s"))
    assert ("pung", "999s", False) in {(s.kind, s.tiles, s.concealed) for s in result.reading}


def test_explanation_names_the_sets_of_each_fan():
    lines = score(parse_hand(WIN)).explanation()
    assert "Mixed Triple Chow (三色三同顺) 8: 567m 567p 567s" in lines


def test_json_form_matches_the_public_contract():
    data = score(parse_hand(WIN)).to_json()
    assert set(data) == {"fans", "fan_points", "total", "is_win", "error", "payouts", "reading"}
    assert data["fans"][0] == {"id": 41, "en": "Mixed Triple Chow", "zh": "三色三同顺", "points": 8, "count": 1,
                               "evidence": ["567m 567p 567s"]}
    assert data["reading"]["form"] == "regular" and len(data["reading"]["sets"]) == 5


def test_highest_reading_wins_over_seven_pairs():
    # 1122334455667788 read as chows scores Pure Shifted/Pure Double Chows; as pairs it is shifted pairs (88).
    result = score(parse_hand("2233445566778p8p"))
    assert result.form == "seven_pairs" and result.fans[0].id == 6


def test_nine_gates_waits_on_all_nine():
    standing = [0] * 34
    for code, n in (("1m", 3), ("2m", 1), ("3m", 1), ("4m", 1), ("5m", 1), ("6m", 1), ("7m", 1), ("8m", 1), ("9m", 3)):
        standing[tile(code).index] = n
    assert waits(standing, 0) == list(range(9))


def test_thirteen_orphans_thirteen_sided_wait():
    standing = [0] * 34
    for code in ("1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "C", "F", "P"):
        standing[tile(code).index] = 1
    assert len(waits(standing, 0)) == 13


@pytest.mark.parametrize(
    ("request_", "problem"),
    [
        ({"hand": WIN, "win": "tsumo"}, "win must be"),
        ({"hand": WIN, "seat_wind": "X"}, "unknown tile"),
        ({"hand": WIN, "robbing_kong": "yes"}, "true or false"),
        ({"hand": WIN, "colour": "red"}, "unknown request field"),
        ({"win": "discard"}, "no hand"),
        ({"hand": 5}, "notation string or a Hand JSON"),
        ({"hand": WIN, "flowers": ["1f", "1f"]}, "appears 2 times"),
    ],
)
def test_bad_requests_are_named(request_, problem):
    with pytest.raises(ValueError, match=problem):
        read_request(request_)


def test_request_with_hand_json_and_flower_list():
    hand, situation = read_request({"hand": parse_hand(WIN).to_json(), "flowers": ["2f"], "win": "self_drawn"})
    assert hand.flower_count == 1 and situation.self_drawn


def test_a_discard_that_could_finish_a_chow_leaves_the_pung_concealed():
    result = score(parse_hand("123m456p789s11p99s9s"))
    assert ("pung", "999s", True) in {(s.kind, s.tiles, s.concealed) for s in result.reading}


def test_winning_faces_are_those_that_make_a_complete_hand() -> None:
    """`winning_faces` works the faces out from the standing tiles' waits; each must be a face whose hand is
    valid and complete by the scorer, and every such face must be listed (random near-complete hands, with
    melds, kongs, fifth copies and the special forms' tiles)."""
    rng = random.Random(3)
    listed = 0
    for _ in range(1500):
        melds: list[Meld] = []
        standing: list[Tile] = []
        open_sets = rng.randrange(5)
        for k in range(4):
            start = rng.randrange(27)
            run = tuple(PLAYABLE[start - start % 9 + min(start % 9, 6) + j] for j in range(3))
            same = (rng.choice(PLAYABLE),) * rng.choice([3, 3, 4])
            group = run if rng.random() < 0.5 else same
            if k < open_sets:
                kind = MeldKind.CHOW if group is run else MeldKind.KONG if len(group) == 4 else MeldKind.PUNG
                melds.append(Meld(kind, group))
            else:
                standing += group[:3]
        pair = rng.choice(PLAYABLE)
        standing += [pair, pair]
        standing.pop(rng.randrange(len(standing)))
        if rng.random() < 0.5:
            standing[rng.randrange(len(standing))] = rng.choice(PLAYABLE)
        if rng.random() < 0.15:  # the tiles of the special forms (orphans, honours, knitted ranks)
            standing, melds = [PLAYABLE[rng.choice([0, 8, 9, 17, 18, 26, *range(27, 34)])] for _ in range(13)], []

        def complete(face: Tile, standing: list[Tile] = standing, melds: tuple[Meld, ...] = tuple(melds)) -> bool:
            try:
                return is_complete(Hand(tuple(standing), melds, face))
            except HandError:
                return False

        expected = tuple(face for face in PLAYABLE if complete(face))
        assert winning_faces(standing, tuple(melds)) == expected, ([t.code for t in standing], melds)
        listed += bool(expected)
    assert listed > 300  # the hands drawn are near-complete often enough to test something
