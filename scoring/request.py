"""A score request as the command line's ``--jsonl`` stream and the HTTP API receive it.

``{"hand": "<notation>" | {Hand JSON}, "win": "discard" | "self_drawn", "seat_wind": "E",
"prevalent_wind": "E", "flowers": 0 | ["1f", ...], "last_of_kind": false, "kong_replacement": false,
"robbing_kong": false, "last_wall_tile": false, "discarder": "N", "id": "any JSON scalar"}``; all but
``hand`` optional. An ``id`` is not read: it is echoed in the answer, so a stream of answers can be paired with
its questions by more than their order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, TypeVar

from scoring.hand import Hand, HandError, Situation, check_flower_count
from scoring.held import Held
from scoring.json_text import dumps, string
from scoring.notation import format_hand, parse_hand
from scoring.score import ScoreResult, score
from scoring.tiles import tile

FIELDS = frozenset(
    {"hand", "win", "seat_wind", "prevalent_wind", "flowers", "last_of_kind", "kong_replacement",
     "robbing_kong", "last_wall_tile", "discarder", "id"}
)
_SCALARS = (str, int, float, bool, type(None))
H = TypeVar("H", Hand, Held)  # a finished hand, or the tiles held before one


def read_request(data: Any) -> tuple[Hand, Situation]:
    """The hand and situation of a request; a ``HandError`` names whatever is wrong with it."""
    hand = read_hand(data, FIELDS, parse_hand, Hand.from_json)
    return hand, Situation.from_json(data)


def read_hand(data: Any, fields: frozenset[str], notation: Callable[[str], H], json: Callable[[Any], H]) -> H:
    """The ``hand`` of a request object with only ``fields``, read by ``notation`` from a string or by ``json``
    from an object, its flowers replaced by the request's ``flowers`` when given."""
    if not isinstance(data, dict):
        raise HandError("a request is a JSON object with at least a hand")
    if not fields.issuperset(data):
        raise HandError(f"unknown request field(s): {', '.join(sorted(set(data) - fields))}")
    if "hand" not in data:
        raise HandError("the request has no hand")
    given = data["hand"]
    if isinstance(given, str):
        hand = notation(given)
    elif isinstance(given, dict):
        hand = json(given)
    else:
        raise HandError("hand must be a notation string or a Hand JSON object")
    return with_flowers(hand, data["flowers"]) if "flowers" in data else hand


def with_flowers(hand: H, flowers: Any) -> H:
    """The hand (a ``Hand`` or a ``Held``) with its flowers replaced by a count or a list of flower codes."""
    if isinstance(flowers, bool) or not isinstance(flowers, (int, list)):
        raise HandError("flowers must be a count 0-8 or a list of 1f-8f")
    if isinstance(flowers, int):
        return replace(hand, flowers=(), flower_count=check_flower_count(flowers))
    if not all(isinstance(f, str) for f in flowers):
        raise HandError("flowers must be a list of flower codes 1f-8f")
    faces = tuple(tile(f) for f in flowers)
    return replace(hand, flowers=faces, flower_count=len(faces))


def request_id(data: Any) -> dict[str, Any]:
    """The request's ``id`` as the answer echoes it: ``{"id": ...}``, or nothing when there is none; an id
    that is not a JSON scalar is a ``HandError``."""
    if not isinstance(data, dict) or "id" not in data:
        return {}
    if not isinstance(data["id"], _SCALARS):
        raise HandError("id must be a JSON scalar: a string, a number, true, false or null")
    return {"id": data["id"]}


def answer_json(hand: Hand, situation: Situation, result: ScoreResult) -> dict[str, Any]:
    """A scored hand as `mcr score --json` prints it: ``{"ok": true, "hand", "situation", ...result}``."""
    return {"ok": True, "hand": format_hand(hand), "situation": situation.to_json(), **result.to_json()}


def answer_request(request: Any, raise_errors: bool = False) -> dict[str, Any]:
    """The JSON answer to one request (`mcr score --jsonl`, `POST /v1/score`): ``{"ok": true, ...result}``,
    or ``{"ok": false, "error": ...}`` (with ``raise_errors`` the `HandError`/`ValueError` is raised instead);
    either echoes the request's ``id`` when it has a valid one."""
    echo: dict[str, Any] = {}
    try:
        echo = request_id(request)
        hand, situation = read_request(request)
        result = score(hand, situation)
    except (HandError, ValueError) as exc:
        if raise_errors:
            raise
        return {**echo, "ok": False, "error": str(exc)}
    return {**echo, **answer_json(hand, situation, result)}


def answer_line(request: Any) -> str:
    """`answer_request`'s answer as `json_text.dumps` writes it (a line of `mcr score --jsonl`), put together from
    the kept text of its situation, fans and sets; a request that fails is answered by `answer_request`."""
    try:
        echo = request_id(request)
        hand, situation = read_request(request)
        result = score(hand, situation)
    except (HandError, ValueError):
        return dumps(answer_request(request))
    head = f'{{"id": {dumps(echo["id"])}, ' if echo else "{"
    return (f'{head}"ok": true, "hand": {string(format_hand(hand))}, "situation": {situation.json_text}, '
            f"{result.json_members()}}}")
