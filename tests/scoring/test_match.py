"""The match sheet: seats by the MIL rules, the payouts of each kind of entry, a whole 16-hand match whose
standings are worked out by hand here, shared table points, undo, and the refusals."""

from __future__ import annotations

import pytest

from scoring.match import (
    MATCH_HANDS,
    SEATING,
    Entry,
    EntryKind,
    Match,
    MatchError,
    prevalent_wind,
    seat_winds,
    win_entry,
)
from scoring.match_files import match_from_csv, match_from_json, match_to_csv, sheet_json

A, B, C, D = range(4)
PLAYERS = ("Ann", "Bo", "Cy", "Di")
WIN = "[567m,2][567s,3]567p234p1s1s"  # 12 points won by East in the East round: Mixed Triple Chow, ...


def test_seats_change_before_rounds_two_three_and_four_as_the_rules_say():
    east, south, west, north = range(4)
    first = SEATING[0]
    second = SEATING[1]  # East and South swap, West and North swap
    assert (second[east], second[south], second[west], second[north]) == (first[south], first[east],
                                                                          first[north], first[west])
    third = SEATING[2]  # East and South to the opposite seats, West to South's seat, North to East's
    assert (third[west], third[north], third[south], third[east]) == (second[east], second[south],
                                                                      second[west], second[north])
    fourth = SEATING[3]
    assert (fourth[east], fourth[south], fourth[west], fourth[north]) == (third[south], third[east],
                                                                          third[north], third[west])
    for player in range(4):  # each player sits in every seat once
        assert sorted(seating.index(player) for seating in SEATING) == [0, 1, 2, 3]


def test_the_deal_passes_every_hand_and_each_player_deals_once_a_round():
    for hand in range(MATCH_HANDS):
        assert sorted(w.code for w in seat_winds(hand)) == ["E", "N", "S", "W"]
        assert prevalent_wind(hand).code == "ESWN"[hand // 4]
    for start in range(0, MATCH_HANDS, 4):
        dealers = [[w.code for w in seat_winds(h)].index("E") for h in range(start, start + 4)]
        assert sorted(dealers) == [A, B, C, D]
    assert [w.code for w in seat_winds(1)] == ["N", "E", "S", "W"]  # South of hand 1 deals hand 2


def points(match: Match, winner: int, discarder: int | None, value: int) -> Match:
    return match.add(win_entry(match, winner, discarder, value=value))


def draw(match: Match) -> Match:
    return match.add(Entry(EntryKind.DRAW))


def test_a_whole_match_and_its_standings_worked_out_by_hand():
    m = Match(PLAYERS, name="final table 1")
    m = m.add(win_entry(m, A, C, hand=WIN))  # hand 1: A (E) on C's discard, 12: A +36, C -20, B and D -8
    assert m.rows()[-1].deltas == (36, -8, -20, -8)
    m = points(m, B, None, 10)  # 2: B self-drawn 10: +54, each -18
    m = draw(m)  # 3
    m = m.add(Entry(EntryKind.FALSE_WIN, D))  # in hand 4: D -30, the others +10; the hand goes on
    m = points(m, C, A, 24)  # 4: C +48, A -32, B and D -8
    m = points(m, A, None, 8)  # 5: A +48, each -16
    m = m.add(Entry(EntryKind.PENALTY, B, value=10, reason="slow play"))  # in hand 6: B -10, to no one
    m = draw(m)  # 6
    m = points(m, D, B, 16)  # 7: D +40, B -24, A and C -8
    m = points(m, C, D, 8)  # 8: C +32, D -16, A and B -8
    m = draw(m)  # 9
    m = points(m, A, None, 12)  # 10: A +60, each -20
    m = points(m, B, A, 8)  # 11: B +32, A -16, C and D -8
    m = draw(m)  # 12
    m = points(m, C, B, 32)  # 13: C +56, B -40, A and D -8
    m = draw(m)  # 14
    m = points(m, D, None, 8)  # 15: D +48, each -16
    assert not m.is_over
    m = points(m, A, D, 8)  # 16: A +32, D -16, B and C -8
    assert m.is_over and m.hands_played == 16 and len(m.entries) == 18
    # A: 36 -18 +10 -32 +48 -8 -8 +60 -16 -8 -16 +32 = 80
    # B: -8 +54 +10 -8 -16 -10 -24 -8 -20 +32 -40 -16 -8 = -62
    # C: -20 -18 +10 +48 -16 -8 +32 -20 -8 +56 -16 -8 = 32
    # D: -8 -18 -30 -8 -16 +40 -16 -20 -8 -8 +48 -16 = -60
    assert m.totals() == (80, -62, 32, -60)
    standings = [(s.name, s.score, s.rank, s.table_points) for s in m.standings()]
    assert standings == [("Ann", 80, 1, 4), ("Cy", 32, 2, 2), ("Di", -60, 3, 1), ("Bo", -62, 4, 0)]
    rows = m.rows()
    assert [r.hand_number for r in rows] == [1, 2, 3, 4, 4, 5, 6, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
    assert rows[4].prevalent_wind.code == "E" and rows[5].prevalent_wind.code == "S"
    with pytest.raises(MatchError, match="the match is over"):
        draw(m)
    late = m.add(Entry(EntryKind.PENALTY, A, value=5, reason="phone at the table"))
    assert late.rows()[-1].hand_number == 16 and late.totals() == (75, -62, 32, -60)
    assert match_from_json(sheet_json(m)) == m and match_from_csv(match_to_csv(m), m.name) == m


def test_tied_players_share_the_table_points_of_their_places():
    m = Match(PLAYERS)
    m = m.add(Entry(EntryKind.PENALTY, C, value=5, reason="late"))
    m = m.add(Entry(EntryKind.PENALTY, D, value=5, reason="late"))
    assert [(s.name, s.rank, s.table_points) for s in m.standings()] == [
        ("Ann", 1, 3), ("Bo", 1, 3), ("Cy", 3, 0.5), ("Di", 3, 0.5)]
    m = m.add(Entry(EntryKind.PENALTY, D, value=1, reason="late again"))
    assert [s.table_points for s in m.standings()] == [3, 3, 1, 0]


def test_undo_takes_back_the_last_entry_only():
    m = points(Match(PLAYERS), A, B, 8)
    m2 = draw(m)
    assert m2.undo() == m and m2.undo().undo() == Match(PLAYERS)
    with pytest.raises(MatchError, match="nothing to undo"):
        Match(PLAYERS).undo()


@pytest.mark.parametrize(("entry", "problem"), [
    (Entry(EntryKind.WIN, A, B, 7, source="points"), "at least 8"),
    (Entry(EntryKind.WIN, A, A, 8, source="points"), "another player"),
    (Entry(EntryKind.WIN, 4, None, 8, source="points"), "player 0-3"),
    (Entry(EntryKind.WIN, A, None, 8), "source"),
    (Entry(EntryKind.WIN, A, B, 13, source="typed", hand=WIN), "is worth 12, not 13"),
    (Entry(EntryKind.WIN, A, B, 13, source="points", conditions=("last_wall_tile",)), "go with a hand"),
    (Entry(EntryKind.PENALTY, A, value=0, reason="x"), "positive"),
    (Entry(EntryKind.PENALTY, A, value=5, reason=" "), "needs a reason"),
    (Entry(EntryKind.DRAW, A), "a draw has no player"),
    (Entry(EntryKind.FALSE_WIN, A, value=10), "a false win has no value"),
])
def test_entries_the_sheet_refuses_are_named(entry, problem):
    with pytest.raises(MatchError, match=problem):
        Match(PLAYERS).add(entry)


def test_a_typed_hand_that_is_not_a_win_is_refused_and_the_hand_scored_in_its_seat():
    m = Match(PLAYERS)
    with pytest.raises(MatchError, match="not a win .*record a false win"):
        win_entry(m, A, B, hand="123456m234p55p67s8s")
    with pytest.raises(MatchError, match="the winning hand: .*expected 13"):
        win_entry(m, A, B, hand="123m")
    m = draw(draw(m))  # hand 3: B is North, in the East round
    entry = win_entry(m, B, None, hand="[EEE,1]123456789m5p5p")
    assert entry.value == win_entry(m, C, None, hand="[EEE,1]123456789m5p5p").value - 2  # C is East: seat wind


@pytest.mark.parametrize(("players", "problem"), [
    (("Ann", "Bo", "Cy"), "four players"), (("Ann", "Bo", "Cy", " "), "four players"),
    (("Ann", "bo", "Cy", "Bo"), "same name"),
])
def test_a_match_needs_four_different_names(players, problem):
    with pytest.raises(MatchError, match=problem):
        Match(players)


def test_a_sheet_edited_by_hand_says_where():
    m = points(points(Match(PLAYERS), A, B, 8), C, None, 8)
    text = match_to_csv(m).replace("32,-16,-8,-8", "32,-16,-8,-9")
    with pytest.raises(MatchError, match="line 2: the file says it paid"):
        match_from_csv(text)
    with pytest.raises(MatchError, match="line 3: 'Zed' is not one of the players"):
        match_from_csv(match_to_csv(m).replace("win,Cy,", "win,Zed,"))
    with pytest.raises(MatchError, match="not a match CSV"):
        match_from_csv("a,b\n1,2\n")
    data = sheet_json(m)
    data["rows"][1]["value"] = 9
    with pytest.raises(MatchError, match="row 2: the file says it paid"):
        match_from_json(data)
