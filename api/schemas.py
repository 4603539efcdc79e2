"""The wire shapes of the HTTP API: one pydantic model per request and response, with examples.

Requests forbid unknown fields, so a typo is a 422 naming the field rather than a silently ignored
setting. They mirror the scorer's JSON contracts (``scoring.request``, ``Hand.to_json``,
``ScoreResult.to_json``) field for field, and are handed to those readers unchanged, so the HTTP API,
``mcr score --json`` and ``mcr scan --json`` cannot drift apart.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import UploadFile
from pydantic import BaseModel, ConfigDict, Field

Wind = Literal["E", "S", "W", "N"]
EXAMPLE_NOTATION = "[567m,2][567s,3]567p234p1s1s"


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


# JSON bodies are read as `mcr score --jsonl` reads them: no coercion ("yes" is not true, 2.0 not 2).
# Multipart forms (ScanForm, DetectForm) stay lax: every form value arrives as a string.
STRICT_JSON = ConfigDict(extra="forbid", strict=True)


class Seats(Request):
    """Where the hand is played: the player's seat wind, the round wind, who discards the winning tile."""

    seat_wind: Wind = Field("E", description="the winner's seat wind")
    prevalent_wind: Wind = Field("E", description="the round (prevalent) wind")
    discarder: Wind | None = Field(None, description="seat wind of the discarder (default: the winner's left)")


class Situation(Seats):
    """How the hand was won; every field optional (a discard win, East seat, East round)."""

    win: Literal["discard", "self_drawn"] = Field("discard", description="won on a discard or self-drawn")
    last_of_kind: bool = Field(False, description="the winning tile was the last of its kind (和绝张)")
    kong_replacement: bool = Field(False, description="out with a kong's replacement tile (杠上开花)")
    robbing_kong: bool = Field(False, description="won on a tile added to another player's kong (抢杠和)")
    last_wall_tile: bool = Field(False, description="won on the last tile of the wall (妙手回春 / 海底捞月)")

    def situation_fields(self) -> dict[str, Any]:
        """Just the situation, as the request fields `scoring.Situation.from_json` reads."""
        return self.model_dump(include=set(Situation.model_fields))


class MeldIn(Request):
    """A set on the table, as in the Hand JSON form."""

    model_config = ConfigDict(**STRICT_JSON, populate_by_name=True)

    kind: Literal["chow", "pung", "kong"]
    tiles: list[str] = Field(description="all tiles of the set; a chow in rank order", examples=[["5m", "6m", "7m"]])
    concealed: bool = Field(False, description="true only for a concealed kong")
    from_: int | None = Field(None, alias="from", description="claimed from 1 left, 2 opposite, 3 right")
    claimed: int | None = Field(None, description="chow only: index in tiles of the claimed tile")
    added: bool = Field(False, description="a kong made by adding a drawn tile to a claimed pung")


class HandIn(Request):
    """The Hand JSON form: standing tiles without the winning tile, melds, winning tile, flowers."""

    model_config = STRICT_JSON

    concealed: list[str] = Field(examples=[["1p", "1p", "2p", "3p", "4p", "5s", "5s"]])
    melds: list[MeldIn] = []
    win_tile: str = Field(examples=["5p"])
    flowers: list[str] | int = Field([], description="flower/season codes 1f-8f, or just how many")


class HandRequest(Request):
    """A hand in notation or the Hand JSON form, and optionally its flowers."""

    model_config = STRICT_JSON

    hand: str | HandIn = Field(description="hand notation (melds in brackets, last tile wins) or Hand JSON")
    flowers: int | list[str] | None = Field(None, description="flowers drawn: a count 0-8 or codes; "
                                            "replaces the flowers written in the hand")

    def to_request(self) -> dict[str, Any]:
        """The plain JSON request `scoring.request.read_request` reads."""
        return self.model_dump(by_alias=True, exclude_none=True)


RequestId = str | int | Annotated[float, Field(allow_inf_nan=False)] | bool | None  # JSON has no NaN to echo


class ScoreRequest(HandRequest, Situation):
    """A hand and the situation it was won in: the `mcr score --jsonl` request."""

    model_config = ConfigDict(**STRICT_JSON, json_schema_extra={"examples": [
        {"id": "table 3, hand 7", "hand": EXAMPLE_NOTATION, "win": "self_drawn", "seat_wind": "S",
         "prevalent_wind": "E"},
        {"hand": {"concealed": ["5p", "6p", "7p", "2p", "3p", "4p", "1s"], "win_tile": "1s",
                  "melds": [{"kind": "chow", "tiles": ["5m", "6m", "7m"], "from": 1, "claimed": 1},
                            {"kind": "chow", "tiles": ["5s", "6s", "7s"], "from": 1, "claimed": 2}]},
         "flowers": 2}]})

    id: RequestId = Field(None, description="any JSON scalar, echoed in the answer to pair it with this request")

    def to_request(self) -> dict[str, Any]:
        """As `HandRequest.to_request`, keeping an id given as null (it is echoed as given)."""
        return {**super().to_request(), **self.model_dump(include={"id"} & self.model_fields_set)}


class HeldIn(HandIn):
    """The Hand JSON form of 13 or 14 held tiles: ``win_tile`` optional."""

    win_tile: str | None = Field(None, description="counted as one more standing tile when given")


class WaitsRequest(HandRequest, Seats):
    """13 or 14 held tiles, where they are played, and the tiles seen: the `mcr waits` request."""

    model_config = ConfigDict(**STRICT_JSON, json_schema_extra={"examples": [
        {"hand": "123456789m23p55s", "seat_wind": "S", "seen": "1p 5s"},
        {"hand": "11123455678999m", "prevalent_wind": "S"},
        {"hand": {"concealed": ["5p", "6p", "7p", "2p", "3p", "4p", "1s"],
                  "melds": [{"kind": "chow", "tiles": ["5m", "6m", "7m"], "from": 1, "claimed": 1},
                            {"kind": "chow", "tiles": ["5s", "6s", "7s"], "from": 1, "claimed": 2}]},
         "seen": ["1s", "1s"]}]})

    hand: str | HeldIn = Field(description="13 or 14 tiles in notation (melds in brackets, no winning tile "
                               "set apart) or Hand JSON")
    seen: str | list[str] = Field([], description="tiles already seen (discards, others' melds): notation "
                                  "runs or codes; they count against the copies left")


class ScanForm(Situation):
    """The multipart form of ``POST /v1/scan``: the photo, the situation and what the photo cannot show."""

    photo: UploadFile = Field(description="the photo: JPEG, PNG, WebP or HEIC / HEIF")
    flowers: int | None = Field(None, ge=0, le=8, description="flowers drawn, if not all are in the photo")
    win_tile: str | None = Field(None, description="the winning tile, if the photo does not set it apart",
                                 examples=["5p"])
    melds: str | None = Field(None, description="every meld of the hand, in brackets as in hand notation, in place "
                              "of those read (a kong shown face down, a claim the photo does not show), or `none` "
                              "where tiles read as melds stand",
                              examples=["[EEEE][567m,2]"])
    annotate: bool = Field(False, description="also return the photo annotated, as a JPEG data URL")
    all_sides: bool = Field(False, description="read the photo from its four sides even when the first "
                            "reading is sure (it is done anyway when not; up to 4x the time)")


class DetectForm(Request):
    """The multipart form of ``POST /v1/detect``."""

    photo: UploadFile = Field(description="the photo: JPEG, PNG, WebP or HEIC / HEIF")


class Fan(BaseModel):
    id: int = Field(description="fan number in the rulebook (81 = flowers)")
    en: str
    zh: str
    points: int = Field(description="points for one occurrence")
    count: int
    evidence: list[str] = Field(description="the sets or tiles that make each occurrence")


class ReadingSet(BaseModel):
    kind: str = Field(description="chow, pung, kong, pair, knitted or single")
    tiles: str
    concealed: bool


class Reading(BaseModel):
    form: str
    sets: list[ReadingSet]


class SituationOut(BaseModel):
    win: Literal["discard", "self_drawn"]
    seat_wind: Wind
    prevalent_wind: Wind
    last_of_kind: bool
    kong_replacement: bool
    robbing_kong: bool
    last_wall_tile: bool
    discarder: Wind | None


class Score(BaseModel):
    """The scorer's result: `mcr score --json`, field for field."""

    model_config = ConfigDict(json_schema_extra={"examples": [{
        "ok": True, "hand": EXAMPLE_NOTATION,
        "situation": {"win": "self_drawn", "seat_wind": "S", "prevalent_wind": "E", "last_of_kind": False,
                      "kong_replacement": False, "robbing_kong": False, "last_wall_tile": False, "discarder": None},
        "fans": [{"id": 0, "en": "...", "zh": "...", "points": 8, "count": 1, "evidence": ["..."]}],
        "fan_points": 8, "total": 8, "is_win": True, "error": None,
        "payouts": {"E": -16, "S": 48, "W": -16, "N": -16}, "reading": {"form": "regular", "sets": []}}]})

    ok: bool
    hand: str = Field(description="the hand in notation")
    situation: SituationOut
    fans: list[Fan]
    fan_points: int = Field(description="points without flowers: what must reach 8")
    total: int = Field(description="points with flowers")
    is_win: bool
    error: Literal["not_a_win", "under_8"] | None = Field(description="why the hand is a false win")
    payouts: dict[str, int] = Field(description="seat wind -> points won (+) or paid (-)")
    reading: Reading | None


class Wait(BaseModel):
    tile: str = Field(examples=["4p"])
    kind: Literal["edge", "closed", "single", "two_sided", "pung", "knitted", "thirteen_orphans"] = Field(
        description="how the tile finishes the reading it scores with")
    unseen: int = Field(description="copies neither held nor seen")
    discard: Score = Field(description="the win on a discard, as `mcr score --json`")
    self_drawn: Score = Field(description="the win self-drawn")


class Waits(BaseModel):
    """`mcr waits --json` for 13 tiles."""

    ready: bool
    shanten: int = Field(description="tiles to exchange before ready; 0 when ready")
    waits: list[Wait] = Field(description="every winning tile, in tile order")


class DiscardOption(Waits):
    tile: str = Field(description="the tile discarded", examples=["5m"])
    winning_tiles: int = Field(description="unseen copies of the waits worth 8 or more: tiles left to win on")


class Discards(BaseModel):
    """`mcr waits --json` for 14 tiles: each discard, best first."""

    shanten: int = Field(description="of the 14 tiles: -1 when they are already a complete hand")
    discards: list[DiscardOption]


class ScoreAnswer(Score):
    """The answer of ``POST /v1/score``: the score, with the request's ``id`` when it had one."""

    id: RequestId = Field(None, description="the request's id, echoed (absent when the request had none)")


class RunnerUp(BaseModel):
    code: str = Field(examples=["6p"])
    confidence: float


class DetectedTile(BaseModel):
    code: str = Field(examples=["5p"])
    confidence: float
    box: list[float] = Field(description="x1, y1, x2, y2 in photo pixels")
    runner_up: RunnerUp | None = Field(description="the face the detector scored second there (null: none "
                                                   "scored 0.05 or more)")


class Detection(BaseModel):
    """`mcr detect --json` for one uploaded photo."""

    image: str = Field(description="the uploaded file's name")
    width: int
    height: int
    tiles: list[DetectedTile]


class Group(BaseModel):
    role: Literal["concealed", "win", "meld", "flowers"]
    kind: Literal["chow", "pung", "kong"] | None
    tiles: list[int] = Field(description="indices into tiles")
    from_: int | None = Field(alias="from")
    concealed: bool


class ParsedHand(BaseModel):
    """The Hand JSON form with its notation."""

    notation: str = Field(examples=[EXAMPLE_NOTATION])
    concealed: list[str]
    melds: list[dict[str, Any]]
    win_tile: str
    flowers: list[str] | int


class ScannedHand(ParsedHand):
    groups: list[Group]


class Doubt(BaseModel):
    kind: Literal["low_confidence", "impossible", "assumed"]
    tiles: list[int]
    message: str
    alternatives: list[str]


class Scan(Detection):
    """`mcr scan --json` for one uploaded photo, plus the annotated photo when asked for."""

    hand: ScannedHand | None
    score: Score | None
    doubts: list[Doubt]
    annotated: str | None = Field(None, description="the annotated photo as a data:image/jpeg;base64 URL")


class ModelInfo(BaseModel):
    name: str = Field(examples=["mcr-tiles.onnx"])
    version: str
    classes: list[str]
    input_size: int = Field(description="side of the square model input, pixels")


class TileFace(BaseModel):
    code: str = Field(examples=["5p"])
    kind: Literal["m", "p", "s", "wind", "dragon", "flower", "season", "back"]
    rank: int = Field(description="1-9 for suits; order within winds, dragons, flowers, seasons")
    en: str = Field(examples=["5 Dots"])
    zh: str = Field(examples=["五筒"])


class Health(BaseModel):
    status: Literal["ok"]
    model: Literal["loaded", "missing"]


class Problem(BaseModel):
    """Every 4xx answer: a stable code and a message naming the problem."""

    error: str = Field(examples=["corrupt_image"])
    detail: str = Field(examples=["corrupt JPEG image: the file is truncated (its end marker is missing)"])
