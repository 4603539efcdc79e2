"""Differential test against PyMahjongGB on seeded random winning hands (models/measure/differential.py
runs the 100,000-hand version). Every shape, melds, kongs of every kind, flowers and win conditions
come up; see random_hands.py."""

from collections import Counter

from models.measure.differential import disagreements
from models.measure.reference import reference_fans
from scoring import parse_hand, score
from scoring.fans import FAN_BY_ID
from tests.scoring.conftest import situation


def test_four_thousand_random_hands_agree_fan_for_fan():
    assert [case[:2] for case in disagreements(4_000, seed=7)] == []


def test_the_one_known_difference_is_a_tie_of_equal_totals():
    # Two readings of 22 points: three concealed pungs + double pung (ours), or triple pung + two
    # concealed pungs (the reference). The rules ask only for the highest total.
    hand, flags = parse_hand("666m3334566p666s6p"), situation("seat=S round=W")
    ours = Counter({f.id: f.count for f in score(hand, flags).fans})
    theirs = reference_fans(hand, flags)
    assert ours == Counter({33: 1, 65: 1, 62: 1, 68: 1})
    assert theirs == Counter({32: 1, 66: 1, 62: 1, 68: 1})
    def points(fans: Counter) -> int:
        return sum(FAN_BY_ID[i].points * n for i, n in fans.items())

    assert points(ours) == points(theirs) == 22
