"""The `mcr score --jsonl` line put together from kept pieces (`scoring.request.answer_line`) is, byte for byte,
`json.dumps(answer_request(...), ensure_ascii=False)`: on random hands of every form, as notation and as Hand
JSON, with ids of every JSON type, and on requests that fail."""

from __future__ import annotations

import json
import random

import pytest

from models.measure.random_hands import random_hand
from models.measure.score_speed import request_of
from scoring.request import answer_line, answer_request

IDS = (7, -1, 2.5, 1e300, "ü✓\"\\\n", None, True, False, 2**70, "")


def _expected(request: object) -> str:
    return json.dumps(answer_request(request), ensure_ascii=False)


def test_random_requests_are_written_as_json_dumps_writes_them():
    rng = random.Random(45)
    for n in range(1500):
        hand, situation = random_hand(rng)
        request = request_of(hand, situation)
        if n % 3 == 0:
            request["hand"] = hand.to_json()
        if n % 4 == 0:
            request["id"] = IDS[n % len(IDS)]
        assert answer_line(request) == _expected(request)


@pytest.mark.parametrize("request_", [
    {"hand": "1112345678999m5m", "win": "self_drawn", "id": "nine gates"},  # many readings, one chosen
    {"hand": "19m19p19sESWNCFP1m"},  # thirteen orphans: no sets, the tiles as one
    {"hand": "[123m1]456p789s11sEE1s"},  # not a win
    {"hand": "[123m1]456p789s11sEEE", "flowers": ["1f", "5f"], "discarder": "N"},  # under 8
    {"hand": "11m", "id": 3},  # too few tiles: an error, its id echoed
    {"hand": "[123m]1p"},
    {"hand": "123456789m1234p4p", "win": "self_drawn", "discarder": "E"},
    {"hand": "123456789m1234p4p", "last_of_kind": 1},  # 1 is not true
    {"hand": "123456789m1234p4p", "seat_wind": ["E"]},
    {"hand": 5},
    {"id": {"x": 1}, "hand": "1m"},
    [1, 2],
])
def test_special_and_failing_requests_are_written_as_json_dumps_writes_them(request_):
    assert answer_line(request_) == _expected(request_)
