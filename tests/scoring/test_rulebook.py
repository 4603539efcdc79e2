"""Rulebook cases: the worked examples of seed 000 and the "not counted" clauses of seed 004.

Each row is a whole expected result {fan id: count} (flowers left out), so a fan that should have
been excluded, or one that went missing, fails the row.
"""

import pytest

from scoring import ScoreError, Situation, parse_hand, score
from scoring.tiles import tile
from tests.scoring.conftest import situation


def test_seed_000_pure_straight_half_flush_dragon_pung_is_24():
    result = score(parse_hand("[CCC,1]12345789sEE6s"))
    assert {f.id: f.count for f in result.fans} == {28: 1, 49: 1, 59: 1}
    assert (result.fan_points, result.is_win) == (24, True)


def test_seed_000_five_point_hand_cannot_win():
    result = score(parse_hand("123456m234p55p67s8s"))
    assert {f.id: f.count for f in result.fans} == {62: 1, 63: 1, 71: 1}
    assert (result.fan_points, result.is_win, result.error) == (5, False, ScoreError.UNDER_EIGHT)
    assert result.payouts == {"E": -30, "S": 10, "W": 10, "N": 10}


def test_seed_000_chicken_hand_with_two_flowers_is_worth_10():
    result = score(parse_hand("26f[234m,1][678s,1][222p,1]56pNN7p"), Situation(discarder=tile("N")))
    assert [f.id for f in result.fans] == [43, 81]
    assert (result.fan_points, result.total, result.is_win) == (8, 10, True)
    assert result.payouts == {"E": 34, "S": -8, "W": -8, "N": -18}


def test_seed_000_self_drawn_chicken_is_one_point_and_flowers_do_not_rescue_it():
    hand = parse_hand("[234m,1][678s,1][222p,1]56pNN7p", flowers=3)
    result = score(hand, Situation(self_drawn=True))
    assert {f.id: f.count for f in result.fans} == {80: 1, 81: 3}
    assert (result.fan_points, result.total, result.is_win) == (1, 4, False)


# (name, hand, flags, expected fans) - checked against PyMahjongGB as well
EXCLUSIONS = [
    ("big_four_winds", "[EEE1][SSS1]WWWNNN1m1m", "", {1: 1, 18: 1, 49: 1, 66: 1, 79: 1}),
    ("big_three_dragons", "[CCC1][FFF1]PPP23m99s1m", "", {2: 1, 55: 1, 75: 1}),
    ("all_green_without_dragon_is_also_full_flush", "[234s1]666s888s222s4s4s", "", {3: 1, 22: 1, 33: 1, 64: 1, 68: 1}),
    ("nine_gates", "1112345678999m5m", "sd", {4: 1, 66: 1, 73: 1, 80: 1}),
    ("seven_shifted_pairs", "2233445566778p8p", "sd", {6: 1, 68: 1, 80: 1}),
    ("thirteen_orphans", "19m19p19sESWNCFPP", "sd", {7: 1, 80: 1}),
    ("all_terminals", "[111m1]999m111999p1s1s", "", {8: 1, 33: 1, 79: 1}),
    ("little_four_winds", "[EEE1][SSS1]WWWNN11m1m", "", {9: 1, 18: 1, 49: 1, 60: 1, 61: 1}),
    ("four_concealed_pungs_self_drawn", "111m222p333sEEE5s5s", "sd", {12: 1, 42: 1, 60: 1, 61: 1, 73: 1, 80: 1}),
    ("pure_straight", "[123m1]456789m111p9s9s", "", {28: 1, 73: 1, 76: 1, 79: 1}),
    ("triple_pung", "[222m1]222p222s456m9s9s", "", {32: 1, 66: 1, 76: 1, 79: 1}),
    ("all_fives", "[345m1]555p456s567m5s5s", "", {31: 1, 78: 1}),
    ("mixed_triple_chow", "[123m1]123p123s999m5p5p", "", {41: 1, 73: 1, 76: 1, 79: 1}),
    ("mixed_straight", "[123m1]456p789s111m9p9p", "", {39: 1, 64: 1, 73: 1, 76: 1, 79: 1}),
    ("fully_concealed_hand", "123m456p789s111p9s9s", "sd", {39: 1, 56: 1, 73: 1, 76: 1}),
    ("robbing_the_kong", "[234m1][678s1][222p1]56pNN7p", "robbing_kong", {47: 1}),
    ("last_tile_draw", "[234m1][678s1][222p1]56pNN7p", "sd last_wall_tile", {44: 1}),
    ("two_concealed_kongs", "[1111m][2222p]345s678m9s9s", "", {53: 1, 62: 1, 73: 1, 76: 1, 79: 1}),
    ("melded_hand", "[123m1][456p1][789s1][EEE1]5m5m", "", {39: 1, 52: 1, 60: 1, 61: 1}),
    ("dragon_pung", "[CCC1]123m456p789s9s9s", "", {39: 1, 59: 1}),
    ("four_chows_account_once", "[123m1][123m1]123p123p5s5s", "", {63: 1, 69: 2, 70: 1, 79: 1}),
    ("seat_and_prevalent_wind_same_pung", "[EEE1][111m1]CCC234p9s9s", "", {51: 1, 59: 1, 60: 1, 61: 1, 73: 1, 79: 1}),
    ("big_three_winds", "[EEE1][SSS1][WWW1]234p9s9s", "seat=S", {38: 1, 60: 1, 61: 1, 75: 1, 79: 1}),
]


@pytest.mark.parametrize(("name", "notation", "flags", "expected"), EXCLUSIONS, ids=[row[0] for row in EXCLUSIONS])
def test_seed_004_exclusions(name, notation, flags, expected):
    result = score(parse_hand(notation), situation(flags))
    assert {f.id: f.count for f in result.fans} == expected
