"""POST /v1/score: the same answer as `mcr score --json`, and a named 422 for every kind of bad input."""

from __future__ import annotations

import pytest

from scoring.request import answer_request

WIN = "[567m,2][567s,3]567p234p1s1s"  # Mixed Triple Chow: a win


def test_notation_scores_like_the_cli(client):
    request = {"hand": WIN, "win": "self_drawn", "seat_wind": "S", "flowers": 2}
    response = client.post("/v1/score", json=request)
    assert response.status_code == 200
    assert response.json() == answer_request(request, raise_errors=True)
    body = response.json()
    assert body["is_win"] and body["total"] == body["fan_points"] + 2
    assert body["payouts"]["S"] == -sum(v for seat, v in body["payouts"].items() if seat != "S") > 0


def test_structured_hand_gives_the_same_score_as_its_notation(client):
    from scoring import parse_hand

    structured = client.post("/v1/score", json={"hand": parse_hand(WIN).to_json()}).json()
    assert structured == client.post("/v1/score", json={"hand": WIN}).json()


def test_situation_changes_the_score(client):
    discard = client.post("/v1/score", json={"hand": WIN}).json()
    drawn = client.post("/v1/score", json={"hand": WIN, "win": "self_drawn"}).json()
    assert drawn["total"] == discard["total"] + 1  # Self-Drawn is worth 1
    assert "Self-Drawn" in {f["en"] for f in drawn["fans"]} - {f["en"] for f in discard["fans"]}


@pytest.mark.parametrize("request_id", ["table 3", 7, 2.5, True, None])
def test_an_id_is_echoed_as_mcr_score_jsonl_echoes_it(client, request_id):
    request = {"id": request_id, "hand": WIN}
    body = client.post("/v1/score", json=request).json()
    assert body == answer_request(request) and body["id"] == request_id
    assert "id" not in client.post("/v1/score", json={"hand": WIN}).json()


def test_a_false_win_is_a_result_not_an_error(client):
    body = client.post("/v1/score", json={"hand": "123456789m1234p5p"}).json()
    assert (body["is_win"], body["error"]) == (False, "not_a_win")
    assert body["payouts"]["E"] == -30


@pytest.mark.parametrize(("request_body", "code", "names"), [
    ({"hand": "[567m,2]#"}, "bad_notation", "'#'"),
    ({"hand": "11112m"}, "impossible_hand", "standing tiles"),
    ({"hand": "11111m23456789p1s"}, "impossible_hand", "copies of 1m"),
    ({"hand": {"concealed": ["1q"], "win_tile": "1m"}}, "unknown_tile", "'1q'"),
    ({"hand": {"concealed": [], "win_tile": "1m", "melds": [{"kind": "chow", "tiles": ["1m", "3m", "5m"]}]}},
     "impossible_hand", "consecutive"),
    ({"hand": WIN, "seat_wind": "Q"}, "invalid_request", "seat_wind"),
    ({"hand": WIN, "win": "stolen"}, "invalid_request", "win"),
    ({"hand": WIN, "flowers": 9}, "impossible_hand", "flower count 9"),
    ({"hand": WIN, "flowers": True}, "invalid_request", "flowers"),  # as `mcr score --jsonl`: no coercion
    ({"hand": WIN, "flowers": 2.0}, "invalid_request", "flowers"),
    ({"hand": WIN, "last_of_kind": "yes"}, "invalid_request", "last_of_kind"),
    ({"hand": WIN, "robbing_kong": 1}, "invalid_request", "robbing_kong"),
    ({"hand": WIN, "win": "self_drawn", "robbing_kong": True}, "bad_situation", "robbing the kong"),
    ({"hand": WIN, "kong_replacement": True, "win": "self_drawn"}, "bad_situation", "kong"),
    ({"hand": WIN, "colour": "red"}, "invalid_request", "colour"),
    ({"hand": WIN, "id": {"table": 3}}, "invalid_request", "id"),
    ({"hand": {"concealed": [], "win_tile": "1m", "extra": 1}}, "invalid_request", "hand"),
    ({"situation": {}}, "invalid_request", "hand"),
])
def test_bad_requests_get_a_422_naming_the_problem(client, request_body, code, names):
    response = client.post("/v1/score", json=request_body)
    assert response.status_code == 422
    assert response.json()["error"] == code
    assert names in response.json()["detail"]


def test_a_body_that_is_not_json_is_a_422(client):
    response = client.post("/v1/score", content=b"{not json", headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert response.json()["error"] == "invalid_request"
