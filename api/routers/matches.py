"""``/v1/matches``: the referee's match sheets in the ledger: start one, add entries, undo, export, import."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from fastapi.responses import Response

from api.deps import LedgerDep
from api.errors import ApiError
from api.match_schemas import EntryIn, MatchCreate, MatchImport, MatchSummary, Sheet
from api.schemas import Problem
from scoring.match import Entry, EntryKind, Match, win_entry
from scoring.match_files import match_from_csv, match_from_json, match_to_csv, sheet_json

router = APIRouter(prefix="/v1/matches", tags=["matches"])
PROBLEMS: dict[int | str, dict[str, Any]] = {
    404: {"model": Problem, "description": "no match with that id"},
    422: {"model": Problem, "description": "an entry the sheet cannot take (bad_entry), named"},
    503: {"model": Problem, "description": "the ledger file cannot be used"},
}


def _sheet(match_id: int, match: Match) -> dict[str, Any]:
    return {"id": match_id, **sheet_json(match)}


@router.post("", operation_id="create_match", status_code=201, response_model=Sheet, responses=PROBLEMS)
def create_match(body: MatchCreate, ledger: LedgerDep) -> dict[str, Any]:
    """Start a match: four players, named in their first seats E, S, W, N."""
    match = Match(tuple(body.players), name=body.name)
    return _sheet(ledger.create(match), match)


@router.get("", operation_id="list_matches", response_model=list[MatchSummary], responses=PROBLEMS)
def list_matches(ledger: LedgerDep) -> list[dict[str, Any]]:
    """Every match in the ledger, the latest first."""
    return [{"id": s.id, "name": s.name, "players": list(s.players), "entries": s.entries, "created": s.created}
            for s in ledger.summaries()]


@router.get("/{match_id}", operation_id="match", response_model=Sheet, responses=PROBLEMS)
def show_match(match_id: int, ledger: LedgerDep) -> dict[str, Any]:
    """The sheet: every entry with what it paid, the totals, the next hand's seats, the standings."""
    return _sheet(match_id, ledger.load(match_id))


@router.post("/{match_id}/entries", operation_id="add_entry", status_code=201, response_model=Sheet,
             responses=PROBLEMS)
def add_entry(match_id: int, body: EntryIn, ledger: LedgerDep) -> dict[str, Any]:
    """Add an entry to the current hand (written in one transaction); the sheet after it."""

    def make(match: Match) -> Entry:
        if body.kind == "win" and body.hand is not None:
            return win_entry(match, body.player, body.discarder, hand=body.hand, flowers=body.flowers,
                             conditions=tuple(body.conditions), source=body.source or "typed")
        if body.kind == "win":
            return win_entry(match, body.player, body.discarder, value=body.value)
        return Entry(EntryKind(body.kind), body.player, body.discarder, body.value, body.reason, body.source,
                     body.hand, body.flowers, tuple(body.conditions))

    return _sheet(match_id, ledger.add(match_id, make))


@router.delete("/{match_id}/entries/last", operation_id="undo_entry", response_model=Sheet, responses=PROBLEMS)
def undo_entry(match_id: int, ledger: LedgerDep) -> dict[str, Any]:
    """Take back the last entry; the sheet without it."""
    return _sheet(match_id, ledger.undo(match_id))


@router.get("/{match_id}/export", operation_id="export_match", responses={
    **PROBLEMS, 200: {"content": {"text/csv": {}, "application/json": {}},
                      "description": "the sheet as a file: JSON (the Sheet shape) or CSV"}})
def export_match(match_id: int, ledger: LedgerDep, format: Literal["json", "csv"] = "json") -> Response:
    """The sheet as a file to keep or to import again."""
    import json

    match = ledger.load(match_id)
    text = match_to_csv(match) if format == "csv" else json.dumps(_sheet(match_id, match), ensure_ascii=False,
                                                                   indent=2)
    media = "text/csv" if format == "csv" else "application/json"
    return Response(text, media_type=f"{media}; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="match-{match_id}.{format}"'})


@router.post("/import", operation_id="import_match", status_code=201, response_model=Sheet, responses=PROBLEMS)
def import_match(body: MatchImport, ledger: LedgerDep) -> dict[str, Any]:
    """Add an exported sheet (JSON or CSV) as a new match; every entry is checked again as it is replayed."""
    if (body.sheet is None) == (body.csv is None):
        raise ApiError(422, "invalid_request", "give the export as exactly one of sheet (JSON) or csv")
    match = match_from_csv(body.csv, body.name or "") if body.csv is not None else match_from_json(body.sheet,
                                                                                                     body.name)
    return _sheet(ledger.create(match), match)
