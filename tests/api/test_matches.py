"""`mcr match` and /v1/matches: the sheet through the CLI and the HTTP API, in a ledger file of the test's own."""

from __future__ import annotations

import json

import pytest

from api.cli import main
from tests.api.conftest import make_client

PLAYERS = ["Ann", "Bo", "Cy", "Di"]
WIN = "[567m,2][567s,3]567p234p1s1s"  # 12 points for East in the East round


@pytest.fixture
def api(tmp_path):
    with make_client(ledger_path=tmp_path / "ledger.sqlite3") as client:
        yield client


def test_a_match_through_the_http_api(api):
    created = api.post("/v1/matches", json={"players": PLAYERS, "name": "table 5"})
    assert created.status_code == 201
    match_id = created.json()["id"]
    assert created.json()["next_hand"] == {"number": 1, "prevalent_wind": "E", "seat_winds": ["E", "S", "W", "N"]}
    url = f"/v1/matches/{match_id}/entries"
    sheet = api.post(url, json={"kind": "win", "player": 0, "discarder": 2, "hand": WIN}).json()
    assert sheet["rows"][0]["value"] == 12 and sheet["rows"][0]["deltas"] == [36, -8, -20, -8]
    request = sheet["rows"][0]["request"]
    assert api.post("/v1/score", json=request).json()["total"] == 12  # the row opens the hand that scored it
    api.post(url, json={"kind": "win", "player": 1, "discarder": None, "value": 10})
    api.post(url, json={"kind": "false_win", "player": 3})
    sheet = api.post(url, json={"kind": "penalty", "player": 2, "value": 5, "reason": "slow play"}).json()
    assert sheet["rows"][-1]["totals"] == [28, 56, -33, -56] and sheet["hands_played"] == 2
    assert [s["name"] for s in sheet["standings"]] == ["Bo", "Ann", "Cy", "Di"]
    undone = api.delete(f"{url}/last").json()
    assert len(undone["rows"]) == 3 and api.get(f"/v1/matches/{match_id}").json() == undone
    assert api.get("/v1/matches").json()[0]["id"] == match_id


def test_export_and_import_give_the_same_sheet(api):
    match_id = api.post("/v1/matches", json={"players": PLAYERS}).json()["id"]
    url = f"/v1/matches/{match_id}/entries"
    api.post(url, json={"kind": "win", "player": 0, "discarder": 1, "hand": WIN, "conditions": ["last_wall_tile"]})
    api.post(url, json={"kind": "draw"})
    exported = api.get(f"/v1/matches/{match_id}/export", params={"format": "csv"})
    assert exported.headers["content-type"].startswith("text/csv")
    assert 'filename="match-' in exported.headers["content-disposition"]
    copy = api.post("/v1/matches/import", json={"csv": exported.text, "name": "copy"}).json()
    original = api.get(f"/v1/matches/{match_id}").json()
    assert copy["rows"] == original["rows"] and copy["name"] == "copy" and copy["id"] != match_id
    as_json = api.get(f"/v1/matches/{match_id}/export").json()
    assert api.post("/v1/matches/import", json={"sheet": as_json}).json()["rows"] == original["rows"]


@pytest.mark.parametrize(("entry", "code", "names"), [
    ({"kind": "win", "player": 0, "discarder": 1, "value": 7}, "bad_entry", "at least 8"),
    ({"kind": "win", "player": 0, "discarder": 0, "value": 8}, "bad_entry", "another player"),
    ({"kind": "win", "player": 0, "hand": "123456m234p55p67s8s"}, "bad_entry", "record a false win"),
    ({"kind": "win", "player": None, "hand": WIN}, "bad_entry", "winner must be a player"),
    ({"kind": "penalty", "player": 1, "value": 5}, "bad_entry", "needs a reason"),
    ({"kind": "draw", "player": 1}, "bad_entry", "a draw has no player"),
    ({"kind": "win", "player": 7, "value": 8}, "invalid_request", "player"),
    ({"kind": "tea"}, "invalid_request", "kind"),
])
def test_entries_the_sheet_cannot_take_are_named_and_not_written(api, entry, code, names):
    match_id = api.post("/v1/matches", json={"players": PLAYERS}).json()["id"]
    response = api.post(f"/v1/matches/{match_id}/entries", json=entry)
    assert response.status_code == 422
    assert response.json()["error"] == code and names in response.json()["detail"]
    assert api.get(f"/v1/matches/{match_id}").json()["rows"] == []


def test_missing_matches_and_bad_creations(api):
    assert api.get("/v1/matches/99").status_code == 404
    assert api.get("/v1/matches/99").json()["error"] == "no_match"
    assert api.delete("/v1/matches/99/entries/last").status_code == 404
    response = api.post("/v1/matches", json={"players": ["Ann", "ann", "Bo", "Cy"]})
    assert response.status_code == 422 and "same name" in response.json()["detail"]
    assert api.post("/v1/matches", json={"players": PLAYERS[:3]}).status_code == 422
    match_id = api.post("/v1/matches", json={"players": PLAYERS}).json()["id"]
    response = api.delete(f"/v1/matches/{match_id}/entries/last")
    assert response.status_code == 422 and "nothing to undo" in response.json()["detail"]
    response = api.post("/v1/matches/import", json={"csv": "a,b\n"})
    assert response.status_code == 422 and "not a match CSV" in response.json()["detail"]


def test_a_ledger_that_cannot_be_used_is_a_503(tmp_path):
    with make_client(ledger_path=tmp_path) as client:  # a folder
        response = client.get("/v1/matches")
    assert response.status_code == 503 and "is a folder" in response.json()["detail"]


def test_the_openapi_schema_has_the_match_routes_with_examples(api):
    spec = api.get("/openapi.json").json()
    assert {"/v1/matches", "/v1/matches/{match_id}/entries", "/v1/matches/import"} <= set(spec["paths"])
    assert spec["components"]["schemas"]["EntryIn"]["examples"][0]["kind"] == "win"


def test_the_cli_keeps_a_match_in_its_ledger(tmp_path, capsys):
    db = ["--db", str(tmp_path / "l.sqlite3")]
    assert main(["match", "new", *PLAYERS, "--name", "table 1", *db]) == 0
    assert main(["match", "win", "Ann", "--from", "cy", "--hand", WIN, *db]) == 0
    assert main(["match", "win", "2", "--points", "10", *db]) == 0
    assert main(["match", "false-win", "Di", *db]) == 0
    assert main(["match", "penalty", "Cy", "5", "--reason", "slow play", *db]) == 0
    out = capsys.readouterr().out
    assert "Ann wins 12 on Cy's discard (typed hand)" in out and "Cy: penalty 5 (slow play)" in out
    assert "Next: hand 3, E round; seats: Ann W, Bo N, Cy E, Di S" in out
    assert main(["match", "show", "--json", *db]) == 0
    sheet = json.loads(capsys.readouterr().out)
    assert sheet["rows"][-1]["totals"] == [28, 56, -33, -56]
    csv_file = tmp_path / "sheet.csv"
    assert main(["match", "export", "--format", "csv", "-o", str(csv_file), *db]) == 0
    assert main(["match", "undo", *db]) == 0
    assert main(["match", "import", str(csv_file), *db]) == 0
    capsys.readouterr()
    assert main(["match", "show", "--json", *db]) == 0
    imported = json.loads(capsys.readouterr().out)
    assert imported["rows"] == sheet["rows"] and imported["name"] == "sheet" and imported["id"] == 2
    assert main(["match", "show", "--json", "--match", "1", *db]) == 0
    assert len(json.loads(capsys.readouterr().out)["rows"]) == 3  # the undo


def test_cli_mistakes_are_one_error_line(tmp_path, capsys):
    db = ["--db", str(tmp_path / "l.sqlite3")]
    assert main(["match", "show", *db]) == 2
    assert "no match in" in capsys.readouterr().err
    main(["match", "new", *PLAYERS, *db])
    capsys.readouterr()
    assert main(["match", "win", "Zed", "--points", "8", *db]) == 2
    assert "'Zed' is not a player" in capsys.readouterr().err
    assert main(["match", "win", "Ann", "--hand", "123m", *db]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mcr match: error: the winning hand:") and "Traceback" not in err
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["match", "import", str(bad), *db]) == 2
    assert "is not JSON" in capsys.readouterr().err
