"""A score request as the command line's ``--jsonl`` stream and the HTTP API receive it.

``{"hand": "<notation>" | {Hand JSON}, "win": "discard" | "self_drawn", "seat_wind": "E",
"prevalent_wind": "E", "flowers": 0 | ["1f", ...], "last_of_kind": false, "kong_replacement": false,
"robbing_kong": false, "last_wall_tile": false, "discarder": "N"}``; all but ``hand`` optional.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from scoring.hand import Hand, HandError, Situation, check_flower_count
from scoring.notation import format_hand, parse_hand
from scoring.score import score
from scoring.tiles import tile

FIELDS = frozenset(
    {"hand", "win", "seat_wind", "prevalent_wind", "flowers", "last_of_kind", "kong_replacement",
     "robbing_kong", "last_wall_tile", "discarder"}
)


def read_request(data: Any) -> tuple[Hand, Situation]:
    """The hand and situation of a request; a ``HandError`` names whatever is wrong with it."""
    if not isinstance(data, dict):
        raise HandError("a request is a JSON object with at least a hand")
    unknown = sorted(set(data) - FIELDS)
    if unknown:
        raise HandError(f"unknown request field(s): {', '.join(unknown)}")
    if "hand" not in data:
        raise HandError("the request has no hand")
    given = data["hand"]
    if isinstance(given, str):
        hand = parse_hand(given)
    elif isinstance(given, dict):
        hand = Hand.from_json(given)
    else:
        raise HandError("hand must be a notation string or a Hand JSON object")
    if "flowers" in data:
        hand = with_flowers(hand, data["flowers"])
    return hand, Situation.from_json(data)


def with_flowers(hand: Hand, flowers: Any) -> Hand:
    """The hand with its flowers replaced by a count or a list of flower codes."""
    if isinstance(flowers, bool) or not isinstance(flowers, (int, list)):
        raise HandError("flowers must be a count 0-8 or a list of 1f-8f")
    if isinstance(flowers, int):
        return replace(hand, flowers=(), flower_count=check_flower_count(flowers))
    if not all(isinstance(f, str) for f in flowers):
        raise HandError("flowers must be a list of flower codes 1f-8f")
    faces = tuple(tile(f) for f in flowers)
    return replace(hand, flowers=faces, flower_count=len(faces))


def answer_request(request: Any, raise_errors: bool = False) -> dict[str, Any]:
    """The JSON answer to one request (`mcr score --jsonl`, `POST /v1/score`): ``{"ok": true, ...result}``,
    or ``{"ok": false, "error": ...}`` (with ``raise_errors`` the `HandError`/`ValueError` is raised instead)."""
    try:
        hand, situation = read_request(request)
        result = score(hand, situation)
    except (HandError, ValueError) as exc:
        if raise_errors:
            raise
        return {"ok": False, "error": str(exc)}
    return {"ok": True, "hand": format_hand(hand), "situation": situation.to_json(), **result.to_json()}
