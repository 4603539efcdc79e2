from scoring.decompose import (
    HONORS_AND_KNITTED,
    KNITTED_STRAIGHT,
    SEVEN_PAIRS,
    SetKind,
    knitted_straight_readings,
    regular_splits,
    special_readings,
)
from scoring.tiles import PLAYABLE, tile


def counts(*codes_with_counts: tuple[str, int]) -> list[int]:
    out = [0] * 34
    for code, n in codes_with_counts:
        out[tile(code).index] += n
    return out


def shape(split) -> list[tuple[str, str]]:
    return sorted((g.kind.name, PLAYABLE[g.tile].code) for g in split)


def test_a_face_held_four_times_gives_each_reading_once():
    # 1111 22 33 444 678p: cutting 111 before or after a 123 must not list a reading twice.
    splits = regular_splits(counts(("1p", 4), ("2p", 2), ("3p", 2), ("4p", 3), ("6p", 1), ("7p", 1), ("8p", 1)))
    assert sorted(shape(s) for s in splits) == [
        [("CHOW", "1p"), ("CHOW", "1p"), ("CHOW", "6p"), ("PAIR", "1p"), ("PUNG", "4p")],
        [("CHOW", "1p"), ("CHOW", "2p"), ("CHOW", "6p"), ("PAIR", "4p"), ("PUNG", "1p")],
    ]


def test_an_incomplete_hand_has_no_regular_reading():
    assert regular_splits(counts(("1p", 3), ("2p", 1), ("5s", 2), ("E", 1), ("S", 1))) == []


def test_nine_gates_with_a_five_reads_one_way():
    splits = regular_splits(counts(("1m", 3), ("2m", 1), ("3m", 1), ("4m", 1), ("5m", 2), ("6m", 1), ("7m", 1),
                                   ("8m", 1), ("9m", 3)))
    assert [shape(s) for s in splits] == [
        [("CHOW", "2m"), ("CHOW", "6m"), ("PAIR", "5m"), ("PUNG", "1m"), ("PUNG", "9m")]
    ]


def test_seven_pairs_may_repeat_a_pair():
    readings = special_readings(counts(("1m", 4), ("3p", 2), ("5p", 2), ("7s", 2), ("E", 2), ("C", 2)), ())
    assert [r.form for r in readings] == [SEVEN_PAIRS]
    assert sum(1 for g in readings[0].groups if g.kind is SetKind.PAIR) == 7


def test_honors_and_knitted_needs_fourteen_different_tiles():
    lesser = counts(*[(c, 1) for c in ("1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "E", "S", "W", "N", "C", "F")])
    assert [r.form for r in special_readings(lesser, ())] == [HONORS_AND_KNITTED]
    lesser[tile("F").index] -= 1
    lesser[tile("1m").index] += 1
    assert special_readings(lesser, ()) == []


def test_knitted_straight_with_a_set_and_a_pair():
    hand = counts(*[(c, 1) for c in ("1m", "4m", "7m", "2p", "5p", "8p", "3s", "6s", "9s", "1s", "2s")], ("E", 2))
    hand[tile("3s").index] += 1
    readings = knitted_straight_readings(hand, ())
    assert [r.form for r in readings] == [KNITTED_STRAIGHT]
    assert sorted(g.kind.name for g in readings[0].groups) == ["CHOW", "KNITTED", "PAIR"]
