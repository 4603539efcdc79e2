"""A match sheet as JSON and as CSV, and back: what `mcr match export`/``import`` and ``/v1/matches`` carry.

JSON (``sheet_json``): ``{"name", "players": [4 names], "hands_played", "over", "next_hand": {"number",
"prevalent_wind", "seat_winds"} | null, "rows": [...], "standings": [...]}``, each row an entry (``kind``,
``player``, ``discarder``, ``value``, ``reason``, ``source``, ``hand``, ``flowers``, ``conditions``; players by
index 0-3) with its place (``number``, ``hand_number``, ``prevalent_wind``, ``seat_winds``) and what it paid
(``deltas``, ``totals``, by player), with, for a win scored from its tiles, the `mcr score` ``request`` that
scores it. CSV: one line per entry, players by name, then one column of deltas per player. Reading either back replays the entries through ``Match.add`` (so every rule is checked again) and
refuses a file whose deltas are not what its entries pay: a sheet edited by hand says where it went wrong.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from scoring.match import (
    CONDITIONS,
    PLAYERS,
    Entry,
    EntryKind,
    Match,
    MatchError,
    Row,
    prevalent_wind,
    score_request,
    seat_winds,
)

ENTRY_FIELDS = ("kind", "player", "discarder", "value", "reason", "source", "hand", "flowers", "conditions")
CSV_COLUMNS = ("number", "hand_number", "prevalent_wind", "kind", "player", "discarder", "value", "source",
               "hand", "flowers", "conditions", "reason")


def entry_json(e: Entry) -> dict[str, Any]:
    return {"kind": e.kind.value, "player": e.player, "discarder": e.discarder, "value": e.value,
            "reason": e.reason, "source": e.source, "hand": e.hand, "flowers": e.flowers,
            "conditions": list(e.conditions)}


def row_json(row: Row) -> dict[str, Any]:
    scored = score_request(row.hand_number - 1, row.entry) if row.entry.hand else None
    return {"number": row.number, "hand_number": row.hand_number, "prevalent_wind": row.prevalent_wind.code,
            "seat_winds": [w.code for w in row.seat_winds], **entry_json(row.entry), "request": scored,
            "deltas": list(row.deltas), "totals": list(row.totals)}


def sheet_json(match: Match) -> dict[str, Any]:
    """The whole sheet: what the page shows and `mcr match export --format json` writes."""
    hand = match.hands_played
    upcoming = None if match.is_over else {"number": hand + 1, "prevalent_wind": prevalent_wind(hand).code,
                                           "seat_winds": [w.code for w in seat_winds(hand)]}
    return {"name": match.name, "players": list(match.players), "hands_played": hand, "over": match.is_over,
            "next_hand": upcoming, "rows": [row_json(r) for r in match.rows()],
            "standings": [{"player": s.player, "name": s.name, "score": s.score, "rank": s.rank,
                           "table_points": s.table_points} for s in match.standings()]}


def entry_from_json(data: Any, where: str) -> Entry:
    """An entry's fields (``ENTRY_FIELDS``; others, such as a row's place and deltas, are not read here)."""
    if not isinstance(data, dict):
        raise MatchError(f"{where}: an entry is a JSON object")
    try:
        kind = EntryKind(data.get("kind"))
    except ValueError:
        raise MatchError(f"{where}: kind must be one of {', '.join(k.value for k in EntryKind)}") from None
    conditions = data.get("conditions") or []
    if not isinstance(conditions, list) or not set(conditions) <= set(CONDITIONS):
        raise MatchError(f"{where}: conditions are a list of {', '.join(CONDITIONS)}")
    fields = {name: data.get(name) for name in ENTRY_FIELDS if name not in ("kind", "conditions")}
    return Entry(kind, conditions=tuple(conditions), **fields)


def match_from_json(data: Any, name: str | None = None) -> Match:
    """A sheet read back from its JSON (``sheet_json``, or just ``players`` and ``rows`` of entries)."""
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list):
        raise MatchError("a match file is a JSON object with players and rows")
    players = data.get("players")
    if not isinstance(players, list):
        raise MatchError("a match file names its four players")
    match = Match(tuple(players), name=name or str(data.get("name") or ""))
    for number, row in enumerate(data["rows"], 1):
        match = _replayed(match, entry_from_json(row, f"row {number}"), row.get("deltas"), f"row {number}")
    return match


def match_to_csv(match: Match) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS + match.players)
    names = {None: "", **dict(enumerate(match.players))}
    for row in match.rows():
        e = row.entry
        writer.writerow([row.number, row.hand_number, row.prevalent_wind.code, e.kind.value, names[e.player],
                         names[e.discarder], _cell(e.value), _cell(e.source), _cell(e.hand), _cell(e.flowers),
                         " ".join(e.conditions), _cell(e.reason), *row.deltas])
    return out.getvalue()


def match_from_csv(text: str, name: str = "") -> Match:
    """A sheet read back from ``match_to_csv``'s text (players by name, from the header's last four columns)."""
    lines = list(csv.reader(io.StringIO(text)))
    if not lines or tuple(lines[0][: len(CSV_COLUMNS)]) != CSV_COLUMNS or len(lines[0]) != len(CSV_COLUMNS) + PLAYERS:
        raise MatchError(f"not a match CSV: the header is {', '.join(CSV_COLUMNS)} and the four players' names")
    players = lines[0][len(CSV_COLUMNS):]
    match = Match(tuple(players), name=name)
    index = {p.strip().casefold(): i for i, p in enumerate(match.players)}
    for line_number, line in enumerate(lines[1:], 2):
        where = f"line {line_number}"
        if len(line) != len(lines[0]):
            raise MatchError(f"{where}: {len(line)} cells, the header has {len(lines[0])}")
        cells = dict(zip(CSV_COLUMNS, line))
        data = {"kind": cells["kind"], "reason": cells["reason"] or None, "source": cells["source"] or None,
                "hand": cells["hand"] or None, "conditions": cells["conditions"].split(),
                "player": _player(cells["player"], index, where), "discarder": _player(cells["discarder"], index, where),
                "value": _number(cells["value"], "value", where), "flowers": _number(cells["flowers"], "flowers", where)}
        deltas = [_number(cell, "a delta", where) for cell in line[len(CSV_COLUMNS):]]
        match = _replayed(match, entry_from_json(data, where), deltas, where)
    return match


def _replayed(match: Match, entry: Entry, deltas: Any, where: str) -> Match:
    try:
        match = match.add(entry)
    except MatchError as exc:
        raise MatchError(f"{where}: {exc}") from None
    paid = list(match.rows()[-1].deltas)
    if deltas is not None and list(deltas) != paid:
        raise MatchError(f"{where}: the file says it paid {list(deltas)}, its entry pays {paid}")
    return match


def _cell(value: Any) -> str:
    return "" if value is None else str(value)


def _player(cell: str, index: dict[str, int], where: str) -> int | None:
    if not cell.strip():
        return None
    if cell.strip().casefold() not in index:
        raise MatchError(f"{where}: {cell!r} is not one of the players")
    return index[cell.strip().casefold()]


def _number(cell: str, what: str, where: str) -> int | None:
    if not cell.strip():
        return None
    try:
        return int(cell)
    except ValueError:
        raise MatchError(f"{where}: {what} must be a whole number, not {cell!r}") from None
