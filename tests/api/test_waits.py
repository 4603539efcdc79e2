"""`mcr waits` and POST /v1/waits: the same answer as `scoring.waits.answer_waits`, a readable table, and a
named refusal for bad input."""

from __future__ import annotations

import json

import pytest

from api.cli import main
from scoring.waits import answer_waits

READY = "123456789m23p55s"


def test_cli_json_is_the_waits_answer(capsys):
    assert main(["waits", READY, "--json", "--seat", "S", "--seen", "1p1p"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == answer_waits({"hand": READY, "seat_wind": "S", "seen": "1p1p"})
    assert [(w["tile"], w["unseen"]) for w in printed["waits"]] == [("1p", 2), ("4p", 4)]


def test_cli_table_shows_each_wait_and_its_values(capsys):
    assert main(["waits", READY]) == 0
    out = capsys.readouterr().out
    answer = answer_waits({"hand": READY})
    assert "Ready 听牌: 2 winning tile(s), 8 copies unseen" in out
    first = answer["waits"][0]
    assert f"1p    two sided             4   {first['discard']['total']}" in out


def test_cli_fourteen_tiles_show_the_best_discards(capsys):
    assert main(["waits", "11123455678999m", "--top", "1"]) == 0
    out = capsys.readouterr().out
    assert "complete hand" in out and "Discard 5m: 22 tile(s) left to win on" in out
    assert "Discard 2m" not in out  # only the best one asked for


def test_cli_not_ready_and_bad_hands(capsys):
    assert main(["waits", "13579m2468p1357s"]) == 0
    assert "Not ready: 4 tile(s) from ready" in capsys.readouterr().out
    assert main(["waits", "123m"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mcr waits: error:") and "expected 13 or 14" in err


def test_http_gives_the_same_answer(client):
    body = {"hand": READY, "seat_wind": "W", "prevalent_wind": "S", "seen": ["4p"], "flowers": 1}
    response = client.post("/v1/waits", json=body)
    assert response.status_code == 200
    assert response.json() == answer_waits(body)
    assert response.json()["waits"][0]["discard"]["total"] == response.json()["waits"][0]["discard"]["fan_points"] + 1


def test_http_fourteen_tiles(client):
    answer = client.post("/v1/waits", json={"hand": "11123455678999m"}).json()
    assert answer == answer_waits({"hand": "11123455678999m"})
    assert answer["discards"][0]["tile"] == "5m"


@pytest.mark.parametrize(("body", "code", "names"), [
    ({"hand": "123m"}, "impossible_hand", "expected 13 or 14"),
    ({"hand": READY, "win": "discard"}, "invalid_request", "win"),
    ({"hand": READY, "seen": "5s5s5s"}, "impossible_hand", "copies of 5s"),
    ({"hand": READY, "seen": "9q"}, "bad_notation", "no suit letter"),
    ({"hand": {"concealed": ["1q"]}}, "unknown_tile", "'1q'"),
])
def test_http_refusals_name_the_problem(client, body, code, names):
    response = client.post("/v1/waits", json=body)
    assert response.status_code == 422
    assert response.json()["error"] == code and names in response.json()["detail"]


def test_openapi_documents_waits_with_examples(client):
    spec = client.get("/openapi.json").json()
    request = spec["components"]["schemas"]["WaitsRequest"]
    assert request["examples"][0]["hand"] == READY
    assert "/v1/waits" in spec["paths"]
