"""The SQLite ledger: matches kept across openings, one transaction per entry, and a process killed while it
writes loses no entry it had written (and leaves no half entry)."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from api.ledger_store import Ledger, LedgerError
from scoring.match import Entry, EntryKind, Match, win_entry

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = ("Ann", "Bo", "Cy", "Di")
WRITER = """
import sys
from api.ledger_store import Ledger
from scoring.match import Entry, EntryKind
ledger, match_id, n = Ledger(sys.argv[1]), int(sys.argv[2]), 0
while True:
    n += 1
    ledger.add(match_id, lambda m: Entry(EntryKind.PENALTY, n % 4, value=1, reason=f"entry {n}"))
    print(n, flush=True)
"""
HALF_WRITTEN = """
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("BEGIN IMMEDIATE")
db.execute("INSERT INTO entries (match_id, seq, entry) VALUES (?, 99, '{\\"kind\\": \\"draw\\"}')", (int(sys.argv[2]),))
print("inside", flush=True)
time.sleep(120)
"""


def test_matches_and_entries_outlive_the_ledger_object(tmp_path):
    path = tmp_path / "sub" / "ledger.sqlite3"
    ledger = Ledger(path)
    first = ledger.create(Match(PLAYERS, name="table 1"))
    second = ledger.create(Match(("W", "X", "Y", "Z")))
    ledger.add(first, lambda m: win_entry(m, 0, 2, hand="[567m,2][567s,3]567p234p1s1s"))
    ledger.add(first, lambda m: Entry(EntryKind.DRAW))
    reopened = Ledger(path)
    match = reopened.load(first)
    assert match.name == "table 1" and match.hands_played == 2 and match.totals() == (36, -8, -20, -8)
    assert reopened.latest() == second
    assert [(s.id, s.entries) for s in reopened.summaries()] == [(second, 0), (first, 2)]
    assert reopened.undo(first).hands_played == 1 and Ledger(path).load(first).hands_played == 1


def test_a_refused_entry_writes_nothing_and_names_the_problem(tmp_path):
    ledger = Ledger(tmp_path / "l.sqlite3")
    match_id = ledger.create(Match(PLAYERS))
    with pytest.raises(ValueError, match="at least 8"):
        ledger.add(match_id, lambda m: win_entry(m, 0, 1, value=5))
    assert ledger.load(match_id).entries == ()
    with pytest.raises(LedgerError, match="no match 99"):
        ledger.load(99)
    with pytest.raises(LedgerError, match="no match in .* yet"):
        Ledger(tmp_path / "empty.sqlite3").latest()


def test_a_file_that_is_not_a_ledger_is_named(tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database " * 100)
    with pytest.raises(LedgerError, match="notes.txt"):
        Ledger(bad)
    with pytest.raises(LedgerError, match="is a folder"):
        Ledger(tmp_path)


def _writer(script: str, path: Path, match_id: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script, str(path), str(match_id)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)


@pytest.mark.parametrize("acknowledged", [3, 17, 40])
def test_a_writer_killed_mid_write_loses_no_written_entry(tmp_path, acknowledged):
    path = tmp_path / "ledger.sqlite3"
    match_id = Ledger(path).create(Match(PLAYERS))
    writer = _writer(WRITER, path, match_id)
    for _ in range(acknowledged):  # each line: one more entry committed
        assert writer.stdout.readline().strip()
    writer.send_signal(signal.SIGKILL)  # the writer is in its next transaction, or between two
    writer.wait()
    writer.stdout.close()
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    match = Ledger(path).load(match_id)
    assert acknowledged <= len(match.entries) <= acknowledged + 2
    assert [e.reason for e in match.entries] == [f"entry {n}" for n in range(1, len(match.entries) + 1)]
    assert Ledger(path).add(match_id, lambda m: Entry(EntryKind.DRAW)).hands_played == 1


def test_a_half_written_entry_is_rolled_back_when_its_writer_dies(tmp_path):
    path = tmp_path / "ledger.sqlite3"
    ledger = Ledger(path)
    match_id = ledger.create(Match(PLAYERS))
    ledger.add(match_id, lambda m: Entry(EntryKind.PENALTY, 1, value=5, reason="kept"))
    writer = _writer(HALF_WRITTEN, path, match_id)
    assert writer.stdout.readline().strip() == "inside"  # its transaction holds the write lock, uncommitted
    writer.send_signal(signal.SIGKILL)
    writer.wait()
    writer.stdout.close()
    match = Ledger(path).load(match_id)
    assert [e.reason for e in match.entries] == ["kept"]
    assert ledger.add(match_id, lambda m: Entry(EntryKind.DRAW)).hands_played == 1
