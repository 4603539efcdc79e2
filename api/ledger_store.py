"""Match sheets kept in an embedded SQLite file: one transaction per entry, so a crash loses nothing written.

The file (default ``default_path()``, under the user's data folder; ``mcr match --db``, ``MCR_LEDGER`` for the
service) holds the matches and their entries in order, each entry as the JSON of ``scoring.match_files``.
Every change runs in one ``BEGIN IMMEDIATE`` transaction that reads the sheet, checks the entry against it
(``Match.add``) and writes it: two phones at one table cannot interleave, and a process killed mid-write
leaves the file as it was before that entry (WAL journal, synchronous writes).
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from scoring.match import Entry, Match, MatchError
from scoring.match_files import entry_from_json, entry_json

FILE_NAME = "matches.sqlite3"
SCHEMA = (
    "CREATE TABLE IF NOT EXISTS matches (id INTEGER PRIMARY KEY, name TEXT NOT NULL, players TEXT NOT NULL, "
    "created TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS entries (match_id INTEGER NOT NULL REFERENCES matches(id), seq INTEGER NOT NULL, "
    "entry TEXT NOT NULL, PRIMARY KEY (match_id, seq))",
)


class LedgerError(ValueError):
    """A file that cannot be used as a ledger, or a match in it that cannot be read; the message names it."""


class MatchNotFound(LedgerError):
    """No match with that id in the ledger (or none at all)."""


@dataclass(frozen=True)
class MatchSummary:
    id: int
    name: str
    players: tuple[str, ...]
    entries: int
    created: str


def default_path() -> Path:
    """The ledger under the user's data folder: ``%LOCALAPPDATA%``, ``~/Library/Application Support`` or
    ``$XDG_DATA_HOME`` (``~/.local/share``), in a ``mcr-lens`` folder."""
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "mcr-lens" / FILE_NAME


class Ledger:
    """The matches in one SQLite file; a connection per call, so any thread may use it."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = Path(path) if path is not None else default_path()
        if self.path.is_dir():
            raise LedgerError(f"{self.path} is a folder: give the ledger a file name")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._transaction() as db:
            for statement in SCHEMA:
                db.execute(statement)

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, committed when the block ends, rolled back if it raises."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        except sqlite3.Error as exc:
            raise LedgerError(f"cannot open the ledger {self.path}: {exc}") from None
        with closing(db):
            try:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=FULL")
                db.execute("BEGIN IMMEDIATE")
            except sqlite3.DatabaseError as exc:
                raise LedgerError(f"{self.path} is not a usable ledger: {exc}") from None
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def create(self, match: Match) -> int:
        """Store a match (with any entries it has, as an import does) in one transaction; its id."""
        with self._transaction() as db:
            cursor = db.execute("INSERT INTO matches (name, players, created) VALUES (?, ?, ?)",
                                (match.name, json.dumps(match.players, ensure_ascii=False),
                                 datetime.now(timezone.utc).isoformat(timespec="seconds")))
            match_id = int(cursor.lastrowid or 0)
            db.executemany("INSERT INTO entries (match_id, seq, entry) VALUES (?, ?, ?)",
                           [(match_id, seq, _dump(e)) for seq, e in enumerate(match.entries, 1)])
        return match_id

    def load(self, match_id: int) -> Match:
        with self._transaction() as db:
            return _load(db, match_id)

    def add(self, match_id: int, make: Callable[[Match], Entry]) -> Match:
        """Add the entry ``make`` builds from the sheet as stored (checked by ``Match.add``); the new sheet."""
        with self._transaction() as db:
            match = _load(db, match_id)
            grown = match.add(make(match))
            db.execute("INSERT INTO entries (match_id, seq, entry) VALUES (?, ?, ?)",
                       (match_id, len(grown.entries), _dump(grown.entries[-1])))
        return grown

    def undo(self, match_id: int) -> Match:
        """Remove the last entry; the sheet without it."""
        with self._transaction() as db:
            shorter = _load(db, match_id).undo()
            db.execute("DELETE FROM entries WHERE match_id = ? AND seq = ?", (match_id, len(shorter.entries) + 1))
        return shorter

    def summaries(self) -> list[MatchSummary]:
        """Every match, the latest first."""
        with self._transaction() as db:
            rows = db.execute("SELECT m.id, m.name, m.players, m.created, COUNT(e.seq) FROM matches m "
                              "LEFT JOIN entries e ON e.match_id = m.id GROUP BY m.id ORDER BY m.id DESC").fetchall()
        return [MatchSummary(i, name, tuple(json.loads(players)), n, created) for i, name, players, created, n in rows]

    def latest(self) -> int:
        """The id of the match created last."""
        found = self.summaries()
        if not found:
            raise MatchNotFound(f"no match in {self.path} yet: start one with `mcr match new`")
        return found[0].id


def _dump(entry: Entry) -> str:
    return json.dumps(entry_json(entry), ensure_ascii=False)


def _load(db: sqlite3.Connection, match_id: int) -> Match:
    """The match as stored, its entries replayed through ``Match.add``."""
    found = db.execute("SELECT name, players FROM matches WHERE id = ?", (match_id,)).fetchone()
    if found is None:
        raise MatchNotFound(f"no match {match_id} in the ledger")
    match = Match(tuple(json.loads(found[1])), name=found[0])
    for seq, text in db.execute("SELECT seq, entry FROM entries WHERE match_id = ? ORDER BY seq", (match_id,)):
        try:
            match = match.add(entry_from_json(json.loads(text), f"entry {seq}"))
        except (MatchError, json.JSONDecodeError) as exc:
            raise LedgerError(f"match {match_id} in the ledger is damaged at entry {seq}: {exc}") from None
    return match
