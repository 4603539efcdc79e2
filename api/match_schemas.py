"""The wire shapes of ``/v1/matches``: the match sheet a referee keeps (``scoring.match``), with examples.

They mirror ``scoring.match_files.sheet_json`` field for field, the same JSON `mcr match show --json` and
`mcr match export --format json` print, so the page, the CLI and an exported file cannot drift apart.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from api.schemas import STRICT_JSON, Request, Wind

Condition = Literal["last_of_kind", "kong_replacement", "robbing_kong", "last_wall_tile"]
Player = int
PLAYERS_EXAMPLE = ["Ann", "Bo", "Cy", "Di"]


class MatchCreate(Request):
    """Four players, named in their first seats E, S, W, N."""

    model_config = ConfigDict(**STRICT_JSON, json_schema_extra={"examples": [
        {"players": PLAYERS_EXAMPLE, "name": "round 2, table 5"}]})

    players: list[str] = Field(min_length=4, max_length=4, description="names, in their first seats E S W N")
    name: str = Field("", description="what to call the match")


class EntryIn(Request):
    """One entry for the current hand. A win: ``player`` (the winner), ``discarder`` (null: self-drawn) and
    either ``value`` (points typed) or ``hand`` (notation, scored in the seat and round the sheet knows, with
    ``flowers`` and ``conditions``; ``source`` says whether it was typed or scanned). A draw: nothing else. A
    false win: ``player``. A penalty: ``player``, ``value`` (points taken) and ``reason``."""

    model_config = ConfigDict(**STRICT_JSON, json_schema_extra={"examples": [
        {"kind": "win", "player": 0, "discarder": 2, "hand": "[567m,2][567s,3]567p234p1s1s", "source": "typed"},
        {"kind": "win", "player": 1, "discarder": None, "value": 24},
        {"kind": "draw"},
        {"kind": "false_win", "player": 3},
        {"kind": "penalty", "player": 2, "value": 10, "reason": "slow play after a warning"}]})

    kind: Literal["win", "draw", "false_win", "penalty"]
    player: Player | None = Field(None, ge=0, le=3, description="0-3, in the order the match names them")
    discarder: Player | None = Field(None, ge=0, le=3, description="a win on a discard: who discarded")
    value: int | None = Field(None, description="a win typed by points: its value, flowers included; "
                              "a penalty: the points taken")
    hand: str | None = Field(None, description="a win scored from its tiles: hand notation")
    flowers: int | None = Field(None, ge=0, le=8, description="with hand: flowers drawn, if not in the notation")
    conditions: list[Condition] = Field([], description="with hand: the win conditions that held")
    source: Literal["typed", "scan"] | None = Field(None, description="with hand: typed (default) or scanned")
    reason: str | None = Field(None, description="a penalty's reason")


class SheetRow(BaseModel):
    number: int = Field(description="the entry's place on the sheet, from 1")
    hand_number: int = Field(description="the hand it belongs to, 1-16")
    prevalent_wind: Wind
    seat_winds: list[Wind] = Field(description="each player's seat wind in that hand")
    kind: Literal["win", "draw", "false_win", "penalty"]
    player: Player | None
    discarder: Player | None
    value: int | None
    reason: str | None
    source: Literal["points", "typed", "scan"] | None
    hand: str | None
    flowers: int | None
    conditions: list[Condition]
    request: dict[str, Any] | None = Field(description="a win scored from its tiles: the POST /v1/score request "
                                           "that scores it")
    deltas: list[int] = Field(description="what each player won (+) or paid (-)")
    totals: list[int] = Field(description="each player's total after it")


class NextHand(BaseModel):
    number: int = Field(examples=[5])
    prevalent_wind: Wind
    seat_winds: list[Wind]


class StandingOut(BaseModel):
    player: Player
    name: str
    score: int
    rank: int = Field(description="1 + the players with more points (tied players share a rank)")
    table_points: float = Field(description="4/2/1/0 by place, shared between tied players")


class Sheet(BaseModel):
    """A match sheet: `mcr match show --json`, and the file `mcr match export --format json` writes."""

    model_config = ConfigDict(json_schema_extra={"examples": [{
        "id": 1, "name": "round 2, table 5", "players": PLAYERS_EXAMPLE, "hands_played": 1, "over": False,
        "next_hand": {"number": 2, "prevalent_wind": "E", "seat_winds": ["N", "E", "S", "W"]},
        "rows": [{"number": 1, "hand_number": 1, "prevalent_wind": "E", "seat_winds": ["E", "S", "W", "N"],
                  "kind": "win", "player": 0, "discarder": 2, "value": 12, "reason": None, "source": "points",
                  "hand": None, "flowers": None, "conditions": [], "request": None,
                  "deltas": [36, -8, -20, -8], "totals": [36, -8, -20, -8]}],
        "standings": [{"player": 0, "name": "Ann", "score": 36, "rank": 1, "table_points": 4}]}]})

    id: int
    name: str
    players: list[str]
    hands_played: int
    over: bool
    next_hand: NextHand | None = Field(description="the hand the next win or draw ends; null once all 16 are played")
    rows: list[SheetRow]
    standings: list[StandingOut] = Field(description="best first")


class MatchSummary(BaseModel):
    id: int
    name: str
    players: list[str]
    entries: int
    created: str = Field(description="when the match was started, ISO 8601 UTC")


class MatchImport(Request):
    """An exported sheet to add as a new match: its JSON (`mcr match export`) or its CSV text."""

    model_config = ConfigDict(**STRICT_JSON, json_schema_extra={"examples": [
        {"name": "replayed", "csv": "number,hand_number,prevalent_wind,kind,player,discarder,value,source,hand,"
         "flowers,conditions,reason,Ann,Bo,Cy,Di\n1,1,E,draw,,,,,,,,,0,0,0,0\n"}]})

    name: str | None = Field(None, description="the new match's name (default: the file's)")
    sheet: dict[str, Any] | None = Field(None, description="the JSON export")
    csv: str | None = Field(None, description="the CSV export, as text")
