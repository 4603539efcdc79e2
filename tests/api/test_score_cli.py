"""`mcr score`: the readable table, --json, and the --jsonl stream contract."""

import io
import json

import pytest

from api.cli import main
from api.cli.jsonl import stream

WIN = "[567m,2][567s,3]567p234p1s1s"


def test_table_shows_fans_in_english_and_chinese_total_and_payouts(capsys):
    assert main(["score", WIN, "--round", "E", "--seat", "S"]) == 0
    out = capsys.readouterr().out
    assert "Mixed Triple Chow" in out and "三色三同顺" in out
    assert "total" in out and "12" in out
    assert "Payouts: E -20  S +36  W -8  N -8" in out
    assert "Reading (regular): 234p 567p 11s 567m* 567s*" in out


def test_json_has_the_result_and_the_situation(capsys):
    assert main(["score", WIN, "--json", "--self-drawn", "--flowers", "2"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and data["is_win"] and data["situation"]["win"] == "self_drawn"
    assert data["total"] == data["fan_points"] + 2


def test_false_win_is_shown_with_its_penalty(capsys):
    assert main(["score", "123456m234p55p67s8s"]) == 0
    out = capsys.readouterr().out
    assert "under 8" in out and "E -30  S +10  W +10  N +10" in out


def test_bad_hand_is_one_error_line(capsys):
    assert main(["score", "123m"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mcr score: error:") and "expected 13" in err and "Traceback" not in err


def test_contradictory_flags_are_one_error_line(capsys):
    assert main(["score", WIN, "--self-drawn", "--robbing-kong"]) == 2
    assert "cannot be self-drawn" in capsys.readouterr().err


def test_jsonl_answers_every_line_in_order_and_goes_on_after_bad_ones():
    lines = [
        json.dumps({"hand": WIN, "win": "self_drawn"}),
        "not json",
        json.dumps({"hand": "1m"}),
        "",
        json.dumps(["a list"]),
        json.dumps({"hand": WIN, "flowers": 1, "seat_wind": "S", "prevalent_wind": "S"}),
    ]
    out = io.StringIO()
    assert stream(io.StringIO("\n".join(lines) + "\n"), out) == 0
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, False, False, True]
    assert answers[1]["error"].startswith("line 2: not JSON")
    assert "expected 13" in answers[2]["error"]
    assert set(answers[0]) >= {"fans", "fan_points", "total", "is_win", "payouts", "reading"}
    assert answers[4]["total"] == answers[4]["fan_points"] + 1


def test_jsonl_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps({"hand": WIN}) + "\n"))
    assert main(["score", "--jsonl"]) == 0
    assert json.loads(capsys.readouterr().out)["fans"][0]["id"] == 41


@pytest.mark.parametrize("flowers", ["9", "-1", "two"])
def test_flower_count_out_of_range_is_a_usage_error(flowers, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["score", "[567m,2][567s,3]567p234p1s1s", "--flowers", flowers])
    assert exit_.value.code == 2
    assert f"{flowers!r} is not a flower count (0-8)" in capsys.readouterr().err


def test_jsonl_echoes_each_request_id_and_still_refuses_unknown_fields():
    lines = [
        json.dumps({"id": "table 3, hand 7", "hand": WIN}),
        json.dumps({"id": 12, "hand": "1m"}),
        json.dumps({"id": None, "hand": WIN, "win": "self_drawn"}),
        json.dumps({"id": [1, 2], "hand": WIN}),
        json.dumps({"id": 4.5, "hand": WIN, "colour": "red"}),
        json.dumps({"hand": WIN}),
    ]
    out = io.StringIO()
    stream(io.StringIO("\n".join(lines) + "\n"), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a.get("id", "absent") for a in answers] == ["table 3, hand 7", 12, None, "absent", 4.5, "absent"]
    assert [a["ok"] for a in answers] == [True, False, True, False, False, True]
    assert answers[0]["total"] == answers[5]["total"] and answers[2]["situation"]["win"] == "self_drawn"
    assert "id must be a JSON scalar" in answers[3]["error"]
    assert answers[4]["error"] == "unknown request field(s): colour"


def test_jsonl_on_workers_answers_as_one_process_does_in_order():
    """Batches cross the workers' boundary (`BATCH`), bad and blank lines keep their numbers."""
    from api.cli.jsonl import BATCH

    hands = [WIN, "1m", "[CCC,1]12345789sEE6s", "123456m234p55p67s8s"]
    lines = [json.dumps({"id": k, "hand": hands[k % 4], "win": "self_drawn" if k % 3 else "discard"}) for k in
             range(2 * BATCH + 37)]
    lines[5], lines[BATCH + 1], lines[-1] = "not json", "", "{"
    text = "\n".join(lines) + "\n"
    alone, pooled = io.StringIO(), io.StringIO()
    stream(io.StringIO(text), alone)
    assert stream(io.StringIO(text), pooled, workers=2) == 0
    assert pooled.getvalue() == alone.getvalue()
    answers = [json.loads(line) for line in pooled.getvalue().splitlines()]
    assert len(answers) == len(lines) - 1 and answers[-1]["error"].startswith(f"line {len(lines)}: not JSON")


def test_jsonl_on_workers_answers_each_line_before_the_next_is_written():
    """A client that waits for each answer before it writes the next request is answered at once."""
    import select
    import subprocess
    import sys

    process = subprocess.Popen([sys.executable, "-m", "api.cli", "score", "--jsonl", "--workers", "2"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        for k in range(3):
            process.stdin.write(json.dumps({"id": k, "hand": WIN}) + "\n")
            process.stdin.flush()
            assert select.select([process.stdout], [], [], 30)[0], f"no answer to request {k}"
            assert json.loads(process.stdout.readline())["id"] == k
        process.stdin.close()
        assert process.wait(30) == 0
    finally:
        process.kill()


def test_workers_go_with_a_stream(capsys):
    assert main(["score", WIN, "--workers", "2"]) == 2
    assert "give it with --jsonl" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["score", "--jsonl", "--workers", "0"])
    assert "'0' is not a number of workers (1-64)" in capsys.readouterr().err


def test_jsonl_on_workers_answers_the_lines_before_a_read_error_then_raises_it():
    """As one process does: a stream whose reading fails (bytes not in its encoding, past the first lines read) is
    answered up to there, then the error is raised."""
    good = "".join(json.dumps({"id": k, "hand": WIN}) + "\n" for k in range(400)).encode()
    raw = good + b"\xff\n" + good
    outs = []
    for workers in (1, 2):
        out = io.StringIO()
        with pytest.raises(UnicodeDecodeError):
            stream(io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8", errors="strict"), out, workers=workers)
        outs.append(out.getvalue())
    assert outs[0] == outs[1] and outs[0].count("\n") >= 100
